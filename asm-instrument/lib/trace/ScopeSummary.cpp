//===- ScopeSummary.cpp - Per-scope cycle statistics (summary) ------------===//
#include "asm-instrument/trace/ScopeSummary.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include <vector>

using namespace llvm;

namespace stinkytofu::trace {

static StringRef className(MarkerClass C) {
  switch (C) {
  case MarkerClass::Function:
    return "function";
  case MarkerClass::UserScope:
    return "user";
  case MarkerClass::Point:
    return "point";
  case MarkerClass::Instruction:
    return "instruction";
  case MarkerClass::Unknown:
    break;
  }
  return "unknown";
}

void ScopeSummary::exitScope(const WaveInfo &W, ArrayRef<ScopeFrame> Stack, uint64_t End) {
  const ScopeFrame &F = Stack.back();
  Entry *&Cached = ByNameData[F.Name.data()];
  if (!Cached)
    Cached = &Scopes[F.Name];
  Entry &E = *Cached;
  E.Class = F.Class;
  E.Cycles.add(End - F.Begin);
}

void ScopeSummary::print(raw_ostream &OS, bool Csv, uint64_t Records) const {
  std::vector<const StringMapEntry<Entry> *> Rows;
  for (const auto &E : Scopes)
    Rows.push_back(&E);
  llvm::sort(Rows, [](auto *A, auto *B) {
    if (A->second.Cycles.total() != B->second.Cycles.total())
      return A->second.Cycles.total() > B->second.Cycles.total();
    return A->first() < B->first();
  });
  if (Csv) {
    OS << "scope,kind,count,total_cycles,mean_cycles,min_cycles,max_cycles,p50_cycles,"
          "p99_cycles\n";
    for (auto *R : Rows) {
      const CycleHistogram &H = R->second.Cycles;
      OS << R->first() << ',' << className(R->second.Class) << ',' << H.count() << ','
         << H.total() << ',' << format("%.1f", double(H.total()) / double(H.count())) << ','
         << H.min() << ',' << H.max() << ',' << H.percentile(50) << ',' << H.percentile(99)
         << '\n';
    }
    return;
  }
  OS << "records: " << Records << ", waves: " << Waves << ", markers: " << Markers << ", scopes: " << Scopes.size()
     << "\n";
  size_t Width = 5;
  for (auto *R : Rows)
    Width = std::max(Width, R->first().size());
  OS << left_justify("scope", Width) << "  kind      "
     << format("%8s %14s %12s %10s %10s %10s %10s\n", "count", "total", "mean", "min", "max",
               "p50", "p99");
  for (auto *R : Rows) {
    const CycleHistogram &H = R->second.Cycles;
    OS << left_justify(R->first(), Width) << "  " << left_justify(className(R->second.Class), 8)
       << format("%8llu %14llu %12.1f %10llu %10llu %10llu %10llu\n",
                 (unsigned long long)H.count(), (unsigned long long)H.total(),
                 double(H.total()) / double(H.count()), (unsigned long long)H.min(),
                 (unsigned long long)H.max(), (unsigned long long)H.percentile(50),
                 (unsigned long long)H.percentile(99));
  }
}

} // namespace stinkytofu::trace
