//===- ClockRate.h - Shader cycles to time (realtime.json) ------*- C++ -*-===//
//
// realtime.json pairs shader-clock cycles with a realtime clock of known
// frequency, per SE: gfx Hz = frequency * d(shader) / d(realtime).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_CLOCKRATE_H
#define ASM_INSTRUMENT_TRACE_CLOCKRATE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::trace {

/// The shader clock in GHz from \p Path; std::nullopt when the file is
/// missing or has no SE with two distinct samples.
llvm::Expected<std::optional<double>> readClockRateGHz(llvm::StringRef Path);

/// A dispatch's shader clock in GHz: \p Given (--clock-rate-ghz) when set,
/// else its realtime.json (\p RealtimePath), else 1 GHz with a warning on
/// \p DispatchPath added to \p Warnings.
llvm::Expected<double> dispatchClockGHz(std::optional<double> Given, llvm::StringRef DispatchPath,
                                        llvm::StringRef RealtimePath,
                                        std::vector<std::string> &Warnings);

} // namespace stinkytofu::trace

#endif
