//===- ScopeCheck.cpp - Only the selected waves emit markers --------------===//
#include "asm-instrument/sqtt/ScopeCheck.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

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

std::string hwregOperand(const HwIdField &F) {
  return ("hwreg(" + F.HwRegName + ", " + Twine(F.Offset) + ", " + Twine(F.Width) + ")").str();
}

static std::string hex(uint32_t V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format_hex(V, 2);
  return S;
}

std::vector<std::string> dimensionBit(const ScopeDimCheck &C, StringRef Reg) {
  return {("s_getreg_b32 " + Reg + ", " + hwregOperand(C.Field)).str(),
          ("s_lshr_b32 " + Reg + ", " + hex(C.Mask) + ", " + Reg).str()};
}

std::vector<std::string> predicateStatements(ArrayRef<ScopeDimCheck> Checks, StringRef Reg,
                                             StringRef Temp) {
  std::vector<std::string> Out;
  for (size_t K = 0; K < Checks.size(); ++K) {
    StringRef Into = K == 0 ? Reg : Temp;
    for (std::string &S : dimensionBit(Checks[K], Into))
      Out.push_back(std::move(S));
    if (K != 0)
      Out.push_back(("s_and_b32 " + Reg + ", " + Reg + ", " + Temp).str());
  }
  return Out;
}

} // namespace stinkytofu::sqtt
