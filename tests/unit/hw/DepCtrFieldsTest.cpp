//===- DepCtrFieldsTest.cpp - The depctr layout of HardwareModel.td vs MC -===//
//
// The fields HardwareModel.td declares for `s_waitcnt_depctr` / `s_wait_alu`
// against what MC assembles on every target: a wait on one field at 0 is
// the all-fields-at-maximum default without that field's bits; targets
// without the wait declare no fields.
//
//===----------------------------------------------------------------------===//
#include "TestModules.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

/// The immediate MC gives `<Mnemonic> <Operand>` on \p Arch, or none when
/// the target does not have it.
std::optional<uint32_t> assembled(llvm::StringRef Arch, llvm::StringRef Mnemonic,
                                  llvm::StringRef Operand) {
  std::unique_ptr<Module> M =
      test::readAsmText(("k:\n  " + Mnemonic + " " + Operand + "\n").str(), Arch);
  if (!M)
    return std::nullopt;
  const Instruction &I = *M->functions().front().blocks().begin()->instructions().begin();
  if (I.mcInsts().size() != 1 || !I.mcInsts()[0].getOperand(0).isImm())
    return std::nullopt;
  return uint32_t(I.mcInsts()[0].getOperand(0).getImm());
}

TEST(DepCtrFieldsTest, LayoutMatchesMC) {
  unsigned Checked = 0;
  for (llvm::StringRef Arch : TargetInfo::supportedProcessors()) {
    const HardwareModel &HW = *HardwareModel::lookup(Arch);
    if (HW.generation() == "gfx9") {
      EXPECT_TRUE(HW.depCtrFields().empty()) << Arch.str();
      continue;
    }
    llvm::StringRef Mnemonic = HW.generation() == "gfx12" ? "s_wait_alu" : "s_waitcnt_depctr";
    uint32_t Default = 0;
    for (const DepCtrField &F : HW.depCtrFields())
      Default |= F.mask();
    ASSERT_FALSE(HW.depCtrFields().empty()) << Arch.str();
    for (const DepCtrField &F : HW.depCtrFields()) {
      std::optional<uint32_t> Imm =
          assembled(Arch, Mnemonic, ("depctr_" + F.Name + "(0)").str());
      ASSERT_TRUE(Imm) << Arch.str() << " " << F.Name.str();
      EXPECT_EQ(*Imm, Default & ~F.mask()) << Arch.str() << " " << F.Name.str();
      ++Checked;
    }
    EXPECT_EQ(HW.depCtrFields().size(), HardwareModel::allDepCtrFields().size()) << Arch.str();
  }
  EXPECT_GT(Checked, 0u);
}

} // namespace
