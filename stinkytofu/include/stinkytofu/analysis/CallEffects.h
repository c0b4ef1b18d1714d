//===- CallEffects.h - What a call does to registers -------------*- C++ -*-===//
//
// A call (an instruction with IF_Call: s_swappc_b64, s_call_b64) runs a
// callee before control comes back to the next instruction. Its effect on
// registers, beyond its own operands, depends on what we know of the callee:
//
// - CallTargetData names callees that are all functions of the module: the
//   effect is read off their bodies.
//   Reads: what any of them may read before writing it: the live-in of the
//   callee's entry, by backward dataflow over its CFG with nothing live
//   after its returns (what the caller reads later is the caller's
//   liveness) and everything live where control leaves for an unknown
//   place; the union of all its facts().Uses when it has no CFG edges yet.
//   MayWrite: every register any of them writes.
//   MustWrite: the registers written on every path from entry to every exit
//   of every callee (a forward must-analysis over the callee's CFG); only
//   these end the liveness of a value that is live after the call.
//   Calls inside a callee contribute their own effect, a tail call its
//   callee's reads and may-writes (as if the callee ran at the end), an opaque
//   instruction reads and may write everything, and recursion makes the
//   inner call unknown.
// - Otherwise (no CallTargetData, a callee outside the module): the callee
//   is unknown. Reads: everything (hand-written callees such as Tensile
//   activation bodies take their inputs in whatever registers the kernel
//   uses, so the ABI's argument registers are no bound). MayWrite: every
//   register the calling convention lets a callee clobber
//   (CallingConvention.h). MustWrite: nothing.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CALLEFFECTS_H
#define STINKYTOFU_ANALYSIS_CALLEFFECTS_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

/// The effect of running a callee (or several possible callees), as sets of
/// register units.
struct CallEffect {
  /// Every callee was found in the module.
  bool Known = false;
  llvm::BitVector Reads;
  llvm::BitVector MayWrite;
  llvm::BitVector MustWrite;
};

/// A call instruction as one step of a backward liveness walk:
/// live-before = (live-after - Kill) | Gen.
struct CallTransfer {
  /// The call's own uses, and what the callee reads that the call did not
  /// just write (s_swappc_b64 writes the return address the callee reads).
  llvm::BitVector Gen;
  /// The call's own defs and what the callee surely writes.
  llvm::BitVector Kill;
  /// The call's own defs and what the callee may write.
  llvm::BitVector MayWrite;
};

/// Combines the operands of \p Call with the effect of its callee(s).
CallTransfer makeCallTransfer(const RegisterUnits &RU, const Instruction &Call,
                              const CallEffect &Effect);

/// Computes call effects for the calls of one module, caching a summary per
/// callee. Holds references to \p M and \p RU: use it while they live.
class CallEffectAnalyzer {
public:
  /// \p UnknownCalleeReads: what a callee that is not known reads, where the
  /// client knows every call follows a convention that passes less than
  /// everything (LivenessOptions::UnknownCalleeReads); it holds in the
  /// summaries of known callees too, for the calls they make.
  CallEffectAnalyzer(const Module &M, const RegisterUnits &RU,
                     std::optional<llvm::BitVector> UnknownCalleeReads = std::nullopt);

  /// The effect of the callee(s) of the call \p Call (not of the call's own
  /// operands).
  CallEffect effectOf(const Instruction &Call);
  /// The function a CallTargetData name designates: a function of that
  /// name, else one whose first block carries that label (`.set` aliases
  /// are followed); null when the module has none.
  const Function *findCallee(llvm::StringRef Name) const;

  /// The unknown-callee effect: reads everything (or UnknownCalleeReads),
  /// may clobber what the calling convention allows, surely writes nothing.
  const CallEffect &unknown();

private:
  /// The effect of running \p F from its entry to an exit; null while \p F
  /// is being summarised (recursion).
  const CallEffect *summaryOf(const Function &F);
  CallEffect summarise(const Function &F);

  const Module &M;
  const RegisterUnits &RU;
  std::optional<llvm::BitVector> UnknownCalleeReads;
  std::optional<CallEffect> Unknown;
  llvm::DenseMap<const Function *, std::unique_ptr<CallEffect>> Summaries;
  llvm::DenseSet<const Function *> InProgress;
};

} // namespace stinkytofu

#endif
