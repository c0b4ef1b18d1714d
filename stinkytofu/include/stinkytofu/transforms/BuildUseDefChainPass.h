//===- BuildUseDefChainPass.h - Print use-def chains -------------*- C++ -*-===//
//
// `BuildUseDefChainPass[=includePseudo,noClearExisting]`: for every
// instruction of every function (the CFG is built where it is not valid),
// prints which definitions reach each 32-bit register it reads (explicit
// and implicit uses, from MC), by the line of the defining statement, or
// `entry` when a path from the function's entry reaches it undefined, to
// the context's dump stream (stderr by default). It changes nothing. The
// reference builds SSA PHIs and chains into its IR for other passes; here
// the chains are an analysis (ReachingDefs) any pass asks for, so nothing is
// stored and both arguments are accepted for compatibility without effect:
// the IR has no pseudo registers to include and no chains to clear.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_BUILDUSEDEFCHAINPASS_H
#define STINKYTOFU_TRANSFORMS_BUILDUSEDEFCHAINPASS_H

#include "stinkytofu/pass/PassArguments.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// Prints the use-def chains of \p F (its CFG must be valid).
void printUseDefChains(const Function &F, llvm::raw_ostream &OS);

llvm::Expected<std::unique_ptr<Pass>> createBuildUseDefChainPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
