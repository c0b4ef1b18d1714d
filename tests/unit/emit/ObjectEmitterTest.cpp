//===- ObjectEmitterTest.cpp - In-process assembly into ELF objects -------===//
//
// assembleObject and emitObject (stinkytofu/emit/ObjectEmitter.h) on small
// kernels: the object's machine, symbols and code; MC errors and warnings.
// The lit tests (tests/lit/funcmap/one-shot*.test) compare whole objects
// with llvm-mc's.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/asm/AsmReader.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <string>

using namespace stinkytofu;

namespace {

const char *const MovKernel = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
                              "\t.text\n"
                              "\t.globl k\n"
                              "\t.type k,@function\n"
                              "k:\n"
                              "\ts_mov_b32 s0, 1\n"
                              "\ts_endpgm\n"
                              "\t.size k, .-k\n";

std::shared_ptr<const TargetInfo> gfx942() {
  llvm::Expected<std::shared_ptr<const TargetInfo>> T = TargetInfo::get("gfx942");
  EXPECT_TRUE(bool(T)) << toString(T.takeError());
  return *T;
}

/// The symbol \p Name's size in \p Object, or -1 when it is missing.
int64_t symbolSize(llvm::StringRef Object, llvm::StringRef Name) {
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> Obj =
      llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(Object, "k.o"));
  EXPECT_TRUE(bool(Obj)) << toString(Obj.takeError());
  for (const llvm::object::SymbolRef &S : (*Obj)->symbols()) {
    llvm::Expected<llvm::StringRef> SymName = S.getName();
    if (SymName && *SymName == Name)
      return int64_t(llvm::object::ELFSymbolRef(S).getSize());
    if (!SymName)
      consumeError(SymName.takeError());
  }
  return -1;
}

TEST(ObjectEmitterTest, AssemblesAnAMDGPURelocatableObject) {
  llvm::Expected<std::string> Obj = assembleObject(MovKernel, *gfx942());
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  ASSERT_GT(Obj->size(), sizeof(llvm::ELF::Elf64_Ehdr));
  const auto *Header = reinterpret_cast<const llvm::ELF::Elf64_Ehdr *>(Obj->data());
  EXPECT_EQ(Header->e_machine, llvm::ELF::EM_AMDGPU);
  EXPECT_EQ(Header->e_type, llvm::ELF::ET_REL);
  EXPECT_EQ(Header->e_flags & llvm::ELF::EF_AMDGPU_MACH,
            unsigned(llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942));
  // s_mov_b32 with an inline constant and s_endpgm: 4 bytes each.
  EXPECT_EQ(symbolSize(*Obj, "k"), 8);
}

TEST(ObjectEmitterTest, ErrorsAreRenderedDiagnostics) {
  std::string Text = std::string(MovKernel) + "\t.byte a - b\n";
  ObjectEmitOptions Opts;
  Opts.BufferName = "bad.s";
  llvm::Expected<std::string> Obj = assembleObject(Text, *gfx942(), Opts);
  ASSERT_FALSE(bool(Obj));
  std::string Msg = toString(Obj.takeError());
  EXPECT_NE(Msg.find("bad.s:9:10: error: symbol 'b' can not be undefined"), std::string::npos)
      << Msg;
}

TEST(ObjectEmitterTest, WarningsGoToTheirHandlerAndDoNotFail) {
  std::string Text = std::string(MovKernel) + "\t.warning \"look here\"\n";
  std::vector<SourceDiagnostic> Warnings;
  ObjectEmitOptions Opts;
  Opts.BufferName = "warn.s";
  Opts.Warnings = [&](const SourceDiagnostic &D) { Warnings.push_back(D); };
  llvm::Expected<std::string> Obj = assembleObject(Text, *gfx942(), Opts);
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0].Kind, llvm::SourceMgr::DK_Warning);
  EXPECT_EQ(Warnings[0].Message, "look here");
  EXPECT_NE(Warnings[0].render().find("warn.s:9:2: warning: look here"), std::string::npos)
      << Warnings[0].render();
}

TEST(ObjectEmitterTest, EmitObjectAssemblesTheWrittenModule) {
  llvm::Expected<std::unique_ptr<Module>> M =
      readAsm(llvm::MemoryBuffer::getMemBufferCopy(MovKernel, "k.s"), ReaderOptions());
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  llvm::Expected<std::string> FromModule = emitObject(**M);
  ASSERT_TRUE(bool(FromModule)) << toString(FromModule.takeError());
  llvm::Expected<std::string> FromText = assembleObject(MovKernel, *gfx942());
  ASSERT_TRUE(bool(FromText)) << toString(FromText.takeError());
  EXPECT_EQ(*FromModule, *FromText);
}

} // namespace
