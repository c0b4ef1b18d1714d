//===- InstructionLanes.cpp - Timelines of a capture without markers ------===//
#include "asm-instrument/trace/InstructionLanes.h"
#include "asm-instrument/trace/AttDirectory.h"
#include "asm-instrument/trace/ClockRate.h"
#include "asm-instrument/trace/CodeTable.h"
#include "asm-instrument/trace/WaveInstructions.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu::trace {

Expected<bool> hasMarkerRecords(StringRef Root) {
  Expected<std::vector<DispatchDir>> Dispatches = findDispatches(Root);
  if (!Dispatches)
    return Dispatches.takeError();
  return llvm::any_of(*Dispatches, [](const DispatchDir &D) { return !D.ShaderData.empty(); });
}

namespace {

/// Merges a wave's rows into category slices and hands them to the sink.
class LaneBuilder {
public:
  LaneBuilder(TraceSink &Sink, const TraceFilter &Filter, const WaveInfo &W)
      : Sink(Sink), Filter(Filter), W(W) {}

  void row(const WaveRow &R) {
    if (R.Stall)
      part("wait", R.Time, R.Time + R.Stall);
    if (R.Duration > R.Stall)
      part(categoryName(R.Category), R.Time + R.Stall, R.Time + R.Duration);
  }
  /// Closes the last slice; the wave's idle time from \p Begin to its first
  /// row and from its last row to \p End is the kernel's.
  void finish(uint64_t Begin, uint64_t End) {
    flush(End);
    if (FirstBegin && *FirstBegin > Begin)
      Sink.attribute(W, {}, *FirstBegin - Begin);
    if (End > Last)
      Sink.attribute(W, {}, End - Last);
  }

private:
  void part(StringRef Name, uint64_t Begin, uint64_t End) {
    if (Open && Open->Name == Name && Begin <= OpenEnd) {
      OpenEnd = std::max(OpenEnd, End);
      return;
    }
    flush(Begin);
    if (!FirstBegin)
      Last = *(FirstBegin = Begin);
    if (Begin > Last)
      Sink.attribute(W, {}, Begin - Last);
    Open = ScopeFrame{0, MarkerClass::Instruction, Name, std::max(Begin, Last)};
    OpenEnd = End;
  }
  /// Emits the open slice, cut at \p Limit when the next one starts earlier
  /// (slices of one lane must not overlap).
  void flush(uint64_t Limit) {
    if (!Open)
      return;
    uint64_t End = std::min(OpenEnd, std::max(Limit, Open->Begin));
    uint64_t Begin = Filter.clip(Open->Begin), Clipped = Filter.clip(End);
    if (Filter.inWindow(Open->Begin) || Filter.inWindow(End) || Begin < Clipped) {
      ScopeFrame F = *Open;
      F.Begin = Begin;
      Sink.enterScope(W, F);
      Sink.attribute(W, F, Clipped - Begin);
      Sink.exitScope(W, F, Clipped);
    }
    Last = End;
    Open.reset();
  }

  TraceSink &Sink;
  const TraceFilter &Filter;
  const WaveInfo &W;
  std::optional<ScopeFrame> Open;
  std::optional<uint64_t> FirstBegin;
  uint64_t OpenEnd = 0, Last = 0;
};

} // namespace

Error readInstructionLanes(StringRef Root, const ReadOptions &Options, TraceSink &Sink,
                           Diagnostics &Diags) {
  Expected<std::vector<DispatchDir>> Dispatches = findDispatches(Root);
  if (!Dispatches)
    return Dispatches.takeError();
  uint32_t Index = 0;
  JsonReader Reader;
  for (const DispatchDir &D : *Dispatches) {
    if (Error E = checkComplete(D, {"code.json"}, /*WaveFiles=*/true))
      return E;
    if (D.WaveFiles.empty())
      return fileError(D.Path, "neither markers nor wave files (a PC-sampling capture has no "
                               "timeline; `sqtt-trace hotspots` reads its samples)");
    // The kernel frame is named after code.json's first label row.
    Expected<CodeTable> Code = readCodeTable(D.file("code.json"), Reader);
    if (!Code)
      return Code.takeError();
    std::string Kernel = "kernel";
    for (const CodeRow &R : Code->Rows)
      if (R.isLabel()) {
        Kernel = R.Isa.substr(2);
        break;
      }
    Expected<double> Clock =
        dispatchClockGHz(Options.ClockGHz, D.Path, D.file("realtime.json"), Diags.Warnings);
    if (!Clock)
      return Clock.takeError();
    DispatchInfo Info{D.Name, Index++, *Clock};
    Sink.beginDispatch(Info);
    uint32_t Serial = 0;
    for (const WaveFile &F : D.WaveFiles) {
      WaveInfo W;
      W.SE = uint8_t(F.SE);
      W.SIMD = uint8_t(F.SIMD);
      W.Slot = uint8_t(F.Slot);
      W.Instance = F.Index;
      W.Kernel = Kernel;
      W.Serial = Serial++;
      if (!Options.Filter.selects(W))
        continue;
      Sink.beginWave(W, 0);
      LaneBuilder Lanes(Sink, Options.Filter, W);
      Expected<WaveHeader> Span =
          readWaveInstructions(F.Path, [&](const WaveRow &R) { Lanes.row(R); });
      if (!Span)
        return Span.takeError();
      Lanes.finish(Span->Begin, Span->End);
      Sink.endWave(W, Span->End);
    }
    Sink.endDispatch(Info);
  }
  return Error::success();
}

} // namespace stinkytofu::trace
