//===- MarkerMaps.h - Marker ids to names, per code object ------*- C++ -*-===//
//
// Marker ids are scoped per code object. The funcmap of a code object comes
// from code.json's `sqtt_funcmap` tables (with `sqtt_funcmap_layout` and
// `sqtt_funcmap_payloads`) when they list it, else from the `.sqtt_funcmap`
// section of its `*_code_object_id_<N>.out` file. A wave whose code object
// is unknown resolves ids through the merged map of all code objects (the
// reference decoders do the same).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_MARKERMAPS_H
#define ASM_INSTRUMENT_TRACE_MARKERMAPS_H

#include "asm-instrument/funcmap/FuncMap.h"
#include "asm-instrument/trace/AddressLayout.h"
#include "asm-instrument/trace/TraceSink.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::trace {

struct MarkerInfo {
  MarkerClass Class = MarkerClass::Unknown;
  llvm::StringRef Name, SourceLoc;
  /// Raw records after the header (R: row; address blocks without one get
  /// the count their layout implies).
  uint32_t Payloads = 0;
  AddressLayout Address = AddressLayout::None;
};

/// One code object's funcmap, indexed by id.
class MarkerIndex {
public:
  explicit MarkerIndex(funcmap::FuncMap Map);
  const MarkerInfo *find(uint32_t Id) const {
    if (Id < Small.size())
      return Small[Id];
    auto It = ById.find(Id);
    return It == ById.end() ? nullptr : &It->second;
  }
  /// The M: row: headers carry a shader-clock sample.
  std::optional<funcmap::MarkerEncoding> encoding() const { return Map.markerEncoding(); }
  unsigned waveSize() const { return Map.waveSize().value_or(64); }

private:
  funcmap::FuncMap Map;
  llvm::DenseMap<uint32_t, MarkerInfo> ById;
  /// ById for the ids below 4096 (the pass numbers from 1): looked up once
  /// per record, so a plain table.
  std::vector<const MarkerInfo *> Small;
};

class MarkerMaps {
public:
  /// The map of \p CodeObject, or the merged map when it has none.
  const MarkerIndex &forCodeObject(uint32_t CodeObject) const;
  /// The code object of a kernel: the `K:` row naming it, or the id in a
  /// "<codeobj> / 0x<addr>" name; 0 when unknown.
  uint32_t codeObjectOfKernel(llvm::StringRef Kernel) const;
  bool empty() const { return ByCodeObject.empty(); }

  std::map<uint32_t, std::unique_ptr<MarkerIndex>> ByCodeObject;
  std::unique_ptr<MarkerIndex> Merged;
  llvm::StringMap<uint32_t> KernelCodeObject;
  /// Lenient-parse warnings, as "FILE: line N: message".
  std::vector<std::string> Warnings;
};

/// Reads code.json (\p CodeJson may be missing) and the code objects in
/// \p CodeObjects (id -> path) that code.json does not cover.
llvm::Expected<MarkerMaps> readMarkerMaps(llvm::StringRef CodeJson,
                                          const std::map<uint32_t, std::string> &CodeObjects);

} // namespace stinkytofu::trace

#endif
