//===- MarkerDensity.h - Marker records per executed instruction -*- C++ -*-===//
//
// The density report of `stats` and its warning (docs/sqtt-instrument.md,
// "Density report"). Dense markers lose records on the hardware
// (sqtt-reference.md 2.1), so before a capture the planned markers are
// estimated against the instructions that run between them:
//
//   - per natural loop, one iteration: the records of the markers in the
//     loop's own blocks (a nested loop's blocks are its own line) over the
//     instructions of those blocks. A marker on an edge counts where its
//     edge runs: a loop's enter and exit belong to what surrounds the loop,
//     its transition to the loop (MarkerSite::RunsWith);
//   - per function, the path through it with each loop body once: every
//     record over every instruction;
//   - payload records (sqtt_marker_data values, address-trace records) per
//     marker carrying them.
//
// Records are the planned ones; refused markers are reported by their
// warnings and the `refused` count of the stats line.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MARKERDENSITY_H
#define ASM_INSTRUMENT_SQTT_MARKERDENSITY_H

#include "asm-instrument/sqtt/MarkerSites.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace stinkytofu {
class StinkyTofuContext;
}

namespace stinkytofu::sqtt {

struct RecordCount {
  uint64_t Records = 0, Instructions = 0;
};

struct LoopDensity {
  std::string Name; ///< loop_<header label>
  const BasicBlock *Header = nullptr;
  unsigned Depth = 1;
  RecordCount PerIteration;
};

struct FunctionDensity {
  std::string Function;
  bool Kernel = false;
  RecordCount Path;
  uint64_t PayloadRecords = 0, PayloadMarkers = 0;
  std::vector<LoopDensity> Loops; ///< outer loops before the loops they hold
};

/// The payload records \p S writes after its header (an address trace's
/// depend on the wave size, \p WaveSize).
unsigned payloadRecords(const MarkerSite &S, unsigned WaveSize);

FunctionDensity measureDensity(const Function &F, const LoopInfo &LI,
                               llvm::ArrayRef<MarkerSite> Sites);

/// The report's lines for \p D.
void printDensity(const FunctionDensity &D, llvm::raw_ostream &OS);

/// A warning at the header's label of each loop of \p D with more than one
/// record per \p N instructions per iteration (\p N 0: none).
void warnDensity(const FunctionDensity &D, unsigned N, const Module &M,
                 StinkyTofuContext &Context);

} // namespace stinkytofu::sqtt

#endif
