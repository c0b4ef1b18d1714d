//===- SameMC.cpp - Equal MC instructions ---------------------------------===//
#include "stinkytofu/ir/SameMC.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

/// The operand as a kind and a value; an operand it cannot tell apart by
/// value (a nested instruction) is unique.
static std::pair<unsigned, uint64_t> operandValue(const MCOperand &Op, bool ExpressionsAlike) {
  if (Op.isReg())
    return {1, Op.getReg().id()};
  if (Op.isImm())
    return {2, uint64_t(Op.getImm())};
  if (Op.isSFPImm())
    return {3, Op.getSFPImm()};
  if (Op.isDFPImm())
    return {4, Op.getDFPImm()};
  if (Op.isExpr())
    return {5, ExpressionsAlike ? 0 : uint64_t(uintptr_t(Op.getExpr()))};
  return {6, uint64_t(uintptr_t(&Op))};
}

uint64_t hashMC(ArrayRef<MCInst> MC, bool ExpressionsAlike) {
  // A multiply-xorshift mix per word: asked for every instruction a memo
  // sees, where hash_combine's buffering cost more than the memo saved.
  uint64_t H = MC.size();
  auto Mix = [&H](uint64_t V) {
    H = (H ^ V) * 0x9E3779B97F4A7C15ULL;
    H ^= H >> 31;
  };
  for (const MCInst &I : MC) {
    Mix(I.getOpcode() | uint64_t(I.getFlags()) << 32);
    for (const MCOperand &Op : I) {
      auto [Kind, Value] = operandValue(Op, ExpressionsAlike);
      Mix(Kind);
      Mix(Value);
    }
  }
  return H;
}

bool sameMC(ArrayRef<MCInst> A, ArrayRef<MCInst> B, bool ExpressionsAlike) {
  if (A.size() != B.size())
    return false;
  for (auto [X, Y] : zip(A, B)) {
    if (X.getOpcode() != Y.getOpcode() || X.getFlags() != Y.getFlags() ||
        X.getNumOperands() != Y.getNumOperands())
      return false;
    for (unsigned K = 0; K < X.getNumOperands(); ++K)
      if (operandValue(X.getOperand(K), ExpressionsAlike) !=
          operandValue(Y.getOperand(K), ExpressionsAlike))
        return false;
  }
  return true;
}

} // namespace stinkytofu
