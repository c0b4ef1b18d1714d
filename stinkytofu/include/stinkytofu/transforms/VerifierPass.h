//===- VerifierPass.h - The Verifier pass ------------------------*- C++ -*-===//
#ifndef STINKYTOFU_TRANSFORMS_VERIFIERPASS_H
#define STINKYTOFU_TRANSFORMS_VERIFIERPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

/// The `Verifier` pass: changes nothing, fails the pipeline when
/// verifyModule (analysis/Verifier.h) does. Takes no arguments.
llvm::Expected<std::unique_ptr<Pass>> createVerifierPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
