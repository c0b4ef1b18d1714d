//===- RewriteSupport.h - What the rewrite and cleanup passes share -*- C++ -*-===//
//
// The pieces every simple rewrite pass (docs/passes.md, "Rewrite and cleanup
// passes") needs: flag arguments, the instructions a pass may touch, erasing
// the instructions a predicate picks, asking MC whether the target has a
// mnemonic, and the registers an instruction's written operands name.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REWRITESUPPORT_H
#define STINKYTOFU_TRANSFORMS_REWRITESUPPORT_H

#include "stinkytofu/pass/PassArguments.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace stinkytofu {

class RegisterUnits;
class TargetInfo;

/// Boolean arguments: `name` or `name=true|false|1|0` sets the flag with
/// that name; any other argument or value is an error naming it and the
/// known ones.
using FlagArgument = std::pair<llvm::StringRef, bool *>;
llvm::Error parseFlagArguments(const PassArguments &Args, llvm::ArrayRef<FlagArgument> Flags);

/// True when a rewrite pass may edit \p I: a machine instruction (not a
/// macro invocation, an opaque statement or a pseudo-instruction) inside
/// \p Scope.
bool isRewritable(const Module &M, const PassScope &Scope, const Instruction &I);

/// A diagnostic of kind \p Kind at \p I's line and column, quoting its line.
SourceDiagnostic diagnosticAt(const Module &M, const Instruction &I, llvm::SourceMgr::DiagKind Kind,
                              std::string Message);

/// Erases every rewritable instruction of \p M for which \p Pick holds (its
/// comments stay); returns how many.
unsigned eraseInstructions(Module &M, const PassScope &Scope,
                           const std::function<bool(const Instruction &)> &Pick);

/// Erases \p Doomed; what the pass preserves: everything when nothing
/// changed (\p Doomed empty and not \p Changed), nothing otherwise.
PreservedAnalyses eraseAndReport(llvm::ArrayRef<Instruction *> Doomed, bool Changed = false);

/// \p Item as an instruction whose effects a block-local pass can follow
/// (a machine instruction, not a call, not opaque); null for a directive, a
/// macro invocation, a pseudo-instruction, a call or an opaque statement,
/// where such a pass forgets what it knew.
Instruction *trackedInstruction(BlockItem &Item);

/// A pass that erases the instructions \p Pick chooses; \p Check, when
/// given, runs first on the module and may refuse it (an unknown
/// mnemonic).
std::unique_ptr<Pass>
createErasePass(llvm::StringRef Name, std::function<bool(const Instruction &)> Pick,
                std::function<llvm::Error(Module &)> Check = nullptr);

/// True when the module's target has an instruction spelled \p Mnemonic:
/// MC's parser reads the bare mnemonic and does not answer that it is
/// unknown or not supported on this processor.
bool targetHasMnemonic(Module &M, llvm::StringRef Mnemonic);

/// \p Mnemonic without an encoding suffix MC accepts as a spelling of the
/// same instruction (`_e32`, `_e64`, `_sdwa`, `_dpp`, `_e64_dpp`).
llvm::StringRef baseMnemonic(llvm::StringRef Mnemonic);

/// The MC register of a register operand (`v5`, `s[4:5]`) of \p M's target;
/// none for an operand without a resolved register or with a true16 half.
std::optional<llvm::MCRegister> operandRegister(const Module &M, const Operand &Op);

/// The immediate MC holds for the written operand \p Index of \p I (a
/// number, a wait's fields); none when it maps to no immediate.
std::optional<int64_t> writtenImmediate(const Instruction &I, const TargetInfo &TI,
                                        unsigned Index);

/// Whether \p I may have effects besides writing its registers and reading
/// memory, by LLVM's description of it: MC's real (encoded) opcodes all
/// report unmodelled side effects, so the answer comes from the
/// target-independent pseudo-instruction behind the real one
/// (V_MOV_B32_e32_gfx12 -> V_MOV_B32_e32, S_MOV_B32_gfx6_gfx7 -> S_MOV_B32);
/// true when there is none.
bool hasSideEffects(const TargetInfo &TI, const Instruction &I);

/// True when \p I's MC opcode is an SDWA or DPP form, whose writes may leave
/// bits or lanes of the destination as they were and whose DPP reads take
/// other lanes.
bool isDppOrSdwa(const TargetInfo &TI, const Instruction &I);

/// True when the block of \p I writes all of \p R again after \p I, under
/// the same EXEC (no EXEC write first) and not as an SDWA or DPP form,
/// before any instruction reads a part of it; false at a call, a macro
/// invocation or an opaque statement.
bool overwrittenBeforeRead(const Module &M, const RegisterUnits &RU, const Instruction &I,
                           llvm::MCRegister R);

/// Where an instruction that must issue right before \p Consumer (a wait,
/// a nop) goes: in front of the s_delay_alu standing right before it, which
/// describes the consumer (its instruction counts start after it).
Instruction &beforeDelayAlu(Instruction &Consumer);

/// An error about the module as a whole: `file: error: <Message>`.
llvm::Error moduleError(const Module &M, const llvm::Twine &Message);

} // namespace stinkytofu

#endif
