//===- SourceLocations.h - Where functions come from, for F:/K: rows -*- C++ -*-===//
//
// The `@file:line` of a function's F: or K: row: from the debug directives
// when the assembly has them (the function's first `.loc N L C`, with N
// named by `.file N ["dir"] "name"`), else the `.s` file's name and the
// line of the function's label.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_SOURCELOCATIONS_H
#define ASM_INSTRUMENT_SQTT_SOURCELOCATIONS_H

#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace stinkytofu::sqtt {

class SourceLocations {
public:
  /// Collects the module's `.file` directives.
  explicit SourceLocations(const Module &M);

  /// `file:line` of \p F.
  std::string of(const Function &F) const;

private:
  const Module &M;
  llvm::DenseMap<unsigned, std::string> Files;
};

} // namespace stinkytofu::sqtt

#endif
