//===- WaitCountAnalysis.cpp - Outstanding memory events per instruction --===//
//
// Scores as in LLVM's SIInsertWaitcnts: per counter the events in flight are
// the scores (LB, UB]; a register or LDS slot keeps the score of the newest
// pending operation that writes (or still reads) it. Inside a block the
// scores only grow; a state is compared and joined in its canonical form
// (LB = 0, the queue clamped to the counter's limit), which keeps the
// lattice finite.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "WaitCountImpl.h"

namespace stinkytofu {

/// Adds what one partition's replay found missing at an instruction to
/// what the others found: the strictest count per counter, and its reason
/// with the facts of its partition.
static void mergeMissing(MissingWait &Into, SmallVectorImpl<PathFacts> &ReasonFacts,
                         const MissingWait &M, const PathFacts &Facts) {
  Into.Consumer = M.Consumer;
  Into.Needed.merge(M.Needed);
  for (const WaitReason &R : M.Reasons) {
    auto It = find_if(Into.Reasons, [&](const WaitReason &Old) { return Old.Counter == R.Counter; });
    if (It == Into.Reasons.end()) {
      Into.Reasons.push_back(R);
      ReasonFacts.push_back(Facts);
    } else if (R.Needed < It->Needed) {
      *It = R;
      ReasonFacts[It - Into.Reasons.begin()] = Facts;
    }
  }
}

/// Transfers \p BB's instructions from \p S, as the dataflow's transfer
/// does, and records what each lacks in \p F (in layout order, without
/// paths).
void WaitCountAnalysis::Impl::recordBlock(const BasicBlock &BB, WaitPaths &S,
                                          BlockFindings &F) const {
  for (const Instruction &I : BB.instructions()) {
    const InstInfo &II = info(I);
    // Nothing in flight on any path, and the instruction starts nothing and
    // waits for nothing: every score is at its counter's LB, so it needs no
    // wait (requirements finds nothing pending) and changes no counter but
    // what settling the translations does.
    if (!II.Access.Events && !II.Wait && !II.Call && !II.Opaque &&
        none_of(S.Parts, [](const auto &P) { return anyBusy(P.State); })) {
      for (auto &P : S.Parts) {
        settleTranslations(P.State);
        if (Conditions)
          Conditions->transfer(I, P.Facts);
      }
      continue;
    }
    MissingWait Found;
    SmallVector<PathFacts, 1> FoundFacts;
    bool Completes = false;
    SmallVector<WaitCounts, 4> Implicit(S.Parts.size());
    for (auto [P, H] : zip(S.Parts, Implicit)) {
      MissingWait M;
      M.Consumer = &I;
      Recording = &M;
      M.Needed = requirements(I, II, P.State, H);
      Recording = nullptr;
      // Reasons of implicit waits were recorded too: keep the missing ones.
      erase_if(M.Reasons, [&](const WaitReason &R) { return !M.Needed.waits(R.Counter); });
      if (!M.Needed.empty())
        mergeMissing(Found, FoundFacts, M, P.Facts);
      else if (II.Wait && completesSomething(*II.Wait, P.State))
        Completes = true;
    }
    for (auto [P, H] : zip(S.Parts, Implicit)) {
      H.merge(Found.Needed);
      transferWaits(I, II, H, P.State);
      if (Conditions)
        Conditions->transfer(I, P.Facts);
    }
    if (!Found.Needed.empty()) {
      F.Missing.push_back(std::move(Found));
      F.Facts.push_back(std::move(FoundFacts));
    } else if (II.Wait && !Completes) {
      F.Redundant.push_back(&I);
    }
  }
}

/// Describes a feasible path for each reason of \p F whose producer is in
/// another block than \p BB (WaitCountOptions::DescribePaths).
void WaitCountAnalysis::Impl::describePaths(const BasicBlock &BB, BlockFindings &F) const {
  if (!Opts.DescribePaths)
    return;
  for (auto [M, ReasonFacts] : zip(F.Missing, F.Facts)) {
    if (!Paths)
      Paths.emplace(*Conditions, &CM);
    for (auto [R, Facts] : zip(M.Reasons, ReasonFacts))
      if (R.Producer && R.Producer->parent() && R.Producer->parent() != &BB)
        if (auto Path = findFeasiblePath(*Conditions, *R.Producer, BB, Facts,
                                         PendingOperation{&CM, R.Counter}, &*Paths))
          R.Path = describePath(*Conditions, *Path);
  }
}

/// What one block lacks, from its state at the start \p In: appended to
/// \p Missing and \p Redundant in layout order.
void WaitCountAnalysis::Impl::replayBlock(const BasicBlock &BB, const WaitPaths &In,
                                          std::vector<MissingWait> &Missing,
                                          std::vector<const Instruction *> &Redundant) const {
  WaitPaths S = In;
  BlockFindings F;
  recordBlock(BB, S, F);
  describePaths(BB, F);
  std::move(F.Missing.begin(), F.Missing.end(), std::back_inserter(Missing));
  llvm::append_range(Redundant, F.Redundant);
}

Expected<WaitCountAnalysis> WaitCountAnalysis::solve(const Function &F, const CounterModel &CM,
                                                     WaitCountOptions Opts,
                                                     WaitCountCache::Impl *Cache) {
  auto A = std::make_unique<Impl>(F, CM, Opts, Opts.CorrelateBranches, Cache);
  A->RecordVisits = A->Correlate || !A->Conditions;
  // Each block is revisited at most once per step a queue or score can
  // take, which the counters' limits bound (per partition).
  unsigned Limit = (256 * std::max<size_t>(A->blocks().size(), 1) + 1024) *
                   (A->Correlate ? Impl::MaxPartitions : 1);
  WaitCountAnalysis Result(CM);
  if (Error E = A->run(Limit)) {
    if (!A->Correlate)
      return std::move(E);
    // Partitions that keep changing: fall back to the path-insensitive
    // analysis, whose findings may then include infeasible paths.
    Result.GaveUp = "branch correlation gave up (" + toString(std::move(E)) +
                    "); findings may lie on infeasible paths";
    A = std::make_unique<Impl>(F, CM, Opts, /*Correlate=*/false, Cache);
    if (Error E = A->run(Limit))
      return std::move(E);
  }
  // A block's replay is kept with its results when no path is described
  // (the paths depend on the rest of the function).
  WaitCountCache::Impl *Memo = Opts.DescribePaths ? nullptr : A->Memo;
  for (const BasicBlock *BB : A->blocks()) {
    // A block no feasible path reaches is still checked on its own.
    WaitPaths Unreached;
    const WaitPaths &In =
        A->stateIn(*BB).Parts.empty() ? (Unreached = A->unreachedState(*BB)) : A->stateIn(*BB);
    // What the block's last transfer recorded, if it started from In.
    Impl::BlockFindings *Recorded = nullptr;
    if (A->RecordVisits && &In == &A->stateIn(*BB))
      if (auto It = A->Visited.find(BB); It != A->Visited.end())
        Recorded = &It->second;
    if (!Memo) {
      if (!Recorded) {
        A->replayBlock(*BB, In, Result.Missing, Result.Redundant);
        continue;
      }
      A->describePaths(*BB, *Recorded);
      std::move(Recorded->Missing.begin(), Recorded->Missing.end(),
                std::back_inserter(Result.Missing));
      llvm::append_range(Result.Redundant, Recorded->Redundant);
      continue;
    }
    if (const WaitCountCache::Impl::Replay *Kept = Memo->findReplay(*BB, In)) {
      ++Memo->Stats.ReplaysReused;
      llvm::append_range(Result.Missing, Kept->Missing);
      llvm::append_range(Result.Redundant, Kept->Redundant);
      continue;
    }
    WaitCountCache::Impl::Replay &New = Memo->addReplay(*BB, In);
    if (Recorded) {
      New.Missing = std::move(Recorded->Missing);
      New.Redundant = std::move(Recorded->Redundant);
    } else {
      A->replayBlock(*BB, In, New.Missing, New.Redundant);
    }
    llvm::append_range(Result.Missing, New.Missing);
    llvm::append_range(Result.Redundant, New.Redundant);
  }
  if (Opts.KeepStates)
    keepStates(Result, std::move(A), F);
  return Result;
}

Expected<WaitCountAnalysis> WaitCountAnalysis::run(const Function &F, const CounterModel &CM,
                                                   WaitCountOptions Opts) {
  return solve(F, CM, Opts, nullptr);
}

} // namespace stinkytofu
