//===- AttDirectory.h - Find the dispatches of a rocprofv3 --att run -*- C++ -*-===//
//
// `rocprofv3 --att -d OUT` writes one `ui_output_agent_<A>_dispatch_<D>`
// directory per traced dispatch (each its own time domain) and the code
// objects it saw as `<prefix>_code_object_id_<N>.out`. findDispatches()
// walks OUT recursively (OUT may also be one ui directory) and reads each
// directory's filenames.json: the schema version, the shaderdata files and
// the per-wave instruction files. checkComplete() names every file a
// command needs that is not there, in one error.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_ATTDIRECTORY_H
#define ASM_INSTRUMENT_TRACE_ATTDIRECTORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stinkytofu::trace {

struct ShaderDataFile {
  uint32_t SE = 0;
  std::string Path;
  uint64_t Size = 0; ///< Bytes, for the progress bar.
};

/// `se<SE>_sm<SIMD>_sl<SLOT>_wv<N>.json`: one wave's instruction rows.
struct WaveFile {
  uint32_t SE = 0, SIMD = 0, Slot = 0, Index = 0;
  std::string Path;
};

struct DispatchDir {
  std::string Path;
  std::string Name;
  std::string Version; ///< "3.0.0" or "3.1.0".
  unsigned GfxIp = 0;
  /// Per SE in the order filenames.json lists them (SEs ascending).
  std::vector<ShaderDataFile> ShaderData;
  /// In the order filenames.json lists them (`wave_filenames`; null or
  /// absent in PC-sampling captures).
  std::vector<WaveFile> WaveFiles;
  /// filenames.json says `"pc_sampling": true`.
  bool PCSampling = false;
  /// Code object id -> `.out` file: the one nearest the directory.
  std::map<uint32_t, std::string> CodeObjects;

  std::string file(llvm::StringRef Name) const;
};

/// An "incomplete capture" error naming every file of \p Required (names in
/// the directory), of the listed shaderdata files and, with \p WaveFiles, of
/// the listed wave files that does not exist; success when none is missing.
llvm::Error checkComplete(const DispatchDir &D, llvm::ArrayRef<llvm::StringRef> Required,
                          bool WaveFiles);

/// The dispatch directories under \p Root, sorted by path. An empty result
/// is an error ("no ui_output directory").
llvm::Expected<std::vector<DispatchDir>> findDispatches(llvm::StringRef Root);

} // namespace stinkytofu::trace

#endif
