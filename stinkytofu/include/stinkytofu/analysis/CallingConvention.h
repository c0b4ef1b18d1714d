//===- CallingConvention.h - Registers a call may clobber --------*- C++ -*-===//
//
// The AMDGPU C calling convention (CC_AMDGPU_Func) as LLVM 22 implements it:
// the callee-saved lists CSR_AMDGPU and CSR_AMDGPU_GFX90AInsts of
// llvm/lib/Target/AMDGPU/AMDGPUCallingConv.td, which since
// llvm/llvm-project#127353 interleave callee- and caller-saved registers in
// stripes of 8. Checked against llc-22: a callee that clobbers every SGPR,
// VGPR and AGPR saves exactly these on gfx900, gfx908, gfx90a, gfx942,
// gfx1100 and gfx1250.
//
//   SGPRs  s30-s39, s48-s55, s64-s71, s80-s87, s96-s105
//          (s30:s31 return address, s32 stack, s33 frame, s34 base pointer)
//   VGPRs  v40-v47, v56-v63, ..., v248-v255 (8 of every 16 from v40)
//   AGPRs  a32-a255 on targets with the gfx90a instructions (gfx90a, gfx942,
//          gfx950); none on gfx908
//
// Arguments go in s0-s29 (with the implicit ones: private segment buffer,
// dispatch and queue pointers, workgroup IDs) and v0-v31 (v31 also carries
// the packed work-item IDs); s30:s31 hold the return address and s32 the
// stack pointer. These are the only SGPRs and VGPRs a callee reads as
// inputs: it keeps the callee-saved ones as they were and gives no meaning
// to the others.
//
// Everything else, including SCC, VCC, EXEC, M0, the trap temporaries and
// VGPRs above v255, is taken as clobbered by a call to an unknown callee.
//
// Values are returned in v0-v31 (RetCC_AMDGPU_Func), the argument VGPRs.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CALLINGCONVENTION_H
#define STINKYTOFU_ANALYSIS_CALLINGCONVENTION_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/BitVector.h"

namespace stinkytofu {

class Function;

bool isCalleeSavedSGPR(unsigned Index);
bool isCalleeSavedVGPR(unsigned Index);
bool isArgumentVGPR(unsigned Index);
/// s0-s32: the arguments, the return address and the stack pointer.
bool isCalleeInputSGPR(unsigned Index);
/// \p HasGFX90AInsts: the target has the gfx90a instructions (see below).
bool isCalleeSavedAGPR(unsigned Index, bool HasGFX90AInsts);
/// Whether \p TI's subtarget has FeatureGFX90AInsts (what LLVM keys the
/// AGPR callee-saved list on).
bool hasGFX90AInsts(const TargetInfo &TI);

/// The units of every callee-saved register of \p RU's target.
llvm::BitVector calleeSavedUnits(const RegisterUnits &RU);
/// The complement: what a call to a callee we cannot see may write.
llvm::BitVector callClobberedUnits(const RegisterUnits &RU);
/// What a callee we cannot see, called by the convention, may read: its
/// input SGPRs and VGPRs, and every register outside the SGPR, VGPR and
/// AGPR files but SCC, M0 and VCC (the convention passes no argument in them
/// and a call clobbers all three).
llvm::BitVector calleeInputUnits(const RegisterUnits &RU);

/// What the caller of a function that follows the convention may read after
/// it returns: everything but M0, SCC, VCC and the caller-saved SGPRs (every
/// VGPR: a callee keeps the inactive lanes of the caller-saved ones too).
llvm::BitVector liveAfterAbiReturn(const RegisterUnits &RU);
/// How many VGPRs v0, v1, ... \p F returns a value in, as its code shows:
/// the longest run from v0 that its own instructions write on every path to
/// a return (a callee's writes not included), at most 32. The return type
/// is not in the assembly: a void function that writes v0 on every path
/// gets 1, a function that returns its argument unchanged 0.
unsigned returnValueVGPRs(const Function &F);

/// Of liveAfterAbiReturn, the SGPRs, VGPRs and AGPRs whose values such a
/// function itself holds at a return: the return address s[30:31] and the
/// stack pointer s32; the return value v0..v[\p ReturnVGPRs - 1]; the
/// callee-saved registers it writes (units \p Written). A callee-saved
/// register it leaves alone still holds its caller's value, which costs the
/// function no register (register pressure counts what a function holds).
/// Registers outside the three files are kept as liveAfterAbiReturn has
/// them.
llvm::BitVector heldAtAbiReturn(const RegisterUnits &RU, const llvm::BitVector &Written,
                                unsigned ReturnVGPRs);

} // namespace stinkytofu

#endif
