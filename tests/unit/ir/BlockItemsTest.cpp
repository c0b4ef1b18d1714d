//===- BlockItemsTest.cpp - Erasing, moving, cloning and ordering items ----===//
#include "TestModules.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/stir/StirWriter.h"
#include "gtest/gtest.h"
#include <chrono>
#include <random>

using namespace stinkytofu;

namespace {

std::unique_ptr<Module> readItems(llvm::StringRef Text) {
  return test::readAsmText(Text, "gfx90a");
}

std::string printAsm(const Module &M) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (llvm::Error E = writeAsm(M, OS))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return Out;
}

BasicBlock &entryBlock(Module &M) { return M.functions().front().blocks().front(); }

/// The instruction of \p BB whose statement text starts with \p Statement
/// (after its indentation).
Instruction &findStatement(BasicBlock &BB, llvm::StringRef Statement) {
  for (Instruction &I : BB.instructions())
    if (I.sourceText().ltrim().starts_with(Statement))
      return I;
  ADD_FAILURE() << "no instruction '" << Statement.str() << "'";
  return BB.instructions().front();
}

/// Whether \p I writes register \p Reg (`v5`) by its MC instruction, which
/// reads each `.set` symbol with its value at the statement.
bool writes(const Module &M, const Instruction &I, llvm::StringRef Reg) {
  return llvm::any_of(I.facts().Defs,
                      [&](llvm::MCRegister R) { return M.target().asmName(R) == Reg; });
}

const char *SetKernel = ".text\n"
                        "k:\n"
                        "  .set vgprX, 5\n"
                        "  // wait a little\n"
                        "  s_nop 0\n"
                        "  v_mov_b32 v[vgprX], v1\n"
                        "  .set vgprX, 9\n"
                        "  // second copy\n"
                        "  v_mov_b32 v[vgprX], v2\n"
                        "  s_endpgm\n";

TEST(BlockItemsTest, DirectivesAreItemsOfTheirOwn) {
  auto M = readItems(SetKernel);
  ASSERT_TRUE(M);
  BasicBlock &BB = entryBlock(*M);
  std::vector<std::string> Items;
  for (const BlockItem &Item : BB.items())
    Items.push_back(isa<Directive>(Item)
                        ? "directive " + cast<Directive>(Item).text().trim().str()
                        : cast<Instruction>(Item).mnemonic().str());
  EXPECT_EQ(Items, (std::vector<std::string>{"directive .set vgprX, 5", "s_nop", "v_mov_b32",
                                             "directive .set vgprX, 9", "v_mov_b32",
                                             "s_endpgm"}));
  EXPECT_EQ(BB.instructions().size(), 4u);
  EXPECT_EQ(BB.instructions().front().mnemonic(), "s_nop");
  // Comments before a statement stay its leading text.
  EXPECT_EQ(findStatement(BB, "s_nop").leadingText(), "  // wait a little\n");
  EXPECT_EQ(printAsm(*M), SetKernel);
}

TEST(BlockItemsTest, EraseKeepsCommentsAndNeverDropsADirective) {
  auto M = readItems(SetKernel);
  ASSERT_TRUE(M);
  BasicBlock &BB = entryBlock(*M);
  findStatement(BB, "s_nop").eraseFromParent();
  findStatement(BB, "v_mov_b32 v[vgprX], v2").eraseFromParent();
  EXPECT_EQ(printAsm(*M), ".text\n"
                          "k:\n"
                          "  .set vgprX, 5\n"
                          "  // wait a little\n"
                          "  v_mov_b32 v[vgprX], v1\n"
                          "  .set vgprX, 9\n"
                          "  // second copy\n"
                          "  s_endpgm\n");
  // The last instruction of a block: its comments stay where they were.
  auto N = readItems(".text\nk:\n  s_nop 0\n  // the end\n  s_endpgm\n");
  ASSERT_TRUE(N);
  BasicBlock &NB = entryBlock(*N);
  findStatement(NB, "s_endpgm").eraseFromParent();
  EXPECT_EQ(printAsm(*N), ".text\nk:\n  s_nop 0\n  // the end\n");
  EXPECT_EQ(NB.instructions().size(), 1u);
}

TEST(BlockItemsTest, MoveLeavesSetInPlaceSoOperandsKeepTheirMeaning) {
  auto M = readItems(SetKernel);
  ASSERT_TRUE(M);
  BasicBlock &BB = entryBlock(*M);
  Instruction &Nop = findStatement(BB, "s_nop");
  // Past the `.set vgprX, 9`: its comment goes along, the directive stays.
  Nop.moveBefore(findStatement(BB, "v_mov_b32 v[vgprX], v2"));
  std::string Moved = printAsm(*M);
  EXPECT_EQ(Moved, ".text\n"
                   "k:\n"
                   "  .set vgprX, 5\n"
                   "  v_mov_b32 v[vgprX], v1\n"
                   "  .set vgprX, 9\n"
                   "  // wait a little\n"
                   "  s_nop 0\n"
                   "  // second copy\n"
                   "  v_mov_b32 v[vgprX], v2\n"
                   "  s_endpgm\n");
  auto Again = readItems(Moved);
  ASSERT_TRUE(Again);
  EXPECT_TRUE(writes(*Again, findStatement(entryBlock(*Again), "v_mov_b32 v[vgprX], v1"), "v5"));
  EXPECT_TRUE(writes(*Again, findStatement(entryBlock(*Again), "v_mov_b32 v[vgprX], v2"), "v9"));

  // And back, right after the first copy: before the directive after it.
  Nop.moveAfter(findStatement(BB, "v_mov_b32 v[vgprX], v1"));
  EXPECT_EQ(printAsm(*M), ".text\n"
                          "k:\n"
                          "  .set vgprX, 5\n"
                          "  v_mov_b32 v[vgprX], v1\n"
                          "  // wait a little\n"
                          "  s_nop 0\n"
                          "  .set vgprX, 9\n"
                          "  // second copy\n"
                          "  v_mov_b32 v[vgprX], v2\n"
                          "  s_endpgm\n");

  // After the instruction it already follows: the position after that one
  // is the moved instruction itself until it is unlinked.
  std::string Before = printAsm(*M);
  Nop.moveAfter(findStatement(BB, "v_mov_b32 v[vgprX], v1"));
  EXPECT_EQ(printAsm(*M), Before);
}

TEST(BlockItemsTest, RemovedInstructionCanBeInsertedElsewhere) {
  auto M = readItems(".text\nk:\n  s_nop 1\nnext:\n  s_nop 2\n  s_endpgm\n");
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  BasicBlock &Next = *F.findBlock("next");
  std::unique_ptr<Instruction> Nop = entryBlock(*M).instructions().front().removeFromParent();
  EXPECT_EQ(Nop->parent(), nullptr);
  Instruction &Placed = Next.insert(Next.instructions().back().getIterator(), std::move(Nop));
  EXPECT_EQ(Placed.parent(), &Next);
  EXPECT_TRUE(entryBlock(*M).empty());
  EXPECT_EQ(printAsm(*M), ".text\nk:\nnext:\n  s_nop 2\n  s_nop 1\n  s_endpgm\n");
}

TEST(BlockItemsTest, CloneCopiesEverythingButThePlaceInTheFile) {
  auto M = readItems(SetKernel);
  ASSERT_TRUE(M);
  BasicBlock &BB = entryBlock(*M);
  Instruction &Mov = findStatement(BB, "v_mov_b32 v[vgprX], v2");
  Mov.setModifier(std::make_unique<CommentData>("copied"));
  Mov.setCycleOverrides(3, 7);
  Instruction Copy = Mov.clone();
  EXPECT_EQ(Copy.parent(), nullptr);
  EXPECT_EQ(Copy.leadingText(), "");
  EXPECT_EQ(Copy.location().Line, 0u);
  EXPECT_EQ(Copy.kind(), InstKind::Machine);
  EXPECT_EQ(Copy.mnemonic(), "v_mov_b32");
  ASSERT_EQ(Copy.numOperands(), 2u);
  EXPECT_TRUE(writes(*M, Copy, "v9"));
  ASSERT_EQ(Copy.mcInsts().size(), 1u);
  EXPECT_EQ(Copy.mcInsts()[0].getOpcode(), Mov.mcInsts()[0].getOpcode());
  EXPECT_EQ(Copy.facts().Defs, Mov.facts().Defs);
  EXPECT_EQ(Copy.facts().Uses, Mov.facts().Uses);
  EXPECT_EQ(Copy.issueCyclesOverride(), 3u);
  EXPECT_EQ(Copy.latencyCyclesOverride(), 7u);
  const CommentData *Note = Copy.getModifier<CommentData>();
  ASSERT_NE(Note, nullptr);
  EXPECT_EQ(Note->Text, "copied");
  // Editing the copy leaves the original alone (the two share their
  // details until one changes them).
  Copy.setModifier(std::make_unique<CommentData>("changed"));
  EXPECT_EQ(Copy.getModifier<CommentData>()->Text, "changed");
  EXPECT_EQ(Mov.getModifier<CommentData>()->Text, "copied");
  std::vector<Operand> Ops = Copy.operands();
  Ops[1] = Operand(OperandKind::Register, "v3");
  Copy.setOperands(Ops);
  EXPECT_EQ(Mov.operand(1).spelling(), "v2");
  BB.insert(findStatement(BB, "s_endpgm").getIterator(), std::move(Copy));
  EXPECT_EQ(printAsm(*M), ".text\n"
                          "k:\n"
                          "  .set vgprX, 5\n"
                          "  // wait a little\n"
                          "  s_nop 0\n"
                          "  v_mov_b32 v[vgprX], v1\n"
                          "  .set vgprX, 9\n"
                          "  // second copy\n"
                          "  v_mov_b32 v[vgprX], v2\n"
                          "  v_mov_b32 v[vgprX], v3\n"
                          "  s_endpgm\n");
}

/// Checks comesBefore against the position of every pair of items.
void expectOrderMatchesPositions(const BasicBlock &BB) {
  std::vector<const BlockItem *> Items;
  for (const BlockItem &Item : BB.items())
    Items.push_back(&Item);
  for (size_t A = 0; A < Items.size(); ++A)
    for (size_t B = 0; B < Items.size(); ++B)
      ASSERT_EQ(Items[A]->comesBefore(*Items[B]), A < B) << A << " vs " << B;
}

TEST(BlockItemsTest, ComesBeforeFollowsInsertsErasesAndSplits) {
  auto M = readItems(SetKernel);
  ASSERT_TRUE(M);
  BasicBlock &BB = entryBlock(*M);
  expectOrderMatchesPositions(BB);
  llvm::Expected<Instruction> Nop = createInstruction(*M, "s_nop 7");
  ASSERT_TRUE(static_cast<bool>(Nop)) << llvm::toString(Nop.takeError());
  Instruction &Front = BB.insert(BB.items().begin(), Nop->clone());
  Instruction &Back = BB.append(Nop->clone());
  Instruction &Middle =
      BB.insert(findStatement(BB, "v_mov_b32 v[vgprX], v2").getIterator(), Nop->clone());
  EXPECT_TRUE(Front.comesBefore(Middle));
  EXPECT_TRUE(Middle.comesBefore(Back));
  EXPECT_FALSE(Back.comesBefore(Front));
  expectOrderMatchesPositions(BB);
  // Many insertions at one place use up the room between two numbers.
  for (int K = 0; K < 100; ++K)
    BB.insert(Middle.getIterator(), Nop->clone());
  expectOrderMatchesPositions(BB);
  Middle.eraseFromParent();
  findStatement(BB, "s_nop 0").eraseFromParent();
  expectOrderMatchesPositions(BB);
  Function &F = M->functions().front();
  BasicBlock &Tail = F.splitBlock(BB, findStatement(BB, "s_endpgm").getIterator());
  expectOrderMatchesPositions(BB);
  expectOrderMatchesPositions(Tail);
  Tail.insert(Tail.items().begin(), Nop->clone());
  expectOrderMatchesPositions(Tail);
}

TEST(BlockItemsTest, ManyInsertionsAndQueriesTakeLinearTime) {
  auto M = readItems(".text\nk:\n  s_nop 0\n  s_endpgm\n");
  ASSERT_TRUE(M);
  BasicBlock &BB = entryBlock(*M);
  llvm::Expected<Instruction> Nop = createInstruction(*M, "s_nop 1");
  ASSERT_TRUE(static_cast<bool>(Nop)) << llvm::toString(Nop.takeError());
  Instruction &First = BB.instructions().front(), &End = BB.instructions().back();
  constexpr int N = 100000;
  std::mt19937 Random(12345);
  std::vector<Instruction> Copies;
  for (int K = 0; K < N; ++K)
    Copies.push_back(Nop->clone());
  std::vector<Instruction *> Placed;
  Placed.reserve(N);
  auto Start = std::chrono::steady_clock::now();
  bool Ordered = true;
  for (int K = 0; K < N; ++K) {
    // A third before the end (always the same place), a third after the
    // first instruction, a third before a random earlier insertion; each
    // followed by a query, so that no renumbering can wait for a batch.
    Instruction *Pos = K % 3 == 0 ? &End
                       : K % 3 == 1 || Placed.empty()
                           ? &*std::next(First.getIterator())
                           : Placed[Random() % Placed.size()];
    Instruction &New = BB.insert(Pos->getIterator(), std::move(Copies[K]));
    Placed.push_back(&New);
    Ordered &= New.comesBefore(*Pos) && First.comesBefore(New) && !End.comesBefore(New);
  }
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  EXPECT_TRUE(Ordered);
  EXPECT_EQ(BB.instructions().size(), size_t(N) + 2);
  // This takes about a tenth of a second; renumbering the whole block for
  // each query (10^10 steps) would take minutes.
  EXPECT_LT(Seconds, 2.0);
  const BlockItem *Previous = nullptr;
  for (const BlockItem &Item : BB.items()) {
    if (Previous)
      ASSERT_TRUE(Previous->comesBefore(Item));
    Previous = &Item;
  }
}

TEST(BlockItemsTest, ErasedBlockLeavesItsDirectives) {
  const char *Text = ".text\n"
                     "k:\n"
                     "  s_nop 0\n"
                     "mid:\n"
                     "  .set vgprX, 4\n"
                     "  s_nop 1\n"
                     "end:\n"
                     "  v_mov_b32 v[vgprX], v0\n"
                     "  s_endpgm\n";
  auto M = readItems(Text);
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  F.findBlock("mid")->eraseFromParent();
  EXPECT_EQ(F.blocks().size(), 2u);
  EXPECT_EQ(printAsm(*M), ".text\n"
                          "k:\n"
                          "  s_nop 0\n"
                          "  .set vgprX, 4\n"
                          "end:\n"
                          "  v_mov_b32 v[vgprX], v0\n"
                          "  s_endpgm\n");
  // A block moves with everything it holds.
  auto N = readItems(Text);
  ASSERT_TRUE(N);
  Function &G = N->functions().front();
  G.findBlock("mid")->moveAfter(*G.findBlock("end"));
  EXPECT_EQ(&G.blocks().back(), G.findBlock("mid"));
  EXPECT_EQ(printAsm(*N), ".text\n"
                          "k:\n"
                          "  s_nop 0\n"
                          "end:\n"
                          "  v_mov_b32 v[vgprX], v0\n"
                          "  s_endpgm\n"
                          "mid:\n"
                          "  .set vgprX, 4\n"
                          "  s_nop 1\n");
  G.findBlock("mid")->moveBefore(G.blocks().front());
  EXPECT_EQ(&G.blocks().front(), G.findBlock("mid"));
}

TEST(BlockItemsTest, StirRoundTripKeepsDirectivesLeftAtBlockEnds) {
  auto M = readItems(".text\n"
                     "k:\n"
                     "  s_nop 0\n"
                     "  .set x, 1\n"
                     "  s_branch next\n"
                     "next:\n"
                     "  .set y, 2\n"
                     "  // last\n"
                     "  s_endpgm\n"
                     ".Lend:\n");
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  findStatement(F.blocks().front(), "s_branch").eraseFromParent();
  findStatement(*F.findBlock("next"), "s_endpgm").eraseFromParent();
  std::string Asm = printAsm(*M);
  EXPECT_EQ(Asm, ".text\n"
                 "k:\n"
                 "  s_nop 0\n"
                 "  .set x, 1\n"
                 "next:\n"
                 "  .set y, 2\n"
                 "  // last\n"
                 ".Lend:\n");
  // `.stir` has no place for a directive after a block's last instruction:
  // it goes before the next label, or after the function.
  std::string Stir;
  llvm::raw_string_ostream OS(Stir);
  writeStir(*M, OS);
  auto Back = test::readStirText(Stir, "gfx90a");
  ASSERT_TRUE(Back) << Stir;
  EXPECT_EQ(printAsm(*Back), Asm);
}

} // namespace
