//===- DepCtrHazards.cpp - Where an ALU dependency wait is needed --------===//
#include "stinkytofu/analysis/DepCtrHazards.h"
#include "ValuTransUseHazard.h"

#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include <bitset>

using namespace llvm;

namespace stinkytofu {

std::vector<StringRef> depCtrFieldNames(uint8_t Mask) {
  // MC prints the fields from the lowest bit up.
  std::vector<StringRef> Names;
  if (Mask & DZ_SaSdst)
    Names.push_back("sa_sdst");
  if (Mask & DZ_VaVcc)
    Names.push_back("va_vcc");
  if (Mask & DZ_VaSdst)
    Names.push_back("va_sdst");
  if (Mask & DZ_VaVdst)
    Names.push_back("va_vdst");
  return Names;
}

namespace {

constexpr StringLiteral ValuReadSgprRule = "VALUReadSGPR";
/// SGPRs the rule follows: hardware indices 0..127 (s0..s105, VCC, TTMPs).
constexpr unsigned NumTrackedSgprs = 128;

/// Which kind of instruction wrote VCC last (both after a join).
enum VccWriter : uint8_t { VW_None = 0, VW_Salu = 1, VW_Valu = 2 };

/// The VALUReadSGPR state between two instructions.
struct SgprHazardState {
  std::bitset<NumTrackedSgprs / 2> Tracked; ///< pairs a VALU has read
  std::bitset<NumTrackedSgprs> SaluWrites;  ///< SALU writes in flight
  std::bitset<NumTrackedSgprs> ValuWrites;  ///< VALU writes in flight
  uint8_t Vcc = VW_None;

  bool operator==(const SgprHazardState &O) const {
    return Tracked == O.Tracked && SaluWrites == O.SaluWrites &&
           ValuWrites == O.ValuWrites && Vcc == O.Vcc;
  }
  /// Adds what \p O holds; true when that changed anything.
  bool merge(const SgprHazardState &O) {
    SgprHazardState Old = *this;
    Tracked |= O.Tracked;
    SaluWrites |= O.SaluWrites;
    ValuWrites |= O.ValuWrites;
    Vcc |= O.Vcc;
    return !(*this == Old);
  }
  /// What a wait zeroing \p Fields ends.
  void waitFor(uint8_t Fields) {
    if (Fields & DZ_VaVcc)
      Vcc &= ~VW_Valu;
    if (Fields & DZ_SaSdst) {
      SaluWrites.reset();
      Vcc &= ~VW_Salu;
    }
    if (Fields & DZ_VaSdst)
      ValuWrites.reset();
  }
};

/// The SGPR (and VCC) a register operand names, as the rule sees it.
struct SgprSpan {
  unsigned First = 0; ///< hardware index
  unsigned Count = 0;
  bool IsVcc = false;
};

/// What one walk over a block reports, besides the state.
struct BlockReport {
  std::vector<DepCtrWaitNeed> *Needs = nullptr;
  /// The last writer of each SGPR index in this block (VCC: its index).
  DenseMap<unsigned, const Instruction *> Writers;
};

/// A computed branch whose target LongBranchLoweringPass proved: a jump
/// inside the function.
bool isLongBranch(const Instruction &I) {
  return isComputedBranch(I) && !getBranchTargets(I).empty();
}

class SgprHazardWalker {
public:
  explicit SgprHazardWalker(const TargetInfo &TI) : TI(TI) {
    auto Bit = [](StringRef Name) {
      std::optional<unsigned> B = HardwareModel::tsFlagBit(Name);
      return B ? uint64_t(1) << *B : 0;
    };
    Salu = Bit("SALU");
    Valu = Bit("VALU");
    // FLAT (global, scratch, flat) does not end the hazards: only the
    // buffer, image and scalar memory instructions do.
    ClearsHazards = Bit("MUBUF") | Bit("MTBUF") | Bit("MIMG") | Bit("VIMAGE") |
                    Bit("VSAMPLE") | Bit("SMRD");
    for (StringRef Name : {"VCC", "VCC_LO", "VCC_HI"})
      if (MCRegister R = TI.findRegister(Name); R.isValid())
        VccRegs.push_back(TI.canonical(R));
    // Scalar registers with an SGPR encoding that are no SGPR the hazard
    // concerns (LLVM leaves them out): M0, EXEC and the null register.
    for (StringRef Name : {"M0", "EXEC", "EXEC_LO", "EXEC_HI", "SGPR_NULL", "SGPR_NULL64"})
      if (MCRegister R = TI.findRegister(Name); R.isValid())
        Untracked.push_back(TI.canonical(R));
    SaSdst = TI.hardware().depCtrField("sa_sdst");
    VaVcc = TI.hardware().depCtrField("va_vcc");
    VaSdst = TI.hardware().depCtrField("va_sdst");
  }

  /// Runs \p BB from \p S; reports the waits it needs when \p Report is set.
  void walkBlock(const BasicBlock &BB, SgprHazardState &S, BlockReport *Report) const {
    for (const Instruction &I : BB.instructions())
      step(I, S, Report);
  }

  /// Drops from \p S the writes of the registers \p Branch (a long branch)
  /// jumps through: the relaxation's own address, which LLVM's pass never
  /// sees, and which the jump's wait has finished.
  void forgetAddressWrites(const Instruction &Branch, SgprHazardState &S) const {
    for (const MCInst &Inst : Branch.mcInsts())
      for (MCRegister R : InstrFacts::compute(TI, Inst).Uses)
        if (std::optional<SgprSpan> Span = sgprOf(R); Span && !Span->IsVcc)
          for (unsigned K = 0; K != Span->Count; ++K) {
            S.SaluWrites.reset(Span->First + K);
            S.ValuWrites.reset(Span->First + K);
          }
  }

private:
  std::optional<SgprSpan> sgprOf(MCRegister R) const {
    SgprSpan Span;
    Span.IsVcc = llvm::is_contained(VccRegs, R);
    RegClass Class = TI.classOf(R);
    if (!Span.IsVcc && Class != RegClass::SGPR && Class != RegClass::TTMP)
      return std::nullopt;
    if (llvm::is_contained(Untracked, R))
      return std::nullopt;
    SmallVector<MCRegister, 4> Parts = TI.covered32(R);
    if (Parts.empty())
      return std::nullopt;
    Span.First = TI.regInfo().getEncodingValue(Parts.front()) & 0xff;
    Span.Count = Parts.size();
    if (Span.First >= NumTrackedSgprs)
      return std::nullopt;
    return Span;
  }

  void step(const Instruction &I, SgprHazardState &S, BlockReport *Report) const {
    uint8_t Wait = 0;
    const Instruction *Producer = nullptr;
    std::string Why;
    for (const MCInst &Inst : I.mcInsts()) {
      const MCInstrDesc &Desc = TI.instrInfo().get(Inst.getOpcode());
      if (HardwareModel::roleOf(I.mnemonic()) == InstRole::DepCtrWait) {
        if (Inst.getNumOperands() && Inst.getOperand(0).isImm())
          S.waitFor(zeroedFields(uint32_t(Inst.getOperand(0).getImm())));
        continue;
      }
      if (Desc.TSFlags & ClearsHazards) {
        S.SaluWrites.reset();
        S.ValuWrites.reset();
        S.Vcc = VW_None;
        continue;
      }
      const bool IsValu = Desc.TSFlags & Valu, IsSalu = Desc.TSFlags & Salu;
      if (!IsValu && !IsSalu)
        continue;
      InstrFacts Facts = InstrFacts::compute(TI, Inst);
      uint8_t Need = 0;
      const bool LongBranch = isLongBranch(I);
      const bool LeavesFunction =
          (isCall(I) || isIndirectBranch(I) || isReturn(I)) && !isProgramEnd(I);
      if (LeavesFunction) {
        // The callee or caller cannot see which writes are in flight. A long
        // branch stays in the function: its target starts from the state
        // before the jump (enteringStates), so only the SALU writes of its
        // address wait here, as after LLVM's branch relaxation.
        if ((S.Vcc & VW_Valu) && !LongBranch)
          Need |= DZ_VaVcc;
        if (S.SaluWrites.any() || (S.Vcc & VW_Salu))
          Need |= DZ_SaSdst;
        if (S.ValuWrites.any() && !LongBranch)
          Need |= DZ_VaSdst;
        if (Need)
          Why = LongBranch ? "the long branch's address must be written before the jump"
                           : "every SGPR write must be done before control leaves the function";
      } else {
        for (MCRegister R : Facts.Uses) {
          std::optional<SgprSpan> Span = sgprOf(R);
          if (!Span)
            continue;
          unsigned Pair = Span->First / 2;
          if (!S.Tracked[Pair]) {
            if (IsValu)
              S.Tracked.set(Pair);
            continue;
          }
          // An SALU read waits for the VALU writes itself.
          if (IsSalu) {
            if (!Span->IsVcc)
              S.ValuWrites.reset();
            else if (S.Vcc & VW_Valu)
              S.Vcc = VW_None;
          }
          uint8_t Before = Need;
          unsigned Hit = Span->First;
          for (unsigned K = 0; K != Span->Count; ++K) {
            if (S.SaluWrites[Span->First + K])
              Need |= DZ_SaSdst, Hit = Span->First + K;
            if (IsValu && S.ValuWrites[Span->First + K])
              Need |= DZ_VaSdst, Hit = Span->First + K;
          }
          if (Span->IsVcc) {
            if (S.Vcc & VW_Salu)
              Need |= DZ_SaSdst;
            if (S.Vcc & VW_Valu)
              Need |= DZ_VaVcc;
          }
          if (Need != Before && Why.empty()) {
            Why = TI.asmName(R) + " is read while a write of it is in flight";
            if (Report)
              Producer = Report->Writers.lookup(Hit);
          }
        }
      }
      if (Need) {
        S.waitFor(Need);
        Wait |= Need;
      }
      if (Desc.isCall())
        S.Tracked.set();
      for (MCRegister R : Facts.Defs) {
        std::optional<SgprSpan> Span = sgprOf(R);
        if (!Span || !S.Tracked[Span->First / 2])
          continue;
        if (Span->IsVcc)
          S.Vcc = IsSalu ? VW_Salu : VW_Valu;
        for (unsigned K = 0; K != Span->Count && !Span->IsVcc; ++K)
          (IsSalu ? S.SaluWrites : S.ValuWrites).set(Span->First + K);
        if (Report)
          for (unsigned K = 0; K != Span->Count; ++K)
            Report->Writers[Span->First + K] = &I;
      }
    }
    if (!Wait || !Report || !Report->Needs)
      return;
    DepCtrWaitNeed N;
    N.Consumer = &I;
    N.Producer = Producer;
    N.Fields = Wait;
    N.Rule = ValuReadSgprRule.str();
    std::string Fields;
    for (StringRef F : depCtrFieldNames(Wait))
      Fields += (Fields.empty() ? "depctr_" : " depctr_") + F.str() + "(0)";
    N.Detail = Why + "; needs " + Fields;
    Report->Needs->push_back(std::move(N));
  }

  /// The fields of a depctr immediate at 0 that the rule cares about.
  uint8_t zeroedFields(uint32_t Imm) const {
    uint8_t Zero = 0;
    if (SaSdst && SaSdst->decode(Imm) == 0)
      Zero |= DZ_SaSdst;
    if (VaVcc && VaVcc->decode(Imm) == 0)
      Zero |= DZ_VaVcc;
    if (VaSdst && VaSdst->decode(Imm) == 0)
      Zero |= DZ_VaSdst;
    return Zero;
  }

  const TargetInfo &TI;
  uint64_t Salu = 0, Valu = 0, ClearsHazards = 0;
  SmallVector<MCRegister, 3> VccRegs;
  SmallVector<MCRegister, 6> Untracked;
  const DepCtrField *SaSdst = nullptr, *VaVcc = nullptr, *VaSdst = nullptr;
};

/// The state entering every block, solved as LLVM's pass solves it: a
/// worklist first holding every block in layout order, taken from the
/// back (a block whose end state changed puts its successors at the back:
/// they run next); a block with one predecessor (not the entry) starts
/// from that predecessor's latest end state, any other block from the
/// union of every end state that reached it. The transfer is not monotone
/// (a wait a larger state triggers clears more), so the union keeps the
/// states of the visits before the last: the order of the visits decides
/// which, and LLVM's order is the one whose waits are matched. An end
/// state equal to the block's last (at first: empty) changes nothing.
std::vector<SgprHazardState> enteringStates(const Function &F, const SgprHazardWalker &W) {
  std::vector<const BasicBlock *> Blocks;
  DenseMap<const BasicBlock *, unsigned> Index;
  for (const BasicBlock &BB : F.blocks()) {
    Index[&BB] = Blocks.size();
    Blocks.push_back(&BB);
  }
  std::vector<SgprHazardState> In(Blocks.size()), Out(Blocks.size());
  if (!Blocks.empty() && !F.isEntry())
    In[0].Tracked.set(); // a callable function may be entered with any pair read by a VALU
  SetVector<const BasicBlock *> Worklist;
  for (const BasicBlock *BB : reverse(Blocks))
    Worklist.insert(BB);
  while (!Worklist.empty()) {
    const BasicBlock *BB = Worklist.pop_back_val();
    unsigned K = Index[BB];
    SgprHazardState S = In[K];
    W.walkBlock(*BB, S, nullptr);
    // A long branch (an s_setpc_b64 to a block of the function) is LLVM's
    // branch relaxation, whose targets get the waits of the branch before
    // relaxation: the state it was entered with, not the one the jump's
    // own waits flushed, without the address (whose s_getpc_b64 may stand
    // in the block before, split off by its `.Lpost_getpc` label).
    if (!BB->empty() && isLongBranch(BB->instructions().back())) {
      S = In[K];
      W.forgetAddressWrites(BB->instructions().back(), S);
    }
    if (S == Out[K])
      continue;
    Out[K] = S;
    for (const BasicBlock *Succ : BB->successors()) {
      unsigned J = Index[Succ];
      if (Succ->predecessors().size() == 1 && J != 0) {
        if (!(In[J] == S)) {
          In[J] = S;
          Worklist.insert(Succ);
        }
      } else if (In[J].merge(S)) {
        Worklist.insert(Succ);
      }
    }
  }
  return In;
}

} // namespace

std::vector<DepCtrWaitNeed> findDepCtrWaitNeeds(const Function &F, const TargetInfo &TI) {
  std::vector<DepCtrWaitNeed> Needs;
  if (TI.hardware().hasDepCtrHazard("VALUTransUse"))
    findValuTransUseNeeds(F, TI, Needs);
  if (!TI.hardware().hasDepCtrHazard(ValuReadSgprRule))
    return Needs;
  SgprHazardWalker Walker(TI);
  std::vector<SgprHazardState> Entering = enteringStates(F, Walker);
  for (auto [BB, In] : zip(F.blocks(), Entering)) {
    BlockReport Report;
    Report.Needs = &Needs;
    SgprHazardState S = In;
    Walker.walkBlock(BB, S, &Report);
  }
  return Needs;
}

std::vector<HazardFinding> findMissingDepCtrWaits(const Function &F, const TargetInfo &TI) {
  std::vector<HazardFinding> Findings;
  for (DepCtrWaitNeed &N : findDepCtrWaitNeeds(F, TI)) {
    HazardFinding H;
    H.Consumer = N.Consumer;
    H.Producer = N.Producer;
    H.Rule = std::move(N.Rule);
    H.Detail = std::move(N.Detail);
    H.Level = HazardFinding::Severity::Error;
    Findings.push_back(std::move(H));
  }
  return Findings;
}

} // namespace stinkytofu
