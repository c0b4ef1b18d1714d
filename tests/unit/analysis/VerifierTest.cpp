//===- VerifierTest.cpp - Structural invariants of the Asm IR --------------===//
#include "stinkytofu/analysis/Verifier.h"
#include "TestModules.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const char *KernelAndCallable = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1250\"\n" // 1
                                "\t.text\n"                                         // 2
                                "\t.globl k\n"                                      // 3
                                "\t.type k,@function\n"                             // 4
                                "k:\n"                                              // 5
                                "\ts_cmp_eq_u32 s0, 0\n"                            // 6
                                "\ts_cbranch_scc1 label_End\n"                      // 7
                                "label_Mid:\n"                                      // 8
                                "\ts_nop 0\n"                                       // 9
                                "\ts_branch label_End\n"                            // 10
                                "label_End:\n"                                      // 11
                                "\ts_endpgm\n"                                      // 12
                                ".Lfunc_end0:\n"                                    // 13
                                "\t.size k, .Lfunc_end0-k\n"                        // 14
                                "\t.type f,@function\n"                             // 15
                                "f:\n"                                              // 16
                                "\ts_nop 1\n"                                       // 17
                                "label_InF:\n"                                      // 18
                                "\ts_setpc_b64 s[30:31]\n"                          // 19
                                ".Lfunc_end1:\n"                                    // 20
                                "\t.size f, .Lfunc_end1-f\n";                       // 21

std::unique_ptr<Module> readForVerifier(llvm::StringRef Text) {
  return test::readAsmText(Text, "", false, "v.s");
}

std::string verify(const Module &M) {
  llvm::Error E = verifyModule(M);
  return E ? toString(std::move(E)) : "";
}

void buildAll(Module &M) {
  for (Function &F : M.functions())
    buildCFG(F);
}

Instruction *find(Module &M, llvm::StringRef Mnemonic) {
  for (Function &F : M.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        if (I.mnemonic() == Mnemonic)
          return &I;
  ADD_FAILURE() << Mnemonic.str();
  return nullptr;
}

TEST(VerifierTest, WellFormedModuleVerifiesWithAndWithoutCFG) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  EXPECT_EQ(verify(*M), "");
  buildAll(*M);
  EXPECT_EQ(verify(*M), "");
}

TEST(VerifierTest, BranchToMissingLabel) {
  std::string Text = KernelAndCallable;
  Text.replace(Text.find("s_branch label_End"), 18, "s_branch label_Gone");
  auto M = readForVerifier(Text);
  ASSERT_TRUE(M);
  EXPECT_EQ(verify(*M), "v.s:10:2: error: branch target 'label_Gone' is not a label in "
                        "this module\n"
                        // The tab expanded, the caret under the mnemonic.
                        "        s_branch label_Gone\n"
                        "        ^");
}

TEST(VerifierTest, BranchIntoAnotherFunction) {
  std::string Text = KernelAndCallable;
  Text.replace(Text.find("s_branch label_End"), 18, "s_branch label_InF");
  auto M = readForVerifier(Text);
  ASSERT_TRUE(M);
  std::string Message = verify(*M);
  EXPECT_EQ(Message.rfind("v.s:10:2: error: branch target 'label_InF' is a label of "
                          "function 'f', not of 'k'\n",
                          0),
            0u)
      << Message;
}

TEST(VerifierTest, LabelDataTargetMustExist) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  // A LabelData on the callable's setpc turns it into a branch to label_End,
  // a label of the kernel.
  find(*M, "s_setpc_b64")->setModifier(std::make_unique<LabelData>("label_End"));
  std::string Message = verify(*M);
  EXPECT_NE(Message.find("v.s:19:2: error: branch target 'label_End' is a label of function "
                         "'k', not of 'f'"),
            std::string::npos)
      << Message;
  find(*M, "s_setpc_b64")->setModifier(std::make_unique<LabelData>("label_InF"));
  EXPECT_EQ(verify(*M), "");
}

TEST(VerifierTest, DuplicateLabels) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  M->findFunction("f")->appendBlock("label_Mid");
  std::string Message = verify(*M);
  EXPECT_NE(Message.find("error: in function 'f', block '': label 'label_Mid' is defined "
                         "more than once (first defined at line 8)"),
            std::string::npos)
      << Message;
}

TEST(VerifierTest, ParentPointers) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  Function &K = *M->findFunction("k");
  BasicBlock &Mid = *K.findBlock("label_Mid");
  Mid.instructions().front().setParent(&K.blocks().front());
  std::string Message = verify(*M);
  EXPECT_NE(Message.find("v.s:9:2: error: instruction does not point at its block "
                         "'label_Mid'"),
            std::string::npos)
      << Message;
  Mid.instructions().front().setParent(&Mid);
  Mid.setParent(nullptr);
  Message = verify(*M);
  EXPECT_NE(Message.find("error: block 'label_Mid' of function 'k' does not point at its "
                         "function"),
            std::string::npos)
      << Message;
  Mid.setParent(&K);
  K.setParent(nullptr);
  EXPECT_NE(verify(*M).find("error: function 'k' does not point at its module"),
            std::string::npos);
  K.setParent(M.get());
  EXPECT_EQ(verify(*M), "");
}

TEST(VerifierTest, EdgesMustMatchTheContract) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  buildAll(*M);
  Function &K = *M->findFunction("k");
  BasicBlock &Entry = K.blocks().front();
  BasicBlock &End = *K.findBlock("label_End");
  // Drop k's edges (also the ones into it: there are none).
  Entry.clearEdges();
  std::string Message = verify(*M);
  EXPECT_NE(Message.find("v.s:7:2: error: block 'k' has successors {} but the CFG contract "
                         "gives {^label_Mid, ^label_End} for 's_cbranch_scc1'"),
            std::string::npos)
      << Message;
  // An extra edge out of a block that ends the program.
  Entry.addSuccessor(K.findBlock("label_Mid"), EdgeKind::FallThrough);
  Entry.addSuccessor(&End, EdgeKind::Branch);
  EXPECT_EQ(verify(*M), "");
  End.addSuccessor(&Entry, EdgeKind::Branch);
  Message = verify(*M);
  EXPECT_NE(Message.find("v.s:12:2: error: block 'label_End' has successors {^k} but the "
                         "CFG contract gives {} for 's_endpgm'"),
            std::string::npos)
      << Message;
}

TEST(VerifierTest, EdgeIntoAnotherFunction) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  buildAll(*M);
  BasicBlock &End = *M->findFunction("k")->findBlock("label_End");
  End.addSuccessor(M->findFunction("f")->findBlock("label_InF"), EdgeKind::Branch);
  std::string Message = verify(*M);
  EXPECT_NE(Message.find("error: in function 'k', block 'label_End': edge to block "
                         "'label_InF' of another function"),
            std::string::npos)
      << Message;
}

TEST(VerifierTest, BranchesEndBlocksOnceACFGExists) {
  auto M = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(M);
  buildAll(*M);
  // A pass adds an instruction after k's s_cbranch_scc1 without rebuilding.
  BasicBlock &Entry = M->findFunction("k")->blocks().front();
  llvm::Expected<Instruction> Nop = createInstruction(*M, "s_nop 7");
  ASSERT_TRUE(static_cast<bool>(Nop)) << toString(Nop.takeError());
  Entry.append(std::move(*Nop));
  std::string Message = verify(*M);
  EXPECT_NE(Message.find("v.s:7:2: error: 's_cbranch_scc1' ends block 'k' but instructions "
                         "follow it in the same block (CFG not rebuilt?)"),
            std::string::npos)
      << Message;
  // Created instructions have no location: named by function and block.
  EXPECT_NE(Message.find("v.s: error: in function 'k', block 'k': 's_nop' (no source "
                         "location): block 'k' has successors"),
            std::string::npos)
      << Message;
  buildAll(*M);
  EXPECT_EQ(verify(*M), "");
}

TEST(VerifierTest, ReportsEveryProblem) {
  std::string Text = KernelAndCallable;
  Text.replace(Text.find("s_branch label_End"), 18, "s_branch label_Gone");
  Text.replace(Text.find("s_cbranch_scc1 label_End"), 24, "s_cbranch_scc1 label_Lost");
  auto M = readForVerifier(Text);
  ASSERT_TRUE(M);
  std::string Message = verify(*M);
  size_t First = Message.find("v.s:7:2: error: branch target 'label_Lost'");
  size_t Second = Message.find("v.s:10:2: error: branch target 'label_Gone'");
  EXPECT_NE(First, std::string::npos) << Message;
  EXPECT_NE(Second, std::string::npos) << Message;
  EXPECT_LT(First, Second);
}

TEST(VerifierTest, VerifierPassAndVerifyEach) {
  std::string Text = KernelAndCallable;
  Text.replace(Text.find("s_branch label_End"), 18, "s_branch label_Gone");
  auto Bad = readForVerifier(Text);
  auto Good = readForVerifier(KernelAndCallable);
  ASSERT_TRUE(Bad && Good);

  StinkyTofuContext Ctx;
  const PassRegistry &Registry = passRegistry(Ctx);
  llvm::Expected<std::unique_ptr<Pass>> P = Registry.create("Verifier");
  ASSERT_TRUE(static_cast<bool>(P)) << toString(P.takeError());
  AnalysisManager AM;
  llvm::Expected<PreservedAnalyses> PA = (*P)->run(*Good, AM, PassScope());
  ASSERT_TRUE(static_cast<bool>(PA));
  EXPECT_TRUE(PA->areAllPreserved());
  llvm::Expected<PreservedAnalyses> Failed = (*P)->run(*Bad, AM, PassScope());
  ASSERT_FALSE(static_cast<bool>(Failed));
  EXPECT_NE(toString(Failed.takeError()).find("label_Gone"), std::string::npos);
  EXPECT_FALSE(static_cast<bool>(Registry.create("Verifier=x")));
  consumeError(Registry.create("Verifier=x").takeError());

  PassManagerOptions Opts;
  Opts.VerifyEach = true;
  PassManager PM(Ctx, Opts);
  PM.setVerifier(verifyModule);
  PM.add(cantFail(Registry.create("CFGBuilder")));
  EXPECT_FALSE(static_cast<bool>(PM.run(*Good, AM)));
  llvm::Error E = PM.run(*Bad, AM);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(toString(std::move(E)).rfind("verifier failed after CFGBuilder: v.s:10:2: error: "
                                         "branch target 'label_Gone'",
                                         0),
            0u);
}

} // namespace
