//===- WaitCountKept.cpp - Wait states kept for questions after a run ----===//
//
// WaitCountOptions::KeepStates: a run's states, asked about code inserted
// after it (allQuiet, for InsertedWaitProof.h).
//
//===----------------------------------------------------------------------===//
#include "WaitCountImpl.h"

#include <deque>

namespace stinkytofu {

/// What allQuiet reads after the run: the solved analysis (its
/// descriptions and transfer), the function's instructions in layout order
/// as they were, each block's final state on entry, and the states before
/// its instructions and at its end, made on the block's first question by
/// the transfer the run applied.
struct WaitCountAnalysis::KeptStates {
  std::unique_ptr<Impl> A;
  struct Block {
    WaitPaths In;
    unsigned First = 0, Size = 0;
    std::vector<WaitPaths> Before;
  };
  std::vector<Block> Blocks;
  std::vector<const Instruction *> Instructions;
  std::vector<unsigned> BlockOf;
  DenseMap<const Instruction *, unsigned> Place;
  /// The register units any state of the function can hold pending: those
  /// its memory operations name, and a caller's loads' in a callable.
  /// Code that names none of them needs no wait in any of its states.
  BitVector Footprint;

  /// The state before the instruction at place \p P, or after it.
  const WaitPaths &state(unsigned P, bool After) {
    Block &B = Blocks[BlockOf[P]];
    if (B.Before.empty()) {
      B.Before.reserve(B.Size + 1);
      WaitPaths S = B.In;
      for (unsigned K = B.First; K < B.First + B.Size; ++K) {
        B.Before.push_back(S);
        A->transfer(*Instructions[K], S);
      }
      B.Before.push_back(std::move(S));
    }
    return B.Before[P - B.First + After];
  }

  /// Whether \p II can only take from a state, never add to it, and needs
  /// no wait where the state is the one before place \p P (after it with
  /// \p After).
  bool quiet(const Instruction &I, const InstInfo &II, unsigned P, bool After) {
    if (II.Opaque || II.Call || II.JumpsToCaller || II.Barrier || II.CacheInvalidate ||
        II.Access.Events || II.Access.ReadsLds || II.Access.WritesLds || !II.Tokens.empty() ||
        II.Ring)
      return false;
    auto Pending = [&](unsigned U) { return Footprint.test(U); };
    if (!II.WritesExec && none_of(II.ExplicitUseUnits, Pending) &&
        none_of(II.DefUnits, [&](auto D) { return Pending(D.first); }) &&
        none_of(II.UseUnits, [&](auto D) { return Pending(D.first); }))
      return true;
    for (const auto &Part : state(P, After).Parts) {
      WaitCounts Implicit;
      if (!A->requirements(I, II, Part.State, Implicit).empty())
        return false;
    }
    return true;
  }
};

std::optional<unsigned> WaitCountAnalysis::keptPlace(const Instruction &I) const {
  if (!Kept)
    return std::nullopt;
  auto It = Kept->Place.find(&I);
  if (It == Kept->Place.end())
    return std::nullopt;
  return It->second;
}

ArrayRef<const Instruction *> WaitCountAnalysis::keptInstructions() const {
  return Kept ? ArrayRef(Kept->Instructions) : ArrayRef<const Instruction *>();
}

bool WaitCountAnalysis::allQuiet(ArrayRef<QuietQuestion> Questions) const {
  if (!Kept)
    return false;
  // Described as the run describes (DescriptionTwins): the instructions
  // asked about live through the call.
  DescriptionTwins Twins;
  std::deque<InstInfo> Infos;
  auto Describe = [&](const Instruction &I) -> const InstInfo & {
    auto [Info, Fresh] = Twins.described(I, [&] { return &Infos.emplace_back(); });
    if (Fresh)
      Kept->A->describe(I, *Info);
    return *Info;
  };
  return all_of(Questions, [&](const QuietQuestion &Q) {
    return Q.Place < Kept->Instructions.size() &&
           Kept->quiet(*Q.Inserted, Describe(*Q.Inserted), Q.Place, Q.AfterPlace);
  });
}

WaitCountAnalysis::WaitCountAnalysis(const CounterModel &CM) : CM(&CM) {}
WaitCountAnalysis::~WaitCountAnalysis() = default;
WaitCountAnalysis::WaitCountAnalysis(WaitCountAnalysis &&) = default;

void WaitCountAnalysis::keepStates(WaitCountAnalysis &Result, std::unique_ptr<Impl> A,
                                   const Function &F) {
  auto K = std::make_unique<KeptStates>();
  K->Footprint.resize(A->RU.numUnits());
  if (A->Callable)
    K->Footprint |= loadDestinationUnits(A->RU);
  for (const BasicBlock &BB : F.blocks()) {
    if (BB.empty())
      continue;
    KeptStates::Block &B = K->Blocks.emplace_back();
    B.In = A->stateIn(BB).Parts.empty() ? A->unreachedState(BB) : A->stateIn(BB);
    B.First = K->Instructions.size();
    for (const Instruction &I : BB.instructions()) {
      K->Place[&I] = K->Instructions.size();
      K->Instructions.push_back(&I);
      K->BlockOf.push_back(K->Blocks.size() - 1);
      const InstInfo &II = A->info(I);
      if (!II.Access.Events)
        continue;
      for (auto [U, R] : II.DefUnits)
        K->Footprint.set(U);
      for (auto [U, R] : II.UseUnits)
        K->Footprint.set(U);
      for (unsigned U : II.ExplicitUseUnits)
        K->Footprint.set(U);
    }
    B.Size = K->Instructions.size() - B.First;
  }
  K->A = std::move(A);
  Result.Kept = std::move(K);
}

} // namespace stinkytofu
