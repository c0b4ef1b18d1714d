//===- MarkerMaps.cpp - Marker ids to names, per code object --------------===//
#include "asm-instrument/trace/MarkerMaps.h"
#include "stinkytofu/object/ElfImage.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "asm-instrument/trace/JsonInput.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace stinkytofu::funcmap;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

MarkerIndex::MarkerIndex(FuncMap M) : Map(std::move(M)) {
  unsigned WaveSize = waveSize();
  for (const Marker &Row : Map.markers()) {
    if (!Row.hasId())
      continue;
    MarkerInfo Info;
    Info.Name = Row.Name;
    Info.SourceLoc = Row.SourceLoc;
    Info.Payloads = Row.ExtraPayloadCount;
    switch (Row.Kind) {
    case MarkerKind::Function:
      Info.Class = MarkerClass::Function;
      break;
    case MarkerKind::UserScope:
      Info.Class = MarkerClass::UserScope;
      break;
    default:
      Info.Class = MarkerClass::Point;
      Info.Address = addressLayoutOf(Row.Name);
      if (Info.Address != AddressLayout::None && !Info.Payloads)
        Info.Payloads = addressPayloadCount(Info.Address, WaveSize);
      break;
    }
    ById[Row.Id] = Info; // The last row with an id wins, as in lenient parsing.
  }
  for (auto &[Id, Info] : ById)
    if (Id < 4096) {
      if (Id >= Small.size())
        Small.resize(Id + 1);
      Small[Id] = &Info;
    }
}

const MarkerIndex &MarkerMaps::forCodeObject(uint32_t CodeObject) const {
  auto It = ByCodeObject.find(CodeObject);
  return It != ByCodeObject.end() ? *It->second : *Merged;
}

uint32_t MarkerMaps::codeObjectOfKernel(StringRef Kernel) const {
  auto It = KernelCodeObject.find(Kernel);
  if (It != KernelCodeObject.end())
    return It->second;
  uint32_t Id;
  StringRef Prefix = Kernel.split(" / 0x").first;
  if (Prefix.size() != Kernel.size() && !Prefix.getAsInteger(10, Id))
    return Id;
  return ByCodeObject.size() == 1 ? ByCodeObject.begin()->first : 0;
}

namespace {

std::optional<MarkerKind> kindOf(std::string_view K) {
  if (K == "F" || K == "function" || K == "func")
    return MarkerKind::Function;
  if (K == "K" || K == "kernel")
    return MarkerKind::Kernel;
  if (K == "U" || K == "user" || K == "user_scope" || K == "userscope")
    return MarkerKind::UserScope;
  if (K == "P" || K == "point")
    return MarkerKind::Point;
  return std::nullopt;
}

/// Rows of the three code.json tables, before they become FuncMaps.
struct CodeJsonTables {
  std::map<uint32_t, FuncMap> Maps;
  std::map<uint32_t, MarkerEncoding> Layouts;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> Payloads;
};

Error readCodeJson(StringRef Path, CodeJsonTables &T) {
  JsonReader Reader;
  return Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key == "sqtt_funcmap") {
        for (auto Row : Field.value().get_array()) {
          std::vector<std::string> Cols;
          uint64_t Nums[2] = {};
          unsigned N = 0;
          for (auto Col : Row.get_array()) {
            od::value V = Col.value();
            if (N < 2)
              Nums[N] = readUnsigned(V, "sqtt_funcmap column");
            else if (N < 5)
              Cols.push_back(V.type() == od::json_type::string
                                 ? std::string(std::string_view(V.get_string()))
                                 : std::string());
            ++N;
          }
          if (N < 4)
            throw JsonFormatError("sqtt_funcmap row with " + std::to_string(N) +
                                  " columns, expected at least 4");
          std::optional<MarkerKind> Kind = kindOf(Cols[0]);
          if (!Kind)
            throw JsonFormatError("sqtt_funcmap row with unknown kind \"" + Cols[0] + "\"");
          Marker M;
          M.Kind = *Kind;
          M.Id = uint32_t(Nums[1]);
          M.Name = Cols[1];
          M.SourceLoc = Cols.size() > 2 ? Cols[2] : "";
          if (M.Kind == MarkerKind::Point)
            M.Group = classifyPointName(M.Name);
          T.Maps[uint32_t(Nums[0])].add(std::move(M));
        }
      } else if (Key == "sqtt_funcmap_layout" || Key == "sqtt_funcmap_payloads") {
        bool Layout = Key == "sqtt_funcmap_layout";
        for (auto Row : Field.value().get_array()) {
          uint64_t C[3];
          unsigned N = 0;
          for (auto Col : Row.get_array()) {
            uint64_t V = readUnsigned(Col.value(), "funcmap table column");
            if (N < 3)
              C[N] = V;
            ++N;
          }
          if (N != 3)
            throw JsonFormatError(std::string(Key) + " row must have 3 columns");
          if (Layout)
            T.Layouts[uint32_t(C[0])] = MarkerEncoding{uint32_t(C[1]), uint32_t(C[2])};
          else
            T.Payloads.push_back({uint32_t(C[0]), uint32_t(C[1]), uint32_t(C[2])});
        }
      }
    }
  });
}

/// The lenient funcmap of a code object file; an empty map without section.
Expected<FuncMap> readCodeObjectFuncMap(StringRef Path, std::vector<std::string> &Warnings) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return fileError(Path, Buf.getError().message());
  Expected<elf::ElfImage> Image = elf::ElfImage::create((*Buf)->getBuffer());
  if (!Image)
    return fileError(Path, toString(Image.takeError()));
  auto Sections = Image->findSections(funcmap::FuncMapSectionName);
  if (Sections.empty())
    return FuncMap();
  std::vector<FuncMapWarning> ParseWarnings;
  Expected<FuncMap> Map =
      parseFuncMap(Image->sectionContents(Image->sections()[Sections.front()]),
                   ParseMode::Lenient, &ParseWarnings);
  for (const FuncMapWarning &W : ParseWarnings)
    Warnings.push_back((Path + ": .sqtt_funcmap line " + Twine(W.Line) + ": " + W.Message).str());
  return Map;
}

} // namespace

Expected<MarkerMaps> readMarkerMaps(StringRef CodeJson,
                                    const std::map<uint32_t, std::string> &CodeObjects) {
  CodeJsonTables T;
  if (sys::fs::exists(CodeJson))
    if (Error E = readCodeJson(CodeJson, T))
      return std::move(E);
  for (auto &[Id, Enc] : T.Layouts)
    T.Maps[Id].setMarkerEncoding(Enc);
  for (auto &[CodeObject, Id, Count] : T.Payloads)
    T.Maps[CodeObject].setExtraPayloadCount(Id, Count);

  MarkerMaps Maps;
  for (auto &[Id, Path] : CodeObjects) {
    if (T.Maps.count(Id))
      continue;
    Expected<FuncMap> Map = readCodeObjectFuncMap(Path, Maps.Warnings);
    if (!Map)
      return Map.takeError();
    T.Maps[Id] = std::move(*Map);
  }
  FuncMap Merged;
  for (auto &[Id, Map] : T.Maps) {
    for (const Marker &M : Map.markers()) {
      if (M.Kind == MarkerKind::Kernel)
        Maps.KernelCodeObject.try_emplace(M.Name, Id);
      else if (!Merged.find(M.Id))
        Merged.add(M);
    }
    if (Map.waveSize() && !Merged.waveSize())
      Merged.setWaveSize(*Map.waveSize());
    if (Map.markerEncoding() && !Merged.markerEncoding())
      Merged.setMarkerEncoding(*Map.markerEncoding());
    Maps.ByCodeObject[Id] = std::make_unique<MarkerIndex>(std::move(Map));
  }
  Maps.Merged = std::make_unique<MarkerIndex>(std::move(Merged));
  return Maps;
}

} // namespace stinkytofu::trace
