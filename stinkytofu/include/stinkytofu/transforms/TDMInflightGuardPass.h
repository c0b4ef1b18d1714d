//===- TDMInflightGuardPass.h - A cap on a wave's tensor ops in flight -*- C++ -*-===//
//
// `TDMInflightGuardPass[=limit=N]` (the reference's name and argument,
// default 11): on gfx1250 a wave with more than 11 tensor (TDM) operations
// outstanding can deadlock the tensor unit, so no tensor operation may issue
// while `limit` are in flight. A forward dataflow over the CFG bounds the
// wave's tensor counter before each instruction: a tensor operation adds 1,
// a wait naming the tensor counter caps the bound at its count, a join takes
// the largest bound of its predecessors, a call keeps it when every callee
// is a function of the module that issues no tensor operation (nor runs one
// that does), and any other call or an instruction MC does not know makes
// it unknown (the counter's capacity + 1). A kernel
// starts at 0, a callable function at unknown. Where the bound before a
// tensor operation is `limit` or more, `s_wait_tensorcnt limit-1` goes right
// before it; the dataflow assumes those waits from the start, so each one it
// inserts is needed and a second run inserts nothing. Code no path reaches
// is left alone. limit=0 turns the pass off.
//
// It only adds waits, so what the wait and hazard verifiers accepted before
// they accept after. Targets with a tensor counter (gfx1250); an error
// naming the pass elsewhere.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_TDMINFLIGHTGUARDPASS_H
#define STINKYTOFU_TRANSFORMS_TDMINFLIGHTGUARDPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createTDMInflightGuardPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
