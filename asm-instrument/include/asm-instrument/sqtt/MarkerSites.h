//===- MarkerSites.h - Where markers go, before any is inserted --*- C++ -*-===//
//
// Every feature first plans its markers as sites on the original program:
// an insertion point and what the marker carries. Nothing is inserted until
// IDs are assigned and every site is planned, so liveness and placement
// always refer to the original instruction stream.
//
// Several markers may share one insertion point; they are emitted in rank
// order: a function's entry marker first, then the markers that belong after
// the previous instruction (unpaired barrier signal, memory group), the
// user markers at that point, the markers that belong before the next
// instruction (barrier, wait), and a function's exit marker last.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MARKERSITES_H
#define ASM_INSTRUMENT_SQTT_MARKERSITES_H

#include "asm-instrument/sqtt/AddressTrace.h"
#include "asm-instrument/sqtt/MarkerIds.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/ir/InsertPoint.h"
#include "stinkytofu/mc/InstBuilder.h"
#include <memory>
#include <optional>
#include <string>

namespace stinkytofu::sqtt {

enum class SiteKind : uint8_t {
  FunctionEntry,
  FunctionExit,
  User,
  Barrier,
  Memory,
  AddressTrace
};
enum class SiteRank : uint8_t { FunctionEntry, AfterPrevious, User, BeforeNext, FunctionExit };

struct MarkerSite {
  SiteKind Kind;
  SiteRank Rank;
  InsertPoint Point;
  /// The marker's ID: a ledger entry (functions, named markers), a system
  /// marker, or none for a pure exit (0x1).
  enum class IdSource : uint8_t { Ledger, System, None } Source = IdSource::None;
  unsigned Handle = 0;
  /// A function's exit (a pure exit) still counts towards the function's
  /// emission count, as in the reference, where exits carry the ID until
  /// compaction.
  bool CountsTowardHandle = false;
  SystemMarker System = SystemMarker::Barrier;
  uint32_t Flags = 0;
  /// sqtt_marker_data: the payload operand (`s5` or an immediate) written
  /// as one more record right after the header.
  std::optional<BuildOperand> Payload;
  /// The instruction the marker is about (pseudo-instruction, barrier,
  /// memory operation, return, first instruction), for diagnostics.
  const Instruction *Origin = nullptr;
  /// For diagnostics: "entry of function 'f'", "barrier", ...
  std::string What;
  /// The function's entry/exit sites are all emitted or none.
  bool AllOrNothing = false;
  /// An address trace: the operation whose addresses follow the header.
  /// Out of line: most sites trace nothing, and a site is moved and copied
  /// as plans change.
  std::shared_ptr<const TracedOperation> Trace;
  /// A marker on a CFG edge placed before its source's conditional branch
  /// (LoopMarkers.h): the conditional branch mnemonic that skips the marker
  /// when control does not take the edge. Empty: the marker always runs.
  std::string SkipBranch;
  /// The block whose execution count the marker shares, when not the block
  /// of its point (a marker on an edge out of a loop runs once per exit,
  /// not once per iteration); for the density report.
  const BasicBlock *RunsWith = nullptr;
};

/// The marker word of \p S once IDs are assigned.
uint32_t markerValue(const MarkerSite &S, const MarkerIdAllocator &Ids);

/// Counts each site that carries an ID towards that ID's emission count
/// (pure exits carry none).
void countSites(llvm::ArrayRef<MarkerSite> Sites, MarkerIdAllocator &Ids);

} // namespace stinkytofu::sqtt

#endif
