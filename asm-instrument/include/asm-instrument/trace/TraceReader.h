//===- TraceReader.h - Decode a rocprofv3 --att output directory -*- C++ -*-===//
//
// readTrace() finds the dispatches under a directory and, for each (its own
// time domain), reads occupancy.json, the funcmaps (code.json or the code
// objects), the clock rate, then streams the shaderdata files SE by SE
// through a WaveDecoder into the sink. With clock-packed funcmaps the
// shaderdata files are read twice: the first pass finds each clock domain's
// minimum delay, the second decodes with corrected times.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_TRACEREADER_H
#define ASM_INSTRUMENT_TRACE_TRACEREADER_H

#include "asm-instrument/trace/Diagnostics.h"
#include "asm-instrument/trace/TraceFilter.h"
#include "asm-instrument/trace/TraceSink.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace stinkytofu::trace {

struct ReadOptions {
  TraceFilter Filter;
  /// Overrides realtime.json.
  std::optional<double> ClockGHz;
  /// Draw a progress bar on stderr once reading takes more than a second.
  bool Progress = false;
};

/// Decodes every dispatch under \p Root into \p Sink. Errors are
/// "FILE: reason"; decoding problems are counted in \p Diags.
llvm::Error readTrace(llvm::StringRef Root, const ReadOptions &Options, TraceSink &Sink,
                      Diagnostics &Diags);

} // namespace stinkytofu::trace

#endif
