//===- RegisterPressure.cpp - Live VGPRs, AGPRs and SGPRs at every point --===//
#include "stinkytofu/analysis/RegisterPressure.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseSet.h"
#include <map>

using namespace llvm;

namespace stinkytofu {

AnalysisKey RegisterPressureAnalysis::Key;

StringRef pressureFileName(PressureFile F) {
  switch (F) {
  case PressureFile::VGPR: return "vgpr";
  case PressureFile::AGPR: return "agpr";
  case PressureFile::SGPR: return "sgpr";
  }
  llvm_unreachable("unknown register file");
}

void PressureCounts::maxWith(const PressureCounts &O) {
  for (unsigned F = 0; F < NumPressureFiles; ++F)
    Count[F] = std::max(Count[F], O.Count[F]);
}

PressureUnitMap::PressureUnitMap(const RegisterUnits &RU) : Slots(RU.numUnits()) {
  const TargetInfo &TI = RU.target();
  const std::pair<RegClass, PressureFile> Files[] = {{RegClass::VGPR, PressureFile::VGPR},
                                                     {RegClass::AGPR, PressureFile::AGPR},
                                                     {RegClass::SGPR, PressureFile::SGPR}};
  // MC names every file on every target (v1023 and a0 on gfx900): count
  // the registers this processor has.
  const HardwareModel &HW = TI.hardware();
  for (auto [Class, File] : Files) {
    if (File == PressureFile::AGPR && !HW.hasAGPRs())
      continue;
    // A unified file (gfx90a) holds 256 VGPRs and 256 AGPRs; only gfx1250
    // reaches VGPRs above v255.
    unsigned Limit = File == PressureFile::SGPR ? HW.maxSGPRs()
                     : HW.hasHighVgprs()        ? HW.maxVGPRs()
                                                : 256;
    for (unsigned Index = 0; Index < Limit; ++Index) {
      MCRegister R = TI.reg32(Class, Index);
      if (!R.isValid())
        break;
      SmallVector<unsigned, 8> Units = RU.units(R);
      assert(!Units.empty() && Units.size() <= 2 && "a 32-bit register is one or two halves");
      for (unsigned U : Units)
        Slots[U] = Slot{int8_t(File), uint16_t(Index), Units.front()};
      UnitsOf[unsigned(File)].emplace_back(Units.front(), Units.back());
    }
  }
}

// A 32-bit register has a unit per 16-bit half: it is counted at its first
// unit, or at its second when only that half is set.
PressureCounts PressureUnitMap::count(const BitVector &Units) const {
  PressureCounts Counts;
  forEachSetUnit(Units, [&](unsigned U) {
    const Slot &S = Slots[U];
    if (S.File >= 0 && (U == S.First || !Units.test(S.First)))
      ++Counts.Count[unsigned(S.File)];
  });
  return Counts;
}

std::vector<unsigned> PressureUnitMap::registers(const BitVector &Units, PressureFile F) const {
  BitVector Marks;
  forEachRegisterUnit(Units, F, [&](unsigned Index) {
    if (Marks.size() <= Index)
      Marks.resize(std::max<unsigned>(Index + 1, 2 * Marks.size()));
    Marks.set(Index);
  });
  std::vector<unsigned> Regs;
  for (unsigned Index : Marks.set_bits())
    Regs.push_back(Index);
  return Regs;
}

PressureCounts PressureUnitMap::highest(const BitVector &Units) const {
  PressureCounts Top;
  forEachSetUnit(Units, [&](unsigned U) {
    if (const Slot &S = Slots[U]; S.File >= 0)
      Top.Count[unsigned(S.File)] = std::max<unsigned>(Top.Count[unsigned(S.File)], S.Index + 1);
  });
  return Top;
}

LivenessOptions pressureLivenessOptions(const Function &F) {
  LivenessOptions Options;
  if (F.isEntry())
    return Options;
  RegisterUnits RU(F.parent()->target());
  // An instruction MC does not describe may write anything.
  BitVector Written = RU.none();
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (isOpaqueInstruction(I))
        Written.set();
      for (MCRegister R : I.facts().Defs)
        RU.set(Written, R);
    }
  Options.LiveAfterReturn = heldAtAbiReturn(RU, Written, returnValueVGPRs(F));
  return Options;
}

RegisterPressure::RegisterPressure(std::unique_ptr<Liveness> Own) : RegisterPressure(*Own) {
  Owned = std::move(Own);
}

// The work-item IDs a kernel's entry may hold (v0, or v0-v2 unpacked).
constexpr unsigned EntryVGPRs = 3;

void RegisterPressure::findValueless(const Function &F) {
  const RegisterUnits &RU = Live->units();
  if (!F.isEntry() || F.blocks().empty() || Parked.empty())
    return;
  BitVector NoValue = RU.none();
  for (const ParkedLanes &P : Parked)
    if (P.VGPR >= EntryVGPRs)
      Map.set(NoValue, PressureFile::VGPR, P.VGPR);
  const BasicBlock &Entry = *F.blocks().begin();
  if (!Live->liveIn(Entry).anyCommon(NoValue))
    return; // the common case: no lane write, or a register written first
  // Forward: the units some path from the entry has written (its own
  // writes included at the end of a block).
  DenseMap<const BasicBlock *, BitVector> WrittenIn, Writes;
  for (const BasicBlock &BB : F.blocks()) {
    BitVector W = RU.none();
    for (const Instruction &I : BB.instructions()) {
      if (isOpaqueInstruction(I))
        W.set();
      for (MCRegister R : I.facts().Defs)
        RU.set(W, R);
    }
    Writes[&BB] = std::move(W);
    WrittenIn[&BB] = RU.none();
  }
  WrittenIn[&Entry].set();
  WrittenIn[&Entry].reset(NoValue);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock &BB : F.blocks()) {
      BitVector Out = WrittenIn[&BB];
      Out |= Writes[&BB];
      for (const BasicBlock *Succ : BB.successors()) {
        auto It = WrittenIn.find(Succ);
        if (It == WrittenIn.end() || !Out.test(It->second))
          continue;
        It->second |= Out;
        Changed = true;
      }
    }
  }
  BitVector Before;
  for (const BasicBlock &BB : F.blocks()) {
    BitVector Written = WrittenIn[&BB];
    for (const Instruction &I : BB.instructions()) {
      Before = Live->liveBefore(I);
      Before &= NoValue;
      Before.reset(Written);
      if (Before.any())
        Valueless[&I] = Before;
      if (isOpaqueInstruction(I))
        Written.set();
      for (MCRegister R : I.facts().Defs)
        RU.set(Written, R);
    }
  }
}

void RegisterPressure::findParkedLanes(const Function &F) {
  std::map<unsigned, ParkedLanes> ByVGPR;
  const TargetInfo &TI = Live->units().target();
  // The VGPRs an instruction's operands name (tuples split).
  auto ForEachVGPR = [&](ArrayRef<MCRegister> Regs, auto Fn) {
    for (MCRegister R : Regs)
      for (MCRegister Part : TI.covered32(R))
        if (TI.classOf(Part) == RegClass::VGPR)
          if (std::optional<unsigned> Index = TI.indexOf(Part))
            Fn(*Index);
  };
  // A lane write reads the register it writes (the lanes it keeps): only
  // such instructions are looked up (a table search each).
  auto ReadsWhatItWrites = [](const Instruction &I) {
    const InstrFacts &Facts = I.facts();
    return llvm::any_of(Facts.Defs,
                        [&](MCRegister R) { return llvm::is_contained(Facts.Uses, R); });
  };
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions())
      if (ReadsWhatItWrites(I) && HardwareModel::roleOf(I.mnemonic()) == InstRole::LaneWrite)
        ForEachVGPR(I.facts().Defs, [&](unsigned Index) {
          ParkedLanes &P = ByVGPR.try_emplace(Index, ParkedLanes{Index}).first->second;
          ++P.Writes;
          if (!P.FirstWrite)
            P.FirstWrite = &I;
        });
  if (ByVGPR.empty())
    return;
  // Layout order: a read after the first lane write is a read of a parked
  // value (or of the lanes a lane write keeps).
  DenseSet<unsigned> Started;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      ForEachVGPR(I.facts().Uses, [&](unsigned Index) {
        if (Started.contains(Index))
          ByVGPR.find(Index)->second.LastRead = &I;
      });
      ForEachVGPR(I.facts().Defs, [&](unsigned Index) {
        if (auto It = ByVGPR.find(Index); It != ByVGPR.end() && It->second.FirstWrite == &I)
          Started.insert(Index);
      });
    }
  for (auto &[Index, P] : ByVGPR)
    Parked.push_back(P);
}

RegisterPressure::RegisterPressure(const Liveness &Live) : Live(&Live), Map(Live.units()) {
  const Function &F = Live.function();
  findParkedLanes(F);
  findValueless(F);
  // The registers the function's own operands name (a call's callee and an
  // opaque instruction's unknown effect excluded).
  BitVector Accessed = Live.units().none();
  BitVector Occupied;
  for (const BasicBlock &BB : F.blocks()) {
    PressureCounts Block = Map.count(Live.liveIn(BB));
    Block.maxWith(Map.count(Live.liveOut(BB)));
    for (const Instruction &I : BB.instructions()) {
      occupiedAt(I, Occupied);
      PressureCounts C = Map.count(Occupied);
      AtInst[&I] = C;
      if (const CallEffect *E = Live.callEffect(I); E && !E->Known)
        ++UnknownCalls;
      Block.maxWith(C);
      for (MCRegister R : I.facts().Uses)
        Live.units().set(Accessed, R);
      for (MCRegister R : I.facts().Defs)
        Live.units().set(Accessed, R);
    }
    BlockMax[&BB] = Block;
    FunctionMax.maxWith(Block);
  }
  Highest = Map.highest(Accessed);
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      const PressureCounts &C = AtInst[&I];
      for (unsigned File = 0; File < NumPressureFiles; ++File)
        if (FunctionMax.Count[File] && C.Count[File] == FunctionMax.Count[File])
          MaxPoints[File].push_back(&I);
    }
}

// A call counts its own destination, not what its callee may write: the
// callee's registers are its own function's pressure.
void RegisterPressure::occupiedAt(const Instruction &I, BitVector &Units) const {
  Units = Live->liveBefore(I);
  if (const BitVector *None = valuelessBefore(I))
    Units.reset(*None);
  if (isOpaqueInstruction(I))
    return; // everything is live before it
  for (MCRegister R : I.facts().Defs)
    Live->units().set(Units, R);
}

BitVector RegisterPressure::occupiedAt(const Instruction &I) const {
  BitVector Units;
  occupiedAt(I, Units);
  return Units;
}

PressureCounts RegisterPressure::at(const Instruction &I) const {
  return AtInst.lookup(&I);
}

PressureCounts RegisterPressure::blockMax(const BasicBlock &BB) const {
  return BlockMax.lookup(&BB);
}

PressureCounts RegisterPressure::loopMax(const Loop &L) const {
  PressureCounts Max;
  for (const BasicBlock *BB : L.blocks())
    Max.maxWith(blockMax(*BB));
  return Max;
}

Expected<RegisterPressure> RegisterPressureAnalysis::run(Function &F, AnalysisManager &AM) {
  if (!F.isEntry()) {
    Expected<Liveness> Own = computeLiveness(F, AM, Key, pressureLivenessOptions(F));
    if (!Own)
      return Own.takeError();
    return RegisterPressure(std::make_unique<Liveness>(std::move(*Own)));
  }
  Expected<Liveness &> Live = AM.getResult<LivenessAnalysis>(F);
  if (!Live)
    return Live.takeError();
  // It keeps a reference to that result, which a change to a callee drops.
  addCalleeDependencies(F, AM, Key);
  return RegisterPressure(*Live);
}

} // namespace stinkytofu
