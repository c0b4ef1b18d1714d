//===- HotspotsPrinter.cpp - The hotspot tables, JSON and the listing -----===//
#include "asm-instrument/hotspots/Hotspots.h"
#include "asm-instrument/trace/JsonWriting.h"
#include "asm-instrument/trace/WaveInstructions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace llvm;
using stinkytofu::trace::InstructionCounts;

namespace stinkytofu::hotspots {

namespace {

using trace::SampleCounts;

/// The part of the capture's cycles (samples, for PC sampling) in a row.
double share(const Hotspots &H, const InstructionCounts &C, const SampleCounts &S) {
  uint64_t Total = H.weight(H.Total, H.TotalSamples);
  return Total ? double(H.weight(C, S)) / double(Total) : 0.0;
}

std::string percent(const Hotspots &H, const InstructionCounts &C, const SampleCounts &S) {
  return formatv("{0:F1}%", 100.0 * share(H, C, S)).str();
}

std::string where(const SourceMap *Map, unsigned Line) {
  return (sys::path::filename(Map->path()) + ":" + Twine(Line)).str();
}

std::string address(const trace::ProfiledInstruction &P) {
  return formatv("{0}:{1:x}", P.CodeObject, P.Address).str();
}

/// The leading columns every table shares.
void countColumns(raw_ostream &OS, const InstructionCounts &C, const SampleCounts &S,
                  const Hotspots &H) {
  OS << format("%10llu %7s %9llu %9llu", (unsigned long long)C.Cycles,
               percent(H, C, S).c_str(), (unsigned long long)C.Stall,
               (unsigned long long)C.Idle);
}

void countHeader(raw_ostream &OS) {
  OS << format("%10s %7s %9s %9s", "cycles", "share", "stall", "idle");
}

size_t shown(size_t N, unsigned Top) { return Top ? std::min<size_t>(N, Top) : N; }

void groupTable(raw_ostream &OS, StringRef Title, ArrayRef<GroupRow> Rows, const Hotspots &H,
                const SourceMap *Map, unsigned Top) {
  if (Rows.empty())
    return;
  bool Loops = Rows.front().What == GroupRow::LoopRow;
  bool PerExec = Rows.front().What != GroupRow::FunctionRow;
  OS << "\n" << Title;
  if (shown(Rows.size(), Top) < Rows.size())
    OS << " (top " << Top << " of " << Rows.size() << ")";
  OS << "\n";
  countHeader(OS);
  OS << format(" %11s", Loops ? "iterations" : "executions");
  if (PerExec)
    OS << format(" %12s", Loops ? "cycles/iter" : "cycles/exec");
  OS << "  " << (Loops ? "loop" : Rows.front().What == GroupRow::BlockRow ? "block" : "function")
     << "\n";
  for (const GroupRow &R : Rows.take_front(shown(Rows.size(), Top))) {
    countColumns(OS, R.Counts, R.Samples, H);
    OS << format(" %11llu", (unsigned long long)R.Executions);
    if (PerExec) {
      if (R.Executions)
        OS << format(" %12.1f", double(R.Counts.Cycles) / double(R.Executions));
      else
        OS << format(" %12s", "-");
    }
    OS << "  " << R.Name << " (" << where(Map, R.Line);
    if (Loops)
      OS << ", depth " << R.Depth;
    if (R.What == GroupRow::BlockRow)
      OS << ", " << R.Parent->name();
    OS << ")\n";
  }
}

StringRef sourceText(const SourceMap &Map, unsigned Line) {
  return Line && Line <= Map.lines().size() ? StringRef(Map.lines()[Line - 1]).trim()
                                             : StringRef();
}

void writeCounts(raw_ostream &OS, const InstructionCounts &C, const SampleCounts &S,
                 const Hotspots &H) {
  OS << "\"executions\":" << C.Executions << ",\"cycles\":" << C.Cycles << ",\"stall\":"
     << C.Stall << ",\"idle\":" << C.Idle << ",\"share\":" << format("%.6f", share(H, C, S));
  if (H.BySamples)
    OS << ",\"issued_samples\":" << S.Issued << ",\"stalled_samples\":" << S.Stalled;
}

void writeGroups(raw_ostream &OS, StringRef Key, ArrayRef<GroupRow> Rows, const Hotspots &H) {
  OS << ",\n\"" << Key << "\":[";
  ListSeparator Sep(",\n");
  for (const GroupRow &R : Rows) {
    OS << Sep << "{\"name\":";
    trace::writeJsonString(OS, R.Name);
    OS << ",\"function\":";
    trace::writeJsonString(OS, R.Parent->name());
    OS << ",\"line\":" << R.Line;
    if (R.What == GroupRow::LoopRow)
      OS << ",\"depth\":" << R.Depth << ",\"iterations\":" << R.Executions;
    else
      OS << ",\"entries\":" << R.Executions;
    OS << ",";
    writeCounts(OS, R.Counts, R.Samples, H);
    OS << "}";
  }
  OS << "]";
}

} // namespace

void printHotspots(const Hotspots &H, const trace::InstructionProfile &P, const SourceMap *Map,
                   const PrintOptions &Opts, raw_ostream &OS) {
  OS << "capture: " << P.Dispatches << (P.Dispatches == 1 ? " dispatch, " : " dispatches, ")
     << P.WaveFiles << " wave files, " << P.Rows << " instruction rows (counts from "
     << (P.FromWaveRows ? "the wave files" : "code.json") << ")\n";
  OS << "total: " << H.Total.Cycles << " cycles, " << H.Total.Stall << " stall, "
     << H.Total.Idle << " idle, " << H.Total.Executions << " instructions executed\n";
  if (H.BySamples)
    OS << "PC samples: " << H.TotalSamples.Issued << " issued, " << H.TotalSamples.Stalled
       << " stalled (no cycles in the capture: rows ranked and shared by samples)\n";
  if (Map) {
    size_t Placed = 0, Executed = 0;
    for (const Function &F : Map->module().functions())
      Placed += Map->placement(F).has_value();
    for (const InstructionRow &R : H.Instructions)
      Executed += R.Profile->Counts.Executions || H.weight(R.Profile->Counts, R.Profile->Samples);
    OS << "source: " << sys::path::filename(Map->path()) << ": " << Placed << " of "
       << Map->module().functions().size() << " functions placed, "
       << Executed - H.Unmapped.size() << " of " << Executed
       << " executed instructions mapped\n";
    if (!H.Unmapped.empty()) {
      OS << "unmapped:";
      for (const trace::ProfiledInstruction *U : ArrayRef(H.Unmapped).take_front(8))
        OS << " " << address(*U) << " (" << U->Isa << ")";
      if (H.Unmapped.size() > 8)
        OS << " and " << H.Unmapped.size() - 8 << " more";
      OS << "\n";
    }
    groupTable(OS, "functions", H.Functions, H, Map, Opts.Top);
    groupTable(OS, "loops", H.Loops, H, Map, Opts.Top);
    groupTable(OS, "blocks", H.Blocks, H, Map, Opts.Top);
  }

  OS << "\ninstructions";
  if (shown(H.Instructions.size(), Opts.Top) < H.Instructions.size())
    OS << " (top " << Opts.Top << " of " << H.Instructions.size() << ")";
  OS << "\n";
  countHeader(OS);
  OS << format(" %11s", "executions");
  if (P.HasSamples)
    OS << format(" %8s %8s", "issued", "stalled");
  OS << format("  %-8s %-14s", "category", Map ? "line" : "address") << "instruction\n";
  for (const InstructionRow &R : ArrayRef(H.Instructions).take_front(shown(H.Instructions.size(), Opts.Top))) {
    const trace::ProfiledInstruction &PI = *R.Profile;
    countColumns(OS, PI.Counts, PI.Samples, H);
    OS << format(" %11llu", (unsigned long long)PI.Counts.Executions);
    if (P.HasSamples)
      OS << format(" %8llu %8llu", (unsigned long long)PI.Samples.Issued,
                   (unsigned long long)PI.Samples.Stalled);
    std::string Where = R.line() ? where(Map, R.line()) : address(PI);
    OS << format("  %-8s %-14s", trace::categoryName(PI.Category).str().c_str(), Where.c_str());
    if (R.Inst)
      OS << sourceText(*Map, R.Inst->location().Line);
    else if (R.PaddingOf)
      OS << PI.Isa << "  ; alignment padding before " << R.PaddingOf->name();
    else
      OS << PI.Isa << (PI.Source.empty() ? "" : "  ; " + PI.Source);
    // The capture's own account of what a wait waited for.
    for (size_t I = 0; I < PI.WaitsFor.size(); ++I) {
      const Instruction *Dep = Map ? Map->at(PI.CodeObject, PI.WaitsFor[I]) : nullptr;
      OS << (I ? ", " : "  <- waits for ")
         << (Dep ? where(Map, Dep->location().Line) : formatv("{0:x}", PI.WaitsFor[I]).str());
    }
    OS << "\n";
  }
  if (Opts.Annotate && Map)
    printAnnotatedSource(H, *Map, OS);
}

void printHotspotsJson(const Hotspots &H, const trace::InstructionProfile &P,
                       const SourceMap *Map, raw_ostream &OS) {
  OS << "{\"capture\":{\"dispatches\":" << P.Dispatches << ",\"wave_files\":" << P.WaveFiles
     << ",\"rows\":" << P.Rows << ",\"counts_from\":\""
     << (P.FromWaveRows ? "wave files" : "code.json") << "\"},\n\"total\":{";
  writeCounts(OS, H.Total, H.TotalSamples, H);
  OS << "}";
  if (Map) {
    OS << ",\n\"source\":{\"file\":";
    trace::writeJsonString(OS, Map->path());
    OS << ",\"placed\":[";
    ListSeparator Sep(",");
    for (const Function &F : Map->module().functions())
      if (std::optional<Placement> Pl = Map->placement(F)) {
        OS << Sep << "{\"function\":";
        trace::writeJsonString(OS, F.name());
        OS << ",\"code_object\":" << Pl->CodeObject << ",\"address\":";
        trace::writeJsonHex(OS, Pl->Base);
        OS << ",\"by\":\"" << (Pl->ByLabel ? "label" : "mnemonics") << "\"}";
      }
    OS << "]}";
    writeGroups(OS, "functions", H.Functions, H);
    writeGroups(OS, "loops", H.Loops, H);
    writeGroups(OS, "blocks", H.Blocks, H);
  }
  OS << ",\n\"instructions\":[";
  ListSeparator Sep(",\n");
  for (const InstructionRow &R : H.Instructions) {
    const trace::ProfiledInstruction &PI = *R.Profile;
    OS << Sep << "{\"code_object\":" << PI.CodeObject << ",\"address\":";
    trace::writeJsonHex(OS, PI.Address);
    OS << ",\"isa\":";
    trace::writeJsonString(OS, PI.Isa);
    if (!PI.Source.empty()) {
      OS << ",\"source\":";
      trace::writeJsonString(OS, PI.Source);
    }
    if (R.line()) {
      OS << ",\"line\":" << R.line() << (R.Inst ? ",\"block\":" : ",\"padding_before\":");
      trace::writeJsonString(OS, R.Inst ? R.Inst->parent()->name() : R.PaddingOf->name());
    }
    if (!PI.WaitsFor.empty()) {
      OS << ",\"waits_for\":[";
      ListSeparator WSep(",");
      for (uint64_t A : PI.WaitsFor) {
        OS << WSep;
        trace::writeJsonHex(OS, A);
      }
      OS << "]";
    }
    OS << ",\"category\":\"" << trace::categoryName(PI.Category) << "\",";
    writeCounts(OS, PI.Counts, PI.Samples, H);
    if (P.HasSamples && !H.BySamples)
      OS << ",\"issued_samples\":" << PI.Samples.Issued
         << ",\"stalled_samples\":" << PI.Samples.Stalled;
    OS << "}";
  }
  OS << "]";
  if (Map) {
    OS << ",\n\"unmapped\":[";
    ListSeparator USep(",");
    for (const trace::ProfiledInstruction *U : H.Unmapped) {
      OS << USep << "{\"code_object\":" << U->CodeObject << ",\"address\":";
      trace::writeJsonHex(OS, U->Address);
      OS << ",\"isa\":";
      trace::writeJsonString(OS, U->Isa);
      OS << "}";
    }
    OS << "]";
  }
  OS << "}\n";
}

void printAnnotatedSource(const Hotspots &H, const SourceMap &Map, raw_ostream &OS) {
  const unsigned BarWidth = 20;
  for (const GroupRow &Fn : H.Functions) {
    std::map<unsigned, std::pair<InstructionCounts, SampleCounts>> ByLine;
    unsigned Last = Fn.Line;
    for (const BasicBlock &BB : Fn.Parent->blocks()) {
      auto Pad = H.PaddingOf.find(&BB);
      if (Pad != H.PaddingOf.end()) {
        ByLine[lineOfBlock(BB)].first += Pad->second.first;
        ByLine[lineOfBlock(BB)].second += Pad->second.second;
      }
      for (const Instruction &I : BB.instructions()) {
        unsigned L = I.location().Line;
        Last = std::max(Last, L);
        if (const trace::ProfiledInstruction *P = H.ProfileOf.lookup(&I)) {
          ByLine[L].first += P->Counts;
          ByLine[L].second += P->Samples;
        }
      }
    }
    uint64_t MaxStall = 0;
    for (auto &[L, C] : ByLine)
      MaxStall = std::max(MaxStall, C.first.Stall);
    OS << "\n" << Fn.Name << " (" << sys::path::filename(Map.path()) << ":" << Fn.Line << "-"
       << Last << "): " << Fn.Counts.Cycles << " cycles, " << percent(H, Fn.Counts, Fn.Samples)
       << "\n";
    OS << format("%10s %7s %9s  %-*s %6s  ", "cycles", "share", "stall", BarWidth, "stall bar",
                 "line")
       << "source\n";
    for (unsigned L = std::max(Fn.Line, 1u); L <= Last && L <= Map.lines().size(); ++L) {
      auto It = ByLine.find(L);
      if (It == ByLine.end()) {
        OS << format("%10s %7s %9s  %-*s %6u  ", "", "", "", BarWidth, "", L);
      } else {
        const InstructionCounts &C = It->second.first;
        unsigned Bar = MaxStall ? unsigned((C.Stall * BarWidth + MaxStall - 1) / MaxStall) : 0;
        OS << format("%10llu %7s %9llu  %-*s %6u  ", (unsigned long long)C.Cycles,
                     percent(H, C, It->second.second).c_str(), (unsigned long long)C.Stall,
                     BarWidth,
                     std::string(Bar, '#').c_str(), L);
      }
      OS << Map.lines()[L - 1] << "\n";
    }
  }
}

} // namespace stinkytofu::hotspots
