//===- RegisterWebs.cpp - The values a function keeps in registers --------===//
#include "stinkytofu/analysis/RegisterWebs.h"

#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/RenamingFacts.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Registers per file the flow tracks (gfx1250 has 1024 VGPRs).
constexpr std::array<unsigned, NumPressureFiles> FileSize = {1024, 256, 128};

std::optional<PressureFile> pressureFileOf(RegFile F) {
  switch (F) {
  case RegFile::VGPR:
    return PressureFile::VGPR;
  case RegFile::AGPR:
    return PressureFile::AGPR;
  case RegFile::SGPR:
    return PressureFile::SGPR;
  default:
    return std::nullopt;
  }
}

/// One register of a lifted file an instruction names through a written
/// operand.
struct Access {
  unsigned Slot;
  unsigned Operand, Component;
  bool Def;
  /// A def that keeps part of the old value (tied, a 16-bit half).
  bool Keeps;
};

struct WebInstInfo {
  Instruction *Inst = nullptr;
  unsigned Pos = 0;
  bool Irregular = false;
  SmallVector<Access, 8> Accesses;
  /// Irregular: the lifted registers it may read and write, and those a
  /// call's convention passes that its callee does not read.
  SmallVector<unsigned, 8> Reads, Writes, ConventionReads;
  /// The VGPRs and AGPRs it writes under EXEC whose other lanes are read
  /// later: the write keeps their old value there.
  SmallVector<unsigned, 4> KeptLanes;
  /// Its writes land later (a load): a register it writes whose value is
  /// never read must still not be written by another value before the load
  /// completes, which liveness does not see.
  bool Asynchronous = false;
  /// Its tuple operands: the first access and the count.
  SmallVector<std::pair<unsigned, unsigned>, 4> Tuples;
};

} // namespace

class RegisterWebs::Builder {
public:
  Builder(Function &F, const Liveness &L, const LaneLiveness &LL, WebFiles Files)
      : F(F), L(L), LL(LL), TI(F.parent()->target()), Map(L.units()), Files(Files) {
    for (const char *Name : {"DPP", "SDWA"})
      if (std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name))
        PartialWriteFlags |= uint64_t(1) << *Bit;
    unsigned Next = 0;
    for (unsigned File = 0; File != NumPressureFiles; ++File) {
      Base[File] = Next;
      Next += FileSize[File];
    }
    NumSlots = Next;
  }

  Expected<RegisterWebs> run() {
    if (Error E = describeInstructions())
      return std::move(E);
    solve();
    return collect();
  }

private:
  unsigned slot(PressureFile File, unsigned Reg) const { return Base[unsigned(File)] + Reg; }
  PressureFile fileOf(unsigned Slot) const {
    unsigned File = NumPressureFiles - 1;
    while (Slot < Base[File])
      --File;
    return PressureFile(File);
  }
  bool lifted(PressureFile File) const { return Files[unsigned(File)]; }

  /// The lifted slots of a unit set (Liveness, LaneLiveness).
  void slotsOf(const BitVector &Units, SmallVectorImpl<unsigned> &Out, bool VectorOnly) const {
    for (unsigned File = 0; File != NumPressureFiles; ++File) {
      PressureFile PF = PressureFile(File);
      if (!lifted(PF) || (VectorOnly && PF == PressureFile::SGPR))
        continue;
      unsigned Last = ~0u;
      Map.forEachRegisterUnit(Units, PF, [&](unsigned Index) {
        if (Index != Last && Index < FileSize[File])
          Out.push_back(slot(PF, Index));
        Last = Index;
      });
    }
  }

  Error describeInstructions() {
    std::optional<VgprMsbCodec> Codec;
    if (TI.hardware().hasHighVgprs())
      Codec.emplace(TI);
    unsigned Pos = 0;
    for (BasicBlock &BB : F.blocks()) {
      BlockIndex[&BB] = Blocks.size();
      Blocks.push_back(&BB);
      for (Instruction &I : BB.instructions()) {
        bool SetsVgprMsb = Codec && Codec->setVgprMsbOpcode() && I.mcInsts().size() == 1 &&
                           I.mcInsts()[0].getOpcode() == Codec->setVgprMsbOpcode();
        if (indexesRegistersAtRunTime(I.mnemonic()) || SetsVgprMsb)
          return createStringError(inconvertibleErrorCode(),
                                   "'" + I.mnemonic().str() + "' (line " +
                                       std::to_string(I.location().Line) +
                                       (SetsVgprMsb ? ") changes which VGPRs operands name"
                                                    : ") names registers at a run-time index"));
        if (I.hasStaleMC())
          return createStringError(inconvertibleErrorCode(),
                                   "line " + std::to_string(I.location().Line) +
                                       " has no MC instruction");
        Infos.push_back(describe(I, Pos++));
      }
    }
    return Error::success();
  }

  WebInstInfo describe(Instruction &I, unsigned Pos) {
    WebInstInfo Info;
    Info.Inst = &I;
    Info.Pos = Pos;
    const InstrFacts &Facts = I.facts();
    Info.Asynchronous = Facts.has(IF_MayLoad);
    constexpr uint32_t ControlFlags = IF_Opaque | IF_Branch | IF_Call | IF_Return |
                                      IF_IndirectBranch | IF_ComputedTarget;
    // A conditional write, DPP and SDWA (masked rows and banks, preserved
    // bytes) keep part of the old value where MC shows a plain def, which
    // liveness then takes as the end of the old value: irregular, so their
    // registers stay where they are.
    bool Regular = I.kind() == InstKind::Machine && I.mcInsts().size() == 1 &&
                   !(Facts.Flags & ControlFlags) && !writesConditionally(I.mnemonic()) &&
                   !(TI.instrInfo().get(Facts.Opcode).TSFlags & PartialWriteFlags);
    if (Regular && (Regular = describeOperands(I, Info)))
      Regular = coversEffects(Facts, Info);
    if (Regular) {
      if (any_of(Info.Accesses, [&](const Access &A) {
            return A.Def && !A.Keeps && fileOf(A.Slot) != PressureFile::SGPR;
          })) {
        SmallVector<unsigned, 16> Other;
        slotsOf(LL.otherLanesLiveAfter(I), Other, true);
        for (const Access &A : Info.Accesses)
          if (A.Def && is_contained(Other, A.Slot))
            Info.KeptLanes.push_back(A.Slot);
      }
      return Info;
    }
    Info.Irregular = true;
    Info.Accesses.clear();
    Info.Tuples.clear();
    BitVector Reads = L.readsOf(I);
    slotsOf(Reads, Info.Reads, false);
    // A call's convention fixes its inputs (arguments, scratch resource,
    // stack pointer, return address) whatever its callee reads of them.
    if (Facts.has(IF_Call)) {
      BitVector Inputs = calleeInputUnits(L.units());
      Inputs.reset(Reads);
      slotsOf(Inputs, Info.ConventionReads, false);
    }
    slotsOf(L.writesOf(I), Info.Writes, false);
    return Info;
  }

  /// The accesses of \p I's written register operands; false when an
  /// operand names a lifted register MC does not show (a banked spelling).
  bool describeOperands(const Instruction &I, WebInstInfo &Info) {
    const MCInst &MI = I.mcInsts()[0];
    const MCInstrDesc &Desc = TI.instrInfo().get(MI.getOpcode());
    auto OperandMap = mapOperandsToMC(I, TI);
    for (unsigned K = 0; K != OperandMap.size(); ++K) {
      if (!OperandMap[K])
        continue;
      unsigned M = *OperandMap[K];
      const MCOperand &MO = MI.getOperand(M);
      if (!MO.isReg())
        continue;
      std::optional<RegisterRange> Range = registerRangeOf(MO.getReg(), TI);
      std::optional<PressureFile> File = Range ? pressureFileOf(Range->File) : std::nullopt;
      if (!File || !lifted(*File))
        continue;
      if (Range->First + Range->Count > FileSize[unsigned(*File)])
        return false;
      bool Def = M < Desc.getNumDefs();
      bool Keeps = false;
      if (Def) {
        Keeps = I.operand(K).half() != RegHalf::Full;
        for (unsigned U = Desc.getNumDefs(); U < Desc.getNumOperands(); ++U)
          Keeps |= Desc.getOperandConstraint(U, MCOI::TIED_TO) == int(M);
      }
      if (Range->Count > 1)
        Info.Tuples.push_back({unsigned(Info.Accesses.size()), Range->Count});
      for (unsigned J = 0; J != Range->Count; ++J)
        Info.Accesses.push_back({slot(*File, Range->First + J), K, J, Def, Keeps});
    }
    return true;
  }

  /// Whether every lifted register MC says \p Facts reads or writes is one
  /// of the written operands' (a tied source read through its def).
  bool coversEffects(const InstrFacts &Facts, const WebInstInfo &Info) const {
    auto Covered = [&](MCRegister R, bool AsDef) {
      std::optional<RegisterRange> Range = registerRangeOf(R, TI);
      std::optional<PressureFile> File = Range ? pressureFileOf(Range->File) : std::nullopt;
      if (!File || !lifted(*File))
        return true;
      for (unsigned J = 0; J != Range->Count; ++J) {
        unsigned S = slot(*File, Range->First + J);
        if (none_of(Info.Accesses, [&](const Access &A) {
              return A.Slot == S && (AsDef ? A.Def : (!A.Def || A.Keeps));
            }))
          return false;
      }
      return true;
    };
    return all_of(Facts.Defs, [&](MCRegister R) { return Covered(R, true); }) &&
           all_of(Facts.Uses, [&](MCRegister R) { return Covered(R, false); });
  }

  // --- The flow ---------------------------------------------------------
  unsigned find(unsigned N) {
    while (Parent[N] != N)
      N = Parent[N] = Parent[Parent[N]];
    return N;
  }
  int findOr(int N) { return N < 0 ? N : int(find(unsigned(N))); }
  unsigned newNode(unsigned Slot, unsigned Pos, bool Pinned, bool FromEntry) {
    Parent.push_back(Parent.size());
    Nodes.push_back({Slot, Pos, Pinned, FromEntry});
    return Parent.size() - 1;
  }
  void unite(unsigned A, unsigned B) {
    A = find(A), B = find(B);
    if (A != B)
      Parent[B] = A;
  }
  unsigned entryNode(unsigned Slot) {
    auto [It, New] = EntryNodes.try_emplace(Slot, 0);
    if (New)
      It->second = newNode(Slot, 0, true, true);
    return It->second;
  }
  unsigned defNode(unsigned Pos, unsigned Slot, bool Pinned) {
    auto [It, New] = DefNodes.try_emplace({Pos, Slot}, 0);
    if (New)
      It->second = newNode(Slot, Pos, Pinned, false);
    return It->second;
  }
  unsigned reaching(const std::vector<int> &State, unsigned Slot) {
    return State[Slot] < 0 ? entryNode(Slot) : find(unsigned(State[Slot]));
  }

  /// The live lifted slots before the first instruction of block \p B.
  const SmallVector<unsigned, 64> &liveIn(unsigned B) {
    auto [It, New] = LiveIns.try_emplace(B);
    if (New) {
      const BasicBlock &BB = *Blocks[B];
      slotsOf(L.liveIn(BB), It->second, false);
      if (!BB.instructions().empty())
        slotsOf(LL.liveBefore(*BB.instructions().begin()), It->second, true);
      else
        slotsOf(LL.liveAtEnd(BB), It->second, true);
    }
    return It->second;
  }

  std::vector<int> joinedIn(unsigned B) {
    std::vector<int> In(NumSlots, -1);
    const BasicBlock &BB = *Blocks[B];
    bool FromOutside = B == 0 || BB.predecessors().empty();
    for (unsigned S : liveIn(B)) {
      int Web = FromOutside ? int(entryNode(S)) : -1;
      for (const BasicBlock *P : BB.predecessors()) {
        auto PI = BlockIndex.find(P);
        if (PI == BlockIndex.end()) {
          unite(Web < 0 ? (Web = int(entryNode(S))) : unsigned(Web), entryNode(S));
          continue;
        }
        int From = findOr(Out[PI->second][S]);
        if (From < 0)
          continue;
        if (Web < 0)
          Web = From;
        else
          unite(unsigned(Web), unsigned(From));
      }
      In[S] = findOr(Web);
    }
    return In;
  }

  /// Steps \p State over the instruction; with \p Record, notes its
  /// occurrences.
  void step(const WebInstInfo &Info, std::vector<int> &State, bool Record) {
    if (Info.Irregular) {
      for (unsigned S : concat<const unsigned>(Info.Reads, Info.ConventionReads)) {
        unsigned W = reaching(State, S);
        Nodes[W].Pinned = true;
        if (Record)
          Occ[{Info.Inst, ~0u, S, false}] = W;
      }
      for (unsigned S : Info.Writes) {
        unsigned W = defNode(Info.Pos, S, true);
        State[S] = int(W);
        if (Record)
          Occ[{Info.Inst, ~0u, S, true}] = W;
      }
      return;
    }
    for (const Access &A : Info.Accesses)
      if (!A.Def && Record)
        Occ[{Info.Inst, A.Operand, A.Component, false}] = reaching(State, A.Slot);
    for (const Access &A : Info.Accesses) {
      if (!A.Def)
        continue;
      bool Keeps = A.Keeps || is_contained(Info.KeptLanes, A.Slot);
      unsigned W = Keeps ? reaching(State, A.Slot) : defNode(Info.Pos, A.Slot, false);
      State[A.Slot] = int(W);
      if (Record)
        Occ[{Info.Inst, A.Operand, A.Component, true}] = W;
    }
  }

  void solve() {
    Out.assign(Blocks.size(), std::vector<int>(NumSlots, -1));
    std::vector<std::vector<int>> In(Blocks.size());
    for (bool Changed = true; Changed;) {
      Changed = false;
      unsigned First = 0;
      for (unsigned B = 0; B != Blocks.size(); ++B) {
        std::vector<int> State = joinedIn(B);
        if (In[B].empty() || canonical(In[B]) != State)
          Changed = true;
        In[B] = State;
        unsigned N = Blocks[B]->instructions().empty() ? 0 : countInstructions(B);
        for (unsigned K = 0; K != N; ++K)
          step(Infos[First + K], State, false);
        First += N;
        if (canonical(Out[B]) != canonical(State))
          Changed = true;
        Out[B] = std::move(State);
      }
    }
  }
  std::vector<int> canonical(std::vector<int> V) {
    for (int &X : V)
      X = findOr(X);
    return V;
  }
  unsigned countInstructions(unsigned B) {
    auto [It, New] = Counts.try_emplace(B, 0);
    if (New)
      for ([[maybe_unused]] const Instruction &I : Blocks[B]->instructions())
        ++It->second;
    return It->second;
  }

  // --- The result ---------------------------------------------------------
  Expected<RegisterWebs> collect() {
    RegisterWebs R;
    // A final pass records the occurrences (no join unites anything new).
    {
      unsigned First = 0;
      for (unsigned B = 0; B != Blocks.size(); ++B) {
        std::vector<int> State = joinedIn(B);
        unsigned N = countInstructions(B);
        for (unsigned K = 0; K != N; ++K)
          step(Infos[First + K], State, true);
        First += N;
      }
    }
    // Dense webs.
    DenseMap<unsigned, unsigned> WebOf;
    for (unsigned N = 0; N != Nodes.size(); ++N) {
      unsigned Root = find(N);
      auto [It, New] = WebOf.try_emplace(Root, R.Webs.size());
      if (New) {
        Web W;
        W.File = fileOf(Nodes[Root].Slot);
        W.Reg = Nodes[Root].Slot - Base[unsigned(W.File)];
        W.FirstSeen = Nodes[N].Pos;
        R.Webs.push_back(W);
      }
      Web &W = R.Webs[It->second];
      W.Pinned |= Nodes[N].Pinned;
      W.FromEntry |= Nodes[N].FromEntry;
      W.FirstSeen = std::min(W.FirstSeen, Nodes[N].Pos);
    }
    for (auto &[K, Node] : Occ)
      R.Occurrences[K] = WebOf.lookup(find(Node));
    // Interference rows per file.
    std::array<unsigned, NumPressureFiles> PerFile{};
    R.IndexInFile.resize(R.Webs.size());
    for (unsigned W = 0; W != R.Webs.size(); ++W) {
      R.IndexInFile[W] = PerFile[unsigned(R.Webs[W].File)]++;
      R.WebsOfFile[unsigned(R.Webs[W].File)].push_back(W);
    }
    R.Interference.resize(R.Webs.size());
    for (unsigned W = 0; W != R.Webs.size(); ++W)
      R.Interference[W].resize(PerFile[unsigned(R.Webs[W].File)]);
    auto Edge = [&](unsigned A, unsigned B) {
      if (A == B || R.Webs[A].File != R.Webs[B].File)
        return;
      R.Interference[A].set(R.IndexInFile[B]);
      R.Interference[B].set(R.IndexInFile[A]);
    };
    auto WebAt = [&](const std::vector<int> &State, unsigned S) -> int {
      return State[S] < 0 ? -1 : int(WebOf.lookup(find(unsigned(State[S]))));
    };
    for (unsigned File = 0; File != NumPressureFiles; ++File)
      R.Fixed[File].resize(FileSize[File]);
    unsigned First = 0;
    for (unsigned B = 0; B != Blocks.size(); ++B) {
      std::vector<int> State = joinedIn(B);
      const SmallVector<unsigned, 64> &Live = liveIn(B);
      for (unsigned X = 0; X != Live.size(); ++X)
        for (unsigned Y = X + 1; Y != Live.size(); ++Y) {
          int A = WebAt(State, Live[X]), C = WebAt(State, Live[Y]);
          if (A >= 0 && C >= 0)
            Edge(unsigned(A), unsigned(C));
        }
      unsigned N = countInstructions(B);
      for (unsigned K = 0; K != N; ++K) {
        const WebInstInfo &Info = Infos[First + K];
        SmallVector<unsigned, 8> DefWebs, UseWebs, DefSlots, UseSlots;
        if (Info.Irregular) {
          for (unsigned S : concat<const unsigned>(Info.Reads, Info.ConventionReads))
            R.Fixed[unsigned(fileOf(S))].set(S - Base[unsigned(fileOf(S))]);
          for (unsigned S : Info.Writes)
            R.Fixed[unsigned(fileOf(S))].set(S - Base[unsigned(fileOf(S))]);
        } else {
          for (const Access &A : Info.Accesses)
            if (!A.Def) {
              UseWebs.push_back(R.Occurrences[{Info.Inst, A.Operand, A.Component, false}]);
              UseSlots.push_back(A.Slot);
            }
        }
        step(Info, State, false);
        if (Info.Irregular) {
          for (unsigned S : Info.Writes)
            DefWebs.push_back(unsigned(WebAt(State, S)));
        } else {
          for (const Access &A : Info.Accesses)
            if (A.Def) {
              DefWebs.push_back(R.Occurrences[{Info.Inst, A.Operand, A.Component, true}]);
              DefSlots.push_back(A.Slot);
            }
        }
        for (const Access &A : Info.Accesses) {
          PressureFile PF = fileOf(A.Slot);
          unsigned Reg = A.Slot - Base[unsigned(PF)];
          R.Named[unsigned(PF)] = std::max(R.Named[unsigned(PF)], Reg + 1);
        }
        // What an irregular instruction names itself (MC's registers), not
        // what its callee may touch.
        if (Info.Irregular)
          for (MCRegister Reg : concat<const MCRegister>(Info.Inst->facts().Uses,
                                                         Info.Inst->facts().Defs))
            if (std::optional<RegisterRange> Range = registerRangeOf(Reg, TI))
              if (std::optional<PressureFile> PF = pressureFileOf(Range->File);
                  PF && lifted(*PF))
                R.Named[unsigned(*PF)] =
                    std::max(R.Named[unsigned(*PF)], Range->First + Range->Count);
        if (DefWebs.empty())
          continue;
        SmallVector<unsigned, 64> After;
        slotsOf(L.liveAfter(*Info.Inst), After, false);
        slotsOf(LL.liveAfter(*Info.Inst), After, true);
        if (Info.Asynchronous)
          for (unsigned X = 0; X != DefSlots.size(); ++X)
            if (!is_contained(After, DefSlots[X]) || fileOf(DefSlots[X]) == PressureFile::SGPR) {
              // Kept where it is and given to no other value: the wait
              // that completes it is the original code's. A scalar load
              // completes out of order, by a wait for 0 the path where its
              // value is dead may lack: its registers are kept too.
              R.Webs[DefWebs[X]].Pinned = true;
              PressureFile PF = fileOf(DefSlots[X]);
              R.Fixed[unsigned(PF)].set(DefSlots[X] - Base[unsigned(PF)]);
            }
        for (unsigned D : DefWebs) {
          for (unsigned S : After)
            if (int W = WebAt(State, S); W >= 0)
              Edge(D, unsigned(W));
          for (unsigned D2 : DefWebs)
            Edge(D, D2);
        }
        // A destination keeps clear of the sources it did not overlap.
        for (unsigned X = 0; X != DefSlots.size(); ++X)
          for (unsigned Y = 0; Y != UseSlots.size(); ++Y)
            if (DefSlots[X] != UseSlots[Y])
              Edge(DefWebs[X], UseWebs[Y]);
      }
      First += N;
    }
    for (const WebInstInfo &Info : Infos)
      if (!Info.KeptLanes.empty())
        R.LaneKeeping.push_back(Info.Inst);
    buildGroups(R);
    return R;
  }

  /// Webs a tuple operand names together are placed together.
  void buildGroups(RegisterWebs &R) {
    std::vector<unsigned> Up(R.Webs.size());
    for (unsigned W = 0; W != Up.size(); ++W)
      Up[W] = W;
    auto Find = [&](unsigned W) {
      while (Up[W] != W)
        W = Up[W] = Up[Up[W]];
      return W;
    };
    std::vector<unsigned> Align(R.Webs.size(), 1);
    for (const WebInstInfo &Info : Infos) {
      for (auto [FirstAccess, Count] : Info.Tuples) {
        const Access &A0 = Info.Accesses[FirstAccess];
        unsigned W0 = R.Occurrences[{Info.Inst, A0.Operand, 0, A0.Def}];
        unsigned Root = Find(W0);
        for (unsigned J = 1; J != Count; ++J) {
          const Access &A = Info.Accesses[FirstAccess + J];
          unsigned Other = Find(R.Occurrences[{Info.Inst, A.Operand, A.Component, A.Def}]);
          if (Other != Root) {
            Up[Other] = Root;
            Align[Root] = std::max(Align[Root], Align[Other]);
          }
        }
        // SGPR pairs start even, larger tuples at a multiple of 4; VGPR and
        // AGPR tuples even (gfx90a and later require it; kept everywhere).
        unsigned Need = fileOf(A0.Slot) == PressureFile::SGPR ? (Count >= 4 ? 4 : 2) : 2;
        Align[Root] = std::max(Align[Root], Need);
      }
      for (const Access &A : Info.Accesses) {
        unsigned W = R.Occurrences[{Info.Inst, A.Operand, A.Component, A.Def}];
        if (A.Component == 0)
          R.Operands.push_back({Info.Inst, A.Operand, R.Webs[W].File,
                                A.Slot - Base[unsigned(fileOf(A.Slot))],
                                countComponents(Info, A), W});
      }
    }
    DenseMap<unsigned, unsigned> GroupOf;
    for (unsigned W = 0; W != R.Webs.size(); ++W) {
      unsigned Root = Find(W);
      auto [It, New] = GroupOf.try_emplace(Root, R.Groups.size());
      if (New) {
        Group G;
        G.File = R.Webs[W].File;
        G.Base = R.Webs[W].Reg;
        G.FirstSeen = R.Webs[W].FirstSeen;
        G.Align = Align[Root];
        R.Groups.push_back(G);
      }
      Group &G = R.Groups[It->second];
      const Web &Wb = R.Webs[W];
      unsigned End = std::max(G.Base + G.Width, Wb.Reg + 1);
      G.Base = std::min(G.Base, Wb.Reg);
      G.Width = End - G.Base;
      G.Pinned |= Wb.Pinned;
      G.FirstSeen = std::min(G.FirstSeen, Wb.FirstSeen);
      G.Webs.push_back(W);
      R.Webs[W].Group = It->second;
    }
  }
  static unsigned countComponents(const WebInstInfo &Info, const Access &A0) {
    unsigned N = 0;
    for (const Access &A : Info.Accesses)
      N += A.Operand == A0.Operand && A.Def == A0.Def;
    return N;
  }

  struct Node {
    unsigned Slot, Pos;
    bool Pinned, FromEntry;
  };

  Function &F;
  const Liveness &L;
  const LaneLiveness &LL;
  const TargetInfo &TI;
  PressureUnitMap Map;
  WebFiles Files;
  uint64_t PartialWriteFlags = 0;
  std::array<unsigned, NumPressureFiles> Base{};
  unsigned NumSlots = 0;
  std::vector<BasicBlock *> Blocks;
  DenseMap<const BasicBlock *, unsigned> BlockIndex;
  std::vector<WebInstInfo> Infos;
  DenseMap<unsigned, SmallVector<unsigned, 64>> LiveIns;
  DenseMap<unsigned, unsigned> Counts;
  std::vector<std::vector<int>> Out;
  std::vector<unsigned> Parent;
  std::vector<Node> Nodes;
  DenseMap<unsigned, unsigned> EntryNodes;
  DenseMap<std::pair<unsigned, unsigned>, unsigned> DefNodes;
  std::map<Key, unsigned> Occ;
};

Expected<RegisterWebs> RegisterWebs::build(Function &F, const Liveness &L,
                                           const LaneLiveness &LL, WebFiles Files) {
  return Builder(F, L, LL, Files).run();
}

bool RegisterWebs::interfere(unsigned A, unsigned B) const {
  return Webs[A].File == Webs[B].File && Interference[A].test(IndexInFile[B]);
}

unsigned RegisterWebs::entryWebs() const {
  return count_if(Webs, [](const Web &W) { return W.FromEntry; });
}

std::optional<std::string> RegisterWebs::differingOccurrence(const RegisterWebs &Other) const {
  auto Describe = [](const Key &K) {
    const Instruction *I = std::get<0>(K);
    return "'" + I->mnemonic().str() + "' (line " + std::to_string(I->location().Line) + ")";
  };
  if (Occurrences.size() != Other.Occurrences.size())
    return std::string("the renamed function names registers at other places");
  std::vector<int> Forward(Webs.size(), -1), Backward(Other.Webs.size(), -1);
  auto OI = Other.Occurrences.begin();
  for (const auto &[K, W] : Occurrences) {
    if (OI->first != K)
      return "the renamed " + Describe(K) + " names registers elsewhere";
    unsigned NW = OI->second;
    ++OI;
    if ((Forward[W] >= 0 && unsigned(Forward[W]) != NW) ||
        (Backward[NW] >= 0 && unsigned(Backward[NW]) != W))
      return "the renamed " + Describe(K) + " reads another value than before";
    Forward[W] = int(NW);
    Backward[NW] = int(W);
    if (Webs[W].Pinned && (Other.Webs[NW].Reg != Webs[W].Reg || Other.Webs[NW].File != Webs[W].File))
      return "the renamed " + Describe(K) + " moves a register that must stay";
  }
  return std::nullopt;
}

} // namespace stinkytofu
