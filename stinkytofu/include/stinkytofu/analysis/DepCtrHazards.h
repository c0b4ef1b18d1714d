//===- DepCtrHazards.h - Where an ALU dependency wait is needed --*- C++ -*-===//
//
// The hazards LLVM resolves with a depctr wait (`s_wait_alu` on gfx12+,
// `s_waitcnt_depctr` before), found on final assembly the way LLVM finds
// them on MIR. Which rules a processor has is hardware-model data
// (HardwareModel::hasDepCtrHazard); what makes an instruction an SALU, a
// VALU or a memory access comes from MC (TSFlags, operands, MCInstrDesc).
//
// VALUReadSGPR (gfx1200/1201, LLVM's AMDGPUWaitSGPRHazards): SGPRs are
// tracked in pairs once a VALU has read the pair. A read of a tracked SGPR
// with an SALU write still in flight needs sa_sdst(0); a VALU read of one
// with a VALU write in flight needs va_sdst(0); a read of VCC after a VALU
// wrote it va_vcc(0). Calls, returns and indirect branches need every
// pending write done; after a call, and at the start of a non-entry
// function, every pair counts as read. VMEM (not FLAT) and SMEM
// instructions and existing depctr waits end the hazards they cover. The
// state flows over the CFG as LLVM's pass lets it: a block with one
// predecessor starts from that predecessor's end state, a join point from
// the union of everything that reached it, iterated to a fixed point; then
// one walk reports each instruction that needs a wait.
//
// VALUTransUse (gfx1100-gfx1103, LLVM's GCNHazardRecognizer): a VALU reading
// a VGPR a TRANS instruction wrote at most 5 VALUs (1 TRANS) earlier needs
// va_vdst(0); VMEM, FLAT, DS, export and a va_vdst(0) wait end it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_DEPCTRHAZARDS_H
#define STINKYTOFU_ANALYSIS_DEPCTRHAZARDS_H

#include "stinkytofu/analysis/HazardFinding.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace stinkytofu {

class Function;
class Instruction;
class TargetInfo;

/// The depctr fields a wait sets to 0, as a mask.
enum DepCtrZeroField : uint8_t {
  DZ_SaSdst = 1u << 0, ///< SALU SGPR writes in flight
  DZ_VaVcc = 1u << 1,  ///< VALU VCC writes in flight
  DZ_VaSdst = 1u << 2, ///< VALU SGPR writes in flight
  DZ_VaVdst = 1u << 3, ///< VALU VGPR writes in flight
};

/// The hardware model's name of each field of \p Mask ("sa_sdst", ...), in
/// the order MC prints them.
std::vector<llvm::StringRef> depCtrFieldNames(uint8_t Mask);

/// One instruction that must not issue before some depctr fields are 0.
struct DepCtrWaitNeed {
  const Instruction *Consumer = nullptr;
  /// The last instruction of the same block that made it wait, or null
  /// when that write reached the block from elsewhere (or the wait flushes
  /// a call or return).
  const Instruction *Producer = nullptr;
  uint8_t Fields = 0; ///< DepCtrZeroField bits
  std::string Rule;   ///< "VALUReadSGPR", "VALUTransUse"
  std::string Detail; ///< the register and the wait, in words
};

/// Every instruction of \p F (with a valid CFG) that needs a depctr wait the
/// code before it does not give, in block and instruction order. Empty on a
/// processor with no depctr hazard rule.
std::vector<DepCtrWaitNeed> findDepCtrWaitNeeds(const Function &F, const TargetInfo &TI);

/// The same as hazard findings (Severity::Error, Missing 0), for
/// HazardVerifier.
std::vector<HazardFinding> findMissingDepCtrWaits(const Function &F, const TargetInfo &TI);

} // namespace stinkytofu

#endif
