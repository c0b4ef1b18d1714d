//===- PassPipeline.h - Pipelines and scopes from text ----------*- C++ -*-===//
//
// What a driver needs to turn command-line text into a pipeline: the
// `--passes` syntax, building passes from the registry, and resolving
// `--from-label` / `--to-label` into a PassScope.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASSES_PASSPIPELINE_H
#define STINKYTOFU_PASSES_PASSPIPELINE_H

#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace stinkytofu {

/// Parses a `--passes` value into pass specs of the form PassRegistry::create
/// takes (`Name` or `Name=args`). The text is a comma-separated list of pass
/// names; a pass's arguments go in parentheses, `Name(a,b=c)`, which is the
/// spec `Name=a,b=c` (commas inside the parentheses belong to the pass).
/// `Name=...` inside the list, empty entries and unbalanced parentheses are
/// errors. Names are not looked up here.
llvm::Expected<std::vector<std::string>> parsePassPipeline(llvm::StringRef Text);

/// The pipeline of `-O<Level>` (0-3): the control-flow recovery
/// (controlFlowRecoveryPasses), the reference's gfx1250 pipeline in its
/// order, without the passes that need the producer's facts, with the
/// hazard repair (hazardRepairPasses) after the last pass that inserts
/// instructions. The passes only the reference's gfx1250 backend runs carry
/// `targets=gfx1250`. docs/passes.md lists it against the reference's.
llvm::Expected<std::vector<std::string>> standardPipeline(unsigned Level);

/// The passes that put back the waits a code change may have taken away, in
/// the order they run: hazard wait states (s_nop, v_nop), ALU waits
/// (s_wait_alu, s_waitcnt_depctr), s_delay_alu. Each does nothing on a
/// target without its kind of wait.
llvm::ArrayRef<const char *> hazardRepairPasses();

/// The passes that let the analyses follow control where assembly hides
/// it, in the order they run: the targets of long branches
/// (`s_setpc_b64`, `s_add_pc_i64`), then of calls. They change no code.
llvm::ArrayRef<const char *> controlFlowRecoveryPasses();

/// Makes \p Specs end proven (docs/passes.md, "How pipelines end"): when a
/// pass that changes code (CodeEffect::Changes in \p R) is in it, the
/// control-flow recovery passes go first, unless both run before the first
/// such pass already; the hazard repair passes go right after the last such
/// pass, unless all of them run after it already; and `WaitCntVerifier` and
/// `HazardVerifier` end the pipeline, each unless it runs after that pass
/// already. Returns the index of the first verifier added (Specs.size()
/// when none was). A pipeline without such a pass is left as it is.
size_t endPipelineProven(std::vector<std::string> &Specs, const PassRegistry &R);

/// Creates each spec's pass from \p R and appends it to \p PM; the first
/// unknown pass or bad argument is the error. \p Leading holds, per pass
/// name, arguments that go before the spec's own (PassRegistry::create).
llvm::Error addPasses(PassManager &PM, llvm::ArrayRef<std::string> Specs,
                      const PassRegistry &R,
                      const llvm::StringMap<PassArguments> &Leading = {});

/// The region `--from-label From --to-label To` names, inclusive: from the
/// first instruction of the block labelled From through the last instruction
/// before the next label after To (the end of To's labelled block, including
/// the unlabelled blocks the CFG builder split off it; at most to the end of
/// its function). Either label may be empty: the region then starts at the
/// module's first instruction or ends at its last. Labels are looked up
/// through `.set` aliases, first occurrence. Errors: a label that is not in
/// the module, To before From, a region without instructions.
llvm::Expected<PassScope> resolveLabelScope(const Module &M, llvm::StringRef From,
                                            llvm::StringRef To);

/// One line per registered pass, `Name  description`, in registration order.
void printPassList(const PassRegistry &R, llvm::raw_ostream &OS);

} // namespace stinkytofu

#endif
