//===- CFGContractTest.cpp - One test per row of the CFG contract ---------===//
//
// shared asm-ir-reference section 4 and 004 "ISA reclassification and CFG
// fall-through rules": what buildCFG makes of each kind of terminator.
//
//===----------------------------------------------------------------------===//
#include "TransformTestUtil.h"

#include "stinkytofu/analysis/Reachability.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"

#include <algorithm>

using namespace stinkytofu;
using namespace stinkytofu::transformtest;

namespace {

std::unique_ptr<Module> withCFG(llvm::StringRef Text, llvm::StringRef Arch = "gfx942") {
  std::unique_ptr<Module> M = read(Text, Arch);
  if (M)
    for (Function &F : M->functions())
      buildCFG(F);
  return M;
}

bool isUnreachable(const BasicBlock *BB) {
  std::vector<const BasicBlock *> Dead = unreachableBlocks(*BB->parent());
  return std::find(Dead.begin(), Dead.end(), BB) != Dead.end();
}

TEST(CFGContractTest, BranchGoesToItsLabelOnly) {
  auto M = withCFG(R"(k:
  s_branch label_T
label_Skip:
  s_nop 0
label_T:
  s_endpgm
)");
  ASSERT_TRUE(M);
  const BasicBlock *K = blockOf(*M, "k");
  EXPECT_EQ(succNames(K), std::vector<std::string>{"label_T"});
  EXPECT_EQ(K->successorKinds().vec(), std::vector<EdgeKind>{EdgeKind::Branch});
  EXPECT_TRUE(isUnreachable(blockOf(*M, "label_Skip")));
}

TEST(CFGContractTest, ConditionalBranchesAlsoFallThrough) {
  for (const char *Br : {"s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz",
                         "s_cbranch_vccnz", "s_cbranch_execz", "s_cbranch_execnz"}) {
    SCOPED_TRACE(Br);
    auto M = withCFG(std::string("k:\n  ") + Br +
                     " label_T\n  s_nop 0\nlabel_T:\n  s_endpgm\n");
    ASSERT_TRUE(M);
    const BasicBlock *K = blockOf(*M, "k");
    EXPECT_EQ(succNames(K), (std::vector<std::string>{"label_T", "bb1"}));
    EXPECT_EQ(K->successorKinds().vec(),
              (std::vector<EdgeKind>{EdgeKind::Branch, EdgeKind::FallThrough}));
    EXPECT_EQ(unreachableBlocks(*K->parent()).size(), 0u);
  }
}

const char *const SetPC = R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_X, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_After:
  s_nop 0
label_X:
  s_endpgm
)";

TEST(CFGContractTest, SetpcWithLabelDataGoesToTheLabel) {
  auto M = read(SetPC);
  ASSERT_TRUE(M);
  nth(*M, "s_setpc_b64")->setModifier(std::make_unique<LabelData>("label_X"));
  buildCFG(*M->entry());
  const BasicBlock *From = nth(*M, "s_setpc_b64")->parent();
  EXPECT_EQ(getBranchTargets(*nth(*M, "s_setpc_b64")), std::vector<std::string>{"label_X"});
  EXPECT_EQ(succNames(From), std::vector<std::string>{"label_X"});
  EXPECT_EQ(From->successorKinds().vec(), std::vector<EdgeKind>{EdgeKind::LongBranch});
  // No fall-through: the next block is unreachable unless targeted.
  EXPECT_TRUE(isUnreachable(blockOf(*M, "label_After")));
}

TEST(CFGContractTest, SetpcWithoutLabelDataHasNoSuccessor) {
  auto M = withCFG(SetPC);
  ASSERT_TRUE(M);
  Instruction *I = nth(*M, "s_setpc_b64");
  EXPECT_TRUE(isIndirectBranch(*I));
  EXPECT_TRUE(getBranchTargets(*I).empty());
  EXPECT_TRUE(I->parent()->successors().empty());
  EXPECT_TRUE(isUnreachable(blockOf(*M, "label_After")));
  EXPECT_TRUE(isUnreachable(blockOf(*M, "label_X")));
  // In the kernel it is an unknown jump, not a return.
  EXPECT_FALSE(isReturn(*I));
}

TEST(CFGContractTest, SwappcFallsThroughAndCallTargetsAreNoEdge) {
  auto M = read(R"(k:
  s_getpc_b64 s[12:13]
  s_add_i32 s8, label_Callee, 4
  s_add_u32 s12, s12, s8
  s_addc_u32 s13, s13, 0
  s_swappc_b64 s[30:31], s[12:13]
  s_nop 0
  s_endpgm
label_Callee:
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  Instruction *Call = nth(*M, "s_swappc_b64");
  Call->setModifier(std::make_unique<CallTargetData>(std::vector<std::string>{"label_Callee"}));
  buildCFG(*M->entry());
  EXPECT_TRUE(isCall(*Call));
  EXPECT_FALSE(isBranch(*Call));
  EXPECT_TRUE(getBranchTargets(*Call).empty());
  EXPECT_EQ(getCallTargets(*Call), std::vector<std::string>{"label_Callee"});
  // The call does not end its block: execution continues after it.
  const BasicBlock *K = blockOf(*M, "k");
  EXPECT_EQ(Call->parent(), K);
  EXPECT_EQ(nth(*M, "s_nop")->parent(), K);
  // No edge from the call site to the callee.
  EXPECT_TRUE(blockOf(*M, "label_Callee")->predecessors().empty());
}

TEST(CFGContractTest, SwappcAtBlockEndFallsThrough) {
  auto M = withCFG(R"(k:
  s_swappc_b64 s[30:31], s[12:13]
label_Next:
  s_endpgm
)");
  ASSERT_TRUE(M);
  const BasicBlock *K = blockOf(*M, "k");
  EXPECT_EQ(succNames(K), std::vector<std::string>{"label_Next"});
  EXPECT_EQ(K->successorKinds().vec(), std::vector<EdgeKind>{EdgeKind::FallThrough});
}

TEST(CFGContractTest, EndpgmEndsTheFunction) {
  auto M = withCFG(R"(k:
  s_endpgm
label_After:
  s_nop 0
)");
  ASSERT_TRUE(M);
  EXPECT_TRUE(blockOf(*M, "k")->successors().empty());
  EXPECT_TRUE(isReturn(*nth(*M, "s_endpgm")));
  EXPECT_TRUE(isUnreachable(blockOf(*M, "label_After")));
}

// gfx1250's s_add_pc_i64 computes its target: the label in its expression
// (rocisa's `L-.-12`, LLVM's `L-.Lpost_addpcN`) becomes an edge only once
// LongBranchLoweringPass has proven it and attached LabelData.
const char *const AddPcForms[] = {
    R"(k:
  s_add_pc_i64 label_X-.-12
label_Dead:
  s_nop 0
label_X:
  s_endpgm
)",
    R"(k:
  s_add_pc_i64 label_X-.Lpost_addpc0
.Lpost_addpc0:
label_Dead:
  s_nop 0
label_X:
  s_endpgm
)"};

TEST(CFGContractTest, AddPcWithoutLabelDataHasNoSuccessor) {
  for (const char *Text : AddPcForms) {
    SCOPED_TRACE(Text);
    auto M = withCFG(Text, "gfx1250");
    ASSERT_TRUE(M);
    Instruction *I = nth(*M, "s_add_pc_i64");
    EXPECT_TRUE(isComputedBranch(*I));
    EXPECT_FALSE(isIndirectBranch(*I));
    EXPECT_TRUE(getBranchTargets(*I).empty());
    EXPECT_TRUE(blockOf(*M, "k")->successors().empty());
    EXPECT_TRUE(isUnreachable(blockOf(*M, "label_X")));
    // An unknown jump, not a return.
    EXPECT_FALSE(isReturn(*I));
  }
}

TEST(CFGContractTest, AddPcWithLabelDataGoesToTheLabel) {
  for (const char *Text : AddPcForms) {
    SCOPED_TRACE(Text);
    auto M = withCFG(Text, "gfx1250");
    ASSERT_TRUE(M);
    lowerLongBranches(*M);
    Instruction *I = nth(*M, "s_add_pc_i64");
    EXPECT_EQ(getBranchTargets(*I), std::vector<std::string>{"label_X"});
    const BasicBlock *K = blockOf(*M, "k");
    EXPECT_EQ(succNames(K), std::vector<std::string>{"label_X"});
    EXPECT_EQ(K->successorKinds().vec(), std::vector<EdgeKind>{EdgeKind::LongBranch});
    EXPECT_TRUE(isUnreachable(blockOf(*M, "label_Dead")));
    EXPECT_FALSE(isUnreachable(blockOf(*M, "label_X")));
  }
}

TEST(CFGContractTest, ReturnInCallableIsAnExit) {
  auto M = read(R"(k:
  s_getpc_b64 s[12:13]
  s_add_i32 s8, label_Activation_Relu_VW1, 4
  s_add_u32 s12, s12, s8
  s_addc_u32 s13, s13, 0
  s_swappc_b64 s[30:31], s[12:13]
  s_endpgm
label_Activation_Relu_VW1:
  v_max_f32 v0, 0, v0
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  recoverCallTargets(*M);
  Function *Callee = M->findFunction("label_Activation_Relu_VW1");
  ASSERT_TRUE(Callee);
  EXPECT_FALSE(Callee->isEntry());
  Instruction *Ret = nth(*M, "s_setpc_b64");
  EXPECT_EQ(Ret->parent()->parent(), Callee);
  EXPECT_TRUE(isReturn(*Ret));
  EXPECT_TRUE(Ret->parent()->successors().empty());
  EXPECT_TRUE(unreachableBlocks(*Callee).empty());
  // The caller continues after the call: k is one block that ends the wave.
  EXPECT_TRUE(unreachableBlocks(*M->entry()).empty());
}

} // namespace
