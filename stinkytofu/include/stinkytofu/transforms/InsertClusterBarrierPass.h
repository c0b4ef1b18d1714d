//===- InsertClusterBarrierPass.h - Cluster handshakes before tensor loads -*- C++ -*-===//
//
// `InsertClusterBarrierPass[=lead=N,rule3Mode=0|1|2,pgr=N,producerDrain=-1|0|1,
// streamKMulticast,waveIdx=REG]` (the reference's name and arguments, plus
// waveIdx) plants cluster-barrier
// handshakes in front of the tensor loads of a kernel, so that no
// workgroup of a cluster loads into the cluster's LDS before every
// workgroup has arrived there:
//
//     s_cmp_eq_u32 s[sgprWaveIdx], 0        ; wave 0 of the workgroup only
//     s_cbranch_scc0 label_skipCBPreSignal_N
//     s_barrier_signal -3                   ; arrive at the cluster barrier
//   label_skipCBPreSignal_N:
//     ...                                   ; the lead
//     s_barrier_wait -3                     ; every wave waits for the cluster
//     s_barrier_signal -1                   ; the workgroup barrier (anchor)
//
// Sites, found from the structure (the reference keys on Tensile's labels
// and comments; docs/passes.md): each tensor load into LDS (the counter
// model's TensorLds event) inside a natural loop whose block has a
// workgroup `s_barrier_signal -1` before it (one handshake per such signal,
// the wait right before it: the reference's Rule 3), and the kernel's first
// tensor load when it is in no loop (the wait right before it: Rules 1 and
// 2, whose signal the reference hoists to `label_GSU_1`). The signal goes
// `lead` estimated cycles (InstTiming's issue cycles, a matrix op's pipe
// cycles; default 100 as in the reference, negative: unset) before the
// wait, within the block, never above another cluster barrier, a call or a
// counter wait (a signal is a release point: the wait analysis wants the
// LDS writes before it finished), and only where SCC is dead (Liveness):
// the gate overwrites SCC. Short of the lead, it goes to the highest such
// place. With SCC live everywhere down to the wait, the gate goes with the
// wait and the compare that set SCC in the block runs again after the skip
// label; when no such compare can be repeated, the handshake runs on two
// arms chosen by SCC (`s_cbranch_scc0`), each setting SCC back to what chose
// it (`s_cmp_eq_u32 0, 0` / `s_cmp_lg_u32 0, 0`).
// `rule3Mode=2` puts both halves right after the workgroup
// `s_barrier_wait -1` that follows the trigger (below the last reader of
// an SCC live there), above the load; `rule3Mode=1` the signal where mode 0
// puts the wait, the wait after that workgroup wait. A block where one loop
// handshake cannot take the mode keeps mode 0 (a remark on the stats
// stream). `producerDrain` puts `s_wait_tensorcnt 0` after each loop
// handshake's group of tensor loads (1 always, 0 never, -1 for
// `streamKMulticast` at `pgr` 2 and up). Every handshake is a signal and
// its wait in one block, so each path arrives and waits equally often.
//
// The wave-index SGPR is `waveIdx=` (an SGPR `s5` or a symbol), by default
// Tensile's `sgprWaveIdx` symbol when the module defines it; without one
// the pass is an error. A load every path reaches having waited at the
// cluster barrier since its last tensor load is left alone (a second run
// adds nothing). Targets without workgroup clusters (LLVM MC's `clusters`
// feature: gfx1250 only) are an error naming the pass. Pass scope bounds
// the loads it plants for.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_INSERTCLUSTERBARRIERPASS_H
#define STINKYTOFU_TRANSFORMS_INSERTCLUSTERBARRIERPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createInsertClusterBarrierPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
