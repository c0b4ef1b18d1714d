//===- OperandMapping.h - Which MC operand an operand stands for -*- C++ -*-===//
//
// An instruction's operands are its spelling; its MC instruction is what it
// means. This ties the two: for each written operand, the MC operand that
// holds its value. MC lists the written operands in the order they are
// written, with operands that are not written in between (source-modifier
// fields, tied or implicit operands, defaults such as `clamp`), and a few in
// another order (a global load's `saddr` before its `vaddr`). So the
// written operands are matched in order, each MC operand once:
//   - a register (`v[4:7]`, `-|v1|`, `v2.l`, `s[vgprX:vgprX+1]` once its
//     symbols are known) and a special register (`vcc`, `exec_lo`) by the
//     register itself;
//   - an integer by its value (these two also before the operand matched
//     last, when MC put them earlier), and anything else (a label, an expression, a
//     float, `hwreg(...)`, waitcnt fields) by position, each among the MC
//     operands that can be written: registers, register-class sources that
//     hold a constant, plain immediates and branch targets, never a field
//     MC fills in by itself (source modifiers).
// Written modifiers (`offset:16`, `glc`) and operands that MC keeps implicit
// (`vcc` of a VOP2 `v_cndmask_b32`, `off`) map to nothing.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_OPERANDMAPPING_H
#define STINKYTOFU_IR_OPERANDMAPPING_H

#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace stinkytofu {

class TargetInfo;

/// For each operand of \p I, the index of its MC operand in \p I's MC
/// instruction; none for an operand that maps to nothing, and for every
/// operand of an instruction that is not exactly one MC instruction (macro
/// calls, pseudo-instructions, stale MC).
llvm::SmallVector<std::optional<unsigned>, 8> mapOperandsToMC(const Instruction &I,
                                                              const TargetInfo &TI);

/// The register a register operand names, as the MC instruction has it: the
/// register file, first register and count of the MC register (a 16-bit
/// half counts as its 32-bit register). None when \p Reg is not in a file.
struct RegisterRange {
  RegFile File = RegFile::None;
  unsigned First = 0, Count = 0;
  bool operator==(const RegisterRange &) const = default;
};
std::optional<RegisterRange> registerRangeOf(llvm::MCRegister Reg, const TargetInfo &TI);

} // namespace stinkytofu

#endif
