//===- PeepholeOptimizationPass.cpp - Provable local rewrites -------------===//
#include "stinkytofu/transforms/PeepholeOptimizationPass.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {
namespace {

enum class IdentityAt { Either, First, Second };

struct Pattern {
  StringRef Mnemonic;
  int64_t Identity;
  IdentityAt Where;
};

constexpr Pattern Patterns[] = {
#define PEEPHOLE(Mnemonic, Identity, Sources) {Mnemonic, Identity, IdentityAt::Sources},
#include "PeepholePatterns.def"
};

/// The source \p I copies when it matches a pattern: 1 or 2 (its operand
/// index), none otherwise.
std::optional<unsigned> copiedSource(const Instruction &I) {
  StringRef Base = baseMnemonic(I.mnemonic());
  const Pattern *P = nullptr;
  for (const Pattern &Q : Patterns)
    if (Q.Mnemonic == Base)
      P = &Q;
  if (!P || I.numOperands() != 3 || I.operand(0).regFile() != RegFile::VGPR ||
      I.operand(0).half() != RegHalf::Full)
    return std::nullopt;
  for (unsigned K = 1; K != 3; ++K)
    if (I.operand(K).sourceModifiers() || I.operand(K).half() != RegHalf::Full ||
        I.operand(K).isModifier())
      return std::nullopt;
  auto IsIdentity = [&](unsigned K) {
    return I.operand(K).isImmediate() && I.operand(K).immediate() == P->Identity;
  };
  if (P->Where != IdentityAt::Second && IsIdentity(1))
    return 2;
  if (P->Where != IdentityAt::First && IsIdentity(2))
    return 1;
  return std::nullopt;
}

class PeepholeOptimizationPass final : public Pass {
public:
  StringRef name() const override { return "PeepholeOptimizationPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    InstBuilder B(M);
    std::vector<Instruction *> Replaced;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions()) {
          if (!isRewritable(M, Scope, I))
            continue;
          std::optional<unsigned> Src = copiedSource(I);
          if (!Src)
            continue;
          Expected<Instruction> Mov = B.build("v_mov_b32", {BuildOperand::copyOf(I.operand(0)),
                                                            BuildOperand::copyOf(I.operand(*Src))});
          if (!Mov) {
            consumeError(Mov.takeError()); // MC refuses the copy: keep it
            continue;
          }
          Mov->setTrailingComment(I.trailingComment().str());
          Mov->setLocation(I.location());
          InstInserter At(B);
          At.setInsertPointAfter(I);
          At.insert(std::move(*Mov));
          Replaced.push_back(&I);
        }
    // Erasing hands each original's comments to its copy right after it.
    return eraseAndReport(Replaced);
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createPeepholeOptimizationPass(const PassArguments &Args) {
  return createArgumentlessPass<PeepholeOptimizationPass>(Args);
}

} // namespace stinkytofu
