//===- IncludeGuard.h - Bounded `.include` for LLVM MC -----------*- C++ -*-===//
//
// LLVM MC follows `.include` without limit: a file that includes itself never
// ends. The reader gives MC's source manager this file system, which opens
// an included file only within InputLimits: nesting no deeper than the
// limit, no file that is already being included, and the file's text within
// checkInputLimits. The first violation is kept as a rendered diagnostic and
// MC sees the file as missing; the reader then reports the violation.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_PARSE_INCLUDEGUARD_H
#define STINKYTOFU_LIB_PARSE_INCLUDEGUARD_H

#include "stinkytofu/mc/InputLimits.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>

namespace stinkytofu {

class IncludeGuardFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  IncludeGuardFileSystem(llvm::SourceMgr &SM, const InputLimits &Limits,
                         const llvm::MCAsmInfo &MAI);

  /// The parser whose `.include` statements open files (null: none running).
  void setParser(const llvm::MCAsmParser *P) { Parser = P; }
  /// The first include that exceeded a limit, rendered with its position.
  const std::optional<std::string> &violation() const { return Violation; }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;

private:
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> refuse(llvm::SMLoc At,
                                                         const llvm::Twine &Message);

  llvm::SourceMgr &SM;
  const InputLimits &Limits;
  const llvm::MCAsmInfo &MAI;
  const llvm::MCAsmParser *Parser = nullptr;
  std::optional<std::string> Violation;
};

} // namespace stinkytofu

#endif
