//===- InputLimits.h - Bounds checked before LLVM MC sees a file -*- C++ -*-===//
//
// LLVM MC's assembler parser loops forever on some malformed text (a string or
// block comment left open at the end of the file), spends minutes on a
// 100,000-digit literal, overflows the stack on deeply nested expressions,
// builds a `.rept 0xffffffff` expansion in memory before reporting anything
// and allocates a DWARF file table as large as a `.file` number. The reader
// therefore scans the text first, lexically, and rejects what exceeds these
// bounds with an error at the offending position. Includes are bounded when
// MC opens them (AssemblerState).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_INPUTLIMITS_H
#define STINKYTOFU_MC_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class MCAsmInfo;
} // namespace llvm

namespace stinkytofu {

struct InputLimits {
  /// `.include` nesting, the main file at depth 0.
  unsigned MaxIncludeDepth = 32;
  /// Statements that `.rept`, `.irp` and `.irpc` blocks expand to, summed
  /// over the file (a statement in nested blocks counts once per repetition).
  uint64_t MaxExpandedStatements = 4'000'000;
  /// Open parentheses or brackets, and unary operators in a row, in one
  /// statement.
  unsigned MaxExpressionDepth = 256;
  /// Characters of one numeric literal.
  unsigned MaxLiteralLength = 512;
  /// The largest number `.file`, `.cv_file` and `.cv_func_id` may give.
  uint64_t MaxFileNumber = 65535;
};

/// A bound the text exceeds: where (byte offset) and why.
struct LimitViolation {
  size_t Offset = 0;
  std::string Message;
};

/// Scans assembly text for what would make LLVM MC hang, crash (a division
/// of -2^63 by -1 among them) or exhaust memory. Comments and strings are
/// honoured; `.amdgpu_metadata` bodies are YAML and only checked for an
/// end. Expressions are read with \p MAI's lexical rules, the target's.
std::optional<LimitViolation> checkInputLimits(llvm::StringRef Text,
                                               const InputLimits &Limits,
                                               const llvm::MCAsmInfo &MAI);

} // namespace stinkytofu

#endif
