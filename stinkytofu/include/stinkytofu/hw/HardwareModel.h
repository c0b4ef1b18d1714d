//===- HardwareModel.h - Per-architecture facts MC does not describe -*- C++ -*-===//
//
// LLVM MC gives mnemonics, operands, implicit registers and branch flags. The
// rest (wave size, SQTT trace instructions and hazards, register budgets,
// HW_ID field layouts, shader clock, default instruction timings and SQTT cost
// weights) is declared in stinkytofu/hw/HardwareModel.td and compiled into
// constexpr tables at build time. Models are immutable statics: lookup() hands
// out pointers that stay valid for the life of the program.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_HARDWAREMODEL_H
#define STINKYTOFU_HW_HARDWAREMODEL_H

#include "stinkytofu/hw/VgprMsbMode.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace stinkytofu {

namespace hwgen {
struct ProcessorDesc;
}

/// A bit field of a hardware register read with `s_getreg_b32`:
/// bits [Offset + Width - 1 : Offset] of hwreg \c HwRegId.
struct HwIdField {
  llvm::StringRef Name;      ///< "CU_ID", "WGP_ID", ...
  llvm::StringRef HwRegName; ///< assembler name: "HW_REG_HW_ID"
  unsigned HwRegId;          ///< hwreg id: 4, 23, 24, ...
  unsigned Offset;
  unsigned Width;

  /// The simm16 of `s_getreg_b32`: ((Width-1) << 11) | (Offset << 6) | HwRegId.
  unsigned getregImmediate() const {
    return ((Width - 1) << 11) | (Offset << 6) | HwRegId;
  }
  /// Mask of the field's bits within the 32-bit register.
  uint32_t mask() const {
    return static_cast<uint32_t>(((uint64_t(1) << Width) - 1) << Offset);
  }
};

/// Default timing and SQTT cost of a family of instructions.
struct InstClass {
  llvm::StringRef Name;    ///< "SALU", "VALU", "MFMA", "LDS", "VMEM", ...
  unsigned IssueCycles;
  unsigned LatencyCycles;
  unsigned CostWeight;     ///< SQTT function-size weight (MFMA 16, VMEM 10, LDS 4)
};

/// How the processor reads its shader clock.
enum class ShaderClockKind : uint8_t {
  SMemTime,              ///< `s_memtime s[n:n+1]`, 64-bit, SMEM (lgkmcnt wait)
  HwRegShaderCycles,     ///< `s_getreg_b32 sN, hwreg(HW_REG_SHADER_CYCLES)`, 20-bit
  HwRegShaderCyclesLoHi, ///< SHADER_CYCLES_LO/HI hwregs: read HI, LO, HI
  GetShaderCyclesU64,    ///< `s_get_shader_cycles_u64 s[n:n+1]`
};

struct ShaderClock {
  ShaderClockKind Kind;
  llvm::StringRef Mnemonic;    ///< instruction that reads the counter
  llvm::StringRef HwRegName;   ///< hwreg (low half) for the HwReg kinds, else ""
  unsigned HwRegId;
  llvm::StringRef HwRegHiName; ///< high-half hwreg for HwRegShaderCyclesLoHi
  unsigned HwRegHiId;
  unsigned Width;              ///< significant counter bits
  bool NeedsLgkmWait;          ///< result arrives through SMEM
};

/// What a rewrite pass needs to know about an instruction that MC's
/// descriptors do not say (HardwareModel.td, InstRole).
enum class InstRole : uint8_t {
  None,
  ScalarNop,  ///< s_nop
  VectorNop,  ///< v_nop
  DelayAlu,   ///< s_delay_alu
  DepCtrWait, ///< s_wait_alu, s_waitcnt_depctr
  HwRegWrite, ///< s_setreg_b32, s_setreg_imm32_b32
  Move32,     ///< s_mov_b32, v_mov_b32
  CrossLane,  ///< v_readlane_b32, v_permlane*, ds_bpermute_b32, ...
  Barrier,    ///< s_barrier, s_barrier_signal*: where waves synchronise
  BarrierWait, ///< s_barrier_wait: where a wave waits at a split barrier
  CacheInvalidate, ///< buffer_wbinvl1*, buffer_gl*_inv, buffer_inv, global_inv
  Clause,     ///< s_clause: groups the memory instructions after it
  ReturningMessage, ///< s_sendmsg_rtn_*: waits for every VALU result first
  LaneWrite,  ///< v_writelane_b32: its tied destination is not a data source
  ProgramCounterRead, ///< s_getpc_b64: its result depends on its address
  BranchIfZero,    ///< s_cbranch_scc0/vccz/execz: taken when the tested register is 0
  BranchIfNonZero, ///< s_cbranch_scc1/vccnz/execnz
  Sleep,           ///< s_sleep
  InstructionPrefetch, ///< s_prefetch_inst_pc_rel
  VgprMsbSwitch,   ///< s_set_vgpr_msb: which VGPRs later operands name
};

/// A memory wait counter: MC's name for it in wait syntax ("vmcnt",
/// "loadcnt", ...) and the largest count a wait instruction can name.
struct WaitCounterDesc {
  llvm::StringRef Name;
  unsigned Max;
};

/// A memory event (hw/WaitCounters.h names them) and the counter it
/// increments on one processor, an index into memoryCounters().
struct CounterEventDesc {
  llvm::StringRef Event;
  unsigned Counter;
  /// Completions are reported in issue order, so a count other than 0
  /// proves the older events done.
  bool InOrder;
};

/// How a wait that packs several counts into one immediate lays them out.
struct PackedWaitLayout {
  unsigned Offsets[2];
  unsigned NumFields;
  unsigned Width;

  /// Field \p F of immediate \p Imm.
  int64_t decode(int64_t Imm, unsigned F) const { return (Imm >> Offsets[F]) & fieldMax(); }
  /// A field's largest value: waiting for that many waits for nothing.
  int64_t fieldMax() const { return (int64_t(1) << Width) - 1; }
};

/// One field of the immediate of the ALU dependency wait
/// (`s_waitcnt_depctr` / `s_wait_alu`): bits [Offset + Width - 1 : Offset].
struct DepCtrField {
  llvm::StringRef Name; ///< MC's spelling after `depctr_`: "va_vdst", "sa_sdst", ...
  unsigned Offset;
  unsigned Width;

  /// The field's largest value, which waits for nothing.
  unsigned max() const { return (1u << Width) - 1; }
  uint32_t mask() const { return uint32_t(max()) << Offset; }
  unsigned decode(uint32_t Imm) const { return (Imm >> Offset) & max(); }
};

/// How many waves of a kernel one SIMD holds (HardwareModel.td, Occupancy;
/// hw/Occupancy.h computes with it).
struct OccupancyRules {
  unsigned MaxWavesPerSimd;
  /// VGPR allocation block and VGPRs per lane of one SIMD, default wave
  /// size; AGPRs included where the file is unified.
  unsigned VgprGranule;
  unsigned VgprFile;
  /// The same for wave64 on a wave32 processor; 0 when it has no wave64.
  unsigned VgprGranuleWave64;
  unsigned VgprFileWave64;
  /// The most SGPRs allowing 10, 9, 8, ... waves; empty when SGPRs never
  /// limit.
  llvm::ArrayRef<unsigned> SgprWaveSteps;
  /// LDS shared by the waves of one CU (gfx9) or WGP (gfx10+).
  unsigned LdsBytes;
  /// Workgroups of more than one wave a CU (WGP) runs at once.
  unsigned WorkgroupBarriers;
  /// Whether a kernel may run in CU mode (gfx10 to gfx12).
  bool HasCuMode;
  /// SGPRs held above .amdhsa_next_free_sgpr for a reserved VCC,
  /// XNACK_MASK, FLAT_SCRATCH (each count includes the ones before).
  unsigned ExtraSgprsVcc;
  unsigned ExtraSgprsXnack;
  unsigned ExtraSgprsFlatScratch;
};

/// The HW_ID dimensions an SQTT scope check filters on.
enum class ScopeDim : uint8_t { Wave, Simd, Cu, Wg };

class HardwareModel {
public:
  /// The model of \p Processor ("gfx942"); a target-id feature suffix
  /// ("gfx90a:xnack+") is ignored. Null if the processor is unknown.
  static const HardwareModel *lookup(llvm::StringRef Processor);
  /// All modelled processors, in gfx order (gfx900 ... gfx1250).
  static llvm::ArrayRef<llvm::StringRef> processors();

  llvm::StringRef processor() const;
  /// "gfx9", "gfx10", "gfx11" or "gfx12".
  llvm::StringRef generation() const;
  /// Default wavefront size: 64 on gfx9, 32 on gfx10+.
  unsigned waveSize() const;

  /// `s_ttracedata_imm` is usable for markers (gfx11, gfx12).
  bool hasTtraceDataImm() const;
  /// Largest `s_ttracedata_imm` value SQTT records intact (0 without _imm).
  unsigned ttraceDataImmMax() const;
  /// An SALU write of M0 needs `s_nop 0` before `s_ttracedata` (gfx9).
  bool needsNopBeforeTtraceData() const;

  /// Addressable SGPRs (s0..s[N-1]), excluding VCC and trap temporaries.
  unsigned maxSGPRs() const;
  /// Addressable VGPRs; on gfx90a/gfx942/gfx950 the unified file incl. AGPRs.
  unsigned maxVGPRs() const;
  bool hasAGPRs() const;
  const OccupancyRules &occupancy() const;
  /// How this processor reaches VGPRs 256 and up (s_set_vgpr_msb), None
  /// when it has none (hw/VgprMsbMode.h).
  VgprMsbMode vgprMsbMode() const;
  bool hasHighVgprs() const { return vgprMsbMode() != VgprMsbMode::None; }

  /// HW_ID register fields, in register and bit order.
  llvm::ArrayRef<HwIdField> hwIdFields() const;
  /// The field called \p Name ("CU_ID"), or null.
  const HwIdField *hwIdField(llvm::StringRef Name) const;
  /// The field an SQTT scope check reads for \p Dim (gfx9 CU_ID / gfx10+
  /// WGP_ID for ScopeDim::Cu, TG_ID / WG_ID for ScopeDim::Wg).
  const HwIdField &scopeField(ScopeDim Dim) const;
  /// `s_sendmsg_rtn_b32` message id that returns SE/AID when HW_ID has no
  /// SE field (gfx1250: MSG_RTN_GET_SE_AID_ID = 135).
  std::optional<unsigned> seAidSendMsgId() const;

  const ShaderClock &shaderClock() const;

  /// Every instruction class with this processor's cycles.
  llvm::ArrayRef<InstClass> instClasses() const;
  /// The class of a lower-case mnemonic by longest matching prefix; the
  /// "OTHER" class when no prefix matches.
  const InstClass &classify(llvm::StringRef Mnemonic) const;

  /// The role of a lower-case mnemonic (InstRole records of the .td file);
  /// the same on every processor.
  static InstRole roleOf(llvm::StringRef Mnemonic);
  /// The lower-case mnemonics whose role is \p Role: what a caller compares
  /// a mnemonic with instead of hashing it (roleOf) where few have the role.
  static llvm::SmallVector<llvm::StringRef, 4> mnemonicsOf(InstRole Role);
  /// Whether a lower-case mnemonic is a hazard wait: a nop, `s_delay_alu`
  /// or a depctr wait, which holds issue and touches no data.
  static bool isHazardWait(llvm::StringRef Mnemonic);
  /// The counters a memory-counter wait waits on, by MC's field names
  /// (`s_wait_loadcnt_dscnt`: loadcnt, dscnt; `s_waitcnt`: vmcnt, expcnt,
  /// lgkmcnt); empty for any other mnemonic (CounterWait records).
  static llvm::SmallVector<llvm::StringRef, 3> waitCounters(llvm::StringRef Mnemonic);

  /// The memory wait counters, in the order the .td file lists them.
  llvm::ArrayRef<WaitCounterDesc> memoryCounters() const;
  /// What each memory event increments (events the processor lacks are
  /// absent).
  llvm::ArrayRef<CounterEventDesc> counterEvents() const;
  /// `s_barrier` does not wait for memory itself: all counters must be 0.
  bool barrierNeedsIdleCounters() const;
  /// A second VMEM load into a VGPR needs no wait for the first.
  bool vmemWritesVgprInOrder() const;
  /// A pending generic flat_* keeps its counters in order.
  bool flatCountsInOrder() const;
  /// s_delay_alu counts the matrix instructions (class WMMA) as TRANS.
  bool delayAluMatrixIsTrans() const;
  /// The wait before a read of an SGPR an SALU wrote ("" when none is
  /// needed): `s_wait_alu depctr_sa_sdst(0)` for LLVM's VALUReadSGPRHazard
  /// (gfx1200/gfx1201).
  llvm::StringRef saluSgprReadWait() const;
  /// What goes before `v_writelane_b32 vD, sX, lane` / after `v_readlane_b32
  /// sX, vD, lane` when an SGPR is parked in a VGPR lane (an instruction,
  /// "" for none): the wait states or dependency wait the target needs.
  llvm::StringRef sgprLaneSaveWait() const;
  llvm::StringRef sgprLaneRestoreWait() const;
  /// The suffix of LLVM's M0-free DS pseudos on this target ("_gfx9"), or
  /// "" when MC's DS encodings list M0 exactly (TargetInfo::dsReadsM0).
  llvm::StringRef dsM0FreeVariant() const;

  /// The fields of the ALU dependency wait, high bits first; empty before
  /// gfx10 (no such wait).
  llvm::ArrayRef<DepCtrField> depCtrFields() const;
  /// Every depctr field any processor has (the same layout wherever the
  /// wait exists), for code that knows no processor.
  static llvm::ArrayRef<DepCtrField> allDepCtrFields();
  /// The depctr field called \p Name ("va_vdst"), or null.
  const DepCtrField *depCtrField(llvm::StringRef Name) const;
  /// Whether LLVM guards the depctr hazard rule \p Rule ("VALUReadSGPR") on
  /// this processor (DepCtrHazard records).
  bool hasDepCtrHazard(llvm::StringRef Rule) const;

  /// Every memory-counter wait mnemonic (CounterWait records), sorted.
  static llvm::SmallVector<llvm::StringRef, 16> counterWaitMnemonics();
  /// The memory event of a mnemonic MC's flags do not place (a message,
  /// a tensor or async LDS transfer), or "".
  static llvm::StringRef eventOfMnemonic(llvm::StringRef Mnemonic);
  /// The address-trace kind of a DS lane shuffle ("ds_permute",
  /// "ds_bpermute"; LanePermute), or "".
  static llvm::StringRef lanePermuteKind(llvm::StringRef Mnemonic);
  /// The packed layout of a wait naming several counters in one
  /// immediate (`s_wait_loadcnt_dscnt`), or null.
  static const PackedWaitLayout *packedWaitLayout(llvm::StringRef Mnemonic);
  /// The bit of LLVM 22's SIInstrFlags (TSFlags) called \p Name ("DS",
  /// "FlatGlobal", ...); the .td file declares them (TSFlagBits).
  static std::optional<unsigned> tsFlagBit(llvm::StringRef Name);

  /// Only the generated tables construct models.
  constexpr explicit HardwareModel(const hwgen::ProcessorDesc &D) : D(&D) {}
  HardwareModel(const HardwareModel &) = delete;
  HardwareModel &operator=(const HardwareModel &) = delete;

private:
  const hwgen::ProcessorDesc *D;
};

} // namespace stinkytofu

#endif // STINKYTOFU_HW_HARDWAREMODEL_H
