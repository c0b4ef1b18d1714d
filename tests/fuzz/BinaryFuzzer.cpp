//===- BinaryFuzzer.cpp - libFuzzer target for binary input ---------------===//
//
// Feeds every input to the binary reader as stinkytofu-opt does: the kernel
// listing, then the disassembly of its code object (an ELF code object, an
// offload bundle or a host ELF with `.hip_fatbin`), which must be assembly
// the `.s` reader reads: the disassembler writes only what LLVM decoded and
// re-assembly proved, so a reader error on its output is a broken invariant.
// Errors of the input itself are expected and dropped. Run for a fixed
// number of iterations by tests/lit/fuzz/binary.test.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/disasm/BinaryInput.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::unique_ptr<MemoryBuffer> Buffer = fuzz::inputBuffer(Data, Size, "fuzz-input.co");
  std::string Listing;
  raw_string_ostream ListingOS(Listing);
  if (Error E = listBinaryKernels(Buffer->getMemBufferRef(), ListingOS))
    consumeError(std::move(E));
  Expected<std::unique_ptr<MemoryBuffer>> Asm =
      disassembleBinary(Buffer->getMemBufferRef(), BinarySelection{});
  if (!Asm) {
    consumeError(Asm.takeError());
    return 0;
  }
  Expected<std::unique_ptr<Module>> M = readAsm(std::move(*Asm), fuzz::readerOptions());
  if (!M) {
    std::string Message = toString(M.takeError());
    std::fprintf(stderr, "%s\n", Message.c_str());
    fuzz::check(false, "the disassembly of a binary does not read back");
  }
  return 0;
}
