//===- AbsoluteExpression.h - Evaluating an expression as MC does -*- C++ -*-===//
//
// The reader evaluates a few expressions itself, before or beside MC: repeat
// counts and `.set` values while checking the reading limits
// (mc/InputLimits.h), register indices written with symbols
// (`v[vgprValuC+4]`, mc/OperandParser.h). They are read with MC's own lexer
// (llvm::AsmLexer), except a sum of plain names and decimals, which needs
// none, and evaluated with the GNU as precedences and the 64-bit arithmetic
// of MC's assembler parser, so a value given here is the one MC gives; what is not sure to be (a symbol not known, a token the evaluator
// does not take) gives no value. `stinkytofu-expression-fuzzer`
// (tests/fuzz/ExpressionFuzzer.cpp) checks that against MC.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_ABSOLUTEEXPRESSION_H
#define STINKYTOFU_MC_ABSOLUTEEXPRESSION_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace llvm {
class MCAsmInfo;
} // namespace llvm

namespace stinkytofu {

/// The value of a symbol (a `.set` assignment), or nullopt when unknown.
using SymbolLookup = llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>;

struct ExpressionValue {
  /// The value, when the whole text is one expression MC gives it to.
  std::optional<int64_t> Value;
  /// The text divides the most negative 64-bit value by -1 (`/` or `%`),
  /// which MC's evaluator executes as a machine division: the assembler
  /// dies of SIGFPE. Set wherever in the text that division is, even when
  /// the text is not one expression.
  bool DividesOverflow = false;
};

/// Evaluates \p Text, all of it one expression, lexed with \p MAI's rules.
ExpressionValue evaluateAbsolute(llvm::StringRef Text, const llvm::MCAsmInfo &MAI,
                                 SymbolLookup Lookup);

/// Whether some expression in the statement \p Text (comment removed)
/// divides the most negative 64-bit value by -1 with the values it can know:
/// every token that may start an expression is tried.
bool dividesOverflowAnywhere(llvm::StringRef Text, const llvm::MCAsmInfo &MAI,
                             SymbolLookup Lookup);

} // namespace stinkytofu

#endif
