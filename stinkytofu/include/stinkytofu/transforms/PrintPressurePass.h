//===- PrintPressurePass.h - The register pressure report --------*- C++ -*-===//
//
// `stinkytofu-opt --print-pressure` and the `PrintPressure` pass: for every
// function, the registers live at each instruction (RegisterPressure.h) as
// a listing (line, live VGPR/AGPR/SGPR counts, a map of the VGPRs, the
// instruction), the maxima per loop, and for a kernel the waves per SIMD
// its allocation allows (hw/Occupancy.h, analysis/KernelAllocation.h), the
// resource that limits them and what to free for one more wave. In JSON
// (format=json) one object per kernel, without the listing; as a picture
// (format=svg, PressurePlot.h) one panel per kernel.
// docs/pressure.md describes both.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_PRINTPRESSUREPASS_H
#define STINKYTOFU_TRANSFORMS_PRINTPRESSUREPASS_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/pass/PassArguments.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

enum class PressureFormat : uint8_t { Text, JSON, SVG };

struct PressureReportOptions {
  PressureFormat Format = PressureFormat::Text;
  /// The work-items per workgroup every kernel is launched with
  /// (`--workgroup-size`), instead of what its metadata says.
  std::optional<unsigned> WorkgroupSize;
};

/// Writes the report of every function of \p M (a CFG in each) to \p OS.
/// A kernel naming a register its descriptor does not allocate is an error
/// (DescriptorBudget.h), before anything is written; a descriptor that
/// allocates waves away is a warning to \p Warn.
llvm::Error printModulePressure(Module &M, AnalysisManager &AM, llvm::raw_ostream &OS,
                                const PressureReportOptions &Options,
                                const DiagnosticHandler &Warn);

/// The largest workgroup a kernel may have (LLVM's getMaxFlatWorkGroupSize).
inline constexpr unsigned MaxWorkgroupSize = 1024;

/// The `PrintPressure` pass (`format=text|json|svg`, `workgroup-size=N`):
/// the report to the context's dumpStream().
llvm::Expected<std::unique_ptr<Pass>> createPrintPressurePass(const PassArguments &Args);

} // namespace stinkytofu

#endif
