//===- DescriptorBudget.h - Registers a kernel names vs. allocates -*- C++ -*-===//
//
// A kernel descriptor allocates VGPRs, AGPRs and SGPRs
// (`.amdhsa_next_free_vgpr`, `.amdhsa_accum_offset` where AGPRs follow the
// VGPRs in a unified file, `.amdhsa_next_free_sgpr`); the hardware gives a
// wave no more. An instruction naming a register above that is an error
// at the instruction. A descriptor allocating more than the code names,
// so that fewer waves fit than the code needs, is a warning giving the
// waves it costs (not for a kernel that calls: its allocation covers its
// callees). Descriptors whose values are expressions are not checked.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_DESCRIPTORBUDGET_H
#define STINKYTOFU_ANALYSIS_DESCRIPTORBUDGET_H

#include "stinkytofu/analysis/RegisterPressure.h"
#include "stinkytofu/support/Diagnostics.h"
#include <optional>

namespace stinkytofu {

/// An error at the first instruction of the kernel \p P describes that
/// names a register its descriptor does not allocate; success otherwise.
llvm::Error checkDescriptorBudget(const RegisterPressure &P);

/// A warning when the kernel's descriptor allocates so many more VGPRs or
/// SGPRs than its code names that fewer waves fit; none otherwise.
std::optional<SourceDiagnostic> overAllocationWarning(const RegisterPressure &P);

} // namespace stinkytofu

#endif
