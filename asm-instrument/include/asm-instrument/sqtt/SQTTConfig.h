//===- SQTTConfig.h - SQTT instrumentation settings --------------*- C++ -*-===//
//
// The settings of the SQTT marker spec (000_980c6751ccb7de58.txt,
// "Configuration"): from the environment variables the reference pass reads
// (as the driver read them and handed them to registerInstrumentPasses; the
// library never reads the environment), then overridden by
// `--SQTTInstrumentPass=key=value,flag` arguments.
//
//   environment                 argument              value
//   SQTT_INSTRUMENT_FUNCTIONS   functions=            N | cost:N (0: off)
//   SQTT_INSTRUMENT_BARRIERS    barriers[=]           0/1, yes/no, on/off, true/false
//   SQTT_INSTRUMENT_MEMORY      memory=               N:M (N >= 1 ops per marker,
//                                                      M max gap) | off
//   SQTT_SCOPE_WAVE/SIMD/CU/WG  scope-wave= ...       mask (0x.., decimal) | -1
//   SQTT_SHADER_CLOCK_BITS      shader-clock-bits=    0 (default) | 1..29
//   SQTT_SHADER_CLOCK_SHIFT     shader-clock-shift=   0..31 (default 4)
//   SQTT_MEM_BARRIER            mem-barrier=          none|asm|fence|0|1|2|...
//   SQTT_INSTRUMENT_LOOPS       loops[=]              all (bare `loops`) | outer | off
//   SQTT_TRACE_ADDRESSES        addresses=            memory | lds | memory,lds
//                                                      (`+` also separates) | off
//
// SQTT_MEM_BARRIER is accepted and checked but has no effect: it selects an
// IR-level reordering boundary, and placement in final assembly is exact.
// Output settings have no variable: arguments funcmap-out=FILE,
// funcmap-in-asm, verify (the instrumentation verifier, on unless verify=0),
// stats (printed to the context's statsStream(), with the density report),
// density-warn=N (MarkerDensity.h), which a driver's options may supply
// (addPasses' leading arguments). An invalid value is an error that names
// the variable or argument.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_SQTTCONFIG_H
#define ASM_INSTRUMENT_SQTT_SQTTCONFIG_H

#include "asm-instrument/sqtt/AddressTrace.h"
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {
class HardwareModel;
}

namespace stinkytofu::sqtt {

enum class CostMode : uint8_t { InstructionCount, WeightedCost };
enum class MemBarrierMode : uint8_t { None, Asm, Fence };
/// Loop-phase scopes (LoopMarkers.h): none, every natural loop, outermost only.
enum class LoopMode : uint8_t { Off, All, Outer };

/// Which waves emit markers, one mask per HW_ID dimension; bit i set: id i
/// emits. A dimension is checked only when its mask is not full.
struct ScopeMasks {
  static constexpr uint32_t FullWave = 0xFFFFFFFF, FullSimd = 0xF, FullCu = 0xFFFF,
                            FullWg = 0xFFFFFFFF;
  uint32_t Wave = FullWave;
  uint32_t Simd = FullSimd;
  uint32_t Cu = 0x3; ///< the spec's default: CU/WGP 0 and 1
  uint32_t Wg = FullWg;

  bool checksWave() const { return (Wave & FullWave) != FullWave; }
  bool checksSimd() const { return (Simd & FullSimd) != FullSimd; }
  bool checksCu() const { return (Cu & FullCu) != FullCu; }
  bool checksWg() const { return (Wg & FullWg) != FullWg; }
  bool needsCheck() const { return checksWave() || checksSimd() || checksCu() || checksWg(); }
};

struct SQTTConfig {
  // --- What to instrument --------------------------------------------------
  CostMode FunctionMode = CostMode::InstructionCount;
  /// Callable functions bigger than this get entry/exit markers; 0: off.
  unsigned FunctionThreshold = 0;
  bool InstrumentBarriers = false;
  /// N:M memory grouping; MemoryChunk 0: off.
  unsigned MemoryChunk = 0;
  unsigned MemoryMaxGap = 0;
  ScopeMasks Scope;
  MemBarrierMode MemBarrier = MemBarrierMode::Fence;
  /// gfx12 shader-clock packing; 0: off.
  unsigned ShaderClockBits = 0;
  unsigned ShaderClockShift = 4;
  LoopMode Loops = LoopMode::Off;
  /// Address tracing (AddressTrace.h); excludes memory markers.
  AddressTraceFilter Addresses;

  // --- Outputs (arguments only) ---------------------------------------------
  /// Where the driver writes funcMap() once the whole run has succeeded; the
  /// pass writes no file itself.
  std::string FuncmapOut;
  bool FuncmapInAsm = false;
  /// The insertion verifier runs unless turned off (`verify=0`): what the
  /// pass writes is proven by default.
  bool Verify = true;
  bool Stats = false;
  /// Warn about a loop body with more than one marker record per this many
  /// instructions (0: never); set, it warns also without `stats`.
  std::optional<unsigned> DensityWarn;
  /// docs/sqtt-instrument.md, "Density report".
  static constexpr unsigned DefaultDensityWarn = 20;

  bool functionsEnabled() const { return FunctionThreshold != 0; }
  bool memoryEnabled() const { return MemoryChunk != 0; }

  /// The environment's settings over the defaults. \p Getenv returns a
  /// variable's value, or none when unset (tests pass their own).
  static llvm::Expected<SQTTConfig>
  fromEnvironment(llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Getenv);
  /// The variables fromEnvironment reads, for a driver to collect.
  static std::vector<llvm::StringRef> environmentVariables();

  /// Applies pass arguments over the current settings (arguments win).
  llvm::Error applyArguments(const PassArguments &Args);

  /// Checks the settings against a target: shader-clock packing only where
  /// the target supports it (gfx12), bits and shift in range.
  llvm::Error checkTarget(const HardwareModel &HW) const;
};

// --- Value parsers (shared by environment and arguments; unit-tested) -------
// Each names \p What (the variable or argument) in its error.

/// `N` or `cost:N`.
llvm::Error parseFunctions(llvm::StringRef What, llvm::StringRef V, CostMode &Mode,
                           unsigned &Threshold);
/// `N:M` with N >= 1, or `off`/`0` (disabled).
llvm::Error parseMemory(llvm::StringRef What, llvm::StringRef V, unsigned &Chunk,
                        unsigned &MaxGap);
/// A 32-bit mask: decimal, 0x-hex, or -1 for all ones.
llvm::Expected<uint32_t> parseMask(llvm::StringRef What, llvm::StringRef V);
/// 0/1, yes/no, y/n, on/off, true/false.
llvm::Expected<bool> parseBool(llvm::StringRef What, llvm::StringRef V);
llvm::Expected<unsigned> parseUnsigned(llvm::StringRef What, llvm::StringRef V);
/// `memory`, `lds`, both (separated by `,` or `+`), or off/none/0.
llvm::Expected<AddressTraceFilter> parseAddresses(llvm::StringRef What, llvm::StringRef V);
/// all/on/1, outer, off/none/0.
llvm::Expected<LoopMode> parseLoops(llvm::StringRef What, llvm::StringRef V);
/// none/off/0, asm/compiler/clobber/1, fence/on/hw/2.
llvm::Expected<MemBarrierMode> parseMemBarrier(llvm::StringRef What, llvm::StringRef V);

} // namespace stinkytofu::sqtt

#endif
