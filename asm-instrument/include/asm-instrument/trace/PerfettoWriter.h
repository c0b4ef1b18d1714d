//===- PerfettoWriter.h - Chrome trace JSON for the Perfetto UI -*- C++ -*-===//
//
// The Chrome trace event format: `ts` in microseconds (cycles / clock rate),
// one process per dispatch (pid = dispatch index + 1, named after its
// directory), one thread per wave instance with compact tids (1, 2, ... in
// order of first event, so always far below 2^31) named
// "SE<se>/CU<cu>/SIMD<simd>/W<slot>#<instance>". Scopes are B/E pairs
// (cat sqtt.function / sqtt.user / sqtt.unknown), properly nested per tid;
// point markers are thread-scoped instants (cat sqtt.point); a counter track
// "live waves" follows occupancy. Events are written as they are decoded.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_PERFETTOWRITER_H
#define ASM_INSTRUMENT_TRACE_PERFETTOWRITER_H

#include "asm-instrument/trace/TraceSink.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::trace {

class PerfettoWriter : public TraceSink {
public:
  explicit PerfettoWriter(llvm::raw_ostream &OS);
  /// Closes the JSON document.
  void finish();

  void beginDispatch(const DispatchInfo &D) override;
  void beginWave(const WaveInfo &W, uint64_t Time) override;
  void enterScope(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack) override;
  void exitScope(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack, uint64_t End) override;
  void marker(const WaveInfo &W, const DecodedMarker &M) override;
  void liveWaves(uint64_t Time, unsigned Count) override;

private:
  void event(char Phase, llvm::StringRef Name, llvm::StringRef Category, uint64_t Time,
             uint32_t Tid);
  void writeTime(uint64_t Cycles);
  llvm::raw_ostream &OS;
  bool First = true;
  uint32_t Pid = 0;
  double CyclesPerMicrosecond = 1000;
};

} // namespace stinkytofu::trace

#endif
