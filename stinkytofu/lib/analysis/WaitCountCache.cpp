//===- WaitCountCache.cpp - Wait analysis results kept between runs -------===//
//
// A kept block result is taken only for the same instructions in the same
// order and a state equal to the one it was computed from: the dataflow
// itself treats equal states as the same (a block whose state leaving it
// compares equal propagates nothing), and the transfer reads the state only
// through what the comparison compares (scores relative to each counter's
// bounds), so the kept result compares equal to a new one and leads to the
// same waits.
//
//===----------------------------------------------------------------------===//
#include "WaitCountState.h"

#include "stinkytofu/ir/BasicBlock.h"

using namespace llvm;

namespace stinkytofu {

AnalysisKey WaitCountCacheAnalysis::Key;
AnalysisKey WaitDescriptionsAnalysis::Key;

WaitDescriptions::WaitDescriptions() : P(std::make_unique<Impl>()) {}
WaitDescriptions::~WaitDescriptions() = default;
WaitDescriptions::WaitDescriptions(WaitDescriptions &&) = default;
WaitDescriptions &WaitDescriptions::operator=(WaitDescriptions &&) = default;
unsigned WaitDescriptions::described() const { return P->Described; }

WaitDescriptions WaitDescriptionsAnalysis::run(Module &, AnalysisManager &) { return {}; }

WaitCountCache WaitCountCacheAnalysis::run(Function &F, AnalysisManager &AM) {
  if (!F.parent())
    return WaitCountCache();
  return WaitCountCache(&AM.getLastingResult<WaitDescriptionsAnalysis>(*F.parent()));
}

WaitCountCache::WaitCountCache(WaitDescriptions *Shared) : P(std::make_unique<Impl>(Shared)) {}
WaitCountCache::~WaitCountCache() = default;
WaitCountCache::WaitCountCache(WaitCountCache &&) = default;
WaitCountCache &WaitCountCache::operator=(WaitCountCache &&) = default;
const WaitCountCache::Counts &WaitCountCache::counts() const { return P->Stats; }

namespace {

/// Block results kept per block: enough for the few states a loop's
/// blocks are transferred from in one run and an order put back.
constexpr size_t KeptPerBlock = 8;

/// Whether \p BB holds exactly \p Body, in order.
bool sameBody(const BasicBlock &BB, ArrayRef<const Instruction *> Body) {
  size_t K = 0;
  for (const Instruction &I : BB.instructions())
    if (K == Body.size() || Body[K++] != &I)
      return false;
  return K == Body.size();
}

std::vector<const Instruction *> bodyOf(const BasicBlock &BB) {
  std::vector<const Instruction *> Body;
  for (const Instruction &I : BB.instructions())
    Body.push_back(&I);
  return Body;
}

/// The newest entry of \p Kept for \p BB's instructions and a state equal
/// to \p In.
template <typename EntryT>
const EntryT *findKept(const std::vector<EntryT> &Kept, const BasicBlock &BB,
                       const waitcount::WaitPaths &In) {
  for (const EntryT &E : reverse(Kept))
    if (E.In == In && sameBody(BB, E.Body))
      return &E;
  return nullptr;
}

template <typename EntryT> EntryT &addKept(std::vector<EntryT> &Kept, const BasicBlock &BB) {
  if (Kept.size() == KeptPerBlock)
    Kept.erase(Kept.begin());
  Kept.emplace_back();
  Kept.back().Body = bodyOf(BB);
  return Kept.back();
}

} // namespace

void WaitCountCache::Impl::begin(const TargetInfo &T, unsigned Waves) {
  if (Target != &T) {
    Target = &T;
    NumWaves = 0;
  }
  if (NumWaves != Waves) {
    Transfers.clear();
    Replays.clear();
    NumWaves = Waves;
  }
}

const WaitCountCache::Impl::Transfer *
WaitCountCache::Impl::findTransfer(const BasicBlock &BB, const WaitPaths &In) const {
  auto It = Transfers.find(&BB);
  return It == Transfers.end() ? nullptr : findKept(It->second, BB, In);
}

void WaitCountCache::Impl::addTransfer(const BasicBlock &BB, const WaitPaths &In,
                                       const WaitPaths &Out) {
  ++Stats.Transferred;
  Transfer &T = addKept(Transfers[&BB], BB);
  T.In = In;
  T.Out = Out;
}

const WaitCountCache::Impl::Replay *WaitCountCache::Impl::findReplay(const BasicBlock &BB,
                                                                     const WaitPaths &In) const {
  auto It = Replays.find(&BB);
  return It == Replays.end() ? nullptr : findKept(It->second, BB, In);
}

WaitCountCache::Impl::Replay &WaitCountCache::Impl::addReplay(const BasicBlock &BB,
                                                              const WaitPaths &In) {
  ++Stats.Replayed;
  Replay &R = addKept(Replays[&BB], BB);
  R.In = In;
  return R;
}

/// An error naming the first instruction where \p Cached (a run with the
/// cache) and \p Full (one without) find different waits.
static Error sameWaits(const Function &F, const WaitCountAnalysis &Cached,
                       const WaitCountAnalysis &Full) {
  auto Disagree = [&](const Instruction *I, StringRef What) {
    std::string Where = I ? "'" + I->mnemonic().str() + "' at line " +
                                std::to_string(I->location().Line)
                          : std::string("the end");
    return createStringError(inconvertibleErrorCode(),
                             "function '" + F.name() + "': the wait analysis with its cache finds " +
                                 What + " than a run without it at " + Where);
  };
  ArrayRef<MissingWait> A = Cached.missingWaits(), B = Full.missingWaits();
  for (size_t K = 0; K < std::max(A.size(), B.size()); ++K) {
    if (K == A.size())
      return Disagree(B[K].Consumer, "fewer missing waits");
    if (K == B.size())
      return Disagree(A[K].Consumer, "more missing waits");
    if (A[K].Consumer != B[K].Consumer || !(A[K].Needed == B[K].Needed))
      return Disagree(A[K].Consumer, "other missing waits");
  }
  if (Cached.redundantWaits() != Full.redundantWaits())
    return Disagree(nullptr, "other redundant waits");
  return Error::success();
}

Expected<WaitCountAnalysis> WaitCountAnalysis::run(const Function &F, const CounterModel &CM,
                                                   WaitCountOptions Opts, WaitCountCache &Cache) {
  Expected<WaitCountAnalysis> Result = solve(F, CM, Opts, Cache.P.get());
  if (!Result || !Opts.CheckCache)
    return Result;
  // Described anew as well: the check trusts nothing kept.
  Opts.Descriptions = nullptr;
  Expected<WaitCountAnalysis> Full = solve(F, CM, Opts, nullptr);
  if (!Full)
    return Full.takeError();
  if (Error E = sameWaits(F, *Result, *Full))
    return std::move(E);
  return Result;
}

} // namespace stinkytofu
