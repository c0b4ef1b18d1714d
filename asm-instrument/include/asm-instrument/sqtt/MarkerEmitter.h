//===- MarkerEmitter.h - Planned markers become instructions -----*- C++ -*-===//
//
// Emits the planned sites of one function (MarkerSites.h). Markers at one
// insertion point form a group, emitted in rank order:
//
//   s_ttracedata_imm <v>                  v fits the target's immediate and
//                                         packing is off (gfx11, gfx12)
//   s_mov_b32 m0, <v>                     otherwise; s_nop 0 where the
//   s_nop 0                               hardware model has the SALU-M0 ->
//   s_ttracedata                          s_ttracedata hazard (gfx9)
//
// sqtt_marker_data adds its payload record the same way (`s_mov_b32 m0,
// sN`). M0 is written only where liveness proves it dead; where it is live
// the group saves it in a dead SGPR and restores it after its markers
// (`s_mov_b32 sX, m0` ... `s_mov_b32 m0, sX`, then s_nop 0 on hazard
// targets); with no dead SGPR a live one is parked in a dead VGPR's lane
// (SgprSpill.h), and only without that are the markers that need M0
// refused with a warning naming the site. A function's entry and exit
// markers go in together or not at all (an unmatched enter would corrupt
// every decoded stack).
//
// With scope checks (ScopeCheck.h) each group is guarded by one branch
// over its markers to a fresh `.Lsqtt_skip_<N>` label; SCC is saved in a
// dead SGPR (`s_cselect_b32 sX, 1, 0`) before the guard and restored right
// after the label (`s_cmp_lg_u32 sX, 0`), on both ways there, where it is
// live. A group whose guard cannot get its registers is refused rather than
// emitted unguarded.
//
// Before anything is inserted, the planned groups are measured (encoded
// bytes). A short branch they would push out of range (BranchRange.h) is
// turned into a long branch by the pass once the markers are in
// (BranchRelaxationPass.h), when liveness proves the long branch's
// registers dead at its target; otherwise the groups between the branch and
// its target are refused, biggest first, with a warning naming the branch.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MARKEREMITTER_H
#define ASM_INSTRUMENT_SQTT_MARKEREMITTER_H

#include "asm-instrument/sqtt/InstructionFactory.h"
#include "asm-instrument/sqtt/MarkerIds.h"
#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "asm-instrument/sqtt/MarkerSites.h"
#include "asm-instrument/sqtt/SQTTConfig.h"
#include "asm-instrument/sqtt/ScopeCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::sqtt {

/// What was inserted into one function (--stats).
struct EmitStats {
  unsigned Entry = 0, Exit = 0, User = 0, Barrier = 0, Memory = 0;
  unsigned Immediate = 0, ViaM0 = 0; ///< marker headers by form
  unsigned Payloads = 0;             ///< sqtt_marker_data records
  unsigned M0Saves = 0, SccSaves = 0, Guards = 0;
  unsigned SgprSpills = 0; ///< live SGPRs parked in VGPR lanes (SgprSpill.h)
  unsigned AddressTraces = 0; ///< traced operations
  unsigned TraceRecords = 0;  ///< records after their headers (R: counts)
  unsigned Refused = 0;
  unsigned Added = 0; ///< instructions inserted
  /// Short branches the inserted code may push out of range, which the
  /// pass then relaxes (none: the function's branches all still reach, and
  /// the relaxation need not measure it again).
  unsigned BranchesToRelax = 0;
  /// One past the highest SGPR the inserted code uses (0: none).
  unsigned SGPRHighWater = 0;
  /// One past the highest VGPR an SGPR was parked in (0 for none).
  unsigned VGPRHighWater = 0;
  bool CachedPredicate = false;

  unsigned markers() const { return Entry + Exit + User + Barrier + Memory + AddressTraces; }
  EmitStats &operator+=(const EmitStats &O);
};

/// Module-wide state of the emitters.
class EmitContext {
public:
  EmitContext(Module &M, StinkyTofuContext &Context, const SQTTConfig &Config,
              const MarkerIdAllocator &Ids, std::vector<ScopeDimCheck> Checks);

  Module &M;
  /// Receives the warnings (a marker not inserted).
  StinkyTofuContext &Context;
  const SQTTConfig &Config;
  const HardwareModel &HW;
  const MarkerIdAllocator &Ids;
  /// The scope checks; empty when every mask is full.
  std::vector<ScopeDimCheck> Checks;
  InstructionFactory Factory;
  /// Every instruction and block the emitters created.
  llvm::DenseSet<const Instruction *> Inserted;
  llvm::DenseSet<const BasicBlock *> InsertedBlocks;
  /// s_set_vgpr_msb's MC opcode; 0 on a target without it.
  unsigned SetVgprMsbOpcode = 0;

  /// A label no symbol of the module has: `<Prefix><N>`.
  std::string newLabel(llvm::StringRef Prefix = ".Lsqtt_skip_");

private:
  /// The labels of the module's blocks.
  llvm::StringSet<> Labels;
  unsigned NextLabel = 0;
};

/// Plans and inserts \p Sites into \p F (liveness \p Live was computed on
/// \p F before any change). Refusals are warnings; the errors are for an
/// instruction MC would not assemble (a bug) and a short branch no refusal
/// keeps in range.
llvm::Expected<EmitStats> emitMarkers(Function &F, std::vector<MarkerSite> Sites,
                                      const MarkerLiveness &Live, EmitContext &Ctx);

/// Prints \p S as one `--stats` line for \p Name.
void printStats(llvm::StringRef Name, bool Kernel, const EmitStats &S, llvm::raw_ostream &OS);

} // namespace stinkytofu::sqtt

#endif
