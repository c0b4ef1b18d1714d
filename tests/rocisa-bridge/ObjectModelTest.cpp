//===- ObjectModelTest.cpp - rocisa's objects and their text ------------===//
#include "BridgeTestSupport.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/code/InstructionClasses.h"
#include "rocisa-bridge/code/KernelBody.h"
#include "rocisa-bridge/code/Label.h"
#include "rocisa-bridge/code/Module.h"
#include "rocisa-bridge/code/TextItems.h"
#include "gtest/gtest.h"

using namespace rocisa;

namespace {

std::shared_ptr<CommonInstruction> inst(const char *Class, std::vector<InstructionInput> Ops,
                                        std::string Comment = "") {
  auto I = makeInstruction(Class, std::move(Ops), std::move(Comment));
  EXPECT_OK(I);
  return I ? *I : nullptr;
}

TEST(RocisaObjectModelTest, LabelsGetThePrefixAlignmentAndComment) {
  EXPECT_EQ(Label("foo").toString(), "label_foo:\n");
  EXPECT_EQ(Label("foo").getLabelName(), "label_foo");
  EXPECT_EQ(Label(7, "seven").toString(), "label_7:  /// seven\n");
  EXPECT_EQ(Label("L", "", 16).toString(), ".align 16\nlabel_L:\n");
}

TEST(RocisaObjectModelTest, RegistersAndOperands) {
  EXPECT_EQ(sgpr(5).toString(), "s5");
  EXPECT_EQ(sgpr(4, 2).toString(), "s[4:5]");
  EXPECT_EQ(vgpr(8, 4).toString(), "v[8:11]");
  EXPECT_EQ(accvgpr(3).toString(), "a3");
  EXPECT_EQ(sgpr("SrdA", 4).toString(), "s[sgprSrdA:sgprSrdA+3]");
  EXPECT_EQ(vgpr("ValuC").toString(), "v[vgprValuC]");
  EXPECT_EQ(RegisterContainer("v", "ValuC", 2, 4).toString(), "v[vgprValuC+4:vgprValuC+4+1]");
  EXPECT_EQ(inputToString(int64_t(-3)), "-3");
  EXPECT_EQ(inputToString(1.0), "1.0");
  EXPECT_EQ(inputToString(0.5), "0.5");
  EXPECT_EQ(inputToString(std::string("vcc")), "vcc");
}

TEST(RocisaObjectModelTest, InstructionsPrintAtRocisasCommentColumn) {
  EXPECT_EQ(inst("SAddI32", {sgpr(4), sgpr(5), int64_t(16)})->toString(), "s_add_i32 s4, s5, 16\n");
  EXPECT_EQ(inst("SMovB32", {sgpr(4), int64_t(0)}, "init")->toString(),
            "s_mov_b32 s4, 0                                    // init\n");
  // A statement longer than the column gets one space before the comment.
  std::string Long = inst("VMfmaF32_16x16x16F16",
                          {vgpr(0, 4), vgpr(4, 2), vgpr(6, 2), vgpr(0, 4)}, "mfma")
                         ->toString();
  EXPECT_EQ(Long, "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] // mfma\n");
  auto Load = *makeInstruction("GlobalLoadDwordx4", {vgpr(8, 4), vgpr(2, 2), std::string("off")},
                               "", "offset:16");
  EXPECT_EQ(Load->toString(), "global_load_dwordx4 v[8:11], v[2:3], off offset:16\n");
  EXPECT_EQ(inst("SBarrier", {})->toString(), "s_barrier\n");
  EXPECT_EQ(makeSWaitCnt(0, 2)->toString(), "s_waitcnt vmcnt(2) lgkmcnt(0)\n");
  EXPECT_EQ(makeSWaitCnt(-1, -1)->toString(), "s_waitcnt 0\n");
  EXPECT_EQ(inst("SAddI32", {sgpr(4), sgpr(5), int64_t(16)})->className(), "SAddI32");
}

TEST(RocisaObjectModelTest, UnknownClassesAndMissingDestinationsAreErrors) {
  EXPECT_EQ(test::errorMessage(makeInstruction("SFrobnicate", {})),
            "unknown rocisa instruction class 'SFrobnicate'");
  EXPECT_EQ(test::errorMessage(makeInstruction("SAddI32", {})),
            "SAddI32 takes 1 destination(s), got 0 operand(s)");
}

TEST(RocisaObjectModelTest, BranchesSetPCAndSwapPC) {
  EXPECT_EQ(SBranch("label_End")->toString(), "s_branch label_End\n");
  EXPECT_EQ(SCBranchVCCNZ("label_X", "c")->toString(),
            "s_cbranch_vccnz label_X                            // c\n");
  EXPECT_EQ(SAddPCI64("label_X-.-12")->targetLabel(), "label_X");
  EXPECT_EQ(SBranch("label_End")->targetLabel(), "label_End");

  SSetPCB64 Set(sgpr(62, 2), "branch to label_foo");
  EXPECT_EQ(Set.longBranchLabel, "");
  EXPECT_EQ(Set.labelName, "");
  Set.longBranchLabel = "label_foo";
  // The hint is metadata: the text does not change.
  EXPECT_EQ(Set.toString(),
            "s_setpc_b64 s[62:63]                               // branch to label_foo\n");
  auto SetCopy = std::dynamic_pointer_cast<SSetPCB64>(Set.clone());
  ASSERT_NE(SetCopy, nullptr);
  EXPECT_EQ(SetCopy->longBranchLabel, "label_foo");

  SSwapPCB64 Swap(sgpr(26, 2), sgpr(24, 2));
  Swap.calleeFuncs = {"label_Activation_Relu_VW1", "label_Activation_Gelu_VW1"};
  EXPECT_EQ(Swap.toString(), "s_swappc_b64 s[26:27], s[24:25]\n");
  auto SwapCopy = std::dynamic_pointer_cast<SSwapPCB64>(Swap.clone());
  ASSERT_NE(SwapCopy, nullptr);
  EXPECT_EQ(SwapCopy->calleeFuncs, Swap.calleeFuncs);
  SwapCopy->calleeFuncs.clear();
  EXPECT_EQ(Swap.calleeFuncs.size(), 2u);
}

TEST(RocisaObjectModelTest, TextItems) {
  EXPECT_EQ(ValueSet("vgprValuC", 4).toString(), ".set vgprValuC, 4\n");
  EXPECT_EQ(ValueSet("x", "y+1", "c").toString(), ".set x, y+1 // c\n");
  EXPECT_EQ(ValueIf("x == 1").toString(), ".if x == 1\n");
  EXPECT_EQ(ValueElseIf("x == 2").toString(), ".elseif x == 2\n");
  EXPECT_EQ(ValueEndif().toString(), ".endif\n");
  Macro M("ADD", {"dst", "src"});
  M.add("s_add_u32 \\dst, \\dst, \\src");
  EXPECT_EQ(M.toString(), ".macro ADD dst src\n  s_add_u32 \\dst, \\dst, \\src\n.endm\n");
  EXPECT_EQ(TextBlock("// hi\n").toString(), "// hi\n");
}

TEST(RocisaObjectModelTest, ModulesNestAddFindReplaceRemove) {
  auto Top = std::make_shared<Module>("top");
  auto Inner = std::make_shared<Module>("inner");
  auto A = Top->add(std::make_shared<Label>("A"));
  Inner->add(inst("SNop", {int64_t(0)}));
  Inner->add(std::make_shared<TextBlock>("// x\n"));
  Top->add(Inner);
  auto B = Top->add(std::make_shared<Label>("B"), 0);
  EXPECT_EQ(Top->toString(), "label_B:\nlabel_A:\ns_nop 0\n// x\n");
  EXPECT_EQ(Top->itemsSize(), 3u);
  EXPECT_EQ(Top->count(), 4u);
  EXPECT_EQ(Top->flatitems().size(), 4u);
  EXPECT_EQ(Top->findNamedItem("inner"), Inner);
  EXPECT_EQ(Top->findIndex(A), 1);
  EXPECT_TRUE(Top->replaceItem(A, std::make_shared<Label>("C")));
  EXPECT_FALSE(Top->replaceItem(A, std::make_shared<Label>("D")));
  EXPECT_EQ(Top->toString(), "label_B:\nlabel_C:\ns_nop 0\n// x\n");
  EXPECT_TRUE(Top->removeItem(B));
  EXPECT_EQ(Top->removeItemsByName("inner"), 1u);
  EXPECT_EQ(Top->toString(), "label_C:\n");
  EXPECT_EQ(test::errorMessage(Top->getItem(5)), "index 5 out of range (the module has 1 items)");
  EXPECT_EQ(test::errorMessage(Top->setItem(1, nullptr)),
            "index 1 out of range (the module has 1 items)");
  EXPECT_EQ(Top->popFirstItem()->toString(), "label_C:\n");
  EXPECT_EQ(Top->popFirstItem(), nullptr);

  Top->addComment("c");
  Top->addComment0("b");
  Top->addCommentAlign("a");
  EXPECT_EQ(Top->toString(), "// c\n/* b */\n" + std::string(50, ' ') + " // a\n");
}

TEST(RocisaObjectModelTest, FlatItemsAndAppend) {
  auto Inner = std::make_shared<Module>("inner");
  Inner->add(std::make_shared<Label>("X"));
  auto Nested = std::make_shared<Module>("nested");
  Nested->add(std::make_shared<Label>("Y"));
  Inner->add(Nested);
  Module Flat("flat"), Appended("appended");
  Flat.addModuleAsFlatItems(Inner);
  Appended.appendModule(Inner);
  EXPECT_EQ(Flat.itemsSize(), 2u);
  EXPECT_EQ(Appended.itemsSize(), 2u);
  EXPECT_NE(dynamic_cast<Module *>(Appended.itemList[1].get()), nullptr);
  EXPECT_EQ(Flat.toString(), Appended.toString());
}

TEST(RocisaObjectModelTest, DeepCopyKeepsCallableAndMetadata) {
  Module M("ActFunc");
  M.isCallable = true;
  M.callableName = "label_Activation_Relu_VW1";
  auto Set = std::make_shared<SSetPCB64>(sgpr(10, 2));
  Set->longBranchLabel = "label_T";
  M.add(Set);
  auto Copy = M.cloneModule();
  EXPECT_TRUE(Copy->isCallable);
  EXPECT_EQ(Copy->callableName, "label_Activation_Relu_VW1");
  auto *CopiedSet = dynamic_cast<SSetPCB64 *>(Copy->itemList[0].get());
  ASSERT_NE(CopiedSet, nullptr);
  EXPECT_NE(CopiedSet, Set.get());
  EXPECT_EQ(CopiedSet->longBranchLabel, "label_T");
}

TEST(RocisaObjectModelTest, KernelBodyIsSignatureThenBody) {
  KernelBody K("gemm");
  K.addSignature("gemm:\n");
  K.body->add(inst("SEndpgm", {}));
  K.setGprs(64, 0, 32);
  EXPECT_EQ(K.toString(), "gemm:\ns_endpgm\n");
  auto Copy = std::dynamic_pointer_cast<KernelBody>(K.clone());
  EXPECT_NE(Copy->body, K.body);
  EXPECT_EQ(Copy->totalVgprs, 64);
  EXPECT_EQ(Copy->toString(), K.toString());
}

} // namespace
