//===- DerivedModifiersTest.cpp - Modifiers computed from MC, and edited ----===//
#include "TestModules.h"
#include "stinkytofu/mc/DerivedModifiers.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

Instruction &first(Module &M) {
  return M.functions().front().blocks().front().instructions().front();
}

std::string fields(const std::optional<AttrDict> &D) {
  if (!D)
    return "<none>";
  std::string S;
  llvm::raw_string_ostream OS(S);
  D->print(OS);
  return S;
}

std::string reread(const Module &M) {
  std::unique_ptr<Module> Again = test::readAsmText(test::printAsmText(M), M.target().processor());
  return Again ? formatOperands(first(*Again)) : "<does not assemble>";
}

TEST(DerivedModifiersTest, FieldsComeFromMC) {
  std::unique_ptr<Module> M =
      test::readAsmText("k:\n  s_waitcnt 0\n", "gfx942");
  ASSERT_TRUE(M);
  // `s_waitcnt 0` is written as a number; MC decodes it.
  EXPECT_EQ(fields(deriveModifier(ModifierKind::SWaitCnt, first(*M), M->target())),
            "{ vmcnt = 0, expcnt = 0, lgkmcnt = 0 }");
  EXPECT_EQ(fields(deriveModifier(ModifierKind::Ds, first(*M), M->target())), "<none>");
}

TEST(DerivedModifiersTest, SettingAWaitCountRewritesTheInstruction) {
  std::unique_ptr<Module> M = test::readAsmText("k:\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n", "gfx90a");
  ASSERT_TRUE(M);
  Instruction &Wait = first(*M);
  ASSERT_FALSE(bool(setDerivedField(*M, Wait, ModifierKind::SWaitCnt, "vmcnt",
                                    AttrValue::integer(3))));
  EXPECT_EQ(fields(deriveModifier(ModifierKind::SWaitCnt, Wait, M->target())),
            "{ vmcnt = 3, expcnt = -1, lgkmcnt = 0 }");
  EXPECT_EQ(reread(*M), "vmcnt(3) lgkmcnt(0)");
  // A count the counter cannot hold is MC's error; the wait stays.
  llvm::Error E = setDerivedField(*M, Wait, ModifierKind::SWaitCnt, "vmcnt",
                                  AttrValue::integer(1000));
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(fields(deriveModifier(ModifierKind::SWaitCnt, Wait, M->target())),
            "{ vmcnt = 3, expcnt = -1, lgkmcnt = 0 }");
}

TEST(DerivedModifiersTest, SettingASplitWaitAndAnOffset) {
  std::unique_ptr<Module> M = test::readAsmText(
      "k:\n  s_wait_dscnt 0x2\n  ds_load_b64 v[0:1], v2 offset:8\n", "gfx1250");
  ASSERT_TRUE(M);
  Instruction &Wait = first(*M);
  ASSERT_FALSE(bool(setDerivedField(*M, Wait, ModifierKind::SWaitCnt, "dlcnt",
                                    AttrValue::integer(0))));
  EXPECT_EQ(formatOperands(Wait), "0");
  Instruction &Load = *std::next(Wait.getIterator());
  ASSERT_FALSE(bool(setDerivedField(*M, Load, ModifierKind::Ds, "offset",
                                    AttrValue::integer(64))));
  EXPECT_EQ(fields(deriveModifier(ModifierKind::Ds, Load, M->target())),
            "{ na = 1, offset = 64, gds = false }");
  ASSERT_FALSE(bool(setDerivedField(*M, Load, ModifierKind::Ds, "offset",
                                    AttrValue::integer(0))));
  EXPECT_EQ(formatOperands(Load), "v[0:1], v2");
  // A field the instruction has no spelling for is an error naming it.
  llvm::Error E = setDerivedField(*M, Load, ModifierKind::Ds, "na", AttrValue::integer(2));
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "cannot set mod.ds.na of ds_load_b64: the field is not editable");
}

TEST(DerivedModifiersTest, SettingMatrixReuseAndWaitAlu) {
  std::unique_ptr<Module> M = test::readAsmText(
      "k:\n  v_wmma_f32_16x16x32_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n", "gfx1250");
  ASSERT_TRUE(M);
  Instruction &Wmma = first(*M);
  ASSERT_FALSE(bool(setDerivedField(*M, Wmma, ModifierKind::Mfma, "reuseA",
                                    AttrValue::boolean(true))));
  EXPECT_EQ(fields(deriveModifier(ModifierKind::Mfma, Wmma, M->target())),
            "{ reuseA = true, reuseB = false }");
  EXPECT_EQ(reread(*M), "v[0:7], v[8:15], v[16:23], v[0:7] matrix_a_reuse");

  std::unique_ptr<Module> W = test::readAsmText("k:\n  s_wait_alu depctr_va_vdst(0)\n", "gfx1200");
  ASSERT_TRUE(W);
  Instruction &Alu = first(*W);
  ASSERT_FALSE(bool(setDerivedField(*W, Alu, ModifierKind::WaitAlu, "sa_sdst",
                                    AttrValue::integer(0))));
  EXPECT_EQ(fields(deriveModifier(ModifierKind::WaitAlu, Alu, W->target())),
            "{ va_vdst = 0, sa_sdst = 0 }");
}

TEST(DerivedModifiersTest, GenericWaitResolvesToTheWaitsOwnModifier) {
  auto Resolved = [](llvm::StringRef Mnemonic, llvm::StringRef Field) -> std::string {
    AttrDict Stated;
    Stated.add(Field.str(), AttrValue::integer(1));
    auto Own = resolveGenericWait(Mnemonic, Stated);
    if (!Own)
      return llvm::toString(Own.takeError());
    return ("mod." + Modifier::keyOf(Own->first) + " " + fields(Own->second)).str();
  };
  EXPECT_EQ(Resolved("s_wait_loadcnt", "vlcnt"), "mod.swaitcnt { vlcnt = 1 }");
  EXPECT_EQ(Resolved("s_wait_storecnt", "vscnt"), "mod.swaitstorecnt { storecnt = 1 }");
  EXPECT_EQ(Resolved("s_wait_storecnt_dscnt", "vscnt"), "mod.swaitcnt { vscnt = 1 }");
  EXPECT_EQ(Resolved("s_wait_tensorcnt", "tlcnt"), "mod.swaittensorcnt { tlcnt = 1 }");
  EXPECT_EQ(Resolved("s_waitcnt", "lgkmcnt"), "mod.swaitcnt { lgkmcnt = 1 }");
  EXPECT_EQ(Resolved("s_wait_loadcnt", "vscnt"),
            "mod.waitcnt of s_wait_loadcnt: 'vscnt' names a counter the instruction does not "
            "wait on (it waits on 'vlcnt')");
  EXPECT_EQ(Resolved("v_nop", "vlcnt"), "mod.waitcnt of v_nop: the instruction waits on no counter");
}

} // namespace
