//===- AddressChains.h - Proving which label a PC pair holds -----*- C++ -*-===//
//
// Long branches and activation calls compute a code address at run time and
// jump to it (`s_setpc_b64`, `s_swappc_b64`). This proves, by following the
// register definitions backward, which label the SGPR pair holds. Accepted
// chains (shared asm-ir-reference section 5):
//
//   rocisa / Tensile (V1-V5, V7):   s_getpc_b64 s[D:D+1]          (G)
//                                   s_add_{i32,u32} sY, L, 4       (O, adjacent to G)
//                                  [s_abs_i32 sY, sY]              (negative arm)
//                                   s_add_u32 sD, sD, sY  | s_sub_u32 sD, sD, sY      (Lo)
//                                   s_addc_u32 sD+1, sD+1, 0 (or 0, sD+1)
//                                                         | s_subb_u32 sD+1, sD+1, 0  (Hi)
//   LLVM branch relaxation:         s_getpc_b64 s[D:D+1]
//                                   .Lpost_getpcN:
//                                   s_add_u32 sD, sD, (L-.Lpost_getpcN)&4294967295
//                                   s_addc_u32 sD+1, sD+1, (L-.Lpost_getpcN)>>32
//   LLVM call address:              s_getpc_b64 s[D:D+1]
//                                  [s_sext_i32_i16 sD+1, sD+1]    (gfx12)
//                                   s_add_u32 sD, sD, F@rel32@lo+A   (s_add_co_u32)
//                                   s_addc_u32 sD+1, sD+1, F@rel32@hi+B
//                                                                (s_add_co_ci_u32)
//   gfx1250 call address:           s_get_pc_i64 s[D:D+1]
//                                   s_add_nc_u64 s[D:D+1], s[D:D+1], F@rel64+A
//   gfx1250 branch:                 s_add_pc_i64 L-.-12 | s_add_pc_i64 L-.Lpost_addpcN
//
// Every link must be the unique reaching definition (across blocks, over the
// CFG), a pair spilled to VGPR lanes and read back (`v_writelane_b32` /
// `v_readlane_b32`, -O0 code) included; the carry/borrow must travel from
// Lo to Hi in SCC with nothing else writing SCC between them; each addend
// of a relocation must be the byte distance from the PC s_getpc_b64
// returns to that literal (+4 and +12 when adjacent, more with waits in
// between: CodeLayout::literalDistance); the sign of the 32-bit offset must be known for
// the zero-extending add / the subtract of its absolute value (from the
// layout, or from an `s_cmp_ge_i32 sY, 0` + `s_cbranch_scc*` guard on the
// only path into the arm). Several reaching chains (ActivationType=all
// dispatch) give several labels. Anything else: no proof.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_ADDRESSCHAINS_H
#define STINKYTOFU_ANALYSIS_ADDRESSCHAINS_H

#include "stinkytofu/analysis/CodeLayout.h"
#include "stinkytofu/analysis/ReachingDefs.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCRegister.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

struct AddressProofContext {
  const Module &M;
  const ReachingDefs &RD;
  const CodeLayout &Layout;
  /// The block an alias-resolved target label names, or null when the label
  /// is not an acceptable target (not in this function for a branch, not in
  /// the module for a call).
  std::function<const BasicBlock *(llvm::StringRef)> TargetBlock;
  /// Blocks where control may enter from outside the known CFG.
  std::function<bool(const BasicBlock &)> IsOpenEntry;
};

/// The 64-bit SGPR pair \p I jumps to or calls through (`s_setpc_b64 s[D:D+1]`,
/// `s_swappc_b64 s[R:R+1], s[D:D+1]`); invalid when there is none.
llvm::MCRegister addressPairOf(const Instruction &I, const TargetInfo &TI);

/// The labels the pair \p Pair read by \p Use may hold, deduplicated in
/// first-seen order; nullopt unless every reaching chain is complete.
std::optional<std::vector<std::string>>
provePairTargets(const Instruction &Use, llvm::MCRegister Pair, const AddressProofContext &C);

/// The label `s_add_pc_i64 L-.-12` or `s_add_pc_i64 L-.Lpost_addpcN` goes to
/// (the label alone, aliases followed); nullopt for any other operand.
std::optional<std::string> proveAddPcTarget(const Instruction &I,
                                            const AddressProofContext &C);

/// Whether \p I is `s_add_pc_i64` (a branch whose target is an expression).
bool isAddPc(const Instruction &I);

/// Labels (aliases followed) whose address an instruction of \p M other
/// than a direct branch computes: symbols that enter an operand expression
/// positively (`L`, `L-.Lpost`, `L-.-12` of an `s_add_pc_i64`,
/// `L@rel32@lo+4`), not as the subtracted anchor.
llvm::StringSet<> addressTakenLabels(const Module &M);

/// Blocks of \p F that control may enter from outside its known CFG besides
/// its first block: labels in \p AddressTaken that no branch of \p F with
/// LabelData goes to (callees, targets of unresolved long branches).
llvm::SmallPtrSet<const BasicBlock *, 8> openEntryBlocks(const Function &F,
                                                         const llvm::StringSet<> &AddressTaken);

} // namespace stinkytofu

#endif
