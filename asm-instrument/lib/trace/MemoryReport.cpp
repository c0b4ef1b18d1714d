//===- MemoryReport.cpp - Address traces as JSON (memory) -----------------===//
#include "asm-instrument/trace/MemoryReport.h"
#include "asm-instrument/trace/JsonWriting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace stinkytofu::trace {

MemoryReport::MemoryReport(raw_ostream &OS, unsigned AccessSize)
    : OS(OS), AccessSize(AccessSize ? AccessSize : 1) {
  OS << "{\"access_size\":" << this->AccessSize << ",\"operations\":[";
}

void MemoryReport::beginDispatch(const DispatchInfo &D) {
  Dispatch = D.Index;
  CyclesPerMicrosecond = D.ClockGHz * 1000.0;
}

static uint64_t distinct(ArrayRef<uint64_t> SortedValues, unsigned Shift) {
  uint64_t N = 0, Last = 0;
  for (uint64_t V : SortedValues) {
    if (!N || V >> Shift != Last) {
      ++N;
      Last = V >> Shift;
    }
  }
  return N;
}

void MemoryReport::addressTrace(const WaveInfo &W, const AddressTrace &A) {
  OS << (First ? "\n" : ",\n") << "{\"kind\":";
  First = false;
  writeJsonString(OS, A.Kind);
  OS << ",\"marker_id\":" << A.Id << ",\"code_object\":" << W.CodeObject;
  if (!A.SourceLoc.empty()) {
    OS << ",\"source\":";
    writeJsonString(OS, A.SourceLoc);
  }
  OS << ",\"dispatch\":" << Dispatch << ",\"time\":" << A.Time << ",\"time_us\":"
     << format("%.6f", double(A.Time) / CyclesPerMicrosecond) << ",\"se\":" << unsigned(W.SE)
     << ",\"cu\":" << unsigned(W.CU) << ",\"simd\":" << unsigned(W.SIMD)
     << ",\"wave\":" << unsigned(W.Slot) << ",\"instance\":" << W.Instance << ",\"exec\":";
  writeJsonHex(OS, A.Exec);
  OS << ",\"active_lanes\":" << A.Lanes.size() << ",\"addresses\":[";
  ListSeparator Sep(",");
  for (auto &[Lane, Addr] : A.Lanes) {
    OS << Sep;
    writeJsonHex(OS, Addr);
  }
  OS << "]}";

  OpSummary &S = Ops[{W.CodeObject, A.Id}];
  if (!S.Executions) {
    S.Kind = A.Kind.str();
    S.Source = A.SourceLoc.str();
  }
  ++S.Executions;
  S.ActiveLanes += A.Lanes.size();
  for (size_t I = 1; I < A.Lanes.size(); ++I) {
    int64_t Stride = int64_t(A.Lanes[I].second - A.Lanes[I - 1].second);
    // Bounded: scattered accesses would otherwise keep adding strides.
    auto It = S.Strides.find(Stride);
    if (It != S.Strides.end())
      ++It->second;
    else if (S.Strides.size() < MaxStrides)
      S.Strides[Stride] = 1;
    else
      ++S.OtherStrides;
  }
  Sorted.clear();
  for (auto &Lane : A.Lanes)
    Sorted.push_back(Lane.second);
  llvm::sort(Sorted);
  uint64_t Bytes = 0, CoveredTo = 0;
  for (uint64_t Addr : Sorted) {
    uint64_t From = std::max(Addr, CoveredTo), To = Addr + AccessSize;
    if (To > From)
      Bytes += To - From;
    CoveredTo = std::max(CoveredTo, To);
  }
  S.Bytes += Bytes;
  S.Lines64 += distinct(Sorted, 6);
  S.Lines128 += distinct(Sorted, 7);
  S.IdealLines64 += (Bytes + 63) / 64;
}

void MemoryReport::finish() {
  OS << "\n],\"summary\":[";
  ListSeparator Sep(",");
  for (auto &[Key, S] : Ops) {
    OS << Sep << "\n{\"code_object\":" << Key.first << ",\"marker_id\":" << Key.second
       << ",\"kind\":";
    writeJsonString(OS, S.Kind);
    if (!S.Source.empty()) {
      OS << ",\"source\":";
      writeJsonString(OS, S.Source);
    }
    OS << ",\"executions\":" << S.Executions << ",\"active_lanes\":" << S.ActiveLanes
       << ",\"bytes_touched\":" << S.Bytes << ",\"lines_64\":" << S.Lines64
       << ",\"lines_128\":" << S.Lines128 << ",\"lanes_per_line\":"
       << format("%.2f", S.Lines128 ? double(S.ActiveLanes) / double(S.Lines128) : 0.0)
       << ",\"coalescing\":"
       << format("%.3f", S.Lines64 ? double(S.IdealLines64) / double(S.Lines64) : 0.0)
       << ",\"strides\":{";
    std::vector<std::pair<uint64_t, int64_t>> ByCount;
    for (auto &[Stride, Count] : S.Strides)
      ByCount.push_back({Count, Stride});
    llvm::sort(ByCount, [](auto &A, auto &B) {
      return A.first != B.first ? A.first > B.first : A.second < B.second;
    });
    ListSeparator StrideSep(",");
    for (size_t I = 0; I < ByCount.size() && I < 16; ++I)
      OS << StrideSep << "\"" << ByCount[I].second << "\":" << ByCount[I].first;
    OS << "},\"other_strides\":" << S.OtherStrides << '}';
  }
  OS << "\n]}\n";
}

} // namespace stinkytofu::trace
