//===- BranchVocabulary.cpp - The one way passes ask about control flow ---===//
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace stinkytofu {

/// Only single machine instructions transfer control as far as the CFG is
/// concerned: a macro expansion's internal branches are its own business.
static bool machine(const Instruction &I) { return I.kind() == InstKind::Machine; }

bool isBranch(const Instruction &I) {
  return machine(I) && I.facts().has(IF_Branch) && !I.facts().has(IF_Call);
}

bool isConditionalBranch(const Instruction &I) {
  return isBranch(I) && I.facts().has(IF_ConditionalBranch);
}

bool isUnconditionalBranch(const Instruction &I) {
  return isBranch(I) && !isConditionalBranch(I);
}

bool isIndirectBranch(const Instruction &I) {
  return isBranch(I) && I.facts().has(IF_IndirectBranch);
}

bool isComputedBranch(const Instruction &I) {
  return isBranch(I) && I.facts().has(IF_ComputedTarget);
}

std::string invertedBranchMnemonic(const Instruction &I) {
  // Condition pairs: each is the other's inverse.
  static constexpr std::pair<StringRef, StringRef> Inverse[] = {
      {"scc0", "scc1"}, {"vccz", "vccnz"}, {"execz", "execnz"}};
  StringRef Condition = I.mnemonic();
  if (!isConditionalBranch(I) || !Condition.consume_front("s_cbranch_"))
    return "";
  for (auto [A, B] : Inverse) {
    if (Condition == A)
      return ("s_cbranch_" + B).str();
    if (Condition == B)
      return ("s_cbranch_" + A).str();
  }
  return "";
}

bool isCall(const Instruction &I) { return machine(I) && I.facts().has(IF_Call); }

bool isProgramEnd(const Instruction &I) {
  return machine(I) && I.facts().has(IF_Return);
}

static const Function *functionOf(const Instruction &I) {
  return I.parent() ? I.parent()->parent() : nullptr;
}

bool isReturn(const Instruction &I) {
  if (isProgramEnd(I))
    return true;
  const Function *F = functionOf(I);
  return isIndirectBranch(I) && !I.getModifier<LabelData>() && F && !F->isEntry();
}

bool isTailCall(const Instruction &I) {
  const auto *Targets = I.getModifier<CallTargetData>();
  return Targets && Targets->TailCall && isReturn(I) && !isProgramEnd(I);
}

bool endsBlock(const Instruction &I) { return isBranch(I) || isProgramEnd(I); }

bool isControlTransfer(const Instruction &I) {
  return isBranch(I) || isCall(I) || isProgramEnd(I);
}

/// The label of a direct branch: its PC-relative operand when MC parsed it
/// as a plain symbol (`s_branch L`); none for `L+4` or `.+8`.
static StringRef directTarget(const Instruction &I) {
  if (I.mcInsts().size() != 1)
    return {};
  for (const MCOperand &Op : I.mcInsts().front())
    if (Op.isExpr()) {
      const auto *Ref = dyn_cast<MCSymbolRefExpr>(Op.getExpr());
      return Ref && Ref->getSpecifier() == 0 ? Ref->getSymbol().getName() : StringRef();
    }
  return {};
}

/// The label getBranchTargets names, or none.
static std::optional<StringRef> branchTarget(const Instruction &I) {
  if (!isBranch(I))
    return std::nullopt;
  if (const LabelData *L = I.getModifier<LabelData>())
    return StringRef(L->Label);
  if (isComputedBranch(I))
    return std::nullopt;
  StringRef Label = directTarget(I);
  if (Label.empty())
    return std::nullopt;
  const Function *F = functionOf(I);
  const Module *M = F ? F->parent() : nullptr;
  return M ? M->resolveAlias(Label) : Label;
}

std::vector<std::string> getBranchTargets(const Instruction &I) {
  if (std::optional<StringRef> Label = branchTarget(I))
    return {Label->str()};
  return {};
}

std::string getBranchTarget(const Instruction &I) {
  return branchTarget(I).value_or(StringRef()).str();
}

std::vector<std::string> getCallTargets(const Instruction &I) {
  if (!isCall(I))
    return {};
  if (const CallTargetData *C = I.getModifier<CallTargetData>())
    return C->Callees;
  return {};
}

} // namespace stinkytofu
