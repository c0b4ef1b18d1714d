//===- MemTokenConsistencyCheckPass.h - Memory tokens all or none -*- C++ -*-===//
//
// `MemTokenConsistencyCheckPass` (the reference's name; no arguments)
// checks that within each block the LDS accesses are either all tagged with
// a memory token (`mod.memtoken`, ir/Modifier.h MemTokenData: the logical
// LDS buffer the producer says the access touches) or all untagged. The
// passes that order LDS accesses by token treat an untagged access as
// touching every buffer; a block where only some carry tokens is a producer
// bug, since the tags then describe a partial picture. LDS accesses are the
// DS instructions that read or write LDS and the tensor LDS transfers
// (tensor_load_to_lds, tensor_store_from_lds), as the counter model
// (hw/WaitCounters.h) classifies MC's instructions. Blocks are those of the
// IR as it stands (label to label, or the CFG's when it was built).
//
// A mixed block is an error at its first untagged access naming the pass,
// the block and the first tagged one; nothing is written. Assembly input
// carries no tokens (only `.stir` does): it always passes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_MEMTOKENCONSISTENCYCHECKPASS_H
#define STINKYTOFU_TRANSFORMS_MEMTOKENCONSISTENCYCHECKPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

class CounterModel;
class Instruction;
class Module;

/// Whether \p I accesses LDS memory: a DS read or write of LDS (not
/// ds_bpermute and the like) or a tensor LDS transfer. What memory tokens
/// tag.
bool isLdsAccess(const CounterModel &Counters, const Instruction &I);

/// The check of this pass as an error message of \p PassName (at the first
/// untagged LDS access of the first mixed block), for the passes that rely
/// on it.
llvm::Error checkMemTokensConsistent(const Module &M, llvm::StringRef PassName);

llvm::Expected<std::unique_ptr<Pass>>
createMemTokenConsistencyCheckPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
