//===- InstrumentPasses.h - The passes of the asm-instrument library -*- C++ -*-===//
//
// A driver calls registerInstrumentPasses once, before it parses its command
// line (each registered pass becomes a `--<PassName>` option) and before it
// reads any input (the marker pseudo-instructions must be known to the
// reader):
//
//   SQTTInstrumentPass   SQTT markers and the .sqtt_funcmap text
//                        (asm-instrument/sqtt/SQTTInstrumentPass.h)
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_INSTRUMENTPASSES_H
#define ASM_INSTRUMENT_INSTRUMENTPASSES_H

#include "stinkytofu/passes/PassRegistry.h"

namespace stinkytofu {

/// Registers the library's passes with \p R and its pseudo-instructions with
/// the global PseudoInstructionRegistry. Calling it twice adds nothing twice.
void registerInstrumentPasses(PassRegistry &R);

} // namespace stinkytofu

#endif
