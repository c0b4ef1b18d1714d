//===- WaveInstructions.h - One wave file's instruction rows ----*- C++ -*-===//
//
// `se<SE>_sm<SIMD>_sl<SLOT>_wv<N>.json` holds, per executed instruction of
// one wave, `[time, category, stall, duration, line]` (`line`: code.json's
// LineNumber). The rows are streamed to a callback, never stored, and the
// file is read in chunks, never whole: a wave of a long kernel has millions.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_WAVEINSTRUCTIONS_H
#define ASM_INSTRUMENT_TRACE_WAVEINSTRUCTIONS_H

#include "asm-instrument/trace/JsonInput.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace stinkytofu::trace {

struct WaveRow {
  uint64_t Time = 0; ///< First issue attempt.
  uint64_t Stall = 0;
  uint64_t Duration = 0; ///< Stall plus issue (gfx9) or execution (gfx10+).
  uint32_t Line = 0;
  uint8_t Category = 0;
};

/// The wave's own fields (read wherever the writer put them in the object).
struct WaveHeader {
  uint64_t Begin = 0, End = 0;
  uint64_t Rows = 0;
};

/// The instruction categories of the rows (the decoder's numbering).
llvm::StringRef categoryName(uint8_t Category);

/// A `wave.waitcnt` row (rocprofv3's C++ writer): the s_waitcnt at \p Line
/// waited for the instructions at \p Deps (code.json lines).
using WaitRowFn = llvm::function_ref<void(uint32_t Line, llvm::ArrayRef<uint32_t> Deps)>;

/// Streams the rows of \p Path to \p Row in file order, and its waitcnt
/// rows to \p Wait when given.
llvm::Expected<WaveHeader> readWaveInstructions(llvm::StringRef Path,
                                                llvm::function_ref<void(const WaveRow &)> Row,
                                                WaitRowFn Wait = nullptr);

} // namespace stinkytofu::trace

#endif
