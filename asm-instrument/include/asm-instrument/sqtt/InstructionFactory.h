//===- InstructionFactory.h - New instructions, assembled once ---*- C++ -*-===//
//
// Instrumentation inserts the same few statements many times
// (`s_ttracedata_imm 0x6`, `s_nop 0`, ...). createInstruction() runs LLVM MC
// over each; this factory assembles every distinct text once per module and
// builds further copies from the cached MC instructions and operands. A
// branch to a fresh label (`s_cbranch_scc0 .Lsqtt_skip_7`) is assembled
// once per mnemonic: each copy gets its label in the operand and in the MC
// expression, so a thousand guards do not mean a thousand MC parses.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_INSTRUCTIONFACTORY_H
#define ASM_INSTRUMENT_SQTT_INSTRUCTIONFACTORY_H

#include "asm-instrument/sqtt/InstructionSizes.h"
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace stinkytofu::sqtt {

class InstructionFactory {
public:
  explicit InstructionFactory(Module &M) : M(M), Sizes(M) {}

  /// A new instruction for one line of assembly; an error when MC rejects it.
  llvm::Expected<Instruction> make(llvm::StringRef Text);
  /// `<Mnemonic> <Label>`: a PC-relative branch to \p Label.
  llvm::Expected<Instruction> makeBranch(llvm::StringRef Mnemonic, llvm::StringRef Label);
  /// The encoded bytes of make(\p Text); with \p Branch, of a
  /// makeBranch(\p Text, <label>).
  llvm::Expected<unsigned> encodedSize(llvm::StringRef Text, bool Branch = false);

  InstructionSizes &sizes() { return Sizes; }

private:
  struct Prototype {
    InstKind Kind;
    std::string Mnemonic;
    std::vector<Operand> Operands;
    llvm::SmallVector<llvm::MCInst, 1> Insts;
    InstrFacts Facts;
    unsigned Size;
  };
  llvm::Expected<const Prototype *> prototype(llvm::StringRef Text);
  llvm::Expected<const Prototype *> branchPrototype(llvm::StringRef Mnemonic);

  Module &M;
  InstructionSizes Sizes;
  llvm::StringMap<Prototype> Cache;
};

} // namespace stinkytofu::sqtt

#endif
