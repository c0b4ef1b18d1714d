//===- LongBranch.h - Long branches and PC-relative addresses -------*- C++ -*-===//
//
// rocisa's long-branch builders. Each returns a module holding the sequence;
// every `s_setpc_b64` carries the target label in longBranchLabel, so the
// converter knows the edge without proving it from the register chain.
//
//   SLongBranch          two-way: the sign of the offset is tested at run time
//   SLongBranchPositive  forward: `s_add_pc_i64 label-.-12` where the target
//                        has it, else getpc + add + setpc
//   SLongBranchNegative  backward: getpc + abs + sub + setpc
//   SCLongBranch{Scc0,Scc1,Vccnz}
//                        the inverse short branch over a long branch
//   SGetPositivePCOffset the address of a label in an SGPR pair, no jump
//
// The PC pair is even-aligned (64-bit SGPR operands must be): with three
// temporaries from t, the pair is s[t:t+1] when t is even, else s[t+1:t+2],
// and the offset register is the one left over. (rocisa's SLongBranch takes
// s[t:t+1] as is, which the assembler rejects when t is odd.)
//
// The comments are fixed: `target branch offset` marks the label add that
// removeDuplicatedFunction and the recovery passes look for.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_BUILDERS_LONGBRANCH_H
#define ROCISA_BRIDGE_BUILDERS_LONGBRANCH_H

#include "rocisa-bridge/code/Label.h"
#include "rocisa-bridge/code/Module.h"
#include "rocisa-bridge/code/Operand.h"
#include "llvm/Support/Error.h"

namespace rocisa {

/// The comment of the `s_add_i32 sX, label, 4` that starts every sequence.
inline constexpr const char *TargetBranchOffsetComment = "target branch offset";

llvm::Expected<std::shared_ptr<Module>>
SLongBranch(const Label &Target, ContinuousRegister Tmp, const std::string &PositiveLabel,
            const std::string &Comment = "");

/// \p HasAddPCI64: whether the target has `s_add_pc_i64`
/// (convert/TargetCaps.h answers it from LLVM MC).
llvm::Expected<std::shared_ptr<Module>>
SLongBranchPositive(const Label &Target, ContinuousRegister Tmp, bool HasAddPCI64,
                    const std::string &Comment = "");

llvm::Expected<std::shared_ptr<Module>>
SLongBranchNegative(const Label &Target, ContinuousRegister Tmp, const std::string &Comment = "");

/// The address of \p Target in s[Sgpr:Sgpr+1] (\p Sgpr even), with one
/// temporary SGPR.
llvm::Expected<std::shared_ptr<Module>>
SGetPositivePCOffset(int Sgpr, const Label &Target, ContinuousRegister Tmp);

/// The condition a conditional long branch jumps on.
enum class LongBranchCondition { Scc0, Scc1, Vccnz };

/// Branches to \p Target when \p Cond holds: the inverse short branch to
/// `label_<NoBranchLabel>` over SLongBranchPositive (\p PosNeg > 0),
/// SLongBranchNegative (< 0) or SLongBranch (0), then that label.
llvm::Expected<std::shared_ptr<Module>>
SCLongBranch(LongBranchCondition Cond, const Label &Target, ContinuousRegister Tmp,
             const std::string &NoBranchLabel, const std::string &PositiveLabel, int PosNeg,
             bool HasAddPCI64, const std::string &Comment = "");

} // namespace rocisa

#endif
