//===- ScheduleValidator.cpp - Proving a reordering computes the same -----===//
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <numeric>

using namespace llvm;

namespace stinkytofu {

namespace {

/// An instruction as the validator names it: mnemonic and operands as
/// written (the asm writer's text is a layer up).
std::string instructionText(const Instruction &I) {
  std::string Text = I.mnemonic().str();
  ListSeparator Sep(", ");
  if (I.numOperands())
    Text += ' ';
  for (const Operand &Op : I.operands())
    (Text += Sep) += Op.spelling();
  return Text;
}

/// A wait or nop, which the wait and hazard passes remove and insert: its
/// place is checked by their verifiers, not here (a new one may even reuse
/// the address of an erased one with the same text).
bool isRederivedWait(const Instruction &I) {
  std::string Mnemonic = I.mnemonic().lower();
  return HardwareModel::isHazardWait(Mnemonic) || !HardwareModel::waitCounters(Mnemonic).empty();
}

bool sameLocation(SourceLocation A, SourceLocation B) {
  return A.Line == B.Line && A.Column == B.Column;
}

constexpr int Entry = -1;

/// What the instructions saw in one order: per instruction the versions
/// of what it reads and overwrites (the writing instruction, old-order
/// index, or Entry), the fences before it, and the versions of its address
/// registers. The versions of all instructions lie in one vector (a vector
/// per instruction cost most of a validation in allocations).
class Execution {
public:
  Execution(ArrayRef<InstructionEffects> Effects, ArrayRef<unsigned> Order, unsigned NumUnits)
      : Seen(Effects.size()), Final(NumUnits, Entry) {
    unsigned Fences = 0;
    for (unsigned K : Order) {
      const InstructionEffects &E = Effects[K];
      Observation &O = Seen[K];
      O.Read = Versions.size();
      for (unsigned U : setUnits(E.Reads))
        Versions.emplace_back(U, Final[U]);
      O.Overwritten = Versions.size();
      O.FencesBefore = Fences;
      if (E.Location)
        for (unsigned U : E.Location->AddressUnits)
          O.AddressVersions.push_back(Final[U]);
      for (unsigned U : setUnits(E.Writes)) {
        Versions.emplace_back(U, Final[U]);
        Final[U] = int(K);
      }
      O.End = Versions.size();
      Fences += E.Fence;
    }
  }

  ArrayRef<std::pair<unsigned, int>> read(unsigned K) const {
    return ArrayRef(Versions).slice(Seen[K].Read, Seen[K].Overwritten - Seen[K].Read);
  }
  ArrayRef<std::pair<unsigned, int>> overwritten(unsigned K) const {
    return ArrayRef(Versions).slice(Seen[K].Overwritten, Seen[K].End - Seen[K].Overwritten);
  }
  unsigned fencesBefore(unsigned K) const { return Seen[K].FencesBefore; }
  ArrayRef<int> addressVersions(unsigned K) const { return Seen[K].AddressVersions; }
  /// The version of every unit after the last instruction.
  ArrayRef<int> final() const { return Final; }

private:
  struct Observation {
    unsigned Read = 0, Overwritten = 0, End = 0; ///< into Versions
    unsigned FencesBefore = 0;
    std::vector<int> AddressVersions;
  };
  std::vector<std::pair<unsigned, int>> Versions;
  std::vector<Observation> Seen;
  std::vector<int> Final;
};

/// A pair of accesses that conflict and that \p Order puts the other way
/// round than the old order: (the one now earlier, the other).
std::optional<std::pair<unsigned, unsigned>>
reversedConflict(ArrayRef<InstructionEffects> Effects, ArrayRef<unsigned> Order,
                 const Execution &Seen, MemorySpace &Space) {
  std::array<std::vector<unsigned>, NumMemorySpaces> Accesses;
  for (unsigned K : Order)
    for (unsigned S = 0; S != NumMemorySpaces; ++S) {
      if (!Effects[K].Memory[S].any())
        continue;
      // Only pairs whose order changed can be wrong: an earlier access with
      // a larger old index.
      for (unsigned Earlier : Accesses[S])
        if (Earlier > K &&
            memoryConflict(Effects[Earlier], Effects[K], MemorySpace(S),
                           Seen.addressVersions(Earlier) == Seen.addressVersions(K))) {
          Space = MemorySpace(S);
          return std::make_pair(Earlier, K);
        }
      Accesses[S].push_back(K);
    }
  return std::nullopt;
}

std::string versionName(int V, function_ref<std::string(unsigned)> Text) {
  return V == Entry ? std::string("the region's input") : "'" + Text(V) + "'";
}

/// The first unit whose version differs between \p Old and \p New.
std::optional<std::string> differingVersion(ArrayRef<std::pair<unsigned, int>> Old,
                                            ArrayRef<std::pair<unsigned, int>> New,
                                            const RegisterUnits &RU, StringRef What,
                                            function_ref<std::string(unsigned)> Text) {
  for (auto [A, B] : zip(Old, New)) {
    if (A.second == B.second)
      continue;
    BitVector Unit = RU.none();
    Unit.set(A.first);
    return (What + " " + RU.describe(Unit) + " of " + versionName(B.second, Text) +
            " instead of " + versionName(A.second, Text))
        .str();
  }
  return std::nullopt;
}

} // namespace

std::optional<ScheduleViolation>
findScheduleViolation(ArrayRef<InstructionEffects> Effects, ArrayRef<unsigned> NewOrder,
                      const RegisterUnits &RU, function_ref<std::string(unsigned)> Text) {
  const unsigned N = Effects.size();
  std::vector<bool> Placed(N, false);
  bool Permutation = NewOrder.size() == N;
  for (unsigned K : NewOrder) {
    Permutation &= K < N && !Placed[K];
    if (K < N)
      Placed[K] = true;
  }
  if (!Permutation)
    return ScheduleViolation{0, "the new order is not a permutation of the old one"};

  std::vector<unsigned> OldOrder(N);
  std::iota(OldOrder.begin(), OldOrder.end(), 0u);
  Execution Old(Effects, OldOrder, RU.numUnits());
  Execution New(Effects, NewOrder, RU.numUnits());
  for (unsigned K : NewOrder) {
    if (auto Why = differingVersion(Old.read(K), New.read(K), RU, "reads", Text))
      return ScheduleViolation{K, *Why};
    if (auto Why =
            differingVersion(Old.overwritten(K), New.overwritten(K), RU, "overwrites", Text))
      return ScheduleViolation{K, *Why};
    if (Old.fencesBefore(K) != New.fencesBefore(K))
      return ScheduleViolation{K, "crosses a fence (" + Twine(New.fencesBefore(K)).str() +
                                      " fences before it instead of " +
                                      Twine(Old.fencesBefore(K)).str() + ")"};
  }
  ArrayRef<int> OldFinal = Old.final(), NewFinal = New.final();
  // Register versions agree, so do the address registers' versions: the
  // new order's conflicts are the old order's.
  MemorySpace Space;
  if (auto Pair = reversedConflict(Effects, NewOrder, New, Space))
    return ScheduleViolation{Pair->first, ("changes its " + memorySpaceName(Space) +
                                           " memory order with '" + Text(Pair->second) + "'")
                                              .str()};
  for (unsigned U = 0; U != OldFinal.size(); ++U)
    if (OldFinal[U] != NewFinal[U]) {
      BitVector Unit = RU.none();
      Unit.set(U);
      return ScheduleViolation{unsigned(std::max(NewFinal[U], 0)),
                               "leaves " + RU.describe(Unit) + " as " +
                                   versionName(NewFinal[U], Text) + " instead of " +
                                   versionName(OldFinal[U], Text)};
    }
  return std::nullopt;
}

Error validateReordering(ArrayRef<const Instruction *> Old, ArrayRef<const Instruction *> New,
                         const EffectModel &EM) {
  // The same order is the same program (putting a region back).
  if (equal(Old, New))
    return Error::success();
  std::vector<InstructionEffects> Effects;
  Effects.reserve(Old.size());
  for (const Instruction *I : Old)
    Effects.push_back(EM.effectsOf(*I));
  return validateReordering(Old, New, Effects, EM.units());
}

Error validateReordering(ArrayRef<const Instruction *> Old, ArrayRef<const Instruction *> New,
                         ArrayRef<InstructionEffects> OldEffects, const RegisterUnits &RU) {
  if (equal(Old, New))
    return Error::success();
  DenseMap<const Instruction *, unsigned> Index;
  for (unsigned K = 0; K != Old.size(); ++K)
    Index[Old[K]] = K;
  std::vector<unsigned> Order;
  for (const Instruction *I : New) {
    auto It = Index.find(I);
    Order.push_back(It == Index.end() ? Old.size() : It->second);
  }
  auto Text = [&](unsigned K) { return instructionText(*Old[K]); };
  if (auto V = findScheduleViolation(OldEffects, Order, RU, Text))
    return createStringError(inconvertibleErrorCode(),
                             "schedule changes the program: '" + Text(V->Inst) + "' " + V->Reason);
  return Error::success();
}

ScheduleSnapshot::ScheduleSnapshot(const Module &M)
    : EM(std::make_unique<EffectModel>(M.target())) {
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      std::vector<Entry> &Entries = Blocks[&BB];
      unsigned Directives = 0;
      for (const BlockItem &Item : BB.items()) {
        const auto *I = dyn_cast<Instruction>(&Item);
        if (!I)
          ++Directives;
        else if (!isRederivedWait(*I))
          Entries.push_back(
              Entry{I, instructionText(*I), I->location(), Directives, EM->effectsOf(*I)});
      }
    }
}
ScheduleSnapshot::~ScheduleSnapshot() = default;

Error ScheduleSnapshot::verify(const Module &M) const {
  Reordered = 0;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      auto It = Blocks.find(&BB);
      if (It == Blocks.end())
        continue;
      const std::vector<Entry> &Before = It->second;
      // The instructions kept, unchanged: same object, same text.
      DenseMap<const Instruction *, unsigned> Kept;
      for (unsigned K = 0; K != Before.size(); ++K)
        Kept[Before[K].Inst] = K;
      std::vector<unsigned> NewOrder;
      unsigned Directives = 0;
      for (const BlockItem &Item : BB.items()) {
        const auto *I = dyn_cast<Instruction>(&Item);
        if (!I) {
          ++Directives;
          continue;
        }
        if (isRederivedWait(*I))
          continue;
        auto K = Kept.find(I);
        if (K == Kept.end() || Before[K->second].Text != instructionText(*I) ||
            !sameLocation(Before[K->second].Location, I->location()))
          continue;
        NewOrder.push_back(K->second);
        // A directive may change what the text after it means.
        if (Before[K->second].DirectivesBefore != Directives)
          return createStringError(inconvertibleErrorCode(),
                                   "function '" + F.name() + "', block '" + BB.name() + "': '" +
                                       Before[K->second].Text + "' moved across a directive");
      }
      // Compare the kept instructions only, renumbered in their old order.
      std::vector<unsigned> OldIndices(NewOrder);
      llvm::sort(OldIndices);
      if (OldIndices == NewOrder)
        continue;
      ++Reordered;
      DenseMap<unsigned, unsigned> Renumber;
      std::vector<InstructionEffects> Effects;
      for (unsigned K : OldIndices) {
        Renumber[K] = Effects.size();
        Effects.push_back(Before[K].Effects);
      }
      std::vector<unsigned> Order;
      for (unsigned K : NewOrder)
        Order.push_back(Renumber[K]);
      auto Text = [&](unsigned K) { return Before[OldIndices[K]].Text; };
      if (auto V = findScheduleViolation(Effects, Order, EM->units(), Text))
        return createStringError(inconvertibleErrorCode(),
                                 "function '" + F.name() + "', block '" + BB.name() +
                                     "': schedule changes the program: '" + Text(V->Inst) +
                                     "' " + V->Reason);
    }
  return Error::success();
}

} // namespace stinkytofu
