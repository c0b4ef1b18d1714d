//===- OperandParser.h - Splitting a statement into typed parts --*- C++ -*-===//
//
// The syntactic side of the `.s` reader: it cuts a statement's operand text
// into typed operands (spelling kept; the statement itself is cut by
// ir/StatementText.h). What the operands mean is LLVM MC's business; this
// only keeps how they were written.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_OPERANDPARSER_H
#define STINKYTOFU_MC_OPERANDPARSER_H

#include "stinkytofu/ir/Operand.h"
#include "stinkytofu/ir/StatementText.h"
#include "stinkytofu/mc/AbsoluteExpression.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace stinkytofu {

class TargetInfo;

/// Parses the operand text of a statement: comma-separated operands, each
/// possibly followed by space-separated modifiers (`offen offset:16 glc`).
std::vector<Operand> parseOperands(llvm::StringRef Body, const TargetInfo &TI,
                                   SymbolLookup Lookup);

/// Classifies one operand spelling.
Operand classifyOperand(llvm::StringRef Spelling, const TargetInfo &TI,
                        SymbolLookup Lookup);

} // namespace stinkytofu

#endif
