//===- KeptStatementParserTest.cpp - One parser for statements in a row ---===//
//
// AssemblerState keeps one parser for the plain instruction statements
// passes assemble (AssemblerState::KeptParser). These run the same
// statements with it and with a parser per statement, and compare every
// statement's MC instructions, error, and the register count symbols MC
// keeps in the context, which a new parser sets to 0; and a pass's output
// for a kernel whose descriptor reads those symbols.
//
//===----------------------------------------------------------------------===//
#include "../TestModules.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

/// What assembling \p Statement gave: each instruction's opcode and
/// operands, or the error; then the two register count symbols.
std::string outcome(AssemblerState &AS, llvm::StringRef Statement) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Expected<llvm::SmallVector<llvm::MCInst, 1>> Insts = AS.assembleStatement(Statement);
  if (!Insts) {
    OS << "error: " << llvm::toString(Insts.takeError());
  } else {
    for (const llvm::MCInst &I : *Insts) {
      OS << AS.target().printMC(I) << " #" << I.getOpcode();
      for (const llvm::MCOperand &Op : I) {
        if (Op.isReg())
          OS << " r" << Op.getReg().id();
        else if (Op.isImm())
          OS << " i" << Op.getImm();
        else if (Op.isExpr())
          AS.target().asmInfo().printExpr(OS << " e", *Op.getExpr());
        else
          OS << " ?";
      }
      OS << "; ";
    }
  }
  for (llvm::StringRef Count : {".amdgcn.next_free_vgpr", ".amdgcn.next_free_sgpr"})
    OS << " " << Count << "=" << AS.symbolValue(Count).value_or(-1);
  return Out;
}

void expectSameWithKeptParser(llvm::StringRef Arch, llvm::ArrayRef<const char *> Statements) {
  SCOPED_TRACE(Arch.str());
  std::string File = ".amdgcn_target \"amdgcn-amd-amdhsa--" + Arch.str() +
                     "\"\n.text\n.set base, 4\n.macro twice r\n  v_mov_b32 \\r, \\r\n"
                     "  v_mov_b32 \\r, \\r\n.endm\n.Lhere:\n  v_mov_b32 v60, v61\n"
                     "  s_endpgm\n";
  std::vector<std::string> Outcomes[2];
  for (bool Keep : {false, true}) {
    AssemblerState AS(llvm::cantFail(TargetInfo::get(Arch)));
    std::vector<AsmDiagnostic> Diags;
    AS.assembleFile(llvm::MemoryBuffer::getMemBufferCopy(File, "k.s"), Diags);
    ASSERT_TRUE(Diags.empty()) << Diags.front().Diag.getMessage().str();
    AS.setKeepStatementParser(Keep);
    for (const char *Statement : Statements)
      Outcomes[Keep].push_back(outcome(AS, Statement));
  }
  ASSERT_EQ(Outcomes[0].size(), Outcomes[1].size());
  for (size_t I = 0; I < Statements.size(); ++I)
    EXPECT_EQ(Outcomes[0][I], Outcomes[1][I]) << Statements[I];
  // The count symbols restart at each statement: the one reading it after
  // v40 was named still reads 0.
  auto Read = std::find(Statements.begin(), Statements.end(),
                        llvm::StringRef("s_mov_b32 s0, .amdgcn.next_free_vgpr"));
  ASSERT_NE(Read, Statements.end());
  EXPECT_EQ(llvm::StringRef(Outcomes[1][Read - Statements.begin()]).substr(0, 16), "s_mov_b32 s0, 0 ");
}

TEST(KeptStatementParser, GivesWhatAParserPerStatementGives) {
  expectSameWithKeptParser("gfx90a", {
      "v_add_u32 v3, v2, v4",
      "v_add_u32_e64 v3, v2, v4",
      "v_add_u32 v3, s2, v4",
      "v_add_u32 v3, v4, s2",
      "v_mov_b32_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0",
      "v_mov_b32 v1, v2",
      "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
      "v_mov_b32 v1, v2 ; a comment",
      "v_mov_b32 v[base], s[base+1]",
      "s_branch .Lhere",
      "s_cbranch_scc1 .Lnowhere_yet",
      "v_mov_b32 v40, v41",
      "s_mov_b32 s0, .amdgcn.next_free_vgpr",
      "v_mov_b32 v1",
      "v_mov_b32 v5, v6",
      "twice v9",
      "v_mov_b32 v5, v6",
      "global_load_dword v[2:3], v[4:5], off",
      "s_waitcnt vmcnt(0)",
      "v_mfma_f64_16x16x4f64 a[0:7], v[0:1], v[2:3], a[0:7]",
  });
  expectSameWithKeptParser("gfx1100", {
      "v_add_nc_u32 v3, v2, v4",
      "v_add_nc_u32_e64 v3, v2, s4",
      "v_add_nc_u32 v3, v2, v4",
      "v_mov_b32 v[base], s[base+1]",
      "v_mov_b32 v40, v41",
      "s_mov_b32 s0, .amdgcn.next_free_vgpr",
      "v_bogus_op v1, v2",
      "twice v9",
      "s_delay_alu instid0(VALU_DEP_1)",
      "v_add_nc_u32 v3, v2, v4",
  });
}

TEST(KeptStatementParser, PassOutputIsTheSameForADescriptorReadingTheCounts) {
  const char *Kernel = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n"
                       ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
                       "  v_mov_b32 v1, v2\n  v_add_u32 v3, v1, v4\n"
                       "  s_mov_b32 s1, s2\n  s_add_u32 s3, s1, 5\n"
                       "  v_mov_b32 v7, v8\n  v_mul_lo_u32 v9, v7, v7\n  s_endpgm\n"
                       ".rodata\n.p2align 6\n.amdhsa_kernel k\n"
                       "  .amdhsa_next_free_vgpr .amdgcn.next_free_vgpr\n"
                       "  .amdhsa_next_free_sgpr .amdgcn.next_free_sgpr\n"
                       "  .amdhsa_accum_offset 12\n.end_amdhsa_kernel\n";
  std::string Printed[2];
  for (bool Keep : {false, true}) {
    std::unique_ptr<Module> M = test::readAsmText(Kernel);
    ASSERT_TRUE(M);
    static_cast<AssemblerState &>(M->assembler()).setKeepStatementParser(Keep);
    StinkyTofuContext Ctx;
    llvm::Expected<std::unique_ptr<Pass>> P = passRegistry(Ctx).create("AsmMovePropagationPass");
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    (*P)->setContext(Ctx);
    AnalysisManager AM;
    llvm::Expected<PreservedAnalyses> PA = (*P)->run(*M, AM, PassScope());
    ASSERT_TRUE(bool(PA)) << llvm::toString(PA.takeError());
    Printed[Keep] = test::printAsmText(*M);
  }
  EXPECT_NE(Printed[1].find("v_mul_lo_u32 v9, v8, v8"), std::string::npos) << Printed[1];
  EXPECT_NE(Printed[1].find("s_add_u32 s3, s2, 5"), std::string::npos) << Printed[1];
  EXPECT_EQ(Printed[0], Printed[1]);
}

} // namespace
