//===- RegisterAllocationPass.cpp - Renumber a kernel's registers ---------===//
#include "stinkytofu/transforms/RegisterAllocationPass.h"

#include "stinkytofu/analysis/KernelAllocation.h"
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/ir/KernelMetadata.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include <set>

using namespace llvm;

namespace stinkytofu {

Expected<WebFiles> parseRegisterClasses(StringRef Text) {
  WebFiles Files{};
  for (char C : Text) {
    switch (C) {
    case 'v':
      Files[unsigned(PressureFile::VGPR)] = true;
      break;
    case 's':
      Files[unsigned(PressureFile::SGPR)] = true;
      break;
    case 'a':
      Files[unsigned(PressureFile::AGPR)] = true;
      break;
    default:
      return createStringError(inconvertibleErrorCode(),
                               "classes=" + Text.str() + ": a register class is v, s or a");
    }
  }
  if (Text.empty())
    return createStringError(inconvertibleErrorCode(), "classes= names no register class");
  return Files;
}

namespace {

struct Options {
  WebFiles Files{};
  bool Apply = false, Report = false, Verify = true, Breadcrumbs = false;
  /// pinReg=: registers kept as found.
  std::vector<std::tuple<PressureFile, unsigned, unsigned>> Pinned;
};

/// `s0`, `v4:7`: a file letter and an inclusive run.
std::optional<std::tuple<PressureFile, unsigned, unsigned>> parsePinnedRange(StringRef Text) {
  if (Text.size() < 2)
    return std::nullopt;
  PressureFile File;
  switch (Text.front()) {
  case 'v': File = PressureFile::VGPR; break;
  case 's': File = PressureFile::SGPR; break;
  case 'a': File = PressureFile::AGPR; break;
  default: return std::nullopt;
  }
  auto [FirstText, LastText] = Text.drop_front().split(':');
  unsigned First, Last;
  if (FirstText.getAsInteger(10, First))
    return std::nullopt;
  Last = First;
  if (!LastText.empty() && (LastText.getAsInteger(10, Last) || Last < First))
    return std::nullopt;
  return std::make_tuple(File, First, Last);
}

/// \p Op respelled to name the registers from \p First (same file, count,
/// source modifiers and half).
Operand respell(const Operand &Op, unsigned First) {
  StringRef S = Op.spelling();
  for (size_t At = 0; At < S.size(); ++At) {
    if (At && (isAlnum(S[At - 1]) || S[At - 1] == '_'))
      continue;
    size_t Prefix = S.substr(At).starts_with("acc") ? 3 : 1;
    if (!StringRef("vsa").contains(S[At]) || At + Prefix >= S.size())
      continue;
    char Next = S[At + Prefix];
    size_t End;
    if (Next == '[')
      End = S.find(']', At);
    else if (isDigit(Next))
      End = S.find_if_not(isDigit, At + Prefix) - 1;
    else
      continue;
    if (End == StringRef::npos)
      break;
    std::string Register = S.substr(At, Prefix).str();
    if (Op.regCount() == 1)
      Register += std::to_string(First);
    else
      Register += "[" + std::to_string(First) + ":" +
                  std::to_string(First + Op.regCount() - 1) + "]";
    Operand New(Op.kind(), (S.substr(0, At) + Register + S.substr(End + 1)).str());
    New.setRegister(Op.regFile(), First, Op.regCount(), false);
    New.setSourceModifiers(Op.sourceModifiers(), Op.half());
    return New;
  }
  return Op;
}

/// The registers of each file the descriptor sets up before the first
/// instruction: the user and system SGPRs, the work-item ID VGPRs.
PressureCounts abiFloor(const KernelDescriptor &KD) {
  PressureCounts Floor;
  unsigned SGPRs = unsigned(KD.integer(".amdhsa_user_sgpr_count").value_or(0));
  for (const TextFields::Field &Fd : KD.fields())
    if (StringRef(Fd.Key).starts_with(".amdhsa_system_sgpr_") && Fd.Value == "1")
      ++SGPRs;
  Floor[PressureFile::SGPR] = SGPRs;
  Floor[PressureFile::VGPR] =
      unsigned(KD.integer(".amdhsa_system_vgpr_workitem_id").value_or(0)) + 1;
  return Floor;
}

class RegisterAllocationPass final : public Pass {
public:
  explicit RegisterAllocationPass(Options O) : Opts(std::move(O)) {}
  StringRef name() const override { return "RegisterAllocationPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    raw_ostream &OS = context().statsStream();
    if (!coversWholeModule(Scope))
      return PreservedAnalyses::all();
    bool Changed = false;
    for (Function &F : M.functions()) {
      if (!F.isEntry()) {
        OS << name() << ": " << F.name()
           << ": kept: not a kernel (its registers follow its callers' convention)\n";
        continue;
      }
      if (!F.hasValidCFG()) {
        buildCFG(F);
        Changed = true;
      }
      Expected<bool> Done = allocate(M, F, OS);
      if (!Done)
        return Done.takeError();
      Changed |= *Done;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  struct Coloring {
    std::vector<int> RegOf; ///< by web; -1 where the file is not renamed
    PressureCounts Before, After;
    std::array<bool, NumPressureFiles> Renamed{};
  };

  static OccupancyEstimate occupancyOf(Function &F, KernelAllocation *Out = nullptr) {
    RegisterPressure P(std::make_unique<Liveness>(F, pressureLivenessOptions(F)));
    KernelAllocation A = kernelAllocation(P);
    if (Out)
      *Out = A;
    return estimateOccupancy(F.parent()->target().hardware(), A.Resources);
  }

  static Expected<RegisterWebs> websOf(Function &F, WebFiles Files) {
    Liveness L(F);
    LaneLiveness LL(L);
    return RegisterWebs::build(F, L, LL, Files);
  }

  /// The waits \p F lacks: consumer, rule and producer of each. A
  /// renaming that puts another value in a register a load has yet to
  /// write needs one the code does not have.
  using WaitKeys = std::set<std::tuple<const Instruction *, std::string, const Instruction *>>;
  static Expected<WaitKeys> missingWaits(const Function &F, const CounterModel &CM) {
    Expected<WaitCountAnalysis> W = WaitCountAnalysis::run(F, CM);
    if (!W)
      return W.takeError();
    WaitKeys Keys;
    for (const MissingWait &MW : W->missingWaits())
      for (const WaitReason &R : MW.Reasons)
        Keys.insert({MW.Consumer, waitRuleName(CM, R), R.Producer});
    return Keys;
  }

  Expected<bool> allocate(Module &M, Function &F, raw_ostream &OS) {
    OccupancyEstimate Before = occupancyOf(F);
    std::optional<RegisterWebs> Webs;
    {
      Expected<RegisterWebs> Built = websOf(F, Opts.Files);
      if (!Built) {
        OS << name() << ": " << F.name() << ": kept: " << toString(Built.takeError()) << "\n";
        return false;
      }
      Webs.emplace(std::move(*Built));
    }
    Coloring C = color(*Webs);
    std::string Counts;
    for (unsigned File = 0; File != NumPressureFiles; ++File)
      if (Opts.Files[File])
        Counts += " " + pressureFileName(PressureFile(File)).str() + " " +
                  std::to_string(C.Before.Count[File]) + " -> " +
                  std::to_string(C.Renamed[File] ? C.After.Count[File] : C.Before.Count[File]);
    if (Opts.Report || !Opts.Apply)
      OS << name() << ": " << F.name() << ": " << Webs->webs().size() << " webs ("
         << Webs->entryWebs() << " from outside), registers named:" << Counts
         << (Opts.Apply ? "" : " (shadow, not applied)") << "\n";
    if (!Opts.Apply || none_of(C.Renamed, [](bool R) { return R; })) {
      if (Opts.Apply)
        OS << name() << ": " << F.name() << ": unchanged: first-fit finds no fewer registers"
           << Counts << "\n";
      return false;
    }
    CounterModel CM(M.target());
    WaitKeys WaitsBefore;
    if (Opts.Verify) {
      Expected<WaitKeys> N = missingWaits(F, CM);
      if (!N)
        return N.takeError();
      WaitsBefore = *N;
    }
    std::vector<std::pair<Instruction *, std::vector<Operand>>> Undo;
    Breadcrumbs.clear();
    if (std::string Why = rewrite(M, *Webs, C, Undo); !Why.empty()) {
      restore(M, Undo);
      OS << name() << ": " << F.name() << ": kept: " << Why << "\n";
      return false;
    }
    if (Opts.Verify) {
      Expected<RegisterWebs> After = websOf(F, Opts.Files);
      std::optional<std::string> Why;
      if (!After)
        Why = toString(After.takeError());
      else
        Why = Webs->differingOccurrence(*After);
      if (!Why) {
        Expected<WaitKeys> Now = missingWaits(F, CM);
        if (!Now)
          return Now.takeError();
        for (const auto &Key : *Now)
          if (!WaitsBefore.count(Key)) {
            const Instruction *Consumer = std::get<0>(Key);
            Why = "'" + Consumer->mnemonic().str() + "' (line " +
                  std::to_string(Consumer->location().Line) +
                  ") would need a wait the code lacks (" + std::get<1>(Key) +
                  "): a register shared with a load still in flight";
            break;
          }
      }
      if (Why) {
        restore(M, Undo);
        OS << name() << ": " << F.name() << ": kept: the renaming validator refuses it: " << *Why
           << "\n";
        return false;
      }
    }
    for (auto &[I, Note] : Breadcrumbs) {
      std::string Comment = I->trailingComment().str();
      I->setTrailingComment(Comment + (Comment.empty() ? "// " : ", ") + Note);
    }
    if (Error E = updateCounts(M, F, C))
      return std::move(E);
    OccupancyEstimate After = occupancyOf(F);
    OS << name() << ": " << F.name() << ": renamed" << Counts << "; waves per SIMD "
       << Before.waves() << " -> " << After.waves() << " (by registers " << Before.byRegisters()
       << " -> " << After.byRegisters() << ")\n";
    return true;
  }

  /// First-fit over the groups in the order they first occur; a file
  /// whose count would not go down keeps its registers.
  Coloring color(const RegisterWebs &W) const {
    Coloring C;
    C.RegOf.assign(W.webs().size(), -1);
    for (unsigned File = 0; File != NumPressureFiles; ++File) {
      PressureFile PF = PressureFile(File);
      unsigned Named = W.registersNamed(PF);
      C.Before.Count[File] = C.After.Count[File] = Named;
      if (!Opts.Files[File] || Named == 0)
        continue;
      std::vector<unsigned> Order;
      for (unsigned G = 0; G != W.groups().size(); ++G)
        if (W.groups()[G].File == PF)
          Order.push_back(G);
      auto PinnedGroup = [&](const RegisterWebs::Group &G) {
        return G.Pinned || any_of(Opts.Pinned, [&](const auto &P) {
                 return std::get<0>(P) == PF && std::get<1>(P) < G.Base + G.Width &&
                        G.Base <= std::get<2>(P);
               });
      };
      llvm::stable_sort(Order, [&](unsigned A, unsigned B) {
        const RegisterWebs::Group &GA = W.groups()[A], &GB = W.groups()[B];
        bool PA = PinnedGroup(GA), PB = PinnedGroup(GB);
        if (PA != PB)
          return PA;
        return GA.FirstSeen < GB.FirstSeen;
      });
      std::vector<int> RegOf(W.webs().size(), -1);
      const BitVector &Fixed = W.fixedRegisters(PF);
      unsigned Highest = 0;
      bool Failed = false;
      for (unsigned GI : Order) {
        const RegisterWebs::Group &G = W.groups()[GI];
        unsigned NewBase = G.Base;
        if (!PinnedGroup(G)) {
          BitVector Blocked(Named + 1);
          for (unsigned Web : G.Webs) {
            unsigned Offset = W.webs()[Web].Reg - G.Base;
            W.forEachInterfering(Web, [&](unsigned Other) {
              if (RegOf[Other] >= int(Offset))
                Blocked.set(unsigned(RegOf[Other]) - Offset);
            });
            for (unsigned X : Fixed.set_bits())
              if (X >= Offset && X - Offset <= Named)
                Blocked.set(X - Offset);
          }
          std::optional<unsigned> Found;
          for (unsigned B = G.Base % G.Align; B + G.Width <= Named; B += G.Align)
            if (!Blocked.test(B)) {
              Found = B;
              break;
            }
          if (!Found) {
            Failed = true;
            break;
          }
          NewBase = *Found;
        }
        for (unsigned Web : G.Webs)
          RegOf[Web] = int(NewBase + W.webs()[Web].Reg - G.Base);
        Highest = std::max(Highest, NewBase + G.Width);
      }
      if (Failed || Highest >= Named)
        continue;
      C.After.Count[File] = Highest;
      C.Renamed[File] = true;
      for (unsigned Web = 0; Web != RegOf.size(); ++Web)
        if (W.webs()[Web].File == PF)
          C.RegOf[Web] = RegOf[Web];
    }
    return C;
  }

  /// Respells and re-assembles every operand that moves; the operands
  /// each changed instruction had go to \p Undo. "" or why it failed.
  std::string rewrite(Module &M, const RegisterWebs &W, const Coloring &C,
                      std::vector<std::pair<Instruction *, std::vector<Operand>>> &Undo) {
    std::map<Instruction *, std::vector<Operand>> NewOperands;
    std::vector<Instruction *> Order;
    for (const RegisterWebs::OperandUse &U : W.operandUses()) {
      int New = C.RegOf[U.Web];
      if (New < 0 || unsigned(New) + (U.First - W.webs()[U.Web].Reg) == U.First)
        continue;
      unsigned NewFirst = unsigned(New) + (U.First - W.webs()[U.Web].Reg);
      auto [It, Fresh] = NewOperands.try_emplace(U.Inst, U.Inst->operands());
      if (Fresh)
        Order.push_back(U.Inst);
      const Operand &Old = U.Inst->operand(U.Operand);
      Operand Renamed = respell(Old, NewFirst);
      if (Renamed.spelling() == Old.spelling())
        return "cannot respell '" + Old.spelling().str() + "' (line " +
               std::to_string(U.Inst->location().Line) + ")";
      if (Opts.Breadcrumbs && Old.isSymbolicRegister())
        Breadcrumbs.push_back(
            {U.Inst, Renamed.spelling().str() + " was " + Old.spelling().str()});
      It->second[U.Operand] = std::move(Renamed);
    }
    InstBuilder B(M);
    for (Instruction *I : Order) {
      std::vector<Operand> Previous = I->operands();
      if (Error E = B.setOperands(*I, std::move(NewOperands[I])))
        return "MC refuses the renamed line " + std::to_string(I->location().Line) + ": " +
               toString(std::move(E));
      Undo.push_back({I, std::move(Previous)});
    }
    return "";
  }

  static void restore(Module &M, std::vector<std::pair<Instruction *, std::vector<Operand>>> &Undo) {
    InstBuilder B(M);
    for (auto &[I, Ops] : Undo)
      cantFail(B.setOperands(*I, std::move(Ops)));
    Undo.clear();
  }

  /// Lowers the descriptor's and the metadata's counts by what was saved.
  static Error updateCounts(Module &M, Function &F, const Coloring &C) {
    std::optional<KernelDescriptor> KD = KernelDescriptor::find(M, F.name());
    if (!KD)
      return Error::success();
    PressureCounts Floor = abiFloor(*KD);
    using Count = KernelDescriptor::Count;
    auto Lowered = [&](PressureFile PF) {
      return std::max(C.After[PF], Floor[PF]);
    };
    std::array<int64_t, NumPressureFiles> Saved{};
    auto Set = [&](Count Field, uint64_t Value) -> Error {
      std::optional<KernelDescriptor> Now = KernelDescriptor::find(M, F.name());
      std::optional<uint64_t> Old = Now->count(Field);
      if (!Old || Value >= *Old)
        return Error::success();
      return Now->setCount(M, Field, Value);
    };
    std::optional<uint64_t> OldVgprs = KD->count(Count::NextFreeVGPR);
    std::optional<uint64_t> OldSgprs = KD->count(Count::NextFreeSGPR);
    unsigned AGPRs = C.After[PressureFile::AGPR];
    if (KD->states(Count::AccumOffset) && (C.Renamed[unsigned(PressureFile::VGPR)] ||
                                           C.Renamed[unsigned(PressureFile::AGPR)])) {
      unsigned Accum = std::max(4u, unsigned(alignTo(Lowered(PressureFile::VGPR), 4)));
      if (Error E = Set(Count::AccumOffset, Accum))
        return E;
      uint64_t Now = KernelDescriptor::find(M, F.name())->count(Count::AccumOffset).value_or(Accum);
      if (Error E = Set(Count::NextFreeVGPR, AGPRs ? Now + AGPRs : Lowered(PressureFile::VGPR)))
        return E;
    } else if (C.Renamed[unsigned(PressureFile::VGPR)]) {
      if (Error E = Set(Count::NextFreeVGPR, Lowered(PressureFile::VGPR)))
        return E;
    }
    if (C.Renamed[unsigned(PressureFile::SGPR)])
      if (Error E = Set(Count::NextFreeSGPR, Lowered(PressureFile::SGPR)))
        return E;
    std::optional<KernelDescriptor> Now = KernelDescriptor::find(M, F.name());
    if (OldVgprs)
      Saved[unsigned(PressureFile::VGPR)] =
          int64_t(*OldVgprs) - int64_t(Now->count(Count::NextFreeVGPR).value_or(*OldVgprs));
    if (OldSgprs)
      Saved[unsigned(PressureFile::SGPR)] =
          int64_t(*OldSgprs) - int64_t(Now->count(Count::NextFreeSGPR).value_or(*OldSgprs));
    Saved[unsigned(PressureFile::AGPR)] =
        int64_t(C.Before[PressureFile::AGPR]) - int64_t(C.After[PressureFile::AGPR]);
    const std::pair<const char *, PressureFile> Fields[] = {
        {".vgpr_count", PressureFile::VGPR},
        {".sgpr_count", PressureFile::SGPR},
        {".agpr_count", PressureFile::AGPR}};
    for (auto [Key, PF] : Fields) {
      std::optional<KernelMetadata> MD = KernelMetadata::find(M, F.name());
      if (!MD || Saved[unsigned(PF)] <= 0)
        continue;
      if (std::optional<uint64_t> Old = MD->integer(Key);
          Old && int64_t(*Old) > Saved[unsigned(PF)])
        if (Error E = MD->setInteger(M, Key, *Old - uint64_t(Saved[unsigned(PF)])))
          return E;
    }
    return Error::success();
  }

  Options Opts;
  /// `emitSymbolBreadcrumbs`: the notes of a renaming, written once it is
  /// proven.
  std::vector<std::pair<Instruction *, std::string>> Breadcrumbs;
};

} // namespace

Expected<std::unique_ptr<Pass>> createRegisterAllocationPass(const PassArguments &Args) {
  Options O;
  O.Files[unsigned(PressureFile::VGPR)] = true;
  for (const auto &[Key, Value] : Args) {
    auto Flag = [&, &Value = Value](bool &Into) -> Error {
      if (Value.empty() || Value == "true" || Value == "1")
        Into = true;
      else if (Value == "false" || Value == "0")
        Into = false;
      else
        return createStringError(inconvertibleErrorCode(),
                                 Key + "=" + Value + ": takes true, false, 1 or 0");
      return Error::success();
    };
    Error E = Error::success();
    if (Key == "allocator") {
      // The reference's policies; here every one is the first-fit colouring.
      if (Value != "greedy" && Value != "greedy-compact" && Value != "legacy")
        E = createStringError(inconvertibleErrorCode(),
                              "allocator=" + Value + ": known allocators are greedy, "
                                                     "greedy-compact and legacy");
    } else if (Key == "classes") {
      Expected<WebFiles> Files = parseRegisterClasses(Value);
      if (Files)
        O.Files = *Files;
      else
        E = Files.takeError();
    } else if (Key == "pinReg") {
      if (auto Range = parsePinnedRange(Value))
        O.Pinned.push_back(*Range);
      else
        E = createStringError(inconvertibleErrorCode(),
                              "pinReg=" + Value + ": takes a register or a run (s0, v4:7)");
    } else if (Key == "apply") {
      E = Flag(O.Apply);
    } else if (Key == "report") {
      E = Flag(O.Report);
    } else if (Key == "emitSymbolBreadcrumbs") {
      E = Flag(O.Breadcrumbs);
    } else if (Key == "noVerify") {
      bool NoVerify = false;
      E = Flag(NoVerify);
      O.Verify = !NoVerify;
    } else {
      E = createStringError(
          inconvertibleErrorCode(),
          "unknown argument '" + Key +
              "' (takes allocator=, classes=, pinReg=, apply, report, emitSymbolBreadcrumbs, "
              "noVerify; the reference's regionEnd=, emitRegisterMap and rules= are not "
              "implemented)");
    }
    if (E)
      return std::move(E);
  }
  return std::make_unique<RegisterAllocationPass>(std::move(O));
}

} // namespace stinkytofu
