//===- PassRegistry.cpp - Passes by name ----------------------------------===//
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"
#include "stinkytofu/transforms/PrintLivenessPass.h"
#include "stinkytofu/transforms/VerifierPass.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

PassRegistry &PassRegistry::global() {
  static PassRegistry *R = [] {
    auto *Registry = new PassRegistry();
    registerCorePasses(*Registry);
    return Registry;
  }();
  return *R;
}

void PassRegistry::add(PassInfo Info) { Passes.push_back(std::move(Info)); }

const PassInfo *PassRegistry::find(StringRef Name) const {
  for (const PassInfo &P : Passes)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

Expected<std::unique_ptr<Pass>> PassRegistry::create(StringRef Spec) const {
  auto [Name, Args] = Spec.split('=');
  const PassInfo *Info = find(Name);
  if (!Info) {
    std::vector<StringRef> Known;
    for (const PassInfo &P : Passes)
      Known.push_back(P.Name);
    return createStringError(inconvertibleErrorCode(),
                             "unknown pass '" + Name + "' (known: " + join(Known, ", ") +
                                 ")");
  }
  Expected<std::unique_ptr<Pass>> P = Info->Create(parsePassArguments(Args));
  if (!P)
    return createStringError(inconvertibleErrorCode(),
                             Name + ": " + toString(P.takeError()));
  return P;
}

void registerCorePasses(PassRegistry &R) {
#define STINKYTOFU_PASS(Name, Factory, Description) R.add({Name, Description, Factory});
#include "stinkytofu/passes/CorePasses.def"
}

} // namespace stinkytofu
