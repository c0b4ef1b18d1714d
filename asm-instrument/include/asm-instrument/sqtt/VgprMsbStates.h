//===- VgprMsbStates.h - The s_set_vgpr_msb state at a site -------*- C++ -*-===//
//
// On gfx1250 the s_set_vgpr_msb state stays until the next s_set_vgpr_msb,
// but LLVM sets it to 0 before every branch, and llvm-objdump, following
// that convention, forgets it at every branch (taken or not, even one to
// the next instruction): after a scope check's branch it would show the
// program's high VGPRs as low ones. The emitter therefore sets the state
// again after the code it inserts when that code branches, and needs the
// state the program has at the site: the last s_set_vgpr_msb before it,
// through the predecessors when they agree; 0 at a function's entry and
// after a call (LLVM's ABI) and in a block nothing reaches.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_VGPRMSBSTATES_H
#define ASM_INSTRUMENT_SQTT_VGPRMSBSTATES_H

#include "stinkytofu/ir/Function.h"
#include "stinkytofu/ir/InsertPoint.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace stinkytofu::sqtt {

class VgprMsbStates {
public:
  /// The states of \p F as read (\p SetOpcode: s_set_vgpr_msb's MC opcode).
  VgprMsbStates(const Function &F, unsigned SetOpcode);
  /// The state at \p P; nullopt where paths bring different states (the
  /// program then sets one before it names a VGPR).
  std::optional<uint8_t> at(const InsertPoint &P) const;

private:
  /// What \p I sets: the state, 0 for a call, nullopt for neither.
  std::optional<uint8_t> setBy(const Instruction &I) const;
  /// Nothing known yet (a back edge not yet followed), or paths disagree.
  static constexpr int Unset = -1, Conflict = -2;
  unsigned SetOpcode;
  llvm::DenseMap<const BasicBlock *, int> In;
};

} // namespace stinkytofu::sqtt

#endif
