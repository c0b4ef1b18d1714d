//===- SetMatrixReusePass.cpp - WMMA operand reuse hints ------------------===//
#include "stinkytofu/transforms/SetMatrixReusePass.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

constexpr StringRef ReuseA = "matrix_a_reuse", ReuseB = "matrix_b_reuse";

bool isMatrix(const Module &M, const Instruction &I) {
  return M.target().hardware().classify(I.mnemonic()).Name == "WMMA";
}

bool hasWord(const Instruction &I, StringRef Word) {
  for (const Operand &Op : I.operands())
    if (Op.isModifier() && is_contained(split(Op.spelling(), ' '), Word))
      return true;
  return false;
}

/// The MC register of source \p Src (0: A, 1: B) of a matrix instruction.
MCRegister matrixSource(const Module &M, const Instruction &I, unsigned Src) {
  auto Map = mapOperandsToMC(I, M.target());
  unsigned Written = 1 + Src; // after the destination
  if (Written >= Map.size() || !Map[Written] || I.mcInsts().size() != 1)
    return MCRegister();
  const MCOperand &Op = I.mcInsts()[0].getOperand(*Map[Written]);
  return Op.isReg() ? Op.getReg() : MCRegister();
}

/// One matrix instruction and whether its A and B still hold, at the next
/// matrix instruction, what it read.
struct Pending {
  Instruction *I = nullptr;
  MCRegister Src[2];
  bool Intact[2] = {false, false};
};

class SetMatrixReusePass final : public Pass {
public:
  /// \p IfSupported: on a target without reuse modifiers, do nothing
  /// rather than fail (the -O pipelines run on every target).
  explicit SetMatrixReusePass(bool IfSupported) : IfSupported(IfSupported) {}
  StringRef name() const override { return "SetMatrixReusePass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    if (!targetHasMnemonic(M, "v_wmma_f32_16x16x32_f16")) {
      if (IfSupported)
        return PreservedAnalyses::all();
      return moduleError(M, "SetMatrixReusePass: " + M.target().processor() +
                                " has no matrix reuse modifiers (gfx1250)");
    }
    RegisterUnits RU(M.target());
    InstBuilder B(M);
    bool Changed = false;
    auto Settle = [&](Pending &P, const Instruction *Next) -> Error {
      if (!P.I)
        return Error::success();
      bool Want[2] = {false, false};
      for (unsigned S = 0; S != 2; ++S)
        Want[S] = Next && P.Intact[S] && P.Src[S].isValid() &&
                  matrixSource(M, *Next, S) == P.Src[S];
      Error E = setFlags(B, *P.I, Want, Changed);
      P = Pending();
      return E;
    };
    for (Function &F : M.functions()) {
      Pending P;
      for (BasicBlock &BB : F.blocks()) {
        if (Error E = Settle(P, nullptr)) // a label: control may come from elsewhere
          return std::move(E);
        for (BlockItem &Item : BB.items()) {
          auto *I = dyn_cast<Instruction>(&Item);
          if (!I) { // a directive may change what follows
            if (Error E = Settle(P, nullptr))
              return std::move(E);
            continue;
          }
          if (I->kind() == InstKind::Machine && isMatrix(M, *I) && isRewritable(M, Scope, *I)) {
            if (Error E = Settle(P, I))
              return std::move(E);
            P.I = I;
            for (unsigned S = 0; S != 2; ++S) {
              P.Src[S] = matrixSource(M, *I, S);
              P.Intact[S] = true;
            }
            // Its own write of A or B (D overlapping a source) breaks reuse.
            breakOnWrites(RU, *I, P);
            continue;
          }
          const InstrFacts &Facts = I->facts();
          if (I->kind() != InstKind::Machine || !isRewritable(M, Scope, *I) ||
              Facts.has(IF_Call) || Facts.has(IF_Branch) || Facts.has(IF_Terminator) ||
              Facts.has(IF_Return) || Facts.has(IF_Barrier) || Facts.has(IF_Opaque)) {
            if (Error E = Settle(P, nullptr))
              return std::move(E);
            continue;
          }
          breakOnWrites(RU, *I, P);
        }
      }
      if (Error E = Settle(P, nullptr)) // the function ends
        return std::move(E);
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  static void breakOnWrites(const RegisterUnits &RU, const Instruction &I, Pending &P) {
    if (!P.I)
      return;
    for (MCRegister D : I.facts().Defs)
      for (unsigned S = 0; S != 2; ++S)
        if (P.Src[S].isValid()) {
          BitVector Src = RU.none();
          RU.set(Src, P.Src[S]);
          if (RU.any(Src, D))
            P.Intact[S] = false;
        }
  }

  /// Gives \p I exactly the reuse modifiers of \p Want, when MC accepts
  /// them; untouched when it has them already.
  static Error setFlags(InstBuilder &B, Instruction &I, const bool Want[2], bool &Changed) {
    bool Has[2] = {hasWord(I, ReuseA), hasWord(I, ReuseB)};
    if (Has[0] == Want[0] && Has[1] == Want[1])
      return Error::success();
    std::vector<Operand> Ops;
    for (const Operand &Op : I.operands()) {
      if (!Op.isModifier()) {
        Ops.push_back(Op);
        continue;
      }
      SmallVector<StringRef, 4> Kept;
      for (StringRef W : split(Op.spelling(), ' '))
        if (!W.empty() && W != ReuseA && W != ReuseB)
          Kept.push_back(W);
      if (!Kept.empty())
        Ops.emplace_back(OperandKind::Modifier, join(Kept, " "));
    }
    if (Want[0])
      Ops.emplace_back(OperandKind::Modifier, ReuseA.str());
    if (Want[1])
      Ops.emplace_back(OperandKind::Modifier, ReuseB.str());
    if (Error E = B.setOperands(I, std::move(Ops))) {
      // MC refuses the modifier on this instruction (f8f6f4, _f4): no hint.
      consumeError(std::move(E));
      return Error::success();
    }
    Changed = true;
    return Error::success();
  }

  bool IfSupported;
};

} // namespace

Expected<std::unique_ptr<Pass>> createSetMatrixReusePass(const PassArguments &Args) {
  bool IfSupported = false;
  if (Error E = parseFlagArguments(Args, {{"ifSupported", &IfSupported}}))
    return std::move(E);
  return std::make_unique<SetMatrixReusePass>(IfSupported);
}

} // namespace stinkytofu
