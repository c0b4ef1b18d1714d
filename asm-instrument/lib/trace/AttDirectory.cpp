//===- AttDirectory.cpp - Find the dispatches of a rocprofv3 --att run ----===//
#include "asm-instrument/trace/AttDirectory.h"
#include "asm-instrument/trace/JsonInput.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

std::string DispatchDir::file(StringRef Name) const {
  SmallString<256> P(Path);
  sys::path::append(P, Name);
  return std::string(P);
}

namespace {

struct FoundCodeObject {
  std::string Dir;
  uint32_t Id;
  std::string Path;
};

/// `<prefix>_code_object_id_<N>.out` -> N.
std::optional<uint32_t> codeObjectId(StringRef FileName) {
  if (!FileName.consume_back(".out"))
    return std::nullopt;
  size_t At = FileName.rfind("code_object_id_");
  uint32_t Id;
  if (At == StringRef::npos ||
      FileName.drop_front(At + strlen("code_object_id_")).getAsInteger(10, Id))
    return std::nullopt;
  return Id;
}

/// `shaderdata_<SE>_<IDX>.json` -> (SE, IDX).
std::optional<std::pair<uint32_t, uint32_t>> shaderDataIndex(StringRef FileName) {
  if (!FileName.consume_front("shaderdata_") || !FileName.consume_back(".json"))
    return std::nullopt;
  auto [SE, Idx] = FileName.split('_');
  uint32_t S, I;
  if (SE.getAsInteger(10, S) || Idx.getAsInteger(10, I))
    return std::nullopt;
  return std::make_pair(S, I);
}

bool isDispatchDir(StringRef Dir) {
  SmallString<256> P(Dir);
  sys::path::append(P, "filenames.json");
  return sys::fs::exists(P);
}

/// `wave_filenames`: SE -> SIMD -> slot -> index -> [file, begin, end].
void readWaveFilenames(od::value Value, DispatchDir &D) {
  if (Value.type() == od::json_type::null)
    return;
  for (auto SEField : Value.get_object()) {
    uint32_t SE = parseKeyNumber(SEField.unescaped_key(), "shader engine");
    for (auto SIMDField : SEField.value().get_object()) {
      uint32_t SIMD = parseKeyNumber(SIMDField.unescaped_key(), "SIMD");
      for (auto SlotField : SIMDField.value().get_object()) {
        uint32_t Slot = parseKeyNumber(SlotField.unescaped_key(), "wave slot");
        for (auto IndexField : SlotField.value().get_object()) {
          uint32_t Index = parseKeyNumber(IndexField.unescaped_key(), "wave index");
          auto Row = IndexField.value().get_array();
          auto It = Row.begin();
          if (It == Row.end())
            throw JsonFormatError("wave_filenames: empty entry");
          std::string_view Name = (*It).get_string();
          D.WaveFiles.push_back({SE, SIMD, Slot, Index, D.file(StringRef(Name.data(), Name.size()))});
        }
      }
    }
  }
}

Error readFilenames(DispatchDir &D, JsonReader &Reader) {
  std::string Path = D.file("filenames.json");
  bool HasShaderDataList = false;
  Error E = Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key == "version") {
        D.Version = std::string(std::string_view(Field.value().get_string()));
      } else if (Key == "gfxip") {
        D.GfxIp = unsigned(readUnsigned(Field.value(), "gfxip"));
      } else if (Key == "pc_sampling") {
        bool On = false;
        D.PCSampling = !Field.value().get_bool().get(On) && On;
      } else if (Key == "wave_filenames") {
        readWaveFilenames(Field.value(), D);
      } else if (Key == "shaderdata_filenames") {
        HasShaderDataList = true;
        for (auto SEField : Field.value().get_object()) {
          uint32_t SE = parseKeyNumber(SEField.unescaped_key(), "shader engine");
          for (auto Entry : SEField.value().get_array()) {
            auto Row = Entry.get_array();
            auto It = Row.begin();
            if (It == Row.end())
              throw JsonFormatError("shaderdata_filenames: empty entry");
            std::string_view Name = (*It).get_string();
            // begin and end follow; on-demand skips what is not read.
            D.ShaderData.push_back({SE, D.file(StringRef(Name.data(), Name.size())), 0});
          }
        }
      }
    }
  });
  if (E)
    return E;
  if (D.Version.empty())
    return fileError(Path, "no \"version\" field");
  if (D.Version != "3.0.0" && D.Version != "3.1.0")
    return fileError(Path, "unknown schema version \"" + D.Version +
                               "\" (supported: 3.0.0, 3.1.0)");
  if (HasShaderDataList)
    return Error::success();
  // 3.0.0 writers list no shaderdata files: take them from the directory.
  std::error_code EC;
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::string>> Found;
  for (sys::fs::directory_iterator It(D.Path, EC), End; It != End && !EC; It.increment(EC))
    if (auto Index = shaderDataIndex(sys::path::filename(It->path())))
      Found.push_back({*Index, It->path()});
  if (EC)
    return fileError(D.Path, EC.message());
  llvm::sort(Found);
  for (auto &[Index, P] : Found)
    D.ShaderData.push_back({Index.first, P, 0});
  return Error::success();
}

} // namespace

Error checkComplete(const DispatchDir &D, ArrayRef<StringRef> Required, bool WaveFiles) {
  std::vector<std::string> Missing;
  for (StringRef Name : Required)
    if (!sys::fs::exists(D.file(Name)))
      Missing.push_back(Name.str());
  auto Listed = [&](StringRef Path) {
    if (!sys::fs::exists(Path))
      Missing.push_back((sys::path::filename(Path) + " (listed in filenames.json)").str());
  };
  for (const ShaderDataFile &F : D.ShaderData)
    Listed(F.Path);
  if (WaveFiles)
    for (const WaveFile &W : D.WaveFiles)
      Listed(W.Path);
  if (Missing.empty())
    return Error::success();
  // A capture copied without its wave files misses hundreds: name a few.
  const size_t Shown = 8;
  std::string List = join(ArrayRef(Missing).take_front(Shown), ", ");
  if (Missing.size() > Shown)
    List += " and " + std::to_string(Missing.size() - Shown) + " more";
  return fileError(D.Path, "incomplete capture: missing " + List);
}

Expected<std::vector<DispatchDir>> findDispatches(StringRef Root) {
  if (!sys::fs::is_directory(Root))
    return fileError(Root, sys::fs::exists(Root) ? "not a directory" : "no such directory");
  std::vector<std::string> Dirs;
  std::vector<FoundCodeObject> CodeObjects;
  auto Visit = [&](StringRef Dir) {
    if (isDispatchDir(Dir))
      Dirs.push_back(Dir.str());
  };
  Visit(Root);
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef P = It->path();
    if (It->type() == sys::fs::file_type::directory_file)
      Visit(P);
    else if (auto Id = codeObjectId(sys::path::filename(P)))
      CodeObjects.push_back({sys::path::parent_path(P).str(), *Id, P.str()});
  }
  if (EC)
    return fileError(Root, EC.message());
  if (Dirs.empty())
    return fileError(Root, "no ui_output directory (a directory with filenames.json)");
  llvm::sort(Dirs);

  JsonReader Reader;
  std::vector<DispatchDir> Result;
  for (std::string &Dir : Dirs) {
    DispatchDir D;
    D.Path = Dir;
    D.Name = sys::path::filename(Dir).str();
    if (Error E = readFilenames(D, Reader))
      return std::move(E);
    // A missing one is checkComplete()'s to report, with the others.
    for (ShaderDataFile &F : D.ShaderData)
      if (sys::fs::file_size(F.Path, F.Size))
        F.Size = 0;
    // The nearest code object of each id: in the directory itself or the
    // closest ancestor (rocprofv3 writes them next to the ui directories).
    std::map<uint32_t, size_t> Depth;
    for (const FoundCodeObject &C : CodeObjects) {
      StringRef Owner = C.Dir;
      bool Ancestor = StringRef(Dir).starts_with(Owner) &&
                      (Dir.size() == Owner.size() || Dir[Owner.size()] == '/');
      size_t Score = Ancestor ? Owner.size() + 1 : 0;
      auto [It, New] = Depth.try_emplace(C.Id, Score);
      if (New || Score > It->second) {
        It->second = Score;
        D.CodeObjects[C.Id] = C.Path;
      }
    }
    Result.push_back(std::move(D));
  }
  return Result;
}

} // namespace stinkytofu::trace
