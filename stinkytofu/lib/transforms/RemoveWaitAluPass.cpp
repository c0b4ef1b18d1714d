//===- RemoveWaitAluPass.cpp - Drop the GPR hazard waits of s_wait_alu ----===//
#include "stinkytofu/transforms/RemoveWaitAluPass.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/bit.h"
#include <array>
#include <map>

using namespace llvm;

namespace stinkytofu {
namespace {

enum Field : unsigned { VaVdst, VaSdst, VaSsrc, VaVcc, SaSdst, VmVsrc, HoldCnt, NumFields };

/// The bits of each depctr field in the immediate, as MC encodes them.
struct DepCtrLayout {
  std::array<uint32_t, NumFields> Mask{};

  /// MC fills the fields a wait does not name with their maximum (no
  /// wait) and bits of no field with 0, so a wait on field F alone is that
  /// default without F's bits, and the default is what the waits on two
  /// different fields have in common.
  static Expected<DepCtrLayout> probe(InstBuilder &B, StringRef Mnemonic, const TargetInfo &TI) {
    std::array<uint32_t, NumFields> Zero{};
    uint32_t Default = 0;
    for (unsigned F = 0; F != NumFields; ++F) {
      DepCtrFields Fields;
      std::optional<unsigned> *Slots[] = {&Fields.VaVdst, &Fields.VaSdst, &Fields.VaSsrc,
                                          &Fields.VaVcc,  &Fields.SaSdst, &Fields.VmVsrc,
                                          &Fields.HoldCnt};
      *Slots[F] = 0;
      Expected<Instruction> Wait = B.build(Mnemonic, {BuildOperand::depctr(Fields)});
      if (!Wait)
        return Wait.takeError();
      Zero[F] = uint32_t(writtenImmediate(*Wait, TI, 0).value_or(0xffff)) & 0xffff;
      Default |= Zero[F];
    }
    DepCtrLayout L;
    for (unsigned F = 0; F != NumFields; ++F)
      L.Mask[F] = Default & ~Zero[F];
    return L;
  }
};

class RemoveWaitAluPass final : public Pass {
public:
  StringRef name() const override { return "RemoveWaitAluPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    const TargetInfo &TI = M.target();
    if (!targetHasMnemonic(M, "s_wait_alu"))
      return moduleError(M, "RemoveWaitAluPass: " + TI.processor() +
                                " has no s_wait_alu (gfx12 and later)");
    InstBuilder B(M);
    std::map<std::string, std::optional<HwRegOperand>> SchedMode;
    std::map<std::string, DepCtrLayout> Layouts;
    std::vector<Instruction *> Doomed;
    bool Changed = false;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions()) {
          if (!isRewritable(M, Scope, I))
            continue;
          InstRole Role = HardwareModel::roleOf(I.mnemonic());
          if (Role == InstRole::HwRegWrite) {
            auto It = SchedMode.find(I.mnemonic().str());
            if (It == SchedMode.end())
              It = SchedMode.emplace(I.mnemonic().str(), schedModeWrite(B, I.mnemonic())).first;
            if (!It->second || I.mcInsts().size() != 1 ||
                I.mcInsts()[0].getNumOperands() <= It->second->Index)
              continue;
            const MCOperand &Op = I.mcInsts()[0].getOperand(It->second->Index);
            // hwreg simm16: id [5:0], offset [10:6]; DEP_MODE is bits [1:0].
            if (Op.isImm() && unsigned(Op.getImm() & 0x3f) == It->second->Id &&
                ((Op.getImm() >> 6) & 0x1f) < 2)
              Doomed.push_back(&I);
            continue;
          }
          if (Role != InstRole::DepCtrWait)
            continue;
          std::optional<int64_t> Imm = writtenImmediate(I, TI, 0);
          if (!Imm)
            continue;
          auto It = Layouts.find(I.mnemonic().str());
          if (It == Layouts.end()) {
            Expected<DepCtrLayout> L = DepCtrLayout::probe(B, I.mnemonic(), TI);
            if (!L)
              return L.takeError();
            It = Layouts.emplace(I.mnemonic().str(), *L).first;
          }
          const DepCtrLayout &L = It->second;
          uint32_t Old = uint32_t(*Imm) & 0xffff, New = Old;
          for (unsigned Fld : {VaVdst, VmVsrc, VaSdst, VaSsrc, VaVcc, SaSdst})
            New |= L.Mask[Fld];
          if (New == Old)
            continue;
          uint32_t Known = 0;
          for (uint32_t Mask : L.Mask)
            Known |= Mask;
          // Bits of no field are no wait: nothing left when every field is
          // at its maximum.
          if ((New & Known) == Known) {
            Doomed.push_back(&I);
            continue;
          }
          // Only hold_cnt is left.
          uint32_t Hold = L.Mask[HoldCnt];
          BuildOperand Op = BuildOperand::depctr(
              {.HoldCnt = unsigned((New & Hold) >> llvm::countr_zero(Hold))});
          if (Error E = B.rewrite(I, {Op}))
            return std::move(E);
          Changed = true;
        }
    return eraseAndReport(Doomed, Changed);
  }

private:
  /// Where a setreg's MC instruction holds its hwreg operand, and the id
  /// MC gives hwreg(HW_REG_WAVE_SCHED_MODE).
  struct HwRegOperand {
    unsigned Index;
    unsigned Id;
  };
  /// Found by assembling a write of SCHED_MODE with a zero value (or s0):
  /// the hwreg is then its only nonzero immediate. None when the target has
  /// no SCHED_MODE register.
  static std::optional<HwRegOperand> schedModeWrite(InstBuilder &B, StringRef Mnemonic) {
    for (StringRef Value : {"0", "s0"}) {
      Expected<Instruction> Probe =
          B.parse((Mnemonic + " hwreg(HW_REG_WAVE_SCHED_MODE), " + Value).str());
      if (!Probe) {
        consumeError(Probe.takeError());
        continue;
      }
      if (Probe->mcInsts().size() != 1)
        return std::nullopt;
      const MCInst &Inst = Probe->mcInsts()[0];
      for (unsigned Idx = 0; Idx != Inst.getNumOperands(); ++Idx)
        if (Inst.getOperand(Idx).isImm() && Inst.getOperand(Idx).getImm() != 0)
          return HwRegOperand{Idx, unsigned(Inst.getOperand(Idx).getImm() & 0x3f)};
    }
    return std::nullopt;
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createRemoveWaitAluPass(const PassArguments &Args) {
  return createArgumentlessPass<RemoveWaitAluPass>(Args);
}

} // namespace stinkytofu
