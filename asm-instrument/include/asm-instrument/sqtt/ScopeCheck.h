//===- ScopeCheck.h - Only the selected waves emit markers -------*- C++ -*-===//
//
// When a SQTT_SCOPE_* mask is not full (the default CU mask 0x3 is not),
// every group of markers at one point is guarded (sqtt-reference.md
// section 3): the wave reads its HW_ID field, tests bit `id` of the mask,
// and skips the markers when it is clear:
//
//   s_getreg_b32   sT, hwreg(HW_REG_HW_ID, 8, 4)   ; per checked dimension
//   s_lshr_b32     sT, MASK, sT                    ; MASK >> id
//   s_bitcmp1_b32  sT, 0                           ; SCC = in scope
//   s_cbranch_scc0 .Lsqtt_skip_N
//   <markers>
// .Lsqtt_skip_N:
//
// When an SGPR is free in the whole function the predicate is computed
// once at its entry into that SGPR (bit 0, the AND of the dimensions) and
// each site only tests it (`s_bitcmp1_b32 sP, 0` / `s_cbranch_scc0`).
// The fields come from the hardware model: gfx9 HW_ID CU_ID/TG_ID, gfx10+
// HW_ID1 WGP_ID and HW_ID2 WG_ID (gfx1250: WAVE_HW_ID1/WAVE_HW_ID2).
// SCC is clobbered; the emitter saves and restores it where it is live.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_SCOPECHECK_H
#define ASM_INSTRUMENT_SQTT_SCOPECHECK_H

#include "asm-instrument/sqtt/SQTTConfig.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace stinkytofu::sqtt {

struct ScopeDimCheck {
  ScopeDim Dim;
  HwIdField Field;
  uint32_t Mask;
};

/// The dimensions \p Masks checks on \p HW, in the order wave, SIMD, CU, WG.
/// An error when a checked dimension has no HW_ID field on the target.
llvm::Expected<std::vector<ScopeDimCheck>> scopeChecks(const ScopeMasks &Masks,
                                                       const HardwareModel &HW);

/// Instructions leaving the in-scope bit of one dimension in bit 0 of \p Reg.
std::vector<InstSpec> dimensionBit(const ScopeDimCheck &C, const BuildOperand &Reg);

/// Instructions computing the predicate of all \p Checks into bit 0 of
/// \p Reg; \p Temp (needed with more than one dimension) is clobbered too.
std::vector<InstSpec> predicateStatements(llvm::ArrayRef<ScopeDimCheck> Checks,
                                          const BuildOperand &Reg, const BuildOperand &Temp);

} // namespace stinkytofu::sqtt

#endif
