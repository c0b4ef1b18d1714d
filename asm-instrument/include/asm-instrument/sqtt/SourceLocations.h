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
#include <vector>

namespace stinkytofu::sqtt {

class SourceLocations {
public:
  /// Collects the module's `.file` directives.
  explicit SourceLocations(const Module &M);

  /// `file:line` of \p F.
  std::string of(const Function &F) const;
  /// `file:line` of each instruction of \p F: of the last `.loc` before
  /// it, else the `.s` file's name and its own line.
  llvm::DenseMap<const Instruction *, std::string>
  instructionLocations(const Function &F) const;

  /// A kernel named by an `.amdhsa_kernel` descriptor that has no function
  /// in the IR: its body is pre-assembled words (`.long`), so it carries no
  /// markers, but decoders still look its vaddr up through a K: row.
  struct CodelessKernel {
    std::string Name;
    std::string SourceLoc; ///< `file:line` of its label, when found
  };
  std::vector<CodelessKernel> codelessKernels() const;

private:
  /// `file:line` of a `.loc N L` line whose file N is known.
  std::optional<std::string> locDirective(llvm::StringRef Line) const;
  /// `file:line` of the line `Label:` in the module's text items.
  std::string labelLocation(llvm::StringRef Label) const;

  const Module &M;
  /// The assembly file's name, as the funcmap holds it.
  std::string AsmFile;
  /// The `.file` names, as the funcmap holds them.
  llvm::DenseMap<unsigned, std::string> Files;
};

} // namespace stinkytofu::sqtt

#endif
