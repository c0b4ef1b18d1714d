//===- RenamingFacts.h - What MC does not say about register names -*- C++ -*-===//
//
// Two facts a pass that renames registers needs and MC's instruction
// descriptions lack, declared in HardwareModel.td as roles without an
// InstRole (only the renaming asks about them):
//   - RelativeIndex: the register is not the one the operand names; the
//     index comes from M0 or the GPR index mode at run time (s_movrels_b32,
//     v_movreld_b32, s_set_gpr_idx_on and what follows it). Nothing about
//     renaming around one can be proven.
//   - ConditionalWrite: the destination keeps its value when a condition
//     fails (s_cmov_b32 when SCC is 0), so the write continues the value
//     it writes over; MC lists the destination as a plain def.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_RENAMINGFACTS_H
#define STINKYTOFU_HW_RENAMINGFACTS_H

#include "llvm/ADT/StringRef.h"

namespace stinkytofu {

/// Whether \p Mnemonic (lower case) names a register at a run-time index.
bool indexesRegistersAtRunTime(llvm::StringRef Mnemonic);
/// Whether \p Mnemonic writes its destination only when a condition holds.
bool writesConditionally(llvm::StringRef Mnemonic);

} // namespace stinkytofu

#endif
