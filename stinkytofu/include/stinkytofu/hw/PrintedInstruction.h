//===- PrintedInstruction.h - MC's printed text cut into operands -*- C++ -*-===//
//
// An instruction as MC's printer writes it (TargetInfo::printMC): the
// operands, split at the commas outside brackets, and the modifiers after
// the last operand (`offset:16`, `glc`, ...). For the few facts that only the
// printed form states plainly, such as a memory instruction's base register
// tuple and offset field.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_PRINTEDINSTRUCTION_H
#define STINKYTOFU_HW_PRINTEDINSTRUCTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace stinkytofu {

struct PrintedInstruction {
  std::string Printed; ///< what the operands and modifiers point into
  llvm::SmallVector<llvm::StringRef, 6> Operands;
  llvm::SmallVector<llvm::StringRef, 6> Modifiers;

  explicit PrintedInstruction(std::string Instruction);
  PrintedInstruction(const PrintedInstruction &) = delete;
  PrintedInstruction &operator=(const PrintedInstruction &) = delete;

  bool has(llvm::StringRef Modifier) const;
  /// The value of `Name:N`, if present.
  std::optional<int64_t> field(llvm::StringRef Name) const;
};

} // namespace stinkytofu

#endif
