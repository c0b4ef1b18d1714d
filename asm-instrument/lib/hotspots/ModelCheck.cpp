//===- ModelCheck.cpp - The cycle estimate against a measurement ----------===//
#include "asm-instrument/hotspots/ModelCheck.h"
#include "asm-instrument/trace/JsonWriting.h"
#include "stinkytofu/analysis/CycleEstimate.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <cmath>

using namespace llvm;

namespace stinkytofu::hotspots {

namespace {

struct Comparison {
  const GroupRow *Row;
  double Measured = 0; ///< Cycles per execution.
  uint64_t Estimate = 0;
  double error() const { return (double(Estimate) - Measured) / Measured; }
};

struct Distribution {
  size_t N = 0;
  double Min = 0, P10 = 0, Median = 0, P90 = 0, Max = 0, MeanAbs = 0, WeightedAbs = 0;
};

Distribution distribution(ArrayRef<Comparison> Cs) {
  Distribution D;
  D.N = Cs.size();
  if (Cs.empty())
    return D;
  std::vector<double> E;
  double Weight = 0;
  for (const Comparison &C : Cs) {
    E.push_back(C.error());
    D.MeanAbs += std::fabs(C.error());
    double W = double(C.Row->Counts.Cycles + C.Row->Counts.Idle);
    D.WeightedAbs += W * std::fabs(C.error());
    Weight += W;
  }
  llvm::sort(E);
  auto Q = [&](double F) { return E[size_t(F * double(E.size() - 1) + 0.5)]; };
  D.Min = E.front();
  D.P10 = Q(0.1);
  D.Median = Q(0.5);
  D.P90 = Q(0.9);
  D.Max = E.back();
  D.MeanAbs /= double(E.size());
  D.WeightedAbs = Weight ? D.WeightedAbs / Weight : 0;
  return D;
}

std::string pct(double V) { return formatv("{0}", format("%+.1f%%", 100.0 * V)).str(); }

void printTable(raw_ostream &OS, StringRef Title, ArrayRef<Comparison> Cs, StringRef File) {
  if (Cs.empty())
    return;
  bool Loops = Cs.front().Row->What == GroupRow::LoopRow;
  OS << "\n" << Title << "\n"
     << format("%11s %12s %9s %9s  %s\n", Loops ? "iterations" : "executions",
               Loops ? "measured/it" : "measured", "estimate", "error", Loops ? "loop" : "block");
  for (const Comparison &C : Cs)
    OS << format("%11llu %12.1f %9llu %9s  ", (unsigned long long)C.Row->Executions, C.Measured,
                 (unsigned long long)C.Estimate, pct(C.error()).c_str())
       << C.Row->Name << " (" << File << ":" << C.Row->Line << ", " << C.Row->Parent->name()
       << ")\n";
}

void printDistribution(raw_ostream &OS, StringRef What, const Distribution &D) {
  if (!D.N)
    return;
  OS << format("  %-6s n=%-4zu min %s  p10 %s  median %s  p90 %s  max %s  mean |error| %.1f%%  "
               "cycle-weighted |error| %.1f%%\n",
               What.str().c_str(), D.N, pct(D.Min).c_str(), pct(D.P10).c_str(),
               pct(D.Median).c_str(), pct(D.P90).c_str(), pct(D.Max).c_str(), 100 * D.MeanAbs,
               100 * D.WeightedAbs);
}

void writeJson(raw_ostream &OS, StringRef Key, ArrayRef<Comparison> Cs, const Distribution &D) {
  OS << "\"" << Key << "\":{\"rows\":[";
  ListSeparator Sep(",");
  for (const Comparison &C : Cs) {
    OS << Sep << "{\"name\":";
    trace::writeJsonString(OS, C.Row->Name);
    OS << ",\"function\":";
    trace::writeJsonString(OS, C.Row->Parent->name());
    OS << ",\"line\":" << C.Row->Line << ",\"executions\":" << C.Row->Executions
       << format(",\"measured\":%.3f,\"estimate\":%llu,\"error\":%.6f}", C.Measured,
                 (unsigned long long)C.Estimate, C.error());
  }
  OS << format("],\"distribution\":{\"n\":%zu,\"min\":%.6f,\"p10\":%.6f,\"median\":%.6f,"
               "\"p90\":%.6f,\"max\":%.6f,\"mean_abs\":%.6f,\"weighted_abs\":%.6f}}",
               D.N, D.Min, D.P10, D.Median, D.P90, D.Max, D.MeanAbs, D.WeightedAbs);
}

} // namespace

void printModelCheck(const Hotspots &H, SourceMap &Map, bool Json, raw_ostream &OS) {
  AnalysisManager AM;
  std::vector<Comparison> Blocks, Loops;
  std::vector<std::string> Skipped;
  auto Measured = [](const GroupRow &R) {
    return double(R.Counts.Cycles + R.Counts.Idle) / double(R.Executions);
  };
  for (Function &F : Map.module().functions()) {
    if (!Map.placement(F))
      continue;
    Expected<CycleEstimate &> E = AM.getResult<EstimateAsmCycles>(F);
    if (!E) {
      Skipped.push_back(F.name().str() + ": " + toString(E.takeError()));
      continue;
    }
    for (const GroupRow &R : H.Blocks)
      if (R.Parent == &F && R.Executions)
        Blocks.push_back({&R, Measured(R), E->block(*R.First).Cycles});
    for (const GroupRow &R : H.Loops)
      if (R.Parent == &F && R.Executions)
        for (const LoopCycles &L : E->loops())
          if (L.Header == R.First)
            Loops.push_back({&R, Measured(R), L.Body});
  }
  // Largest measured share first, as in the hotspot tables (H's order).
  Distribution DB = distribution(Blocks), DL = distribution(Loops);
  std::string File = sys::path::filename(Map.path()).str();
  if (Json) {
    OS << "{";
    writeJson(OS, "blocks", Blocks, DB);
    OS << ",";
    writeJson(OS, "loops", Loops, DL);
    OS << "}\n";
    return;
  }
  OS << "model check: " << File << ": " << Blocks.size() << " executed blocks, " << Loops.size()
     << " executed loops; error = (estimate - measured) / measured\n";
  for (const std::string &S : Skipped)
    OS << "skipped " << S << "\n";
  printTable(OS, "blocks (cycles per execution)", Blocks, File);
  printTable(OS, "loops (cycles per iteration)", Loops, File);
  OS << "\nerror distribution\n";
  printDistribution(OS, "blocks", DB);
  printDistribution(OS, "loops", DL);
}

} // namespace stinkytofu::hotspots
