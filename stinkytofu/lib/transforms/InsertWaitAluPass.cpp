//===- InsertWaitAluPass.cpp - Insert the ALU dependency waits -----------===//
#include "stinkytofu/transforms/InsertWaitAluPass.h"

#include "stinkytofu/analysis/DepCtrHazards.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/EditableInstructions.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/pass/Pass.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace stinkytofu {
namespace {

/// The DepCtrFields member MC's field \p Name goes to.
std::optional<unsigned> *fieldSlot(DepCtrFields &Fields, StringRef Name) {
  return StringSwitch<std::optional<unsigned> *>(Name)
      .Case("va_vdst", &Fields.VaVdst)
      .Case("va_sdst", &Fields.VaSdst)
      .Case("va_ssrc", &Fields.VaSsrc)
      .Case("va_vcc", &Fields.VaVcc)
      .Case("sa_sdst", &Fields.SaSdst)
      .Case("vm_vsrc", &Fields.VmVsrc)
      .Case("hold_cnt", &Fields.HoldCnt)
      .Default(nullptr);
}

class InsertWaitAluPass final : public Pass {
public:
  StringRef name() const override { return "InsertWaitAluPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &Scope) override {
    const TargetInfo &TI = M.target();
    if (TI.hardware().depCtrFields().empty())
      return PreservedAnalyses::all();
    StringRef Mnemonic = targetHasMnemonic(M, "s_wait_alu") ? "s_wait_alu" : "s_waitcnt_depctr";
    InstBuilder B(M);
    bool Changed = false;
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG())
        buildCFG(F);
      bool FunctionChanged = false;
      std::vector<DepCtrWaitNeed> Needs = findDepCtrWaitNeeds(F, TI);
      // The analysis holds its instructions const; the pass edits F's own.
      DenseMap<const Instruction *, Instruction *> Own =
          editableInstructions(F, Needs, [](const DepCtrWaitNeed &N) { return N.Consumer; });
      for (const DepCtrWaitNeed &Need : Needs) {
        Instruction &Consumer = *Own.lookup(Need.Consumer);
        if (!inScope(M, Scope, Consumer))
          continue;
        if (Error E = insertBefore(M, Scope, B, Mnemonic, Consumer, Need.Fields))
          return std::move(E);
        FunctionChanged = true;
      }
      if (FunctionChanged)
        AM.invalidate(F, PreservedAnalyses::none());
      Changed |= FunctionChanged;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// Zeroes \p Zero before \p Consumer: in the depctr wait right before it
  /// (or before the s_delay_alu that describes it) when this pass wrote
  /// it, else in a new wait there. A wait read from the input is never
  /// rewritten: a repair after another pass adds only what it needs.
  static Error insertBefore(Module &M, const PassScope &Scope, InstBuilder &B,
                            StringRef Mnemonic, Instruction &Consumer, uint8_t Zero) {
    const TargetInfo &TI = M.target();
    BasicBlock &BB = *Consumer.parent();
    Instruction *Anchor = &beforeDelayAlu(Consumer);
    DepCtrFields Fields;
    for (StringRef Name : depCtrFieldNames(Zero))
      *fieldSlot(Fields, Name) = 0;
    Instruction *Previous = nullptr;
    if (auto It = Anchor->getIterator(); It != BB.instructions().begin()) {
      Instruction &P = *std::prev(It);
      if (HardwareModel::roleOf(P.mnemonic()) == InstRole::DepCtrWait &&
          P.mcInsts().size() == 1 && P.mcInsts()[0].getNumOperands() &&
          P.mcInsts()[0].getOperand(0).isImm() && isRewritable(M, Scope, P) &&
          !P.location().isValid())
        Previous = &P;
    }
    if (Previous) {
      // Keep every field the old wait has, at the smaller count.
      uint32_t Imm = uint32_t(Previous->mcInsts()[0].getOperand(0).getImm());
      for (const DepCtrField &F : TI.hardware().depCtrFields()) {
        std::optional<unsigned> *Slot = fieldSlot(Fields, F.Name);
        if (Slot && !*Slot && F.decode(Imm) != F.max())
          *Slot = F.decode(Imm);
      }
      Expected<BuildOperand> Op = B.printedDepctr(Mnemonic, Fields);
      if (!Op)
        return Op.takeError();
      if (Error E = B.rewrite(*Previous, {*Op}))
        return E;
      attachWaitModifier(*Previous, TI);
      return Error::success();
    }
    Expected<BuildOperand> Op = B.printedDepctr(Mnemonic, Fields);
    if (!Op)
      return Op.takeError();
    InstInserter At(B);
    At.setInsertPointBefore(*Anchor);
    if (Expected<Instruction &> Wait = At.build(Mnemonic, {*Op}); !Wait)
      return Wait.takeError();
    return Error::success();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createInsertWaitAluPass(const PassArguments &Args) {
  // The reference's arguments tune how many VALUs its expert-scheduling-mode
  // waits count; this pass keeps the hardware's interlocks and inserts none.
  for (const auto &[Name, Value] : Args)
    if (is_contained({"enableESM2TrackValuVsrc", "xdlCountFromNextWmma",
                      "sharedOrderCountFollowers"},
                     StringRef(Name)))
      return createStringError(inconvertibleErrorCode(),
                               "'" + Name +
                                   "' tunes the reference's va_vdst/vm_vsrc waits of the "
                                   "expert scheduling mode (SCHED_MODE 2), which StinkyTofu "
                                   "does not use (docs/passes.md)");
  return createArgumentlessPass<InsertWaitAluPass>(Args);
}

} // namespace stinkytofu
