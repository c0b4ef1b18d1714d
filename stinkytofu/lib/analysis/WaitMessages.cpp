//===- WaitMessages.cpp - What a missing wait's finding says ---------------===//
//
// The messages and rule names of the wait analysis's findings
// (WaitCountAnalysis.h), apart from the analysis that finds them.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/analysis/WaitCountAnalysis.h"

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/Twine.h"
#include <iterator>

using namespace llvm;

namespace stinkytofu {

std::string waitRuleName(const CounterModel &CM, const WaitReason &R) {
  static constexpr const char *Kinds[] = {"read",   "write",      "overwrite", "lds",
                                          "barrier", "return",    "invalidate", "opaque"};
  static_assert(std::size(Kinds) == WaitReason::Opaque + 1);
  return (Twine(Kinds[R.What]) + " " + CM.counterName(R.Counter)).str();
}

std::string describeMissingWait(const CounterModel &CM, const MissingWait &W,
                                const WaitReason &R) {
  std::string Reg = R.Register ? CM.target().asmName(R.Register) : "";
  std::string Op;
  if (R.Producer) {
    Op = ("the " + R.Producer->mnemonic()).str();
    Op += R.Producer->location().isValid()
              ? " at line " + std::to_string(R.Producer->location().Line)
              : std::string(" of inserted code");
  } else {
    Op = W.Consumer->parent() && W.Consumer->parent()->parent()->isEntry()
             ? "the memory operations of a call"
             : "the memory operations pending at function entry";
  }
  // What happened before the operation was done, by reason; the first
  // three name the register (an overwritten one without a name is exec).
  static constexpr const char *Happened[] = {" read",
                                             " written",
                                             " overwritten",
                                             "LDS accessed",
                                             "barrier reached",
                                             "return",
                                             "cache invalidated",
                                             "instruction MC does not describe reached"};
  static_assert(std::size(Happened) == WaitReason::Opaque + 1);
  std::string Subject;
  if (R.What <= WaitReason::Overwrite)
    Subject = R.What == WaitReason::Overwrite && Reg.empty() ? std::string("exec") : Reg;
  std::string Text = Subject + Happened[R.What] + " before " + Op +
                     (R.What == WaitReason::Overwrite ? " has read it" : " completes");
  Text += " (" + CM.counterName(R.Counter).str() + " needs <= " + std::to_string(R.Needed) +
          " here, is " + std::to_string(R.Outstanding) + ")";
  if (!R.Path.empty())
    Text += "; path " + R.Path;
  return Text;
}

} // namespace stinkytofu
