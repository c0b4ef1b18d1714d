//===- MarkerEmitter.cpp - Planned markers become instructions ------------===//
#include "asm-instrument/sqtt/MarkerEmitter.h"
#include "asm-instrument/sqtt/AddressTrace.h"
#include "asm-instrument/sqtt/FunctionMarkers.h"
#include "asm-instrument/sqtt/MarkerEncoding.h"
#include "asm-instrument/sqtt/SgprSpill.h"
#include "asm-instrument/sqtt/UserMarkers.h"
#include "asm-instrument/sqtt/VgprMsbStates.h"
#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/support/StableSort.h"
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCContext.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu::sqtt {

EmitStats &EmitStats::operator+=(const EmitStats &O) {
  Entry += O.Entry;
  Exit += O.Exit;
  User += O.User;
  Barrier += O.Barrier;
  Memory += O.Memory;
  AddressTraces += O.AddressTraces;
  TraceRecords += O.TraceRecords;
  Immediate += O.Immediate;
  ViaM0 += O.ViaM0;
  Payloads += O.Payloads;
  M0Saves += O.M0Saves;
  SccSaves += O.SccSaves;
  SgprSpills += O.SgprSpills;
  Guards += O.Guards;
  Refused += O.Refused;
  Added += O.Added;
  BranchesToRelax += O.BranchesToRelax;
  CachedPredicate |= O.CachedPredicate;
  SGPRHighWater = std::max(SGPRHighWater, O.SGPRHighWater);
  VGPRHighWater = std::max(VGPRHighWater, O.VGPRHighWater);
  return *this;
}

EmitContext::EmitContext(Module &M, StinkyTofuContext &Context, const SQTTConfig &Config,
                         const MarkerIdAllocator &Ids, std::vector<ScopeDimCheck> Checks)
    : M(M), Context(Context), Config(Config), HW(M.target().hardware()), Ids(Ids),
      Checks(std::move(Checks)), Factory(M) {
  if (HW.hasHighVgprs())
    SetVgprMsbOpcode = VgprMsbCodec(M.target()).setVgprMsbOpcode();
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      if (BB.hasLabel())
        Labels.insert(BB.label());
}

std::string EmitContext::newLabel(StringRef Prefix) {
  // A number is never given twice: only the program's symbols can clash.
  for (;;) {
    std::string L = (Prefix + Twine(NextLabel++)).str();
    if (!Labels.contains(L) && !M.assembler().context().lookupSymbol(L))
      return L;
  }
}

namespace {

/// The registers one group needs, and which of its sites go in.
struct GroupPlan {
  std::vector<unsigned> Emit;
  std::optional<MCRegister> SaveM0, Temp, SaveScc;
  /// Shader-clock packing: the register (the first of an aligned pair on
  /// gfx1250) the clock is read into.
  std::optional<MCRegister> Clock;
  /// Address traces: the lane counter, the temporaries, the labels of the
  /// lane loops.
  std::optional<MCRegister> TraceCounter;
  SmallVector<MCRegister, 3> TraceTemps;
  std::vector<std::string> LoopLabels;
  /// Live SGPRs parked in VGPR lanes to serve as the registers above.
  SmallVector<SgprSpill, 4> Spills;
  bool Guard = false;
  /// A group on a CFG edge: the branch that skips it (MarkerSite::SkipBranch).
  std::string SkipBranch;
  std::string Label; ///< the skip label of a guarded or edge group
  /// The program's s_set_vgpr_msb state at the group, set again after its
  /// branches when not 0 (VgprMsbStates.h).
  std::optional<uint8_t> VgprMsb;
};

using InstructionPoint = std::pair<BasicBlock *, Instruction *>;

struct Group {
  InsertPoint P;
  unsigned Order = 0; // layout position
  std::vector<unsigned> Sites;
  std::string SkipBranch; ///< the sites' MarkerSite::SkipBranch
  std::optional<uint8_t> VgprMsb; ///< the program's state here (gfx1250)
};

/// One inserted instruction, or the guard's branch to the group's skip
/// label (Spec is then the mnemonic alone).
struct Statement {
  InstSpec Spec;
  bool SkipBranch = false;
  /// An address-trace loop: LoopHead starts a labelled block, LoopBack is
  /// the branch back to it (Spec its mnemonic).
  TraceStatement::Kind Loop = TraceStatement::Kind::Instruction;
};

/// The code of one group, before it is assembled: the guard (and the
/// predicate) in the group's block, the markers in their own block, the
/// SCC restore after the skip label. Stats counts what it holds.
struct GroupCode {
  std::vector<Statement> Pre, Body, Post;
  EmitStats Stats;
};

class FunctionEmitter {
public:
  FunctionEmitter(Function &F, std::vector<MarkerSite> Sites, const MarkerLiveness &Live,
                  EmitContext &Ctx)
      : F(F), Sites(std::move(Sites)), Live(Live), Ctx(Ctx), TI(F.parent()->target()) {}

  Expected<EmitStats> run();

private:
  /// Groups last to first, so that every point is still where the plan saw
  /// it; groups sharing a point (the edge groups before one conditional
  /// branch, always before an instruction) first to last, as each goes
  /// right before that instruction.
  std::vector<size_t> emissionOrder() const;
  void buildGroups();
  GroupPlan plan(const Group &G, const DenseSet<unsigned> &Forced,
                 std::vector<std::pair<unsigned, std::string>> &Refusals) const;
  bool usesImmediate(const MarkerSite &S) const;
  /// SGPRs no group of \p Emit may park (SgprSpill.h): the program's
  /// registers its code reads (a payload, a traced operation's operands)
  /// and the scope predicate.
  SmallVector<MCRegister, 8> keptSGPRs(ArrayRef<unsigned> Emit) const;
  bool needsM0(const MarkerSite &S) const {
    return !usesImmediate(S) || S.Payload || S.Trace;
  }
  void decidePredicate();
  /// Plans every group until no refusal changes the plans; then keeps the
  /// short branches in range (BranchRange.h) by refusing the groups between
  /// a branch and its target that would push it out.
  Expected<std::vector<GroupPlan>> planAll();
  /// Refuses site \p S (a function's entry and exits as a set); true when
  /// something new was refused.
  bool refuse(unsigned S, const std::string &Why, DenseSet<unsigned> &Forced,
              std::vector<std::pair<unsigned, std::string>> &Warnings);
  /// The predicate goes once, with the first group at the function's start
  /// (edge groups may share that point).
  bool atEntry(const Group &G) const {
    return Pred && G.P == EntryPoint &&
           &G == &*llvm::find_if(Groups, [&](const Group &X) { return X.P == EntryPoint; });
  }
  GroupCode code(const GroupPlan &Plan, bool WithPredicate) const;
  Expected<uint64_t> bytes(const GroupCode &C);
  /// Inserts the code of \p G as \p Plan has it: \p Code when planAll
  /// measured it, else made here.
  Error emitGroup(const Group &G, const GroupPlan &Plan, bool WithPredicate,
                  std::optional<GroupCode> Code = std::nullopt);
  /// \p Code as instructions; skip branches go to \p Label, a loop's
  /// branch back to \p LoopLabel.
  Expected<std::vector<Instruction>> make(ArrayRef<Statement> Code, StringRef Label,
                                        StringRef LoopLabel = "");
  void warn(const MarkerSite &S, const Twine &Reason);
  std::string describe(const BranchLayout::OutOfRange &R) const;
  /// Whether \p R's branch can become a long branch after the markers are
  /// in (BranchRelaxationPass.h).
  bool relaxable(const BranchLayout::OutOfRange &R);

  Function &F;
  std::vector<MarkerSite> Sites;
  const MarkerLiveness &Live;
  EmitContext &Ctx;
  const TargetInfo &TI;
  std::vector<Group> Groups;
  /// The scratch registers as operands (code() is asked for every group
  /// twice: to measure it, then to emit it).
  mutable DenseMap<unsigned, BuildOperand> RegOperands;
  std::optional<MCRegister> Pred, PredTemp;
  InsertPoint EntryPoint;
  EmitStats Stats;
  std::optional<LongBranchBuilder> LongBranches; ///< made when first needed
  /// Per group, the code planAll measured for its final plan, not made
  /// again to be emitted.
  std::vector<std::optional<GroupCode>> Measured;
};

void FunctionEmitter::buildGroups() {
  // Layout order of every point of the function.
  DenseMap<std::pair<const BasicBlock *, const Instruction *>, unsigned> OrderOf;
  OrderOf.reserve(F.instructionCount() + F.blocks().size());
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
  // Sites on different edges out of one point are different groups.
  // Keyed by the site's own skip branch text, which outlives the map.
  DenseMap<std::pair<unsigned, StringRef>, unsigned> GroupOf;
  GroupOf.reserve(Sites.size());
  Groups.reserve(Sites.size());
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
    auto [It, New] = GroupOf.try_emplace({KeyOrder, Sites[S].SkipBranch}, Groups.size());
    if (New)
      Groups.push_back({P, Order, {}, Sites[S].SkipBranch, {}});
    Group &G = Groups[It->second];
    // The group sits at its earliest point: liveness there covers what the
    // pseudo-instructions after it read (a data marker's payload register).
    if (Order < G.Order) {
      G.P = P;
      G.Order = Order;
    }
    G.Sites.push_back(S);
  }
  if (unsigned SetOpcode = Ctx.SetVgprMsbOpcode) {
    VgprMsbStates States(F, SetOpcode);
    for (Group &G : Groups)
      G.VgprMsb = States.at(G.P);
  }
  for (Group &G : Groups)
    stableSort(G.Sites, [&](unsigned A, unsigned B) {
      return Sites[A].Rank < Sites[B].Rank;
    });
  // At one point the markers that always run come before the edge groups.
  stableSort(Groups, [](const Group &A, const Group &B) {
    return std::make_pair(A.Order, !A.SkipBranch.empty()) <
           std::make_pair(B.Order, !B.SkipBranch.empty());
  });
}

std::vector<size_t> FunctionEmitter::emissionOrder() const {
  std::vector<size_t> Order;
  for (size_t End = Groups.size(); End > 0;) {
    size_t Begin = End - 1;
    while (Begin > 0 && Groups[Begin - 1].P == Groups[End - 1].P)
      --Begin;
    for (size_t K = Begin; K < End; ++K)
      Order.push_back(K);
    End = Begin;
  }
  return Order;
}

bool FunctionEmitter::usesImmediate(const MarkerSite &S) const {
  return fitsImmediate(markerValue(S, Ctx.Ids), Ctx.HW.ttraceDataImmMax(),
                       Ctx.Config.ShaderClockBits != 0);
}

SmallVector<MCRegister, 8> FunctionEmitter::keptSGPRs(ArrayRef<unsigned> Emit) const {
  SmallVector<MCRegister, 8> Kept;
  if (Pred)
    Kept.push_back(*Pred);
  auto Add = [&](MCRegister R) {
    for (MCRegister Part : TI.covered32(R))
      if (TI.classOf(Part) == RegClass::SGPR)
        Kept.push_back(Part);
  };
  for (unsigned S : Emit) {
    const MarkerSite &Site = Sites[S];
    if (Site.Trace && Site.Origin)
      for (MCRegister R : Site.Origin->facts().Uses)
        Add(R);
    // A payload is `sN` or an immediate.
    if (Site.Payload && Site.Payload->kind() == BuildOperand::Kind::Register &&
        Site.Payload->regFile() == RegFile::SGPR)
      if (MCRegister R = TI.reg32(RegClass::SGPR, Site.Payload->first()); R.isValid())
        Add(R);
  }
  return Kept;
}

GroupPlan FunctionEmitter::plan(const Group &G, const DenseSet<unsigned> &Forced,
                                std::vector<std::pair<unsigned, std::string>> &Refusals) const {
  GroupPlan P;
  for (unsigned S : G.Sites)
    if (!Forced.contains(S))
      P.Emit.push_back(S);
  std::erase_if(P.Emit, [&](unsigned S) {
    if (!Sites[S].Trace || Sites[S].Trace->Unsupported.empty())
      return false;
    Refusals.emplace_back(S, Sites[S].Trace->Unsupported);
    return true;
  });
  if (P.Emit.empty())
    return P;
  P.VgprMsb = G.VgprMsb;
  const bool Packing = Ctx.Config.ShaderClockBits != 0;
  const bool ClockPair =
      Packing && Ctx.HW.shaderClock().Kind == ShaderClockKind::GetShaderCyclesU64;
  // An address trace takes a lane counter and temporaries, and clobbers SCC.
  unsigned TraceNeeds = 0;
  for (unsigned S : P.Emit)
    if (Sites[S].Trace)
      TraceNeeds = std::max(TraceNeeds, 1 + traceTemporaries(*Sites[S].Trace));
  // Scratch candidates: dead here, not the predicate. A group takes at most
  // four (scope check, clock, SCC, M0) and one may be the predicate, plus
  // an address trace's; an aligned clock pair is searched in all of them.
  std::vector<MCRegister> Free = Live.deadSGPRs(G.P, ClockPair ? SIZE_MAX : 5 + TraceNeeds);
  std::erase_if(Free, [&](MCRegister R) { return Pred && R == *Pred; });
  std::optional<ScratchSGPRs> Scratch;
  auto Take = [&]() -> std::optional<MCRegister> {
    if (!Scratch)
      Scratch.emplace(Live, G.P, Free, keptSGPRs(P.Emit),
                      !Ctx.SetVgprMsbOpcode || G.VgprMsb == uint8_t(0));
    return Scratch->take();
  };
  // Refuses the sites that need what is missing; the others still go in.
  auto RefuseIf = [&](function_ref<bool(const MarkerSite &)> Needs, const char *Why) {
    std::erase_if(P.Emit, [&](unsigned S) {
      if (!Needs(Sites[S]))
        return false;
      Refusals.emplace_back(S, Why);
      return true;
    });
  };
  auto RefuseAll = [&](const std::string &Why) {
    for (unsigned S : P.Emit)
      Refusals.emplace_back(S, Why);
    P.Emit.clear();
  };
  if (ClockPair) {
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
      // Last, a dead M0 holds the check's bits (the markers write it only
      // after the branch).
      if (MCRegister M0 = Live.units().byName("M0");
          !P.Temp && M0.isValid() && !Live.isLive(G.P, M0) && !Live.isInFlight(G.P, M0))
        P.Temp = M0;
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
  if ((P.Guard || Packing || TraceNeeds) && Live.isLive(G.P, "SCC")) {
    P.SaveScc = Take();
    if (!P.SaveScc) {
      RefuseAll("SCC is live and no SGPR is free to save it");
      return P;
    }
  }
  bool AnyM0 = llvm::any_of(P.Emit, [&](unsigned S) { return needsM0(Sites[S]); });
  if (AnyM0 && Live.isLive(G.P, "M0")) {
    P.SaveM0 = Take();
    if (!P.SaveM0)
      RefuseIf([&](const MarkerSite &S) { return needsM0(S); },
               "M0 is live and no SGPR is free to save it");
  }
  if (TraceNeeds && llvm::any_of(P.Emit, [&](unsigned S) { return Sites[S].Trace != nullptr; })) {
    P.TraceCounter = Take();
    while (P.TraceCounter && P.TraceTemps.size() + 1 < TraceNeeds)
      if (std::optional<MCRegister> R = Take())
        P.TraceTemps.push_back(*R);
      else
        break;
    if (!P.TraceCounter || P.TraceTemps.size() + 1 < TraceNeeds)
      RefuseIf([](const MarkerSite &S) { return S.Trace != nullptr; },
               "no SGPRs are free here for the lane counter and temporaries of the "
               "address trace");
  }
  if (P.Emit.empty())
    P.Guard = false;
  else
    P.SkipBranch = G.SkipBranch;
  if (Scratch && !P.Emit.empty())
    P.Spills = Scratch->spills();
  return P;
}

void FunctionEmitter::decidePredicate() {
  if (Ctx.Checks.empty() || F.blocks().empty())
    return;
  EntryPoint = functionEntryPoint(F);
  std::optional<MCRegister> P = Live.freeSGPR();
  // A caller's load may still land in it at a callable function's entry.
  if (!P || Live.isInFlight(EntryPoint, *P) || Live.isLive(EntryPoint, "SCC"))
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

Expected<std::vector<Instruction>> FunctionEmitter::make(ArrayRef<Statement> Code, StringRef Label,
                                                      StringRef LoopLabel) {
  std::vector<Instruction> Out;
  Out.reserve(Code.size());
  for (const Statement &S : Code) {
    StringRef Target = S.Loop == TraceStatement::Kind::LoopBack ? LoopLabel : Label;
    Expected<Instruction> I = S.SkipBranch ? Ctx.Factory.buildBranch(S.Spec.Mnemonic, Target)
                                           : Ctx.Factory.build(S.Spec);
    if (!I)
      return I.takeError();
    Out.push_back(std::move(*I));
  }
  return Out;
}

void FunctionEmitter::warn(const MarkerSite &S, const Twine &Reason) {
  const Module &M = *F.parent();
  SourceDiagnostic D{SourceMgr::DK_Warning, M.fileName().str(), 0, 0, "",
                     ("SQTT marker for " + S.What + " not inserted: " + Reason).str(), {}, {}};
  if (S.Origin && S.Origin->location().isValid()) {
    D.Line = S.Origin->location().Line;
    D.Column = S.Origin->location().Column;
    D.LineText = S.Origin->sourceText().rtrim("\r\n").str();
  }
  Ctx.Context.diagnose(D);
}

std::string FunctionEmitter::describe(const BranchLayout::OutOfRange &R) const {
  std::string Where;
  if (R.Branch->location().isValid())
    Where = (" on line " + Twine(R.Branch->location().Line)).str();
  return ("it would put the branch to '" + R.Target + "'" + Where +
          " out of range (offset " + Twine(R.Offset) + " dwords; a short branch reaches " +
          Twine(INT16_MIN) + ".." + Twine(INT16_MAX) + ")")
      .str();
}

bool FunctionEmitter::relaxable(const BranchLayout::OutOfRange &R) {
  if (!LongBranches)
    LongBranches.emplace(*F.parent(), Ctx.Factory.builder());
  // After the markers, what is dead at the target now still is, but the
  // scope predicate, which stays live from the function's entry on.
  SmallVector<MCRegister, 1> Reserved;
  if (Pred)
    Reserved.push_back(*Pred);
  Expected<LongBranchBuilder::Plan> P =
      LongBranches->plan(*R.Branch, Live.liveIn(*F.findBlock(R.Target)), Live.units(),
                         namedSGPRCount(F), Reserved);
  if (P)
    return true;
  consumeError(P.takeError());
  return false;
}

GroupCode FunctionEmitter::code(const GroupPlan &Plan, bool WithPredicate) const {
  using Op = BuildOperand;
  GroupCode C;
  EmitStats &St = C.Stats;
  auto Reg = [&](MCRegister R) -> const Op & {
    if (std::optional<unsigned> Idx = TI.indexOf(R))
      St.SGPRHighWater = std::max(St.SGPRHighWater, *Idx + 1);
    auto [It, New] = RegOperands.try_emplace(R.id());
    if (New)
      It->second = Op::mcReg(R, TI);
    return It->second;
  };
  auto Hex = [](uint32_t V) { return Op::hexImm(V, /*LowerCase=*/true); };
  const Op M0 = Op::special("m0"), Zero = Op::imm(0);
  const bool Nop = Ctx.HW.needsNopBeforeTtraceData();
  std::vector<Statement> &Pre = C.Pre, &Body = C.Body, &Post = C.Post;
  Body.reserve(4 * Plan.Emit.size()); // a header is up to four instructions
  Pre.reserve(4 + Plan.Spills.size()); // a guard is two or three
  auto Add = [](std::vector<Statement> &To, std::vector<InstSpec> Specs) {
    for (InstSpec &S : Specs)
      To.push_back({std::move(S)});
  };
  auto Inst = [](std::vector<Statement> &To, StringRef Mnemonic,
                 std::initializer_list<Op> Operands) {
    To.push_back({{Mnemonic.str(), Operands}});
  };
  auto Branch = [](std::vector<Statement> &To, StringRef Mnemonic) {
    To.push_back({{Mnemonic.str(), {}}, /*SkipBranch=*/true});
  };
  // Parked SGPRs go first and come back last, on both ways past a guard.
  Add(Pre, sgprSpillSaves(Plan.Spills, TI));
  St.SgprSpills += Plan.Spills.size();
  for (const SgprSpill &S : Plan.Spills)
    St.VGPRHighWater = std::max(St.VGPRHighWater, TI.indexOf(S.Vgpr).value_or(0) + 1);
  if (WithPredicate)
    Add(Pre, predicateStatements(Ctx.Checks, Reg(*Pred), PredTemp ? Reg(*PredTemp) : Op()));
  if (Plan.Guard && Plan.SaveScc)
    Inst(Pre, "s_cselect_b32", {Reg(*Plan.SaveScc), Op::imm(1), Zero});
  // An edge group: the edge's condition is tested before the guard
  // clobbers SCC, after the save both ways to the skip label restore.
  if (!Plan.SkipBranch.empty())
    Branch(Pre, Plan.SkipBranch);
  if (Plan.Guard) {
    if (Pred) {
      Inst(Pre, "s_bitcmp1_b32", {Reg(*Pred), Zero});
      Branch(Pre, "s_cbranch_scc0");
    } else {
      for (const ScopeDimCheck &Check : Ctx.Checks) {
        Add(Pre, dimensionBit(Check, Reg(*Plan.Temp)));
        Inst(Pre, "s_bitcmp1_b32", {Reg(*Plan.Temp), Zero});
        Branch(Pre, "s_cbranch_scc0");
      }
    }
    // Both ways to the skip label, markers run or skipped, pass the
    // restore before anything after the group reads SCC.
    if (Plan.SaveScc)
      Inst(Post, "s_cmp_lg_u32", {Reg(*Plan.SaveScc), Zero});
    ++St.Guards;
    St.SccSaves += Plan.SaveScc.has_value();
  }
  auto ViaM0 = [&](const Op &Value) {
    Inst(Body, "s_mov_b32", {M0, Value});
    if (Nop)
      Inst(Body, "s_nop", {Zero});
    Inst(Body, "s_ttracedata", {});
  };
  // A packed header: the clock window in the top ShaderClockBits bits.
  const unsigned Bits = Ctx.Config.ShaderClockBits, Shift = Ctx.Config.ShaderClockShift;
  auto Packed = [&](uint32_t Value) {
    const Op &T = Reg(*Plan.Clock);
    const ShaderClock &Clock = Ctx.HW.shaderClock();
    if (Clock.Kind == ShaderClockKind::GetShaderCyclesU64) {
      std::optional<unsigned> Idx = TI.indexOf(*Plan.Clock);
      St.SGPRHighWater = std::max(St.SGPRHighWater, *Idx + 2);
      Inst(Body, "s_get_shader_cycles_u64", {Op::sgpr(*Idx, 2)});
      Inst(Body, "s_bfe_u32", {T, T, Hex((Bits << 16) | Shift)});
    } else {
      Inst(Body, "s_getreg_b32", {T, Op::hwreg(Clock.HwRegName, Shift, Bits)});
    }
    Inst(Body, "s_lshl_b32", {T, T, Op::imm(32 - Bits)});
    Inst(Body, "s_or_b32", {M0, T, Hex(Value)});
    if (Nop)
      Inst(Body, "s_nop", {Zero});
    Inst(Body, "s_ttracedata", {});
  };
  // Packing clobbers SCC: without a guard to save it around, save it here.
  const bool SccInBody = Plan.SaveScc && !Plan.Guard;
  if (SccInBody) {
    Inst(Body, "s_cselect_b32", {Reg(*Plan.SaveScc), Op::imm(1), Zero});
    ++St.SccSaves;
  }
  bool SavedM0 = false;
  for (unsigned Idx : Plan.Emit) {
    const MarkerSite &S = Sites[Idx];
    if (needsM0(S) && Plan.SaveM0 && !SavedM0) {
      Inst(Body, "s_mov_b32", {Reg(*Plan.SaveM0), M0});
      SavedM0 = true;
      ++St.M0Saves;
    }
    uint32_t V = markerValue(S, Ctx.Ids);
    if (usesImmediate(S)) {
      Inst(Body, "s_ttracedata_imm", {Hex(V)});
      ++St.Immediate;
    } else if (Bits != 0) {
      Packed(V);
      ++St.ViaM0;
    } else {
      ViaM0(Hex(V));
      ++St.ViaM0;
    }
    if (S.Payload) {
      ViaM0(*S.Payload);
      ++St.Payloads;
    }
    if (S.Trace) {
      TracedOperation Traced = *S.Trace;
      // M0 was saved before the header: read the operation's M0 there.
      for (std::string *Src : Traced.scalarSources())
        if (*Src == "m0" && Plan.SaveM0)
          *Src = TI.asmName(*Plan.SaveM0);
      TraceRegisters Regs{Reg(*Plan.TraceCounter), {}};
      for (MCRegister R : Plan.TraceTemps)
        Regs.Temps.push_back(Reg(R));
      TraceTarget Target{traceWaveSize(TI), Nop, Ctx.HW.saluSgprReadWait().str()};
      for (TraceStatement &T : addressTraceCode(Traced, Regs, Target))
        Body.push_back({std::move(T.Spec), T.K == TraceStatement::Kind::LoopBack, T.K});
      St.TraceRecords += Traced.extraPayloadCount(Target.WaveSize);
    }
    switch (S.Kind) {
    case SiteKind::FunctionEntry:
      ++St.Entry;
      break;
    case SiteKind::FunctionExit:
      ++St.Exit;
      break;
    case SiteKind::User:
      ++St.User;
      break;
    case SiteKind::Barrier:
      ++St.Barrier;
      break;
    case SiteKind::Memory:
      ++St.Memory;
      break;
    case SiteKind::AddressTrace:
      ++St.AddressTraces;
      break;
    }
  }
  if (SavedM0) {
    Inst(Body, "s_mov_b32", {M0, Reg(*Plan.SaveM0)});
    if (Nop)
      Inst(Body, "s_nop", {Zero}); // the restored M0 may feed an M0 reader next
  }
  if (SccInBody)
    Inst(Body, "s_cmp_lg_u32", {Reg(*Plan.SaveScc), Zero});
  Add(Plan.Guard || !Plan.SkipBranch.empty() ? Post : Body,
      sgprSpillRestores(Plan.Spills, TI));
  // After a branch the state is the program's again for llvm-objdump too.
  bool Branches = Plan.Guard || !Plan.SkipBranch.empty() ||
                  llvm::any_of(Body, [](const Statement &S) {
                    return S.Loop == TraceStatement::Kind::LoopBack;
                  });
  if (Branches && Plan.VgprMsb.value_or(0) != 0)
    Inst(Post, "s_set_vgpr_msb",
         {Hex(uint32_t(
             vgprmsb::immediateFor(Ctx.HW.vgprMsbMode(), *Plan.VgprMsb, *Plan.VgprMsb)))});
  St.Added = Pre.size() + Body.size() + Post.size() -
             llvm::count_if(Body, [](const Statement &S) {
               return S.Loop == TraceStatement::Kind::LoopHead;
             });
  return C;
}

Expected<uint64_t> FunctionEmitter::bytes(const GroupCode &C) {
  uint64_t N = 0;
  for (const std::vector<Statement> *Part : {&C.Pre, &C.Body, &C.Post})
    for (const Statement &S : *Part) {
      if (S.Loop == TraceStatement::Kind::LoopHead)
        continue;
      Expected<unsigned> B = S.SkipBranch ? Ctx.Factory.branchSize(S.Spec.Mnemonic)
                                          : Ctx.Factory.encodedSize(S.Spec);
      if (!B)
        return B.takeError();
      N += *B;
    }
  return N;
}

Error FunctionEmitter::emitGroup(const Group &G, const GroupPlan &Plan, bool WithPredicate,
                                 std::optional<GroupCode> Code) {
  GroupCode C = Code ? std::move(*Code) : code(Plan, WithPredicate);
  // Address-trace loops split the markers' code into blocks: a loop body
  // starts a labelled block and ends with its branch back; the code after
  // a loop starts an unlabelled one.
  struct Segment {
    std::string Label;
    std::vector<Statement> Code;
  };
  std::vector<Segment> Segments(1);
  size_t Loops = 0;
  // Without trace loops the body is one segment: taken whole, not copied
  // statement by statement.
  if (Plan.LoopLabels.empty()) {
    Segments.front().Code = std::move(C.Body);
  } else {
    for (Statement &S : C.Body) {
      if (S.Loop == TraceStatement::Kind::LoopHead) {
        Segments.push_back({Plan.LoopLabels[Loops++], {}});
        continue;
      }
      bool Back = S.Loop == TraceStatement::Kind::LoopBack;
      Segments.back().Code.push_back(std::move(S));
      if (Back)
        Segments.push_back({});
    }
  }
  if (Segments.size() > 1 && Segments.back().Code.empty())
    Segments.pop_back();
  std::vector<std::vector<Instruction>> Made;
  for (const Segment &S : Segments) {
    Expected<std::vector<Instruction>> I = make(S.Code, Plan.Label, S.Label);
    if (!I)
      return I.takeError();
    Made.push_back(std::move(*I));
  }
  Expected<std::vector<Instruction>> PreI = make(C.Pre, Plan.Label),
                                   PostI = make(C.Post, Plan.Label);
  if (!PreI)
    return PreI.takeError();
  if (!PostI)
    return PostI.takeError();
  Stats += C.Stats;

  // Where the group goes: before G.P.Before, or at the end of its block.
  // Groups are emitted last to first, so everything before the point is
  // still where the plan saw it. Before an instruction means in front of the
  // directives before it, where BranchLayout measured the slot. The code for
  // a marker pseudo-instruction goes right after it instead: erasing the
  // pseudo-instruction (eraseUserMarkers) then hands its comments to the
  // code that replaces it.
  BasicBlock *BB = G.P.block();
  BasicBlock::const_item_iterator Pos = BB->items().end();
  if (G.P.Before && G.P.Before->kind() == InstKind::Pseudo)
    Pos = std::next(BasicBlock::const_item_iterator(*G.P.Before));
  else if (G.P.Before)
    Pos = BB->directivesBefore(*G.P.Before);
  auto Insert = [&](BasicBlock &Into, BasicBlock::const_item_iterator At,
                    std::vector<Instruction> &New) {
    for (Instruction &I : New)
      Ctx.Inserted.insert(&Into.insert(At, std::move(I)));
  };

  // The blocks of the trace loops and what follows them, before \p Next.
  auto InsertLoops = [&](BasicBlock &Next) {
    for (size_t K = 1; K < Segments.size(); ++K) {
      BasicBlock &Seg = F.insertBlock(Next.getIterator(), Segments[K].Label);
      Ctx.InsertedBlocks.insert(&Seg);
      Insert(Seg, Seg.items().end(), Made[K]);
    }
  };
  if (Plan.Label.empty() && Segments.size() == 1) {
    Insert(*BB, Pos, *PreI);
    Insert(*BB, Pos, Made[0]);
  } else if (Plan.Label.empty()) {
    // BB: ... markers -> loops -> rest of BB.
    BasicBlock &Rest = F.splitBlock(*BB, Pos);
    Insert(*BB, BB->items().end(), *PreI);
    Insert(*BB, BB->items().end(), Made[0]);
    InsertLoops(Rest);
    Insert(Rest, Rest.items().begin(), *PostI);
  } else {
    // BB: ... guard -> [markers, loops] -> .Lsqtt_skip_N: restore, rest of BB.
    BasicBlock &Skip = F.splitBlock(*BB, Pos, Plan.Label);
    BasicBlock &Mark = F.insertBlock(Skip.getIterator(), "");
    Ctx.InsertedBlocks.insert(&Skip);
    Ctx.InsertedBlocks.insert(&Mark);
    Insert(*BB, BB->items().end(), *PreI);
    Insert(Mark, Mark.items().end(), Made[0]);
    InsertLoops(Skip);
    Insert(Skip, Skip.items().begin(), *PostI);
  }
  return Error::success();
}

bool FunctionEmitter::refuse(unsigned S, const std::string &Why, DenseSet<unsigned> &Forced,
                             std::vector<std::pair<unsigned, std::string>> &Warnings) {
  if (!Sites[S].AllOrNothing) {
    if (!Forced.insert(S).second)
      return false;
    Warnings.emplace_back(S, Why);
    return true;
  }
  bool New = false;
  for (unsigned K = 0; K < Sites.size(); ++K)
    if (Sites[K].AllOrNothing && Sites[K].Handle == Sites[S].Handle)
      New |= Forced.insert(K).second;
  if (New)
    warn(Sites[S], Why + (Sites[S].Kind == SiteKind::User
                              ? "; none of the loop's markers is inserted"
                              : "; none of the function's entry and exit markers is inserted"));
  return New;
}

Expected<std::vector<GroupPlan>> FunctionEmitter::planAll() {
  DenseSet<unsigned> Forced;
  std::vector<std::pair<unsigned, std::string>> Refusals, RangeRefusals;
  std::vector<GroupPlan> Plans;
  std::optional<BranchLayout> Layout;
  for (;;) {
    Refusals.clear();
    Plans.clear();
    Measured.assign(Groups.size(), std::nullopt);
    for (const Group &G : Groups)
      Plans.push_back(plan(G, Forced, Refusals));
    // A refused site of an all-or-nothing set (a function's entry and
    // exits) takes the whole set with it; then plan again.
    bool Replan = false;
    for (auto &[S, Why] : Refusals)
      if (Sites[S].AllOrNothing)
        Replan |= refuse(S, Why, Forced, RangeRefusals);
    if (Replan)
      continue;

    // The bytes each insertion point gets, and the branches they would
    // push out of range.
    if (!Layout)
      Layout.emplace(F, Ctx.Factory.sizes());
    if (!Layout->hasBranches())
      break; // nothing to measure the groups against
    bool AnyGuard = llvm::any_of(Plans, [](const GroupPlan &P) { return P.Guard; });
    std::vector<uint64_t> Inserted(Layout->numSlots(), 0), GroupBytes(Groups.size(), 0);
    std::vector<std::optional<unsigned>> SlotOf(Groups.size());
    bool PredicateAtGroup = false;
    for (size_t K = 0; K < Groups.size(); ++K) {
      bool WithPredicate = AnyGuard && atEntry(Groups[K]);
      PredicateAtGroup |= WithPredicate;
      if (Plans[K].Emit.empty() && !WithPredicate)
        continue;
      Measured[K] = code(Plans[K], WithPredicate);
      Expected<uint64_t> B = bytes(*Measured[K]);
      if (!B)
        return B.takeError();
      GroupBytes[K] = *B;
      SlotOf[K] = Layout->slot(Groups[K].P);
      if (SlotOf[K])
        Inserted[*SlotOf[K]] += *B;
    }
    if (AnyGuard && Pred && !PredicateAtGroup)
      if (std::optional<unsigned> Slot = Layout->slot(EntryPoint)) {
        Expected<uint64_t> B = bytes(code(GroupPlan(), /*WithPredicate=*/true));
        if (!B)
          return B.takeError();
        Inserted[*Slot] += *B;
      }
    std::vector<BranchLayout::OutOfRange> Far = Layout->check(Inserted);
    // The pass turns a branch that can become a long branch into one once
    // the markers are in: nothing is refused for it.
    size_t Before = Far.size();
    std::erase_if(Far, [&](const BranchLayout::OutOfRange &R) { return relaxable(R); });
    Stats.BranchesToRelax = unsigned(Before - Far.size());
    if (Far.empty())
      break;

    // Refuse the biggest groups between each branch and its target until
    // enough bytes are gone.
    bool Progress = false;
    for (const BranchLayout::OutOfRange &R : Far) {
      std::vector<size_t> Between;
      for (size_t K = 0; K < Groups.size(); ++K)
        if (SlotOf[K] && *SlotOf[K] >= R.FirstSlot && *SlotOf[K] <= R.LastSlot &&
            !Plans[K].Emit.empty())
          Between.push_back(K);
      stableSort(Between, [&](size_t A, size_t B) { return GroupBytes[A] > GroupBytes[B]; });
      uint64_t Removed = 0;
      for (size_t K : Between) {
        if (Removed >= R.Excess)
          break;
        for (unsigned S : Plans[K].Emit)
          Progress |= refuse(S, describe(R), Forced, RangeRefusals);
        Removed += GroupBytes[K];
      }
    }
    if (Progress)
      continue;
    // Only the scope predicate at the function's entry is left between:
    // check each site on its own instead.
    if (Pred) {
      Pred.reset();
      PredTemp.reset();
      continue;
    }
    const BranchLayout::OutOfRange &R = Far.front();
    return createStringError(inconvertibleErrorCode(),
                             renderDiagnostic(F.parent()->fileName(),
                                              R.Branch->location().Line,
                                              R.Branch->location().Column,
                                              R.Branch->sourceText().rtrim("\r\n"),
                                              SourceMgr::DK_Error,
                                              "SQTT instrumentation: " + describe(R)));
  }
  for (auto &[S, Why] : RangeRefusals)
    warn(Sites[S], Why);
  for (auto &[S, Why] : Refusals)
    if (!Sites[S].AllOrNothing)
      warn(Sites[S], Why);
  return Plans;
}

Expected<EmitStats> FunctionEmitter::run() {
  buildGroups();
  decidePredicate();
  Expected<std::vector<GroupPlan>> PlansOrErr = planAll();
  if (!PlansOrErr)
    return PlansOrErr.takeError();
  std::vector<GroupPlan> &Plans = *PlansOrErr;
  size_t Emitted = 0;
  for (const GroupPlan &P : Plans)
    Emitted += P.Emit.size();
  Stats.Refused = Sites.size() - Emitted;

  // Skip labels numbered in layout order.
  for (GroupPlan &P : Plans)
    if (P.Guard || !P.SkipBranch.empty())
      P.Label = Ctx.newLabel();
  for (GroupPlan &P : Plans)
    for (unsigned S : P.Emit)
      if (Sites[S].Trace)
        for (unsigned L = 0; L < traceLoops(*Sites[S].Trace); ++L)
          P.LoopLabels.push_back(Ctx.newLabel(".Lsqtt_lanes_"));
  bool AnyGuard = llvm::any_of(Plans, [](const GroupPlan &P) { return P.Guard; });
  if (!AnyGuard)
    Pred.reset();
  Stats.CachedPredicate = Pred.has_value();
  // The predicate goes first at the function's start, also when no marker
  // is there.
  bool PredicateEmitted = !Pred;
  for (size_t K : emissionOrder()) {
    bool AtEntry = atEntry(Groups[K]);
    if (Plans[K].Emit.empty() && !AtEntry)
      continue;
    if (Error E = emitGroup(Groups[K], Plans[K], AtEntry, std::move(Measured[K])))
      return std::move(E);
    PredicateEmitted |= AtEntry;
  }
  if (!PredicateEmitted) {
    Group G{EntryPoint, 0, {}, {}, {}};
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
     << S.Barrier << ", memory " << S.Memory;
  // Address tracing is exclusive with memory markers; its counts only when on.
  if (S.AddressTraces)
    OS << ", address " << S.AddressTraces << " (" << S.TraceRecords << " records)";
  OS << "), immediate " << S.Immediate << ", m0 "
     << S.ViaM0 << ", payloads " << S.Payloads << ", m0 saves " << S.M0Saves
     << ", scope guards " << S.Guards << (S.CachedPredicate ? " (cached predicate)" : "")
     << ", scc saves " << S.SccSaves << ", sgpr spills " << S.SgprSpills << ", refused " << S.Refused << ", instructions added "
     << S.Added << "\n";
}

} // namespace stinkytofu::sqtt
