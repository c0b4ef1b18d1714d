//===- WaitCntPasses.h - Verify and insert memory-counter waits --*- C++ -*-===//
//
// Both passes run WaitCountAnalysis (analysis/WaitCountAnalysis.h) over
// every function (building its CFG if needed); docs/waitcnt.md describes
// the model.
//
// `WaitCntVerifier[=warnRedundant,NumWaves=N]` (the reference's
// WaitCntValidationCheckPass; `stinkytofu-opt --verify-waitcnt`): every
// instruction that lacks a wait is an error at its line and column, naming
// the register, the pending operation, the counter and the count it needs;
// with warnRedundant, waits that complete nothing are warnings.
//
// `StinkyWaitCntInsertionPass[=NumWaves=N,keepStaircases]`: inserts, right
// before each instruction that lacks one, the weakest waits that make the
// verifier pass, merged with a wait that already stands right there; then
// folds a run of them in one block into one stronger wait where the block's
// cycle estimate is no worse (WaitStaircase.h; not with keepStaircases).
// The waits already in the code stay; `mod.swaitcnt*` is filled in. A
// second run adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_WAITCNTPASSES_H
#define STINKYTOFU_TRANSFORMS_WAITCNTPASSES_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createWaitCntVerifierPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createStinkyWaitCntInsertionPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
