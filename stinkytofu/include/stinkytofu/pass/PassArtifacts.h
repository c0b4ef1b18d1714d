//===- PassArtifacts.h - What passes produce besides the module --*- C++ -*-===//
//
// A pass that produces more than the module (a file such as a funcmap, a
// section to patch into the code object) reports it here; the driver
// delivers what a run collected once the whole run has succeeded. The
// driver knows no pass: it never looks a pass up by name or casts it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASS_PASSARTIFACTS_H
#define STINKYTOFU_PASS_PASSARTIFACTS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace stinkytofu {

class PassArtifacts {
public:
  struct File {
    std::string Path;
    std::string Contents;
  };

  /// A file to write; a later file for the same path replaces it.
  void addFile(llvm::StringRef Path, std::string Contents);
  const std::vector<File> &files() const { return Files; }

  /// The contents of a section the code object made of the module should
  /// have (`.sqtt_funcmap`); a later pass's contents replace an earlier's.
  void setObjectSection(llvm::StringRef Name, std::string Contents) {
    ObjectSections[Name] = std::move(Contents);
  }
  void removeObjectSection(llvm::StringRef Name) { ObjectSections.erase(Name); }
  const llvm::StringMap<std::string> &objectSections() const { return ObjectSections; }

private:
  std::vector<File> Files;
  llvm::StringMap<std::string> ObjectSections;
};

} // namespace stinkytofu

#endif
