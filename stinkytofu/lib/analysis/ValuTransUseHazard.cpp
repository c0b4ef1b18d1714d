//===- ValuTransUseHazard.cpp - gfx1100's VALUTransUse depctr rule -------===//
#include "ValuTransUseHazard.h"

#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace stinkytofu {
namespace {

constexpr int MaxValusBetween = 5;
constexpr int MaxTransBetween = 1;

class TransUseSearch {
public:
  TransUseSearch(const TargetInfo &TI, const DenseSet<const Instruction *> &Waited)
      : TI(TI), Waited(Waited) {
    auto Bit = [](StringRef Name) {
      std::optional<unsigned> B = HardwareModel::tsFlagBit(Name);
      return B ? uint64_t(1) << *B : 0;
    };
    Valu = Bit("VALU");
    Trans = Bit("TRANS");
    // Instructions after which no VALU result is in flight (va_vdst 0).
    Drains = Bit("MUBUF") | Bit("MTBUF") | Bit("MIMG") | Bit("VIMAGE") | Bit("VSAMPLE") |
             Bit("FLAT") | Bit("DS") | Bit("EXP");
    VaVdst = TI.hardware().depCtrField("va_vdst");
  }

  bool isValu(const Instruction &I) const { return flagsOf(I) & Valu; }

  /// The VGPRs \p I reads as explicit operands.
  SmallVector<MCRegister, 4> vgprSources(const Instruction &I) const {
    SmallVector<MCRegister, 4> Regs;
    for (const MCInst &Inst : I.mcInsts()) {
      const MCInstrDesc &Desc = TI.instrInfo().get(Inst.getOpcode());
      for (unsigned K = Desc.getNumDefs(), E = Inst.getNumOperands(); K < E; ++K) {
        const MCOperand &Op = Inst.getOperand(K);
        if (Op.isReg() && TI.classOf(Op.getReg()) == RegClass::VGPR)
          Regs.push_back(Op.getReg());
      }
    }
    return Regs;
  }

  /// The TRANS instruction before \p Consumer that writes one of \p Srcs
  /// close enough to need the wait, or null.
  const Instruction *producer(const Instruction &Consumer, ArrayRef<MCRegister> Srcs) const {
    DenseSet<const BasicBlock *> Visited;
    return search(*Consumer.parent(), Consumer.getIterator(), {}, Srcs, Visited);
  }

private:
  struct Counts {
    int Valus = 0;
    int Trans = 0;
  };

  uint64_t flagsOf(const Instruction &I) const {
    uint64_t Flags = 0;
    for (const MCInst &Inst : I.mcInsts())
      Flags |= TI.instrInfo().get(Inst.getOpcode()).TSFlags;
    return Flags;
  }

  /// Walks back from \p From (exclusive) in \p BB, then into its
  /// predecessors, each block once, as LLVM's hasHazard does.
  const Instruction *search(const BasicBlock &BB, BasicBlock::const_iterator From, Counts C,
                            ArrayRef<MCRegister> Srcs,
                            DenseSet<const BasicBlock *> &Visited) const {
    const MCRegisterInfo &MRI = TI.regInfo();
    for (auto It = From; It != BB.instructions().begin();) {
      const Instruction &I = *--It;
      if (C.Valus > MaxValusBetween || C.Trans > MaxTransBetween)
        return nullptr;
      uint64_t Flags = flagsOf(I);
      if ((Flags & Drains) || drainsVaVdst(I))
        return nullptr;
      if (Flags & Trans)
        for (MCRegister D : I.facts().Defs)
          for (MCRegister S : Srcs)
            if (MRI.regsOverlap(D, S))
              return &I;
      if (Flags & Valu)
        ++C.Valus;
      if (Flags & Trans)
        ++C.Trans;
      // A wait this rule put before I already drained what came earlier.
      if (Waited.contains(&I))
        return nullptr;
    }
    for (const BasicBlock *Pred : BB.predecessors())
      if (Visited.insert(Pred).second)
        if (const Instruction *P = search(*Pred, Pred->instructions().end(), C, Srcs, Visited))
          return P;
    return nullptr;
  }

  bool drainsVaVdst(const Instruction &I) const {
    if (!VaVdst || HardwareModel::roleOf(I.mnemonic()) != InstRole::DepCtrWait ||
        I.mcInsts().size() != 1 || !I.mcInsts()[0].getNumOperands() ||
        !I.mcInsts()[0].getOperand(0).isImm())
      return false;
    return VaVdst->decode(uint32_t(I.mcInsts()[0].getOperand(0).getImm())) == 0;
  }

  const TargetInfo &TI;
  const DenseSet<const Instruction *> &Waited;
  uint64_t Valu = 0, Trans = 0, Drains = 0;
  const DepCtrField *VaVdst = nullptr;
};

} // namespace

void findValuTransUseNeeds(const Function &F, const TargetInfo &TI,
                           std::vector<DepCtrWaitNeed> &Needs) {
  // LLVM fixes the hazards in program order, so a wait it put in earlier
  // ends the searches of later instructions.
  DenseSet<const Instruction *> Waited;
  TransUseSearch Search(TI, Waited);
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (!Search.isValu(I))
        continue;
      SmallVector<MCRegister, 4> Srcs = Search.vgprSources(I);
      if (Srcs.empty())
        continue;
      const Instruction *Producer = Search.producer(I, Srcs);
      if (!Producer)
        continue;
      Waited.insert(&I);
      DepCtrWaitNeed N;
      N.Consumer = &I;
      N.Producer = Producer->parent() == I.parent() ? Producer : nullptr;
      N.Fields = DZ_VaVdst;
      N.Rule = "VALUTransUse";
      N.Detail = "reads a VGPR " + Producer->mnemonic().str() +
                 " (TRANS) wrote too few VALUs earlier; needs depctr_va_vdst(0)";
      Needs.push_back(std::move(N));
    }
}

} // namespace stinkytofu
