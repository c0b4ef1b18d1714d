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

constexpr int Entry = -1;

/// What one instruction saw in one order: the versions of what it reads and
/// overwrites (the writing instruction, old-order index, or Entry), the
/// fences before it, and the versions of its address registers.
struct Observation {
  std::vector<std::pair<unsigned, int>> Read, Overwritten;
  unsigned FencesBefore = 0;
  std::vector<int> AddressVersions;
};

std::vector<Observation> execute(ArrayRef<InstructionEffects> Effects, ArrayRef<unsigned> Order,
                                 unsigned NumUnits, std::vector<int> &Final) {
  std::vector<Observation> Seen(Effects.size());
  std::vector<int> Version(NumUnits, Entry);
  unsigned Fences = 0;
  for (unsigned K : Order) {
    const InstructionEffects &E = Effects[K];
    Observation &O = Seen[K];
    for (unsigned U : E.Reads.set_bits())
      O.Read.emplace_back(U, Version[U]);
    for (unsigned U : E.Writes.set_bits())
      O.Overwritten.emplace_back(U, Version[U]);
    O.FencesBefore = Fences;
    if (E.Location)
      for (unsigned U : E.Location->AddressUnits)
        O.AddressVersions.push_back(Version[U]);
    for (unsigned U : E.Writes.set_bits())
      Version[U] = int(K);
    Fences += E.Fence;
  }
  Final = std::move(Version);
  return Seen;
}

/// A pair of accesses that conflict and that \p Order puts the other way
/// round than the old order: (the one now earlier, the other).
std::optional<std::pair<unsigned, unsigned>>
reversedConflict(ArrayRef<InstructionEffects> Effects, ArrayRef<unsigned> Order,
                 ArrayRef<Observation> Seen, MemorySpace &Space) {
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
                           Seen[Earlier].AddressVersions == Seen[K].AddressVersions)) {
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
  std::vector<int> OldFinal, NewFinal;
  std::vector<Observation> Old = execute(Effects, OldOrder, RU.numUnits(), OldFinal);
  std::vector<Observation> New = execute(Effects, NewOrder, RU.numUnits(), NewFinal);
  for (unsigned K : NewOrder) {
    const Observation &A = Old[K], &B = New[K];
    if (auto Why = differingVersion(A.Read, B.Read, RU, "reads", Text))
      return ScheduleViolation{K, *Why};
    if (auto Why = differingVersion(A.Overwritten, B.Overwritten, RU, "overwrites", Text))
      return ScheduleViolation{K, *Why};
    if (A.FencesBefore != B.FencesBefore)
      return ScheduleViolation{K, "crosses a fence (" + Twine(B.FencesBefore).str() +
                                      " fences before it instead of " +
                                      Twine(A.FencesBefore).str() + ")"};
  }
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
  DenseMap<const Instruction *, unsigned> Index;
  std::vector<InstructionEffects> Effects;
  for (const Instruction *I : Old) {
    Index[I] = Effects.size();
    Effects.push_back(EM.effectsOf(*I));
  }
  std::vector<unsigned> Order;
  for (const Instruction *I : New) {
    auto It = Index.find(I);
    Order.push_back(It == Index.end() ? Old.size() : It->second);
  }
  auto Text = [&](unsigned K) { return instructionText(*Old[K]); };
  if (auto V = findScheduleViolation(Effects, Order, EM.units(), Text))
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
          Entries.push_back(Entry{I, instructionText(*I), Directives, EM->effectsOf(*I)});
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
        if (K == Kept.end() || Before[K->second].Text != instructionText(*I))
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
