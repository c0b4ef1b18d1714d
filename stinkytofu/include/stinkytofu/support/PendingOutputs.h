//===- PendingOutputs.h - All of a run's outputs, or none --------*- C++ -*-===//
//
// A tool run writes several files (-o, the funcmap, the statistics). Each is
// rendered into a temporary file beside its destination (stdout, and what is
// no regular file such as /dev/null: into memory) as the run goes; commit() renames them all into place once the
// whole run has succeeded. A run that fails, or returns before commit(),
// leaves every destination as it was.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_PENDINGOUTPUTS_H
#define STINKYTOFU_SUPPORT_PENDINGOUTPUTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace stinkytofu {

class PendingOutputs {
public:
  PendingOutputs() = default;
  PendingOutputs(const PendingOutputs &) = delete;
  PendingOutputs &operator=(const PendingOutputs &) = delete;
  /// Deletes the temporary files of a run that did not commit.
  ~PendingOutputs();

  /// Renders \p Path ('-': stdout) with \p Write, now, into its temporary
  /// file. An error of the file names it; one of \p Write is passed on.
  llvm::Error add(llvm::StringRef Path,
                  llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);
  /// Moves every output into place.
  llvm::Error commit();

private:
  struct Output {
    std::string Path;
    std::optional<llvm::sys::fs::TempFile> Temp; // none: written directly
    std::string Direct;                           // what is written directly
  };
  static llvm::Error writeDirect(const Output &O);
  std::vector<Output> Outputs;
};

} // namespace stinkytofu

#endif
