//===- InsertionVerifier.h - Inserted code changes nothing -------*- C++ -*-===//
//
// For a pass that only inserts code (instrumentation), a check made after
// the pass and independently of how it decided:
//
//   1. Removing every inserted instruction gives back the original
//      instruction stream, function by function (pseudo-instructions
//      aside, which the pass replaces), each instruction with its original
//      text.
//   2. Every run of inserted code (the instructions and skip blocks inserted
//      at one point) leaves every register the original program may still
//      read as it found it: the code is executed symbolically, on every
//      path through its skip branches and around its own loops (a branch
//      back to an inserted label: the state at the loop head is joined
//      with each back edge's until it is stable); a register copied away and back
//      (`s_mov_b32 sX, m0` ... `s_mov_b32 m0, sX`), or SCC saved and
//      restored (`s_cselect_b32 sX, 1, 0` ... `s_cmp_lg_u32 sX, 0`) counts
//      as unchanged, and so does an SGPR parked in a lane of a VGPR
//      (`v_writelane_b32 vD, sX, L` ... `v_readlane_b32 sX, vD, L`: each
//      lane holds its own value, on every path); anything else written must
//      be dead at that point in the original program (Liveness computed
//      before the change, with every block's sets:
//      Liveness::computeAllInstructionSets). A vector register the code
//      writes must be dead in every lane (LaneLiveness, computed on the
//      changed function with the inserted code left out): a lane write
//      ignores EXEC, and an EXEC-masked write leaves lanes that register
//      liveness does not follow.
//
// Usage: take an InsertionSnapshot of the module before inserting, record
// what the pass creates, then verify().
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_INSERTIONVERIFIER_H
#define STINKYTOFU_TRANSFORMS_INSERTIONVERIFIER_H

#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace stinkytofu {

class InsertionSnapshot {
public:
  /// Records the instruction stream of every function of \p M.
  explicit InsertionSnapshot(const Module &M);

  /// Checks \p M after the insertions; \p Inserted and \p InsertedBlocks
  /// are what the pass created, \p Live the liveness of each changed
  /// function before the change (a function without one is checked for 1
  /// only). \p LanesAfterReturn: for a function whose every caller is
  /// known, the vector units of which they may read some lane after its
  /// returns (LaneLiveness; any lane of any vector register when absent).
  /// One error lists every problem.
  llvm::Error
  verify(const Module &M, const llvm::DenseSet<const Instruction *> &Inserted,
         const llvm::DenseSet<const BasicBlock *> &InsertedBlocks,
         const llvm::DenseMap<const Function *, const Liveness *> &Live,
         const llvm::DenseMap<const Function *, const llvm::BitVector *> *LanesAfterReturn =
             nullptr) const;

private:
  struct Entry {
    const Instruction *I;
    bool Pseudo;
    /// An unmodified instruction is its source text, which the module
    /// keeps: only a modified one's printed text is stored.
    bool Modified;
    llvm::StringRef Source;
    std::string Printed;
    llvm::StringRef text() const { return Modified ? llvm::StringRef(Printed) : Source; }
  };
  llvm::DenseMap<const Function *, std::vector<Entry>> Streams;
};

} // namespace stinkytofu

#endif
