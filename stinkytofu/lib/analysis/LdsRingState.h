//===- LdsRingState.h - Ring slots in the wait analysis's state -*- C++ -*-===//
//
// Internal to the wait analysis. Where a function states `mod.lds_ring`
// (and the annotations hold, LdsRingPhases.h), each LDS operation in flight
// is also kept under the ring slot it uses, in the LDS maps of its counter,
// keyed below Untagged so that no memory token meets it:
//
//   - a slot is named relative to its frame's current position (class,
//     frame, ring size, delta mod size); when the frame advances by n, every
//     slot of that frame in flight is renamed to delta - n, so the keys stay
//     finite and a loop's states reach a fixed point;
//   - an LDS operation with no ring access is kept under UnringedLds: a
//     barrier must still wait for it.
//
// A barrier that publishes (protects) slots then waits for the writes
// (reads) of those slots and for the unringed work only; an access with
// ring slots waits for the other counters' work on the same slots, one
// without them for every slot's.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_LDSRINGSTATE_H
#define STINKYTOFU_LIB_ANALYSIS_LDSRINGSTATE_H

#include "WaitCountState.h"
#include "stinkytofu/ir/Modifier.h"

namespace stinkytofu::waitcount {

/// The ring accesses and frame advances of one instruction.
struct RingInfo {
  SmallVector<LdsRingData::Access, 2> Accesses;
  SmallVector<LdsRingData::Advance, 1> Advances;
  bool has(LdsRingData::AccessKind K) const {
    return llvm::any_of(Accesses, [&](const LdsRingData::Access &A) { return A.Kind == K; });
  }
  /// A barrier that names the slots it orders.
  bool ordersSlots() const {
    return has(LdsRingData::AccessKind::Publish) || has(LdsRingData::AccessKind::Protect);
  }
};

RingInfo ringInfoOf(const Instruction &I);

/// The key of LDS work no ring access names.
constexpr int64_t UnringedLds = Untagged - 1;
/// Keys of the ring model (UnringedLds and the slots): no token is below
/// Untagged.
inline bool isRingKey(int64_t Key) { return Key < Untagged; }

/// Keeps the LDS event \p P of an instruction with ring info \p R in \p CS.
void recordRingEvent(CounterState &CS, const RingInfo &R, const Pending &P);

/// Renames the slots in flight of each frame \p Advances moves.
void advanceRingFrames(WaitState &S, ArrayRef<LdsRingData::Advance> Advances);

/// Calls \p Need with each pending entry of counter \p CS (of state \p S)
/// that an instruction with ring info \p R must see complete: a barrier
/// that orders slots (\p Barrier), or an LDS access (\p ReadsLds,
/// \p WritesLds).
void forEachRingDependence(const WaitState &S, const CounterState &CS, const RingInfo &R,
                           bool Barrier, bool ReadsLds, bool WritesLds,
                           llvm::function_ref<void(const Pending &)> Need);

} // namespace stinkytofu::waitcount

#endif
