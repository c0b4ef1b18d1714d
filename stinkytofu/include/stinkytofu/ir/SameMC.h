//===- SameMC.h - Equal MC instructions -------------------------*- C++ -*-===//
//
// Whether two statements assembled to the same MC instructions: the same
// opcodes, flags and operands, an expression operand by identity (two
// expressions alike in text but apart in memory count as different, which
// only costs a memo a hit), or, for a caller that never reads what an
// expression says, as being one. What is computed from an instruction's MC
// instructions alone, so read, is then the same for both.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_SAMEMC_H
#define STINKYTOFU_IR_SAMEMC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/MC/MCInst.h"
#include <cstdint>

namespace stinkytofu {

/// A hash of \p MC that sameMC's equal instructions share (with the same
/// \p ExpressionsAlike).
uint64_t hashMC(llvm::ArrayRef<llvm::MCInst> MC, bool ExpressionsAlike = false);
/// With \p ExpressionsAlike, any expression operand equals any other.
bool sameMC(llvm::ArrayRef<llvm::MCInst> A, llvm::ArrayRef<llvm::MCInst> B,
            bool ExpressionsAlike = false);

} // namespace stinkytofu

#endif
