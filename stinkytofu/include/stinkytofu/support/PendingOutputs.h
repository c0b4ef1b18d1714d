//===- PendingOutputs.h - All of a run's outputs, or none --------*- C++ -*-===//
//
// A tool run writes several files (-o, the funcmap, the statistics). Each is
// rendered into a temporary file as the run goes, and commit() puts them all
// in place once the whole run has succeeded. A run that fails, or returns
// before commit(), leaves every destination as it was. The temporary file
// lies beside its destination and is renamed over it; stdout and what is no
// regular file (/dev/null, a pipe) cannot be renamed over, so theirs lies in
// the system's temporary directory and is copied to them at commit.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_PENDINGOUTPUTS_H
#define STINKYTOFU_SUPPORT_PENDINGOUTPUTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
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
  /// file; \p Mode sets the permissions of a file put in place (default:
  /// 0666 less the umask). An error of the file names it; one of \p Write is
  /// passed on.
  llvm::Error add(llvm::StringRef Path,
                  llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write,
                  std::optional<llvm::sys::fs::perms> Mode = std::nullopt);
  /// Puts every output in place.
  llvm::Error commit();

private:
  struct Output {
    std::string Path;
    llvm::sys::fs::TempFile Temp;
    bool Renamed; // false: copied to the destination
  };
  static llvm::Error copyTo(Output &O);
  std::vector<Output> Outputs;
};

/// One output, all at once or not at all.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Bytes,
                                std::optional<llvm::sys::fs::perms> Mode = std::nullopt);

} // namespace stinkytofu

#endif
