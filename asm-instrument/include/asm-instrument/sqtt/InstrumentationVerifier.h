//===- InstrumentationVerifier.h - Inserted code changes nothing -*- C++ -*-===//
//
// `verify` (the driver's --verify-instrumentation) checks, after the pass,
// independently of how the emitter decided:
//
//   1. Removing every inserted instruction gives back the original
//      instruction stream, function by function (the marker
//      pseudo-instructions aside, which the pass replaces), each
//      instruction with its original text.
//   2. Every run of inserted code (the instructions and skip blocks inserted
//      at one point) leaves every register the original program may still
//      read as it found it: the code is executed symbolically, on every
//      path through its skip branches; a register copied away and back
//      (`s_mov_b32 sX, m0` ... `s_mov_b32 m0, sX`), or SCC saved and
//      restored (`s_cselect_b32 sX, 1, 0` ... `s_cmp_lg_u32 sX, 0`) counts
//      as unchanged; anything else written must be dead at that point in the
//      original program (MarkerLiveness, computed before the change).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_INSTRUMENTATIONVERIFIER_H
#define ASM_INSTRUMENT_SQTT_INSTRUMENTATIONVERIFIER_H

#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu::sqtt {

class InstrumentationSnapshot {
public:
  /// Records the instruction stream of every function of \p M.
  explicit InstrumentationSnapshot(const Module &M);

  /// Checks \p M after instrumentation; \p Inserted and \p InsertedBlocks
  /// are what the pass created, \p Live the liveness of each changed
  /// function before the change. One error lists every problem.
  llvm::Error
  verify(const Module &M, const llvm::DenseSet<const Instruction *> &Inserted,
         const llvm::DenseSet<const BasicBlock *> &InsertedBlocks,
         const llvm::DenseMap<Function *, std::unique_ptr<MarkerLiveness>> &Live) const;

private:
  struct Entry {
    const Instruction *I;
    bool Pseudo;
    std::string Text;
  };
  llvm::DenseMap<const Function *, std::vector<Entry>> Streams;
};

} // namespace stinkytofu::sqtt

#endif
