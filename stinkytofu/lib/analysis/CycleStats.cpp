//===- CycleStats.cpp - The cycle table of --stats ------------------------===//
#include "stinkytofu/analysis/CycleStats.h"

#include "stinkytofu/analysis/CycleEstimate.h"
#include "stinkytofu/analysis/HazardGaps.h"
#include "llvm/Support/Format.h"
#include <cstring>
#include <optional>
#include <string>

using namespace llvm;

namespace stinkytofu {

namespace {

struct CycleRow {
  std::string Function;
  std::optional<uint64_t> Path, Stalls, Loops, LoopBody;
  uint64_t HazardWaits = 0, HazardCycles = 0;
};

} // namespace

void printCycleStats(Module &M, raw_ostream &OS) {
  AnalysisManager AM;
  std::vector<CycleRow> Rows;
  CycleRow Total;
  Total.Function = "<total>";
  for (const Function *Printed : M.functionsInPrintOrder()) {
    // The analysis manager keys on mutable functions; nothing is changed.
    Function *F = const_cast<Function *>(Printed);
    CycleRow R;
    R.Function = F->name().str();
    if (Expected<CycleEstimate &> E = AM.getResult<EstimateAsmCycles>(*F)) {
      R.Path = E->pathCycles();
      R.Stalls = E->pathTotals().stalls();
      R.Loops = E->loops().size();
      uint64_t Body = 0;
      for (const LoopCycles &L : E->loops())
        Body = std::max(Body, L.Body);
      R.LoopBody = Body;
      Total.Path = Total.Path.value_or(0) + *R.Path;
      Total.Stalls = Total.Stalls.value_or(0) + *R.Stalls;
      Total.Loops = Total.Loops.value_or(0) + *R.Loops;
      Total.LoopBody = std::max(Total.LoopBody.value_or(0), Body);
    } else {
      consumeError(E.takeError());
    }
    HazardGaps &G = AM.getResult<HazardGapAnalysis>(*F);
    R.HazardWaits = G.Waits.size();
    R.HazardCycles = G.totalCycles();
    Total.HazardWaits += R.HazardWaits;
    Total.HazardCycles += R.HazardCycles;
    Rows.push_back(std::move(R));
  }
  Rows.push_back(std::move(Total));

  size_t NameWidth = std::strlen("function");
  for (const CycleRow &R : Rows)
    NameWidth = std::max(NameWidth, R.Function.size());
  static const char *const Columns[] = {"path-cycles", "stalls",       "loops",
                                        "loop-body",   "hazard-waits", "hazard-cycles"};
  OS << left_justify("function", NameWidth);
  for (const char *C : Columns)
    OS << "  " << C;
  OS << "\n";
  auto Cell = [](std::optional<uint64_t> V) { return V ? std::to_string(*V) : std::string("-"); };
  for (const CycleRow &R : Rows) {
    const std::string Values[] = {Cell(R.Path),     Cell(R.Stalls),
                                  Cell(R.Loops),    Cell(R.LoopBody),
                                  Cell(R.HazardWaits), Cell(R.HazardCycles)};
    OS << left_justify(R.Function, NameWidth);
    for (size_t C = 0; C < std::size(Columns); ++C)
      OS << "  " << right_justify(Values[C], std::strlen(Columns[C]));
    OS << "\n";
  }
}

} // namespace stinkytofu
