//===- SwInstructionPrefetchPasses.cpp - s_prefetch_inst_pc_rel on a grid -===//
#include "stinkytofu/transforms/SwInstructionPrefetchPass.h"

#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/InstructionPrefetch.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/MC/MCExpr.h"
#include <functional>

using namespace llvm;

namespace stinkytofu {

namespace {

/// The prefetch's length field holds lines - 1 in 5 bits: 32 lines at most.
constexpr int64_t PrefetchLengthField = 31;

/// `s_prefetch_inst_pc_rel 0x0, null, 31`: the 32 lines from its own address.
InstSpec prefetchSpec() {
  return {"s_prefetch_inst_pc_rel",
          {BuildOperand::hexImm(0), BuildOperand::special("null"),
           BuildOperand::imm(PrefetchLengthField)}};
}

/// P(k): the end of the CP's window, then one step per prefetch's reach.
struct Grid {
  uint64_t Window = 0;
  uint64_t Step = 0;
  uint64_t point(uint64_t K) const { return Window + K * Step; }
};

/// Whether \p I encodes a value that depends on where it sits relative to
/// an earlier instruction: an expression operand that is not absolute (a
/// relocation, a difference with `.` or a label), other than a branch's
/// target, which is relative to the branch itself.
bool positionDependent(const Instruction &I) {
  if (!I.facts().has(IF_ExprOperand) || I.facts().has(IF_Branch))
    return false;
  for (const MCInst &Inst : I.mcInsts())
    for (const MCOperand &Op : Inst)
      if (int64_t Value; Op.isExpr() && !Op.getExpr()->evaluateAsAbsolute(Value))
        return true;
  return false;
}

/// For every instruction inside a PC-relative window, the `s_getpc` that
/// opens it (HardwareModel.td's ProgramCounterRead role): code inserted
/// before a member would change the distance its expression encodes.
DenseMap<const Instruction *, Instruction *> pcRelativeWindows(Function &F, const TargetInfo &TI) {
  std::vector<Instruction *> Order;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if (I.kind() != InstKind::Pseudo)
        Order.push_back(&I);
  auto ReadsPc = [](const Instruction &I) {
    return I.kind() == InstKind::Machine &&
           HardwareModel::roleOf(I.mnemonic().lower()) == InstRole::ProgramCounterRead;
  };
  const MCRegisterInfo &RI = TI.regInfo();
  auto Units = [&](ArrayRef<MCRegister> Regs, BitVector &Out) {
    for (MCRegister R : Regs)
      for (MCRegUnit U : RI.regunits(R))
        Out.set(static_cast<unsigned>(U));
  };
  DenseMap<const Instruction *, Instruction *> Opener;
  for (size_t G = 0; G < Order.size(); ++G) {
    if (!ReadsPc(*Order[G]))
      continue;
    // The value read from the PC and what is computed from it.
    BitVector Derived(RI.getNumRegUnits());
    Units(Order[G]->facts().Defs, Derived);
    size_t Last = G;
    for (size_t J = G + 1; J < Order.size() && Derived.any(); ++J) {
      const Instruction &I = *Order[J];
      if (ReadsPc(I) || I.kind() != InstKind::Machine || I.facts().has(IF_Branch))
        break;
      BitVector Uses(RI.getNumRegUnits()), Defs(RI.getNumRegUnits());
      Units(I.facts().Uses, Uses);
      Units(I.facts().Defs, Defs);
      bool Dependent = positionDependent(I);
      if (Dependent)
        Last = J;
      if (Dependent || Uses.anyCommon(Derived))
        Derived |= Defs;
      else
        Derived.reset(Defs);
    }
    for (size_t J = G + 1; J <= Last; ++J)
      Opener[Order[J]] = Order[G];
  }
  return Opener;
}

/// Where code placed before \p I goes: before the window's `s_getpc` when
/// \p I is inside one.
Instruction *anchor(const DenseMap<const Instruction *, Instruction *> &Windows, Instruction &I) {
  Instruction *Opener = Windows.lookup(&I);
  return Opener ? Opener : &I;
}

/// Where one prefetch goes: before an instruction, or at the end of a block
/// (before its branch).
struct Placement {
  Instruction *Before = nullptr;
  BasicBlock *AtEnd = nullptr;
  /// `s_wait_xcnt 0` goes first (a memory instruction's group is open).
  bool DrainXcnt = false;
};

/// A function's statements in address order with the running offset from
/// its (256-byte aligned) entry; every prefetch placed so far counted.
class LayoutWalk {
public:
  LayoutWalk(Module &M, InstructionSizes &Sizes, StringRef Pass)
      : M(M), Sizes(Sizes), Pass(Pass) {}

  uint64_t offset() const { return Offset; }
  void grow(uint64_t Bytes) { Offset += Bytes; }

  Error directives(StringRef Text, const Instruction *Next, const BasicBlock &BB) {
    ByteRange B = directiveBytes(Text, Offset);
    if (B.Lo != B.Hi)
      return unknown(Next, BB, "directives of unknown size");
    Offset += B.Lo;
    return Error::success();
  }

  Expected<uint64_t> size(const Instruction &I, const BasicBlock &BB) {
    ByteRange B = Sizes.of(I);
    if (I.kind() == InstKind::Opaque || B.Lo != B.Hi)
      return unknown(&I, BB, "'" + I.mnemonic().str() + "' (its size MC does not know)");
    return B.Lo;
  }

private:
  Error unknown(const Instruction *I, const BasicBlock &BB, const Twine &What) {
    std::string Message = (Pass + ": the offsets past " + What + " are unknown").str();
    if (!I)
      return createStringError(inconvertibleErrorCode(),
                               Message + " (block '" + BB.label() + "')");
    SourceLocation L = I->location();
    return sourceError(M.fileName(), L.Line, L.Column, I->sourceText().rtrim("\r\n"), Message);
  }

  Module &M;
  InstructionSizes &Sizes;
  StringRef Pass;
  uint64_t Offset = 0;
};

/// The instruction after the directives of \p It's run, for messages.
const Instruction *nextInstruction(BasicBlock::item_iterator It, BasicBlock &BB) {
  for (; It != BB.items().end(); ++It)
    if (const auto *I = dyn_cast<Instruction>(&*It))
      return I;
  return nullptr;
}

/// Bytes of [\p Start, \p End) past the window.
uint64_t bytesPast(uint64_t Window, uint64_t Start, uint64_t End) {
  return End <= Window ? 0 : End - std::max(Start, Window);
}

/// Calls \p Visit(BB, I, Start, Size) for every instruction of \p F in
/// layout order; Visit returns the bytes it placed in front of I.
template <typename VisitT, typename EndT>
Error walkLayout(LayoutWalk &W, Function &F, VisitT Visit, EndT BlockEnd) {
  for (BasicBlock &BB : F.blocks()) {
    uint64_t BlockStart = W.offset();
    if (Error E = W.directives(BB.leadingText(), nullptr, BB))
      return E;
    for (auto It = BB.items().begin(); It != BB.items().end(); ++It) {
      if (const auto *D = dyn_cast<Directive>(&*It)) {
        if (Error E = W.directives(D->text(), nextInstruction(std::next(It), BB), BB))
          return E;
        continue;
      }
      Instruction &I = cast<Instruction>(*It);
      if (I.kind() == InstKind::Pseudo)
        continue;
      Expected<uint64_t> Size = W.size(I, BB);
      if (!Size)
        return Size.takeError();
      W.grow(Visit(BB, BlockStart, I, W.offset(), *Size));
      W.grow(*Size);
    }
    W.grow(BlockEnd(BB, BlockStart, W.offset()));
  }
  return Error::success();
}

class SwInstructionPrefetchPass final : public Pass {
public:
  explicit SwInstructionPrefetchPass(bool Dynamic) : Dynamic(Dynamic) {}
  StringRef name() const override {
    return Dynamic ? "SwInstructionPrefetchRelDynamicPass" : "SwInstructionPrefetchRelStaticPass";
  }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    InstBuilder Builder(M);
    Expected<Instruction> Probe = Builder.build(prefetchSpec());
    if (!Probe)
      return createStringError(inconvertibleErrorCode(),
                               name() + ": " + M.target().processor() +
                                   " has no s_prefetch_inst_pc_rel (LLVM MC: " +
                                   toString(Probe.takeError()) + ")");
    std::optional<uint64_t> Lines = maxInstPrefLines(M.target());
    InstructionSizes Sizes(M);
    Grid G{Lines.value_or(0) * InstCacheLineBytes,
           uint64_t(PrefetchLengthField + 1) * InstCacheLineBytes};
    uint64_t PrefetchBytes = Sizes.of(*Probe).Hi;
    // Where MC has xcnt (gfx1250) a prefetch may not issue while a memory
    // instruction's translation can still fault (Gfx1250HazardPass).
    CounterModel Counters(M.target());
    CounterFacts = &Counters;
    DrainBytes = 0;
    if (Counters.counterNamed("xcnt")) {
      Expected<Instruction> Drain = Builder.build(drainSpec());
      if (!Drain)
        return Drain.takeError();
      DrainBytes = Sizes.of(*Drain).Hi;
    }
    bool Changed = false;
    // A grid point whose place is outside the pass scope gets no prefetch.
    Keep = [&](const Placement &P) {
      const Instruction *At = P.Before ? P.Before : lastInstruction(*P.AtEnd);
      return !At || inScope(M, Scope, *At);
    };
    for (Function &F : M.functions()) {
      if (!F.isEntry())
        continue;
      PrevOf.clear();
      const Instruction *Last = nullptr;
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions())
          if (I.kind() != InstKind::Pseudo)
            PrevOf[&I] = std::exchange(Last, &I);
      Expected<std::vector<Placement>> Places =
          Dynamic ? placeOnPaths(M, F, Sizes, G, PrefetchBytes)
                  : placeInLayout(M, F, Sizes, G, PrefetchBytes);
      if (!Places)
        return Places.takeError();
      if (Places->empty())
        continue;
      if (Error E = insert(Builder, *Places))
        return std::move(E);
      if (Expected<unsigned> N = relaxBranches(F, Builder); !N)
        return N.takeError();
      Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// One prefetch for each grid point, before the first instruction whose
  /// encoding reaches it.
  Expected<std::vector<Placement>> placeInLayout(Module &M, Function &F, InstructionSizes &Sizes,
                                                 const Grid &G, uint64_t PrefetchBytes) {
    DenseMap<const Instruction *, Instruction *> Windows = pcRelativeWindows(F, M.target());
    std::vector<Placement> Places;
    uint64_t K = 0;
    LayoutWalk W(M, Sizes, name());
    auto Visit = [&](BasicBlock &, uint64_t, Instruction &I, uint64_t Start, uint64_t Size) {
      uint64_t Placed = 0;
      for (; G.point(K) <= Start + Placed + Size; ++K)
        Placed += place({anchor(Windows, I), nullptr}, Places, PrefetchBytes);
      return Placed;
    };
    auto End = [](BasicBlock &, uint64_t, uint64_t) { return uint64_t(0); };
    if (Error E = walkLayout(W, F, Visit, End))
      return std::move(E);
    return Places;
  }

  /// The reference's dynamic placement: layout first, then each block's
  /// instructions on the longest forward path's byte count past the window.
  Expected<std::vector<Placement>> placeOnPaths(Module &M, Function &F, InstructionSizes &Sizes,
                                                const Grid &G, uint64_t PrefetchBytes) {
    buildCFG(F);
    // Phase 1: bytes past the window per block, as the code stands.
    DenseMap<const BasicBlock *, uint64_t> Past;
    {
      LayoutWalk W(M, Sizes, name());
      auto Visit = [&](BasicBlock &BB, uint64_t, Instruction &, uint64_t Start, uint64_t Size) {
        Past[&BB] += bytesPast(G.Window, Start, Start + Size);
        return uint64_t(0);
      };
      auto End = [](BasicBlock &, uint64_t, uint64_t) { return uint64_t(0); };
      if (Error E = walkLayout(W, F, Visit, End))
        return std::move(E);
    }
    DenseMap<const BasicBlock *, uint64_t> Entry = entryDistances(F, Past);

    // Phase 2: place, the layout growing with every prefetch.
    DenseMap<const Instruction *, Instruction *> Windows = pcRelativeWindows(F, M.target());
    std::vector<Placement> Places;
    const BasicBlock *Current = nullptr;
    uint64_t K = 0, Cumulative = 0;
    auto Enter = [&](const BasicBlock &BB) {
      if (Current == &BB)
        return;
      Current = &BB;
      K = 0;
      Cumulative = 0;
    };
    auto Visit = [&](BasicBlock &BB, uint64_t BlockStart, Instruction &I, uint64_t Start,
                     uint64_t Size) {
      Enter(BB);
      uint64_t End = Start + Size, OnPath = G.Window + Entry.lookup(&BB) + Cumulative;
      uint64_t PastHere = bytesPast(G.Window, Start, End);
      // Until the block has code past the window, the layout is the path.
      uint64_t Lo = Cumulative ? OnPath : Start, Hi = Cumulative ? OnPath + PastHere : End;
      uint64_t Placed = 0;
      for (;; ++K) {
        uint64_t P = G.point(K);
        if (P <= BlockStart || P <= Lo)
          continue;
        if (P > Hi)
          break;
        if (End >= G.Window)
          Placed += place({anchor(Windows, I), nullptr}, Places, PrefetchBytes);
      }
      Cumulative += PastHere;
      return Placed;
    };
    auto BlockEnd = [&](BasicBlock &BB, uint64_t BlockStart, uint64_t End) {
      Enter(BB);
      uint64_t PathEnd = G.Window + Entry.lookup(&BB) + Cumulative;
      if (Entry.lookup(&BB) + Cumulative == 0)
        return uint64_t(0);
      for (;; ++K) {
        uint64_t P = G.point(K);
        if (P < BlockStart || P <= PathEnd)
          continue;
        if (P > End)
          return uint64_t(0);
        return place(endOf(BB, Windows), Places, PrefetchBytes);
      }
    };
    LayoutWalk W(M, Sizes, name());
    if (Error E = walkLayout(W, F, Visit, BlockEnd))
      return std::move(E);
    return Places;
  }

  /// The longest forward path to each block in bytes past the window: the
  /// maximum over predecessors earlier in reverse post-order (retreating
  /// edges, back edges among them, ignored) of their entry plus their own.
  static DenseMap<const BasicBlock *, uint64_t>
  entryDistances(Function &F, const DenseMap<const BasicBlock *, uint64_t> &Past) {
    std::vector<BasicBlock *> PostOrder;
    SmallPtrSet<const BasicBlock *, 32> Seen;
    std::vector<std::pair<BasicBlock *, size_t>> Stack;
    if (!F.blocks().empty()) {
      Stack.push_back({&*F.blocks().begin(), 0});
      Seen.insert(Stack.back().first);
    }
    while (!Stack.empty()) {
      auto &[BB, Next] = Stack.back();
      if (Next < BB->successors().size()) {
        BasicBlock *S = BB->successors()[Next++];
        if (Seen.insert(S).second)
          Stack.push_back({S, 0});
        continue;
      }
      PostOrder.push_back(BB);
      Stack.pop_back();
    }
    DenseMap<const BasicBlock *, size_t> Rank;
    for (size_t R = 0; R < PostOrder.size(); ++R)
      Rank[PostOrder[PostOrder.size() - 1 - R]] = R;
    DenseMap<const BasicBlock *, uint64_t> Entry;
    for (auto It = PostOrder.rbegin(); It != PostOrder.rend(); ++It) {
      uint64_t Longest = 0;
      for (const BasicBlock *Pred : (*It)->predecessors())
        if (auto R = Rank.find(Pred); R != Rank.end() && R->second < Rank[*It])
          Longest = std::max(Longest, Entry.lookup(Pred) + Past.lookup(Pred));
      Entry[*It] = Longest;
    }
    return Entry;
  }

  /// Adds \p P to \p Places unless the scope excludes it, with a drain
  /// when it follows a memory instruction; the bytes placed.
  uint64_t place(Placement P, std::vector<Placement> &Places, uint64_t PrefetchBytes) {
    if (!Keep(P))
      return 0;
    bool Stacked = !Places.empty() && Places.back().Before == P.Before &&
                   Places.back().AtEnd == P.AtEnd;
    const Instruction *Prev = P.Before ? PrevOf.lookup(P.Before) : lastInstruction(*P.AtEnd);
    P.DrainXcnt = DrainBytes && !Stacked && Prev && opensMemoryGroup(*Prev);
    Places.push_back(P);
    return PrefetchBytes + (P.DrainXcnt ? DrainBytes : 0);
  }

  /// Whether \p I leaves a translation that may fault in flight: a scalar
  /// or vector memory access (a tensor transfer keeps no replay state; the
  /// hardware drains xcnt at every other instruction).
  bool opensMemoryGroup(const Instruction &I) const {
    if (I.kind() != InstKind::Machine)
      return true;
    MemoryAccess A = CounterFacts->classify(I.mcInsts().front(), I.mnemonic());
    return !A.has(WaitEvent::TensorLds) &&
           (A.has(WaitEvent::SmemTranslation) || A.has(WaitEvent::Translation));
  }

  static InstSpec drainSpec() { return {"s_wait_xcnt", {BuildOperand::imm(0)}}; }

  static Instruction *lastInstruction(BasicBlock &BB) {
    Instruction *Last = nullptr;
    for (Instruction &I : BB.instructions())
      if (I.kind() != InstKind::Pseudo)
        Last = &I;
    return Last;
  }

  /// The end of \p BB: before its branch (or program end) when it ends in
  /// one, so the prefetch runs on the way out.
  static Placement endOf(BasicBlock &BB,
                         const DenseMap<const Instruction *, Instruction *> &Windows) {
    Instruction *Last = lastInstruction(BB);
    if (Last && (Last->facts().has(IF_Branch) || Last->facts().has(IF_Return) ||
                 Last->facts().has(IF_Terminator)))
      return {anchor(Windows, *Last), nullptr};
    return {nullptr, &BB};
  }

  static Error insert(InstBuilder &Builder, ArrayRef<Placement> Places) {
    for (const Placement &P : Places) {
      InstInserter At(Builder);
      if (P.Before)
        At.setInsertPointBefore(*P.Before);
      else
        At.setInsertPointAtEnd(*P.AtEnd);
      if (P.DrainXcnt)
        if (Expected<Instruction &> I = At.build(drainSpec()); !I)
          return I.takeError();
      if (Expected<Instruction &> I = At.build(prefetchSpec()); !I)
        return I.takeError();
    }
    return Error::success();
  }

  bool Dynamic;
  std::function<bool(const Placement &)> Keep;
  const CounterModel *CounterFacts = nullptr;
  uint64_t DrainBytes = 0;
  /// The instruction before each one in layout order, in the function.
  DenseMap<const Instruction *, const Instruction *> PrevOf;
};

} // namespace

Expected<std::unique_ptr<Pass>>
createSwInstructionPrefetchRelStaticPass(const PassArguments &Args) {
  return createArgumentlessPass<SwInstructionPrefetchPass>(Args, false);
}

Expected<std::unique_ptr<Pass>>
createSwInstructionPrefetchRelDynamicPass(const PassArguments &Args) {
  return createArgumentlessPass<SwInstructionPrefetchPass>(Args, true);
}

} // namespace stinkytofu
