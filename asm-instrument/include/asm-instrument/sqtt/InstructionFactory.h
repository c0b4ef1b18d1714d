//===- InstructionFactory.h - Marker code as instructions --------*- C++ -*-===//
//
// The marker emitter describes its code as typed specs (InstBuilder.h:
// `s_ttracedata_imm 0x6` is the mnemonic and one immediate) and guard
// branches to fresh labels; this makes them instructions with the core's
// InstBuilder (each distinct shape is assembled once, each distinct
// instruction built once and copied after) and knows their encoded sizes
// for the branch-range layout.
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

  /// The instruction \p Spec; an error when MC rejects it.
  llvm::Expected<Instruction> build(const InstSpec &Spec) { return Builder.build(Spec); }
  /// `<Mnemonic> <Label>`: a PC-relative branch to \p Label.
  llvm::Expected<Instruction> buildBranch(llvm::StringRef Mnemonic, llvm::StringRef Label);
  /// The encoded bytes of build(\p Spec).
  llvm::Expected<unsigned> encodedSize(const InstSpec &Spec);
  /// The encoded bytes of a buildBranch(\p Mnemonic, <label>).
  llvm::Expected<unsigned> branchSize(llvm::StringRef Mnemonic);

  InstructionSizes &sizes() { return Sizes; }
  /// The builder, for other code the pass creates (long branches).
  InstBuilder &builder() { return Builder; }

private:
  llvm::Expected<unsigned> sizeOf(llvm::StringMap<unsigned> &Cache, llvm::StringRef Key,
                                  llvm::function_ref<llvm::Expected<Instruction>()> Build);

  InstBuilder Builder;
  InstructionSizes Sizes;
  /// By appendSpecKey, and by branch mnemonic.
  llvm::StringMap<unsigned> SizeOf, BranchSizeOf;
};

} // namespace stinkytofu::sqtt

#endif
