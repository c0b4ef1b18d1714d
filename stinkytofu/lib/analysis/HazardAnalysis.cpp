//===- HazardAnalysis.cpp - Wait states a function lacks ------------------===//
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

using namespace llvm;

namespace stinkytofu {

AnalysisKey CachedHazardAnalysis::Key;
AnalysisKey HazardTraitsCacheAnalysis::Key;

Expected<HazardAnalysis> CachedHazardAnalysis::run(Function &F, AnalysisManager &AM) {
  if (Error E = requireValidCFG(F, "the hazard analysis"))
    return std::move(E);
  return HazardAnalysis(F, HazardModel::of(F.parent()->target()),
                        &AM.getLastingResult<HazardTraitsCacheAnalysis>(*F.parent()));
}

HazardAnalysis::HazardAnalysis(const Function &F, const HazardModel &Model,
                               HazardTraitsCache *Shared, bool RecordStamps)
    : Model(&Model), OwnTraits(Shared ? nullptr : std::make_unique<HazardTraitsCache>()),
      Traits(&(Shared ? Shared : OwnTraits.get())->tableOf(Model)), RecordStamps(RecordStamps),
      Overlaps(Model) {
  // Sized once: growing the maps rehashes every entry.
  size_t Instructions = 0, NumBlocks = 0;
  for (const BasicBlock &BB : F.blocks()) {
    Instructions += BB.instructions().size();
    ++NumBlocks;
  }
  Positions.reserve(Instructions);
  if (RecordStamps)
    Traits->reserve(Instructions);
  Blocks.reserve(NumBlocks);
  LayoutIndex.reserve(NumBlocks);
  Layout.reserve(NumBlocks);
  for (const BasicBlock &BB : F.blocks()) {
    LayoutIndex[&BB] = Layout.size();
    Layout.push_back(&BB);
    read(BB);
  }
  LookAhead = ReadAgprs ? 19 : 5;
}

/// Whether \p T writes or reads an AGPR.
static bool writesOrReadsAgprs(const HazardTraits &T, const TargetInfo &TI) {
  auto IsAgpr = [&](MCRegister R) { return TI.classOf(R) == RegClass::AGPR; };
  return any_of(T.Defs, IsAgpr) || any_of(T.Uses, IsAgpr);
}

void HazardAnalysis::read(const BasicBlock &BB) {
  ++Generation;
  BlockEntries &Read = Blocks[&BB];
  std::vector<Entry> &Entries = Read.Entries;
  Entries.clear();
  Read.Briefs.clear();
  // Growing would copy every entry (a SmallVector's move may throw, so
  // std::vector copies): 13 M instructions on a kernel with a thousand
  // calls.
  const size_t Size = BB.instructions().size();
  Entries.reserve(Size);
  Read.Briefs.reserve(Size);
  for (const Instruction &I : BB.instructions()) {
    Positions[&I] = {&BB, unsigned(Entries.size())};
    // Made in place: an entry is about 150 bytes.
    Entry &E = Entries.emplace_back();
    E.Inst = &I;
    ArrayRef<MCInst> Insts = I.mcInsts();
    for (const MCInst &Inst : Insts) {
      if (Insts.size() == 1) {
        const HazardTraitsCache::Known &K = Traits->traitsOf(Inst, I, RecordStamps);
        E.Traits.push_back(&K.Traits);
        ReadAgprs |= K.UsesAgprs;
      } else {
        SeveralTraits.push_back(Model->traits(Inst, I.mnemonic()));
        E.Traits.push_back(&SeveralTraits.back());
        ReadAgprs |= writesOrReadsAgprs(SeveralTraits.back(), Model->target());
      }
      E.WaitStates += E.Traits.back()->WaitStates;
      Present |= E.Traits.back()->Classes;
      E.Valus += E.Traits.back()->ValuSlots;
    }
    // A statement MC does not know still takes an issue slot.
    if (E.Traits.empty() && I.facts().has(IF_Opaque))
      E.WaitStates = 1;
    Brief &B = Read.Briefs.emplace_back();
    for (const HazardTraits *T : E.Traits)
      B.Classes |= T->Classes;
    B.WaitStates = E.WaitStates;
    B.Valus = E.Valus;
  }
}

HazardTraitsCache::Table &HazardTraitsCache::tableOf(const HazardModel &Model) {
  std::unique_ptr<Table> &T = Tables[&Model];
  if (!T)
    T.reset(new Table(Model));
  return *T;
}

const HazardTraitsCache::Known &
HazardTraitsCache::Table::traitsOf(const MCInst &Inst, const Instruction &I, bool Record) {
  // The stamp names everything the traits are computed from.
  if (auto Seen = ByStamp.find(I.stamp()); Seen != ByStamp.end())
    return *Seen->second;
  // Everything HazardModel::traits reads: the opcode, each operand's kind
  // and its register or immediate (an expression only as such: the traits
  // and MC's scheduling predicates test whether an operand is a register
  // or an immediate, never what an expression says, so the branches to
  // different labels share one), the mnemonic, and the instruction's
  // registers written and read.
  const InstrFacts &Facts = I.facts();
  SmallString<256> Key;
  auto Put = [&](uint64_t V) {
    Key.append(reinterpret_cast<const char *>(&V), reinterpret_cast<const char *>(&V + 1));
  };
  Put(uint64_t(Inst.getOpcode()) << 32 | Inst.getNumOperands());
  for (const MCOperand &Op : Inst) {
    if (Op.isReg()) {
      Put(1);
      Put(Op.getReg().id());
    } else if (Op.isImm()) {
      Put(2);
      Put(uint64_t(Op.getImm()));
    } else if (Op.isSFPImm()) {
      Put(3);
      Put(Op.getSFPImm());
    } else if (Op.isDFPImm()) {
      Put(4);
      Put(Op.getDFPImm());
    } else {
      Put(Op.isExpr() ? 5 : Op.isInst() ? 6 : 0);
    }
  }
  Put(uint64_t(Facts.Defs.size()) << 32 | Facts.Uses.size());
  for (MCRegister R : Facts.Defs)
    Put(R.id());
  for (MCRegister R : Facts.Uses)
    Put(R.id());
  Key += I.mnemonic();
  auto [It, New] = ByKey.try_emplace(Key, nullptr);
  if (New) {
    // Made in place: the traits are moved once, as they were before.
    Known &K = Distinct.emplace_back(Model.traits(Inst, I.mnemonic(), Facts), false);
    K.UsesAgprs = writesOrReadsAgprs(K.Traits, Model.target());
    It->second = &K;
  }
  if (Record)
    ByStamp[I.stamp()] = It->second;
  return *It->second;
}

void HazardAnalysis::refresh(const BasicBlock &BB) { read(BB); }

namespace {

/// Where passUnexamined stopped.
enum class Stop { Examined, Limit, BlockStart };

/// Walks back from the entry before \p Index over the briefs whose classes
/// miss \p Examined, adding their wait states or VALUs (\p Count) to
/// \p Counted: stops at an examined entry (its index in \p Index, not
/// counted), once \p Counted reaches \p Limit, or at the block's start. A
/// loop of its own: inside searchRule it kept its values on the stack (half
/// of the searches' own instructions).
template <auto Count, typename BriefT>
Stop passUnexamined(const std::vector<BriefT> &Briefs, unsigned &Index, HazardClassSet Examined,
                    unsigned Limit, unsigned &Counted) {
  unsigned Sum = Counted;
  for (unsigned At = Index; At-- > 0;) {
    if (Briefs[At].Classes & Examined) {
      Index = At;
      Counted = Sum;
      return Stop::Examined;
    }
    Sum += Briefs[At].*Count;
    if (Sum >= Limit) {
      Counted = Sum;
      return Stop::Limit;
    }
  }
  Counted = Sum;
  return Stop::BlockStart;
}

} // namespace

HazardShortfall HazardAnalysis::searchRule(const HazardRule &Rule, const HazardTraits &Consumer,
                                           MCRegister Reg, Position From) const {
  HazardShortfall Worst;
  const unsigned Limit = Rule.maxWaitStates();
  const bool NearestOnly = Rule.seesNearestMatrixWriterOnly();
  // (block, entries still to look at from its end, states counted so far);
  // a block is walked again only when reached with fewer states counted.
  struct Item {
    const BasicBlock *Block;
    unsigned End;
    unsigned Counted;
  };
  SmallVector<Item, 8> Work{{From.Block, From.Index, 0}};
  // Most searches end in their block or reach a few before it: on the
  // stack, not a heap table per search.
  SmallDenseMap<const BasicBlock *, unsigned, 8> BestAtEnd;
  // The entries that can be a producer or hide one; the walk reads only
  // the briefs of the others.
  const HazardClassSet Examined =
      Rule.Producer | (NearestOnly ? classBit(HazardClass::MFMA) : HazardClassSet(0));
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    const BlockEntries &Block = Blocks.find(It.Block)->second;
    unsigned Counted = It.Counted;
    bool Stopped = false;
    for (unsigned Index = It.End; !Stopped;) {
      Stop Passed =
          Rule.CountsValus
              ? passUnexamined<&Brief::Valus>(Block.Briefs, Index, Examined, Limit, Counted)
              : passUnexamined<&Brief::WaitStates>(Block.Briefs, Index, Examined, Limit, Counted);
      if (Passed == Stop::BlockStart)
        break;
      if (Passed == Stop::Limit) {
        Stopped = true;
        break;
      }
      const Entry &E = Block.Entries[Index];
      // Within one instruction, its last MC instruction is the nearest.
      for (const HazardTraits *PT : reverse(E.Traits)) {
        const HazardTraits &P = *PT;
        if (P.isAny(Rule.Producer) && Model->relates(Rule, P, Consumer, Reg, Overlaps)) {
          unsigned Needed = Rule.waitStatesAfter(P.Passes);
          if (Needed > Counted && Needed - Counted > Worst.Missing)
            Worst = {&Rule, E.Inst, Reg, Needed - Counted};
          Stopped = true;
          break;
        }
        if (NearestOnly && Model->shadows(Rule, P, Reg, Overlaps)) {
          Stopped = true;
          break;
        }
      }
      if (Stopped)
        break;
      const Brief &B = Block.Briefs[Index];
      Counted += Rule.CountsValus ? B.Valus : B.WaitStates;
      if (Counted >= Limit)
        Stopped = true;
    }
    if (Stopped)
      continue;
    for (const BasicBlock *Pred : It.Block->predecessors()) {
      auto [Best, New] = BestAtEnd.try_emplace(Pred, Counted);
      if (!New) {
        if (Best->second <= Counted)
          continue;
        Best->second = Counted;
      }
      Work.push_back({Pred, unsigned(Blocks.find(Pred)->second.Entries.size()), Counted});
    }
  }
  return Worst;
}

unsigned HazardAnalysis::softClauseNeed(const Entry &Consumer, Position From) const {
  const HazardTraits &C = *Consumer.Traits.front();
  const bool Smem = C.is(HazardClass::SMEM);
  if (Smem ? !Model->smemSoftClauses()
           : !(C.is(HazardClass::VMEM) && Model->vmemSoftClauses()))
    return 0;
  // The members: the memory instructions of the same kind issued right
  // before, in layout order, within the look-ahead.
  SmallVector<MCRegister, 16> Defs, Uses;
  unsigned Slots = 0;
  auto BlockIt = Layout.begin() + LayoutIndex.lookup(From.Block);
  unsigned Index = From.Index;
  bool Done = false;
  while (!Done) {
    const std::vector<Entry> &Entries = Blocks.find(*BlockIt)->second.Entries;
    while (Index-- > 0) {
      const Entry &E = Entries[Index];
      if (E.Traits.empty() && !E.WaitStates)
        continue; // nothing MC issues
      bool Member = all_of(E.Traits, [&](const HazardTraits *T) {
        return Smem ? T->is(HazardClass::SMEM) : T->is(HazardClass::VMEM);
      });
      if (!Member || E.Traits.empty() || (Slots += E.WaitStates) > LookAhead) {
        Done = true;
        break;
      }
      for (const HazardTraits *T : E.Traits) {
        Defs.append(T->Defs.begin(), T->Defs.end());
        Uses.append(T->Uses.begin(), T->Uses.end());
      }
    }
    if (Done || BlockIt == Layout.begin())
      break;
    --BlockIt;
    Index = unsigned(Blocks.find(*BlockIt)->second.Entries.size());
  }
  if (Defs.empty())
    return 0;
  // Loads and stores of one address must not share a clause: a store
  // always starts a new one.
  if (Consumer.Inst->facts().has(IF_MayStore))
    return 1;
  Defs.append(C.Defs.begin(), C.Defs.end());
  Uses.append(C.Uses.begin(), C.Uses.end());
  for (MCRegister D : Defs)
    for (MCRegister U : Uses)
      if (Overlaps(D, U))
        return 1;
  return 0;
}

const HazardNeeds &HazardAnalysis::needs(const Instruction &I) const {
  static const HazardNeeds None;
  auto It = Positions.find(&I);
  if (It == Positions.end())
    return None;
  const BlockEntries &Block = Blocks.find(It->second.Block)->second;
  const Entry &E = Block.Entries[It->second.Index];
  // An answer stays right until the next read: it is computed from the
  // entries, and only read() changes them. One whose searches stay in the
  // block stays right until that block is read (its entries are made anew).
  if (E.NeedsGeneration != Generation) {
    if (E.NeedsGeneration == ~0u || !searchesStayInBlock(E, Block, It->second.Index))
      E.Needs = computeNeeds(E, It->second);
    E.NeedsGeneration = Generation;
  }
  return E.Needs;
}

bool HazardAnalysis::searchesStayInBlock(const Entry &E, const BlockEntries &Block,
                                         unsigned Index) const {
  if (E.Traits.empty())
    return true; // computeNeeds reads nothing
  const HazardTraits &Consumer = *E.Traits.front();
  const HazardTraitsCache::ConsumerRules &Rules = rulesOf(E);
  // A rule's search counts the entries before the consumer from the
  // nearest and stops once it has counted the rule's limit: it reaches
  // another block only when the entries before it in its block count less.
  // Every rule of the consumer counts, the ones computeNeeds skipped too
  // (an insertion elsewhere may have made their producers present). A soft
  // clause ends at the first entry that is not a member, or once the
  // members' wait states pass the look-ahead.
  bool MemoryConsumer = Consumer.is(HazardClass::SMEM) || Consumer.is(HazardClass::VMEM);
  if (Rules.empty() && !MemoryConsumer)
    return true;
  unsigned NeedStates = MemoryConsumer ? LookAhead + 1 : 0, NeedValus = 0;
  for (const HazardTraitsCache::ConsumerRule &CR : Rules) {
    unsigned &Need = CR.Rule->CountsValus ? NeedValus : NeedStates;
    Need = std::max(Need, CR.Rule->maxWaitStates());
  }
  unsigned States = 0, Valus = 0;
  for (unsigned I = Index; I-- > 0;) {
    States += Block.Briefs[I].WaitStates;
    Valus += Block.Briefs[I].Valus;
    if (States >= NeedStates && Valus >= NeedValus)
      return true;
  }
  return false;
}

HazardNeeds HazardAnalysis::computeNeeds(const Entry &E, Position At) const {
  HazardNeeds Needs;
  if (E.Traits.empty())
    return Needs;
  const HazardTraits &Consumer = *E.Traits.front();
  for (const HazardTraitsCache::ConsumerRule &CR : rulesOf(E)) {
    const HazardRule &Rule = *CR.Rule;
    // A rule whose producers the function does not have needs no search.
    if (!(Rule.Producer & Present))
      continue;
    for (MCRegister Reg : CR.Registers) {
      HazardShortfall S = searchRule(Rule, Consumer, Reg, At);
      if (!S.Missing)
        continue;
      unsigned &Need = Rule.CountsValus ? Needs.Valus : Needs.States;
      Need = std::max(Need, S.Missing);
      Needs.Reasons.push_back(S);
    }
  }
  if (unsigned Clause = softClauseNeed(E, At)) {
    Needs.States = std::max(Needs.States, Clause);
    Needs.Reasons.push_back({nullptr, nullptr, MCRegister(), Clause});
  }
  return Needs;
}

HazardTraitsCache::ConsumerRules HazardTraitsCache::consumerRules(const HazardModel &Model,
                                                                 const HazardTraits &Consumer) {
  ConsumerRules Rules;
  for (const HazardRule &Rule : Model.rules())
    if (Consumer.isAny(Rule.Consumer))
      Rules.push_back({&Rule, Model.consumerRegisters(Rule, Consumer)});
  return Rules;
}

const HazardTraitsCache::ConsumerRules &
HazardTraitsCache::Table::rulesOf(const HazardTraits &Kept) {
  auto [It, New] = RulesOf.try_emplace(&Kept);
  if (New)
    It->second = consumerRules(Model, Kept);
  return It->second;
}

const HazardTraitsCache::ConsumerRules &HazardAnalysis::rulesOf(const Entry &E) const {
  const HazardTraits &Consumer = *E.Traits.front();
  // One traits: the instruction's only MC instruction's, kept in the table
  // (read()); several are the analysis's own.
  if (E.Traits.size() == 1)
    return Traits->rulesOf(Consumer);
  auto [It, New] = RulesOf.try_emplace(&Consumer);
  if (New)
    It->second = HazardTraitsCache::consumerRules(*Model, Consumer);
  return It->second;
}

std::vector<HazardFinding> HazardAnalysis::findings() const {
  std::vector<HazardFinding> Out;
  const TargetInfo &TI = Model->target();
  for (const BasicBlock *BB : Layout)
    for (const Entry &E : Blocks.find(BB)->second.Entries)
      for (const HazardShortfall &S : needs(*E.Inst).Reasons) {
        HazardFinding Fd;
        Fd.Consumer = E.Inst;
        Fd.Producer = S.Producer;
        Fd.Missing = S.Missing;
        if (!S.Rule) {
          Fd.Rule = "SoftClause";
          Fd.Detail = "a member of the memory clause before it writes a register the "
                      "clause reads, or it stores";
        } else {
          Fd.Rule = S.Rule->Name.str();
          Fd.Register = S.Reg;
          if (S.Reg.isValid())
            Fd.Detail = "on " + TI.asmName(S.Reg);
          if (S.Rule->CountsValus)
            Fd.Detail += (Fd.Detail.empty() ? "" : ", ") + std::string("counted in VALUs");
        }
        Out.push_back(std::move(Fd));
      }
  return Out;
}

} // namespace stinkytofu
