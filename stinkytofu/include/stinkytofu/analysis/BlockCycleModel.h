//===- BlockCycleModel.h - In-order issue model of one basic block -*- C++ -*-===//
//
// How many cycles a block takes to issue, on a simple in-order model of one
// wave (docs/hazards.md, "Cycle estimate"):
//
//   - every instruction issues after the previous one, and holds the issue
//     port for its issue cycles (`s_nop N`: N+1; a `.stir` `issueCycles`
//     overrides);
//   - it waits for the registers it reads: a register is ready its
//     producer's latency after the producer issued (a `.stir`
//     `latencyCycles` overrides);
//   - a memory-counter wait waits until all but the allowed number of the
//     operations pending on each of its counters are done, each one its
//     latency after it issued;
//   - `s_delay_alu` delays the instructions it names until the VALU, TRANS
//     or SALU instruction they depend on is done; `s_wait_alu` /
//     `s_waitcnt_depctr` waits until the VALU (or SALU) writes its fields
//     count are done;
//   - a matrix product waits for the matrix pipe, busy for the passes of the
//     previous one.
//
// The block starts with nothing in flight: a wait for work of an earlier
// block costs nothing here. Cycles are LLVM scheduling-model cycles
// (hw/InstTiming.h).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_BLOCKCYCLEMODEL_H
#define STINKYTOFU_ANALYSIS_BLOCKCYCLEMODEL_H

#include "stinkytofu/hw/InstTiming.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <memory>

namespace stinkytofu {

/// Why an instruction issued later than the previous one let it.
enum class StallCause : uint8_t {
  Dependency, ///< a register another instruction writes is not ready
  MemoryWait, ///< a memory-counter wait for operations in flight
  HazardWait, ///< s_delay_alu / s_wait_alu / s_waitcnt_depctr
  MatrixPipe, ///< the previous matrix product still occupies the pipe
};
inline constexpr unsigned NumStallCauses = 4;
llvm::StringRef stallCauseName(StallCause C);

/// The cycles of one block.
struct BlockCycles {
  /// From the first issue to the cycle after the last instruction's issue.
  uint64_t Cycles = 0;
  /// The part of Cycles spent issuing.
  uint64_t Issue = 0;
  /// The rest, by cause.
  uint64_t Stalls[NumStallCauses] = {};
  uint64_t stalls() const;
};

/// Waits the passes after a rewrite will put in front of instructions, each
/// one issue cycle: a memory-counter wait (WaitCountAnalysis's missing
/// waits), then a depctr wait (findDepCtrWaitNeeds: the DepCtrZeroField
/// bits it sets to 0), then an `s_delay_alu` (DelayAluAnalysis's demands;
/// its two fields as the hardware encodes them, 0 for none).
struct ExpectedWaits {
  llvm::DenseMap<const Instruction *, WaitCounts> Memory;
  llvm::DenseMap<const Instruction *, uint8_t> DepCtrs;
  llvm::DenseMap<const Instruction *, std::pair<uint8_t, uint8_t>> AluDelays;
};

/// The issue and latency cycles of IR instructions on one target, and the
/// block simulation. One per module; blocks are independent. It keeps what
/// it read of each instruction (by edit stamp), so one model is not for
/// several threads at once.
class BlockCycleModel {
public:
  explicit BlockCycleModel(const Module &M);
  ~BlockCycleModel();

  /// Issue and latency of \p I: its `.stir` overrides, else MC's scheduling
  /// model and the hardware model (a macro: the sum of its instructions'
  /// issue cycles, the longest latency).
  InstTimes timesOf(const Instruction &I) const;
  /// The cycles of \p BB; with \p Without, as if those instructions were
  /// not there (what a wait costs, HazardGapAnalysis; which of two
  /// placements of a wait is faster, the wait insertion).
  BlockCycles estimate(const BasicBlock &BB,
                       llvm::ArrayRef<const Instruction *> Without = {}) const;
  /// The cycles of the second of two trips through \p BB, a block that
  /// branches back to itself, both without \p Without: what a loop trip
  /// costs with the operations of the previous trip in flight.
  BlockCycles estimateSecondTrip(const BasicBlock &BB,
                                 llvm::ArrayRef<const Instruction *> Without = {}) const;
  /// The cycles of the second of two trips through \p Trip, the blocks one
  /// trip of a loop issues in order (header first, a latch last), the
  /// second trip starting from the state the first leaves: the steady state
  /// of a loop, where a load issued for the next trip is still waited for;
  /// without the instructions \p Without names.
  BlockCycles estimateSecondTrip(llvm::ArrayRef<const BasicBlock *> Trip,
                                 llvm::ArrayRef<const Instruction *> Without = {}) const;
  /// The cycles of \p BB with the waits \p Waits names in front of its
  /// instructions, as if they were there: what the block costs once the
  /// wait passes have run, without editing it.
  BlockCycles estimate(const BasicBlock &BB, const ExpectedWaits &Waits) const;

  const TargetInfo &target() const { return Timing.target(); }

  struct Simulation;

private:
  /// What the simulation reads of an instruction, made once per edit stamp
  /// (Instruction::stamp): a list scheduler asks for each instruction many
  /// times.
  struct Described;
  /// The entry of \p I, with its times.
  Described &entryOf(const Instruction &I) const;
  const Described &describe(const Instruction &I) const;

  InstTiming Timing;
  std::unique_ptr<CounterModel> Counters;
  llvm::MCRegister Vcc;
  struct DescriptionCache;
  std::unique_ptr<DescriptionCache> Cache;
};

/// One wave issuing instructions in an order its caller chooses, on the
/// model of BlockCycleModel::estimate (the same rules, from nothing in
/// flight), except that a memory result is there no earlier than those of
/// the older operations of its counters, as the wait its reader will get
/// drains them in order: what a list scheduler asks before each pick, so
/// that the order it builds is judged by the measure the block is judged
/// by. Copyable: a state can be carried on along two different orders.
class IssueState {
public:
  explicit IssueState(const BlockCycleModel &Model);
  IssueState(const IssueState &Other);
  IssueState &operator=(const IssueState &Other);
  IssueState(IssueState &&) noexcept;
  IssueState &operator=(IssueState &&) noexcept;
  ~IssueState();

  /// The first cycle \p I could issue at after what was issued so far, but
  /// for the matrix pipe: the registers it reads, the memory operations a
  /// wait drains, the ALU delays due. Issuing other instructions before it
  /// changes this only when they write what it reads or are counted by it.
  uint64_t readyAt(const Instruction &I) const;
  /// When the matrix pipe takes the next product.
  uint64_t matrixFree() const;
  /// Cycles so far: the cycle after the last issue.
  uint64_t cycles() const;
  void issue(const Instruction &I);

private:
  std::unique_ptr<BlockCycleModel::Simulation> S;
};

} // namespace stinkytofu

#endif
