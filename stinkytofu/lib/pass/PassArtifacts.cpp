//===- PassArtifacts.cpp - What passes produce besides the module ---------===//
#include "stinkytofu/pass/PassArtifacts.h"

namespace stinkytofu {

void PassArtifacts::addFile(llvm::StringRef Path, std::string Contents) {
  for (File &F : Files)
    if (F.Path == Path) {
      F.Contents = std::move(Contents);
      return;
    }
  Files.push_back({Path.str(), std::move(Contents)});
}

} // namespace stinkytofu
