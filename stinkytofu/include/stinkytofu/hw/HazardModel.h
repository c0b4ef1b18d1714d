//===- HazardModel.h - The hazard rules of a processor ----------*- C++ -*-===//
//
// The rules of hw/HazardRules.td for one processor, and what they need to
// know of an instruction: its hazard classes, taken from LLVM MC (TSFlags,
// MCInstrDesc, operands, the scheduling model's MFMA pass count) and from
// the .td's HazardRole/MatrixKind records where MC has no flag, and its
// registers by role (matrix sources, lane select, store data). Whether a
// producer and a consumer are related by a rule is decided here too; the
// search for producers over the CFG is analysis/HazardAnalysis.h.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_HAZARDMODEL_H
#define STINKYTOFU_HW_HAZARDMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace stinkytofu {

class TargetInfo;
struct InstrFacts;

/// The instruction classes rules name (HazardRules.td), one bit each.
enum class HazardClass : uint8_t {
  Any, VALU, SALU, VMEM, SMEM, DS, EXP, DPP, TRANS, GDS, LdsDma,
  MFMA, MFMA2Pass, XDL, NonXdl, SMFMA, DGEMM, DGEMM4x4, DGEMM16x16,
  AccVgprRead, AccVgprWrite, DOT, WMMA, VALUNotMFMA, VALUNotMFMANotDOT, VALUNotTRANS,
  WideStore, WideStoreUnlessSgprSoffset, DstSelForwarding, DenseWMMA, SWMMAC, VALUNotWMMA,
  // HazardRole records.
  DivFmas, ReadLane, WriteLane, SetReg, GetReg, Fma64, M0Reader,
  NumClasses
};
using HazardClassSet = uint64_t;
constexpr HazardClassSet classBit(HazardClass C) { return HazardClassSet(1) << unsigned(C); }

/// How a producer's registers meet a consumer's (docs/hazards.md).
enum class HazardRelation : uint8_t {
  ScalarRead, ExplicitScalarRead, VgprRead, ExplicitRead, VccWrite, VccRead, ExecWrite,
  M0Write, LaneSelect, Src0Read, SameHwReg, StoreDataWrite, SrcCFull, SrcCOverlap, SrcCRead,
  SrcABOverlap, SrcCOverwrite, AgprOverlap, MatrixResultRead, MatrixResultWrite,
  MatrixSourceOverlap, DotRead, DotOverwrite, Always, SrcABRead, AnyOperand, MatrixOperandWrite,
  ExplicitSourceWrite,
};

struct HazardRule {
  llvm::StringRef Name;
  HazardClassSet Producer = 0, Consumer = 0;
  HazardRelation Relation = HazardRelation::Always;
  unsigned WaitStates = 0;
  /// Wait states by the producer's pass count 2, 4, 8, 16 when HasByPasses.
  std::array<uint8_t, 4> ByPasses{};
  bool HasByPasses = false;
  /// Only VALUs count, and v_nop is the fix (else every instruction counts
  /// as LLVM counts wait states, and s_nop is the fix).
  bool CountsValus = false;

  /// The wait states needed after a producer of \p Passes passes.
  unsigned waitStatesAfter(unsigned Passes) const;
  /// The most any producer needs: how far back a search must look.
  unsigned maxWaitStates() const;
  /// Only the nearest MFMA writing the register counts (LLVM's matrix
  /// checks): an older producer is hidden behind it.
  bool seesNearestMatrixWriterOnly() const;
};

/// What the rules need to know of one instruction.
struct HazardTraits {
  HazardClassSet Classes = 0;
  unsigned Opcode = 0;
  /// Matrix instructions: passes through the pipeline (MC's scheduling
  /// model: the first write resource's ReleaseAtCycle); 0 otherwise.
  unsigned Passes = 0;
  /// Issue slots as LLVM counts wait states: `s_nop N` is N+1, others 1.
  unsigned WaitStates = 1;
  /// What it counts for the rules counted in VALUs: 1 for a VALU, a WMMA's
  /// whole latency (it holds the pipe), 0 otherwise (s_nop included).
  unsigned ValuSlots = 0;
  /// Registers written and read, explicit and implicit (generic MC
  /// registers, tuples whole), and the explicit reads alone.
  llvm::SmallVector<llvm::MCRegister, 4> Defs, Uses, ExplicitUses;
  /// The register sources in operand order after the definitions: a matrix
  /// instruction's A, B, C (and SWMMAC index); src0 and the lane select of
  /// v_readlane / v_writelane.
  llvm::SmallVector<llvm::MCRegister, 4> Sources;
  /// An operand position given as a register, else invalid.
  llvm::MCRegister Src0, Src1;
  /// The first definition (a matrix instruction's D).
  llvm::MCRegister Dst;
  /// The data of a store wider than 64 bits.
  llvm::MCRegister StoreData;
  /// The hardware register of s_setreg / s_getreg.
  std::optional<unsigned> HwReg;

  bool is(HazardClass C) const { return Classes & classBit(C); }
  bool isAny(HazardClassSet Set) const { return Classes & Set; }
};

class HazardModel;

/// HazardModel::overlap, each pair of registers worked out once (MC walks
/// both registers' units): a search for producers asks the same pairs of a
/// kernel's registers again and again. One per analysis, not shared
/// between threads.
class RegisterOverlaps {
public:
  explicit RegisterOverlaps(const HazardModel &Model) : Model(&Model) {}
  bool operator()(llvm::MCRegister A, llvm::MCRegister B) const;

private:
  const HazardModel *Model;
  mutable llvm::DenseMap<uint64_t, bool> Known;
};

class HazardModel {
public:
  explicit HazardModel(const TargetInfo &TI);
  /// The model of \p TI's processor, built once (TargetInfo lives as long
  /// as the program).
  static const HazardModel &of(const TargetInfo &TI);

  const TargetInfo &target() const { return *TI; }
  llvm::ArrayRef<HazardRule> rules() const { return Rules; }
  /// Soft clauses of SMEM (and VMEM) instructions must be broken where a
  /// member writes what another reads (XNACK replay; off with `xnack-`).
  bool smemSoftClauses() const { return SoftClauses; }
  bool vmemSoftClauses() const { return VmemSoftClauses; }
  /// The most wait states one s_nop gives.
  unsigned maxNopStates() const { return MaxNopStates; }

  /// The traits of \p Inst (one MC instruction) spelled \p Mnemonic, and
  /// with its facts already at hand.
  HazardTraits traits(const llvm::MCInst &Inst, llvm::StringRef Mnemonic) const;
  HazardTraits traits(const llvm::MCInst &Inst, llvm::StringRef Mnemonic,
                      const InstrFacts &Facts) const;

  bool overlap(llvm::MCRegister A, llvm::MCRegister B) const;
  bool isVector(llvm::MCRegister R) const;

  /// The consumer registers \p Rule looks at (an invalid register stands
  /// for the relations that need none).
  llvm::SmallVector<llvm::MCRegister, 4> consumerRegisters(const HazardRule &Rule,
                                                           const HazardTraits &Consumer) const;
  /// \p Producer, of the rule's producer class, relates to \p Consumer's
  /// register \p Reg (one of consumerRegisters()); \p Overlaps answers
  /// overlap().
  bool relates(const HazardRule &Rule, const HazardTraits &Producer,
               const HazardTraits &Consumer, llvm::MCRegister Reg,
               const RegisterOverlaps &Overlaps) const;
  /// \p Instr hides every older producer from \p Rule at \p Reg: the
  /// matrix relations look at the nearest matrix instruction writing it.
  bool shadows(const HazardRule &Rule, const HazardTraits &Instr, llvm::MCRegister Reg,
               const RegisterOverlaps &Overlaps) const {
    // Asked of every instruction a matrix rule's search passes: the class
    // bit first.
    return Instr.is(HazardClass::MFMA) && Rule.seesNearestMatrixWriterOnly() &&
           Overlaps(Instr.Dst, Reg);
  }

private:
  const TargetInfo *TI;
  std::vector<HazardRule> Rules;
  bool SoftClauses = false, VmemSoftClauses = false, SplitsXdl = false;
  unsigned MaxNopStates = 16;
  llvm::MCRegister Vcc, Exec, M0;
};

} // namespace stinkytofu

#endif
