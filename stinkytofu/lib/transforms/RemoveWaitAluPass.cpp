//===- RemoveWaitAluPass.cpp - Drop the GPR hazard waits of s_wait_alu ----===//
#include "stinkytofu/transforms/RemoveWaitAluPass.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include <map>

using namespace llvm;

namespace stinkytofu {
namespace {

class RemoveWaitAluPass final : public Pass {
public:
  explicit RemoveWaitAluPass(bool IfSupported) : IfSupported(IfSupported) {}
  StringRef name() const override { return "RemoveWaitAluPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    const TargetInfo &TI = M.target();
    if (TI.hardware().depCtrFields().empty() && IfSupported)
      return PreservedAnalyses::all();
    if (TI.hardware().depCtrFields().empty())
      return moduleError(M, "RemoveWaitAluPass: " + TI.processor() +
                                " has no depctr wait (s_waitcnt_depctr from gfx10 on)");
    InstBuilder B(M);
    std::map<std::string, std::optional<HwRegOperand>> SchedMode;
    // The hazard fields are every depctr field but hold_cnt, which is no
    // GPR dependency.
    uint32_t Known = 0, Hazards = 0;
    const DepCtrField *Hold = TI.hardware().depCtrField("hold_cnt");
    for (const DepCtrField &F : TI.hardware().depCtrFields()) {
      Known |= F.mask();
      if (&F != Hold)
        Hazards |= F.mask();
    }
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
          uint32_t Old = uint32_t(*Imm) & 0xffff, New = Old | Hazards;
          if (New == Old)
            continue;
          // Bits of no field are no wait: nothing left when every field is
          // at its maximum.
          if ((New & Known) == Known || !Hold) {
            Doomed.push_back(&I);
            continue;
          }
          // Only hold_cnt is left.
          BuildOperand Op = BuildOperand::depctr({.HoldCnt = Hold->decode(New)});
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
    for (const BuildOperand &Value : {BuildOperand::imm(0), BuildOperand::sgpr(0)}) {
      Expected<Instruction> Probe =
          B.build(Mnemonic, {BuildOperand::hwreg("HW_REG_WAVE_SCHED_MODE"), Value});
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

  /// A target without depctr waits has nothing to remove (the standard
  /// pipelines run the pass on every target) instead of being an error.
  bool IfSupported;
};

} // namespace

Expected<std::unique_ptr<Pass>> createRemoveWaitAluPass(const PassArguments &Args) {
  bool IfSupported = false;
  if (Error E = parseFlagArguments(Args, {{"ifSupported", &IfSupported}}))
    return std::move(E);
  return std::make_unique<RemoveWaitAluPass>(IfSupported);
}

} // namespace stinkytofu
