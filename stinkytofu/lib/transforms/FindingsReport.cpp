//===- FindingsReport.cpp - Which findings a verifier shows, and a summary ===//
#include "stinkytofu/transforms/FindingsReport.h"

#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

/// A rule as a command line spells it: `read vmcnt` or `read-vmcnt`.
static bool sameRule(StringRef Rule, StringRef Asked) {
  return Rule == Asked || (Rule.size() == Asked.size() &&
                           all_of(zip(Rule, Asked), [](auto P) {
                             auto [R, A] = P;
                             return R == A || (R == ' ' && A == '-');
                           }));
}

bool FindingsOptions::selects(StringRef Rule) const {
  auto Named = [&](const std::vector<std::string> &List) {
    return any_of(List, [&](const std::string &A) { return sameRule(Rule, A); });
  };
  return (Only.empty() || Named(Only)) && !Named(Ignore);
}

Expected<PassArguments> takeFindingsArguments(const PassArguments &Args, FindingsOptions &Opts) {
  PassArguments Rest;
  for (const auto &[Key, Value] : Args) {
    if (Key == "only" || Key == "ignore") {
      if (Value.empty())
        return createStringError(inconvertibleErrorCode(),
                                 "argument '" + Key + "' needs rule names (A:B)");
      SmallVector<StringRef, 4> Rules;
      StringRef(Value).split(Rules, ':', -1, /*KeepEmpty=*/false);
      for (StringRef R : Rules)
        (Key == "only" ? Opts.Only : Opts.Ignore).push_back(R.str());
    } else if (Key == "replay") {
      if (Value.empty() || Value == "all")
        Opts.ReplayAll = true;
      else if (StringRef(Value).getAsInteger(10, Opts.Replay) || Opts.Replay == 0)
        return createStringError(inconvertibleErrorCode(),
                                 "argument 'replay' needs a finding number from 1 or 'all', not '" +
                                     Value + "'");
    } else if (Key == "summary" && (Value.empty() || Value == "true" || Value == "1")) {
      Opts.Summary = true;
    } else {
      Rest.emplace_back(Key, Value);
    }
  }
  return Rest;
}

std::string ruleOrigin(StringRef Rule) {
  if (Rule == "DelayAlu")
    return "LLVM's AMDGPUInsertDelayAlu";
  if (Rule == "VALUReadSGPR")
    return "LLVM's AMDGPUWaitSGPRHazards";
  // Wait rules name a reason and a counter (`read vmcnt`).
  if (Rule.contains(' '))
    return "LLVM's SIInsertWaitcnts";
  // HazardRules.td (hw-dependencies-reference.md section 2), the soft
  // clause and the depctr rules.
  return "LLVM's GCNHazardRecognizer";
}

void FindingsSummary::add(StringRef Rule, const Instruction *Producer,
                          const Instruction &Consumer, bool Shown) {
  std::string Pattern =
      ((Producer ? Producer->mnemonic() : StringRef("(entry or call)")) + " -> " +
       Consumer.mnemonic())
          .str();
  auto &Counts = Groups[{Rule.str(), Pattern}];
  ++(Shown ? Counts.first : Counts.second);
}

void FindingsSummary::verdict(StringRef Name, unsigned Shown, unsigned Ignored,
                              StringRef GaveUp, StringRef FindingsAre) {
  std::string Text = Name.str() + ": ";
  if (!GaveUp.empty())
    Text += "unknown (" + GaveUp.str() + ")";
  else if (!Shown)
    Text += "clean";
  else
    Text += std::to_string(Shown) + (Shown == 1 ? " finding " : " findings ") + FindingsAre.str();
  if (Ignored)
    Text += " (" + std::to_string(Ignored) + " ignored)";
  Verdicts.push_back(std::move(Text));
}

void FindingsSummary::print(raw_ostream &OS, StringRef Verifier) const {
  OS << Verifier << " summary:\n";
  std::vector<std::pair<std::pair<std::string, std::string>, std::pair<unsigned, unsigned>>>
      Sorted(Groups.begin(), Groups.end());
  llvm::stable_sort(Sorted, [](const auto &A, const auto &B) {
    return A.second.first + A.second.second > B.second.first + B.second.second;
  });
  for (const auto &[Key, Counts] : Sorted) {
    OS << "  " << Counts.first << " x " << Key.first << " (" << ruleOrigin(Key.first)
       << "): " << Key.second;
    if (Counts.second)
      OS << " [" << Counts.second << " ignored]";
    OS << "\n";
  }
  for (const std::string &V : Verdicts)
    OS << "  verdict " << V << "\n";
}

} // namespace stinkytofu
