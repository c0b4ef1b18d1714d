//===- DescriptorBudget.cpp - Registers a kernel names vs. allocates ------===//
#include "stinkytofu/analysis/DescriptorBudget.h"
#include "stinkytofu/analysis/KernelAllocation.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The descriptor's budget, when its values are numbers.
struct Budget {
  unsigned NextFreeVGPR, NextFreeSGPR;
  std::optional<unsigned> AccumOffset;
};

std::optional<Budget> budgetOf(const KernelDescriptor &KD) {
  using Count = KernelDescriptor::Count;
  std::optional<uint64_t> V = KD.count(Count::NextFreeVGPR);
  std::optional<uint64_t> S = KD.count(Count::NextFreeSGPR);
  if (!V || !S)
    return std::nullopt;
  Budget B{unsigned(*V), unsigned(*S), std::nullopt};
  if (KD.states(Count::AccumOffset)) {
    std::optional<uint64_t> A = KD.count(Count::AccumOffset);
    if (!A)
      return std::nullopt;
    B.AccumOffset = *A;
  }
  return B;
}

std::optional<Budget> budgetOf(const Function &F) {
  std::optional<KernelDescriptor> KD = KernelDescriptor::find(*F.parent(), F.name());
  return KD ? budgetOf(*KD) : std::nullopt;
}

/// Why register \p Index of \p Class is outside \p B ("is ...", after its
/// name), or "". Most registers are inside: their names are not built.
std::string outside(const Budget &B, RegClass Class, unsigned Index) {
  std::string Why;
  raw_string_ostream OS(Why);
  switch (Class) {
  case RegClass::VGPR:
    if (B.AccumOffset && Index >= *B.AccumOffset)
      OS << "is at or above the descriptor's .amdhsa_accum_offset " << *B.AccumOffset
         << " (the first AGPR)";
    else if (Index >= B.NextFreeVGPR)
      OS << "is not below the descriptor's .amdhsa_next_free_vgpr " << B.NextFreeVGPR;
    break;
  case RegClass::AGPR:
    if ((B.AccumOffset ? *B.AccumOffset : 0) + Index >= B.NextFreeVGPR)
      OS << "is past the AGPRs the descriptor allocates (.amdhsa_next_free_vgpr "
         << B.NextFreeVGPR;
    if (B.AccumOffset && !Why.empty())
      OS << ", .amdhsa_accum_offset " << *B.AccumOffset;
    if (!Why.empty())
      OS << ")";
    break;
  case RegClass::SGPR:
    if (Index >= B.NextFreeSGPR)
      OS << "is not below the descriptor's .amdhsa_next_free_sgpr " << B.NextFreeSGPR;
    break;
  default:
    break;
  }
  return Why;
}

} // namespace

Error checkDescriptorBudget(const RegisterPressure &P) {
  const Function &F = P.liveness().function();
  std::optional<Budget> B = budgetOf(F);
  if (!B)
    return Error::success();
  const TargetInfo &TI = P.liveness().units().target();
  auto Check = [&](const Instruction &I, ArrayRef<MCRegister> Regs) -> Error {
    for (MCRegister R : Regs)
      for (MCRegister Part : TI.covered32(R)) {
        std::optional<unsigned> Index = TI.indexOf(Part);
        if (!Index)
          continue;
        std::string Why = outside(*B, TI.classOf(Part), *Index);
        if (!Why.empty())
          return sourceError(F.parent()->fileName(), I.location().Line, I.location().Column,
                             I.sourceText().rtrim("\r\n"),
                             "kernel " + F.name() + ": " + TI.asmName(Part) + " " + Why);
      }
    return Error::success();
  };
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (Error E = Check(I, I.facts().Uses))
        return E;
      if (Error E = Check(I, I.facts().Defs))
        return E;
    }
  return Error::success();
}

std::optional<SourceDiagnostic> overAllocationWarning(const RegisterPressure &P) {
  const Function &F = P.liveness().function();
  std::optional<KernelDescriptor> KD = KernelDescriptor::find(*F.parent(), F.name());
  std::optional<Budget> B = KD ? budgetOf(*KD) : std::nullopt;
  if (!B)
    return std::nullopt;
  // The allocation of a kernel that calls covers its callees' registers.
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions())
      if (P.liveness().callEffect(I))
        return std::nullopt;
  const HardwareModel &HW = P.liveness().units().target().hardware();
  const PressureCounts &Top = P.highestUsed();
  // The VGPRs the code needs: its AGPRs follow its VGPRs as the descriptor
  // places them.
  unsigned Needed = Top[PressureFile::AGPR]
                        ? unifiedVGPRs(HW, Top[PressureFile::VGPR], Top[PressureFile::AGPR])
                        : Top[PressureFile::VGPR];
  KernelResources Declared, Used;
  Declared.VGPRs = B->NextFreeVGPR;
  Used.VGPRs = std::min(Needed, B->NextFreeVGPR);
  // The reservations are the descriptor's either way (an absent one is on).
  unsigned Extra = reservedSGPRs(HW, *KD);
  Declared.SGPRs = B->NextFreeSGPR + Extra;
  Used.SGPRs = std::min(Top[PressureFile::SGPR], B->NextFreeSGPR) + Extra;
  Declared.Wave64 = Used.Wave64 = KD->wave64();
  unsigned Have = estimateOccupancy(HW, Declared).byRegisters();
  unsigned Could = estimateOccupancy(HW, Used).byRegisters();
  if (Could <= Have)
    return std::nullopt;
  SourceDiagnostic D;
  D.Kind = SourceMgr::DK_Warning;
  D.File = F.parent()->fileName().str();
  D.Message = ("kernel " + F.name() + " allocates " + Twine(B->NextFreeVGPR) + " VGPRs and " +
               Twine(B->NextFreeSGPR) + " SGPRs, its code names " + Twine(Needed) + " and " +
               Twine(Top[PressureFile::SGPR]) + ": " + Twine(Have) +
               " waves per SIMD where " + Twine(Could) + " would fit")
                  .str();
  return D;
}

} // namespace stinkytofu
