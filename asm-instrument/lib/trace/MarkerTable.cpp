//===- MarkerTable.cpp - Every decoded marker, one row each (markers) -----===//
#include "asm-instrument/trace/MarkerTable.h"
#include "stinkytofu/support/HexString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace stinkytofu::trace {

static StringRef actionName(MarkerAction A) {
  switch (A) {
  case MarkerAction::Enter:
    return "enter";
  case MarkerAction::Exit:
    return "exit";
  case MarkerAction::Transition:
    return "exit+enter";
  case MarkerAction::Point:
    return "point";
  case MarkerAction::NoOp:
    break;
  }
  return "noop";
}

static char classLetter(MarkerClass C) {
  switch (C) {
  case MarkerClass::Function:
    return 'F';
  case MarkerClass::UserScope:
    return 'U';
  case MarkerClass::Point:
    return 'P';
  case MarkerClass::Instruction:
    return 'I';
  case MarkerClass::Unknown:
    break;
  }
  return '?';
}

MarkerTable::MarkerTable(raw_ostream &OS, bool Csv) : OS(OS), Csv(Csv) {
  if (Csv)
    OS << "dispatch,se,cu,simd,wave,instance,time,arrival,raw,id,kind,action,depth,payloads,"
          "name\n";
  else
    OS << format("%-4s %-16s %12s %12s %-10s %8s %-4s %-10s %5s  %s\n", "disp", "wave", "time",
                 "arrival", "raw", "id", "kind", "action", "depth", "name");
}

void MarkerTable::marker(const WaveInfo &W, const DecodedMarker &M) {
  char Kind = M.Id ? classLetter(M.Class) : '-';
  if (Csv) {
    OS << Dispatch << ',' << unsigned(W.SE) << ',' << unsigned(W.CU) << ',' << unsigned(W.SIMD)
       << ',' << unsigned(W.Slot) << ',' << W.Instance << ',' << M.Time << ',' << M.ArrivalTime
       << ',' << format_hex(M.RawValue, 10) << ',' << M.Id << ',' << Kind << ','
       << actionName(M.Action) << ',' << M.Depth << ',' << M.Payloads << ',' << M.Name << '\n';
    return;
  }
  std::string Wave = formatv("{0}/{1}/{2}/{3}#{4}", unsigned(W.SE), unsigned(W.CU),
                             unsigned(W.SIMD), unsigned(W.Slot), W.Instance)
                         .str();
  OS << format("%-4u %-16s %12llu %12llu %-10s %8u %-4c %-10s %5u  ", Dispatch, Wave.c_str(),
               (unsigned long long)M.Time, (unsigned long long)M.ArrivalTime,
               hexString(M.RawValue).c_str(), M.Id, Kind,
               actionName(M.Action).data(), M.Depth)
     << M.Name;
  if (M.Payloads)
    OS << " (+" << M.Payloads << " payload)";
  OS << '\n';
}

} // namespace stinkytofu::trace
