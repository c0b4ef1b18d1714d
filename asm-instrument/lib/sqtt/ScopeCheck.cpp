//===- ScopeCheck.cpp - Only the selected waves emit markers --------------===//
#include "asm-instrument/sqtt/ScopeCheck.h"

using namespace llvm;

namespace stinkytofu::sqtt {

Expected<std::vector<ScopeDimCheck>> scopeChecks(const ScopeMasks &Masks,
                                                 const HardwareModel &HW) {
  std::vector<ScopeDimCheck> Checks;
  struct Dim {
    ScopeDim D;
    bool Checked;
    uint32_t Mask;
    const char *Var;
  } Dims[] = {{ScopeDim::Wave, Masks.checksWave(), Masks.Wave, "SQTT_SCOPE_WAVE"},
              {ScopeDim::Simd, Masks.checksSimd(), Masks.Simd, "SQTT_SCOPE_SIMD"},
              {ScopeDim::Cu, Masks.checksCu(), Masks.Cu, "SQTT_SCOPE_CU"},
              {ScopeDim::Wg, Masks.checksWg(), Masks.Wg, "SQTT_SCOPE_WG"}};
  for (const Dim &D : Dims) {
    if (!D.Checked)
      continue;
    const HwIdField &F = HW.scopeField(D.D);
    if (F.HwRegName.empty())
      return createStringError(inconvertibleErrorCode(),
                               Twine(D.Var) + ": " + HW.processor() +
                                   " has no HW_ID field for this scope dimension");
    Checks.push_back({D.D, F, D.Mask});
  }
  return Checks;
}

std::vector<InstSpec> dimensionBit(const ScopeDimCheck &C, const BuildOperand &Reg) {
  const HwIdField &F = C.Field;
  return {{"s_getreg_b32", {Reg, BuildOperand::hwreg(F.HwRegName, F.Offset, F.Width)}},
          {"s_lshr_b32", {Reg, BuildOperand::hexImm(C.Mask, /*LowerCase=*/true), Reg}}};
}

std::vector<InstSpec> predicateStatements(ArrayRef<ScopeDimCheck> Checks,
                                          const BuildOperand &Reg, const BuildOperand &Temp) {
  std::vector<InstSpec> Out;
  for (size_t K = 0; K < Checks.size(); ++K) {
    const BuildOperand &Into = K == 0 ? Reg : Temp;
    for (InstSpec &S : dimensionBit(Checks[K], Into))
      Out.push_back(std::move(S));
    if (K != 0)
      Out.push_back({"s_and_b32", {Reg, Reg, Temp}});
  }
  return Out;
}

} // namespace stinkytofu::sqtt
