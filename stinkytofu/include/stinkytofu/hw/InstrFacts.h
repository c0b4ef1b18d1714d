//===- InstrFacts.h - What LLVM MC says about one instruction ----*- C++ -*-===//
#ifndef STINKYTOFU_HW_INSTRFACTS_H
#define STINKYTOFU_HW_INSTRFACTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"
#include <cstdint>

namespace stinkytofu {

class TargetInfo;

/// Flags from MCInstrDesc. IndirectBranch is derived: an MC branch whose
/// target comes from a register operand rather than a PC-relative label.
enum InstrFlag : uint32_t {
  IF_Branch = 1u << 0,
  IF_ConditionalBranch = 1u << 1,
  IF_IndirectBranch = 1u << 2,
  IF_Call = 1u << 3,
  IF_Return = 1u << 4,
  IF_Terminator = 1u << 5,
  IF_Barrier = 1u << 6,
  IF_MayLoad = 1u << 7,
  IF_MayStore = 1u << 8,
  IF_SideEffects = 1u << 9,
  /// Not understood by MC (kept with --allow-unknown-instructions): reads and
  /// writes everything.
  IF_Opaque = 1u << 10,
  /// A branch whose target is not a PC-relative label operand: a register
  /// (s_setpc_b64) or an expression added to the PC (s_add_pc_i64): the
  /// long-branch forms.
  IF_ComputedTarget = 1u << 11,
  /// An operand is an expression (a label, `label-.Lpc`): what a pass
  /// looking for address-taken labels must read the MC operands of.
  IF_ExprOperand = 1u << 12,
};

struct InstrFacts {
  /// MC opcode of the instruction (the first one of a macro expansion).
  unsigned Opcode = 0;
  uint32_t Flags = 0;
  /// Registers written and read, explicit and implicit, as MC registers
  /// (tuples kept whole; expand with MCRegisterInfo::regunits()).
  llvm::SmallVector<llvm::MCRegister, 4> Defs;
  llvm::SmallVector<llvm::MCRegister, 6> Uses;

  bool has(InstrFlag F) const { return (Flags & F) != 0; }

  /// Facts of one MCInst.
  static InstrFacts compute(const TargetInfo &TI, const llvm::MCInst &Inst);
  /// Facts of a straight-line sequence (a macro expansion): upward-exposed
  /// uses, all defs, the union of flags.
  static InstrFacts compose(const TargetInfo &TI, llvm::ArrayRef<llvm::MCInst> Insts);
  static InstrFacts opaque();
};

/// The register operand \p Op of \p Inst reads: its own register, or for a
/// tied source that the assembler leaves as an immediate placeholder
/// (`s_bitset1_b32 s0, 10` holds Imm 0 for sdst_in, which is s0) the
/// register of the def it is tied to. Invalid when it reads no register.
llvm::MCRegister sourceRegister(const TargetInfo &TI, const llvm::MCInst &Inst, unsigned Op);

} // namespace stinkytofu

#endif
