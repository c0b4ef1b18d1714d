//===- InsertionVerifierTest.cpp - The verifier finds bad insertions ------===//
#include "stinkytofu/transforms/InsertionVerifier.h"
#include "TestModules.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

struct Fixture {
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  std::unique_ptr<Liveness> Live;
  llvm::DenseSet<const Instruction *> Inserted;
  llvm::DenseSet<const BasicBlock *> Blocks;
  std::unique_ptr<InsertionSnapshot> Snapshot;

  explicit Fixture(llvm::StringRef Text) {
    M = test::readAsmText(Text, "gfx942");
    F = &M->functions().front();
    buildCFG(*F);
    Live = std::make_unique<Liveness>(*F);
    // The verifier asks after the code changed: answer for the original.
    Live->computeAllInstructionSets();
    Snapshot = std::make_unique<InsertionSnapshot>(*M);
  }
  /// Inserts \p Text before the \p N-th instruction (0-based) and marks it.
  void insertBefore(unsigned N, llvm::StringRef Text) {
    auto It = F->blocks().front().instructions().begin();
    std::advance(It, N);
    auto I = createInstruction(*M, Text);
    ASSERT_TRUE(bool(I)) << llvm::toString(I.takeError());
    Inserted.insert(&F->blocks().front().insert(It, std::move(*I)));
  }
  /// Before the \p N-th instruction: \p Pre, then a block `.Lloop` of
  /// \p Body and `s_cbranch_scc1 .Lloop`, then \p Post and the rest of the
  /// block.
  void insertLoopBefore(unsigned N, llvm::ArrayRef<llvm::StringRef> Pre,
                        llvm::ArrayRef<llvm::StringRef> Body,
                        llvm::ArrayRef<llvm::StringRef> Post = {}) {
    BasicBlock &BB = F->blocks().front();
    auto It = BB.instructions().begin();
    std::advance(It, N);
    BasicBlock &Rest = F->splitBlock(BB, BasicBlock::const_item_iterator(*It));
    BasicBlock &Loop = F->insertBlock(Rest.getIterator(), ".Lloop");
    Blocks.insert(&Loop);
    auto Add = [&](BasicBlock &Into, BasicBlock::const_item_iterator At, llvm::StringRef Line) {
      auto I = createInstruction(*M, Line);
      ASSERT_TRUE(bool(I)) << llvm::toString(I.takeError());
      Inserted.insert(&Into.insert(At, std::move(*I)));
    };
    for (llvm::StringRef Line : Pre)
      Add(BB, BB.items().end(), Line);
    for (llvm::StringRef Line : Body)
      Add(Loop, Loop.items().end(), Line);
    Add(Loop, Loop.items().end(), "s_cbranch_scc1 .Lloop");
    auto First = Rest.items().begin();
    for (llvm::StringRef Line : Post)
      Add(Rest, First, Line);
  }
  std::string verify() {
    llvm::Error E = Snapshot->verify(*M, Inserted, Blocks, {{F, Live.get()}});
    return E ? llvm::toString(std::move(E)) : "";
  }
};

const char *Text = "\t.text\n"
                   "k:\n"
                   "\ts_mov_b32 s4, 1\n"
                   "\ts_mov_b32 m0, s4\n"
                   "\ts_movrels_b32 s5, s4\n"
                   "\ts_endpgm\n";

TEST(InsertionVerifierTest, AcceptsDeadWritesAndRestoredRegisters) {
  Fixture X(Text);
  X.insertBefore(0, "s_mov_b32 m0, 0x4"); // m0 is dead before its first write
  X.insertBefore(3, "s_mov_b32 s0, m0");  // m0 live: saved, used, restored
  X.insertBefore(4, "s_mov_b32 m0, 0x8");
  X.insertBefore(5, "s_ttracedata");
  X.insertBefore(6, "s_mov_b32 m0, s0");
  EXPECT_EQ(X.verify(), "");
}

TEST(InsertionVerifierTest, RejectsAClobberedLiveRegister) {
  Fixture X(Text);
  X.insertBefore(2, "s_mov_b32 m0, 0x8"); // m0 live (read by s_movrels)
  std::string E = X.verify();
  EXPECT_NE(E.find("changes register unit"), std::string::npos) << E;
  EXPECT_NE(E.find("m0"), std::string::npos) << E;
}

TEST(InsertionVerifierTest, FollowsInsertedLoops) {
  // A counted loop over dead registers; M0 saved before and restored after.
  Fixture X(Text);
  X.insertLoopBefore(2, {"s_mov_b32 s0, m0", "s_mov_b32 s1, 0"},
                     {"s_mov_b32 m0, s1", "s_ttracedata", "s_add_u32 s1, s1, 1",
                      "s_cmp_lg_u32 s1, 64"},
                     {"s_mov_b32 m0, s0"});
  EXPECT_EQ(X.verify(), "");
}

TEST(InsertionVerifierTest, RejectsWhatOnlyALaterIterationClobbers) {
  // The first pass through the body restores M0 from s0; the back edge
  // brings s0 = 5 round, so from the second iteration on M0 is 5.
  Fixture X(Text);
  X.insertLoopBefore(2, {"s_mov_b32 s0, m0"},
                     {"s_mov_b32 m0, s0", "s_mov_b32 s0, 5", "s_cmp_lg_u32 s1, 64"});
  std::string E = X.verify();
  EXPECT_NE(E.find("changes register unit"), std::string::npos) << E;
  EXPECT_NE(E.find("m0"), std::string::npos) << E;
}

TEST(InsertionVerifierTest, RejectsAChangedStream) {
  Fixture X(Text);
  // Remove an original instruction: the stream no longer comes back.
  std::next(X.F->blocks().front().instructions().begin())->eraseFromParent();
  std::string E = X.verify();
  EXPECT_NE(E.find("is not the original instruction"), std::string::npos) << E;
}

/// v1 is dead before its first write; s4 and s5 live until the add. With
/// \p ExecChanges, v1's second write is under another EXEC than the add.
std::string laneText(bool ExecChanges) {
  return (llvm::Twine("\t.text\n"
                      "k:\n"
                      "\ts_mov_b32 s4, 1\n"
                      "\ts_mov_b32 s5, 2\n"
                      "\tv_mov_b32_e32 v1, 7\n") +
          (ExecChanges ? "\ts_mov_b64 exec, s[2:3]\n" : "") +
          "\tv_mov_b32_e32 v1, s4\n" + (ExecChanges ? "\ts_mov_b64 exec, -1\n" : "") +
          "\tv_add_u32_e32 v1, s5, v1\n"
          "\tglobal_store_dword v0, v1, s[0:1]\n"
          "\ts_endpgm\n")
      .str();
}

TEST(InsertionVerifierTest, FollowsTwoSgprsThroughTwoLanesOfOneVgpr) {
  // Writing lane 1 leaves the value parked in lane 0.
  Fixture X(laneText(false));
  for (llvm::StringRef Line :
       {"v_writelane_b32 v1, s4, 0", "v_writelane_b32 v1, s5, 1", "s_mov_b32 s4, 7",
        "s_mov_b32 s5, 8", "v_readlane_b32 s4, v1, 0", "v_readlane_b32 s5, v1, 1"})
    X.insertBefore(2 + X.Inserted.size(), Line);
  EXPECT_EQ(X.verify(), "");
}

TEST(InsertionVerifierTest, RejectsALaneWriteToAVgprLiveInOtherLanes) {
  // v1's second write is under another EXEC than the first: the lanes it
  // leaves are read by the add after EXEC is widened again.
  Fixture X(laneText(true));
  X.insertBefore(4, "v_writelane_b32 v1, s4, 0");
  X.insertBefore(5, "v_readlane_b32 s4, v1, 0");
  std::string E = X.verify();
  EXPECT_NE(E.find("writes v1, a lane of which"), std::string::npos) << E;
  // Without the EXEC change, v1 is free before its second write.
  Fixture Y(laneText(false));
  Y.insertBefore(3, "v_writelane_b32 v1, s4, 0");
  Y.insertBefore(4, "v_readlane_b32 s4, v1, 0");
  EXPECT_EQ(Y.verify(), "");
}

} // namespace
