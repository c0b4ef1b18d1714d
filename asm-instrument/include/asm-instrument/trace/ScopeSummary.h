//===- ScopeSummary.h - Per-scope cycle statistics (summary) ----*- C++ -*-===//
//
// For every scope name (function or user marker): how often it ran and
// total/mean/min/max/p50/p99 of its inclusive cycles, over all waves and
// dispatches read; plus record and wave counts.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_SCOPESUMMARY_H
#define ASM_INSTRUMENT_TRACE_SCOPESUMMARY_H

#include "asm-instrument/trace/CycleHistogram.h"
#include "asm-instrument/trace/TraceSink.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::trace {

class ScopeSummary : public TraceSink {
public:
  void beginDispatch(const DispatchInfo &D) override { ByNameData.clear(); }
  void beginWave(const WaveInfo &W, uint64_t Time) override { ++Waves; }
  void exitScope(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack, uint64_t End) override;
  void marker(const WaveInfo &W, const DecodedMarker &M) override { ++Markers; }

  /// An aligned table (or CSV), scopes by total cycles, largest first;
  /// the table starts with \p Records, the shaderdata rows read.
  void print(llvm::raw_ostream &OS, bool Csv, uint64_t Records) const;

private:
  struct Entry {
    MarkerClass Class = MarkerClass::Unknown;
    CycleHistogram Cycles;
  };
  llvm::StringMap<Entry> Scopes;
  /// Scope names point into the dispatch's funcmaps, which live as long as
  /// the dispatch: within one, a name's address finds its entry without
  /// hashing the string.
  llvm::DenseMap<const char *, Entry *> ByNameData;
  uint64_t Waves = 0, Markers = 0;
};

} // namespace stinkytofu::trace

#endif
