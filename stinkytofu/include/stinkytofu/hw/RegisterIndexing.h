//===- RegisterIndexing.h - Registers named at a run-time index --*- C++ -*-===//
//
// Instructions whose register is not the one their operand names: the
// index comes from M0 or the GPR index mode at run time (s_movrels_b32,
// v_movreld_b32, s_set_gpr_idx_on and what follows it). Declared in
// HardwareModel.td (role RelativeIndex); a pass that renames registers
// cannot prove anything about a function holding one.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_REGISTERINDEXING_H
#define STINKYTOFU_HW_REGISTERINDEXING_H

#include "llvm/ADT/StringRef.h"

namespace stinkytofu {

/// Whether \p Mnemonic (lower case) names a register at a run-time index.
bool indexesRegistersAtRunTime(llvm::StringRef Mnemonic);

} // namespace stinkytofu

#endif
