//===- ScheduleValidator.h - Proving a reordering computes the same -*- C++ -*-===//
//
// A translation validator for schedules, independent of the dependence DAG:
// it executes a region symbolically in its old and its new order and
// compares what every instruction sees.
//
//   - Each write of a register unit makes a new version (named by the
//     writing instruction); each instruction must read the same version of
//     every unit it reads, and overwrite the same version of every unit it
//     writes (a write under a partial EXEC keeps the other lanes of the old
//     value, so the order of the writes of a unit is kept too). The final
//     versions of the region follow and are compared as well.
//   - Memory, per address space: no two accesses that conflict
//     (memoryConflict of InstructionEffects.h, with the address registers'
//     symbolic versions deciding whether two locations are comparable) may
//     be in the other order: every may-aliasing pair with a write or an
//     atomic keeps its order.
//   - Fences: each instruction has the same number of fences before it, so
//     fences keep their order and nothing crosses one.
//
// What it proves rests on InstructionEffects (the DAG's source of facts as
// well); docs/scheduler.md lists the assumptions.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_SCHEDULEVALIDATOR_H
#define STINKYTOFU_ANALYSIS_SCHEDULEVALIDATOR_H

#include "stinkytofu/analysis/InstructionEffects.h"
#include "stinkytofu/ir/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

class Module;
class BasicBlock;

/// Why a reordering is refused: the instruction (its index in the old
/// order) and what it sees differently.
struct ScheduleViolation {
  unsigned Inst;
  std::string Reason;
};

/// Checks that \p NewOrder (indices into the old order, a permutation) of
/// instructions with effects \p Effects (in the old order) computes what
/// the old order does. \p Text names instruction K in messages.
std::optional<ScheduleViolation>
findScheduleViolation(llvm::ArrayRef<InstructionEffects> Effects,
                      llvm::ArrayRef<unsigned> NewOrder, const RegisterUnits &RU,
                      llvm::function_ref<std::string(unsigned)> Text);

/// The same over instructions: \p New must hold the instructions of \p Old.
/// An error naming the first instruction whose inputs differ.
llvm::Error validateReordering(llvm::ArrayRef<const Instruction *> Old,
                               llvm::ArrayRef<const Instruction *> New, const EffectModel &EM);
/// The same with the effects of \p Old at hand (EffectModel::effectsOf of
/// each, as the region's DependenceDAG has them while no instruction of it
/// changed).
llvm::Error validateReordering(llvm::ArrayRef<const Instruction *> Old,
                               llvm::ArrayRef<const Instruction *> New,
                               llvm::ArrayRef<InstructionEffects> OldEffects,
                               const RegisterUnits &RU);

/// The order of every block of a module, with each instruction's effects,
/// taken before passes run; verify() then checks each block's reordering
/// (`--verify-schedule`). Instructions a pass inserted or erased are left
/// out of the comparison, and so are all waits and nops (memory-counter
/// waits, s_nop, v_nop, s_delay_alu, ALU waits), which the wait and hazard
/// verifiers check: what was kept must compute the same in the new order. An instruction whose text changed counts as
/// erased and inserted; one moved across a directive is an error.
class ScheduleSnapshot {
public:
  explicit ScheduleSnapshot(const Module &M);
  ~ScheduleSnapshot();
  /// An error naming the block and instruction of the first violation.
  llvm::Error verify(const Module &M) const;
  /// How many blocks verify() found reordered (the last call).
  unsigned reorderedBlocks() const { return Reordered; }

private:
  struct Entry {
    const Instruction *Inst;
    std::string Text;
    /// Where it was read: a pass may erase an instruction and build another
    /// that the allocator puts at the same address, with the same text (the
    /// s_set_vgpr_msb writes the hazard passes lower again), but never with
    /// the input line of the first.
    SourceLocation Location;
    /// Directives of the block before it.
    unsigned DirectivesBefore;
    InstructionEffects Effects;
  };
  std::unique_ptr<EffectModel> EM;
  llvm::DenseMap<const BasicBlock *, std::vector<Entry>> Blocks;
  mutable unsigned Reordered = 0;
};

} // namespace stinkytofu

#endif
