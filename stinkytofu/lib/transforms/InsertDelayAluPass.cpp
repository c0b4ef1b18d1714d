//===- InsertDelayAluPass.cpp - Insert the s_delay_alu LLVM would --------===//
#include "stinkytofu/transforms/InsertDelayAluPass.h"

#include "stinkytofu/analysis/DelayAluAnalysis.h"
#include "stinkytofu/ir/EditableInstructions.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/pass/Pass.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "VgprMsbSupport.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// An s_delay_alu has room for a second delay within this many
/// instructions (`instskip` up to SKIP_4 = 5).
constexpr unsigned FoldDistanceLimit = 6;

class InsertDelayAluPass final : public Pass {
public:
  StringRef name() const override { return "InsertDelayAluPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &Scope) override {
    InstBuilder Builder(M);
    VgprMsbCodec Codec(M.target());
    bool Changed = false;
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG())
        buildCFG(F);
      DelayAluAnalysis A = DelayAluAnalysis::run(F);
      DenseMap<const Instruction *, const DelayAluDemand *> ByConsumer;
      for (const DelayAluDemand &D : A.demands())
        ByConsumer[D.Consumer] = &D;
      if (ByConsumer.empty())
        continue;
      // The analysis holds its instructions const; the pass edits F's own.
      DenseMap<const Instruction *, Instruction *> Announcers = editableInstructions(
          F, A.demands(), [](const DelayAluDemand &D) { return D.Announcer; });
      bool Inserted = false;
      for (BasicBlock &BB : F.blocks()) {
        // The last s_delay_alu of the block with instid1 free, as LLVM
        // remembers the last one it emitted.
        Instruction *Open = nullptr;
        for (auto It = BB.instructions().begin(); It != BB.instructions().end(); ++It) {
          Instruction &I = *It;
          if (startsLlvmBlock(I))
            Open = nullptr;
          auto Found = ByConsumer.find(&I);
          if (Found == ByConsumer.end())
            continue;
          const DelayAluDemand &D = *Found->second;
          if (D.Covered || !inScope(M, Scope, I)) {
            // What LLVM would have left open after this consumer.
            Open = D.Covered && D.Announcer && !D.Second && canFoldInto(*D.Announcer)
                       ? Announcers.lookup(D.Announcer)
                       : nullptr;
            continue;
          }
          Expected<Instruction *> Next = place(M, Builder, Codec, I, D, Open);
          if (!Next)
            return Next.takeError();
          Open = *Next;
          Inserted = true;
        }
      }
      if (Inserted)
        AM.invalidate(F, PreservedAnalyses::none());
      Changed |= Inserted;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// Whether a second delay may go into \p DelayAlu: its instid1 is free
  /// and it is not the input's. An s_delay_alu read from the input stays
  /// byte for byte (what a rewriter does not touch comes out as it came
  /// in): after a pass that inserted code, the repair adds its own
  /// s_delay_alu instead of editing the input's. Those a pass put in
  /// (RemoveDelayAluPass + InsertDelayAluPass recomputes them all) fold as
  /// LLVM's do.
  static bool canFoldInto(const Instruction &DelayAlu) {
    if (DelayAlu.location().isValid())
      return false;
    if (DelayAlu.mcInsts().size() != 1 || !DelayAlu.mcInsts()[0].getNumOperands() ||
        !DelayAlu.mcInsts()[0].getOperand(0).isImm())
      return false;
    DelayAluImmediate F = DelayAluImmediate::decode(DelayAlu.mcInsts()[0].getOperand(0).getImm());
    return F.First && !F.Second;
  }

  /// Instructions strictly between \p From and \p To (same block), or
  /// FoldDistanceLimit when an s_set_vgpr_msb lies between: whether the
  /// hardware counts it for instskip is not known, so LLVM never folds
  /// across one.
  static unsigned distance(const Instruction &From, const Instruction &To,
                           const VgprMsbCodec &Codec) {
    unsigned N = 0;
    for (auto It = std::next(From.getIterator()); &*It != &To; ++It) {
      if (isSetVgprMsb(*It, Codec))
        return FoldDistanceLimit;
      ++N;
    }
    return N;
  }

  /// Writes \p D's delays for \p Consumer: into \p Open's instid1 when it is
  /// a single delay close enough, else as a new s_delay_alu right before
  /// \p Consumer. Returns the s_delay_alu left open for the next delay.
  static Expected<Instruction *> place(Module &M, InstBuilder &Builder, const VgprMsbCodec &Codec,
                                       Instruction &Consumer, const DelayAluDemand &D,
                                       Instruction *Open) {
    if (!D.Second && Open) {
      unsigned Skip = distance(*Open, Consumer, Codec);
      if (Skip < FoldDistanceLimit) {
        DelayAluImmediate Old =
            DelayAluImmediate::decode(Open->mcInsts()[0].getOperand(0).getImm());
        DelayAluFields Fields{AluDependency(Old.First), Skip, AluDependency(D.First)};
        if (Error E = Builder.rewrite(*Open, {BuildOperand::delayAlu(Fields)}))
          return std::move(E);
        attachWaitModifier(*Open, M.target());
        return nullptr;
      }
    }
    DelayAluFields Fields{AluDependency(D.First), 0, AluDependency(D.Second)};
    InstInserter At(Builder);
    At.setInsertPointBefore(Consumer);
    Expected<Instruction &> Placed = At.build("s_delay_alu", {BuildOperand::delayAlu(Fields)});
    if (!Placed)
      return Placed.takeError();
    return D.Second ? nullptr : &*Placed;
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createInsertDelayAluPass(const PassArguments &Args) {
  return createArgumentlessPass<InsertDelayAluPass>(Args);
}

} // namespace stinkytofu
