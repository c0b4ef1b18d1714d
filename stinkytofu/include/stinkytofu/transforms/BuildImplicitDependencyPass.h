//===- BuildImplicitDependencyPass.h - LDS memory tokens as dependences -*- C++ -*-===//
//
// `StinkyBuildImplicitDependencyPass` (the reference's name; no arguments)
// turns the memory tokens of `mod.memtoken` (the LDS buffers an access or a
// barrier is about) into dependences, `mod.lds_deps` (ir/Modifier.h
// LdsDependenceData, the reference's `LDS<t>` pseudo-registers): an LDS
// writer (a DS store, a tensor or DMA transfer into LDS) defines its
// tokens, an LDS reader uses them (an atomic does both), a barrier
// (`s_barrier`, `s_barrier_signal -1`, `s_barrier_wait -1`) defines and
// uses them. Writers before a barrier, the barrier, readers after it: the
// order the dependence DAG and the schedule validator then keep.
//
// What it changes for a scheduler (analysis/InstructionEffects.h): a
// barrier with LDS dependences is no longer a fence. Instructions that do
// not access memory (VALU, matrix, SALU) may cross it; LDS accesses of
// other tokens may cross it; global and GDS accesses and other barriers
// may not. A split barrier's wait stays a fence (it carries the tokens for
// StinkyMergeBarrierPass). A split barrier with another id than -1 (a
// named barrier) keeps its tokens but gets no dependences: it synchronises
// a subset of the waves, which the tokens do not describe.
//
// Errors (at the instruction, naming the pass; nothing is written): a
// block whose LDS accesses are partly tagged (MemTokenConsistencyCheckPass),
// an empty token list, a token on an instruction that neither accesses LDS
// nor is a barrier. Every target has LDS and barriers: it runs on all.
// Assembly input carries no tokens: the pass changes nothing there.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_BUILDIMPLICITDEPENDENCYPASS_H
#define STINKYTOFU_TRANSFORMS_BUILDIMPLICITDEPENDENCYPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createStinkyBuildImplicitDependencyPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
