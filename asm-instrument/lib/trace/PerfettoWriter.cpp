//===- PerfettoWriter.cpp - Chrome trace JSON for the Perfetto UI ---------===//
#include "asm-instrument/trace/PerfettoWriter.h"
#include "asm-instrument/trace/JsonWriting.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace stinkytofu::trace {

static StringRef categoryOf(MarkerClass C) {
  switch (C) {
  case MarkerClass::Function:
    return "sqtt.function";
  case MarkerClass::UserScope:
    return "sqtt.user";
  case MarkerClass::Point:
    return "sqtt.point";
  case MarkerClass::Instruction:
    return "sqtt.instruction";
  case MarkerClass::Unknown:
    break;
  }
  return "sqtt.unknown";
}

PerfettoWriter::PerfettoWriter(raw_ostream &OS) : OS(OS) {
  OS << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
}

void PerfettoWriter::finish() { OS << "\n]}\n"; }

void PerfettoWriter::writeTime(uint64_t Cycles) {
  // Picoseconds as an integer, printed as microseconds with six decimals:
  // snprintf("%f") per event would dominate the run time.
  uint64_t Ps = uint64_t(double(Cycles) * (1e6 / CyclesPerMicrosecond) + 0.5);
  char Frac[6];
  uint64_t F = Ps % 1000000;
  for (int I = 5; I >= 0; --I, F /= 10)
    Frac[I] = char('0' + F % 10);
  OS << Ps / 1000000 << '.' << StringRef(Frac, 6);
}

void PerfettoWriter::event(char Phase, StringRef Name, StringRef Category, uint64_t Time,
                           uint32_t Tid) {
  OS << (First ? "" : ",\n") << "{\"ph\":\"" << Phase << "\",\"name\":";
  First = false;
  writeJsonString(OS, Name);
  if (!Category.empty())
    OS << ",\"cat\":\"" << Category << '"';
  OS << ",\"pid\":" << Pid << ",\"tid\":" << Tid << ",\"ts\":";
  writeTime(Time);
}

void PerfettoWriter::beginDispatch(const DispatchInfo &D) {
  Pid = D.Index + 1;
  CyclesPerMicrosecond = D.ClockGHz * 1000.0;
  OS << (First ? "" : ",\n") << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << Pid
     << ",\"tid\":0,\"args\":{\"name\":";
  First = false;
  writeJsonString(OS, D.Name);
  OS << "}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << Pid
     << ",\"tid\":0,\"args\":{\"sort_index\":" << D.Index << "}}";
}

void PerfettoWriter::beginWave(const WaveInfo &W, uint64_t Time) {
  uint32_t Tid = W.Serial + 1;
  OS << ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << Pid << ",\"tid\":" << Tid
     << ",\"args\":{\"name\":\"SE" << unsigned(W.SE) << "/CU" << unsigned(W.CU) << "/SIMD"
     << unsigned(W.SIMD) << "/W" << unsigned(W.Slot) << '#' << W.Instance << "\"}},\n"
     << "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << Pid << ",\"tid\":" << Tid
     << ",\"args\":{\"sort_index\":" << Tid << "}}";
}

void PerfettoWriter::enterScope(const WaveInfo &W, ArrayRef<ScopeFrame> Stack) {
  const ScopeFrame &F = Stack.back();
  event('B', F.Name, categoryOf(F.Class), F.Begin, W.Serial + 1);
  OS << ",\"args\":{\"id\":" << F.Id << ",\"kernel\":";
  writeJsonString(OS, W.Kernel);
  OS << "}}";
}

void PerfettoWriter::exitScope(const WaveInfo &W, ArrayRef<ScopeFrame> Stack, uint64_t End) {
  const ScopeFrame &F = Stack.back();
  event('E', F.Name, categoryOf(F.Class), End, W.Serial + 1);
  OS << '}';
}

void PerfettoWriter::marker(const WaveInfo &W, const DecodedMarker &M) {
  if (M.Action != MarkerAction::Point)
    return;
  event('i', M.Name, categoryOf(M.Class), M.Time, W.Serial + 1);
  OS << ",\"s\":\"t\",\"args\":{\"id\":" << M.Id;
  if (!M.SourceLoc.empty()) {
    OS << ",\"source\":";
    writeJsonString(OS, M.SourceLoc);
  }
  if (M.Payloads)
    OS << ",\"payloads\":" << M.Payloads;
  OS << "}}";
}

void PerfettoWriter::liveWaves(uint64_t Time, unsigned Count) {
  event('C', "live waves", "", Time, 0);
  OS << ",\"args\":{\"waves\":" << Count << "}}";
}

} // namespace stinkytofu::trace
