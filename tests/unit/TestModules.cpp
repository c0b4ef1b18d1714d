//===- TestModules.cpp - Modules read from text, for unit tests -----------===//
#include "TestModules.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/stir/StirReader.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

namespace stinkytofu::test {

namespace {

using Reader = llvm::Expected<std::unique_ptr<Module>> (*)(std::unique_ptr<llvm::MemoryBuffer>,
                                                           const ReaderOptions &);

std::unique_ptr<Module> readText(Reader Read, llvm::StringRef Text, llvm::StringRef Arch,
                                 bool AllowUnknown, llvm::StringRef FileName,
                                 StinkyTofuContext *Context) {
  ReaderOptions RO;
  RO.Arch = Arch.str();
  RO.AllowUnknownInstructions = AllowUnknown;
  RO.Context = Context;
  auto M = Read(llvm::MemoryBuffer::getMemBufferCopy(Text, FileName), RO);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

} // namespace

std::unique_ptr<Module> readAsmText(llvm::StringRef Text, llvm::StringRef Arch,
                                    bool AllowUnknown, llvm::StringRef FileName,
                                    StinkyTofuContext *Context) {
  return readText(readAsm, Text, Arch, AllowUnknown, FileName, Context);
}

std::unique_ptr<Module> readStirText(llvm::StringRef Text, llvm::StringRef Arch,
                                     llvm::StringRef FileName) {
  return readText(readStir, Text, Arch, /*AllowUnknown=*/false, FileName,
                  /*Context=*/nullptr);
}

std::string printAsmText(const Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (llvm::Error E = writeAsm(M, OS))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return S;
}

std::vector<const Instruction *> allInstructions(const Module &M) {
  std::vector<const Instruction *> Out;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        Out.push_back(&I);
  return Out;
}

} // namespace stinkytofu::test
