//===- LaneLiveness.h - Vector registers live in any lane --------*- C++ -*-===//
//
// Liveness (Liveness.h) is per register: a VALU write kills its VGPR,
// although under a partial EXEC it leaves the inactive lanes as they were,
// and those may be read again once EXEC widens (a value written in the
// `then` half of a branch, kept across the `else` half that writes the same
// register for its own lanes). Code that writes one lane whatever EXEC is
// (v_writelane_b32, which parks an SGPR in a lane) needs more: a register
// none of whose lanes the program may still read.
//
// Here a vector register (VGPR, AGPR) is lane-live at a point when some path
// from it may read one of its lanes before that lane is written. A backward
// dataflow keeps two sets of units:
//   Exec: read later in the lanes of the current EXEC only;
//   Any:  read later in lanes EXEC may not hold now.
// A write under EXEC (an instruction that reads EXEC, other than a lane
// write) kills the unit in Exec; nothing kills it in Any. A write of EXEC
// moves Exec into Any: the reads after it see other lanes. A read goes to
// Exec, or to Any when the instruction reads other lanes than its own or
// ignores EXEC (InstRole CrossLane, DPP, matrix instructions, anything that
// does not read EXEC, like v_writelane_b32's own destination). Everything
// is in Any at a return, a tail call or a jump out of the function (the
// calling convention has a callee preserve the inactive lanes of every
// VGPR, and the caller's lanes are unknown; a function whose every call
// site is known may be told what its callers read there) and before an opaque
// instruction. A call reads in Exec what its callee reads (its argument
// VGPRs when the callee is not known, CallingConvention.h): by the convention a callee reads its arguments in
// the lanes it is called with and keeps the other lanes. Lane-live is the
// union of both sets. Units of
// other registers are not tracked.
//
// The block states come from the CFG edges as they are when the object is
// made; the states around an instruction are replayed from its block's.
// Instructions in \p Ignore (code inserted since, when a verifier examines
// the function after a pass) step nothing: the edges they add join points of
// one straight line of the original, so the answers are the original
// program's.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_LANELIVENESS_H
#define STINKYTOFU_ANALYSIS_LANELIVENESS_H

#include "stinkytofu/analysis/Liveness.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCRegister.h"
#include <memory>

namespace stinkytofu {

class LaneLiveness {
public:
  /// \p L: the register liveness of the same function (its units and call
  /// effects). \p AfterReturn: the vector units of which the callers may
  /// read some lane after a return, when every call site is known (null:
  /// all). \p Ignore: instructions that are not the program's.
  explicit LaneLiveness(const Liveness &L, const llvm::BitVector *AfterReturn = nullptr,
                        const llvm::DenseSet<const Instruction *> *Ignore = nullptr);
  ~LaneLiveness();

  /// The vector units some lane of which may be read after the point before
  /// \p I / at the end of \p BB (of the function): test a register with
  /// RegisterUnits::any.
  llvm::BitVector liveBefore(const Instruction &I) const;
  llvm::BitVector liveAfter(const Instruction &I) const;
  llvm::BitVector liveAtEnd(const BasicBlock &BB) const;
  /// The vector units of which a lane EXEC may not hold at the point after
  /// \p I may be read later (the Any set): a write by \p I under EXEC
  /// leaves such a lane to be read, so the register's old value survives.
  llvm::BitVector otherLanesLiveAfter(const Instruction &I) const;

private:
  class Flow;
  const RegisterUnits &RU;
  std::unique_ptr<Flow> Solved;
};

} // namespace stinkytofu

#endif
