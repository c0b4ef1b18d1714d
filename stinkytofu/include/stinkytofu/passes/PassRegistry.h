//===- PassRegistry.h - Passes by name ---------------------------*- C++ -*-===//
//
// One registry: every pass is registered once by name with a factory taking
// its `--Pass=arg,arg` arguments. Libraries add their passes through a
// register function (core: registerCorePasses).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASSES_PASSREGISTRY_H
#define STINKYTOFU_PASSES_PASSREGISTRY_H

#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

struct PassInfo {
  std::string Name;
  std::string Description;
  PassFactory Create;
};

class PassRegistry {
public:
  /// The process-wide registry, with the core passes registered.
  static PassRegistry &global();

  void add(PassInfo Info);
  const PassInfo *find(llvm::StringRef Name) const;
  const std::vector<PassInfo> &passes() const { return Passes; }

  /// Builds a pass from `Name` or `Name=a,b=c`; unknown names are errors.
  llvm::Expected<std::unique_ptr<Pass>> create(llvm::StringRef Spec) const;

private:
  std::vector<PassInfo> Passes;
};

/// Registers the passes of the core library (called by PassRegistry::global).
void registerCorePasses(PassRegistry &R);

} // namespace stinkytofu

#endif
