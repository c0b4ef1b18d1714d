//===- InstructionFactory.h - New instructions, assembled once ---*- C++ -*-===//
//
// Instrumentation inserts the same few statements many times
// (`s_ttracedata_imm 0x6`, `s_nop 0`, ...). createInstruction() runs LLVM MC
// over each; this factory assembles every distinct text once per module and
// builds further copies from the cached MC instructions and operands.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_INSTRUCTIONFACTORY_H
#define ASM_INSTRUMENT_SQTT_INSTRUCTIONFACTORY_H

#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace stinkytofu::sqtt {

class InstructionFactory {
public:
  explicit InstructionFactory(Module &M) : M(M) {}

  /// A new instruction for one line of assembly; an error when MC rejects it.
  llvm::Expected<Instruction> make(llvm::StringRef Text);

private:
  struct Prototype {
    InstKind Kind;
    std::string Mnemonic;
    std::vector<Operand> Operands;
    llvm::SmallVector<llvm::MCInst, 1> Insts;
    InstrFacts Facts;
  };
  Module &M;
  llvm::StringMap<Prototype> Cache;
};

} // namespace stinkytofu::sqtt

#endif
