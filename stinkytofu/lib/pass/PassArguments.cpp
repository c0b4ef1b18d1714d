//===- PassArguments.cpp - A pass's arguments -----------------------------===//
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace stinkytofu {

PassArguments parsePassArguments(StringRef Text) {
  PassArguments Args;
  SmallVector<StringRef, 8> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    auto [Key, Value] = Part.split('=');
    Args.emplace_back(Key.trim().str(), Value.trim().str());
  }
  return Args;
}

} // namespace stinkytofu
