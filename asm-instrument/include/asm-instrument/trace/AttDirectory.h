//===- AttDirectory.h - Find the dispatches of a rocprofv3 --att run -*- C++ -*-===//
//
// `rocprofv3 --att -d OUT` writes one `ui_output_agent_<A>_dispatch_<D>`
// directory per traced dispatch (each its own time domain) and the code
// objects it saw as `<prefix>_code_object_id_<N>.out`. findDispatches()
// walks OUT recursively (OUT may also be one ui directory) and reads each
// directory's filenames.json: the schema version and the shaderdata files.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_ATTDIRECTORY_H
#define ASM_INSTRUMENT_TRACE_ATTDIRECTORY_H

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

struct DispatchDir {
  std::string Path;
  std::string Name;
  std::string Version; ///< "3.0.0" or "3.1.0".
  unsigned GfxIp = 0;
  /// Per SE in the order filenames.json lists them (SEs ascending).
  std::vector<ShaderDataFile> ShaderData;
  /// Code object id -> `.out` file: the one nearest the directory.
  std::map<uint32_t, std::string> CodeObjects;

  std::string file(llvm::StringRef Name) const;
};

/// The dispatch directories under \p Root, sorted by path. An empty result
/// is an error ("no ui_output directory").
llvm::Expected<std::vector<DispatchDir>> findDispatches(llvm::StringRef Root);

} // namespace stinkytofu::trace

#endif
