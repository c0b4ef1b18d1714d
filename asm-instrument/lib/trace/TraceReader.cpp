//===- TraceReader.cpp - Decode a rocprofv3 --att output directory --------===//
#include "asm-instrument/trace/TraceReader.h"
#include "asm-instrument/trace/AttDirectory.h"
#include "asm-instrument/trace/ClockCorrection.h"
#include "asm-instrument/trace/ClockRate.h"
#include "asm-instrument/trace/MarkerMaps.h"
#include "asm-instrument/trace/Occupancy.h"
#include "asm-instrument/trace/WaveDecoder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace llvm;

namespace stinkytofu::trace {

TraceSink::~TraceSink() = default;

namespace {

/// A progress bar over the bytes of all shaderdata passes, drawn on stderr
/// only after the first second.
class Progress {
public:
  Progress(bool Enabled, uint64_t Total) : Enabled(Enabled), Total(Total ? Total : 1) {}
  ~Progress() {
    if (Drawn)
      errs() << "\r" << std::string(60, ' ') << "\r";
  }
  void advance(uint64_t Bytes) {
    Done += Bytes;
    tick();
  }
  /// Called often; looks at the clock every 64K records.
  void record() {
    if (Enabled && (++Records & 0xffff) == 0)
      tick();
  }

private:
  void tick() {
    if (!Enabled)
      return;
    double Elapsed = std::chrono::duration<double>(Clock::now() - Start).count();
    if (Elapsed < 1.0)
      return;
    Drawn = true;
    unsigned Percent = unsigned(std::min<uint64_t>(100, Done * 100 / Total));
    std::string Bar(Percent / 4, '#');
    Bar.resize(25, ' ');
    errs() << "\r[" << Bar << "] " << format("%3u%%", Percent) << " " << Records
           << " records, " << format("%.1f", Elapsed) << " s";
  }
  using Clock = std::chrono::steady_clock;
  bool Enabled, Drawn = false;
  uint64_t Total, Done = 0, Records = 0;
  Clock::time_point Start = Clock::now();
};

bool hasClockLayout(const MarkerMaps &Maps) {
  for (auto &[Id, Index] : Maps.ByCodeObject)
    if (Index->encoding() && Index->encoding()->ShaderClockBits)
      return true;
  return false;
}

/// First pass: the minimum delay of every clock domain.
Error observeClocks(const DispatchDir &D, const Occupancy &Occ, const MarkerMaps &Maps,
                    ClockCorrection &Clock, JsonReader &Reader,
                    Progress &Bar) {
  for (const ShaderDataFile &F : D.ShaderData) {
    Expected<ShaderDataFileInfo> Info =
        readShaderDataFile(F.Path, Reader, [&](const ShaderDataRecord &R) {
          Bar.record();
          if (R.Flags & (RecordFromTrapHandler | RecordFromImmediate))
            return;
          uint32_t Key = slotKey(F.SE, R.CU, R.SIMD, R.Slot);
          WaveDecoder::Resolved Res = WaveDecoder::resolve(Occ, Maps, Key, R.Time);
          if (std::optional<PackedHeader> H = unpackHeader(*Res.Markers, R.Value)) {
            funcmap::MarkerEncoding E = *Res.Markers->encoding();
            Clock.observe(ClockCorrection::domainKey(F.SE, R.CU, R.SIMD, E), E, R.Time,
                          H->Sampled);
          }
        });
    if (!Info)
      return Info.takeError();
    Bar.advance(F.Size);
  }
  return Error::success();
}

Error readDispatch(const DispatchDir &D, uint32_t Index, const ReadOptions &Options,
                   TraceSink &Sink, Diagnostics &Diags, Progress &Bar,
                   JsonReader &Reader) {
  if (Error E = checkComplete(D, {"occupancy.json"}, /*WaveFiles=*/false))
    return E;
  Expected<Occupancy> Occ = readOccupancy(D.file("occupancy.json"));
  if (!Occ)
    return Occ.takeError();
  Expected<MarkerMaps> Maps = readMarkerMaps(D.file("code.json"), D.CodeObjects);
  if (!Maps)
    return Maps.takeError();
  for (std::string &W : Maps->Warnings)
    Diags.Warnings.push_back(std::move(W));
  if (Maps->empty())
    Diags.Warnings.push_back(D.Path + ": no funcmap (code.json has no sqtt_funcmap and no "
                                      "code object has a .sqtt_funcmap section)");

  DispatchInfo Info;
  Info.Name = D.Name;
  Info.Index = Index;
  Expected<double> ClockGHz =
      dispatchClockGHz(Options.ClockGHz, D.Path, D.file("realtime.json"), Diags.Warnings);
  if (!ClockGHz)
    return ClockGHz.takeError();
  Info.ClockGHz = *ClockGHz;

  ClockCorrection Clock;
  if (hasClockLayout(*Maps))
    if (Error E = observeClocks(D, *Occ, *Maps, Clock, Reader, Bar))
      return E;

  Sink.beginDispatch(Info);
  int Live = 0;
  for (auto [Time, Delta] : Occ->liveChanges()) {
    Live += Delta;
    if (Options.Filter.inWindow(Time))
      Sink.liveWaves(Time, unsigned(std::max(Live, 0)));
  }
  WaveDecoder Decoder(*Occ, *Maps, Clock, Options.Filter, Sink, Diags);
  for (const ShaderDataFile &F : D.ShaderData) {
    Expected<ShaderDataFileInfo> FileInfo =
        readShaderDataFile(F.Path, Reader, [&](const ShaderDataRecord &R) {
          Bar.record();
          Decoder.record(F.SE, R);
        });
    if (!FileInfo)
      return FileInfo.takeError();
    if (FileInfo->DeclaredCount > FileInfo->Rows)
      Diags.LostRecords += FileInfo->DeclaredCount - FileInfo->Rows;
    Bar.advance(F.Size);
  }
  Decoder.finish();
  Sink.endDispatch(Info);
  return Error::success();
}

} // namespace

Error readTrace(StringRef Root, const ReadOptions &Options, TraceSink &Sink,
                Diagnostics &Diags) {
  Expected<std::vector<DispatchDir>> Dispatches = findDispatches(Root);
  if (!Dispatches)
    return Dispatches.takeError();
  // A capture of an unmodified kernel has no shaderdata at all: saying
  // "0 records" would read as a kernel whose markers were all filtered.
  if (llvm::all_of(*Dispatches, [](const DispatchDir &D) { return D.ShaderData.empty(); }))
    return fileError(Root, "no marker records: no dispatch has shaderdata files (a capture "
                           "of a kernel without markers; `sqtt-trace hotspots` reads its "
                           "instruction rows)");
  uint64_t Total = 0, Largest = 0;
  for (const DispatchDir &D : *Dispatches)
    for (const ShaderDataFile &F : D.ShaderData) {
      Total += F.Size;
      Largest = std::max(Largest, F.Size);
    }
  Progress Bar(Options.Progress, Total);
  JsonReader Reader;
  if (Error E = Reader.reserve(Largest))
    return fileError(Root, toString(std::move(E)));
  uint32_t Index = 0;
  for (const DispatchDir &D : *Dispatches)
    if (Error E = readDispatch(D, Index++, Options, Sink, Diags, Bar, Reader))
      return E;
  return Error::success();
}

} // namespace stinkytofu::trace
