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
         sqtt::markerPseudoInstructions()});
}

} // namespace stinkytofu
