//===- RegionClonePass.cpp - The first trip of a loop, with C = 0 ---------===//
#include "stinkytofu/transforms/RegionClonePass.h"

#include "stinkytofu/analysis/InstructionEffects.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

// The reference's one clone spec: its name prefixes the new labels.
constexpr StringLiteral SpecName = "InitCIterWmma";
constexpr StringLiteral DefaultStart = "label_LoopBeginL";
// Written operands of a matrix instruction: D, A, B, C.
constexpr unsigned WrittenD = 0, WrittenC = 3;

class RegionClonePass final : public Pass {
public:
  explicit RegionClonePass(std::string Start) : Start(std::move(Start)) {}
  StringRef name() const override { return "RegionClonePass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &Scope) override {
    const MCSubtargetInfo &STI = M.target().subtargetInfo();
    if (!STI.checkFeatures("+mai-insts") && !STI.checkFeatures("+gfx11-insts"))
      return fail(M.target().processor() + " has no matrix instructions");
    if (!coversWholeModule(Scope))
      return PreservedAnalyses::all();
    EffectModel EM(M.target());
    unsigned Job = 0;
    for (Function &F : M.functions()) {
      BasicBlock *Header = F.findBlock(Start);
      if (!Header)
        continue;
      if (!F.hasValidCFG())
        buildCFG(F);
      Expected<LoopInfo &> Loops = AM.getResult<LoopAnalysis>(F);
      if (!Loops)
        return Loops.takeError();
      if (Error E = cloneFirstTrip(M, F, *Header, *Loops, EM, Job++))
        return std::move(E);
    }
    return Job ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  Error fail(const Twine &Why) const {
    return createStringError(inconvertibleErrorCode(), name() + ": " + Why.str());
  }

  /// The register of written operand \p Written of \p I, if it is one.
  static MCRegister writtenRegister(const Module &M, const Instruction &I, unsigned Written) {
    auto Map = mapOperandsToMC(I, M.target());
    if (Written >= Map.size() || !Map[Written] || !I.operand(Written).isRegister())
      return MCRegister();
    const MCOperand &Op = I.mcInsts()[0].getOperand(*Map[Written]);
    return Op.isReg() ? Op.getReg() : MCRegister();
  }

  /// A matrix instruction accumulating into its destination (C = D).
  static MCRegister accumulator(const Module &M, const Instruction &I) {
    StringRef Class = M.target().hardware().classify(I.mnemonic()).Name;
    if (I.kind() != InstKind::Machine || (Class != "MFMA" && Class != "WMMA"))
      return MCRegister();
    MCRegister D = writtenRegister(M, I, WrittenD), C = writtenRegister(M, I, WrittenC);
    return D && C == D ? C : MCRegister();
  }

  struct Region {
    std::vector<Instruction *> Insts;
    /// Indices into Insts of the chain heads, the first per accumulator.
    std::vector<unsigned> ChainHeads;
  };

  /// The straight-line start of the loop up to its last chain head.
  Expected<Region> regionOf(const Module &M, Function &F, BasicBlock &Header, const Loop &L,
                            const EffectModel &EM) const {
    Region R;
    std::vector<Instruction *> Insts;
    // Where the first directive or macro stands (Insts' size then).
    std::optional<size_t> FirstOpaque;
    BitVector Touched(EM.units().numUnits());
    bool Straight = true;
    for (auto BB = Header.getIterator(); Straight && BB != F.blocks().end() && L.contains(&*BB);
         ++BB)
      for (BlockItem &Item : BB->items()) {
        auto *I = dyn_cast<Instruction>(&Item);
        if (I && (isControlTransfer(*I) || I->facts().has(IF_Call))) {
          Straight = false;
          break;
        }
        if (!I || I->kind() != InstKind::Machine) {
          FirstOpaque = FirstOpaque.value_or(Insts.size());
          continue;
        }
        InstructionEffects E = EM.effectsOf(*I);
        if (MCRegister Acc = accumulator(M, *I)) {
          BitVector Units(Touched.size());
          for (unsigned U : EM.units().units(Acc))
            Units.set(U);
          if (!Units.anyCommon(Touched))
            R.ChainHeads.push_back(Insts.size());
          else if (none_of(R.ChainHeads,
                           [&](unsigned K) { return accumulator(M, *Insts[K]) == Acc; }))
            return fail("'" + I->mnemonic().str() + "' in the loop at '" + Start +
                        "' accumulates into registers an earlier instruction touches: zeroing "
                        "its C would not be the input's first trip");
        }
        Touched |= E.Reads;
        Touched |= E.Writes;
        Insts.push_back(I);
      }
    if (R.ChainHeads.empty())
      return fail("the loop at '" + Start + "' has no matrix instruction accumulating into "
                  "its destination before its first branch");
    if (FirstOpaque && *FirstOpaque <= R.ChainHeads.back())
      return fail("the loop at '" + Start + "' holds a directive or macro before its last "
                  "chain head: its first trip is not cloned");
    Insts.resize(R.ChainHeads.back() + 1);
    R.Insts = std::move(Insts);
    return R;
  }

  Error cloneFirstTrip(Module &M, Function &F, BasicBlock &Header, LoopInfo &Loops,
                       const EffectModel &EM, unsigned Job) const {
    Loop *L = Loops.loopFor(&Header);
    if (!L || L->header() != &Header)
      return fail("'" + Start + "' does not start a loop");
    if (&Header == &*F.blocks().begin())
      return fail("the loop at '" + Start + "' starts its function");
    // The entries from outside: branches to retarget, or the fall-through
    // from the block before, which will fall into the copy.
    std::vector<BasicBlock *> Branching;
    for (BasicBlock *Pred : Header.predecessors()) {
      ArrayRef<BasicBlock *> Succs = Pred->successors();
      EdgeKind Kind = Pred->successorKinds()[find(Succs, &Header) - Succs.begin()];
      if (Kind == EdgeKind::LongBranch)
        return fail("the loop at '" + Start + "' is entered by a long branch");
      if (Kind == EdgeKind::FallThrough && L->contains(Pred))
        return fail("a back edge falls through into '" + Start + "'");
      if (Kind == EdgeKind::Branch && !L->contains(Pred))
        Branching.push_back(Pred);
    }
    Expected<Region> R = regionOf(M, F, Header, *L, EM);
    if (!R)
      return R.takeError();
    std::string CloneLabel = ("label_" + SpecName + "_" + Start + "_" + Twine(Job)).str();
    std::string TargetLabel = ("label_" + SpecName + "_target_" + Twine(Job)).str();
    for (StringRef Label : {StringRef(CloneLabel), StringRef(TargetLabel)})
      if (F.findBlock(Label))
        return fail("label '" + Label.str() + "' is taken");

    InstBuilder Builder(M);
    // The copy, before the header: the block before falls into it now.
    Instruction &Last = *R->Insts.back();
    BasicBlock &LastBlock = *Last.parent();
    BasicBlock::const_item_iterator After = Last.getIterator();
    F.splitBlock(LastBlock, std::next(After), TargetLabel);
    BasicBlock &Copy = F.insertBlock(Header.getIterator(), CloneLabel);
    for (unsigned K = 0; K < R->Insts.size(); ++K) {
      Instruction &I = Copy.append(R->Insts[K]->clone());
      if (!is_contained(R->ChainHeads, K))
        continue;
      std::vector<Operand> Ops = I.operands();
      Ops[WrittenC] = Operand(OperandKind::Immediate, "0");
      if (Error E = Builder.setOperands(I, std::move(Ops)))
        return fail("'" + I.mnemonic().str() + "' takes no C = 0 here: " + toString(std::move(E)));
    }
    InstInserter AtEnd(Builder);
    AtEnd.setInsertPointAtEnd(Copy);
    if (Expected<Instruction &> Jump = AtEnd.build("s_branch", {BuildOperand::label(TargetLabel)});
        !Jump)
      return Jump.takeError();
    // Entries from outside by branch go to the copy.
    for (BasicBlock *Pred : Branching)
      for (Instruction &I : Pred->instructions()) {
        if (!isControlTransfer(I))
          continue;
        std::vector<Operand> Ops = I.operands();
        bool Named = false;
        for (Operand &O : Ops)
          if (O.isSymbol() && O.spelling() == Start) {
            O = Operand(OperandKind::Symbol, CloneLabel);
            Named = true;
          }
        if (Named)
          if (Error E = Builder.setOperands(I, std::move(Ops)))
            return E;
      }
    F.invalidateCFG();
    buildCFG(F);
    return Error::success();
  }

  std::string Start;
};

} // namespace

Expected<std::unique_ptr<Pass>> createRegionClonePass(const PassArguments &Args) {
  std::string Start = DefaultStart.str();
  for (const auto &[Key, Value] : Args) {
    if (Key != "start" || Value.empty())
      return createStringError(inconvertibleErrorCode(),
                               "takes start=LABEL, not '" + Key +
                                   (Value.empty() ? "" : "=" + Value) + "'");
    Start = Value;
  }
  return std::make_unique<RegionClonePass>(std::move(Start));
}

} // namespace stinkytofu
