//===- MarkerEmitter.cpp - Planned markers become instructions ------------===//
#include "asm-instrument/sqtt/MarkerEmitter.h"
#include "asm-instrument/sqtt/MarkerEncoding.h"
#include "asm-instrument/sqtt/UserMarkers.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/parse/AssemblerState.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCContext.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <list>

using namespace llvm;

namespace stinkytofu::sqtt {

EmitStats &EmitStats::operator+=(const EmitStats &O) {
  Entry += O.Entry;
  Exit += O.Exit;
  User += O.User;
  Barrier += O.Barrier;
  Memory += O.Memory;
  Immediate += O.Immediate;
  ViaM0 += O.ViaM0;
  Payloads += O.Payloads;
  M0Saves += O.M0Saves;
  SccSaves += O.SccSaves;
  Guards += O.Guards;
  Refused += O.Refused;
  Added += O.Added;
  CachedPredicate |= O.CachedPredicate;
  SGPRHighWater = std::max(SGPRHighWater, O.SGPRHighWater);
  return *this;
}

EmitContext::EmitContext(Module &M, const SQTTConfig &Config, const MarkerIdAllocator &Ids,
                         std::vector<ScopeDimCheck> Checks)
    : M(M), Config(Config), HW(M.target().hardware()), Ids(Ids), Checks(std::move(Checks)),
      Factory(M) {
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      if (BB.hasLabel())
        Labels.insert(BB.label());
}

std::string EmitContext::newLabel() {
  for (;;) {
    std::string L = ".Lsqtt_skip_" + std::to_string(NextLabel++);
    if (Labels.contains(L) || M.assembler().context().lookupSymbol(L))
      continue;
    Labels.insert(L);
    return L;
  }
}

static std::string hex(uint32_t V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format_hex(V, 2);
  return S;
}

namespace {

/// The registers one group needs, and which of its sites go in.
struct GroupPlan {
  std::vector<unsigned> Emit;
  std::optional<MCRegister> SaveM0, Temp, SaveScc;
  /// Shader-clock packing: the register (the first of an aligned pair on
  /// gfx1250) the clock is read into.
  std::optional<MCRegister> Clock;
  bool Guard = false;
  std::string Label; ///< the skip label of a guarded group
};

using InstructionPoint = std::pair<BasicBlock *, Instruction *>;

struct Group {
  InsertPoint P;
  unsigned Order = 0; // layout position
  std::vector<unsigned> Sites;
};

class FunctionEmitter {
public:
  FunctionEmitter(Function &F, std::vector<MarkerSite> Sites, const MarkerLiveness &Live,
                  EmitContext &Ctx)
      : F(F), Sites(std::move(Sites)), Live(Live), Ctx(Ctx), TI(F.parent()->target()) {}

  Expected<EmitStats> run();

private:
  void buildGroups();
  GroupPlan plan(const Group &G, const DenseSet<unsigned> &Forced,
                 std::vector<std::pair<unsigned, std::string>> &Refusals) const;
  bool usesImmediate(const MarkerSite &S) const;
  bool needsM0(const MarkerSite &S) const { return !usesImmediate(S) || S.Payload; }
  void decidePredicate();
  Error emitGroup(const Group &G, const GroupPlan &Plan, bool WithPredicate);
  Expected<std::list<Instruction>> make(ArrayRef<std::string> Texts);
  void warn(const MarkerSite &S, const Twine &Reason);
  /// The assembly name of a scratch register, noting it in the stats.
  std::string name(MCRegister R) {
    if (std::optional<unsigned> Idx = TI.indexOf(R))
      Stats.SGPRHighWater = std::max(Stats.SGPRHighWater, *Idx + 1);
    return TI.asmName(R);
  }

  Function &F;
  std::vector<MarkerSite> Sites;
  const MarkerLiveness &Live;
  EmitContext &Ctx;
  const TargetInfo &TI;
  std::vector<Group> Groups;
  std::optional<MCRegister> Pred, PredTemp;
  InsertPoint EntryPoint;
  EmitStats Stats;
};

void FunctionEmitter::buildGroups() {
  // Layout order of every point of the function.
  DenseMap<std::pair<const BasicBlock *, const Instruction *>, unsigned> OrderOf;
  // A point before a pseudo-instruction is the point before the next real
  // instruction: the pseudo-instructions go away, so markers written as
  // consecutive pseudo-instructions share one group (and one guard).
  DenseMap<const Instruction *, InstructionPoint> Past;
  unsigned N = 0;
  for (BasicBlock &BB : F.blocks()) {
    std::vector<Instruction *> Run;
    for (Instruction &I : BB.instructions()) {
      OrderOf[{&BB, &I}] = N++;
      if (I.kind() == InstKind::Pseudo) {
        Run.push_back(&I);
        continue;
      }
      for (Instruction *P : Run)
        Past[P] = {&BB, &I};
      Run.clear();
    }
    OrderOf[{&BB, nullptr}] = N++;
    for (Instruction *P : Run)
      Past[P] = {&BB, nullptr};
  }
  DenseMap<unsigned, unsigned> GroupOf;
  for (unsigned S = 0; S < Sites.size(); ++S) {
    const InsertPoint &P = Sites[S].Point;
    InsertPoint Key = P;
    if (P.Before && P.Before->kind() == InstKind::Pseudo) {
      auto It = Past.find(P.Before);
      if (It != Past.end())
        Key = {It->second.first, It->second.second};
    }
    unsigned KeyOrder = OrderOf.lookup({Key.Block, Key.Before});
    unsigned Order = OrderOf.lookup({P.Block, P.Before});
    auto [It, New] = GroupOf.try_emplace(KeyOrder, Groups.size());
    if (New)
      Groups.push_back({P, Order, {}});
    Group &G = Groups[It->second];
    // The group sits at its earliest point: liveness there covers what the
    // pseudo-instructions after it read (a data marker's payload register).
    if (Order < G.Order) {
      G.P = P;
      G.Order = Order;
    }
    G.Sites.push_back(S);
  }
  for (Group &G : Groups)
    std::stable_sort(G.Sites.begin(), G.Sites.end(), [&](unsigned A, unsigned B) {
      return Sites[A].Rank < Sites[B].Rank;
    });
  std::sort(Groups.begin(), Groups.end(),
            [](const Group &A, const Group &B) { return A.Order < B.Order; });
}

bool FunctionEmitter::usesImmediate(const MarkerSite &S) const {
  return fitsImmediate(markerValue(S, Ctx.Ids), Ctx.HW.ttraceDataImmMax(),
                       Ctx.Config.ShaderClockBits != 0);
}

GroupPlan FunctionEmitter::plan(const Group &G, const DenseSet<unsigned> &Forced,
                                std::vector<std::pair<unsigned, std::string>> &Refusals) const {
  GroupPlan P;
  for (unsigned S : G.Sites)
    if (!Forced.contains(S))
      P.Emit.push_back(S);
  if (P.Emit.empty())
    return P;
  // Scratch candidates: dead here, not the predicate, not a payload.
  std::vector<MCRegister> Free = Live.deadSGPRs(G.P);
  std::erase_if(Free, [&](MCRegister R) { return Pred && R == *Pred; });
  size_t Next = 0;
  auto Take = [&]() -> std::optional<MCRegister> {
    if (Next < Free.size())
      return Free[Next++];
    return std::nullopt;
  };
  auto RefuseAll = [&](const std::string &Why) {
    for (unsigned S : P.Emit)
      Refusals.emplace_back(S, Why);
    P.Emit.clear();
  };
  const bool Packing = Ctx.Config.ShaderClockBits != 0;
  if (Packing && Ctx.HW.shaderClock().Kind == ShaderClockKind::GetShaderCyclesU64) {
    // s_get_shader_cycles_u64 writes an aligned pair.
    for (size_t K = 0; K + 1 < Free.size() && !P.Clock; ++K) {
      std::optional<unsigned> A = TI.indexOf(Free[K]), B = TI.indexOf(Free[K + 1]);
      if (A && B && *A % 2 == 0 && *B == *A + 1) {
        P.Clock = Free[K];
        Free.erase(Free.begin() + K, Free.begin() + K + 2);
      }
    }
    if (!P.Clock) {
      RefuseAll("no aligned SGPR pair is free here to read the shader clock");
      return P;
    }
  }
  if (!Ctx.Checks.empty()) {
    P.Guard = true;
    if (!Pred) {
      P.Temp = Take();
      if (!P.Temp) {
        RefuseAll("no SGPR is free here for the scope check");
        return P;
      }
    }
  }
  if (Packing && !P.Clock) {
    P.Clock = Take();
    if (!P.Clock) {
      RefuseAll("no SGPR is free here to read the shader clock");
      return P;
    }
  }
  if ((P.Guard || Packing) && Live.isLive(G.P, "SCC")) {
    P.SaveScc = Take();
    if (!P.SaveScc) {
      RefuseAll("SCC is live and no SGPR is free to save it");
      return P;
    }
  }
  bool AnyM0 = llvm::any_of(P.Emit, [&](unsigned S) { return needsM0(Sites[S]); });
  if (AnyM0 && Live.isLive(G.P, "M0")) {
    P.SaveM0 = Take();
    if (!P.SaveM0) {
      std::vector<unsigned> Keep;
      for (unsigned S : P.Emit) {
        if (needsM0(Sites[S]))
          Refusals.emplace_back(S, "M0 is live and no SGPR is free to save it");
        else
          Keep.push_back(S);
      }
      P.Emit = std::move(Keep);
    }
  }
  if (P.Emit.empty())
    P.Guard = false;
  return P;
}

void FunctionEmitter::decidePredicate() {
  if (Ctx.Checks.empty() || F.blocks().empty())
    return;
  EntryPoint = InsertPoint::atStart(F.blocks().front());
  std::optional<MCRegister> P = Live.freeSGPR();
  if (!P || Live.isLive(EntryPoint, "SCC"))
    return;
  if (Ctx.Checks.size() > 1) {
    for (MCRegister R : Live.deadSGPRs(EntryPoint))
      if (R != *P) {
        PredTemp = R;
        break;
      }
    if (!PredTemp)
      return;
  }
  Pred = P;
}

Expected<std::list<Instruction>> FunctionEmitter::make(ArrayRef<std::string> Texts) {
  std::list<Instruction> Out;
  for (const std::string &T : Texts) {
    Expected<Instruction> I = Ctx.Factory.make(T);
    if (!I)
      return I.takeError();
    Out.push_back(std::move(*I));
  }
  return Out;
}

void FunctionEmitter::warn(const MarkerSite &S, const Twine &Reason) {
  const Module &M = *F.parent();
  std::string Msg = ("SQTT marker for " + S.What + " not inserted: " + Reason).str();
  if (S.Origin && S.Origin->location().isValid())
    warningStream() << renderDiagnostic(M.fileName(), S.Origin->location().Line,
                                        S.Origin->location().Column,
                                        S.Origin->sourceText().rtrim("\r\n"),
                                        SourceMgr::DK_Warning, Msg);
  else
    warningStream() << M.fileName() << ": warning: " << Msg << "\n";
}

Error FunctionEmitter::emitGroup(const Group &G, const GroupPlan &Plan, bool WithPredicate) {
  const bool Nop = Ctx.HW.needsNopBeforeTtraceData();
  std::vector<std::string> Pre, Body, Post;
  if (WithPredicate)
    for (std::string &S : predicateStatements(Ctx.Checks, name(*Pred),
                                              PredTemp ? name(*PredTemp) : ""))
      Pre.push_back(std::move(S));
  const std::string &Label = Plan.Label;
  if (Plan.Guard) {
    if (Plan.SaveScc)
      Pre.push_back("s_cselect_b32 " + name(*Plan.SaveScc) + ", 1, 0");
    if (Pred) {
      Pre.push_back("s_bitcmp1_b32 " + name(*Pred) + ", 0");
      Pre.push_back("s_cbranch_scc0 " + Label);
    } else {
      for (const ScopeDimCheck &C : Ctx.Checks) {
        for (std::string &S : dimensionBit(C, name(*Plan.Temp)))
          Pre.push_back(std::move(S));
        Pre.push_back("s_bitcmp1_b32 " + name(*Plan.Temp) + ", 0");
        Pre.push_back("s_cbranch_scc0 " + Label);
      }
    }
    if (Plan.SaveScc)
      Post.push_back("s_cmp_lg_u32 " + name(*Plan.SaveScc) + ", 0");
    ++Stats.Guards;
    Stats.SccSaves += Plan.SaveScc.has_value();
  }
  auto ViaM0 = [&](const std::string &Value) {
    Body.push_back("s_mov_b32 m0, " + Value);
    if (Nop)
      Body.push_back("s_nop 0");
    Body.push_back("s_ttracedata");
  };
  // A packed header: the clock window in the top ShaderClockBits bits.
  const unsigned Bits = Ctx.Config.ShaderClockBits, Shift = Ctx.Config.ShaderClockShift;
  auto Packed = [&](uint32_t Value) {
    std::string T = name(*Plan.Clock);
    const ShaderClock &Clock = Ctx.HW.shaderClock();
    if (Clock.Kind == ShaderClockKind::GetShaderCyclesU64) {
      std::optional<unsigned> Idx = TI.indexOf(*Plan.Clock);
      Stats.SGPRHighWater = std::max(Stats.SGPRHighWater, *Idx + 2);
      Body.push_back("s_get_shader_cycles_u64 s[" + std::to_string(*Idx) + ":" +
                     std::to_string(*Idx + 1) + "]");
      Body.push_back("s_bfe_u32 " + T + ", " + T + ", " + hex((Bits << 16) | Shift));
    } else {
      Body.push_back("s_getreg_b32 " + T + ", hwreg(" + Clock.HwRegName.str() + ", " +
                     std::to_string(Shift) + ", " + std::to_string(Bits) + ")");
    }
    Body.push_back("s_lshl_b32 " + T + ", " + T + ", " + std::to_string(32 - Bits));
    Body.push_back("s_or_b32 m0, " + T + ", " + hex(Value));
    if (Nop)
      Body.push_back("s_nop 0");
    Body.push_back("s_ttracedata");
  };
  // Packing clobbers SCC: without a guard to save it around, save it here.
  const bool SccInBody = Plan.SaveScc && !Plan.Guard;
  if (SccInBody) {
    Body.push_back("s_cselect_b32 " + name(*Plan.SaveScc) + ", 1, 0");
    ++Stats.SccSaves;
  }
  bool SavedM0 = false;
  for (unsigned Idx : Plan.Emit) {
    const MarkerSite &S = Sites[Idx];
    if (needsM0(S) && Plan.SaveM0 && !SavedM0) {
      Body.push_back("s_mov_b32 " + name(*Plan.SaveM0) + ", m0");
      SavedM0 = true;
      ++Stats.M0Saves;
    }
    uint32_t V = markerValue(S, Ctx.Ids);
    if (usesImmediate(S)) {
      Body.push_back("s_ttracedata_imm " + hex(V));
      ++Stats.Immediate;
    } else if (Bits != 0) {
      Packed(V);
      ++Stats.ViaM0;
    } else {
      ViaM0(hex(V));
      ++Stats.ViaM0;
    }
    if (S.Payload) {
      ViaM0(*S.Payload);
      ++Stats.Payloads;
    }
    switch (S.Kind) {
    case SiteKind::FunctionEntry:
      ++Stats.Entry;
      break;
    case SiteKind::FunctionExit:
      ++Stats.Exit;
      break;
    case SiteKind::User:
      ++Stats.User;
      break;
    case SiteKind::Barrier:
      ++Stats.Barrier;
      break;
    case SiteKind::Memory:
      ++Stats.Memory;
      break;
    }
  }
  if (SavedM0) {
    Body.push_back("s_mov_b32 m0, " + name(*Plan.SaveM0));
    if (Nop)
      Body.push_back("s_nop 0"); // the restored M0 may feed an M0 reader next
  }
  if (SccInBody)
    Body.push_back("s_cmp_lg_u32 " + name(*Plan.SaveScc) + ", 0");

  Expected<std::list<Instruction>> PreI = make(Pre), BodyI = make(Body), PostI = make(Post);
  if (!PreI)
    return PreI.takeError();
  if (!BodyI)
    return BodyI.takeError();
  if (!PostI)
    return PostI.takeError();
  Stats.Added += Pre.size() + Body.size() + Post.size();

  // Where the group goes: before G.P.Before, or at the end of its block.
  // Groups are emitted last to first, so everything before the point is
  // still where the plan saw it.
  BasicBlock *BB = G.P.Before ? G.P.Before->parent() : G.P.Block;
  auto &Insts = BB->instructions();
  auto Pos = Insts.end();
  if (G.P.Before)
    for (auto It = Insts.begin(); It != Insts.end(); ++It)
      if (&*It == G.P.Before) {
        Pos = It;
        break;
      }
  Instruction *First = nullptr;
  auto Insert = [&](BasicBlock &Into, BasicBlock::InstList::iterator At,
                    std::list<Instruction> &New) {
    for (Instruction &I : New) {
      Instruction &Placed = Into.insert(At, std::move(I));
      Ctx.Inserted.insert(&Placed);
      if (!First)
        First = &Placed;
    }
  };

  if (!Plan.Guard) {
    Insert(*BB, Pos, *PreI);
    Insert(*BB, Pos, *BodyI);
  } else {
    // BB: ... guard -> [markers] -> .Lsqtt_skip_N: restore, rest of BB.
    auto BBIt = F.blocks().begin();
    while (&*BBIt != BB)
      ++BBIt;
    auto SkipIt = F.blocks().emplace(std::next(BBIt), Label);
    SkipIt->setParent(&F);
    SkipIt->instructions().splice(SkipIt->instructions().end(), Insts, Pos, Insts.end());
    for (Instruction &I : SkipIt->instructions())
      I.setParent(&*SkipIt);
    auto MarkIt = F.blocks().emplace(SkipIt, "");
    MarkIt->setParent(&F);
    Ctx.InsertedBlocks.insert(&*SkipIt);
    Ctx.InsertedBlocks.insert(&*MarkIt);
    Insert(*BB, Insts.end(), *PreI);
    Insert(*MarkIt, MarkIt->instructions().end(), *BodyI);
    Insert(*SkipIt, SkipIt->instructions().begin(), *PostI);
  }
  // Comments and directives written before a marker pseudo-instruction
  // stay in front of the code that replaces it.
  if (First && G.P.Before && G.P.Before->kind() == InstKind::Pseudo) {
    First->setLeadingText(G.P.Before->leadingText());
    G.P.Before->setLeadingText("");
  }
  return Error::success();
}

Expected<EmitStats> FunctionEmitter::run() {
  buildGroups();
  decidePredicate();

  // Plan; a refused site of an all-or-nothing set (a function's entry and
  // exits) takes the whole set with it, then plan again.
  DenseSet<unsigned> Forced;
  std::vector<std::pair<unsigned, std::string>> Refusals;
  std::vector<GroupPlan> Plans;
  for (int Round = 0; Round < 3; ++Round) {
    Refusals.clear();
    Plans.clear();
    for (const Group &G : Groups)
      Plans.push_back(plan(G, Forced, Refusals));
    DenseSet<unsigned> Handles;
    for (auto &[S, Why] : Refusals)
      if (Sites[S].AllOrNothing) {
        if (Handles.insert(Sites[S].Handle).second)
          warn(Sites[S], Why + "; none of the function's entry and exit markers is inserted");
      }
    if (Handles.empty())
      break;
    for (unsigned S = 0; S < Sites.size(); ++S)
      if (Sites[S].AllOrNothing && Handles.contains(Sites[S].Handle))
        Forced.insert(S);
  }
  for (auto &[S, Why] : Refusals)
    if (!Sites[S].AllOrNothing)
      warn(Sites[S], Why);
  size_t Emitted = 0;
  for (const GroupPlan &P : Plans)
    Emitted += P.Emit.size();
  Stats.Refused = Sites.size() - Emitted;

  // Skip labels numbered in layout order.
  for (GroupPlan &P : Plans)
    if (P.Guard)
      P.Label = Ctx.newLabel();
  bool AnyGuard = llvm::any_of(Plans, [](const GroupPlan &P) { return P.Guard; });
  if (!AnyGuard)
    Pred.reset();
  Stats.CachedPredicate = Pred.has_value();
  // The predicate goes first at the function's start, also when no marker
  // is there.
  bool PredicateEmitted = !Pred;
  for (size_t K = Groups.size(); K-- > 0;) {
    bool AtEntry = Pred && Groups[K].P == EntryPoint;
    if (Plans[K].Emit.empty() && !AtEntry)
      continue;
    if (Error E = emitGroup(Groups[K], Plans[K], AtEntry))
      return std::move(E);
    PredicateEmitted |= AtEntry;
  }
  if (!PredicateEmitted) {
    Group G{EntryPoint, 0, {}};
    if (Error E = emitGroup(G, GroupPlan(), /*WithPredicate=*/true))
      return std::move(E);
  }
  return Stats;
}

} // namespace

Expected<EmitStats> emitMarkers(Function &F, std::vector<MarkerSite> Sites,
                                const MarkerLiveness &Live, EmitContext &Ctx) {
  FunctionEmitter E(F, std::move(Sites), Live, Ctx);
  return E.run();
}

void printStats(StringRef Name, bool Kernel, const EmitStats &S, raw_ostream &OS) {
  if (Name.empty())
    OS << "total";
  else
    OS << (Kernel ? "kernel " : "function ") << Name;
  OS << ": markers " << S.markers()
     << " (entry " << S.Entry << ", exit " << S.Exit << ", user " << S.User << ", barrier "
     << S.Barrier << ", memory " << S.Memory << "), immediate " << S.Immediate << ", m0 "
     << S.ViaM0 << ", payloads " << S.Payloads << ", m0 saves " << S.M0Saves
     << ", scope guards " << S.Guards << (S.CachedPredicate ? " (cached predicate)" : "")
     << ", scc saves " << S.SccSaves << ", refused " << S.Refused << ", instructions added "
     << S.Added << "\n";
}

} // namespace stinkytofu::sqtt
