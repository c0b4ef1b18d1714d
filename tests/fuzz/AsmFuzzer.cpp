//===- AsmFuzzer.cpp - libFuzzer target for the `.s` reader ---------------===//
//
// Reads every input with readAsm (gfx942 unless the text names its target;
// fuzz::readerOptions()).
// Whatever reads must write back: as assembly, byte for byte the input (the
// identity the tool promises when no pass runs), unless it holds a
// pseudo-instruction, which writeAsm refuses; and as `.stir`.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/stir/StirWriter.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::unique_ptr<MemoryBuffer> Buffer = fuzz::inputBuffer(Data, Size, "fuzz-input.s");
  std::string Input = Buffer->getBuffer().str();
  Expected<std::unique_ptr<Module>> M = readAsm(std::move(Buffer), fuzz::readerOptions());
  if (!M) {
    consumeError(M.takeError());
    return 0;
  }
  std::string Asm;
  raw_string_ostream AsmOS(Asm);
  if (Error E = writeAsm(**M, AsmOS))
    consumeError(std::move(E));
  else
    fuzz::check(Asm == Input, "writing what was read does not give back the input");
  std::string Stir;
  raw_string_ostream StirOS(Stir);
  writeStir(**M, StirOS);
  return 0;
}
