//===- InsertInitialUnclausedVmemPass.h - A VMEM op opens each kernel -*- C++ -*-===//
//
// `InsertInitialUnclausedVmemPass` (the reference's name; no arguments)
// puts `global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE` and `v_nop` before the
// first instruction of every kernel, as the reference's gfx1250 pipeline
// does: the kernel's first vector memory operation is then a lone prefetch,
// outside any clause. The prefetch is a hint: it writes no register and no
// memory and raises no fault, and its address (v0, s[0:1] as the wave
// starts) only decides which line is warmed. A kernel that already starts
// with global_prefetch_b8 is left alone, so running the pass twice adds
// nothing. Only gfx1250 has the instruction (MC refuses it elsewhere): on
// another target the pass is an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_INSERTINITIALUNCLAUSEDVMEMPASS_H
#define STINKYTOFU_TRANSFORMS_INSERTINITIALUNCLAUSEDVMEMPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createInsertInitialUnclausedVmemPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
