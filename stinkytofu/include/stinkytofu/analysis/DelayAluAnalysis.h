//===- DelayAluAnalysis.h - The s_delay_alu each ALU instruction needs -*- C++ -*-===//
//
// gfx11 and later issue an ALU instruction whether or not the results it
// reads are ready; a wave that reads too early stalls the SIMD instead of
// letting another wave issue. `s_delay_alu` tells the sequencer which
// earlier ALU result the next instruction (and, `instskip` instructions
// later, a second one) waits for, so that it switches waves meanwhile.
// Missing delays cost time, never correctness.
//
// The model is LLVM's AMDGPUInsertDelayAlu (hw-dependencies-reference.md
// section 3.2): for every register unit the last VALU, TRANS or SALU that
// wrote it, with the cycles until its result is ready (the def's write
// latency in MC's scheduling model) and how many VALU / TRANS instructions
// issued since. Every instruction takes one cycle (`s_nop N`: N+1); a VALU
// result is forgotten after 5 VALUs, a TRANS result after 4 TRANS, any
// result once its cycles have passed. Memory instructions, messages with a
// return value and `depctr_va_vdst(0)` wait for every VALU result and clear
// the state; SMEM and SALU instructions with register operands wait for
// VALU writes of SGPRs, which forgets the VALU results not newer than the
// last one that wrote an SGPR. Only explicit operands count. Block states
// are merged (worst case of each kind) until a fixed point, then every
// block is walked once more to collect the delays.
//
// The `s_delay_alu` already in the code are no instructions to the model
// (LLVM inserts them last); they only say which delays the code asks for.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_DELAYALUANALYSIS_H
#define STINKYTOFU_ANALYSIS_DELAYALUANALYSIS_H

#include "stinkytofu/analysis/HazardFinding.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/MC/MCRegister.h"
#include <cstdint>
#include <vector>

namespace stinkytofu {

/// One field value of `s_delay_alu` (`instid0`, `instid1`) as the hardware
/// encodes it: 0 none, 1..4 VALU_DEP_1..4, 5..7 TRANS32_DEP_1..3, 8
/// FMA_ACCUM_CYCLE_1 (never needed here), 9..11 SALU_CYCLE_1..3.
using AluDelayId = uint8_t;

/// The delays one instruction needs.
struct DelayAluDemand {
  const Instruction *Consumer = nullptr;
  /// The newest instruction waited for, and the register it writes that
  /// the consumer reads.
  const Instruction *Producer = nullptr;
  llvm::MCRegister Register;
  /// What an `s_delay_alu` right before the consumer would say, as LLVM
  /// encodes it: a TRANS wait before a VALU wait, an SALU wait last (and
  /// dropped when both slots are taken). Second is 0 for a single delay.
  AluDelayId First = 0, Second = 0;
  /// The `s_delay_alu` instructions in the code already ask for these
  /// delays (or longer ones).
  bool Covered = false;
  /// The `s_delay_alu` whose instid0 names the consumer, if any.
  const Instruction *Announcer = nullptr;
};

class DelayAluAnalysis {
public:
  /// Runs over \p F (its CFG must be valid). Nothing on targets without
  /// `s_delay_alu` (before gfx11).
  static DelayAluAnalysis run(const Function &F);

  /// Every ALU instruction that waits for an earlier ALU result, in layout
  /// order.
  llvm::ArrayRef<DelayAluDemand> demands() const { return Demands; }

private:
  std::vector<DelayAluDemand> Demands;
};

/// The `s_delay_alu` fields of the immediate \p Imm: instid0, instskip,
/// instid1 (bits 3:0, 6:4, 10:7).
struct DelayAluImmediate {
  AluDelayId First = 0, Second = 0;
  unsigned Skip = 0;
  static DelayAluImmediate decode(int64_t Imm);
};

/// Whether \p I starts a basic block of LLVM's: the first instruction of
/// its block, or one after a `; %bb.N:` comment (a block that needed no
/// label). LLVM's s_delay_alu state that is local to a block (the last
/// s_delay_alu with room for a second delay, the last VALU SGPR write)
/// starts anew there.
bool startsLlvmBlock(const Instruction &I);

/// `instid0(VALU_DEP_1)`: the name the assembler gives a delay id.
llvm::StringRef aluDelayName(AluDelayId Id);

/// For the hazard verifier: one Warning per instruction of \p F (its CFG
/// valid) whose delay the `s_delay_alu` instructions in the code do not ask
/// for, naming the register and the `s_delay_alu` that would.
std::vector<HazardFinding> findMissingDelayAlu(const Function &F);

} // namespace stinkytofu

#endif
