//===- RegisterUnits.cpp - MC registers as sets of register units ---------===//
#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using namespace llvm;

namespace stinkytofu {

namespace {
std::vector<RegisterUnits::UnitRun> buildRuns(const TargetInfo &TI) {
  const MCRegisterInfo &MRI = TI.regInfo();
  std::vector<RegisterUnits::UnitRun> Runs(MRI.getNumRegs());
  for (unsigned Reg = 1; Reg < Runs.size(); ++Reg) {
    RegisterUnits::UnitRun Run;
    Run.IsRun = true;
    for (MCRegUnit U : MRI.regunits(TI.canonical(MCRegister(Reg)))) {
      unsigned Unit = static_cast<unsigned>(U);
      if (Run.Count == 0)
        Run.First = Unit;
      else if (Unit != Run.First + Run.Count)
        Run.IsRun = false;
      ++Run.Count;
    }
    Runs[Reg] = Run;
  }
  Runs[0].IsRun = true; // NoRegister: the empty run.
  return Runs;
}

/// The run table of a target, built on first use. Guarded by a lock since
/// contexts of different modules may start at once; the tables themselves
/// are immutable, so readers need no lock.
ArrayRef<RegisterUnits::UnitRun> runsOf(const TargetInfo &TI) {
  static std::mutex Lock;
  static std::map<const MCRegisterInfo *, std::vector<RegisterUnits::UnitRun>> Tables;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, Inserted] = Tables.try_emplace(&TI.regInfo());
  if (Inserted)
    It->second = buildRuns(TI);
  return It->second;
}
} // namespace

RegisterUnits::RegisterUnits(const TargetInfo &TI)
    : TI(&TI), NumUnits(TI.regInfo().getNumRegUnits()), Runs(runsOf(TI)) {}

MCRegister RegisterUnits::canonical(MCRegister R) const { return TI->canonical(R); }

iterator_range<MCRegUnitIterator> RegisterUnits::unitsOf(MCRegister R) const {
  // NoRegister has no units.
  return TI->regInfo().regunits(R.isValid() ? canonical(R) : R);
}

SmallVector<unsigned, 8> RegisterUnits::units(MCRegister R) const {
  SmallVector<unsigned, 8> Units;
  for (MCRegUnit U : unitsOf(R))
    Units.push_back(static_cast<unsigned>(U));
  return Units;
}

void RegisterUnits::set(BitVector &BV, MCRegister R) const {
  if (const UnitRun &Run = Runs[R.id()]; Run.IsRun) {
    if (Run.Count)
      BV.set(Run.First, Run.First + Run.Count);
    return;
  }
  for (MCRegUnit U : unitsOf(R))
    BV.set(static_cast<unsigned>(U));
}

void RegisterUnits::reset(BitVector &BV, MCRegister R) const {
  if (const UnitRun &Run = Runs[R.id()]; Run.IsRun) {
    if (Run.Count)
      BV.reset(Run.First, Run.First + Run.Count);
    return;
  }
  for (MCRegUnit U : unitsOf(R))
    BV.reset(static_cast<unsigned>(U));
}

bool RegisterUnits::any(const BitVector &BV, MCRegister R) const {
  if (const UnitRun &Run = Runs[R.id()]; Run.IsRun) {
    if (Run.Count == 0)
      return false;
    int Found = BV.find_first_in(Run.First, Run.First + Run.Count);
    return Found != -1;
  }
  for (MCRegUnit U : unitsOf(R))
    if (BV.test(static_cast<unsigned>(U)))
      return true;
  return false;
}

MCRegister RegisterUnits::byName(StringRef Name) const {
  if (MCRegister R = TI->findRegister(Name))
    return R;
  return TI->findRegister(Name.upper());
}

MCRegister RegisterUnits::sgprTuple(unsigned First, unsigned Count) const {
  if (Count == 0)
    return MCRegister();
  if (Count == 1)
    return TI->reg32(RegClass::SGPR, First);
  SmallString<64> Name;
  for (unsigned I = 0; I < Count; ++I) {
    if (I)
      Name += '_';
    Name += "SGPR";
    Name += utostr(First + I);
  }
  return TI->findRegister(Name);
}

std::string RegisterUnits::describe(const BitVector &BV) const {
  const MCRegisterInfo &MRI = TI->regInfo();
  std::string Out;
  DenseSet<unsigned> Seen;
  for (unsigned U : BV.set_bits()) {
    MCRegUnitRootIterator Root(static_cast<MCRegUnit>(U), &MRI);
    if (!Root.isValid())
      continue;
    // Units belong to 16-bit halves; name the 32-bit register.
    StringRef Name = MRI.getName(*Root);
    Name.consume_back("_LO16") || Name.consume_back("_HI16");
    MCRegister R = TI->findRegister(Name);
    if (!R.isValid())
      R = *Root;
    if (!Seen.insert(R.id()).second)
      continue;
    if (!Out.empty())
      Out += ' ';
    Out += TI->asmName(R);
  }
  return Out;
}

} // namespace stinkytofu
