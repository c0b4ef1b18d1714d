//===- ModuleAssembler.h - The assembler a module was read with --*- C++ -*-===//
//
// What a module keeps from being read: the source buffers its text refers
// to, the MC context its expressions and symbols live in, and the means to
// assemble one more statement in that context (its `.set` symbols and labels
// known). The IR sees only this interface; the reader's AssemblerState
// (mc/AssemblerState.h) implements it, so the IR does not depend on the
// layer that runs LLVM's assembler.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_MODULEASSEMBLER_H
#define STINKYTOFU_IR_MODULEASSEMBLER_H

#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace llvm {
class MCContext;
class SourceMgr;
} // namespace llvm

namespace stinkytofu {

class ModuleAssembler : public OperandSource {
public:
  ~ModuleAssembler() override;

  virtual llvm::MCContext &context() = 0;
  virtual const llvm::SourceMgr &sourceMgr() const = 0;
  /// Assembles one statement in the context of the file already read.
  virtual llvm::Expected<llvm::SmallVector<llvm::MCInst, 1>>
  assembleStatement(llvm::StringRef Text) = 0;
  /// The absolute value of symbol \p Name as finally assigned, if any.
  virtual std::optional<int64_t> symbolValue(llvm::StringRef Name) const = 0;
  /// Whether \p Text is a part of the file read: the operands of a statement
  /// there were parsed here, with the symbols' values at its place.
  virtual bool isFileText(llvm::StringRef Text) const = 0;
  /// The value of symbol \p Name for the operands in \p Text, as
  /// parseOperands takes it: its value at that place of the file read, its
  /// final value for text elsewhere.
  virtual std::optional<int64_t> symbolValueFor(llvm::StringRef Name,
                                                llvm::StringRef Text) const = 0;
  /// The symbols the file assigns more than once, in the order first
  /// assigned: the only ones symbolValueFor can give two places different
  /// values of (every other symbol has its final value everywhere).
  virtual llvm::ArrayRef<llvm::StringRef> reassignedSymbols() const = 0;
};

} // namespace stinkytofu

#endif
