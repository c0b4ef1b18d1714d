//===- FuncMapPrinter.cpp - Write a funcmap as .sqtt_funcmap text ---------===//
#include "asm-instrument/funcmap/FuncMapPrinter.h"

using namespace llvm;

namespace stinkytofu::funcmap {

void printMarkerRow(const Marker &M, raw_ostream &OS) {
  OS << M.prefix() << ':';
  if (M.hasId())
    OS << M.Id << ':';
  OS << M.Name;
  if (!M.SourceLoc.empty())
    OS << '@' << M.SourceLoc;
}

void printFuncMap(const FuncMap &Map, raw_ostream &OS) {
  if (auto E = Map.markerEncoding())
    OS << "M:shader_clock_bits=" << E->ShaderClockBits
       << ";shader_clock_shift=" << E->ShaderClockShift << '\n';
  bool WavePrinted = false;
  auto PrintWave = [&] {
    if (!WavePrinted && Map.waveSize())
      OS << "W:" << *Map.waveSize() << '\n';
    WavePrinted = true;
  };
  for (const Marker *M : Map.markersInEmissionOrder()) {
    if (M->Kind == MarkerKind::Point && M->Group == PointGroup::AddressTrace)
      PrintWave();
    printMarkerRow(*M, OS);
    OS << '\n';
    if (M->hasId() && M->ExtraPayloadCount != 0)
      OS << "R:" << M->Id << ":extra_payload_count=" << M->ExtraPayloadCount << '\n';
  }
  PrintWave();
}

std::string printFuncMap(const FuncMap &Map) {
  std::string Text;
  raw_string_ostream OS(Text);
  printFuncMap(Map, OS);
  return Text;
}

std::string funcMapSectionContents(const FuncMap &Map) {
  std::string Bytes = printFuncMap(Map);
  Bytes.push_back('\0');
  return Bytes;
}

} // namespace stinkytofu::funcmap
