//===- CodeTable.h - code.json: the instructions of a capture ---*- C++ -*-===//
//
// code.json lists every instruction of the traced code objects: its text,
// the LineNumber the wave files' rows point at, its code object and address,
// and sums over all traced executions (Hit, Latency, Stall, Idle). Writers
// differ (../shared/docs/att-format.md): 10 columns (rocprofv3 3.0.0, the
// decoder's snapshot_dwarf-1.1 with a `kernels` table), 14 (ServiceType,
// Issued, Stalled, NotIssuedReasons) and the PC-sampling 13 (PC_Issued,
// PC_Stalled, Stall_Reasons), `header` a string or a list. The first ten
// columns are the same in all; the rest are found by the header's names,
// which may come after the rows.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_CODETABLE_H
#define ASM_INSTRUMENT_TRACE_CODETABLE_H

#include "asm-instrument/trace/JsonInput.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::trace {

/// Sums over the executions of one instruction (or of a group of them).
struct InstructionCounts {
  uint64_t Executions = 0;
  uint64_t Cycles = 0; ///< Sum of the rows' durations: stall + issue (execution on gfx10+).
  uint64_t Stall = 0;  ///< The part of Cycles the wave stalled.
  uint64_t Idle = 0;   ///< Cycles between the previous row's end and this row's issue.
  InstructionCounts &operator+=(const InstructionCounts &O) {
    Executions += O.Executions;
    Cycles += O.Cycles;
    Stall += O.Stall;
    Idle += O.Idle;
    return *this;
  }
};

/// PC-sampling counts (the 13- and 14-column variants).
struct SampleCounts {
  uint64_t Issued = 0, Stalled = 0;
  SampleCounts &operator+=(const SampleCounts &O) {
    Issued += O.Issued;
    Stalled += O.Stalled;
    return *this;
  }
};

struct CodeRow {
  std::string Isa;    ///< Disassembly; "; name" for a label row.
  std::string Source; ///< `file:line`, inlined chains joined with " -> ".
  uint32_t Line = 0;  ///< LineNumber: what wave rows point at.
  uint32_t CodeObject = 0;
  uint64_t Address = 0;
  InstructionCounts Counts;
  SampleCounts Samples;
  bool isLabel() const { return llvm::StringRef(Isa).starts_with("; "); }
};

/// A symbol's address: a `kernels` entry of the snapshot_dwarf variant, or a
/// `; name` label row.
struct CodeLabel {
  std::string Name;
  uint32_t CodeObject = 0;
  uint64_t Address = 0;
};

struct CodeTable {
  std::vector<CodeRow> Rows;
  std::vector<CodeLabel> Kernels;
  std::string Version;
  bool HasSamples = false; ///< Issued/Stalled or PC_Issued/PC_Stalled columns.
};

/// Reads \p Path. Errors are "FILE: reason".
llvm::Expected<CodeTable> readCodeTable(llvm::StringRef Path, JsonReader &Reader);

} // namespace stinkytofu::trace

#endif
