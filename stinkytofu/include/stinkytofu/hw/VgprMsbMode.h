//===- VgprMsbMode.h - How s_set_vgpr_msb immediates are written -*- C++ -*-===//
//
// gfx1250 addresses VGPRs 256..1023 through s_set_vgpr_msb: the instruction
// sets two high bits for each of four operand slots (src0, src1, src2, dst),
// and every later VALU/memory instruction adds them to its 8-bit VGPR
// fields. The mode says how the immediate is written:
//
//   none   the target has no high VGPRs (or the driver turned the passes off)
//   msb8   the immediate is the 8-bit slot state
//   msb16  bits 15:8 also carry the state it replaces (what LLVM 22 writes)
//
// The default comes from the hardware model (HardwareModel.td, VgprMsb);
// `--vgpr-msb-mode=` and the passes' `mode=` argument override it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_VGPRMSBMODE_H
#define STINKYTOFU_HW_VGPRMSBMODE_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace stinkytofu {

enum class VgprMsbMode : uint8_t { None, Msb8, Msb16 };

/// "none", "msb8", "msb16" (any case); nullopt for anything else.
inline std::optional<VgprMsbMode> parseVgprMsbMode(llvm::StringRef Name) {
  if (Name.equals_insensitive("none"))
    return VgprMsbMode::None;
  if (Name.equals_insensitive("msb8"))
    return VgprMsbMode::Msb8;
  if (Name.equals_insensitive("msb16"))
    return VgprMsbMode::Msb16;
  return std::nullopt;
}

inline llvm::StringRef vgprMsbModeName(VgprMsbMode M) {
  switch (M) {
  case VgprMsbMode::None: return "none";
  case VgprMsbMode::Msb8: return "msb8";
  case VgprMsbMode::Msb16: return "msb16";
  }
  return "none";
}

} // namespace stinkytofu

#endif
