//===- InstructionFactory.h - Marker code as instructions --------*- C++ -*-===//
//
// The marker emitter writes its code as statements (`s_ttracedata_imm 0x6`,
// `s_nop 0`, ...) and guard branches to fresh labels; this turns them into
// instructions with the core's InstBuilder (each distinct statement is
// assembled once; a branch is one shape, patched with each label) and knows
// their encoded sizes for the branch-range layout.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_INSTRUCTIONFACTORY_H
#define ASM_INSTRUMENT_SQTT_INSTRUCTIONFACTORY_H

#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace stinkytofu::sqtt {

class InstructionFactory {
public:
  explicit InstructionFactory(Module &M) : Builder(M), Sizes(M) {}

  /// A new instruction for one line of assembly; an error when MC rejects it.
  llvm::Expected<Instruction> make(llvm::StringRef Text);
  /// `<Mnemonic> <Label>`: a PC-relative branch to \p Label.
  llvm::Expected<Instruction> makeBranch(llvm::StringRef Mnemonic, llvm::StringRef Label);
  /// The encoded bytes of make(\p Text); with \p Branch, of a
  /// makeBranch(\p Text, <label>).
  llvm::Expected<unsigned> encodedSize(llvm::StringRef Text, bool Branch = false);

  InstructionSizes &sizes() { return Sizes; }
  /// The builder, for other code the pass creates (long branches).
  InstBuilder &builder() { return Builder; }

private:
  InstBuilder Builder;
  InstructionSizes Sizes;
  llvm::StringMap<unsigned> SizeOf, BranchSizeOf;
};

} // namespace stinkytofu::sqtt

#endif
