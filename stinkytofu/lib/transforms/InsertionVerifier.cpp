//===- InsertionVerifier.cpp - Inserted code changes nothing --------------===//
#include "stinkytofu/transforms/InsertionVerifier.h"
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/mc/InstructionFormatter.h"

using namespace llvm;

namespace stinkytofu {

InsertionSnapshot::InsertionSnapshot(const Module &M) {
  for (const Function &F : M.functions()) {
    std::vector<Entry> &S = Streams[&F];
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        S.push_back({&I, I.kind() == InstKind::Pseudo, I.isModified(), I.sourceText(),
                     I.isModified() ? instructionText(I) : std::string()});
  }
}

namespace {

/// The symbolic value of one register unit inside a run of inserted code.
using Value = uint64_t;
constexpr Value Clobbered = uint64_t(1) << 32;
constexpr Value SavedScc = uint64_t(2) << 32; ///< 0/1 copy of the original SCC
Value original(unsigned Unit) { return Unit; }
/// The state key of lane \p Lane of a VGPR whose unit is \p Unit, above
/// every register unit: a lane holds a value of its own, so an SGPR parked
/// there (v_writelane_b32) and read back (v_readlane_b32) is unchanged. A
/// lane's key lives from its write to its read, inside one run.
constexpr unsigned LaneKeys = 1u << 24;
unsigned laneKey(unsigned Unit, unsigned Lane) { return LaneKeys + Unit * 64 + Lane; }

/// The keys a run has changed and their values. A run touches a handful
/// of keys: a flat vector searched in order holds them without the
/// allocations of a hash map, which every run, branch and merge made.
class FlatState {
public:
  using Entry = std::pair<unsigned, Value>;
  Entry *begin() { return Entries.begin(); }
  Entry *end() { return Entries.end(); }
  const Entry *begin() const { return Entries.begin(); }
  const Entry *end() const { return Entries.end(); }
  Entry *find(unsigned Key) {
    return llvm::find_if(Entries, [&](const Entry &E) { return E.first == Key; });
  }
  const Entry *find(unsigned Key) const {
    return llvm::find_if(Entries, [&](const Entry &E) { return E.first == Key; });
  }
  bool contains(unsigned Key) const { return find(Key) != end(); }
  /// The value of \p Key, a new entry holding 0 when it has none.
  Value &operator[](unsigned Key) {
    if (Entry *E = find(Key); E != end())
      return E->second;
    return Entries.emplace_back(Key, 0).second;
  }
  void erase(unsigned Key) {
    if (Entry *E = find(Key); E != end())
      Entries.erase(E);
  }
  void clear() { Entries.clear(); }

private:
  SmallVector<Entry, 16> Entries;
};

class RunChecker {
public:
  RunChecker(const RegisterUnits &RU) : RU(RU) {
    SCC = RU.byName("SCC");
  }

  using State = FlatState;

  Value get(const State &S, unsigned U) const {
    auto It = S.find(U);
    return It == S.end() ? original(U) : It->second;
  }

  /// One inserted instruction.
  void step(const Instruction &I, State &S) const {
    const InstrFacts &F = I.facts();
    StringRef Mn = I.mnemonic();
    auto UnitsOf = [&](MCRegister R) { return RU.units(R); };
    // Copies between 32-bit registers keep the value.
    if (Mn == "s_mov_b32" && F.Defs.size() == 1 && F.Uses.size() == 1) {
      auto D = UnitsOf(F.Defs[0]), U = UnitsOf(F.Uses[0]);
      if (D.size() == U.size()) {
        SmallVector<Value, 4> Vals;
        for (unsigned K = 0; K < U.size(); ++K)
          Vals.push_back(get(S, U[K]));
        for (unsigned K = 0; K < D.size(); ++K)
          S[D[K]] = Vals[K];
        return;
      }
    }
    if (stepLaneCopy(I, S))
      return;
    if (Mn == "s_cselect_b32" && F.Defs.size() == 1 && I.numOperands() == 3 &&
        I.operand(1).spelling() == "1" && I.operand(2).spelling() == "0" && SCC.isValid()) {
      bool SccOriginal = true;
      for (unsigned U : UnitsOf(SCC))
        SccOriginal &= get(S, U) == original(U);
      for (unsigned U : UnitsOf(F.Defs[0]))
        S[U] = SccOriginal ? SavedScc : Clobbered;
      return;
    }
    if (Mn == "s_cmp_lg_u32" && I.numOperands() == 2 && I.operand(1).spelling() == "0" &&
        F.Uses.size() == 1 && SCC.isValid()) {
      bool Saved = true;
      for (unsigned U : UnitsOf(F.Uses[0]))
        Saved &= get(S, U) == SavedScc;
      for (unsigned U : UnitsOf(SCC))
        S[U] = Saved ? original(U) : Clobbered;
      return;
    }
    for (MCRegister R : F.Defs)
      for (unsigned U : UnitsOf(R))
        clobber(S, U);
  }

  /// `v_writelane_b32 vD, sX, <lane>` and `v_readlane_b32 sX, vD, <lane>`
  /// with a constant lane: the value moves between sX and that lane of vD.
  bool stepLaneCopy(const Instruction &I, State &S) const {
    StringRef Mn = I.mnemonic();
    bool Write = Mn == "v_writelane_b32";
    if ((!Write && Mn != "v_readlane_b32") || I.numOperands() != 3)
      return false;
    unsigned Lane;
    if (I.operand(2).spelling().getAsInteger(0, Lane) || Lane >= 64)
      return false;
    const InstrFacts &F = I.facts();
    if (F.Defs.size() != 1)
      return false;
    // The source is the use of the other register file (EXEC and the tied
    // VGPR of v_writelane are uses too).
    const TargetInfo &TI = RU.target();
    MCRegister Vgpr = Write ? F.Defs[0] : MCRegister();
    MCRegister Sgpr = Write ? MCRegister() : F.Defs[0];
    for (MCRegister R : F.Uses)
      if (TI.classOf(R) == (Write ? RegClass::SGPR : RegClass::VGPR))
        (Write ? Sgpr : Vgpr) = R;
    if (!Vgpr.isValid() || !Sgpr.isValid())
      return false;
    // Unit K of the SGPR (its 16-bit halves) goes to unit K of the lane.
    auto V = RU.units(Vgpr), Sg = RU.units(Sgpr);
    if (V.size() != Sg.size())
      return false;
    for (unsigned K = 0; K < V.size(); ++K) {
      unsigned Key = laneKey(V[K], Lane);
      if (Write) {
        // The register changes in one lane: its other lanes, and the
        // values parked there, stay.
        S[Key] = get(S, Sg[K]);
        S[V[K]] = Clobbered;
      } else {
        S[Sg[K]] = get(S, Key);
        S.erase(Key);
      }
    }
    return true;
  }

  /// \p Unit no longer holds what it held, nor do its lanes.
  static void clobber(State &S, unsigned Unit) {
    S[Unit] = Clobbered;
    // A run holds a few keys: one walk over them beats 64 lookups.
    for (auto &[Key, V] : S)
      if (Key >= laneKey(Unit, 0) && Key <= laneKey(Unit, 63))
        V = Clobbered;
  }

  static bool equal(const State &A, const State &B, const RunChecker &C) {
    for (const State *X : {&A, &B})
      for (auto &[U, V] : *X)
        if (C.get(A, U) != C.get(B, U))
          return false;
    return true;
  }

  static void merge(State &Into, const State &From, const RunChecker &C) {
    // Units only Into names hold their original value in From.
    for (auto &[U, V] : Into)
      if (!From.contains(U) && V != original(U))
        V = Clobbered;
    for (auto &[U, B] : From) {
      Value A = C.get(Into, U);
      Into[U] = A == B ? A : Clobbered;
    }
  }

  const RegisterUnits &RU;
  MCRegister SCC;
};

} // namespace

Error InsertionSnapshot::verify(
    const Module &M, const DenseSet<const Instruction *> &Inserted,
    const DenseSet<const BasicBlock *> &InsertedBlocks,
    const DenseMap<const Function *, const Liveness *> &Live,
    const DenseMap<const Function *, const BitVector *> *LanesAfterReturn) const {
  std::string Problems;
  auto Problem = [&](const Twine &T) { Problems += ("  " + T + "\n").str(); };

  for (const Function &F : M.functions()) {
    // 1. The original stream comes back.
    auto SIt = Streams.find(&F);
    if (SIt == Streams.end()) {
      Problem("function '" + F.name() + "' was not in the input");
      continue;
    }
    std::vector<const Entry *> Expected;
    for (const Entry &E : SIt->second)
      if (!E.Pseudo)
        Expected.push_back(&E);
    size_t K = 0;
    bool StreamOk = true;
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions()) {
        if (Inserted.contains(&I) || !StreamOk)
          continue;
        // An unmodified instruction's text is its source, no copy needed.
        if (K >= Expected.size() || Expected[K]->I != &I ||
            (I.isModified() ? Expected[K]->text() != instructionText(I)
                            : Expected[K]->text() != I.sourceText())) {
          Problem("function '" + F.name() + "': without the inserted instructions, '" +
                  StringRef(instructionText(I)).trim() + "' is not the original instruction " +
                  Twine(K + 1));
          StreamOk = false;
          continue;
        }
        ++K;
      }
    if (StreamOk && K != Expected.size())
      Problem("function '" + F.name() + "': " + Twine(Expected.size() - K) +
              " original instructions are missing");

    // 2. Every run of inserted code leaves live registers alone.
    auto LIt = Live.find(&F);
    if (LIt == Live.end())
      continue;
    const Liveness &L = *LIt->second;
    RunChecker C(L.units());
    RunChecker::State S;
    // A run has a label or two: small vectors, searched in order, beat maps
    // built and torn down for every run.
    SmallVector<std::pair<std::string, RunChecker::State>, 2> Pending; // skip label -> state
    auto Find = [](auto &Labeled, StringRef Label) {
      return llvm::find_if(Labeled, [&](const auto &E) { return StringRef(E.first) == Label; });
    };
    // The run's inserted instructions so far, and its loop heads (inserted
    // labels already passed): where each starts in Run, the state there.
    std::vector<const Instruction *> Run;
    SmallVector<std::pair<std::string, std::pair<size_t, RunChecker::State>>, 2> Heads;
    // The vector registers the run writes: a lane write ignores EXEC, a
    // VALU write leaves the inactive lanes, so the check is "no lane of it
    // is read again" (LaneLiveness), whatever the symbolic state says.
    SmallVector<MCRegister, 2> VectorWrites;
    const TargetInfo &TI = L.units().target();
    auto Step = [&](const Instruction &I, RunChecker::State &St) {
      for (MCRegister R : I.facts().Defs)
        if (RegClass K = TI.classOf(R);
            (K == RegClass::VGPR || K == RegClass::AGPR) && !is_contained(VectorWrites, R))
          VectorWrites.push_back(R);
      if (!isConditionalBranch(I)) {
        C.step(I, St);
        return;
      }
      std::string Label = getBranchTarget(I);
      if (auto P = Find(Pending, Label); P != Pending.end())
        RunChecker::merge(P->second, St, C);
      else
        Pending.emplace_back(std::move(Label), St);
    };
    bool InRun = false;
    const Instruction *Prev = nullptr; // last original instruction
    bool LabelSincePrev = false;       // an original label since Prev
    bool LabelSinceRun = false;        // an original label since the run ended
    struct OpenRun {
      RunChecker::State S;
      const Instruction *Prev;
      bool AfterLabel;
      SmallVector<MCRegister, 2> VectorWrites;
      const BasicBlock *End; ///< the block of the run's last instruction
    };
    std::optional<OpenRun> Ended; // a run waiting for the next original instruction
    std::optional<LaneLiveness> Lanes; // made for the first vector write
    const BasicBlock *RunBlock = nullptr;
    const BasicBlock *Block = nullptr; // the block being walked
    auto EndRun = [&]() {
      Ended = OpenRun{S, Prev, LabelSincePrev, std::move(VectorWrites), RunBlock};
      VectorWrites.clear();
    };
    auto Where = [](const Instruction *Next) {
      return Next ? ("before '" + StringRef(instructionText(*Next)).trim() + "'").str()
                  : std::string("at the end");
    };
    auto Close = [&](const Instruction *Next) {
      if (!Ended)
        return;
      const BitVector *LiveSet;
      if (Next && !LabelSinceRun)
        LiveSet = &L.liveBefore(*Next);
      else if (Ended->Prev && !Ended->AfterLabel)
        LiveSet = &L.liveAfter(*Ended->Prev);
      else if (Next)
        LiveSet = &L.liveBefore(*Next);
      else
        LiveSet = nullptr;
      for (auto &[U, V] : Ended->S) {
        // A lane key is no register: its VGPR's own unit stands for it.
        if (V == original(U) || U >= LaneKeys)
          continue;
        if (!LiveSet || LiveSet->test(U)) {
          Problem("function '" + F.name() + "': inserted code " + Where(Next) +
                  " changes register unit " + Twine(U) + " (" +
                  L.units().describe([&] {
                    BitVector B = L.units().none();
                    B.set(U);
                    return B;
                  }()) +
                  "), which the original program may still read");
        }
      }
      if (!Ended->VectorWrites.empty()) {
        if (!Lanes)
          Lanes.emplace(L, LanesAfterReturn ? LanesAfterReturn->lookup(&F) : nullptr,
                        &Inserted);
        // Next follows the run in its block, or the run ended its block.
        BitVector LaneLive = Next && Block == Ended->End ? Lanes->liveBefore(*Next)
                                                         : Lanes->liveAtEnd(*Ended->End);
        for (MCRegister R : Ended->VectorWrites)
          if (L.units().any(LaneLive, R))
            Problem("function '" + F.name() + "': inserted code " + Where(Next) + " writes " +
                    TI.asmName(R) + ", a lane of which the original program may still read");
      }
      Ended.reset();
    };
    for (const BasicBlock &BB : F.blocks()) {
      Block = &BB;
      bool InsertedBlock = InsertedBlocks.contains(&BB);
      if (BB.hasLabel() && !InsertedBlock) {
        // No run spans an original label: one that is open ended here, at
        // the end of the previous block.
        if (InRun) {
          EndRun();
          InRun = false;
        }
        LabelSincePrev = true;
        LabelSinceRun = true;
      }
      if (InsertedBlock && BB.hasLabel()) {
        auto P = Find(Pending, BB.label());
        if (P != Pending.end()) {
          RunChecker::merge(S, P->second, C);
          Pending.erase(P);
        }
        if (InRun) {
          if (auto H = Find(Heads, BB.label()); H != Heads.end())
            H->second = {Run.size(), S};
          else
            Heads.emplace_back(BB.label().str(), std::make_pair(Run.size(), S));
        }
      }
      for (const Instruction &I : BB.instructions()) {
        if (!Inserted.contains(&I)) {
          if (InRun) {
            EndRun();
            LabelSinceRun = false;
            InRun = false;
          }
          Close(&I);
          Prev = &I;
          LabelSincePrev = false;
          continue;
        }
        if (!InRun) {
          Close(nullptr);
          InRun = true;
          S.clear();
          Run.clear();
          Heads.clear();
        }
        if (isConditionalBranch(I)) {
          auto H = Find(Heads, getBranchTarget(I));
          if (H != Heads.end()) {
            // A loop of inserted code: the state at its head is the join of
            // the entry and every back edge; iterate until it is stable.
            auto &[Start, Head] = H->second;
            for (;;) {
              RunChecker::State Joined = Head;
              RunChecker::merge(Joined, S, C);
              if (RunChecker::equal(Joined, Head, C))
                break;
              Head = Joined;
              S = Head;
              for (size_t K = Start; K < Run.size(); ++K)
                Step(*Run[K], S);
            }
            Run.push_back(&I);
            RunBlock = &BB;
            continue;
          }
        }
        Run.push_back(&I);
        Step(I, S);
        RunBlock = &BB;
      }
    }
    if (InRun)
      EndRun();
    Close(nullptr);
    for (auto &P : Pending)
      Problem("function '" + F.name() + "': inserted branch to '" + P.first +
              "' leaves its run of inserted code");
  }
  if (Problems.empty())
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "the insertion verifier failed:\n" + StringRef(Problems).rtrim());
}

} // namespace stinkytofu
