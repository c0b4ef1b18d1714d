//===- LoopMarkers.cpp - A user scope per natural loop --------------------===//
#include "asm-instrument/sqtt/LoopMarkers.h"
#include "asm-instrument/sqtt/MarkerEncoding.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/support/StableSort.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace llvm;

namespace stinkytofu::sqtt {

std::string loopScopeName(const BasicBlock &Header) {
  std::string Name = "loop_" + Header.label().str();
  for (char &C : Name) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '@' || U < 0x20 || U >= 0x7f)
      C = '_';
  }
  return Name;
}

namespace {

/// Where one edge's marker goes.
struct EdgePoint {
  InsertPoint P;
  std::string SkipBranch;
  const BasicBlock *RunsWith = nullptr;
};

/// How far past an `s_getpc_b64` its pair may still be read by the idiom.
constexpr unsigned IdiomWindow = 8;

class LoopPlanner {
public:
  LoopPlanner(Function &F, const LoopInfo &LI) : F(F), LI(LI) { findIdioms(); }

  /// The sites of \p L (their handle not set yet), or the reason it gets
  /// none.
  Expected<std::vector<MarkerSite>> sites(const Loop &L);

private:
  void findIdioms();
  /// \p P, or the point before the `s_getpc_b64` whose idiom it is inside.
  InsertPoint outsideIdioms(InsertPoint P) const;
  /// Before \p B's branch (a long branch's idiom included), or its end.
  InsertPoint endOf(BasicBlock &B) const;
  /// The point only edge \p From -> \p To passes; \p TargetOnlyByEdge: every
  /// way into \p To is such an edge, so its start will do.
  Expected<EdgePoint> edgePoint(BasicBlock &From, BasicBlock &To, bool TargetOnlyByEdge) const;

  Function &F;
  const LoopInfo &LI;
  /// An instruction inside a PC-relative idiom -> the idiom's s_getpc_b64.
  DenseMap<const Instruction *, Instruction *> InsideIdiom;
};

bool readsPc(const Instruction &I) {
  return I.kind() == InstKind::Machine &&
         (I.mnemonic() == "s_getpc_b64" || I.mnemonic() == "s_get_pc_i64");
}

void LoopPlanner::findIdioms() {
  const MCRegisterInfo &MRI = F.parent()->target().regInfo();
  std::vector<Instruction *> Stream;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if (I.kind() == InstKind::Machine)
        Stream.push_back(&I);
  for (size_t K = 0; K < Stream.size(); ++K) {
    Instruction &G = *Stream[K];
    if (!readsPc(G) || G.facts().Defs.empty())
      continue;
    MCRegister Pair = G.facts().Defs.front();
    auto Touches = [&](const Instruction &I) {
      for (ArrayRef<MCRegister> Regs : {ArrayRef<MCRegister>(I.facts().Uses),
                                        ArrayRef<MCRegister>(I.facts().Defs)})
        for (MCRegister R : Regs)
          if (MRI.regsOverlap(R, Pair))
            return true;
      return false;
    };
    // The idiom runs to the last instruction of the window that reads or
    // writes the pair; the window ends at the first branch.
    size_t Last = K;
    for (size_t N = K + 1; N < Stream.size() && N <= K + IdiomWindow; ++N) {
      if (Touches(*Stream[N]))
        Last = N;
      if (isBranch(*Stream[N]) || isCall(*Stream[N]))
        break;
    }
    for (size_t N = K + 1; N <= Last; ++N)
      InsideIdiom.try_emplace(Stream[N], &G);
  }
}

InsertPoint LoopPlanner::outsideIdioms(InsertPoint P) const {
  Instruction *Next = P.Before;
  if (!Next) {
    // The end of a block is the point before the next block's first
    // instruction when control falls through into it.
    auto It = std::next(P.Block->getIterator());
    for (; It != F.blocks().end() && It->empty(); ++It)
      ;
    if (It != F.blocks().end() &&
        llvm::is_contained(P.Block->successors(), &*It))
      Next = &*It->instructions().begin();
  }
  if (Next)
    if (Instruction *G = InsideIdiom.lookup(Next))
      return InsertPoint::before(*G);
  return P;
}

InsertPoint LoopPlanner::endOf(BasicBlock &B) const {
  if (!B.empty()) {
    Instruction &Last = *std::prev(B.instructions().end());
    if (isBranch(Last))
      return outsideIdioms(InsertPoint::before(Last));
  }
  return outsideIdioms({&B, nullptr});
}

Expected<EdgePoint> LoopPlanner::edgePoint(BasicBlock &From, BasicBlock &To,
                                           bool TargetOnlyByEdge) const {
  EdgePoint E;
  E.RunsWith = LI.loopDepth(&From) <= LI.loopDepth(&To) ? &From : &To;
  if (TargetOnlyByEdge) {
    E.P = outsideIdioms(InsertPoint::atStart(To));
    return E;
  }
  ArrayRef<BasicBlock *> Succs = From.successors();
  if (llvm::all_of(Succs, [&](BasicBlock *S) { return S == &To; })) {
    E.P = endOf(From);
    return E;
  }
  Instruction *Branch = From.empty() ? nullptr : &*std::prev(From.instructions().end());
  if (!Branch || !isConditionalBranch(*Branch))
    return createStringError(inconvertibleErrorCode(),
                             "the edge from '" + From.label() + "' to '" + To.label() +
                                 "' leaves a block without a conditional branch");
  bool Taken = false;
  for (size_t K = 0; K < Succs.size(); ++K)
    if (Succs[K] == &To && From.successorKinds()[K] == EdgeKind::Branch)
      Taken = true;
  E.SkipBranch = Taken ? invertedBranchMnemonic(*Branch) : Branch->mnemonic().str();
  if (E.SkipBranch.empty())
    return createStringError(inconvertibleErrorCode(),
                             "'" + Branch->mnemonic() + "' has no inverse branch to skip "
                                                        "the marker on its edge");
  E.P = outsideIdioms(InsertPoint::before(*Branch));
  return E;
}

Expected<std::vector<MarkerSite>> LoopPlanner::sites(const Loop &L) {
  BasicBlock &H = *L.header();
  Instruction *Origin = H.empty() ? nullptr : &*H.instructions().begin();
  std::string Name = loopScopeName(H);
  auto Site = [&](const EdgePoint &E, uint32_t Flags, SiteRank Rank, StringRef What) {
    MarkerSite S;
    S.Kind = SiteKind::User;
    S.Rank = Rank;
    S.Point = E.P;
    S.Source = Flags & FlagEnter ? MarkerSite::IdSource::Ledger : MarkerSite::IdSource::None;
    S.Flags = Flags;
    S.Origin = Origin;
    S.What = ("loop '" + Name + "' " + What).str();
    // An unmatched enter or exit would corrupt every decoded stack.
    S.AllOrNothing = true;
    S.SkipBranch = E.SkipBranch;
    S.RunsWith = E.RunsWith;
    return S;
  };
  std::vector<MarkerSite> Out;
  if (&H == &F.blocks().front())
    return createStringError(inconvertibleErrorCode(),
                             "its header starts the function: nothing enters it from outside");
  // Enters close nothing: they go after the other markers at their point;
  // exits and transitions close what ran before: they come first.
  for (BasicBlock *P : H.predecessors())
    if (!L.contains(P)) {
      Expected<EdgePoint> E = edgePoint(*P, H, /*TargetOnlyByEdge=*/false);
      if (!E)
        return E.takeError();
      Out.push_back(Site(*E, FlagEnter, SiteRank::BeforeNext, "enter"));
    }
  for (BasicBlock *B : L.latches()) {
    Expected<EdgePoint> E = edgePoint(*B, H, /*TargetOnlyByEdge=*/false);
    if (!E)
      return E.takeError();
    Out.push_back(Site(*E, FlagEnter | FlagExitPrev, SiteRank::AfterPrevious, "next iteration"));
  }
  SmallPtrSet<const BasicBlock *, 8> ExitsAtTarget;
  for (BasicBlock *B : L.blocks()) {
    for (BasicBlock *X : B->successors()) {
      if (L.contains(X))
        continue;
      bool OnlyFromLoop = X != &F.blocks().front() &&
                          llvm::all_of(X->predecessors(),
                                       [&](BasicBlock *P) { return L.contains(P); });
      if (OnlyFromLoop && !ExitsAtTarget.insert(X).second)
        continue;
      Expected<EdgePoint> E = edgePoint(*B, *X, OnlyFromLoop);
      if (!E)
        return E.takeError();
      Out.push_back(Site(*E, FlagExitPrev, SiteRank::AfterPrevious, "exit"));
    }
    // The wave ends (or the function returns) inside the loop.
    if (!B->empty() && isReturn(*std::prev(B->instructions().end()))) {
      EdgePoint E{outsideIdioms(InsertPoint::before(*std::prev(B->instructions().end()))), "",
                  &F.blocks().front()};
      Out.push_back(Site(E, FlagExitPrev, SiteRank::AfterPrevious, "exit"));
    }
  }
  return Out;
}

} // namespace

std::vector<MarkerSite> loopSites(Function &F, const LoopInfo &LI, LoopMode Mode,
                                  MarkerIdAllocator &Ids, StinkyTofuContext &Context) {
  if (Mode == LoopMode::Off || LI.empty())
    return {};
  LoopPlanner Planner(F, LI);
  std::vector<Loop *> Loops;
  for (Loop *L : LI.loopsInPreorder())
    if (Mode == LoopMode::All || L->depth() == 1)
      Loops.push_back(L);
  // Outer loops first for the enters, inner loops first for the exits and
  // transitions: markers sharing a point then nest (the emitter keeps the
  // order of sites of one rank).
  std::vector<MarkerSite> Enters;
  std::vector<std::pair<unsigned, MarkerSite>> Closes; // with the loop's depth
  for (Loop *L : Loops) {
    Expected<std::vector<MarkerSite>> S = Planner.sites(*L);
    if (!S) {
      const BasicBlock &H = *L->header();
      SourceDiagnostic D{SourceMgr::DK_Warning, F.parent()->fileName().str(), H.location().Line,
                         H.location().Column, H.labelText().rtrim("\r\n").str(),
                         "SQTT loop scope '" + loopScopeName(H) +
                             "' not inserted: " + toString(S.takeError()),
                         {}, {}};
      Context.diagnose(D);
      continue;
    }
    unsigned Handle = Ids.addUserMarker(LedgerKind::UserScope, loopScopeName(*L->header()), 0);
    for (MarkerSite &M : *S) {
      M.Handle = Handle;
      if (M.Flags == FlagEnter)
        Enters.push_back(std::move(M));
      else
        Closes.emplace_back(L->depth(), std::move(M));
    }
  }
  std::vector<MarkerSite> Out = std::move(Enters);
  // Closes of inner loops come first: the deepest first.
  stableSort(Closes, [](const auto &A, const auto &B) { return A.first > B.first; });
  for (auto &[Depth, M] : Closes)
    Out.push_back(std::move(M));
  return Out;
}

} // namespace stinkytofu::sqtt
