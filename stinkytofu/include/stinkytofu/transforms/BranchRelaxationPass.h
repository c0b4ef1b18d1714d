//===- BranchRelaxationPass.h - Short branches out of range become long -*- C++ -*-===//
//
// `s_branch` and `s_cbranch_*` reach -32768..32767 dwords (BranchRange.h).
// A short branch whose target lies farther becomes a long branch, the way
// LLVM's BranchRelaxation does it with SIInstrInfo::insertIndirectBranch:
//
//   s_cbranch_scc0 .Lfar          s_cbranch_scc1 .Lrelax_skipN    (inverted)
//                           =>    s_getpc_b64 s[P:P+1]
//                                 .Lpost_getpcN:
//                                 s_add_u32 sP, sP, (.Lfar-.Lpost_getpcN)&4294967295
//                                 s_addc_u32 sP+1, sP+1, (.Lfar-.Lpost_getpcN)>>32
//                                 s_setpc_b64 s[P:P+1]            (LabelData .Lfar)
//                                 .Lrelax_skipN:
//
// An `s_branch` loses the inverted branch and the skip label. Where MC
// assembles `s_add_pc_i64` (gfx1250) the jump is
// `s_add_pc_i64 .Lfar-.Lpost_addpcN` followed by `.Lpost_addpcN:`, which
// needs no register. Where MC has `s_wait_alu` (gfx12) the SALU writes of
// the pair are waited for before it is read (`s_wait_alu
// depctr_sa_sdst(0)` after the label and before `s_setpc_b64`), as in what
// LLVM emits there.
//
// The sequence writes its pair and SCC on the way to the target only: they
// must be dead there (Liveness: the target block's live-in). The pair is the
// lowest aligned one among the SGPRs the function already names
// (RegisterUsage.h), so no register budget grows; a branch without one, a
// condition without an inverse (s_cbranch_cdbg*) or a branch inside a macro
// expansion is an error naming the branch (file:line:col). LongBranchBuilder
// answers "could this branch become long?" for a pass that inserts code and
// relaxes afterwards (the SQTT instrumentation).
//
// Relaxing grows the code, which can push other branches out: the pass
// measures again and repeats until every short branch reaches. Branches in
// range and everything else are left as they are (byte-identical output).
// The CFG is rebuilt.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_BRANCHRELAXATIONPASS_H
#define STINKYTOFU_TRANSFORMS_BRANCHRELAXATIONPASS_H

#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

namespace stinkytofu {

class InstBuilder;

/// Long branches on one module's target: which form MC has, whether a
/// short branch can become one, and the edit that makes it one.
class LongBranchBuilder {
public:
  LongBranchBuilder(Module &M, InstBuilder &B);

  struct Plan {
    std::string Inverted; ///< the inverted mnemonic of a conditional branch
    unsigned Pair = 0;    ///< the scratch pair s[Pair:Pair+1], if the form has one
  };
  /// How \p Branch becomes a long branch to a label where \p LiveAtTarget
  /// (units of \p RU) are live, its pair among s0..s[SGPRs-1] and clear of
  /// \p Reserved; the error says why it cannot.
  llvm::Expected<Plan> plan(const Instruction &Branch, const llvm::BitVector &LiveAtTarget,
                            const RegisterUnits &RU, unsigned SGPRs,
                            llvm::ArrayRef<llvm::MCRegister> Reserved = {});
  /// Replaces \p Branch, a short branch to \p Target, by the long branch
  /// \p P describes; the CFG of its function is left to rebuild.
  llvm::Error relax(Instruction &Branch, llvm::StringRef Target, const Plan &P);

private:
  /// The jump: the instructions before the label \p Post (the address
  /// s_getpc_b64 returns) and after it.
  struct Jump {
    std::vector<Instruction> BeforeLabel, AfterLabel;
  };
  llvm::Expected<Jump> build(llvm::StringRef Target, llvm::StringRef Post, unsigned Pair);
  /// A label no symbol of the module has: `<Stem><N>`.
  std::string newLabel(llvm::StringRef Stem);

  Module &M;
  InstBuilder &B;
  bool AddPc64 = false;
  std::optional<Instruction> SaluWait;
  /// What the jump writes besides its pair (SCC), from MC's facts.
  std::vector<llvm::MCRegister> Clobbers;
  std::optional<std::string> ClobbersUnknown;
  llvm::StringSet<> Labels;
  llvm::StringMap<unsigned> Next; ///< per stem
};

/// Relaxes the short branches of \p F (those in \p Scope) that are out of
/// range, until all reach; returns how many became long branches. Liveness
/// is computed with \p Options on the function as it is.
llvm::Expected<unsigned> relaxBranches(Function &F, InstBuilder &B,
                                       const LivenessOptions &Options = {},
                                       const PassScope &Scope = {});

llvm::Expected<std::unique_ptr<Pass>> createBranchRelaxationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
