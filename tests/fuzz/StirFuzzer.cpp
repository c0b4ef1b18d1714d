//===- StirFuzzer.cpp - libFuzzer target for the `.stir` reader -----------===//
//
// Reads every input with readStir. What reads is written as `.stir`, and
// that text must read again and write the same (the writer's output is a
// fixpoint of read + write); it must also write as assembly unless it holds
// a pseudo-instruction.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"
#include "stinkytofu/stir/StirReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/stir/StirWriter.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

static std::string stirText(const Module &M) {
  std::string Text;
  raw_string_ostream OS(Text);
  writeStir(M, OS);
  return Text;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Expected<std::unique_ptr<Module>> M =
      readStir(fuzz::inputBuffer(Data, Size, "fuzz-input.stir"), fuzz::readerOptions());
  if (!M) {
    consumeError(M.takeError());
    return 0;
  }
  std::string Asm;
  raw_string_ostream AsmOS(Asm);
  if (Error E = writeAsm(**M, AsmOS))
    consumeError(std::move(E));

  std::string Written = stirText(**M);
  Expected<std::unique_ptr<Module>> Again =
      readStir(MemoryBuffer::getMemBufferCopy(Written, "written.stir"), fuzz::readerOptions());
  if (!Again) {
    std::fprintf(stderr, "%s\n", toString(Again.takeError()).c_str());
    fuzz::check(false, "the .stir written does not read back");
  }
  fuzz::check(stirText(**Again) == Written, "writing the .stir read back changes it");
  return 0;
}
