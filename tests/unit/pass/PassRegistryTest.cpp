//===- PassRegistryTest.cpp - Passes by name, arguments, pipelines, scopes -===//
#include "TestModules.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

std::string errorText(llvm::Error E) { return toString(std::move(E)); }

// --- Registry --------------------------------------------------------------

TEST(PassRegistryTest, CorePassesAreRegistered) {
  StinkyTofuContext Ctx;
  const PassRegistry &R = passRegistry(Ctx);
  const PassInfo *CFG = R.find("CFGBuilder");
  ASSERT_NE(CFG, nullptr);
  EXPECT_EQ(CFG->Name, "CFGBuilder");
  EXPECT_FALSE(CFG->Description.empty());
  ASSERT_NE(R.find("Verifier"), nullptr);
  EXPECT_EQ(R.find("cfgbuilder"), nullptr) << "names are case-sensitive";
  EXPECT_EQ(R.find("NoSuchPass"), nullptr);

  // Registered once each.
  for (const PassInfo &P : R.passes()) {
    unsigned N = 0;
    for (const PassInfo &Q : R.passes())
      N += P.Name == Q.Name;
    EXPECT_EQ(N, 1u) << P.Name;
  }
}

TEST(PassRegistryTest, CreateByName) {
  StinkyTofuContext Ctx;
  const PassRegistry &R = passRegistry(Ctx);
  llvm::Expected<std::unique_ptr<Pass>> P = R.create("CFGBuilder");
  ASSERT_TRUE(static_cast<bool>(P)) << errorText(P.takeError());
  EXPECT_EQ((*P)->name(), "CFGBuilder");
  llvm::Expected<std::unique_ptr<Pass>> V = R.create("Verifier");
  ASSERT_TRUE(static_cast<bool>(V)) << errorText(V.takeError());
  EXPECT_EQ((*V)->name(), "Verifier");

  llvm::Expected<std::unique_ptr<Pass>> Unknown = R.create("NoSuchPass=a");
  ASSERT_FALSE(static_cast<bool>(Unknown));
  std::string Message = errorText(Unknown.takeError());
  EXPECT_EQ(Message.rfind("unknown pass 'NoSuchPass' (known: ", 0), 0u) << Message;
  EXPECT_NE(Message.find("CFGBuilder"), std::string::npos);

  llvm::Expected<std::unique_ptr<Pass>> BadArgs = R.create("CFGBuilder=x");
  ASSERT_FALSE(static_cast<bool>(BadArgs));
  EXPECT_EQ(errorText(BadArgs.takeError()), "CFGBuilder: takes no arguments");
}

/// A pass that only exists to show what its factory received.
class NullPass final : public Pass {
public:
  llvm::StringRef name() const override { return "Null"; }
  llvm::Expected<PreservedAnalyses> run(Module &, AnalysisManager &, const PassScope &) override {
    return PreservedAnalyses::all();
  }
};

TEST(PassRegistryTest, ArgumentsReachTheFactory) {
  PseudoInstructionRegistry Pseudos;
  PassRegistry R(Pseudos);
  PassArguments Seen;
  R.add({"Mine", "test pass",
         [&](const PassArguments &Args) -> llvm::Expected<std::unique_ptr<Pass>> {
           Seen = Args;
           if (!Args.empty() && Args.front().first == "bad")
             return llvm::createStringError(llvm::inconvertibleErrorCode(), "bad argument");
           return std::make_unique<NullPass>();
         }});
  ASSERT_EQ(R.passes().size(), 1u);
  ASSERT_TRUE(static_cast<bool>(R.create("Mine=pgr=1, lead = 100,flag")));
  EXPECT_EQ(Seen, (PassArguments{{"pgr", "1"}, {"lead", "100"}, {"flag", ""}}));
  ASSERT_TRUE(static_cast<bool>(R.create("Mine")));
  EXPECT_TRUE(Seen.empty());
  llvm::Expected<std::unique_ptr<Pass>> Bad = R.create("Mine=bad");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(errorText(Bad.takeError()), "Mine: bad argument");
  EXPECT_FALSE(static_cast<bool>(R.create("CFGBuilder"))) << "a fresh registry is empty";
  consumeError(R.create("CFGBuilder").takeError());

  // Leading arguments (a driver's options) come first; the spec's own win.
  ASSERT_TRUE(static_cast<bool>(R.create("Mine=flag=0", {{"flag", ""}, {"out", "f"}})));
  EXPECT_EQ(Seen, (PassArguments{{"flag", ""}, {"out", "f"}, {"flag", "0"}}));
}

TEST(PassRegistryTest, TargetsArgumentGatesThePass) {
  PseudoInstructionRegistry Pseudos;
  PassRegistry R(Pseudos);
  PassArguments Seen;
  R.add({"Mine", "test pass",
         [&](const PassArguments &Args) -> llvm::Expected<std::unique_ptr<Pass>> {
           Seen = Args;
           return std::make_unique<NullPass>();
         }});
  // The registry takes `targets=` for itself; the pass keeps its name.
  llvm::Expected<std::unique_ptr<Pass>> P = R.create("Mine=flag,targets=gfx1250:gfx950");
  ASSERT_TRUE(static_cast<bool>(P)) << errorText(P.takeError());
  EXPECT_EQ(Seen, (PassArguments{{"flag", ""}}));
  EXPECT_EQ((*P)->name(), "Null");
  llvm::Expected<std::unique_ptr<Pass>> None = R.create("Mine=targets=");
  ASSERT_FALSE(static_cast<bool>(None));
  EXPECT_EQ(errorText(None.takeError()),
            "Mine: targets= names no processor (targets=gfx1250:...)");
}

TEST(PassRegistryTest, RegisteringAgainReplacesAndRegistersPseudoInstructions) {
  PseudoInstructionRegistry Pseudos;
  PassRegistry R(Pseudos);
  auto Factory = [](const PassArguments &) -> llvm::Expected<std::unique_ptr<Pass>> {
    return std::make_unique<NullPass>();
  };
  R.add({"Lowering", "first", Factory, {"my_pseudo"}});
  R.add({"Lowering", "second", Factory, {"my_pseudo"}});
  ASSERT_EQ(R.passes().size(), 1u);
  EXPECT_EQ(R.passes()[0].Description, "second");
  const PseudoInstructionInfo *Info = Pseudos.findStatement("  MY_PSEUDO s0, 1");
  ASSERT_NE(Info, nullptr);
  EXPECT_EQ(Info->LoweredBy, "Lowering");
  EXPECT_EQ(Pseudos.entries().size(), 1u);
}

TEST(PassRegistryTest, ParsePassArguments) {
  EXPECT_TRUE(parsePassArguments("").empty());
  EXPECT_EQ(parsePassArguments("a"), (PassArguments{{"a", ""}}));
  EXPECT_EQ(parsePassArguments("a,,b=2"), (PassArguments{{"a", ""}, {"b", "2"}}));
  EXPECT_EQ(parsePassArguments("k=v=w"), (PassArguments{{"k", "v=w"}}));
}

// --- --passes syntax -------------------------------------------------------

TEST(PassPipelineTest, ParsesNamesAndParenthesisedArguments) {
  auto Specs = parsePassPipeline("LongBranchLoweringPass,CFGBuilder");
  ASSERT_TRUE(static_cast<bool>(Specs)) << errorText(Specs.takeError());
  EXPECT_EQ(*Specs, (std::vector<std::string>{"LongBranchLoweringPass", "CFGBuilder"}));

  Specs = parsePassPipeline(" A , B(pgr=1,lead=100) ,C(), D( flag ) ");
  ASSERT_TRUE(static_cast<bool>(Specs)) << errorText(Specs.takeError());
  EXPECT_EQ(*Specs, (std::vector<std::string>{"A", "B=pgr=1,lead=100", "C", "D=flag"}));
}

TEST(PassPipelineTest, SyntaxErrors) {
  auto Check = [](llvm::StringRef Text, llvm::StringRef Expected) {
    auto Specs = parsePassPipeline(Text);
    ASSERT_FALSE(static_cast<bool>(Specs)) << Text.str();
    EXPECT_EQ(errorText(Specs.takeError()), Expected.str());
  };
  Check("", "--passes='': empty pass name");
  Check("A,,B", "--passes='A,,B': empty pass name");
  Check("A,", "--passes='A,': empty pass name");
  Check("A(x", "--passes='A(x': unbalanced '('");
  Check("A)x", "--passes='A)x': unbalanced ')'");
  Check("(x)", "--passes='(x)': empty pass name");
  Check("A(x)y", "--passes='A(x)y': 'A(x)y': text after the closing ')'");
  Check("A=x", "--passes='A=x': 'A=x': give a pass's arguments in parentheses, e.g. 'A(x)'");
}

TEST(PassPipelineTest, AddPassesBuildsThePipeline) {
  StinkyTofuContext Ctx;
  const PassRegistry &R = passRegistry(Ctx);
  PassManager PM(Ctx);
  ASSERT_FALSE(static_cast<bool>(addPasses(PM, {"CFGBuilder", "Verifier", "CFGBuilder"}, R)));
  EXPECT_EQ(PM.size(), 3u);
  llvm::Error E = addPasses(PM, {"Verifier", "Nope"}, R);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(errorText(std::move(E)).rfind("unknown pass 'Nope'", 0), 0u);

  // Leading arguments reach the pass of their name only.
  llvm::StringMap<PassArguments> Leading{{"CFGBuilder", {{"x", ""}}}};
  EXPECT_FALSE(static_cast<bool>(addPasses(PM, {"Verifier"}, R, Leading)));
  EXPECT_EQ(errorText(addPasses(PM, {"CFGBuilder"}, R, Leading)),
            "CFGBuilder: takes no arguments");
}

// How pipelines end (docs/passes.md): the repair after the last pass that
// changes code, the verifiers at the end, nothing twice, nothing for a
// pipeline that changes no code.
TEST(PassPipelineTest, EndPipelineProven) {
  StinkyTofuContext Ctx;
  const PassRegistry &R = passRegistry(Ctx);
  using Specs = std::vector<std::string>;
  auto Proven = [&](Specs S, size_t *FirstVerifier = nullptr) {
    size_t First = endPipelineProven(S, R);
    if (FirstVerifier)
      *FirstVerifier = First;
    return S;
  };

  size_t First = 0;
  EXPECT_EQ(Proven({}, &First), Specs{});
  EXPECT_EQ(First, 0u);
  EXPECT_EQ(Proven({"CFGBuilder", "EstimateAsmCyclesPass", "HazardRecognizerPass"}),
            (Specs{"CFGBuilder", "EstimateAsmCyclesPass", "HazardRecognizerPass"}));

  EXPECT_EQ(Proven({"CFGBuilder", "AsmMovePropagationPass=", "DumpStinkyModulePass"}, &First),
            (Specs{"LongBranchLoweringPass", "CallTargetRecoveryPass", "CFGBuilder",
                   "AsmMovePropagationPass=", "HazardRecognizerPass", "InsertWaitAluPass",
                   "InsertDelayAluPass", "DumpStinkyModulePass", "WaitCntVerifier",
                   "HazardVerifier"}));
  EXPECT_EQ(First, 8u);

  // The recovery before the first change, the repair after the last, a
  // verifier already there (by its alias): only the other verifier.
  EXPECT_EQ(Proven({"LongBranchLoweringPass", "CallTargetRecoveryPass", "StinkyRemoveNopPass",
                    "HazardRecognizerPass", "InsertWaitAluPass", "InsertDelayAluPass",
                    "WaitCntValidationCheckPass=warnRedundant"},
                   &First),
            (Specs{"LongBranchLoweringPass", "CallTargetRecoveryPass", "StinkyRemoveNopPass",
                   "HazardRecognizerPass", "InsertWaitAluPass", "InsertDelayAluPass",
                   "WaitCntValidationCheckPass=warnRedundant", "HazardVerifier"}));
  EXPECT_EQ(First, 7u);

  // A repair pass before the last change does not count, nor a recovery
  // pass after the first.
  EXPECT_EQ(Proven({"HazardRecognizerPass", "InsertWaitAluPass", "InsertDelayAluPass",
                    "RemoveDelayAluPass", "LongBranchLoweringPass", "CallTargetRecoveryPass"}),
            (Specs{"LongBranchLoweringPass", "CallTargetRecoveryPass", "HazardRecognizerPass",
                   "InsertWaitAluPass", "InsertDelayAluPass", "RemoveDelayAluPass",
                   "HazardRecognizerPass", "InsertWaitAluPass", "InsertDelayAluPass",
                   "LongBranchLoweringPass", "CallTargetRecoveryPass", "WaitCntVerifier",
                   "HazardVerifier"}));

  // -O: the recovery and the repair are part of the pipeline, the
  // verifiers are added.
  llvm::Expected<Specs> O3 = standardPipeline(3);
  ASSERT_TRUE(static_cast<bool>(O3));
  Specs Expected = *O3;
  EXPECT_EQ(Expected.back(), "AccumulateInstructionSizePass=targets=gfx1250");
  Expected.push_back("WaitCntVerifier");
  Expected.push_back("HazardVerifier");
  EXPECT_EQ(Proven(*O3), Expected);
}

TEST(PassPipelineTest, PrintPassList) {
  PseudoInstructionRegistry Pseudos;
  PassRegistry R(Pseudos);
  auto Factory = [](const PassArguments &) -> llvm::Expected<std::unique_ptr<Pass>> {
    return std::make_unique<NullPass>();
  };
  R.add({"Short", "first", Factory});
  R.add({"MuchLongerName", "second", Factory});
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printPassList(R, OS);
  EXPECT_EQ(Out, "Short           first\n"
                 "MuchLongerName  second\n");
}

// --- --from-label / --to-label --------------------------------------------

const char *ScopeKernel = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1250\"\n"
                          "\t.text\n"
                          "\t.set label_Alias, label_B\n"
                          "k:\n"
                          "\ts_nop 0\n"          // 0
                          "label_A:\n"
                          "\ts_nop 1\n"          // 1
                          "\ts_branch label_C\n" // 2
                          "\ts_nop 2\n"          // 3 (unlabelled tail of label_A)
                          "label_B:\n"
                          "\ts_nop 3\n" // 4
                          "label_Empty:\n"
                          "label_C:\n"
                          "\ts_nop 4\n"   // 5
                          "\ts_endpgm\n" // 6
                          ".Lend:\n";

class LabelScopeTest : public ::testing::Test {
protected:
  void SetUp() override {
    M = test::readAsmText(ScopeKernel, "", false, "scope.s");
    ASSERT_TRUE(M);
    for (const Function &F : M->functions())
      for (const BasicBlock &BB : F.blocks())
        for (const Instruction &I : BB.instructions())
          Insts.push_back(&I);
    ASSERT_EQ(Insts.size(), 7u);
  }
  PassScope scope(llvm::StringRef From, llvm::StringRef To) {
    llvm::Expected<PassScope> S = resolveLabelScope(*M, From, To);
    EXPECT_TRUE(static_cast<bool>(S)) << errorText(S.takeError());
    return S ? *S : PassScope();
  }
  std::string error(llvm::StringRef From, llvm::StringRef To) {
    llvm::Expected<PassScope> S = resolveLabelScope(*M, From, To);
    EXPECT_FALSE(static_cast<bool>(S));
    return S ? "" : errorText(S.takeError());
  }
  /// The indexes in Insts of the instructions in \p S.
  std::vector<size_t> inside(const PassScope &S) {
    std::vector<size_t> In;
    for (size_t I = 0; I < Insts.size(); ++I)
      if (inScope(*M, S, *Insts[I]))
        In.push_back(I);
    return In;
  }
  static std::vector<size_t> range(size_t First, size_t Last) {
    std::vector<size_t> R;
    for (size_t I = First; I <= Last; ++I)
      R.push_back(I);
    return R;
  }
  std::unique_ptr<Module> M;
  std::vector<const Instruction *> Insts;
};

TEST_F(LabelScopeTest, Regions) {
  EXPECT_TRUE(scope("", "").isWholeModule());

  // label_A's block runs to the next label: its unlabelled tail included.
  EXPECT_EQ(inside(scope("label_A", "label_A")), range(1, 3));
  EXPECT_EQ(inside(scope("label_A", "label_B")), range(1, 4));

  // An empty labelled block ends where it starts; as a start it begins at
  // the next instruction.
  EXPECT_EQ(inside(scope("k", "label_Empty")), range(0, 4));
  EXPECT_EQ(inside(scope("label_Empty", "label_C")), range(5, 6));

  // One bound only.
  EXPECT_EQ(inside(scope("label_B", "")), range(4, 6));
  EXPECT_EQ(inside(scope("", "label_A")), range(0, 3));

  // `.set` aliases are followed.
  EXPECT_EQ(inside(scope("label_Alias", "label_Alias")), range(4, 4));
}

TEST_F(LabelScopeTest, Errors) {
  EXPECT_EQ(error("label_Nope", ""), "--from-label: no label 'label_Nope' in scope.s");
  EXPECT_EQ(error("label_A", "label_Nope"), "--to-label: no label 'label_Nope' in scope.s");
  EXPECT_EQ(error("label_B", "label_A"),
            "--to-label 'label_A' comes before --from-label 'label_B'");
  EXPECT_EQ(error("label_Empty", "label_Empty"),
            "the region from 'label_Empty' to 'label_Empty' holds no instructions");
}

} // namespace
