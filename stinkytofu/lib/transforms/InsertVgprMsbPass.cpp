//===- InsertVgprMsbPass.cpp - logical VGPRs -> s_set_vgpr_msb + low ones -===//
#include "VgprMsbSupport.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// What the code has set, slot by slot: a slot of Known holds the bank in
/// Value, any other is not known (different on different paths, or left
/// by code we cannot see). Unreached: no path has come here yet.
struct MsbState {
  bool Reached = false;
  uint8_t Known = 0; ///< 0b11 at each known slot
  uint8_t Value = 0; ///< banks of the known slots, 0 elsewhere
  bool operator==(const MsbState &) const = default;
  static MsbState zero() { return {true, 0xFF, 0}; }
  static MsbState unknown() { return {true, 0, 0}; }
  bool fullyKnown() const { return Reached && Known == 0xFF; }
};

using RaisedList = SmallVector<RaisedVgprMsbData::Switch, 1>;

/// The s_set_vgpr_msb that go in front of an instruction, or after it.
struct Switch {
  enum Kind : uint8_t { None, Restored, New } K = None;
  int64_t Immediate = 0; ///< of a new one
  const RaisedList *Raised = nullptr;
  const RaisedList *RaisedAfter = nullptr;
};

/// The decisions of the pass, instruction by instruction, from the state
/// before it: the same for the dataflow and for the rewrite that follows.
class Planner {
public:
  Planner(Module &M, VgprMsbCodec &Codec, VgprMsbMode Mode) : M(M), Codec(Codec), Mode(Mode) {}

  /// What each instruction of \p F needs, and which raised switches still
  /// serve their instruction.
  Error prepare(Function &F) {
    bool Kernel = KernelDescriptor::find(M, F.name()).has_value();
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions()) {
        VgprMsbNeed N;
        if (isCall(I) || (!Kernel && isReturn(I) && !isProgramEnd(I))) {
          // LLVM's ABI: the state is 0 at a call and when a function returns.
          N = {0xFF, 0};
        } else if (I.kind() != InstKind::Opaque) {
          for (const MCInst &Inst : I.mcInsts()) {
            Expected<VgprMsbNeed> Part = Codec.need(Inst);
            if (!Part)
              return errorAt(M, I, toString(Part.takeError()));
            if ((N.Mask & Part->Mask & (N.Value ^ Part->Value)) != 0)
              return errorAt(M, I, "the instructions of this macro invocation need "
                                   "different VGPR MSB states");
            N.Mask |= Part->Mask;
            N.Value |= Part->Value;
          }
        }
        if (N.any())
          Needs[&I] = N;
        const RaisedVgprMsbData *Raised = I.getModifier<RaisedVgprMsbData>();
        if (!Raised)
          continue;
        auto Fits = [&](ArrayRef<RaisedVgprMsbData::Switch> List) {
          return !List.empty() && all_of(List, [&](const RaisedVgprMsbData::Switch &R) {
            return Mode == VgprMsbMode::Msb16 || R.Immediate == (R.Immediate & 0xFF);
          });
        };
        // Those in front must serve the instruction (a call or a return
        // needs 0: LLVM's ABI); after it, any state may follow.
        if (Fits(Raised->Before) &&
            (!N.any() ||
             N.satisfiedBy(vgprmsb::stateOfImmediate(Raised->Before.back().Immediate), 0xFF)))
          Before[&I] = &Raised->Before;
        if (Fits(Raised->After))
          After[&I] = &Raised->After;
      }
    return Error::success();
  }

  Switch step(const Instruction &I, MsbState &S) const {
    if (!S.Reached)
      S = MsbState::unknown();
    int64_t Imm;
    if (isSetVgprMsb(I, Codec, &Imm)) {
      S = {true, 0xFF, vgprmsb::stateOfImmediate(Imm)};
      return {};
    }
    if (I.kind() == InstKind::Opaque) {
      S = MsbState::unknown();
      return {};
    }
    Switch W;
    auto SetBy = [](const RaisedList &R) {
      return MsbState{true, 0xFF, vgprmsb::stateOfImmediate(R.back().Immediate)};
    };
    if (const RaisedList *Raised = Before.lookup(&I); Raised && !isStale(*Raised, S)) {
      S = SetBy(*Raised);
      W.K = Switch::Restored;
      W.Raised = Raised;
    } else if (auto N = Needs.find(&I);
               N != Needs.end() && !N->second.satisfiedBy(S.Value, S.Known)) {
      std::optional<uint8_t> Previous;
      if (S.fullyKnown())
        Previous = S.Value;
      // Slots the instruction does not use keep their bank; one not known
      // is written as 0 but stays unknown here, which keeps the dataflow
      // monotone.
      uint8_t Value = uint8_t((S.Value & ~N->second.Mask) | N->second.Value);
      W.K = Switch::New;
      W.Immediate = vgprmsb::immediateFor(Mode, Value, Previous);
      S.Known |= N->second.Mask;
      S.Value = uint8_t(Value & S.Known);
    }
    if (isCall(I))
      S = MsbState::zero(); // the callee returns with the state at 0
    if (const RaisedList *Raised = After.lookup(&I); Raised && !isStale(*Raised, S)) {
      S = SetBy(*Raised);
      W.RaisedAfter = Raised;
    }
    return W;
  }

private:
  /// Raised switches that changed the state where they were and would set
  /// the state already there where they are now (a transform moved the
  /// code around them): LLVM would not write them, nor do we. One that
  /// changed nothing in the input either stays, as written.
  static bool isStale(const RaisedList &Raised, const MsbState &S) {
    std::optional<uint8_t> Was = Raised.front().StateBefore;
    return S.fullyKnown() && Was && *Was != S.Value &&
           vgprmsb::stateOfImmediate(Raised.back().Immediate) == S.Value;
  }

  Module &M;
  VgprMsbCodec &Codec;
  VgprMsbMode Mode;
  DenseMap<const Instruction *, VgprMsbNeed> Needs;
  DenseMap<const Instruction *, const RaisedList *> Before, After;
};

class MsbStates : public DataflowAnalysis<MsbStates, MsbState, DataflowDirection::Forward> {
public:
  MsbStates(const Function &F, const Planner &P, MsbState Entry)
      : DataflowAnalysis(F), P(P), Entry(Entry) {}
  MsbState initialState() const { return {}; }
  MsbState entryState() const { return Entry; }
  void join(MsbState &Into, const MsbState &From) const {
    if (!From.Reached || Into == From)
      return;
    if (!Into.Reached) {
      Into = From;
      return;
    }
    uint8_t Differ = Into.Value ^ From.Value;
    uint8_t Agree = 0;
    for (unsigned S = 0; S < vgprmsb::NumSlots; ++S)
      if (!vgprmsb::bankOf(Differ, S))
        Agree |= uint8_t(3u << (2 * S));
    Into.Known &= From.Known & Agree;
    Into.Value &= Into.Known;
  }
  /// A block no path has reached yet stays so: the walk may visit it
  /// before its predecessors (a loop header laid out first), and treating
  /// it as unknown would leave the whole loop unknown.
  void transfer(const Instruction &I, MsbState &S) const {
    if (S.Reached)
      P.step(I, S);
  }

private:
  const Planner &P;
  MsbState Entry;
};

class InsertVgprMsbPass final : public Pass {
public:
  explicit InsertVgprMsbPass(VgprMsbOptions Opts) : Opts(Opts) {}
  StringRef name() const override { return "InsertVgprMsbPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    VgprMsbMode Mode = Opts.modeFor(M.target());
    if (Mode == VgprMsbMode::None)
      return PreservedAnalyses::all();
    VgprMsbCodec Codec(M.target());
    InstBuilder Builder(M);
    unsigned Raised = 0, New = 0, Lowered = 0;
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG())
        buildCFG(F);
      Planner P(M, Codec, Mode);
      if (Error E = P.prepare(F))
        return std::move(E);
      // A function starts at 0: a kernel's waves do, and LLVM's ABI has a
      // caller reset the state before a call.
      MsbStates States(F, P, MsbState::zero());
      if (Error E = States.run())
        return std::move(E);
      for (BasicBlock &BB : F.blocks()) {
        MsbState S = States.stateIn(BB);
        std::vector<Instruction *> Insts;
        for (Instruction &I : BB.instructions())
          Insts.push_back(&I);
        for (Instruction *I : Insts) {
          Switch W = P.step(*I, S);
          if (W.K == Switch::New) {
            // Spelled as LLVM's printer does: an inline constant in
            // decimal, anything larger in hex.
            BuildOperand Imm = W.Immediate <= 64
                                   ? BuildOperand::imm(W.Immediate)
                                   : BuildOperand::hexImm(W.Immediate, /*LowerCase=*/true);
            Expected<Instruction> Set = Builder.build("s_set_vgpr_msb", {Imm});
            if (!Set)
              return Set.takeError();
            Set->setTrailingComment(
                "; " + vgprmsb::describeState(vgprmsb::stateOfImmediate(W.Immediate)));
            BB.insert(I->getIterator(), std::move(*Set));
            ++New;
          }
          if (W.Raised) {
            if (Error E = restore(Builder, BB, *I, *W.Raised, /*After=*/false))
              return std::move(E);
            Raised += W.Raised->size();
          }
          if (W.RaisedAfter) {
            if (Error E = restore(Builder, BB, *I, *W.RaisedAfter, /*After=*/true))
              return std::move(E);
            Raised += W.RaisedAfter->size();
          }
          StringRef Written = writtenText(*I);
          // Written back or not needed: either way they are done with.
          I->removeModifier(ModifierKind::RaisedVgprMsbData);
          if (I->kind() == InstKind::Machine && I->mcInsts().size() == 1 &&
              Codec.hasHighVgpr(I->mcInsts().front())) {
            if (!Written.empty()) {
              MCInst Inst = I->mcInsts().front();
              I->setLazyStatement(Written, &M.assembler());
              I->setMC({std::move(Inst)}, M.target());
              ++Lowered;
              continue;
            }
            respellVgprs(M, *I, I->mcInsts().front(), /*WithNote=*/false,
                         [](const VgprToken &T) -> std::optional<std::string> {
              if (T.First < vgprmsb::VgprsPerBank)
                return std::nullopt;
              return encodedVgprSpelling(T.First, T.Count, T.Bracketed);
            });
            ++Lowered;
          }
        }
      }
    }
    if (Opts.Stats)
      context().statsStream() << "InsertVgprMsbPass: " << Raised
                              << " s_set_vgpr_msb restored, " << New << " inserted, "
                              << Lowered << " instructions respelled\n";
    return Raised || New || Lowered ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// The statement RaiseVgprMsbPass respelled, as the input wrote it, when
  /// nothing has changed it since.
  static StringRef writtenText(const Instruction &I) {
    const RaisedVgprMsbData *Raised = I.getModifier<RaisedVgprMsbData>();
    if (!Raised || Raised->WrittenText.empty() || I.isModified() ||
        I.sourceText() != Raised->RaisedText)
      return {};
    return Raised->WrittenText;
  }

  /// Puts the statements RaiseVgprMsbPass took out back, as they were, in
  /// front of \p I (their comments with them) or after it.
  static Error restore(InstBuilder &Builder, BasicBlock &BB, Instruction &I,
                       const RaisedList &Raised, bool After) {
    BasicBlock::item_iterator Pos = I.getIterator().itemIterator();
    if (After)
      ++Pos;
    for (const RaisedVgprMsbData::Switch &R : Raised) {
      Expected<Instruction> Set =
          Builder.build("s_set_vgpr_msb", {BuildOperand::imm(R.Immediate)});
      if (!Set)
        return Set.takeError();
      Set->setSourceText(R.Text);
      // Erasing gave its comments to the item after it.
      if (Pos != BB.items().end() && !R.Leading.empty()) {
        BlockItem &Next = *Pos;
        StringRef Leading = Next.leadingText();
        if (Leading.starts_with(R.Leading)) {
          Set->setLeadingText(R.Leading);
          Next.setLeadingText(Leading.drop_front(R.Leading.size()));
        }
      }
      BB.insert(Pos, std::move(*Set));
    }
    return Error::success();
  }

  VgprMsbOptions Opts;
};

} // namespace

Expected<std::unique_ptr<Pass>> createInsertVgprMsbPass(const PassArguments &Args) {
  return createVgprMsbPass<InsertVgprMsbPass>(Args, "InsertVgprMsbPass");
}

} // namespace stinkytofu
