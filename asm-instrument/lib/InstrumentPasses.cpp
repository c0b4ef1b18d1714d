//===- InstrumentPasses.cpp - The passes of the asm-instrument library ----===//
#include "asm-instrument/InstrumentPasses.h"
#include "asm-instrument/sqtt/SQTTInstrumentPass.h"
#include "asm-instrument/sqtt/UserMarkers.h"
#include "stinkytofu/mc/PseudoInstructions.h"

namespace stinkytofu {

void registerInstrumentPasses(PassRegistry &R) {
  sqtt::registerMarkerPseudoInstructions(PseudoInstructionRegistry::global());
  if (!R.find("SQTTInstrumentPass"))
    R.add({"SQTTInstrumentPass",
           "insert SQTT markers (functions=N|cost:N, barriers, memory=N:M, "
           "scope-cu=0x3, ..., funcmap-out=FILE, funcmap-in-asm, verify, stats)",
           sqtt::createSQTTInstrumentPass});
}

} // namespace stinkytofu
