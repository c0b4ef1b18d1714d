//===- PrintLivenessPass.h - The PrintLiveness pass --------------*- C++ -*-===//
//
// `--passes=CFGBuilder,PrintLiveness`: computes register liveness
// (Liveness.h) for every function of the module and prints each block's
// live-in and live-out registers to its context's dumpStream() (stderr by
// default). It changes nothing; it exists to inspect liveness from the
// command line and to time the whole analysis (bench/bench-identity.sh
// --opt-args). Run the CFG builder first: without
// edges every block is an exit.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_PRINTLIVENESSPASS_H
#define STINKYTOFU_TRANSFORMS_PRINTLIVENESSPASS_H

#include "stinkytofu/pass/PassArguments.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// Prints the liveness of every function of \p M, in source order: a
/// `liveness of @name:` header, then Liveness::print. An error for a
/// function without a valid CFG (run CFGBuilder first).
llvm::Error printModuleLiveness(Module &M, AnalysisManager &AM, llvm::raw_ostream &OS);

/// The `PrintLiveness` pass. Takes no arguments.
llvm::Expected<std::unique_ptr<Pass>> createPrintLivenessPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
