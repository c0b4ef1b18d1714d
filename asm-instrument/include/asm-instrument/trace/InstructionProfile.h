//===- InstructionProfile.h - Cycles per instruction of a capture -*- C++ -*-===//
//
// What `rocprofv3 --att` recorded about each instruction, markers or not:
// for every dispatch under a directory, code.json's instructions and the
// rows of every wave file, summed per (code object, address) over waves and
// dispatches. The wave files are streamed one at a time (memory: the code
// tables and the largest file); without any (a PC-sampling capture, or a
// writer that lists none) code.json's own sums are used.
//
// A wave row's idle cycles are the gap between the previous row's end
// (time + duration) and its issue, from the wave's begin for the first: the
// numbers code.json's Idle column sums.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_INSTRUCTIONPROFILE_H
#define ASM_INSTRUMENT_TRACE_INSTRUCTIONPROFILE_H

#include "asm-instrument/trace/CodeTable.h"
#include "asm-instrument/trace/Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace stinkytofu::trace {

struct ProfiledInstruction {
  uint32_t CodeObject = 0;
  uint64_t Address = 0;
  std::string Isa, Source;
  InstructionCounts Counts;
  SampleCounts Samples;
  /// The category of its rows (categoryName()); 0 without wave rows.
  uint8_t Category = 0;
  /// For an s_waitcnt: the addresses of the instructions it waited for
  /// (the wave files' waitcnt rows, when the writer fills them), at most
  /// MaxWaitsFor, ascending.
  std::vector<uint64_t> WaitsFor;
  static constexpr size_t MaxWaitsFor = 8;
};

struct InstructionProfile {
  /// Sorted by code object, then address.
  std::vector<ProfiledInstruction> Instructions;
  std::vector<CodeLabel> Labels;
  uint64_t Dispatches = 0, WaveFiles = 0, Rows = 0;
  /// The counts come from wave rows (else from code.json's sums).
  bool FromWaveRows = false;
  bool HasSamples = false;

  InstructionCounts total() const;
};

/// Reads every dispatch under \p Root. Missing files (code.json, a listed
/// wave file) are one "incomplete capture" error per dispatch.
llvm::Expected<InstructionProfile> readInstructionProfile(llvm::StringRef Root,
                                                          Diagnostics &Diags);

} // namespace stinkytofu::trace

#endif
