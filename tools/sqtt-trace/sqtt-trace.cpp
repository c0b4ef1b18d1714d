//===- sqtt-trace.cpp - Read SQTT traces from rocprofv3 --att output ------===//
//
//   sqtt-trace summary    DIR [-o FILE] [--csv]
//   sqtt-trace markers    DIR [-o FILE] [--csv]
//   sqtt-trace flamegraph DIR [-o FILE] [--format folded|svg|speedscope] [--title T]
//   sqtt-trace perfetto   DIR [-o FILE]
//   sqtt-trace memory     DIR [-o FILE] [--access-size N]
//   filters (all above): --kernel REGEX --se N --cu N --simd N --wave N --wg N
//                  --begin CYCLES --end CYCLES; --clock-rate-ghz F; --no-progress
//   sqtt-trace hotspots   DIR [--source K.s] [--arch GFX] [--top N] [--annotate] [--json]
//                             [-o FILE]
//   sqtt-trace model-check K.s DIR [--arch GFX] [--json] [-o FILE]
//
// Wires options to the sqtt_trace library. Errors are
// `sqtt-trace: error: FILE: reason`, exit code 1, and no output file: the
// output is written to a temporary file and renamed (or copied to stdout)
// only when the whole input was read. docs/sqtt-trace.md has the details.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/hotspots/Hotspots.h"
#include "asm-instrument/hotspots/ModelCheck.h"
#include "asm-instrument/trace/FlameGraphSvg.h"
#include "asm-instrument/trace/MarkerTable.h"
#include "asm-instrument/trace/MemoryReport.h"
#include "asm-instrument/trace/PerfettoWriter.h"
#include "asm-instrument/trace/ScopeSummary.h"
#include "asm-instrument/trace/StackProfile.h"
#include "asm-instrument/trace/InstructionLanes.h"
#include "asm-instrument/trace/InstructionProfile.h"
#include "asm-instrument/trace/TraceReader.h"
#include "stinkytofu/support/PendingOutputs.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;
using namespace stinkytofu::trace;

namespace {
const char *const ToolName = "sqtt-trace";

cl::OptionCategory Category("sqtt-trace options");

cl::SubCommand SummaryCmd("summary", "Cycle statistics per scope");
cl::SubCommand MarkersCmd("markers", "Every decoded marker, one row each");
cl::SubCommand FlameCmd("flamegraph", "Cycles per call stack: folded stacks, SVG or speedscope");
cl::SubCommand PerfettoCmd("perfetto", "Per-wave timelines as Chrome trace JSON (Perfetto UI)");
cl::SubCommand MemoryCmd("memory", "Address traces and per-operation access statistics (JSON)");
cl::SubCommand HotspotsCmd("hotspots", "Cycles per instruction, block, loop and function "
                                       "(no markers needed)");
cl::SubCommand ModelCheckCmd("model-check", "The cycle estimate of K.s against the capture");

#define ALL_COMMANDS                                                                       \
  cl::sub(SummaryCmd), cl::sub(MarkersCmd), cl::sub(FlameCmd), cl::sub(PerfettoCmd),        \
      cl::sub(MemoryCmd), cl::cat(Category)

cl::opt<std::string> Input(cl::Positional, cl::Required,
                           cl::desc("<rocprofv3 --att output directory>"), ALL_COMMANDS,
                           cl::sub(HotspotsCmd));
cl::opt<std::string> ModelSource(cl::Positional, cl::Required, cl::desc("<K.s or K.stir>"),
                                 cl::sub(ModelCheckCmd), cl::cat(Category));
cl::opt<std::string> ModelCapture(cl::Positional, cl::Required,
                                  cl::desc("<rocprofv3 --att output directory>"),
                                  cl::sub(ModelCheckCmd), cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Output file (default: stdout)"),
                            cl::value_desc("file"), cl::init("-"), ALL_COMMANDS,
                            cl::sub(HotspotsCmd), cl::sub(ModelCheckCmd));
cl::opt<std::string> Source("source",
                            cl::desc("The .s (or .stir) the code object was assembled from"),
                            cl::value_desc("file"), cl::sub(HotspotsCmd), cl::cat(Category));
cl::opt<std::string> Arch("arch", cl::desc("Target of the source (default: its .amdgcn_target)"),
                          cl::sub(HotspotsCmd), cl::sub(ModelCheckCmd), cl::cat(Category));
cl::opt<unsigned> Top("top", cl::desc("Rows per table (0: all)"), cl::init(20),
                      cl::sub(HotspotsCmd), cl::cat(Category));
cl::opt<bool> Annotate("annotate", cl::desc("The source listing with cycles and stall bars"),
                       cl::sub(HotspotsCmd), cl::cat(Category));
cl::opt<bool> JsonReport("json", cl::desc("JSON instead of tables"), cl::sub(HotspotsCmd),
                         cl::sub(ModelCheckCmd), cl::cat(Category));
cl::opt<std::string> KernelRegex("kernel", cl::desc("Only waves of kernels matching REGEX"),
                                 cl::value_desc("regex"), ALL_COMMANDS);
cl::opt<int> SEFilter("se", cl::desc("Only this shader engine"), cl::init(-1), ALL_COMMANDS);
cl::opt<int> CUFilter("cu", cl::desc("Only this CU (WGP on gfx10+)"), cl::init(-1),
                      ALL_COMMANDS);
cl::opt<int> SIMDFilter("simd", cl::desc("Only this SIMD"), cl::init(-1), ALL_COMMANDS);
cl::opt<int> WaveFilter("wave", cl::desc("Only this wave slot"), cl::init(-1), ALL_COMMANDS);
cl::opt<long long> WGFilter("wg", cl::desc("Only this workgroup (3.1.0 occupancy)"),
                            cl::init(-1), ALL_COMMANDS);
cl::opt<unsigned long long> Begin("begin", cl::desc("Time window start (cycles)"),
                                  cl::init(0), ALL_COMMANDS);
cl::opt<unsigned long long> End("end", cl::desc("Time window end (cycles, inclusive)"),
                                cl::init(UINT64_MAX), ALL_COMMANDS);
cl::opt<double> ClockRate("clock-rate-ghz",
                          cl::desc("Shader clock in GHz (default: from realtime.json)"),
                          cl::init(0), ALL_COMMANDS);
cl::opt<bool> NoProgress("no-progress", cl::desc("Never draw the progress bar"), ALL_COMMANDS);

cl::opt<bool> Csv("csv", cl::desc("CSV instead of an aligned table"), cl::sub(SummaryCmd),
                  cl::sub(MarkersCmd), cl::cat(Category));

enum class FlameFormat { Folded, Svg, Speedscope };
cl::opt<FlameFormat> Format("format", cl::desc("Flame graph output format"),
                            cl::values(clEnumValN(FlameFormat::Folded, "folded",
                                                  "frame;frame <cycles> (flamegraph.pl)"),
                                       clEnumValN(FlameFormat::Svg, "svg",
                                                  "self-contained interactive SVG"),
                                       clEnumValN(FlameFormat::Speedscope, "speedscope",
                                                  "speedscope JSON")),
                            cl::init(FlameFormat::Folded), cl::sub(FlameCmd), cl::cat(Category));
cl::opt<std::string> Title("title", cl::desc("SVG / speedscope title"),
                           cl::init("SQTT flame graph (cycles)"), cl::sub(FlameCmd),
                           cl::cat(Category));
cl::opt<unsigned> AccessSize("access-size", cl::desc("Bytes per lane access (memory summary)"),
                             cl::init(4), cl::sub(MemoryCmd), cl::cat(Category));

int fail(const Twine &Msg) {
  WithColor::error(errs(), ToolName) << Msg << "\n";
  return 1;
}


Expected<ReadOptions> readOptions() {
  ReadOptions O;
  TraceFilter &F = O.Filter;
  if (!KernelRegex.empty()) {
    F.Kernel = std::make_shared<Regex>(KernelRegex);
    std::string Why;
    if (!F.Kernel->isValid(Why))
      return createStringError(inconvertibleErrorCode(),
                               "--kernel: invalid regular expression: " + Why);
  }
  auto Set = [](int V, std::optional<uint32_t> &Into) {
    if (V >= 0)
      Into = uint32_t(V);
  };
  Set(SEFilter, F.SE);
  Set(CUFilter, F.CU);
  Set(SIMDFilter, F.SIMD);
  Set(WaveFilter, F.Slot);
  if (WGFilter >= 0)
    F.WorkGroup = WGFilter;
  F.Begin = Begin;
  F.End = End;
  if (F.Begin > F.End)
    return createStringError(inconvertibleErrorCode(), "--begin is after --end");
  if (ClockRate < 0)
    return createStringError(inconvertibleErrorCode(), "--clock-rate-ghz must be positive");
  if (ClockRate > 0)
    O.ClockGHz = ClockRate;
  O.Progress = !NoProgress && sys::Process::StandardErrIsDisplayed();
  return O;
}

/// Reads the trace into the subcommand's sink, which writes to \p OS.
Error decode(raw_ostream &OS, const ReadOptions &Options, Diagnostics &Diags) {
  // Each subcommand is a sink, plus what it writes once everything is read.
  std::unique_ptr<TraceSink> Sink;
  std::function<void()> Finish;
  if (SummaryCmd) {
    auto S = std::make_unique<ScopeSummary>();
    Finish = [&OS, &Diags, S = S.get()] { S->print(OS, Csv, Diags.Records); };
    Sink = std::move(S);
  } else if (MarkersCmd) {
    Sink = std::make_unique<MarkerTable>(OS, Csv);
  } else if (FlameCmd) {
    auto P = std::make_unique<StackProfile>();
    Finish = [&OS, P = P.get()] {
      P->finalize();
      switch (Format) {
      case FlameFormat::Folded:
        P->printFolded(OS);
        break;
      case FlameFormat::Svg:
        writeFlameGraphSvg(*P, Title, OS);
        break;
      case FlameFormat::Speedscope:
        P->printSpeedscope(OS, Title);
        break;
      }
    };
    Sink = std::move(P);
  } else if (PerfettoCmd) {
    auto P = std::make_unique<PerfettoWriter>(OS);
    Finish = [P = P.get()] { P->finish(); };
    Sink = std::move(P);
  } else {
    auto M = std::make_unique<MemoryReport>(OS, AccessSize);
    Finish = [M = M.get()] { M->finish(); };
    Sink = std::move(M);
  }

  // Without markers the timelines and flame graphs are of instruction
  // categories, from the wave files.
  Expected<bool> Markers = hasMarkerRecords(Input);
  if (!Markers)
    return Markers.takeError();
  if (!*Markers && (FlameCmd || PerfettoCmd)) {
    if (Error E = readInstructionLanes(Input, Options, *Sink, Diags))
      return E;
  } else if (Error E = readTrace(Input, Options, *Sink, Diags)) {
    return E;
  }
  if (Finish)
    Finish();
  return Error::success();
}

/// hotspots and model-check: the instruction rows, mapped onto the source.
Error profile(raw_ostream &OS, Diagnostics &Diags) {
  bool Model = static_cast<bool>(ModelCheckCmd);
  Expected<trace::InstructionProfile> P = readInstructionProfile(Model ? ModelCapture : Input, Diags);
  if (!P)
    return P.takeError();
  if (P->Instructions.empty())
    return createStringError(inconvertibleErrorCode(),
                             Twine(Model ? ModelCapture : Input) +
                                 ": no instructions: code.json lists none (a capture "
                                 "decoded without its code objects)");
  std::optional<hotspots::SourceMap> Map;
  StringRef SourcePath = Model ? StringRef(ModelSource) : StringRef(Source);
  if (!SourcePath.empty()) {
    Expected<hotspots::SourceMap> M = hotspots::SourceMap::create(SourcePath, Arch);
    if (!M)
      return M.takeError();
    Map.emplace(std::move(*M));
    Map->place(*P);
  } else if (Annotate) {
    return createStringError(inconvertibleErrorCode(), "--annotate needs --source");
  }
  hotspots::Hotspots H = hotspots::computeHotspots(*P, Map ? &*Map : nullptr);
  if (Model)
    hotspots::printModelCheck(H, *Map, JsonReport, OS);
  else if (JsonReport)
    hotspots::printHotspotsJson(H, *P, Map ? &*Map : nullptr, OS);
  else
    hotspots::printHotspots(H, *P, Map ? &*Map : nullptr, {Top, Annotate}, OS);
  return Error::success();
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(Argc, Argv, "SQTT traces: flame graphs, Perfetto timelines, "
                                          "memory traces, marker tables, instruction "
                                          "hotspots, the cycle estimate checked\n");
  if (HotspotsCmd || ModelCheckCmd) {
    PendingOutputs Out;
    Diagnostics Diags;
    if (Error E = Out.add(Output, [&](raw_ostream &OS) { return profile(OS, Diags); })) {
      // The source's own diagnostics are `file:line:col: error: ...` already.
      std::string Msg = toString(std::move(E));
      if (StringRef(Msg).contains(": error: ")) {
        errs() << StringRef(Msg).rtrim("\n") << "\n";
        return 1;
      }
      return fail(Msg);
    }
    if (Error E = Out.commit())
      return fail(toString(std::move(E)));
    Diags.print(errs(), ToolName);
    return 0;
  }
  if (!SummaryCmd && !MarkersCmd && !FlameCmd && !PerfettoCmd && !MemoryCmd)
    return fail("no subcommand (summary, markers, flamegraph, perfetto, memory, hotspots, "
                "model-check); see --help");

  Expected<ReadOptions> Options = readOptions();
  if (!Options)
    return fail(toString(Options.takeError()));
  // The output is rendered into a temporary file as the trace is read and
  // put in place only when all of it was read.
  PendingOutputs Out;
  Diagnostics Diags;
  if (Error E = Out.add(Output, [&](raw_ostream &OS) { return decode(OS, *Options, Diags); }))
    return fail(toString(std::move(E)));
  if (Error E = Out.commit())
    return fail(toString(std::move(E)));
  Diags.print(errs(), ToolName);
  return 0;
}
