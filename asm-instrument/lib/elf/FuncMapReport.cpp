//===- FuncMapReport.cpp - A code object's funcmap with addresses ---------===//
#include "asm-instrument/elf/FuncMapReport.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace stinkytofu::funcmap;

namespace stinkytofu::elf {

namespace {

StringRef typeName(MarkerKind K) {
  switch (K) {
  case MarkerKind::Function:
    return "func";
  case MarkerKind::Kernel:
    return "kernel";
  case MarkerKind::UserScope:
    return "user";
  case MarkerKind::Point:
    return "point";
  }
  return "?";
}

} // namespace

FuncMapReport buildFuncMapReport(const ElfImage &Obj, const ReportOptions &Opts) {
  FuncMapReport R;
  SmallVector<unsigned, 1> Found = Obj.findSections(funcmap::FuncMapSectionName);
  if (Found.empty())
    return R;
  R.HasSection = true;
  if (Found.size() > 1)
    R.Warnings.push_back({0, "more than one .sqtt_funcmap section; reading the first"});
  const Elf_Shdr &Sec = Obj.sections()[Found.front()];
  if (Sec.sh_type == ELF::SHT_NOBITS)
    R.Warnings.push_back({0, ".sqtt_funcmap is SHT_NOBITS: it has no contents"});
  StringRef Text = Obj.sectionContents(Sec);
  if (!Text.empty() && Text.back() != '\0')
    R.Warnings.push_back({0, ".sqtt_funcmap is not NUL-terminated"});

  // Lenient mode never fails.
  FuncMap Map = cantFail(parseFuncMap(Text, ParseMode::Lenient, &R.Warnings));
  R.WaveSize = Map.waveSize();
  R.Encoding = Map.markerEncoding();

  const StringMap<SymbolInfo> &Symbols = Obj.definedSymbols();
  for (const Marker &M : Map.markers()) {
    ReportRow Row;
    Row.Marker = M;
    bool Code = M.Kind == MarkerKind::Function || M.Kind == MarkerKind::Kernel;
    Row.DisplayName = Code && Opts.Demangle ? llvm::demangle(M.Name) : M.Name;
    if (Code) {
      if (auto It = Symbols.find(M.Name); It != Symbols.end())
        Row.Vaddr = It->second.Value;
      else
        Row.Inlined = M.Kind == MarkerKind::Function;
    }
    R.Rows.push_back(std::move(Row));
  }
  // K: rows first, then by id; ties keep the section's order.
  std::vector<size_t> Order(R.Rows.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto Key = [&](size_t I) {
    const Marker &M = R.Rows[I].Marker;
    return std::make_tuple(M.hasId(), M.Id, I);
  };
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return Key(A) < Key(B); });
  std::vector<ReportRow> Sorted;
  Sorted.reserve(Order.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(R.Rows[I]));
  R.Rows = std::move(Sorted);
  return R;
}

void printFuncMapTable(const FuncMapReport &Report, raw_ostream &OS) {
  if (!Report.HasSection) {
    OS << "  (no .sqtt_funcmap section)\n";
    return;
  }
  if (Report.WaveSize)
    OS << "  wave_size: " << *Report.WaveSize << '\n';
  if (Report.Encoding)
    OS << "  shader_clock_bits: " << Report.Encoding->ShaderClockBits
       << ", shader_clock_shift: " << Report.Encoding->ShaderClockShift << '\n';
  auto Line = [&](StringRef Type, StringRef Id, StringRef Vaddr, StringRef Name) {
    OS << right_justify(Type, 6) << ' ' << right_justify(Id, 9) << "  " << right_justify(Vaddr, 18)
       << "  " << Name;
  };
  Line("Type", "ID", "Vaddr", "Name");
  OS << '\n';
  Line("----", "---", "-----", "----");
  OS << '\n';
  for (const ReportRow &Row : Report.Rows) {
    const Marker &M = Row.Marker;
    std::string Id = M.hasId() ? std::to_string(M.Id) : "-";
    std::string Vaddr = "-";
    if (Row.Vaddr) {
      Vaddr.clear();
      raw_string_ostream(Vaddr) << format_hex(*Row.Vaddr, 18);
    }
    Line(typeName(M.Kind), Id, Vaddr, Row.DisplayName);
    if (!M.SourceLoc.empty())
      OS << "  @ " << M.SourceLoc;
    if (Row.Inlined)
      OS << "  (inlined)";
    if (M.ExtraPayloadCount)
      OS << "  (extra_payload_count=" << M.ExtraPayloadCount << ')';
    OS << '\n';
  }
}

json::Object funcMapReportToJSON(const FuncMapReport &Report) {
  json::Object Out;
  Out["has_funcmap"] = Report.HasSection;
  Out["wave_size"] = Report.WaveSize ? json::Value(int64_t(*Report.WaveSize)) : json::Value(nullptr);
  if (Report.Encoding)
    Out["shader_clock"] = json::Object{{"bits", int64_t(Report.Encoding->ShaderClockBits)},
                                       {"shift", int64_t(Report.Encoding->ShaderClockShift)}};
  else
    Out["shader_clock"] = nullptr;
  json::Array Markers;
  for (const ReportRow &Row : Report.Rows) {
    const Marker &M = Row.Marker;
    json::Object J;
    J["type"] = typeName(M.Kind);
    J["prefix"] = std::string(1, M.prefix());
    J["id"] = M.hasId() ? json::Value(int64_t(M.Id)) : json::Value(nullptr);
    J["name"] = M.Name;
    if (Row.DisplayName != M.Name)
      J["demangled"] = Row.DisplayName;
    J["source_loc"] = M.SourceLoc.empty() ? json::Value(nullptr) : json::Value(M.SourceLoc);
    J["vaddr"] = Row.Vaddr ? json::Value(uint64_t(*Row.Vaddr)) : json::Value(nullptr);
    J["inlined"] = Row.Inlined;
    J["extra_payload_count"] = int64_t(M.ExtraPayloadCount);
    Markers.push_back(std::move(J));
  }
  Out["markers"] = std::move(Markers);
  json::Array Warnings;
  for (const FuncMapWarning &W : Report.Warnings)
    Warnings.push_back(json::Object{{"line", int64_t(W.Line)}, {"message", W.Message}});
  Out["warnings"] = std::move(Warnings);
  return Out;
}

} // namespace stinkytofu::elf
