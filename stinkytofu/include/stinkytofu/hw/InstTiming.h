//===- InstTiming.h - Issue and latency cycles of an MC instruction -*- C++ -*-===//
//
// The timing class of an instruction (SALU, VALU, TRANS, MFMA, WMMA, SMEM,
// LDS, VMEM, ...) comes from LLVM MC: its TSFlags (at the bit positions
// HardwareModel.td declares) and its MCInstrDesc flags, never its mnemonic.
// Its cycles come from LLVM's scheduling model of the processor where MC
// has one (latency: MCSchedModel::computeInstrLatency; matrix pipe
// occupancy: the reciprocal throughput), else from the class's figures in
// HardwareModel.td (InstClass, CycleOverride), which are ours.
//
// Units are those of LLVM's scheduling model: shader clock cycles on gfx10+;
// on gfx9 (wave64 over SIMD16) one cycle is one four-clock issue pass.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_INSTTIMING_H
#define STINKYTOFU_HW_INSTTIMING_H

#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/MC/MCInst.h"
#include <array>
#include <cstdint>

namespace stinkytofu {

class TargetInfo;

/// What the cycle model needs to know of one MC instruction.
struct InstTimes {
  const InstClass *Class = nullptr;
  /// Cycles before the next instruction can issue.
  unsigned Issue = 1;
  /// Cycles until a register it writes can be read.
  unsigned Latency = 1;
  /// Cycles the matrix pipe stays busy (MFMA/WMMA passes); 0 for others.
  unsigned MatrixPipe = 0;
};

class InstTiming {
public:
  explicit InstTiming(const TargetInfo &TI);

  /// The hardware model's class of MC opcode \p Opcode, from MC's flags.
  const InstClass &classOf(unsigned Opcode) const;
  /// The class, issue and latency cycles of \p Inst on this processor.
  InstTimes times(const llvm::MCInst &Inst) const;
  /// The same for a statement \p Mnemonic that assembled to \p Insts: a
  /// macro issues all of them and its latency is the longest one; `s_nop N`
  /// (InstRole ScalarNop) issues for N+1 cycles. 1 and 1 without any.
  InstTimes times(llvm::ArrayRef<llvm::MCInst> Insts, llvm::StringRef Mnemonic) const;

  const TargetInfo &target() const { return *TI; }

private:
  /// The classes classOf gives, in the order of their names (ClassNames).
  enum ClassKind { Smem, Branch, Wmma, Mfma, Lds, Scratch, Vmem, Export, Trans, Valu,
                   Control, Salu, Other, NumClassKinds };
  const InstClass &classNamed(llvm::StringRef Name) const;
  /// Kind's class, looked up by name once (classNamed per instruction was
  /// a scan of string compares).
  const InstClass &classOfKind(ClassKind Kind) const;
  const TargetInfo *TI;
  std::array<const InstClass *, NumClassKinds> Classes{};
  uint64_t SaluMask, SoppMask, ValuMask, TransMask, MaiMask, WmmaMask, SmrdMask, DsMask,
      ScratchMask, VmemMask, ExpMask;
};

} // namespace stinkytofu

#endif
