//===- AsmMovePropagationPass.cpp - Block-local copy propagation ----------===//
#include "stinkytofu/transforms/AsmMovePropagationPass.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/MC/MCInstrDesc.h"

using namespace llvm;

namespace stinkytofu {
namespace {

/// `mov D, S` between two plain 32-bit registers of one file.
struct Copy {
  MCRegister Dst, Src;
  Operand SrcOperand;
};

std::optional<Copy> asCopy(const Module &M, const Instruction &I) {
  if (I.kind() != InstKind::Machine || HardwareModel::roleOf(I.mnemonic()) != InstRole::Move32 ||
      I.numOperands() != 2)
    return std::nullopt;
  const Operand &D = I.operand(0), &S = I.operand(1);
  if (D.sourceModifiers() || S.sourceModifiers() || D.regFile() != S.regFile())
    return std::nullopt;
  std::optional<MCRegister> DR = operandRegister(M, D), SR = operandRegister(M, S);
  if (!DR || !SR)
    return std::nullopt;
  RegClass C = M.target().classOf(*DR);
  if (C != RegClass::VGPR && C != RegClass::SGPR)
    return std::nullopt;
  return Copy{*DR, *SR, S};
}

class AsmMovePropagationPass final : public Pass {
public:
  StringRef name() const override { return "AsmMovePropagationPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    RegisterUnits RU(M.target());
    InstBuilder B(M);
    bool Changed = false;
    std::vector<Instruction *> Doomed;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks()) {
        std::vector<Copy> Copies;
        // The tracked copies in block order, as they are once rewritten: no
        // later instruction changes them, so the search for dead ones below
        // need not ask again.
        std::vector<std::pair<const Instruction *, Copy>> Found;
        for (BlockItem &Item : BB.items()) {
          Instruction *I = trackedInstruction(Item);
          if (!I) {
            Copies.clear();
            continue;
          }
          if (!Copies.empty() && isRewritable(M, Scope, *I))
            Changed |= propagate(M, B, *I, Copies);
          forgetClobbered(M, RU, *I, Copies);
          if (std::optional<Copy> C = asCopy(M, *I)) {
            if (C->Dst != C->Src)
              Copies.push_back(*C);
            Found.emplace_back(I, std::move(*C));
          }
        }
        auto NextFound = Found.begin();
        for (Instruction &I : BB.instructions()) {
          std::optional<Copy> C;
          if (NextFound != Found.end() && NextFound->first == &I)
            C = (NextFound++)->second;
          else if (!trackedInstruction(I))
            C = asCopy(M, I);
          if (C && isRewritable(M, Scope, I) &&
              (C->Dst == C->Src || overwrittenBeforeRead(M, RU, I, C->Dst)))
            Doomed.push_back(&I);
        }
      }
    return eraseAndReport(Doomed, Changed);
  }

private:
  /// Rewrites the plain source operands of \p I that read a copy's
  /// destination; true when \p I changed.
  static bool propagate(const Module &M, InstBuilder &B, Instruction &I,
                        const std::vector<Copy> &Copies) {
    // Most instructions read no copy's destination: nothing to map.
    auto ReadsCopy = [&](const Operand &Op) {
      std::optional<MCRegister> R = operandRegister(M, Op);
      return R && any_of(Copies, [&](const Copy &C) { return C.Dst == *R; });
    };
    if (none_of(I.operands(), ReadsCopy))
      return false;
    const TargetInfo &TI = M.target();
    const MCInstrDesc &Desc = TI.instrInfo().get(I.facts().Opcode);
    bool VectorSafe = !isDppOrSdwa(TI, I) &&
                      HardwareModel::roleOf(I.mnemonic()) != InstRole::CrossLane;
    auto Map = mapOperandsToMC(I, TI);
    std::vector<Operand> Ops = I.operands();
    bool Any = false;
    for (unsigned K = 0; K != Ops.size() && K != Map.size(); ++K) {
      if (!Map[K] || *Map[K] < Desc.getNumDefs() || Ops[K].sourceModifiers() ||
          (*Map[K] < Desc.getNumOperands() &&
           Desc.getOperandConstraint(*Map[K], MCOI::TIED_TO) != -1))
        continue;
      std::optional<MCRegister> R = operandRegister(M, Ops[K]);
      if (!R)
        continue;
      for (const Copy &C : Copies)
        if (C.Dst == *R && (TI.classOf(C.Dst) == RegClass::SGPR || VectorSafe)) {
          Ops[K] = C.SrcOperand;
          Any = true;
        }
    }
    if (!Any)
      return false;
    if (Error E = B.setOperands(I, std::move(Ops))) {
      consumeError(std::move(E)); // MC refuses it: keep the original
      return false;
    }
    return true;
  }

  /// Drops the copies \p I invalidates: a write of either register, and for
  /// VGPR copies a write of EXEC.
  static void forgetClobbered(const Module &M, const RegisterUnits &RU, const Instruction &I,
                              std::vector<Copy> &Copies) {
    if (Copies.empty())
      return;
    BitVector Writes = RU.none();
    for (MCRegister D : I.facts().Defs)
      RU.set(Writes, D);
    bool ExecWritten = RU.any(Writes, RU.byName("EXEC"));
    llvm::erase_if(Copies, [&](const Copy &C) {
      return RU.any(Writes, C.Dst) || RU.any(Writes, C.Src) ||
             (ExecWritten && M.target().classOf(C.Dst) == RegClass::VGPR);
    });
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createAsmMovePropagationPass(const PassArguments &Args) {
  return createArgumentlessPass<AsmMovePropagationPass>(Args);
}

} // namespace stinkytofu
