//===- BranchRangeTest.cpp - Directive bytes and branch distances ---------===//
#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/asm/AsmReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

using Bytes = std::pair<uint64_t, uint64_t>;
Bytes R(uint64_t Lo, uint64_t Hi) { return {Lo, Hi}; }

Bytes bytes(llvm::StringRef Text) {
  ByteRange R = directiveBytes(Text);
  return {R.Lo, R.Hi};
}

TEST(BranchRangeTest, DataDirectivesCountEveryItem) {
  EXPECT_EQ(bytes("\t.long 0xbf800000, 0xbf800000 // two words\n"), R(8, 8));
  EXPECT_EQ(bytes(".byte 1,2,3\n.short 4\n.quad (1+2), 3\n"), R(21, 21));
  EXPECT_EQ(bytes(".ascii \"ab\\\"c\"\n.asciz \"x\"\n"), R(6, 6));
  EXPECT_EQ(bytes(".fill 3, 4, 0\n.space 5\n.zero 2\n"), R(19, 19));
}

TEST(BranchRangeTest, CommentsAndOtherDirectivesEmitNothing) {
  EXPECT_EQ(bytes("// .long 1\n; .long 2\n/* .long 3\n .long 4 */\n\t.loc 1 2 3\n.set x, 4\n"),
            R(0, 0));
  // A macro definition emits nothing until it is called.
  EXPECT_EQ(bytes(".macro M\n.long 1\n.endm\n"), R(0, 0));
}

TEST(BranchRangeTest, AlignmentIsARange) {
  EXPECT_EQ(bytes("\t.p2align 8\n"), R(0, 255));
  EXPECT_EQ(bytes(".p2align 6, 0, 8\n"), R(0, 8));
  EXPECT_EQ(bytes(".balign 16\n.align 4\n"), R(0, 18));
}

TEST(BranchRangeTest, AlignmentAtAKnownAddressIsExact) {
  auto At = [](llvm::StringRef Text, uint64_t Address) {
    ByteRange B = directiveBytes(Text, Address);
    return Bytes{B.Lo, B.Hi};
  };
  EXPECT_EQ(At(".p2align 6\n", 52), R(12, 12));
  EXPECT_EQ(At(".p2align 6\n", 64), R(0, 0));
  // Each statement starts where the previous one ended.
  EXPECT_EQ(At(".long 1\n.balign 16\n", 8), R(8, 8));
  // More padding than the maximum skip: none.
  EXPECT_EQ(At(".p2align 6, 0, 8\n", 4), R(0, 0));
  EXPECT_EQ(At(".p2align 6, 0, 8\n", 60), R(4, 4));
  // After an unknown count the address is unknown: a range again.
  EXPECT_EQ(At(".space N\n.p2align 2\n", 0).first, 0u);
}

TEST(BranchRangeTest, UnknownCountsAreUnbounded) {
  EXPECT_GE(bytes(".space N\n").second, uint64_t(1) << 32);
  // The tail of a .rept body (the reader keeps the MC instructions of the
  // repetition, not its data).
  EXPECT_GE(bytes(".long 1\n.endr\n").second, uint64_t(1) << 32);
}

std::unique_ptr<Module> readGfx942(llvm::StringRef Text) {
  ReaderOptions Opts;
  Opts.Arch = "gfx942";
  auto M = readAsm(llvm::MemoryBuffer::getMemBufferCopy(Text, "t.s"), Opts);
  EXPECT_TRUE(bool(M)) << llvm::toString(M.takeError());
  return M ? std::move(*M) : nullptr;
}

TEST(BranchRangeTest, InsertedBytesBetweenBranchAndLabel) {
  auto M = readGfx942("\t.text\n"
                      "k:\n"
                      "\ts_cbranch_scc1 .Lfar\n"
                      "\ts_nop 0\n"
                      "\ts_mov_b32 s0, 0x12345\n"
                      "\t.rept 32760\n"
                      "\ts_nop 0\n"
                      "\t.endr\n"
                      ".Lfar:\n"
                      "\ts_endpgm\n");
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  InstructionSizes Sizes(*M);
  BranchLayout L(F, Sizes);
  // Between the end of the branch and .Lfar: s_nop 0 (4 bytes), s_mov_b32
  // with a literal (8 bytes, as MC encodes it) and the .rept body.
  Instruction &Nop = *std::next(F.blocks().front().instructions().begin());
  std::optional<unsigned> NopSlot = L.slot(InsertPoint::before(Nop));
  ASSERT_TRUE(NopSlot);
  EXPECT_TRUE(L.outOfRange().empty());
  std::vector<uint64_t> Inserted(L.numSlots(), 0);
  // 1 + 2 + 32760 dwords between: 4 more still reach, 5 do not.
  Inserted[*NopSlot] = 16;
  EXPECT_TRUE(L.check(Inserted).empty());
  Inserted[*NopSlot] = 20;
  std::vector<BranchLayout::OutOfRange> Far = L.check(Inserted);
  ASSERT_EQ(Far.size(), 1u);
  EXPECT_EQ(Far[0].Target, ".Lfar");
  EXPECT_EQ(Far[0].Offset, 32768);
  EXPECT_EQ(Far[0].Excess, 4u);
  EXPECT_LE(Far[0].FirstSlot, *NopSlot);
  EXPECT_GE(Far[0].LastSlot, *NopSlot);
  // Code before the branch moves both ends: never a problem.
  std::vector<uint64_t> Before(L.numSlots(), 0);
  Before[0] = 1 << 20;
  EXPECT_TRUE(L.check(Before).empty());
}

TEST(BranchRangeTest, OutOfRangeAsWritten) {
  auto M = readGfx942("\t.text\n"
                      "k:\n"
                      ".Lloop:\n"
                      "\ts_nop 0\n"
                      "\t.fill 32766, 4, 0xbf800000\n"
                      "\ts_cbranch_scc1 .Lloop\n"
                      "\ts_branch .Lloop\n"
                      "\ts_endpgm\n");
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  InstructionSizes Sizes(*M);
  BranchLayout L(F, Sizes);
  // The first branch goes back 1 + 32766 + 1 dwords: it reaches; the second
  // one dword more does not. No insertion is blamed for it.
  EXPECT_TRUE(L.check(std::vector<uint64_t>(L.numSlots(), 0)).empty());
  std::vector<BranchLayout::OutOfRange> Far = L.outOfRange();
  ASSERT_EQ(Far.size(), 1u);
  EXPECT_EQ(Far[0].Branch->mnemonic(), "s_branch");
  EXPECT_EQ(Far[0].Target, ".Lloop");
  EXPECT_EQ(Far[0].Offset, -32769);
  EXPECT_EQ(Far[0].Excess, 4u);
}

} // namespace
