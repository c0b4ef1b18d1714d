//===- FindingsReport.h - Which findings a verifier shows, and a summary -*- C++ -*-===//
//
// What WaitCntVerifier and HazardVerifier share beyond one finding
// (VerifierFinding.h): the rules a user asked to see (`only=A:B`) or to
// ignore (`ignore=A:B`), the wait findings to replay (`replay[=N]`), where
// each rule comes from, and `summary`: the findings grouped by rule and
// producer pattern with a count, and a verdict per function (clean,
// findings, or unknown where an analysis gave up), on the dump stream
// (stderr). stinkytofu-opt's --only, --ignore-hazard, --replay-findings and
// --findings-summary pass them on.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_FINDINGSREPORT_H
#define STINKYTOFU_TRANSFORMS_FINDINGSREPORT_H

#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stinkytofu {

class Instruction;

struct FindingsOptions {
  /// Rule names (`read vmcnt` also as `read-vmcnt`); empty Only: every rule.
  std::vector<std::string> Only, Ignore;
  bool Summary = false;
  /// `replay=N`: replay wait finding N (from 1, in the order they are
  /// reported; `replay` alone: every one) on the dump stream
  /// (FindingReplay.h). 0: none.
  unsigned Replay = 0;
  bool ReplayAll = false;

  /// Whether the shown finding numbered \p N (from 1) is replayed.
  bool replays(unsigned N) const { return ReplayAll || Replay == N; }

  /// Whether findings of \p Rule are reported.
  bool selects(llvm::StringRef Rule) const;
};

/// Moves `only=A:B`, `ignore=A:B`, `replay[=N]` and `summary` from \p Args into \p Opts;
/// returns the other arguments.
llvm::Expected<PassArguments> takeFindingsArguments(const PassArguments &Args,
                                                    FindingsOptions &Opts);

/// Where a rule comes from: the LLVM component whose behaviour it
/// reproduces (every rule so far has one).
std::string ruleOrigin(llvm::StringRef Rule);

/// Counts of findings by rule and producer pattern, and the verdicts.
class FindingsSummary {
public:
  /// One finding of \p Rule about \p Consumer waiting for \p Producer (may
  /// be null); \p Shown is false for one the options filtered out.
  void add(llvm::StringRef Rule, const Instruction *Producer, const Instruction &Consumer,
           bool Shown);
  /// The verdict on function \p Name: \p Shown findings (\p Ignored more
  /// filtered out), \p FindingsAre says where they lie; \p GaveUp, when not
  /// empty, where the analysis gave up.
  void verdict(llvm::StringRef Name, unsigned Shown, unsigned Ignored, llvm::StringRef GaveUp,
               llvm::StringRef FindingsAre);
  /// `<Verifier> summary:` then one line per group, most frequent first,
  /// then one verdict line per function.
  void print(llvm::raw_ostream &OS, llvm::StringRef Verifier) const;

private:
  /// (rule, producer -> consumer) -> (shown, ignored)
  std::map<std::pair<std::string, std::string>, std::pair<unsigned, unsigned>> Groups;
  std::vector<std::string> Verdicts;
};

} // namespace stinkytofu

#endif
