//===- WaitCounters.h - Memory counters and the events that bump them -*- C++ -*-===//
//
// What a processor's memory wait counters are and what each instruction
// does to them. The instruction's class comes from LLVM MC (TSFlags,
// mayLoad/mayStore, operands); which counter a class increments, its limit
// and whether it completes in order come from the hardware model
// (HardwareModel.td: WaitCounter, CounterEvent, WaitEventMnemonics). The
// wait instructions themselves are read and spelled through MC as well:
// MC's printer decodes `s_waitcnt`, MC's parser encodes what spellWaits
// writes (hw-dependencies-reference.md section 1).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_WAITCOUNTERS_H
#define STINKYTOFU_HW_WAITCOUNTERS_H

#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace stinkytofu {

class TargetInfo;

/// A memory event an instruction starts; the names are those of the
/// WaitEvent records of HardwareModel.td.
enum class WaitEvent : uint8_t {
  VmemLoad,    ///< buffer/global/scratch/image load, atomic with return
  VmemStore,   ///< store, atomic without return
  LdsDma,      ///< buffer/global load into LDS
  FlatLds,     ///< a generic flat_* access, which may reach LDS
  Lds,         ///< ds_* on LDS (and ds_permute & co.)
  Gds,         ///< ds_* with gds, ds_gws_*
  GdsGprLock,  ///< the VGPRs a GDS operation still reads
  Smem,        ///< scalar memory
  Message,     ///< s_sendmsg*
  Export,      ///< exp: its source VGPRs stay busy
  LdsDir,      ///< lds_param_load, lds_direct_load
  Translation, ///< gfx1250 xcnt: the registers a VMEM op reads
  SmemTranslation, ///< the same for an SMEM op
  TensorLds,   ///< tensor_load_to_lds, tensor_store_from_lds
  AsyncLds,    ///< global_*_async_*_lds_*
};
inline constexpr unsigned NumWaitEvents = 15;
llvm::StringRef waitEventName(WaitEvent E);
inline constexpr uint32_t eventBit(WaitEvent E) { return 1u << static_cast<unsigned>(E); }

/// The most counters any processor has (gfx1250: 10).
inline constexpr unsigned MaxWaitCounters = 12;

/// For each counter of a processor, how many events a wait lets stay
/// outstanding, or NoWait.
struct WaitCounts {
  static constexpr int NoWait = -1;
  std::array<int, MaxWaitCounters> Count;

  WaitCounts() { Count.fill(NoWait); }
  bool waits(unsigned C) const { return Count[C] != NoWait; }
  bool empty() const;
  /// Tightens counter \p C to at most \p N.
  void require(unsigned C, int N) {
    Count[C] = Count[C] == NoWait ? N : std::min(Count[C], N);
  }
  /// Tightens every counter to \p Other's where it waits.
  void merge(const WaitCounts &Other);
  bool operator==(const WaitCounts &) const = default;
};

/// What one instruction does to the memory counters and to LDS.
struct MemoryAccess {
  uint32_t Events = 0; ///< eventBit() of each WaitEvent it starts
  bool ReadsLds = false;
  bool WritesLds = false;
  /// A generic flat_* access (both VMEM and LDS).
  bool GenericFlat = false;
  /// An atomic read-modify-write (TSFlags IsAtomicRet/IsAtomicNoRet).
  bool Atomic = false;
  bool has(WaitEvent E) const { return (Events & eventBit(E)) != 0; }
};

/// One wait instruction, by its fields: what spellWaits chose, for a pass
/// to build it from typed operands.
struct WaitStatement {
  llvm::StringRef Mnemonic;
  /// `s_waitcnt vmcnt(0) lgkmcnt(1)`: the counters it names and their
  /// counts, in the order they are written.
  llvm::SmallVector<std::pair<llvm::StringRef, unsigned>, 3> Fields;
  /// A packed (`s_wait_loadcnt_dscnt 0x607`) or single-counter wait
  /// (`s_wait_dscnt 0x0`): its immediate.
  std::optional<unsigned> Immediate;
  /// The gfx10/gfx11 SOPK forms name the null register before the count.
  bool NullFirst = false;

  /// The statement as LLVM writes it.
  std::string text() const;
};

class CounterModel {
public:
  explicit CounterModel(const TargetInfo &TI);

  const TargetInfo &target() const { return *TI; }
  const HardwareModel &hardware() const { return *HW; }
  unsigned numCounters() const { return HW->memoryCounters().size(); }
  llvm::StringRef counterName(unsigned C) const { return HW->memoryCounters()[C].Name; }
  unsigned counterMax(unsigned C) const { return HW->memoryCounters()[C].Max; }
  std::optional<unsigned> counterNamed(llvm::StringRef Name) const;
  /// The counter \p E increments here, if the processor has the event.
  std::optional<unsigned> counterOf(WaitEvent E) const { return EventCounter[unsigned(E)]; }
  bool inOrder(WaitEvent E) const { return EventInOrder[unsigned(E)]; }

  /// The memory events of \p Inst (its mnemonic \p Mnemonic).
  MemoryAccess classify(const llvm::MCInst &Inst, llvm::StringRef Mnemonic) const;

  /// What a counter wait (`s_waitcnt`, `s_wait_loadcnt_dscnt`, ...) waits
  /// for; nullopt for any other instruction.
  std::optional<WaitCounts> decodeWait(const llvm::MCInst &Inst, llvm::StringRef Mnemonic) const;
  /// The statements of the fewest wait instructions that wait for
  /// \p Counts: the forms naming several counters first (`s_waitcnt`, the
  /// gfx12 combined waits where both their counters wait), then one per
  /// remaining counter. Empty when \p Counts waits for nothing.
  llvm::SmallVector<WaitStatement, 2> waitStatements(const WaitCounts &Counts) const;
  /// The texts of waitStatements(\p Counts).
  llvm::SmallVector<std::string, 2> spellWaits(const WaitCounts &Counts) const;

private:
  const TargetInfo *TI;
  const HardwareModel *HW;
  std::array<std::optional<unsigned>, NumWaitEvents> EventCounter;
  std::array<bool, NumWaitEvents> EventInOrder{};
  /// What MC's printer said of an opcode with an immediate (the fields of
  /// an `s_waitcnt`, a DS `gds` bit): kernels repeat a few of them often.
  mutable llvm::DenseMap<std::pair<unsigned, int64_t>, WaitCounts> DecodedWaits;
  mutable llvm::DenseMap<std::pair<unsigned, int64_t>, bool> PrintedGds;
  /// TSFlags masks, from the model's LLVM 22 SIInstrFlags bits.
  uint64_t MubufMask = 0, MtbufMask = 0, SmrdMask = 0, ImageMask = 0, ExpMask = 0,
           FlatMask = 0, DsMask = 0, LdsDirMask = 0, FlatGlobalMask = 0,
           FlatScratchMask = 0, AtomicRetMask = 0, AtomicNoRetMask = 0, GwsMask = 0;
};

} // namespace stinkytofu

#endif
