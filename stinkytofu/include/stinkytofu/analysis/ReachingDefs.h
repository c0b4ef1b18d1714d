//===- ReachingDefs.h - Which instructions define a register here -*- C++ -*-===//
//
// Reaching definitions of one 32-bit register (or SCC, VCC, ...) at the point
// right before an instruction, found by walking backward over the function's
// CFG (build it first with buildCFG). Used to follow the register chains of
// long branches and call-address computations.
//
// The walk is conservative:
//   - an instruction writes a register when one of its MC defs overlaps it;
//     opaque instructions write everything; a call writes its own defs and
//     whatever the callee may clobber (everything, unless the caller says
//     otherwise through CallClobbers);
//   - control can arrive from outside the known CFG at the function's first
//     block and at "open entries" (labels whose address is computed for an
//     unknown use): reaching such a block start reports FromOutside;
//   - a block without predecessors that is not an open entry is unreachable
//     and contributes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_REACHINGDEFS_H
#define STINKYTOFU_ANALYSIS_REACHINGDEFS_H

#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCRegister.h"
#include <functional>

namespace stinkytofu {

class TargetInfo;

class ReachingDefs {
public:
  /// Whether call \p Call may change \p Reg (beyond its own MC defs).
  using ClobberFn = std::function<bool(const Instruction &Call, llvm::MCRegister Reg)>;

  ReachingDefs(const TargetInfo &TI, llvm::SmallPtrSet<const BasicBlock *, 8> OpenEntries,
               ClobberFn CallClobbers = nullptr);

  struct Result {
    /// The defining instructions, each once, in the order found.
    llvm::SmallVector<const Instruction *, 4> Defs;
    /// Some path starts outside the known CFG (the value is unknown there);
    /// the walk stops there, so Defs may then be incomplete.
    bool FromOutside = false;
  };

  /// The definitions of \p Reg that reach the point right before \p At.
  Result before(const Instruction &At, llvm::MCRegister Reg) const;
  /// The single definition of \p Reg reaching \p At, or null when there are
  /// none, several, or a path from outside.
  const Instruction *uniqueBefore(const Instruction &At, llvm::MCRegister Reg) const;

  /// Whether executing \p I may change \p Reg.
  bool writes(const Instruction &I, llvm::MCRegister Reg) const;

private:
  const TargetInfo &TI;
  llvm::SmallPtrSet<const BasicBlock *, 8> OpenEntries;
  ClobberFn CallClobbers;
};

} // namespace stinkytofu

#endif
