//===- FuncMap.h - The .sqtt_funcmap model and builder ----------*- C++ -*-===//
//
// The `.sqtt_funcmap` section of a code object maps SQTT marker IDs to names
// (spec: "Extracting Data from Compiled Binaries"; row grammar and emission
// order: sqtt-reference.md section 4). Seven row types:
//
//   F:<id>:<name>[@<loc>]   function scope (enter/exit)
//   K:<name>[@<loc>]        kernel (vaddr lookup only; no id)
//   U:<id>:<name>           user scope (enter/exit)
//   P:<id>:<name>[@<loc>]   point marker (user point, barrier, vmem, address trace)
//   W:<32|64>               wave size
//   R:<id>:extra_payload_count=<N>
//   M:shader_clock_bits=<N>;shader_clock_shift=<S>
//   <loc> := file:line | inner:line -> outer:line -> ...
//
// F, K, U and P rows are Markers. An R row belongs to the marker with its id
// and is kept in that marker (ExtraPayloadCount); W and M describe the whole
// map. The instrumentation passes build a FuncMap with the add* calls and
// print it (FuncMapPrinter.h); decoders and the patcher parse one
// (FuncMapParser.h). Both sides share the row checks declared here.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_FUNCMAP_FUNCMAP_H
#define ASM_INSTRUMENT_FUNCMAP_FUNCMAP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::funcmap {

/// Marker IDs are 30 bits wide (bits 31:2 of the marker word); 0 is reserved.
constexpr uint32_t MaxMarkerIdBits = 30;

enum class MarkerKind : uint8_t {
  Function,  ///< F:
  Kernel,    ///< K:
  UserScope, ///< U:
  Point,     ///< P:
};

/// Where a P: row goes in the emission order: user points mix with U: rows in
/// insertion order, system points (barriers, vmem) follow them, address-trace
/// points come after the W: row.
enum class PointGroup : uint8_t { User, System, AddressTrace };

/// The group a P: row with this name belongs to when it is read back from
/// text: `addr_trace_*` names are address traces; `barrier`,
/// `barrier_signal`, `barrier_wait`, `vmem_load` and `vmem_store` are the
/// pass's system points; anything else is a user point.
PointGroup classifyPointName(llvm::StringRef Name);

/// One F:, K:, U: or P: row, with its R: row folded in.
struct Marker {
  MarkerKind Kind = MarkerKind::Function;
  PointGroup Group = PointGroup::User; ///< P: rows only.
  uint32_t Id = 0;                     ///< 0 for K: rows, which have no id.
  std::string Name;
  std::string SourceLoc;           ///< Empty when the row has no `@<loc>`.
  uint32_t ExtraPayloadCount = 0;  ///< From the R: row; 0 without one.

  bool hasId() const { return Kind != MarkerKind::Kernel; }
  /// 'F', 'K', 'U' or 'P'.
  char prefix() const;
};

/// The M: row: marker headers carry a truncated shader clock in their high
/// bits (gfx12), leaving 30 - ShaderClockBits bits for the id.
struct MarkerEncoding {
  uint32_t ShaderClockBits = 0;
  uint32_t ShaderClockShift = 0;

  uint32_t markerIdBits() const {
    return ShaderClockBits < MaxMarkerIdBits ? MaxMarkerIdBits - ShaderClockBits : 0;
  }
  bool operator==(const MarkerEncoding &) const = default;
};

class FuncMap {
public:
  // --- Building (the instrumentation passes) ------------------------------
  // Each add* appends a marker and returns it; the reference stays valid
  // until the next add or remove. Nothing is checked here: verify() checks
  // the finished map (unique ids, id range, names, locations).
  Marker &addFunction(uint32_t Id, llvm::StringRef Name, llvm::StringRef SourceLoc = {});
  Marker &addKernel(llvm::StringRef Name, llvm::StringRef SourceLoc = {});
  Marker &addUserScope(uint32_t Id, llvm::StringRef Name);
  Marker &addUserPoint(uint32_t Id, llvm::StringRef Name, llvm::StringRef SourceLoc = {},
                       uint32_t ExtraPayloadCount = 0);
  /// Barrier and vmem points (add barriers first, then vmem).
  Marker &addSystemPoint(uint32_t Id, llvm::StringRef Name);
  /// An address-trace header (`addr_trace_*`) and the number of records that
  /// follow it; these rows print after the W: row.
  Marker &addAddressTracePoint(uint32_t Id, llvm::StringRef Name, llvm::StringRef SourceLoc,
                               uint32_t ExtraPayloadCount);
  Marker &add(Marker M);

  void setWaveSize(uint32_t WaveSize) { Wave = WaveSize; }
  void clearWaveSize() { Wave.reset(); }
  void setMarkerEncoding(MarkerEncoding E) { Encoding = E; }
  void clearMarkerEncoding() { Encoding.reset(); }
  /// Sets the R: count of the marker with \p Id; false if there is none.
  bool setExtraPayloadCount(uint32_t Id, uint32_t Count);
  /// Removes the marker with \p Id; false if there is none.
  bool remove(uint32_t Id);

  // --- Reading ------------------------------------------------------------
  /// Markers in insertion order.
  llvm::ArrayRef<Marker> markers() const { return Markers; }
  /// The marker with \p Id (the last one added if there are several).
  const Marker *find(uint32_t Id) const;
  std::optional<uint32_t> waveSize() const { return Wave; }
  std::optional<MarkerEncoding> markerEncoding() const { return Encoding; }
  bool empty() const { return Markers.empty() && !Wave && !Encoding; }

  /// Markers in the spec's emission order: F: by id, K:, user U:/P: rows,
  /// system points, then address-trace points (the W: row goes before them).
  std::vector<const Marker *> markersInEmissionOrder() const;

  /// Checks the whole map against the grammar: every row (see the check*
  /// functions below), ids unique, ids fitting the bits the M: row leaves.
  llvm::Error verify() const;

  /// Same rows in emission order (so: the same printed text).
  bool operator==(const FuncMap &Other) const;

private:
  std::vector<Marker> Markers;
  std::optional<uint32_t> Wave;
  std::optional<MarkerEncoding> Encoding;
};

bool operator==(const Marker &A, const Marker &B);

// --- Row checks shared by FuncMap::verify and the strict parser -----------
// Each returns a message saying what is wrong, or std::nullopt.

/// A marker name: non-empty ASCII without control characters, '@' or
/// surrounding blanks.
std::optional<std::string> checkName(llvm::StringRef Name);
/// `file:line` or `inner:line -> outer:line -> ...`.
std::optional<std::string> checkSourceLoc(llvm::StringRef Loc);
/// 1 <= Id < 2^IdBits.
std::optional<std::string> checkId(uint32_t Id, uint32_t IdBits = MaxMarkerIdBits);
/// 32 or 64.
std::optional<std::string> checkWaveSize(uint32_t WaveSize);
/// 1 <= bits <= 29, shift < 32, bits + shift <= 32.
std::optional<std::string> checkEncoding(const MarkerEncoding &E);
/// Name, location (none on U: rows), id (none on K: rows).
std::optional<std::string> checkMarker(const Marker &M);

} // namespace stinkytofu::funcmap

#endif
