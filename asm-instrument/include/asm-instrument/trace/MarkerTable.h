//===- MarkerTable.h - Every decoded marker, one row each (markers) -*- C++ -*-===//
#ifndef ASM_INSTRUMENT_TRACE_MARKERTABLE_H
#define ASM_INSTRUMENT_TRACE_MARKERTABLE_H

#include "asm-instrument/trace/TraceSink.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::trace {

/// Streams one row per marker header: where (dispatch, SE/CU/SIMD/slot,
/// instance), when (corrected and arrival cycles), the raw value, what it
/// decoded to and the scope depth after it.
class MarkerTable : public TraceSink {
public:
  MarkerTable(llvm::raw_ostream &OS, bool Csv);
  void beginDispatch(const DispatchInfo &D) override { Dispatch = D.Index; }
  void marker(const WaveInfo &W, const DecodedMarker &M) override;

private:
  llvm::raw_ostream &OS;
  bool Csv;
  uint32_t Dispatch = 0;
};

} // namespace stinkytofu::trace

#endif
