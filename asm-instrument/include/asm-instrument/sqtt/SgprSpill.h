//===- SgprSpill.h - Scratch SGPRs, freed by parking live ones ---*- C++ -*-===//
//
// Inserted code takes its scratch SGPRs from those dead at its point. When
// they run out, a live SGPR is freed for the length of the code by parking
// its value in a lane of a dead VGPR, as LLVM spills SGPRs:
//
//   <SgprLaneSaveWait>                 the target's wait (HardwareModel.td)
//   v_writelane_b32 vD, sX, <lane>     first of the inserted code
//   ...                                sX is scratch here
//   v_readlane_b32 sX, vD, <lane>      last of it, on every way out
//   <SgprLaneRestoreWait>
//
// Both instructions ignore EXEC, so every lane of the wave is there to use,
// in a VGPR no lane of which the program may still read
// (MarkerLiveness::deadVGPRs). Without one, a dead VCC half is the last
// scratch SGPR (and a dead M0 the scope check's); only then is a marker
// refused for want of a register.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_SGPRSPILL_H
#define ASM_INSTRUMENT_SQTT_SGPRSPILL_H

#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace stinkytofu::sqtt {

/// A live SGPR parked in lane \p Lane of \p Vgpr while the code runs.
struct SgprSpill {
  llvm::MCRegister Sgpr, Vgpr;
  unsigned Lane = 0;
};

/// The scratch SGPRs of one piece of inserted code at one point.
class ScratchSGPRs {
public:
  /// \p Dead: the SGPRs dead at \p P to hand out first, in order. Then live
  /// SGPRs of the function's budget are parked, none of \p Reserved (what
  /// the inserted code itself reads, or keeps across points), unless
  /// \p LanesReachable is false: on gfx1250 under an s_set_vgpr_msb state
  /// that is not 0, `v0` in the inserted code would be another VGPR.
  ScratchSGPRs(const MarkerLiveness &Live, const InsertPoint &P,
               std::vector<llvm::MCRegister> Dead, llvm::ArrayRef<llvm::MCRegister> Reserved,
               bool LanesReachable);

  /// The next scratch SGPR, or none when no SGPR is dead, no live one can
  /// be parked and VCC is live.
  std::optional<llvm::MCRegister> take();
  /// The SGPRs take() parked, in the order taken.
  const llvm::SmallVector<SgprSpill, 4> &spills() const { return Spills; }

private:
  const MarkerLiveness &Live;
  InsertPoint P;
  std::vector<llvm::MCRegister> Dead;
  size_t NextDead = 0;
  llvm::SmallVector<llvm::MCRegister, 4> Reserved;
  llvm::SmallVector<SgprSpill, 4> Spills;
  std::optional<llvm::MCRegister> Vgpr; ///< looked up on the first spill
  bool NoVgpr = false;
  /// Dead VCC halves, looked up when parking fails.
  std::optional<std::vector<llvm::MCRegister>> Vcc;
  size_t NextVcc = 0;
  /// Parks the highest live SGPR of the budget, if a lane is free.
  std::optional<llvm::MCRegister> park();
};

/// The instructions that park \p Spills (before the code) and bring them
/// back (after it), with the target's waits.
std::vector<InstSpec> sgprSpillSaves(llvm::ArrayRef<SgprSpill> Spills, const TargetInfo &TI);
std::vector<InstSpec> sgprSpillRestores(llvm::ArrayRef<SgprSpill> Spills, const TargetInfo &TI);

} // namespace stinkytofu::sqtt

#endif
