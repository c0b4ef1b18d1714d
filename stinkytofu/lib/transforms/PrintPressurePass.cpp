//===- PrintPressurePass.cpp - The register pressure report ---------------===//
#include "stinkytofu/transforms/PrintPressurePass.h"
#include "stinkytofu/transforms/PressurePlot.h"
#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/analysis/DescriptorBudget.h"
#include "stinkytofu/analysis/KernelAllocation.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/analysis/RegisterPressure.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace stinkytofu {

namespace {

constexpr PressureFile Files[] = {PressureFile::VGPR, PressureFile::AGPR, PressureFile::SGPR};

unsigned lineOf(const Instruction &I) { return I.location().Line; }

/// The first and last source line of the instructions of \p L (0 when none
/// has one).
std::pair<unsigned, unsigned> lineRange(const Loop &L) {
  unsigned First = 0, Last = 0;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : BB->instructions())
      if (unsigned Line = lineOf(I)) {
        First = First ? std::min(First, Line) : Line;
        Last = std::max(Last, Line);
      }
  return {First, Last};
}

/// The loop with the most live VGPRs (then SGPRs), the innermost on a tie.
const Loop *hottestLoop(const LoopInfo &LI, const RegisterPressure &P) {
  const Loop *Hot = nullptr;
  PressureCounts HotMax;
  for (const Loop *L : LI.loopsInPreorder()) {
    PressureCounts Max = P.loopMax(*L);
    auto Key = [](const PressureCounts &C) {
      return std::make_pair(C[PressureFile::VGPR] + C[PressureFile::AGPR], C[PressureFile::SGPR]);
    };
    if (!Hot || Key(Max) >= Key(HotMax)) {
      Hot = L;
      HotMax = Max;
    }
  }
  return Hot;
}

/// What the kernel must give up for one more wave, for one resource: the
/// most it may hold (registers, or LDS bytes per workgroup) and how much
/// less that is; for registers, which ones and the lines where most of
/// them are live.
struct NextWave {
  OccupancyLimit Resource;
  unsigned AtMost, Free;
  /// "vgpr", "agpr" (gfx908 when its AGPRs are the larger file),
  /// "vgpr+agpr" (a unified file with AGPRs), "sgpr"; empty for LDS.
  StringRef Registers;
  std::vector<unsigned> MaxLines;
};

/// The registers a VGPR limit is about, as NextWave::Registers says.
SmallVector<PressureFile, 2> limitingVectorFiles(const HardwareModel &HW,
                                                 const RegisterPressure &P,
                                                 const KernelAllocation &A) {
  const PressureCounts &Top = P.highestUsed();
  unsigned AGPRs = std::max(A.AGPRs.value_or(0), Top[PressureFile::AGPR]);
  if (!HW.hasAGPRs() || AGPRs == 0)
    return {PressureFile::VGPR};
  if (HW.maxVGPRs() > 256) // unified: both count
    return {PressureFile::VGPR, PressureFile::AGPR};
  // gfx908: the larger file is allocated.
  if (Top[PressureFile::AGPR] > Top[PressureFile::VGPR])
    return {PressureFile::AGPR};
  return {PressureFile::VGPR};
}

/// What to give up for one more wave: every resource that allows fewer,
/// the limiting one first. None at the wave slots, or when the workgroup
/// size alone (or a resource at any amount) does not allow it.
std::vector<NextWave> nextWave(const RegisterPressure &P, const KernelAllocation &A,
                               const OccupancyEstimate &E) {
  const HardwareModel &HW = P.liveness().units().target().hardware();
  const KernelResources &R = A.Resources;
  unsigned Target = E.waves() + 1;
  if (Target > E.MaxWaves || E.ByWorkgroup < Target)
    return {};
  auto WithLines = [&](NextWave N, ArrayRef<PressureFile> Files) {
    for (PressureFile F : Files)
      for (const Instruction *I : P.maxPoints(F))
        N.MaxLines.push_back(lineOf(*I));
    llvm::sort(N.MaxLines);
    N.MaxLines.erase(std::unique(N.MaxLines.begin(), N.MaxLines.end()), N.MaxLines.end());
    return N;
  };
  std::vector<NextWave> Needed;
  if (E.ByVGPRs < Target) {
    unsigned Most = vgprsForWaves(HW, Target, R.Wave64);
    if (!Most)
      return {};
    SmallVector<PressureFile, 2> Files = limitingVectorFiles(HW, P, A);
    StringRef Names = Files.size() == 2 ? "vgpr+agpr" : pressureFileName(Files.front());
    Needed.push_back(WithLines({OccupancyLimit::VGPR, Most, R.VGPRs - Most, Names, {}}, Files));
  }
  if (E.BySGPRs < Target) {
    unsigned Most = sgprsForWaves(HW, Target);
    if (!Most || Most == ~0u)
      return {};
    Needed.push_back(
        WithLines({OccupancyLimit::SGPR, Most, R.SGPRs - Most, "sgpr", {}}, {PressureFile::SGPR}));
  }
  if (E.ByLDS < Target) {
    std::optional<unsigned> Most = ldsForWaves(HW, R, Target);
    if (!Most)
      return {};
    Needed.push_back(NextWave{OccupancyLimit::LDS, *Most, R.LdsBytes - *Most, "", {}});
  }
  return Needed;
}

/// "11, 17, 20" (at most 8 lines, then how many more).
std::string lineList(ArrayRef<unsigned> Lines) {
  std::string Text;
  raw_string_ostream OS(Text);
  constexpr size_t Shown = 8;
  for (size_t I = 0; I < Lines.size() && I < Shown; ++I)
    OS << (I ? ", " : "") << Lines[I];
  if (Lines.size() > Shown)
    OS << " and " << Lines.size() - Shown << " more";
  return Text;
}

/// "at most 84 vgprs allocated (free 31; the most live at lines 7, 9)",
/// "at most 13107 bytes of LDS per workgroup (free 3277)".
std::string describe(const NextWave &N) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "at most " << N.AtMost << " ";
  if (N.Resource == OccupancyLimit::LDS) {
    OS << "bytes of LDS per workgroup (free " << N.Free << ")";
    return Text;
  }
  OS << (N.Registers == "vgpr+agpr" ? "vgprs and agprs" : (N.Registers + "s").str())
     << " allocated (free " << N.Free << "; the most live at lines " << lineList(N.MaxLines)
     << ")";
  return Text;
}

/// "256" or "1-1024".
std::string workgroupSizes(const KernelResources &R) {
  if (R.MinWorkgroupSize == R.MaxWorkgroupSize)
    return std::to_string(R.MaxWorkgroupSize);
  return std::to_string(R.MinWorkgroupSize) + "-" + std::to_string(R.MaxWorkgroupSize);
}

/// The VGPR map of each instruction: one character per VGPR of [0, Width),
/// '^' written, 'v' read, 'x' read and written, ':' live and untouched,
/// ' ' free. The row and the sets are reused from one line to the next.
class VgprMap {
public:
  VgprMap(const RegisterPressure &P, unsigned Width)
      : P(P), L(P.liveness()), Width(Width), Access(L.units().none()) {}

  StringRef row(const Instruction &I) {
    const BitVector &Live = L.liveBefore(I);
    // A register without a value yet (RegisterPressure::valuelessBefore) is
    // free, and its read is none.
    const BitVector *Valueless = P.valuelessBefore(I);
    auto Held = [&](unsigned R) {
      return P.unitMap().test(Live, PressureFile::VGPR, R) &&
             !(Valueless && P.unitMap().test(*Valueless, PressureFile::VGPR, R));
    };
    Row.resize(Width);
    for (unsigned R = 0; R < Width; ++R)
      Row[R] = Held(R) ? ':' : ' ';
    // Each update is idempotent: a register comes once per half.
    Access.reset();
    L.addReadsOf(I, Access);
    if (Valueless)
      Access.reset(*Valueless);
    mark(Access, [](char) { return 'v'; });
    Access.reset();
    L.addWritesOf(I, Access);
    mark(Access, [](char C) { return C == 'v' || C == 'x' ? 'x' : '^'; });
    return Row;
  }

private:
  template <typename UpdateT> void mark(const BitVector &Units, UpdateT Update) {
    P.unitMap().forEachRegisterUnit(Units, PressureFile::VGPR, [&](unsigned R) {
      if (R < Width)
        Row[R] = Update(Row[R]);
    });
  }

  const RegisterPressure &P;
  const Liveness &L;
  unsigned Width;
  std::string Row;
  BitVector Access;
};

void printCounts(raw_ostream &OS, const PressureCounts &C) {
  OS << "vgpr " << C[PressureFile::VGPR] << " agpr " << C[PressureFile::AGPR] << " sgpr "
     << C[PressureFile::SGPR];
}

void printListing(raw_ostream &OS, const RegisterPressure &P) {
  const Function &F = P.liveness().function();
  unsigned Width = P.highestUsed()[PressureFile::VGPR];
  OS << "  line  vgpr agpr sgpr  |" << std::string(Width, ' ') << "|  instruction\n";
  VgprMap Map(P, Width);
  for (const BasicBlock &BB : F.blocks()) {
    if (BB.hasLabel())
      OS << "                          " << BB.label() << ":\n";
    for (const Instruction &I : BB.instructions()) {
      PressureCounts C = P.at(I);
      // format_decimal, not format(): no snprintf on each of ~10,000 lines.
      OS << format_decimal(lineOf(I), 6) << format_decimal(C[PressureFile::VGPR], 6)
         << format_decimal(C[PressureFile::AGPR], 5) << format_decimal(C[PressureFile::SGPR], 5)
         << "  |" << Map.row(I) << "|  "
         << (I.sourceText().empty() ? I.mnemonic() : I.sourceText().trim()) << "\n";
    }
  }
}

void printLoops(raw_ostream &OS, const RegisterPressure &P, const LoopInfo &LI) {
  if (LI.empty())
    return;
  const Loop *Hot = hottestLoop(LI, P);
  OS << "loops:\n";
  for (const Loop *L : LI.loopsInPreorder()) {
    auto [First, Last] = lineRange(*L);
    OS << "  " << std::string(2 * (L->depth() - 1), ' ') << L->header()->name() << ": depth "
       << L->depth() << ", lines " << First << "-" << Last << ", " << L->size()
       << (L->size() == 1 ? " block" : " blocks") << ", max ";
    printCounts(OS, P.loopMax(*L));
    OS << (L == Hot ? "  (hottest)" : "") << "\n";
  }
}

const Instruction *lastLine(const ParkedLanes &L) {
  return L.LastRead ? L.LastRead : L.FirstWrite;
}

/// "v10: 2 lane writes, lines 10-17" for each VGPR parking values (from
/// its first v_writelane_b32 to its last read).
void printParkedLanes(raw_ostream &OS, const RegisterPressure &P) {
  if (P.parkedLanes().empty())
    return;
  OS << "parked in lanes (first lane write to last read):\n";
  for (const ParkedLanes &L : P.parkedLanes())
    OS << "  v" << L.VGPR << ": " << L.Writes << " lane write" << (L.Writes == 1 ? "" : "s")
       << ", lines " << lineOf(*L.FirstWrite) << "-" << lineOf(*lastLine(L)) << "\n";
}

json::Array parkedLanesJSON(const RegisterPressure &P) {
  json::Array Out;
  for (const ParkedLanes &L : P.parkedLanes())
    Out.push_back(json::Object{
        {"vgpr", L.VGPR},
        {"lane_writes", L.Writes},
        {"first_line", lineOf(*L.FirstWrite)},
        {"last_line", lineOf(*lastLine(L))}});
  return Out;
}

void printOccupancy(raw_ostream &OS, const RegisterPressure &P, const KernelAllocation &A) {
  const HardwareModel &HW = P.liveness().units().target().hardware();
  OccupancyEstimate E = estimateOccupancy(HW, A.Resources);
  const KernelResources &R = A.Resources;
  const PressureCounts &Live = P.max();
  OS << "occupancy (" << HW.processor() << ", allocation from "
     << allocationSourceName(A.Source) << "):\n"
     << "  resource  allocated  live max  waves\n"
     << format("  vgpr      %9u  %8u  %5u\n", R.VGPRs, Live[PressureFile::VGPR], E.ByVGPRs);
  if (HW.hasAGPRs())
    OS << format("  agpr      %9s  %8u\n", A.AGPRs ? std::to_string(*A.AGPRs).c_str() : "-",
                 Live[PressureFile::AGPR]);
  OS << format("  sgpr      %9u  %8u  %5u\n", R.SGPRs, Live[PressureFile::SGPR], E.BySGPRs)
     << format("  lds       %9u            %5u\n", R.LdsBytes, E.ByLDS)
     << format("  workgroup %9s            %5u  work-items, from %s%s\n",
               workgroupSizes(R).c_str(), E.ByWorkgroup, A.WorkgroupSizeSource.str().c_str(),
               R.CuMode && HW.occupancy().HasCuMode ? ", CU mode" : "")
     << "  waves per SIMD: " << E.waves() << " of " << E.MaxWaves << ", limited by "
     << occupancyLimitName(E.limitedBy()) << "; by registers alone: " << E.byRegisters()
     << "\n";
  std::vector<NextWave> Needed = nextWave(P, A, E);
  for (size_t I = 0; I < Needed.size(); ++I)
    OS << (I ? "                 and " : "  one more wave: ") << describe(Needed[I]) << "\n";
}

json::Object counts(const PressureCounts &C) {
  json::Object O;
  for (PressureFile F : Files)
    O[pressureFileName(F)] = C[F];
  return O;
}

json::Object kernelJSON(const RegisterPressure &P, const LoopInfo &LI,
                        const KernelAllocation &A, unsigned UnknownCalls) {
  const HardwareModel &HW = P.liveness().units().target().hardware();
  const KernelResources &R = A.Resources;
  OccupancyEstimate E = estimateOccupancy(HW, R);
  json::Object O;
  O["kernel"] = P.liveness().function().name();
  O["target"] = HW.processor();
  O["occupancy"] = E.waves();
  O["occupancy_by_registers"] = E.byRegisters();
  O["limited_by"] = occupancyLimitName(E.limitedBy());
  O["max_waves"] = E.MaxWaves;
  O["waves_by"] = json::Object{{"vgpr", E.ByVGPRs},
                               {"sgpr", E.BySGPRs},
                               {"lds", E.ByLDS},
                               {"workgroup", E.ByWorkgroup}};
  O["workgroup_size"] = json::Object{{"min", R.MinWorkgroupSize},
                                     {"max", R.MaxWorkgroupSize},
                                     {"source", A.WorkgroupSizeSource},
                                     {"cu_mode", R.CuMode && HW.occupancy().HasCuMode}};
  json::Object Alloc{{"source", allocationSourceName(A.Source)},
                     {"vgpr", R.VGPRs},
                     {"sgpr", R.SGPRs},
                     {"lds", R.LdsBytes}};
  if (A.AGPRs)
    Alloc["agpr"] = *A.AGPRs;
  O["allocated"] = std::move(Alloc);
  O["live_max"] = counts(P.max());
  O["parked_lanes"] = parkedLanesJSON(P);
  O["unknown_calls"] = UnknownCalls;
  json::Object MaxLines;
  for (PressureFile F : Files) {
    json::Array Lines;
    for (const Instruction *I : P.maxPoints(F))
      Lines.push_back(lineOf(*I));
    MaxLines[pressureFileName(F)] = std::move(Lines);
  }
  O["max_lines"] = std::move(MaxLines);
  json::Array Loops;
  for (const Loop *L : LI.loopsInPreorder()) {
    auto [First, Last] = lineRange(*L);
    json::Object J = counts(P.loopMax(*L));
    J["header"] = L->header()->name();
    J["depth"] = L->depth();
    J["first_line"] = First;
    J["last_line"] = Last;
    Loops.push_back(std::move(J));
  }
  O["loops"] = std::move(Loops);
  const Loop *Hot = hottestLoop(LI, P);
  O["hottest_loop"] = Hot ? json::Value(Hot->header()->name()) : json::Value(nullptr);
  // The first resource to free; "and" the others that must go too.
  std::vector<NextWave> Needed = nextWave(P, A, E);
  auto NeededJSON = [](const NextWave &N) {
    json::Object J{{"resource", occupancyLimitName(N.Resource)},
                   {"allocate_at_most", N.AtMost},
                   {"free", N.Free}};
    if (!N.Registers.empty()) {
      J["registers"] = N.Registers;
      J["max_lines"] = json::Array(N.MaxLines);
    }
    return J;
  };
  if (Needed.empty()) {
    O["next_wave"] = nullptr;
  } else {
    json::Object First = NeededJSON(Needed.front());
    if (Needed.size() > 1) {
      json::Array And;
      for (size_t I = 1; I < Needed.size(); ++I)
        And.push_back(NeededJSON(Needed[I]));
      First["and"] = std::move(And);
    }
    O["next_wave"] = std::move(First);
  }
  return O;
}

PressurePlot kernelPlot(const RegisterPressure &P, const LoopInfo &LI,
                        const KernelAllocation &A) {
  const HardwareModel &HW = P.liveness().units().target().hardware();
  OccupancyEstimate E = estimateOccupancy(HW, A.Resources);
  const Function &F = P.liveness().function();
  PressurePlot Plot;
  DenseMap<const BasicBlock *, std::pair<unsigned, unsigned>> BlockSpan;
  for (const BasicBlock &BB : F.blocks()) {
    unsigned First = Plot.VectorLive.size();
    for (const Instruction &I : BB.instructions()) {
      PressureCounts C = P.at(I);
      Plot.VectorLive.push_back(C[PressureFile::VGPR] + C[PressureFile::AGPR]);
      Plot.ScalarLive.push_back(C[PressureFile::SGPR]);
    }
    if (Plot.VectorLive.size() > First)
      BlockSpan[&BB] = {First, unsigned(Plot.VectorLive.size() - 1)};
  }
  for (const Loop *L : LI.loopsInPreorder()) {
    PressurePlot::Span S;
    bool Any = false;
    for (const BasicBlock *BB : L->blocks())
      if (auto It = BlockSpan.find(BB); It != BlockSpan.end()) {
        S.First = Any ? std::min(S.First, It->second.first) : It->second.first;
        S.Last = Any ? std::max(S.Last, It->second.second) : It->second.second;
        Any = true;
      }
    if (!Any)
      continue;
    PressureCounts Max = P.loopMax(*L);
    auto [FirstLine, LastLine] = lineRange(*L);
    S.Name = L->header()->name().str();
    S.Note = formatv("loop {0}: lines {1}-{2}, max vgpr {3} agpr {4} sgpr {5}", S.Name,
                     FirstLine, LastLine, Max[PressureFile::VGPR], Max[PressureFile::AGPR],
                     Max[PressureFile::SGPR]);
    Plot.Loops.push_back(std::move(S));
  }
  Plot.AllocatedVGPRs = A.Resources.VGPRs;
  for (const NextWave &N : nextWave(P, A, E))
    if (N.Resource == OccupancyLimit::VGPR)
      Plot.NextWaveVGPRs = N.AtMost;
  unsigned MostLive = Plot.VectorLive.empty()
                         ? 0
                         : *std::max_element(Plot.VectorLive.begin(), Plot.VectorLive.end());
  Plot.Title = formatv("{0} ({1}): {2} waves per SIMD, limited by {3}; VGPRs and AGPRs live "
                       "at most {4}, allocated {5}",
                       F.name(), HW.processor(), E.waves(), occupancyLimitName(E.limitedBy()),
                       MostLive, A.Resources.VGPRs);
  return Plot;
}

} // namespace

Error printModulePressure(Module &M, AnalysisManager &AM, raw_ostream &OS,
                          const PressureReportOptions &Options, const DiagnosticHandler &Warn) {
  PressureFormat Format = Options.Format;
  auto AllocationOf = [&](const RegisterPressure &P) {
    return kernelAllocation(P, Options.WorkgroupSize);
  };
  // Calls of unknown callees, made by a function or by one it calls: they
  // make everything live before the call that reaches them.
  DenseMap<const Function *, unsigned> DirectUnknown;
  for (Function &F : M.functions()) {
    Expected<RegisterPressure &> P = AM.getResult<RegisterPressureAnalysis>(F);
    if (!P)
      return P.takeError();
    DirectUnknown[&F] = P->unknownCalls();
    if (!F.isEntry())
      continue;
    if (Error E = checkDescriptorBudget(*P))
      return E;
    if (std::optional<SourceDiagnostic> W = overAllocationWarning(*P))
      Warn(*W);
  }
  CallGraph CG(M);
  auto UnknownCalls = [&](const Function &F) {
    unsigned N = DirectUnknown.lookup(&F);
    for (const Function *Callee : CG.transitiveCallees(F))
      N += DirectUnknown.lookup(Callee);
    return N;
  };
  json::Array Kernels;
  std::vector<PressurePlot> Plots;
  for (Function &F : M.functions()) {
    Expected<RegisterPressure &> P = AM.getResult<RegisterPressureAnalysis>(F);
    if (!P)
      return P.takeError();
    Expected<LoopInfo &> LI = AM.getResult<LoopAnalysis>(F);
    if (!LI)
      return LI.takeError();
    if (Format == PressureFormat::JSON) {
      if (F.isEntry())
        Kernels.push_back(kernelJSON(*P, *LI, AllocationOf(*P), UnknownCalls(F)));
      continue;
    }
    if (Format == PressureFormat::SVG) {
      if (F.isEntry())
        Plots.push_back(kernelPlot(*P, *LI, AllocationOf(*P)));
      continue;
    }
    OS << "pressure of @" << F.name() << ": max ";
    printCounts(OS, P->max());
    if (unsigned N = UnknownCalls(F))
      OS << " (" << N << " calls of unknown callees: everything live before them)";
    OS << "\n";
    printListing(OS, *P);
    printLoops(OS, *P, *LI);
    printParkedLanes(OS, *P);
    if (F.isEntry())
      printOccupancy(OS, *P, AllocationOf(*P));
  }
  if (Format == PressureFormat::JSON)
    OS << formatv("{0:2}", json::Value(std::move(Kernels))) << "\n";
  if (Format == PressureFormat::SVG)
    writePressureSvg(OS, Plots);
  return Error::success();
}

namespace {

class PrintPressurePass final : public Pass {
public:
  explicit PrintPressurePass(PressureReportOptions Options) : Options(Options) {}
  StringRef name() const override { return "PrintPressure"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &) override {
    if (Error E = printModulePressure(M, AM, context().dumpStream(), Options,
                                      [this](const SourceDiagnostic &D) { context().diagnose(D); }))
      return std::move(E);
    return PreservedAnalyses::all();
  }

private:
  PressureReportOptions Options;
};

} // namespace

Expected<std::unique_ptr<Pass>> createPrintPressurePass(const PassArguments &Args) {
  PressureReportOptions Options;
  for (const auto &[Key, Value] : Args) {
    std::optional<PressureFormat> Named =
        Value == "text"   ? std::optional(PressureFormat::Text)
        : Value == "json" ? std::optional(PressureFormat::JSON)
        : Value == "svg"  ? std::optional(PressureFormat::SVG)
                          : std::nullopt;
    unsigned Size = 0;
    if (Key == "format" && Named) {
      Options.Format = *Named;
    } else if (Key == "workgroup-size" && !StringRef(Value).getAsInteger(10, Size) && Size &&
               Size <= MaxWorkgroupSize) {
      Options.WorkgroupSize = Size;
    } else {
      return createStringError(inconvertibleErrorCode(),
                               "takes format=text|json|svg and workgroup-size=N (1 to " +
                                   Twine(MaxWorkgroupSize) + "), not '" + Key +
                                   (Value.empty() ? "" : "=" + Value) + "'");
    }
  }
  return std::make_unique<PrintPressurePass>(Options);
}

} // namespace stinkytofu
