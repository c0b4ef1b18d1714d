//===- InstBuilderTest.cpp - Building instructions from typed operands -----===//
#include "TestModules.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/hw/InstructionEncoder.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"
#include <ctime>

using namespace stinkytofu;
using llvm::ArrayRef;
using llvm::dyn_cast;
using llvm::Expected;
using llvm::MCInst;
using llvm::MCOperand;
using llvm::MCSymbol;
using llvm::MCSymbolRefExpr;
using llvm::SmallVector;
using llvm::SourceMgr;
using llvm::StringRef;
using llvm::Twine;
using llvm::toString;
using Op = BuildOperand;

namespace {

std::unique_ptr<Module> kernel(StringRef Arch) {
  return test::readAsmText("  .text\nk:\n  s_mov_b32 s0, s1\n  s_endpgm\n", Arch);
}

/// Two MC instruction lists are the same instructions: opcode, operands
/// (labels by symbol name), and the same encoding.
void expectSameMC(const TargetInfo &TI, ArrayRef<MCInst> Built, ArrayRef<MCInst> Parsed,
                  const std::string &What) {
  ASSERT_EQ(Built.size(), Parsed.size()) << What;
  for (size_t I = 0; I < Built.size(); ++I) {
    ASSERT_EQ(Built[I].getOpcode(), Parsed[I].getOpcode()) << What;
    ASSERT_EQ(Built[I].getNumOperands(), Parsed[I].getNumOperands()) << What;
    for (unsigned O = 0; O < Built[I].getNumOperands(); ++O) {
      const MCOperand &B = Built[I].getOperand(O), &P = Parsed[I].getOperand(O);
      if (B.isExpr() && P.isExpr()) {
        const auto *BS = dyn_cast<MCSymbolRefExpr>(B.getExpr());
        const auto *PS = dyn_cast<MCSymbolRefExpr>(P.getExpr());
        ASSERT_TRUE(BS && PS) << What;
        EXPECT_EQ(BS->getSymbol().getName(), PS->getSymbol().getName()) << What;
        continue;
      }
      ASSERT_EQ(B.isReg(), P.isReg()) << What << ": MC operand " << O;
      ASSERT_EQ(B.isImm(), P.isImm()) << What << ": MC operand " << O;
      if (B.isReg())
        EXPECT_EQ(B.getReg(), P.getReg()) << What << ": MC operand " << O;
      if (B.isImm())
        EXPECT_EQ(B.getImm(), P.getImm()) << What << ": MC operand " << O;
    }
  }
  InstructionEncoder Encoder(TI);
  EXPECT_EQ(Encoder.bytes(Built), Encoder.bytes(Parsed)) << What;
}

/// Builds \p Spec and checks it against the statement it prints as,
/// assembled by MC in the module's context.
void checkAgainstText(Module &M, InstBuilder &B, const InstSpec &Spec) {
  Expected<Instruction> I = B.build(Spec);
  ASSERT_TRUE(bool(I)) << Spec.Mnemonic << ": " << toString(I.takeError());
  std::string Text = formatInstruction(*I, AsmStyle());
  Expected<SmallVector<MCInst, 1>> Parsed = M.assembler().assembleStatement(Text);
  ASSERT_TRUE(bool(Parsed)) << Text << ": " << toString(Parsed.takeError());
  expectSameMC(M.target(), I->mcInsts(), *Parsed, Text);
}

TEST(InstBuilderTest, BuiltInstructionsEqualWhatMCAssemblesOnEveryTarget) {
  for (StringRef Arch : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030",
                         "gfx1100", "gfx1200", "gfx1201", "gfx1250"}) {
    SCOPED_TRACE(Arch.str());
    std::unique_ptr<Module> M = kernel(Arch);
    ASSERT_TRUE(M);
    InstBuilder B(*M);
    bool Gfx12 = Arch.starts_with("gfx12");
    std::vector<InstSpec> Specs;
    // Several values per shape: the first one assembles the prototype, the
    // others are patched copies of it.
    for (unsigned R : {0u, 7u, 31u}) {
      Specs.push_back({"s_mov_b32", {Op::sgpr(R + 2), Op::sgpr(R)}});
      Specs.push_back({"s_mov_b64", {Op::sgpr(R * 2 % 60, 2), Op::special("exec")}});
      Specs.push_back({"v_add_f32", {Op::vgpr(R + 1), Op::vgpr(R), Op::vgpr(R + 3)}});
      Specs.push_back({"v_mov_b32", {Op::vgpr(R), Op::imm(R * 1000 + 100)}});
      Specs.push_back({"v_mov_b32", {Op::vgpr(R), Op::imm(int64_t(R) - 16)}});
      Specs.push_back({"s_nop", {Op::imm(R % 8)}});
      Specs.push_back({"s_cbranch_scc0", {Op::label(("L" + Twine(R)).str())}});
      Specs.push_back({Gfx12 ? "s_add_co_u32" : "s_add_u32",
                       {Op::sgpr(R + 1), Op::sgpr(R), Op::imm(R + 70)}});
      Specs.push_back({"global_load_dword" + std::string(Gfx12 ? "" : ""),
                       {Op::vgpr(R + 4), Op::vgpr(R * 2 % 60, 2), Op::special("off"),
                        Op::text("offset:16")}});
    }
    if (!Gfx12)
      Specs.push_back({"s_waitcnt", {Op::waitcnt({0, std::nullopt, 1})}});
    else
      Specs.push_back({"s_wait_loadcnt", {Op::imm(3)}});
    for (const InstSpec &Spec : Specs)
      checkAgainstText(*M, B, Spec);
    // Ten shapes, each assembled once: every other instruction was patched.
    EXPECT_EQ(B.statementsAssembled(), 10u);
  }
}

TEST(InstBuilderTest, MFMAAndWideTuplesPatchEveryRegister) {
  std::unique_ptr<Module> M = kernel("gfx90a");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  for (unsigned R : {0u, 16u, 64u})
    checkAgainstText(*M, B,
                     {"v_mfma_f32_16x16x4f32",
                      {Op::agpr(R, 4), Op::vgpr(R + 1), Op::vgpr(R + 2), Op::agpr(R + 4, 4)}});
  for (unsigned R : {0u, 8u})
    checkAgainstText(*M, B, {"s_load_dwordx8", {Op::sgpr(R + 16, 8), Op::sgpr(R, 2),
                                                Op::imm(R * 4)}});
  EXPECT_EQ(B.statementsAssembled(), 2u);
}

TEST(InstBuilderTest, ShapesAreAssembledOnceAndBuffersStayConstant) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  const SourceMgr &SM = M->assembler().sourceMgr();
  unsigned Buffers = SM.getNumBuffers();
  InstBuilder B(*M);
  constexpr unsigned N = 100000;
  // Processor time, not wall time: the suite runs beside other jobs.
  std::clock_t Start = std::clock();
  for (unsigned K = 0; K < N; ++K) {
    Expected<Instruction> I = B.build("s_mov_b32", {Op::sgpr(K % 100), Op::sgpr((K + 1) % 100)});
    ASSERT_TRUE(bool(I));
  }
  double MicrosEach = double(std::clock() - Start) * 1e6 / CLOCKS_PER_SEC / N;
  // One prototype for 100,000 instructions, no buffer in the module.
  EXPECT_EQ(B.statementsAssembled(), 1u);
  EXPECT_EQ(SM.getNumBuffers(), Buffers);
#ifndef STINKYTOFU_SANITIZE
  // Text re-parsing took 12 us per instruction; patching is far below
  // (about 1.5 us in the optimized build; the sanitizers' cost is theirs).
  EXPECT_LT(MicrosEach, 12.0 / 2);
#endif
  RecordProperty("MicrosPerInstruction", std::to_string(MicrosEach));
}

TEST(InstBuilderTest, BuildingDefinesNoSymbolOfTheModule) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  ASSERT_TRUE(bool(B.build("s_branch", {Op::label(".Lfresh")})));
  MCSymbol *Fresh = M->assembler().context().lookupSymbol(".Lfresh");
  ASSERT_NE(Fresh, nullptr); // referred to, as the branch needs
  EXPECT_TRUE(Fresh->isUndefined());
  // The builder's placeholder labels stay in its own context.
  EXPECT_EQ(M->assembler().context().lookupSymbol(".Lstinkytofu_builder_label"), nullptr);
  EXPECT_EQ(M->assembler().context().lookupSymbol(".Lstinkytofu_prototype_0"), nullptr);
}

TEST(InstBuilderTest, BuildAllAssemblesNewShapesInOneRun) {
  std::unique_ptr<Module> M = kernel("gfx1100");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  std::vector<InstSpec> Specs = {
      {"s_mov_b32", {Op::sgpr(3), Op::sgpr(4)}},
      {"v_add_nc_u32", {Op::vgpr(1), Op::vgpr(2), Op::vgpr(3)}},
      {"s_mov_b32", {Op::sgpr(9), Op::sgpr(8)}},
      {"s_cbranch_execz", {Op::label("Ldone")}},
  };
  Expected<std::vector<Instruction>> Built = B.buildAll(Specs);
  ASSERT_TRUE(bool(Built)) << toString(Built.takeError());
  EXPECT_EQ(B.statementsAssembled(), 1u);
  ASSERT_EQ(Built->size(), 4u);
  for (size_t I = 0; I < Specs.size(); ++I) {
    std::string Text = formatInstruction((*Built)[I], AsmStyle());
    Expected<SmallVector<MCInst, 1>> Parsed = M->assembler().assembleStatement(Text);
    ASSERT_TRUE(bool(Parsed)) << toString(Parsed.takeError());
    expectSameMC(M->target(), (*Built)[I].mcInsts(), *Parsed, Text);
  }
  EXPECT_EQ(formatInstruction((*Built)[2], AsmStyle()), "\ts_mov_b32 s9, s8");
}

TEST(InstBuilderTest, RejectedStatementsAreErrorsNamingThem) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  Expected<Instruction> I = B.build("s_mov_b32", {Op::imm(1)});
  ASSERT_FALSE(bool(I));
  EXPECT_NE(toString(I.takeError()).find("cannot assemble 's_mov_b32 1'"), std::string::npos);
  Expected<Instruction> Unknown = B.build("v_no_such_op", {Op::vgpr(0)});
  ASSERT_FALSE(bool(Unknown));
  consumeError(Unknown.takeError());
}

TEST(InstBuilderTest, TypedOperandsDescribeTheInstruction) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  Expected<Instruction> I = B.build("s_mov_b64", {Op::sgpr(4, 2), Op::special("exec")});
  ASSERT_TRUE(bool(I));
  ASSERT_EQ(I->numOperands(), 2u);
  EXPECT_TRUE(I->operand(0).isRegister());
  EXPECT_EQ(I->operand(0).regFile(), RegFile::SGPR);
  EXPECT_EQ(I->operand(0).firstReg(), 4u);
  EXPECT_EQ(I->operand(0).regCount(), 2u);
  EXPECT_TRUE(I->operand(1).isSpecialRegister());
  // The facts come from the patched MC instruction: s[4:5] is defined.
  const TargetInfo &TI = M->target();
  EXPECT_TRUE(llvm::is_contained(I->facts().Defs, TI.findRegister("SGPR4_SGPR5")));
}

TEST(InstBuilderTest, SourceModifiersArePartOfTheShape) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  for (unsigned R : {0u, 7u}) {
    InstSpec Spec{"v_add_f32_e64",
                  {Op::vgpr(R), Op::vgpr(R + 1).withSourceModifiers(SrcModNeg | SrcModAbs),
                   Op::vgpr(R + 2)}};
    checkAgainstText(*M, B, Spec);
    Expected<Instruction> I = B.build(Spec);
    ASSERT_TRUE(bool(I));
    EXPECT_EQ(I->operand(1).spelling(), "-|v" + std::to_string(R + 1) + "|");
    EXPECT_TRUE(I->operand(1).isNegated());
    EXPECT_TRUE(I->operand(1).hasAbs());
    EXPECT_EQ(I->operand(1).firstReg(), R + 1);
  }
  checkAgainstText(*M, B, {"v_add_f32_e64", {Op::vgpr(3), Op::vgpr(4), Op::vgpr(5)}});
  // With and without modifiers are two shapes: MC encodes them apart.
  EXPECT_EQ(B.statementsAssembled(), 2u);
}

TEST(InstBuilderTest, SymbolsATextOperandNamesAreTheModules) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  std::vector<Instruction> Built;
  {
    InstBuilder B(*M);
    for (unsigned R : {4u, 6u}) {
      Expected<Instruction> I =
          B.build("s_add_u32", {Op::sgpr(R), Op::sgpr(R), Op::text("Lfar-.Lpost_getpc0")});
      ASSERT_TRUE(bool(I)) << toString(I.takeError());
      Built.push_back(std::move(*I));
    }
  } // the builder and its own MC context are gone
  MCSymbol *Far = M->assembler().context().lookupSymbol("Lfar");
  ASSERT_NE(Far, nullptr);
  for (const Instruction &I : Built) {
    ASSERT_EQ(I.mcInsts().size(), 1u);
    const MCOperand &Expr = I.mcInsts()[0].getOperand(2);
    ASSERT_TRUE(Expr.isExpr());
    const auto *Sub = dyn_cast<llvm::MCBinaryExpr>(Expr.getExpr());
    ASSERT_NE(Sub, nullptr);
    const auto *LHS = dyn_cast<MCSymbolRefExpr>(Sub->getLHS());
    ASSERT_NE(LHS, nullptr);
    EXPECT_EQ(&LHS->getSymbol(), Far);
  }
  EXPECT_EQ(Built[1].mcInsts()[0].getOperand(0).getReg(), M->target().findRegister("SGPR6"));
}

/// \p Built and \p Parsed are the same expression: the same operators and
/// constants, over the same symbols (of one context).
void expectSameExpr(const llvm::MCExpr &Built, const llvm::MCExpr &Parsed) {
  ASSERT_EQ(Built.getKind(), Parsed.getKind());
  if (const auto *B = dyn_cast<llvm::MCBinaryExpr>(&Built)) {
    const auto &P = llvm::cast<llvm::MCBinaryExpr>(Parsed);
    EXPECT_EQ(B->getOpcode(), P.getOpcode());
    expectSameExpr(*B->getLHS(), *P.getLHS());
    expectSameExpr(*B->getRHS(), *P.getRHS());
  } else if (const auto *C = dyn_cast<llvm::MCConstantExpr>(&Built)) {
    EXPECT_EQ(C->getValue(), llvm::cast<llvm::MCConstantExpr>(Parsed).getValue());
  } else {
    ASSERT_TRUE(llvm::isa<MCSymbolRefExpr>(Built));
    EXPECT_EQ(&llvm::cast<MCSymbolRefExpr>(Built).getSymbol(),
              &llvm::cast<MCSymbolRefExpr>(Parsed).getSymbol());
  }
}

TEST(InstBuilderTest, ExpressionsOfLabelsArePatchedInAndSpelledByMC) {
  struct Case {
    StringRef Arch;
    bool AddPc64;
  };
  for (Case C : {Case{"gfx942", false}, Case{"gfx1250", true}}) {
    SCOPED_TRACE(C.Arch.str());
    std::unique_ptr<Module> M = kernel(C.Arch);
    ASSERT_TRUE(M);
    llvm::MCContext &Ctx = M->assembler().context();
    std::vector<Instruction> Built;
    std::vector<std::string> Texts;
    unsigned Assembled = 0;
    {
      InstBuilder B(*M);
      ASSERT_EQ(&B.context(), &Ctx);
      for (unsigned K = 0; K < 3; ++K) {
        std::string Post = ".Lpost" + std::to_string(K);
        const llvm::MCExpr *Offset = B.labelDifference("Lfar", Post, K == 2 ? -4 : 0);
        std::vector<InstSpec> Specs;
        if (C.AddPc64) {
          Specs.push_back({"s_add_pc_i64", {B.expression(Offset)}});
        } else {
          const llvm::MCExpr *Low = llvm::MCBinaryExpr::createAnd(
              Offset, llvm::MCConstantExpr::create(0xffffffff, Ctx), Ctx);
          const llvm::MCExpr *High = llvm::MCBinaryExpr::createLShr(
              Offset, llvm::MCConstantExpr::create(32, Ctx), Ctx);
          Specs.push_back({"s_add_u32", {Op::sgpr(2 * K), Op::sgpr(2 * K), B.expression(Low)}});
          Specs.push_back(
              {"s_addc_u32", {Op::sgpr(2 * K + 1), Op::sgpr(2 * K + 1), B.expression(High)}});
        }
        for (const InstSpec &Spec : Specs) {
          Expected<Instruction> I = B.build(Spec);
          ASSERT_TRUE(bool(I)) << toString(I.takeError());
          Texts.push_back(StringRef(formatInstruction(*I, AsmStyle())).trim().str());
          Built.push_back(std::move(*I));
        }
      }
      Assembled = B.statementsAssembled();
    } // the builder and its own MC context are gone
    // One prototype per shape: later offsets are patched in, not parsed.
    EXPECT_EQ(Assembled, C.AddPc64 ? 1u : 2u);
    std::vector<std::string> Want =
        C.AddPc64 ? std::vector<std::string>{"s_add_pc_i64 Lfar-.Lpost0",
                                             "s_add_pc_i64 Lfar-.Lpost1",
                                             "s_add_pc_i64 Lfar-.Lpost2-4"}
                  : std::vector<std::string>{"s_add_u32 s0, s0, (Lfar-.Lpost0)&4294967295",
                                             "s_addc_u32 s1, s1, (Lfar-.Lpost0)>>32",
                                             "s_add_u32 s2, s2, (Lfar-.Lpost1)&4294967295",
                                             "s_addc_u32 s3, s3, (Lfar-.Lpost1)>>32",
                                             "s_add_u32 s4, s4, (Lfar-.Lpost2-4)&4294967295",
                                             "s_addc_u32 s5, s5, (Lfar-.Lpost2-4)>>32"};
    EXPECT_EQ(Texts, Want);
    // What MC assembles from the printed text in the module's context.
    for (auto [I, Text] : llvm::zip(Built, Texts)) {
      SCOPED_TRACE(Text);
      Expected<SmallVector<MCInst, 1>> Parsed = M->assembler().assembleStatement(Text);
      ASSERT_TRUE(bool(Parsed)) << toString(Parsed.takeError());
      ASSERT_EQ(I.mcInsts().size(), 1u);
      ASSERT_EQ(Parsed->size(), 1u);
      const MCInst &BI = I.mcInsts()[0], &PI = (*Parsed)[0];
      ASSERT_EQ(BI.getOpcode(), PI.getOpcode());
      ASSERT_EQ(BI.getNumOperands(), PI.getNumOperands());
      for (unsigned O = 0; O < BI.getNumOperands(); ++O) {
        const MCOperand &BO = BI.getOperand(O), &PO = PI.getOperand(O);
        ASSERT_EQ(BO.isExpr(), PO.isExpr()) << "MC operand " << O;
        if (BO.isExpr())
          expectSameExpr(*BO.getExpr(), *PO.getExpr());
        else if (BO.isReg())
          EXPECT_EQ(BO.getReg(), PO.getReg());
        else if (BO.isImm())
          EXPECT_EQ(BO.getImm(), PO.getImm());
      }
      ASSERT_EQ(I.operands().back().kind(), OperandKind::Expression);
    }
  }
}

TEST(InstBuilderTest, DepCtrAndDelayAluFieldsAreEncodedByMC) {
  for (StringRef Arch : {"gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250"}) {
    SCOPED_TRACE(Arch.str());
    std::unique_ptr<Module> M = kernel(Arch);
    ASSERT_TRUE(M);
    InstBuilder B(*M);
    StringRef WaitAlu = Arch.starts_with("gfx12") ? "s_wait_alu" : "s_waitcnt_depctr";
    DepCtrFields VdstAndSdst;
    VdstAndSdst.VaVdst = 0;
    VdstAndSdst.SaSdst = 0;
    Expected<Instruction> Wait = B.build(WaitAlu, {Op::depctr(VdstAndSdst)});
    ASSERT_TRUE(bool(Wait)) << toString(Wait.takeError());
    EXPECT_EQ(Wait->operand(0).spelling(), "depctr_va_vdst(0) depctr_sa_sdst(0)");
    // llvm-mc -show-encoding: [0x9e,0x0f,...]: va_vdst [15:12] and sa_sdst
    // [0] cleared, every other field at its maximum.
    ASSERT_EQ(Wait->mcInsts().size(), 1u);
    EXPECT_EQ(Wait->mcInsts()[0].getOperand(0).getImm(), 0x0f9e);
    // The same wait as LLVM's printer writes it: its own field order.
    Expected<Op> Printed = B.printedDepctr(WaitAlu, VdstAndSdst);
    ASSERT_TRUE(bool(Printed)) << toString(Printed.takeError());
    EXPECT_EQ(Printed->spelling(), "depctr_sa_sdst(0) depctr_va_vdst(0)");
    Expected<Instruction> Reordered = B.build(WaitAlu, {*Printed});
    ASSERT_TRUE(bool(Reordered)) << toString(Reordered.takeError());
    EXPECT_EQ(Reordered->mcInsts()[0].getOperand(0).getImm(), 0x0f9e);
    if (Arch == "gfx1030")
      continue; // s_delay_alu is gfx11+
    Expected<Instruction> Delay = B.build(
        "s_delay_alu",
        {Op::delayAlu({AluDependency::ValuDep1, 1, AluDependency::SaluCycle1})});
    ASSERT_TRUE(bool(Delay)) << toString(Delay.takeError());
    EXPECT_EQ(Delay->operand(0).spelling(),
              "instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)");
    EXPECT_EQ(Delay->mcInsts()[0].getOperand(0).getImm(), 0x491);
    Expected<Instruction> Single =
        B.build("s_delay_alu", {Op::delayAlu({AluDependency::Trans32Dep2})});
    ASSERT_TRUE(bool(Single)) << toString(Single.takeError());
    EXPECT_EQ(Single->operand(0).spelling(), "instid0(TRANS32_DEP_2)");
    // Two delays of one instruction: instskip(SAME) is left out, as MC
    // prints it.
    Expected<Instruction> Same = B.build(
        "s_delay_alu", {Op::delayAlu({AluDependency::Trans32Dep1, 0, AluDependency::ValuDep1})});
    ASSERT_TRUE(bool(Same)) << toString(Same.takeError());
    EXPECT_EQ(Same->operand(0).spelling(), "instid0(TRANS32_DEP_1) | instid1(VALU_DEP_1)");
    EXPECT_EQ(Same->mcInsts()[0].getOperand(0).getImm(), 0x85);
  }
}

TEST(InstBuilderTest, MarkerCodeOperandsAreTypedAndEqualWhatMCAssembles) {
  // The targets with s_ttracedata_imm and HW_REG_HW_ID1.
  for (StringRef Arch : {"gfx1100", "gfx1201", "gfx1250"}) {
    SCOPED_TRACE(Arch.str());
    std::unique_ptr<Module> M = kernel(Arch);
    ASSERT_TRUE(M);
    const TargetInfo &TI = M->target();
    InstBuilder B(*M);
    Op Vcc = Op::mcReg(TI.findRegister("VCC_LO"), TI),
       S7 = Op::mcReg(TI.reg32(RegClass::SGPR, 7), TI);
    EXPECT_EQ(Vcc.kind(), Op::Kind::Special);
    EXPECT_EQ(Vcc.spelling(), "vcc_lo");
    EXPECT_EQ(S7.kind(), Op::Kind::Register);
    EXPECT_EQ(S7.spelling(), "s7");
    EXPECT_EQ(Op::hexImm(0x1F, /*LowerCase=*/true).spelling(), "0x1f");
    EXPECT_EQ(Op::hexImm(0x1F).spelling(), "0x1F");
    std::vector<InstSpec> Specs;
    for (uint32_t Id : {0x6u, 0x3f80u, 0xffffu}) // one shape: patched copies
      Specs.push_back({"s_ttracedata_imm", {Op::hexImm(Id, true)}});
    for (uint32_t Word : {0x12345u, 0x3f800000u, 0xfffffff1u}) // 1.0 and -15 are inline
      Specs.push_back({"s_mov_b32", {Op::special("m0"), Op::hexImm(Word, true)}});
    Specs.push_back({"s_getreg_b32", {S7, Op::hwreg("HW_REG_HW_ID1", 8, 4)}});
    Specs.push_back({"s_cselect_b32", {Vcc, Op::imm(1), Op::imm(0)}});
    Specs.push_back({"v_writelane_b32", {Op::vgpr(3), S7, Op::imm(5)}});
    Specs.push_back({"v_readlane_b32", {S7, Op::vgpr(3), Op::imm(5)}});
    Specs.push_back({"s_getreg_b32", {S7, Op::hwreg("HW_REG_HW_ID1")}});
    Specs.push_back(modelStatementSpec("s_nop 4"));
    if (Arch == "gfx1250")
      Specs.push_back({"s_set_vgpr_msb", {Op::hexImm(0x4145, true)}});
    for (const InstSpec &Spec : Specs)
      checkAgainstText(*M, B, Spec);
    // Each shape assembled once (an inline 0x6 is another shape than a
    // literal): the 16-bit literal 0xffff was patched too.
    EXPECT_EQ(B.statementsAssembled(), Specs.size() - 3);
    Expected<Instruction> Get = B.build(Specs[6]);
    ASSERT_TRUE(bool(Get));
    EXPECT_EQ(StringRef(formatInstruction(*Get, AsmStyle())).trim(),
              "s_getreg_b32 s7, hwreg(HW_REG_HW_ID1, 8, 4)");
  }
}

TEST(InstBuilderTest, AScopeModifierFollowsItsOperandWithoutAComma) {
  std::unique_ptr<Module> M = kernel("gfx1250");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  for (unsigned R : {0u, 4u}) // the second one is a patched copy
    checkAgainstText(*M, B, {"global_prefetch_b8", {Op::vgpr(R), Op::sgpr(R, 2),
                                                    Op::scope(MemoryScope::SE)}});
  EXPECT_EQ(B.statementsAssembled(), 1u);
  Expected<Instruction> Dev = B.build(
      "global_prefetch_b8", {Op::vgpr(1), Op::sgpr(2, 2), Op::scope(MemoryScope::DEV)});
  ASSERT_TRUE(bool(Dev)) << toString(Dev.takeError());
  EXPECT_EQ(StringRef(formatInstruction(*Dev, AsmStyle())).trim(),
            "global_prefetch_b8 v1, s[2:3] scope:SCOPE_DEV");
  EXPECT_EQ(Dev->operands().back().kind(), OperandKind::Modifier);
}

TEST(InstBuilderTest, AnInstructionBuiltAgainIsACopy) {
  std::unique_ptr<Module> M = kernel("gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  Expected<Instruction> A = B.build("s_mov_b32", {Op::special("m0"), Op::hexImm(0x6, true)});
  ASSERT_TRUE(bool(A));
  A->setTrailingComment("; changed"); // a copy's change is its own
  for (int K = 0; K < 3; ++K) {
    Expected<Instruction> I = B.build("s_mov_b32", {Op::special("m0"), Op::hexImm(0x6, true)});
    ASSERT_TRUE(bool(I));
    EXPECT_EQ(StringRef(formatInstruction(*I, AsmStyle())).trim(), "s_mov_b32 m0, 0x6");
    EXPECT_EQ(I->mcInsts()[0].getOperand(1).getImm(), 6);
  }
  // The same value written otherwise is another instruction.
  Expected<Instruction> Dec = B.build("s_mov_b32", {Op::special("m0"), Op::imm(6)});
  ASSERT_TRUE(bool(Dec));
  EXPECT_EQ(StringRef(formatInstruction(*Dec, AsmStyle())).trim(), "s_mov_b32 m0, 6");
  EXPECT_EQ(B.statementsAssembled(), 1u);
}

TEST(InstBuilderTest, ParseCopiesTextsSeenBefore) {
  std::unique_ptr<Module> M =
      test::readAsmText("  .text\n  .set vgprX, 5\nk:\n  v_mov_b32 v[vgprX], v1\n  s_endpgm\n",
                        "gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  for (int K = 0; K < 3; ++K) {
    Expected<Instruction> I = B.parse("v_mov_b32 v[vgprX], 0");
    ASSERT_TRUE(bool(I)) << toString(I.takeError());
    EXPECT_EQ(I->operand(0).firstReg(), 5u);
  }
  EXPECT_EQ(B.statementsAssembled(), 1u);
}

TEST(InstBuilderTest, AModuleBuiltWithoutTextPrintsAndReadsBack) {
  Expected<std::shared_ptr<const TargetInfo>> TI = TargetInfo::get("gfx90a");
  ASSERT_TRUE(bool(TI)) << toString(TI.takeError());
  Module M("built", *TI);
  EXPECT_FALSE(M.hasAssembler());
  InstBuilder B(M);
  EXPECT_TRUE(M.hasAssembler());
  M.appendText(TextKind::Directive, "\t.text\n");
  Function &F = M.appendFunction("k", /*IsEntry=*/true);
  BasicBlock &Entry = F.appendBlock("k");
  BasicBlock &Loop = F.appendBlock("Lloop");
  auto Add = [&](BasicBlock &BB, StringRef Mnemonic, std::vector<Op> Ops) {
    Expected<Instruction> I = B.build(Mnemonic, Ops);
    ASSERT_TRUE(bool(I)) << toString(I.takeError());
    BB.append(std::move(*I));
  };
  Add(Entry, "s_mov_b32", {Op::sgpr(0), Op::imm(4)});
  Add(Loop, "s_sub_u32", {Op::sgpr(0), Op::sgpr(0), Op::imm(1)});
  Add(Loop, "s_cmp_lg_u32", {Op::sgpr(0), Op::imm(0)});
  Add(Loop, "s_cbranch_scc1", {Op::label("Lloop")});
  Add(Loop, "s_endpgm", {});
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ASSERT_FALSE(bool(writeAsm(M, OS)));
  std::unique_ptr<Module> Back = test::readAsmText(Text, "gfx90a");
  ASSERT_TRUE(Back) << Text;
  std::vector<std::string> Mnemonics;
  for (const Function &G : Back->functions())
    for (const BasicBlock &BB : G.blocks())
      for (const Instruction &I : BB.instructions())
        Mnemonics.push_back(I.mnemonic().str());
  EXPECT_EQ(Mnemonics, (std::vector<std::string>{"s_mov_b32", "s_sub_u32", "s_cmp_lg_u32",
                                                  "s_cbranch_scc1", "s_endpgm"}))
      << Text;
}

} // namespace
