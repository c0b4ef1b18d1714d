//===- RedundantMovEliminationPass.h - Delete repeated computations -*- C++ -*-===//
//
// `RedundantMovEliminationPass`: deletes an instruction that repeats an
// earlier one of the same block (same mnemonic, same operands as written)
// when its destination already holds that value: the earlier instruction
// has no effect besides its register writes, does not read what it writes,
// and nothing in between wrote any register either one reads or writes
// (EXEC included, which every VALU instruction reads). The reference
// checks only that the source was not redefined, so a clobbered
// destination (`v_mov_b32 v1, v2; v_add_u32 v1, ...; v_mov_b32 v1, v2`) lost
// its second copy; here it is kept. A directive, a call, a macro invocation
// or an opaque statement forgets every earlier instruction.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REDUNDANTMOVELIMINATIONPASS_H
#define STINKYTOFU_TRANSFORMS_REDUNDANTMOVELIMINATIONPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createRedundantMovEliminationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
