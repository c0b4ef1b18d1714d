//===- InstrumentPasses.cpp - The passes of the asm-instrument library ----===//
#include "asm-instrument/InstrumentPasses.h"
#include "asm-instrument/sqtt/SQTTInstrumentPass.h"
#include "asm-instrument/sqtt/UserMarkers.h"

using namespace llvm;

namespace stinkytofu {

void registerInstrumentPasses(PassRegistry &R, StringMap<std::string> SQTTEnvironment) {
  R.add({"SQTTInstrumentPass",
         "insert SQTT markers (functions=N|cost:N, barriers, memory=N:M, "
         "scope-cu=0x3, ..., funcmap-out=FILE, funcmap-in-asm, verify, stats)",
         [Env = std::move(SQTTEnvironment)](const PassArguments &Args) {
           return sqtt::createSQTTInstrumentPass(Env, Args);
         },
         sqtt::markerPseudoInstructions(),
         // It inserts instructions: its pipelines end with the hazard repair
         // and the wait and hazard verifiers (docs/passes.md).
         CodeEffect::Changes});
}

} // namespace stinkytofu
