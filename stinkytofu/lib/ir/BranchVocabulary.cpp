//===- BranchVocabulary.cpp - The one way passes ask about control flow ---===//
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringExtras.h"

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

bool isControlTransfer(const Instruction &I) {
  return isBranch(I) || isCall(I) || isProgramEnd(I);
}

/// The label an operand names: a bare symbol, or the leading symbol of an
/// expression such as `label-.-12`.
static StringRef labelOfOperand(const Operand &Op) {
  StringRef S = Op.spelling();
  if (Op.isSymbol())
    return S;
  if (!Op.isExpression())
    return {};
  S = S.ltrim("( ");
  size_t End = 0;
  while (End < S.size() && (isAlnum(S[End]) || StringRef("_.$").contains(S[End])))
    ++End;
  StringRef Name = S.take_front(End);
  return Name == "." ? StringRef() : Name;
}

std::vector<std::string> getBranchTargets(const Instruction &I) {
  if (!isBranch(I))
    return {};
  if (const LabelData *L = I.getModifier<LabelData>())
    return {L->Label};
  if (isIndirectBranch(I) || I.numOperands() == 0)
    return {};
  StringRef Label = labelOfOperand(I.operand(0));
  if (Label.empty())
    return {};
  const Function *F = functionOf(I);
  const Module *M = F ? F->parent() : nullptr;
  return {(M ? M->resolveAlias(Label) : Label).str()};
}

std::string getBranchTarget(const Instruction &I) {
  std::vector<std::string> Targets = getBranchTargets(I);
  return Targets.empty() ? std::string() : Targets.front();
}

std::vector<std::string> getCallTargets(const Instruction &I) {
  if (!isCall(I))
    return {};
  if (const CallTargetData *C = I.getModifier<CallTargetData>())
    return C->Callees;
  return {};
}

} // namespace stinkytofu
