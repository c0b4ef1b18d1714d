//===- UnreachableBlockElimPass.h - Delete code control never reaches -*- C++ -*-===//
//
// `StinkyUnreachableBlockElimPass` (the reference's name; no arguments)
// erases the blocks that hold code and that control cannot reach from the
// function's first block over CFG edges (Reachability.h; the CFG is built
// when the function has none). A block is deleted only when that is a
// proof:
//   - every control transfer of the function has known targets: a computed
//     branch without a proven target (LabelData) in a kernel, a macro
//     invocation or a statement MC does not know leaves the function as it
//     is (a remark says why);
//   - nothing outside the dead blocks names the block's label (an
//     instruction's operand, a directive, module text such as `.size`):
//     code that takes a label's address may jump there, so such a block
//     stays, and so do the dead blocks it reaches.
// Directives and comments of an erased block stay in the function
// (BasicBlock::eraseFromParent). The pass works on the whole module only: a
// scoped run (--start/--end) changes nothing. One remark line per function
// with something to say goes to the statistics stream.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_UNREACHABLEBLOCKELIMPASS_H
#define STINKYTOFU_TRANSFORMS_UNREACHABLEBLOCKELIMPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createStinkyUnreachableBlockElimPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
