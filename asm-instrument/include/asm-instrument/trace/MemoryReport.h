//===- MemoryReport.h - Address traces as JSON (memory) ---------*- C++ -*-===//
//
// {"operations": [...], "summary": [...]}: one object per traced memory
// operation (kind, marker id, source location, time, wave, EXEC, active
// lanes, addresses), streamed as decoded; then one summary per operation
// (code object + marker id) over all its executions:
//   bytes_touched      distinct bytes covered by [address, address + size)
//   lines_64/lines_128 distinct 64/128-byte cache lines (summed per execution)
//   lanes_per_line     active lanes / 128-byte lines
//   strides            histogram of the address difference between
//                      consecutive active lanes (the 16 most frequent;
//                      other_strides counts those past 1024 distinct ones)
//   coalescing         ideal 64-byte lines (bytes_touched / 64, rounded up
//                      per execution) / lines_64: 1.0 is perfect
// `size` is the access size in bytes (--access-size, default 4): the trace
// records addresses, not access widths.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_MEMORYREPORT_H
#define ASM_INSTRUMENT_TRACE_MEMORYREPORT_H

#include "asm-instrument/trace/TraceSink.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>

namespace stinkytofu::trace {

class MemoryReport : public TraceSink {
public:
  MemoryReport(llvm::raw_ostream &OS, unsigned AccessSize);
  void beginDispatch(const DispatchInfo &D) override;
  void addressTrace(const WaveInfo &W, const AddressTrace &A) override;
  /// Writes the summary and closes the document.
  void finish();

private:
  struct OpSummary {
    std::string Kind, Source;
    uint64_t Executions = 0, ActiveLanes = 0, Bytes = 0, Lines64 = 0, Lines128 = 0,
             IdealLines64 = 0;
    std::map<int64_t, uint64_t> Strides;
    uint64_t OtherStrides = 0; ///< Differences beyond the first MaxStrides distinct ones.
  };
  static constexpr size_t MaxStrides = 1024;
  llvm::raw_ostream &OS;
  unsigned AccessSize;
  bool First = true;
  uint32_t Dispatch = 0;
  double CyclesPerMicrosecond = 1000;
  std::map<std::pair<uint32_t, uint32_t>, OpSummary> Ops;
  std::vector<uint64_t> Sorted; ///< Scratch, reused.
};

} // namespace stinkytofu::trace

#endif
