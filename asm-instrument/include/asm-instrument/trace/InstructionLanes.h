//===- InstructionLanes.h - Timelines of a capture without markers -*- C++ -*-===//
//
// `sqtt-trace perfetto` and `flamegraph` on a capture with no markers: each
// wave file becomes a wave whose "scopes" are its instruction categories
// (VALU, SALU, VMEM, LDS, ...; the stalled part of a row is `wait`),
// consecutive rows of one category merged into one slice, so the existing
// sinks draw per-wave lanes and a flame graph of kernel;category. The gaps
// between rows (the wave idle) are the kernel frame's own cycles.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_INSTRUCTIONLANES_H
#define ASM_INSTRUMENT_TRACE_INSTRUCTIONLANES_H

#include "asm-instrument/trace/Diagnostics.h"
#include "asm-instrument/trace/TraceReader.h"
#include "asm-instrument/trace/TraceSink.h"
#include "llvm/Support/Error.h"

namespace stinkytofu::trace {

/// Whether any dispatch under \p Root has shaderdata (marker) files.
llvm::Expected<bool> hasMarkerRecords(llvm::StringRef Root);

/// Replays the wave files under \p Root into \p Sink as category lanes.
llvm::Error readInstructionLanes(llvm::StringRef Root, const ReadOptions &Options,
                                 TraceSink &Sink, Diagnostics &Diags);

} // namespace stinkytofu::trace

#endif
