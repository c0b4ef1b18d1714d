//===- ToStinkyTofuTest.cpp - rocisa trees into StinkyTofu IR ------------===//
//
// Every conversion rule and its error; the converted module prints the
// tree's text byte for byte, llvm-mc assembles it for the target, and the
// text path (read the text, LongBranchLoweringPass + CallTargetRecoveryPass)
// gives the same `.stir`.
//
//===----------------------------------------------------------------------===//
#include "BridgeTestSupport.h"
#include "TestKernels.h"
#include "rocisa-bridge/builders/LongBranch.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/InstructionClasses.h"
#include "rocisa-bridge/code/Label.h"
#include "rocisa-bridge/code/TextItems.h"
#include "rocisa-bridge/convert/TargetCaps.h"
#include "rocisa-bridge/convert/ToStinkyTofu.h"
#include "rocisa-bridge/pass/RemoveDuplicatedFunction.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace rocisa;

namespace {

const char *const Targets[] = {"gfx942", "gfx950", "gfx1250"};

std::shared_ptr<CommonInstruction> validInst(const char *Class, std::vector<InstructionInput> Ops,
                                             std::string Comment = "") {
  return llvm::cantFail(makeInstruction(Class, std::move(Ops), std::move(Comment)));
}

/// A loop closed by a backward conditional long branch, then every other
/// long-branch builder towards label_End.
std::shared_ptr<KernelBody> longBranchKernel(const std::string &Arch) {
  bool AddPC = llvm::cantFail(hasAddPCI64(Arch));
  auto K = std::make_shared<KernelBody>("gemm");
  K->addSignature(test::kernelSignature(Arch, "gemm"));
  Module &B = *K->body;
  Label Loop("Loop"), End("End");
  ContinuousRegister Tmp{10, 3};
  B.add(validInst("SMovB32", {sgpr(30), int64_t(0)}));
  B.add(std::make_shared<Label>(Loop));
  B.add(validInst("SAddU32", {sgpr(30), sgpr(30), int64_t(1)}));
  if (Arch == "gfx1250") {
    B.add(validInst("SBarrierSignal", {int64_t(-1)}));
    B.add(validInst("SBarrierWait", {int64_t(-1)}));
  } else {
    B.add(validInst("SBarrier", {}));
  }
  B.add(validInst("SCmpLtU32", {sgpr(30), int64_t(8)}));
  B.add(llvm::cantFail(SCLongBranch(LongBranchCondition::Scc1, Loop, Tmp, "LoopDone", "Loop_pos",
                                    -1, AddPC)));
  B.add(validInst("SCmpEQU32", {sgpr(31), int64_t(0)}));
  B.add(llvm::cantFail(SCLongBranch(LongBranchCondition::Scc0, End, Tmp, "NotZero", "End_pos0",
                                    1, AddPC)));
  B.add(llvm::cantFail(SCLongBranch(LongBranchCondition::Vccnz, End, Tmp, "NoVcc", "End_pos1",
                                    0, AddPC)));
  B.add(SBranch(End.getLabelName()));
  B.add(llvm::cantFail(SLongBranch(End, Tmp, "End_pos2")));
  B.add(llvm::cantFail(SLongBranchPositive(End, Tmp, AddPC)));
  B.add(std::make_shared<Label>(End));
  B.add(validInst("SEndpgm", {}));
  return K;
}

/// What every instruction of \p SM carries: `mnemonic label` for LabelData,
/// `mnemonic -> a,b` for CallTargetData, in print order.
std::vector<std::string> metadata(const StinkyModule &SM) {
  std::vector<std::string> Found;
  for (const stinkytofu::Function *F : SM.module().functionsInPrintOrder())
    for (const stinkytofu::BasicBlock &BB : F->blocks())
      for (const stinkytofu::Instruction &I : BB.instructions()) {
        if (const auto *L = I.getModifier<stinkytofu::LabelData>())
          Found.push_back(I.mnemonic().str() + " " + L->Label);
        if (const auto *C = I.getModifier<stinkytofu::CallTargetData>()) {
          std::string Text = I.mnemonic().str() + " ->";
          for (const std::string &Callee : C->Callees)
            Text += " " + Callee;
          Found.push_back(Text);
        }
      }
  return Found;
}

/// llvm-mc's exit code on \p Text for \p Arch (its errors on stderr).
int llvmMc(const std::string &Text, const std::string &Arch) {
  llvm::SmallString<128> In, Out;
  if (llvm::sys::fs::createTemporaryFile("rocisa-bridge", "s", In) ||
      llvm::sys::fs::createTemporaryFile("rocisa-bridge", "o", Out))
    return -1;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(In, EC);
    OS << Text;
  }
  std::string Cpu = "-mcpu=" + Arch, Output = "-o=" + Out.str().str();
  llvm::StringRef Args[] = {ROCISA_BRIDGE_LLVM_MC, "-triple=amdgcn-amd-amdhsa", Cpu,
                            "-filetype=obj", Output, In};
  int RC = llvm::sys::ExecuteAndWait(ROCISA_BRIDGE_LLVM_MC, Args);
  llvm::sys::fs::remove(In);
  llvm::sys::fs::remove(Out);
  return RC;
}

TEST(RocisaToStinkyTofuTest, ActivationKernelBecomesCallableFunctions) {
  for (const char *Arch : Targets) {
    auto K = test::activationKernel(Arch, {1, 4});
    ASSERT_OK(removeDuplicatedFunction(*K->body));
    auto SM = toStinkyTofuModule(*K, Arch);
    ASSERT_OK(SM);
    EXPECT_EQ((*SM)->getFunctionNames(),
              (std::vector<std::string>{"gemm", "label_Activation_Relu_VW1",
                                        "label_Activation_Gelu_VW1", "label_Activation_Relu_VW4",
                                        "label_Activation_Gelu_VW4"}))
        << Arch;
    EXPECT_TRUE((*SM)->hasFunction("label_Activation_Gelu_VW4"));
    std::string VW1 = " -> label_Activation_Relu_VW1 label_Activation_Gelu_VW1";
    std::string VW4 = " -> label_Activation_Relu_VW4 label_Activation_Gelu_VW4";
    EXPECT_EQ(metadata(**SM), (std::vector<std::string>{"s_swappc_b64" + VW1, "s_swappc_b64" + VW1,
                                                        "s_swappc_b64" + VW4,
                                                        "s_swappc_b64" + VW4}))
        << Arch;
    auto Asm = (*SM)->emitAssembly();
    ASSERT_OK(Asm);
    EXPECT_EQ(*Asm, K->toString()) << Arch;
    EXPECT_EQ(llvmMc(*Asm, Arch), 0) << Arch;
  }
}

TEST(RocisaToStinkyTofuTest, LongBranchHintsBecomeLabelData) {
  for (const char *Arch : Targets) {
    auto K = longBranchKernel(Arch);
    auto SM = toStinkyTofuModule(*K, Arch);
    ASSERT_OK(SM);
    std::vector<std::string> Expected = {"s_setpc_b64 label_Loop"};
    bool AddPC = std::string(Arch) == "gfx1250";
    Expected.push_back(AddPC ? "s_add_pc_i64 label_End" : "s_setpc_b64 label_End");
    for (int I = 0; I < 4; ++I)
      Expected.push_back("s_setpc_b64 label_End");
    Expected.push_back(AddPC ? "s_add_pc_i64 label_End" : "s_setpc_b64 label_End");
    EXPECT_EQ(metadata(**SM), Expected) << Arch;
    auto Asm = (*SM)->emitAssembly();
    ASSERT_OK(Asm);
    EXPECT_EQ(*Asm, K->toString()) << Arch;
    EXPECT_EQ(llvmMc(*Asm, Arch), 0) << Arch;
  }
}

TEST(RocisaToStinkyTofuTest, ShortBranchesGetLabelDataOnRequest) {
  auto K = longBranchKernel("gfx942");
  ConversionOptions O;
  O.LabelShortBranches = true;
  auto SM = toStinkyTofuModule(*K, "gfx942", O);
  ASSERT_OK(SM);
  std::vector<std::string> M = metadata(**SM);
  EXPECT_EQ(std::count(M.begin(), M.end(), "s_cbranch_scc0 label_LoopDone"), 1);
  EXPECT_EQ(std::count(M.begin(), M.end(), "s_cbranch_scc1 label_NotZero"), 1);
  EXPECT_EQ(std::count(M.begin(), M.end(), "s_cbranch_vccz label_NoVcc"), 1);
  EXPECT_EQ(std::count(M.begin(), M.end(), "s_branch label_End"), 1);
  EXPECT_EQ(std::count(M.begin(), M.end(), "s_cbranch_scc1 label_End_pos2"), 1);
}

TEST(RocisaToStinkyTofuTest, TheTextPathGivesTheSameModule) {
  for (const char *Arch : Targets) {
    for (bool Activation : {false, true}) {
      auto K = Activation ? test::activationKernel(Arch, {1, 4}) : longBranchKernel(Arch);
      if (Activation)
        ASSERT_OK(removeDuplicatedFunction(*K->body));
      auto Direct = toStinkyTofuModule(*K, Arch);
      ASSERT_OK(Direct);
      auto Text = readStinkyModule(K->toString(), Arch, "gemm");
      ASSERT_OK(Text);
      EXPECT_TRUE(metadata(**Text).empty());
      llvm::Error E = (*Text)->runPasses("LongBranchLoweringPass,CallTargetRecoveryPass");
      ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
      EXPECT_EQ((*Text)->getFunctionNames(), (*Direct)->getFunctionNames()) << Arch;
      EXPECT_EQ(metadata(**Text), metadata(**Direct)) << Arch;
      EXPECT_EQ((*Text)->emitStir(), (*Direct)->emitStir()) << Arch;
      EXPECT_EQ(llvm::cantFail((*Text)->emitAssembly()),
                llvm::cantFail((*Direct)->emitAssembly()));
    }
  }
}

TEST(RocisaToStinkyTofuTest, DirectivesMacrosAndConditionalsStayText) {
  KernelBody K("gemm");
  K.addSignature(test::kernelSignature("gfx942", "gemm"));
  Module &B = *K.body;
  B.add(std::make_shared<ValueSet>("sgprLoopCounter", 30, "the counter"));
  B.add(std::make_shared<ValueSet>("UseBias", 1));
  auto Add = std::make_shared<Macro>("ADD_ONE", std::vector<std::string>{"reg"});
  Add->add("s_add_u32 \\reg, \\reg, 1");
  B.add(Add);
  B.add(std::make_shared<TextBlock>("/* a comment block */\n"));
  B.add(validInst("SMovB32", {sgpr("LoopCounter"), int64_t(0)}, "named register"));
  B.add(std::make_shared<Label>("Loop"));
  B.add(std::make_shared<TextBlock>("ADD_ONE s[sgprLoopCounter]\n"));
  B.add(std::make_shared<ValueIf>("UseBias == 1"));
  B.add(validInst("SAddU32", {sgpr("LoopCounter"), sgpr("LoopCounter"), int64_t(2)}));
  B.add(std::make_shared<ValueElseIf>("UseBias == 2"));
  B.add(validInst("SAddU32", {sgpr("LoopCounter"), sgpr("LoopCounter"), int64_t(3)}));
  B.add(std::make_shared<ValueEndif>());
  B.add(validInst("SCmpLtU32", {sgpr("LoopCounter"), int64_t(8)}));
  B.add(SCBranchSCC1(Label::labelName("Loop")));
  B.add(validInst("SEndpgm", {}));
  auto SM = toStinkyTofuModule(K, "gfx942");
  ASSERT_OK(SM);
  auto Asm = (*SM)->emitAssembly();
  ASSERT_OK(Asm);
  EXPECT_EQ(*Asm, K.toString());
  EXPECT_NE(Asm->find(".set sgprLoopCounter, 30 // the counter\n"), std::string::npos);
  EXPECT_NE(Asm->find(".macro ADD_ONE reg\n  s_add_u32 \\reg, \\reg, 1\n.endm\n"),
            std::string::npos);
  EXPECT_EQ(llvmMc(*Asm, "gfx942"), 0);
  EXPECT_EQ((*SM)->getFunctionNames(), std::vector<std::string>{"gemm"});
}

TEST(RocisaToStinkyTofuTest, DuplicateCallableNameIsAnError) {
  auto K = test::activationKernel("gfx942", {1});
  // Two wrappers of the same labels (as if removal had not run on copies).
  K->body->add(test::activationWrapper(1, ""));
  EXPECT_EQ(test::errorMessage(toStinkyTofuModule(*K, "gfx942")),
            "duplicate callable function 'label_Activation_Relu_VW1': duplicate activation "
            "functions must be merged by removeDuplicatedFunction before conversion");
}

TEST(RocisaToStinkyTofuTest, AnInstructionMCRejectsNamesItsObject) {
  auto K = longBranchKernel("gfx1250");
  // gfx1250's s_add_pc_i64 is not a gfx942 instruction (the body alone: the
  // signature names gfx1250).
  std::string Message = test::errorMessage(toStinkyTofuModule(*K->body, "gfx942"));
  EXPECT_NE(Message.find("rocisa SAddPCI64 in module 'body/SCLongBranchScc0 label_End/"
                         "SLongBranchPositive label_End'"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("error: instruction not supported on this GPU"), std::string::npos)
      << Message;
  EXPECT_NE(Message.find("s_add_pc_i64 label_End-.-12"), std::string::npos) << Message;

  Module Bad("bad");
  Bad.add(std::make_shared<Label>("L"));
  Bad.add(validInst("SAddI32", {sgpr(4), vgpr(1), int64_t(2)}));
  Message = test::errorMessage(toStinkyTofuModule(Bad, "gfx942", "bad"));
  EXPECT_NE(Message.find("rocisa SAddI32 in module 'bad'"), std::string::npos) << Message;
}

TEST(RocisaToStinkyTofuTest, CallableShapeErrors) {
  Module NoLabel("k");
  NoLabel.add(std::make_shared<Label>("Start"));
  auto Body = std::make_shared<Module>("f");
  Body->isCallable = true;
  Body->add(validInst("SEndpgm", {}));
  NoLabel.add(Body);
  EXPECT_EQ(test::errorMessage(toStinkyTofuModule(NoLabel, "gfx942")),
            "callable module 'k/f' does not start with a Label");

  Module First("k");
  auto Callee = std::make_shared<Module>("f");
  Callee->isCallable = true;
  Callee->add(std::make_shared<Label>("F"));
  Callee->add(validInst("SEndpgm", {}));
  First.add(Callee);
  EXPECT_EQ(test::errorMessage(toStinkyTofuModule(First, "gfx942")),
            "callable function 'f' starts the code: no code can call it");
}

TEST(RocisaToStinkyTofuTest, UnknownTargetIsAnError) {
  llvm::Expected<bool> Caps = hasAddPCI64("gfx1");
  EXPECT_FALSE(bool(Caps));
  llvm::consumeError(Caps.takeError());
}

TEST(RocisaToStinkyTofuTest, ConvertedModulesRunPipelinesAndEmitObjects) {
  auto K = longBranchKernel("gfx942");
  auto SM = toStinkyTofuModule(*K, "gfx942");
  ASSERT_OK(SM);
  llvm::Error E = (*SM)->runPasses("SQTTInstrumentPass(barriers,verify)");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  auto Asm = (*SM)->emitAssembly();
  ASSERT_OK(Asm);
  EXPECT_NE(*Asm, K->toString());
  EXPECT_EQ(llvmMc(*Asm, "gfx942"), 0);
  auto Obj = (*SM)->emitObject();
  ASSERT_OK(Obj);
  EXPECT_EQ(Obj->substr(0, 4), "\x7f" "ELF");
  EXPECT_EQ(test::errorMessage((*SM)->runPasses("NoSuchPass")).find("NoSuchPass") !=
                std::string::npos,
            true);
}

} // namespace
