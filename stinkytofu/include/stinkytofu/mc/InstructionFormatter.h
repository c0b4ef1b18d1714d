//===- InstructionFormatter.h - Printing in the file's own style -*- C++ -*-===//
#ifndef STINKYTOFU_MC_INSTRUCTIONFORMATTER_H
#define STINKYTOFU_MC_INSTRUCTIONFORMATTER_H

#include "stinkytofu/ir/Instruction.h"
#include <string>

namespace stinkytofu {

/// How statements are laid out in a file: indentation, the column operands
/// start at, the separator before comments.
struct AsmStyle {
  std::string Indent = "\t";
  /// Operands start at this column after the indent (0: one space after the
  /// mnemonic).
  unsigned OperandColumn = 0;
  /// Trailing comments start at this column after the indent (0: one space
  /// after the operands).
  unsigned CommentColumn = 0;

  /// The style of a source-backed statement.
  static AsmStyle of(const Instruction &I);
  /// The style of the nearest source-backed instruction around \p I.
  static AsmStyle around(const Instruction &I);
};

/// One statement line, no newline: indent, mnemonic, operands, comment.
std::string formatInstruction(const Instruction &I, const AsmStyle &Style);

/// The text of one instruction as it is written: its source text when
/// untouched, else formatted in the style around it (newline included).
std::string instructionText(const Instruction &I);

/// Operands as assembly: comma-separated, modifiers space-separated.
std::string formatOperands(const Instruction &I);

} // namespace stinkytofu

#endif
