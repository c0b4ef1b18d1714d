//===- FixtureScenario.h - A trace scenario for the fixture writer -*- C++ -*-===//
//
// A small text format describing what a traced execution did, so that each
// decoding rule can be tested against a known answer:
//
//   version 3.1.0                 schema of the files written (3.0.0 / 3.1.0)
//   gfxip 11                      gfx major in filenames.json
//   clock 2.0                     realtime.json for a 2 GHz shader clock
//                                 ("clock none": no realtime.json)
//   funcmap code-json             where funcmaps go: code-object (default),
//                                 code-json (code.json tables) or both
//   records-per-file 100          split each SE's shaderdata into files
//   lose-records 3                records_count of the first file says 3 more
//   codeobject 1 [from FILE]      code object 1 (FILE: an existing one,
//                                 relative to the scenario's directory)
//   map F:1:foo@a.cl:3            a funcmap row of the last code object
//   kernel 1 foo                  occupancy kernel id 1 is `foo`
//   dispatch NAME                 a new ui_output directory (one by default)
//   wave SE CU SIMD SLOT kernel=K begin=T end=T [wg=G] [hidden]
//                                 (hidden: no occupancy rows for it)
//     T enter ID | T exit | T transition ID | T point ID
//                                 (ID: a number, or @name from the funcmap)
//     T raw VALUE [imm] [priv]    a record with exactly this value and flags
//     T addr ID exec=MASK base=ADDR stride=BYTES
//                                 an address-trace header and its payload
//                                 (layout from the funcmap name, W: size)
//     T packed enter|exit|transition|point [ID] delay=D
//     T packed value WORD delay=D a clock-packed header sampled at T,
//                                 arriving at T + D (the code object's M:);
//                                 WORD: the (id << 2) | flags part as is
//     T inst [CO:]ADDR [CATEGORY] [stall=S] [dur=D] [waits=A,A...]
//                                 a wave file row for the instruction at ADDR
//                                 (in code object CO, else the first `code`
//                                 row at ADDR); the category (SALU, VALU, ...)
//                                 defaults to one from the mnemonic, dur to 4;
//                                 waits=: a waitcnt row (once per wave) saying
//                                 it waited for the instructions at A...
//     repeat N PERIOD ... end     the enclosed events N times, PERIOD apart
//
// Instruction-level captures (no markers needed):
//
//   code CO ADDR TEXT [@SOURCE]   a code.json row: code object CO's
//                                 instruction TEXT at ADDR ("; name": a label
//                                 row); LineNumber is the row's index
//   code-json plain|service|pc-sampling|dwarf
//                                 the code.json variant: 10 columns (default),
//                                 14 (ServiceType, Issued, Stalled,
//                                 NotIssuedReasons), PC sampling (13, list
//                                 header, no wave files, `pc_sampling` in
//                                 filenames.json, no cycles: the rows as
//                                 issued samples, stalled ones as stalled),
//                                 snapshot_dwarf-1.1 (with `kernels`)
//   omit NAME                     leave a file out of every dispatch: a file
//                                 name, or `waves` for every wave file
//
// code.json's Hit/Latency/Stall/Idle are the sums over the wave rows, as
// rocprofv3 writes them.
//
// Times in a wave must not decrease. Lines starting with '#' are comments.
//
//===----------------------------------------------------------------------===//
#ifndef SQTT_TRACE_FIXTURE_SCENARIO_H
#define SQTT_TRACE_FIXTURE_SCENARIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fixture {

/// Event::Flags of a Packed event whose header word was given as is.
constexpr uint8_t PackedValueGiven = 0x80;

struct Event {
  enum Kind { Marker, Raw, Address, Packed, Inst } What = Marker;
  enum Action { Enter, Exit, Transition, Point } Does = Point;
  uint64_t Time = 0;
  uint32_t Value = 0; ///< Raw: the record.
  uint8_t Flags = 0;
  uint32_t Id = 0;     ///< Marker, Packed, Address: the marker id,
  std::string IdName;  ///< or its funcmap name (written `@name`).
  uint64_t Exec = 0, Base = 0, Stride = 0;
  uint64_t Delay = 0; ///< Packed: arrival delay.
  /// Inst: the code row (code object 0: any) and the row's fields.
  uint32_t InstCodeObject = 0;
  uint64_t InstAddress = 0, Stall = 0, Duration = 4;
  int Category = -1; ///< -1: from the mnemonic.
  std::vector<uint64_t> WaitsFor; ///< Inst: addresses its waitcnt row names.
};

/// Events, possibly repeated: Count times, Period cycles apart.
struct EventBlock {
  uint64_t Count = 1, Period = 0;
  std::vector<Event> Events;
};

struct Wave {
  uint32_t SE = 0, CU = 0, SIMD = 0, Slot = 0, Kernel = 0;
  uint64_t Begin = 0, End = 0;
  int64_t WorkGroup = 0;
  bool Hidden = false; ///< No occupancy rows (a slot occupancy never saw).
  std::vector<EventBlock> Blocks;
};

struct Dispatch {
  std::string Name;
  std::vector<Wave> Waves;
};

struct CodeObject {
  std::string From;               ///< Existing file, or empty.
  std::vector<std::string> Rows;  ///< Funcmap rows.
};

/// A code.json row.
struct CodeLine {
  uint32_t CodeObject = 0;
  uint64_t Address = 0;
  std::string Text, Source;
};

struct Scenario {
  std::string Version = "3.1.0";
  unsigned GfxIp = 9;
  std::optional<double> ClockGHz = 1.0;
  bool FuncMapInCodeObject = true, FuncMapInCodeJson = false;
  uint64_t RecordsPerFile = UINT64_MAX;
  uint64_t LoseRecords = 0;
  std::map<uint32_t, CodeObject> CodeObjects;
  std::map<uint32_t, std::string> Kernels;
  std::vector<Dispatch> Dispatches;
  std::vector<CodeLine> Code;
  std::string CodeJsonVariant = "plain";
  std::vector<std::string> Omit;
  bool omits(llvm::StringRef Name) const;
};

/// The category number of a name (SMEM, SALU, ... as the decoder numbers
/// them); -1 for an unknown name.
int categoryNumber(llvm::StringRef Name);

/// Parses \p Text; errors name \p File and the line.
llvm::Expected<Scenario> parseScenario(llvm::StringRef File, llvm::StringRef Text);

} // namespace fixture

#endif
