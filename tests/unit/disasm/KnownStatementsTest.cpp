//===- KnownStatementsTest.cpp - A disassembly read without its parse -----===//
//
// The reader takes a disassembly's instruction lines from what the
// disassembler assembled (mc/KnownStatements.h) instead of parsing them:
// every instruction must get the MC instructions a parse of the whole text
// gives it, a branch's label operand the label's symbol.
//
//===----------------------------------------------------------------------===//
#include "AssembledKernel.h"
#include "TestModules.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/disasm/CodeObjectDisassembler.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace stinkytofu;

namespace {

const char *const LoopWithDataWordSource = R"(	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_mov_b32 v2, 0x12345678
	s_mov_b32 s4, 4
.Lloop:
	v_add_f32 v1, 1.0, v2
	v_fma_f32 v3, v1, v2, -v3 clamp
	global_load_dword v4, v[0:1], off offset:16
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_mfma_f32_16x16x4_f32 a[0:3], v1, v2, a[0:3]
	s_sub_u32 s4, s4, 1
	s_cmp_lg_u32 s4, 0
	s_cbranch_scc1 .Lloop
	s_branch .Ldone
	.long 0xdeadbeef
.Ldone:
	s_endpgm
	.size k, .-k
	.rodata
	.p2align 6
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 8
	.amdhsa_next_free_sgpr 20
	.amdhsa_accum_offset 4
	.end_amdhsa_kernel
)";

struct Disassembly {
  std::string Text;
  KnownStatements Known;
};

Disassembly disassemble() {
  Disassembly D;
  std::string Object = test::assembleKernel(LoopWithDataWordSource);
  llvm::Expected<elf::ElfImage> Image = elf::ElfImage::create(Object);
  EXPECT_TRUE(bool(Image)) << toString(Image.takeError());
  llvm::Expected<std::string> Text = disassembleCodeObject(*Image, {}, &D.Known);
  EXPECT_TRUE(bool(Text)) << toString(Text.takeError());
  D.Text = *Text;
  return D;
}

std::unique_ptr<Module> readWithKnown(llvm::StringRef Text, const KnownStatements *Known) {
  ReaderOptions Opts;
  Opts.Known = Known;
  llvm::Expected<std::unique_ptr<Module>> M =
      readAsm(llvm::MemoryBuffer::getMemBufferCopy(Text, "k.co"), Opts);
  EXPECT_TRUE(bool(M)) << toString(M.takeError());
  return M ? std::move(*M) : nullptr;
}

/// An MC operand as text: a label operand by its symbol's name.
std::string describeOperand(const llvm::MCOperand &Op) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (Op.isReg())
    OS << "reg " << Op.getReg().id();
  else if (Op.isImm())
    OS << "imm " << Op.getImm();
  else if (Op.isDFPImm())
    OS << "dfp " << Op.getDFPImm();
  else if (const auto *Ref = Op.isExpr() ? dyn_cast<llvm::MCSymbolRefExpr>(Op.getExpr()) : nullptr)
    OS << "symbol " << Ref->getSymbol().getName() << " specifier "
       << unsigned(Ref->getSpecifier());
  else
    OS << "other";
  return S;
}

TEST(KnownStatementsTest, InstructionsAreTheParsedOnes) {
  Disassembly D = disassemble();
  // Every instruction line is known (the `.long` word is not an instruction).
  ASSERT_EQ(D.Known.Instructions.size(), 13u);
  EXPECT_EQ(D.Known.CheckedBlocks.size(), 1u);
  std::unique_ptr<Module> Parsed = readWithKnown(D.Text, nullptr);
  std::unique_ptr<Module> Known = readWithKnown(D.Text, &D.Known);
  ASSERT_TRUE(Parsed && Known);
  std::vector<const Instruction *> A = test::allInstructions(*Parsed);
  std::vector<const Instruction *> B = test::allInstructions(*Known);
  ASSERT_EQ(A.size(), B.size());
  unsigned Labels = 0;
  for (size_t I = 0; I < A.size(); ++I) {
    llvm::ArrayRef<llvm::MCInst> X = A[I]->mcInsts(), Y = B[I]->mcInsts();
    ASSERT_EQ(X.size(), Y.size()) << A[I]->sourceText().str();
    for (size_t K = 0; K < X.size(); ++K) {
      EXPECT_EQ(X[K].getOpcode(), Y[K].getOpcode()) << A[I]->sourceText().str();
      EXPECT_EQ(X[K].getFlags(), Y[K].getFlags()) << A[I]->sourceText().str();
      ASSERT_EQ(X[K].getNumOperands(), Y[K].getNumOperands()) << A[I]->sourceText().str();
      for (unsigned Op = 0; Op < X[K].getNumOperands(); ++Op) {
        EXPECT_EQ(describeOperand(X[K].getOperand(Op)), describeOperand(Y[K].getOperand(Op)))
            << A[I]->sourceText().str() << " operand " << Op;
        Labels += llvm::StringRef(describeOperand(Y[K].getOperand(Op))).starts_with("symbol .Lk_");
      }
    }
    EXPECT_EQ(A[I]->location().Line, B[I]->location().Line);
  }
  EXPECT_EQ(Labels, 2u); // the two branches name their targets' labels
  // Same items: the written text is the input, both ways.
  std::string WrittenA, WrittenB;
  llvm::raw_string_ostream OA(WrittenA), OB(WrittenB);
  EXPECT_FALSE(errorToBool(writeAsm(*Parsed, OA)));
  EXPECT_FALSE(errorToBool(writeAsm(*Known, OB)));
  EXPECT_EQ(WrittenA, D.Text);
  EXPECT_EQ(WrittenB, D.Text);
}

TEST(KnownStatementsTest, TheReaderTakesTheKnownInstructionsAsGiven) {
  Disassembly D = disassemble();
  ASSERT_GE(D.Known.Instructions.size(), 2u);
  // The first line claims the second line's instruction: read, it has it.
  D.Known.Instructions[0].Inst = D.Known.Instructions[1].Inst;
  std::unique_ptr<Module> M = readWithKnown(D.Text, &D.Known);
  ASSERT_TRUE(M);
  std::vector<const Instruction *> Insts = test::allInstructions(*M);
  ASSERT_GE(Insts.size(), 2u);
  EXPECT_EQ(Insts[0]->mcInsts().front().getOpcode(), Insts[1]->mcInsts().front().getOpcode());
  // For another target, or lines that are not whole, the text is parsed.
  for (auto Spoil : {+[](KnownStatements &K) { K.TargetId = "gfx90a"; },
                     +[](KnownStatements &K) { K.Instructions[1].End -= 1; }}) {
    KnownStatements Other = D.Known;
    Spoil(Other);
    std::unique_ptr<Module> Parsed = readWithKnown(D.Text, &Other);
    ASSERT_TRUE(Parsed);
    std::vector<const Instruction *> Again = test::allInstructions(*Parsed);
    ASSERT_GE(Again.size(), 2u);
    EXPECT_NE(Again[0]->mcInsts().front().getOpcode(), Again[1]->mcInsts().front().getOpcode());
  }
}

} // namespace
