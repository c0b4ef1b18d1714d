//===- OperandParser.h - Splitting a statement into typed parts --*- C++ -*-===//
//
// The syntactic side of the `.s` reader: it cuts a statement into indent,
// mnemonic, operands (typed, spelling kept) and trailing comment. What the
// operands mean is LLVM MC's business; this only keeps how they were written.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PARSE_OPERANDPARSER_H
#define STINKYTOFU_PARSE_OPERANDPARSER_H

#include "stinkytofu/ir/Operand.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace stinkytofu {

class TargetInfo;

/// Looks up the value of a `.set` symbol (for symbolic register indices).
using SymbolLookup = llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>;

struct Statement {
  llvm::StringRef Indent;   ///< leading white space
  llvm::StringRef Mnemonic; ///< as written
  llvm::StringRef Body;     ///< everything between mnemonic and comment, trimmed
  llvm::StringRef Comment;  ///< trailing comment with its marker, or empty
  /// White space between the mnemonic and the first operand.
  llvm::StringRef MnemonicGap;
  /// White space between the last operand and the comment.
  llvm::StringRef CommentGap;
};

/// Offset of the first comment marker (`//`, `;`, `/*`) outside strings, or
/// npos.
size_t findComment(llvm::StringRef Line);

/// Splits at top-level occurrences of \p Sep (outside (), [] and strings).
llvm::SmallVector<llvm::StringRef, 8> splitTopLevel(llvm::StringRef Text, char Sep);

/// Splits one statement (no newline) into its parts.
Statement splitStatement(llvm::StringRef Line);

/// Parses the operand text of a statement: comma-separated operands, each
/// possibly followed by space-separated modifiers (`offen offset:16 glc`).
std::vector<Operand> parseOperands(llvm::StringRef Body, const TargetInfo &TI,
                                   SymbolLookup Lookup);

/// Classifies one operand spelling.
Operand classifyOperand(llvm::StringRef Spelling, const TargetInfo &TI,
                        SymbolLookup Lookup);

/// Evaluates an integer expression over numbers and symbols
/// (`vgprValuC+24`, `(2*4)-1`).
std::optional<int64_t> evaluateExpression(llvm::StringRef Expr, SymbolLookup Lookup);

} // namespace stinkytofu

#endif
