//===- InstrumentPasses.h - The passes of the asm-instrument library -*- C++ -*-===//
//
// A driver calls registerInstrumentPasses with its context's registry before
// it parses its command line (each registered pass becomes a `--<PassName>`
// option) and before it reads any input with that context (the marker
// pseudo-instructions must be known to the reader):
//
//   SQTTInstrumentPass   SQTT markers and the .sqtt_funcmap text
//                        (asm-instrument/sqtt/SQTTInstrumentPass.h)
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_INSTRUMENTPASSES_H
#define ASM_INSTRUMENT_INSTRUMENTPASSES_H

#include "stinkytofu/passes/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace stinkytofu {

/// Registers the library's passes, and with them the pseudo-instructions they
/// lower, in \p R. \p SQTTEnvironment: the SQTT_* variables (name to value)
/// the driver read (sqtt::SQTTConfig::environmentVariables); the library
/// reads no environment. Registering again replaces the passes.
void registerInstrumentPasses(PassRegistry &R,
                              llvm::StringMap<std::string> SQTTEnvironment = {});

} // namespace stinkytofu

#endif
