//===- VgprMsb.h - VGPRs 256..1023 and s_set_vgpr_msb ------------*- C++ -*-===//
//
// The encoding side of gfx1250's high VGPRs, shared by RaiseVgprMsbPass and
// InsertVgprMsbPass (transforms/) so that the two directions cannot drift.
//
// An instruction's 8-bit VGPR fields are extended by the two bits of the
// slot its field belongs to in the current s_set_vgpr_msb state: bits 1:0
// src0, 3:2 src1, 5:4 src2, 7:6 dst. Which slot an MC operand is in is
// LLVM MC's knowledge, not ours: LLVM's instruction printer, told the state
// by MC's instruction analysis (as llvm-objdump does), notes the register
// each VGPR operand really names (`v16 /*v272*/`), so printing once per slot
// with that slot's bank at 1 shows which operands it extends (one probe set
// per opcode, cached). No mnemonic list and no table of operand names.
//
// The IR keeps MC operands with the logical registers (VGPR300, not VGPR44):
// the code emitter writes only the low 8 bits, so the encoding is the same,
// and liveness and register units see the register really used.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_VGPRMSB_H
#define STINKYTOFU_HW_VGPRMSB_H

#include "stinkytofu/hw/VgprMsbMode.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <memory>
#include <optional>

namespace llvm {
class MCCodeEmitter;
class MCContext;
class MCInstPrinter;
class MCInstrAnalysis;
} // namespace llvm

namespace stinkytofu {

class TargetInfo;

namespace vgprmsb {
enum Slot : uint8_t { Src0 = 0, Src1 = 1, Src2 = 2, Dst = 3 };
constexpr unsigned NumSlots = 4;
constexpr unsigned VgprsPerBank = 256;
/// The two bits of \p S in state byte \p State.
inline unsigned bankOf(uint8_t State, unsigned S) { return (State >> (2 * S)) & 3; }
inline uint8_t withBank(uint8_t State, unsigned S, unsigned Bank) {
  return uint8_t((State & ~(3u << (2 * S))) | ((Bank & 3) << (2 * S)));
}
/// The state an s_set_vgpr_msb immediate sets (its low byte, both modes).
inline uint8_t stateOfImmediate(int64_t Imm) { return uint8_t(Imm & 0xFF); }
/// The immediate that sets \p State after \p Previous in \p Mode (msb16:
/// the previous state in bits 15:8; 0 there when it is not known).
inline int64_t immediateFor(VgprMsbMode Mode, uint8_t State,
                            std::optional<uint8_t> Previous) {
  if (Mode == VgprMsbMode::Msb16 && Previous)
    return (int64_t(*Previous) << 8) | State;
  return State;
}
/// LLVM's comment on an s_set_vgpr_msb: `msbs: dst=1 src0=0 src1=0 src2=0`.
std::string describeState(uint8_t State);
} // namespace vgprmsb

/// What one instruction needs of the state: for each slot whose operands
/// name VGPRs, the bank they are in.
struct VgprMsbNeed {
  uint8_t Mask = 0;  ///< 0b11 at each slot that is needed
  uint8_t Value = 0; ///< the banks there
  bool any() const { return Mask != 0; }
  bool satisfiedBy(uint8_t Known, uint8_t KnownMask) const {
    return (KnownMask & Mask) == Mask && (Known & Mask) == Value;
  }
};

/// The MSB slots of a target's instructions, from its disassembler.
class VgprMsbCodec {
public:
  explicit VgprMsbCodec(const TargetInfo &Target);
  ~VgprMsbCodec();

  /// The slot of each operand of \p Inst (-1: it takes no high bits), or an
  /// error when MC cannot decode the instruction back.
  llvm::Expected<llvm::ArrayRef<int8_t>> slots(const llvm::MCInst &Inst);
  /// The operands the VGPRs of \p Inst's assembly name, in the order the
  /// assembly writes them (VOPD writes vdstX, src0X, vdstY, src0Y; MC holds
  /// vdstX, vdstY, src0X, src0Y); a tied operand is not written.
  llvm::Expected<llvm::ArrayRef<uint8_t>> writtenOrder(const llvm::MCInst &Inst);
  /// The operand of \p Inst each VGPR written in \p Text names, comparing
  /// registers as they are or (\p Low) their low 8 bits only:
  /// by written order when the counts agree, else the first unused operand
  /// with that register. -1 for a token that names none.
  llvm::SmallVector<int, 8> operandsOfTokens(const llvm::MCInst &Inst, llvm::StringRef Text,
                                             bool Low);
  /// Rewrites the VGPR operands of \p Inst, read under \p State, to the
  /// registers they name (VGPR44 in a slot of bank 1 -> VGPR300).
  llvm::Error raise(llvm::MCInst &Inst, uint8_t State);
  /// Moves the operands of \p Inst, read from \p Text with each VGPR of 256
  /// and above in its low spelling, to the registers \p Text writes (a tied
  /// operand with the one it is tied to).
  llvm::Error raiseWritten(llvm::MCInst &Inst, llvm::StringRef Text);
  /// The banks \p Inst's VGPR operands need; an error when two operands of
  /// one slot need different banks, or a high VGPR sits where no slot
  /// reaches.
  llvm::Expected<VgprMsbNeed> need(const llvm::MCInst &Inst);
  /// True when some VGPR operand of \p Inst is 256 or above.
  bool hasHighVgpr(const llvm::MCInst &Inst) const;
  /// \p Reg (a VGPR, tuple or 16-bit half) moved by \p Delta registers;
  /// invalid when there is no such register.
  llvm::MCRegister rebase(llvm::MCRegister Reg, int Delta) const;
  /// The first VGPR index of \p Reg, if it is a VGPR (tuple, half).
  std::optional<unsigned> vgprIndex(llvm::MCRegister Reg) const;
  /// How many 32-bit VGPRs \p Reg covers (1 for a 16-bit half).
  unsigned vgprCount(llvm::MCRegister Reg) const;
  /// The MC opcode of s_set_vgpr_msb; 0 when the target has none.
  unsigned setVgprMsbOpcode() const { return SetMsbOpcode; }

private:
  llvm::Error encode(const llvm::MCInst &Inst, llvm::SmallVectorImpl<char> &Bytes);

  const TargetInfo &Target;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<llvm::MCCodeEmitter> Emitter;
  /// LLVM's printer and the instruction analysis it asks for the state the
  /// last s_set_vgpr_msb set (what llvm-objdump annotates with).
  std::unique_ptr<llvm::MCInstrAnalysis> Analysis;
  std::unique_ptr<llvm::MCInstPrinter> Printer;
  unsigned SetMsbOpcode = 0;
  struct Probed {
    llvm::SmallVector<int8_t, 8> Slots;
    llvm::SmallVector<uint8_t, 8> Order;
  };
  llvm::Expected<const Probed &> probe(const llvm::MCInst &Inst);
  llvm::DenseMap<uint64_t, Probed> SlotsByOpcode;
};

} // namespace stinkytofu

#endif
