//===- RegisterUnits.h - MC registers as sets of register units --*- C++ -*-===//
//
// Register analyses work on MC register units (MCRegisterInfo::regunits()):
// a tuple covers the units of its 32-bit parts, vcc covers vcc_lo and
// vcc_hi, so overlap is a bit test.
//
// The AMDGPU MC layer encodes some registers per subtarget: the assembler
// writes `m0` as M0_gfxpre11 or M0_gfx11plus, `ttmp0` as TTMP0_gfx9plus,
// `flat_scratch` as FLAT_SCR_vi, `null` as SGPR_NULL_gfx11plus, while
// implicit operands (ds_read_b32's M0) name the generic register. Those
// encodings have units of their own, so every register is first mapped to
// its generic register here; a def of `m0` and the M0 read of an LDS
// instruction then meet on the same units.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_REGISTERUNITS_H
#define STINKYTOFU_ANALYSIS_REGISTERUNITS_H

#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/MC/MCRegister.h"
#include <string>

namespace stinkytofu {

/// Calls \p Fn(Unit) for each unit set in \p Units, ascending: a word at a
/// time (set_bits() searches anew for each bit, most of building a
/// dependence graph or validating a schedule; the pressure report counts
/// ~500 units at each of ~10,000 instructions of a large kernel). An
/// instruction's set has a few of a target's thousands of units (47 words
/// on gfx90a), so the zero words are passed four at a time: walking them
/// one by one was half of building the DAGs and validating the schedules.
template <typename FnT> void forEachSetUnit(const llvm::BitVector &Units, FnT Fn) {
  constexpr unsigned WordBits = sizeof(uintptr_t) * 8;
  const llvm::ArrayRef<uintptr_t> Words = Units.getData();
  const unsigned Size = Words.size();
  auto VisitWord = [&](unsigned W) {
    for (uintptr_t Bits = Words[W]; Bits; Bits &= Bits - 1)
      Fn(W * WordBits + unsigned(llvm::countr_zero(Bits)));
  };
  unsigned W = 0;
  for (; W + 4 <= Size; W += 4)
    if (Words[W] | Words[W + 1] | Words[W + 2] | Words[W + 3])
      for (unsigned Part = W; Part != W + 4; ++Part)
        VisitWord(Part);
  for (; W < Size; ++W)
    VisitWord(W);
}

/// The units set in \p Units, ascending: collected first, so that the walk
/// of the words stays a tight loop however much work a caller does per unit.
inline llvm::SmallVector<unsigned, 16> setUnits(const llvm::BitVector &Units) {
  llvm::SmallVector<unsigned, 16> Set;
  forEachSetUnit(Units, [&](unsigned U) { Set.push_back(U); });
  return Set;
}

class RegisterUnits {
public:
  explicit RegisterUnits(const TargetInfo &TI);

  const TargetInfo &target() const { return *TI; }
  unsigned numUnits() const { return NumUnits; }
  /// A vector with every unit set (what "everything live" means).
  llvm::BitVector all() const { return llvm::BitVector(NumUnits, true); }
  llvm::BitVector none() const { return llvm::BitVector(NumUnits, false); }

  /// The generic register of a subtarget-specific encoding (M0_gfxpre11 ->
  /// M0); other registers unchanged.
  llvm::MCRegister canonical(llvm::MCRegister R) const;
  /// The units of \p R (after canonical()).
  llvm::SmallVector<unsigned, 8> units(llvm::MCRegister R) const;

  void set(llvm::BitVector &BV, llvm::MCRegister R) const;
  void reset(llvm::BitVector &BV, llvm::MCRegister R) const;
  /// Any unit of \p R is set.
  bool any(const llvm::BitVector &BV, llvm::MCRegister R) const;

  /// A register by MC name ("SCC", "M0", "EXEC", "VCC", "SGPR4_SGPR5"); the
  /// lower-case spelling ("scc", "exec_lo") is accepted too. Invalid when
  /// the target has no such register.
  llvm::MCRegister byName(llvm::StringRef Name) const;
  /// The SGPR tuple s[First : First+Count-1]; a 32-bit SGPR for Count 1.
  /// Invalid when MC defines no such tuple (MC has s[4:5] but not s[5:6]).
  llvm::MCRegister sgprTuple(unsigned First, unsigned Count) const;

  /// The registers whose units are set, by assembly name in ascending unit
  /// order ("exec_lo exec_hi m0 s0 scc v1"): for printing and tests.
  std::string describe(const llvm::BitVector &BV) const;

private:
  /// The MC units of canonical(R); none for an invalid register.
  llvm::iterator_range<llvm::MCRegUnitIterator> unitsOf(llvm::MCRegister R) const;

  const TargetInfo *TI;
  unsigned NumUnits;
};

} // namespace stinkytofu

#endif
