//===- FlattenCFGPass.h - Undo the CFG builder's splits ----------*- C++ -*-===//
//
// `FlattenCFGPass` (the reference's name; no arguments) undoes CFGBuilder:
// every block the builder split off after a terminator (a block without a
// label) goes back into the block before it, and every edge is dropped, so
// the function is as the reader made it: one block per label. Labels stay,
// so a later CFGBuilder splits the same way again. In the reference a
// function is then one flat block with its labels inside; here a label
// always starts a block, so the blocks that remain are those the labels
// start. An unlabelled block that holds a directive stays (merging would
// move instructions past it). Instructions are not changed; their comments
// move with them.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_FLATTENCFGPASS_H
#define STINKYTOFU_TRANSFORMS_FLATTENCFGPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createFlattenCFGPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
