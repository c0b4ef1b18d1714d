//===- RegisterUnits.cpp - MC registers as sets of register units ---------===//
#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

RegisterUnits::RegisterUnits(const TargetInfo &TI)
    : TI(&TI), NumUnits(TI.regInfo().getNumRegUnits()) {}

MCRegister RegisterUnits::canonical(MCRegister R) const { return TI->canonical(R); }

// No cache of its own: canonical() is an array lookup and regunits() walks a
// short static list, so a per-register map would only add a hash probe.
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
  for (MCRegUnit U : unitsOf(R))
    BV.set(static_cast<unsigned>(U));
}

void RegisterUnits::reset(BitVector &BV, MCRegister R) const {
  for (MCRegUnit U : unitsOf(R))
    BV.reset(static_cast<unsigned>(U));
}

bool RegisterUnits::any(const BitVector &BV, MCRegister R) const {
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
