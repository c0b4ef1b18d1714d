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
using namespace llvm;

namespace {

const char *const Kernel = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
                           "\t.text\n"
                           "\t.globl k\n"
                           "\t.type k,@function\n"
                           "k:\n"
                           "\ts_mov_b32 s0, 1\n"
                           "\ts_endpgm\n"
                           "\t.size k, .-k\n";

std::shared_ptr<const TargetInfo> gfx942() {
  Expected<std::shared_ptr<const TargetInfo>> T = TargetInfo::get("gfx942");
  EXPECT_TRUE(bool(T)) << toString(T.takeError());
  return *T;
}

/// The symbol \p Name's size in \p Object, or -1 when it is missing.
int64_t symbolSize(StringRef Object, StringRef Name) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(MemoryBufferRef(Object, "k.o"));
  EXPECT_TRUE(bool(Obj)) << toString(Obj.takeError());
  for (const object::SymbolRef &S : (*Obj)->symbols()) {
    Expected<StringRef> SymName = S.getName();
    if (SymName && *SymName == Name)
      return int64_t(object::ELFSymbolRef(S).getSize());
    if (!SymName)
      consumeError(SymName.takeError());
  }
  return -1;
}

TEST(ObjectEmitterTest, AssemblesAnAMDGPURelocatableObject) {
  Expected<std::string> Obj = assembleObject(Kernel, *gfx942());
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  ASSERT_GT(Obj->size(), sizeof(ELF::Elf64_Ehdr));
  const auto *Header = reinterpret_cast<const ELF::Elf64_Ehdr *>(Obj->data());
  EXPECT_EQ(Header->e_machine, ELF::EM_AMDGPU);
  EXPECT_EQ(Header->e_type, ELF::ET_REL);
  EXPECT_EQ(Header->e_flags & ELF::EF_AMDGPU_MACH, unsigned(ELF::EF_AMDGPU_MACH_AMDGCN_GFX942));
  // s_mov_b32 with an inline constant and s_endpgm: 4 bytes each.
  EXPECT_EQ(symbolSize(*Obj, "k"), 8);
}

TEST(ObjectEmitterTest, ErrorsAreRenderedDiagnostics) {
  std::string Text = std::string(Kernel) + "\t.byte a - b\n";
  ObjectEmitOptions Opts;
  Opts.BufferName = "bad.s";
  Expected<std::string> Obj = assembleObject(Text, *gfx942(), Opts);
  ASSERT_FALSE(bool(Obj));
  std::string Msg = toString(Obj.takeError());
  EXPECT_NE(Msg.find("bad.s:9:10: error: symbol 'b' can not be undefined"), std::string::npos)
      << Msg;
}

TEST(ObjectEmitterTest, WarningsGoToTheirHandlerAndDoNotFail) {
  std::string Text = std::string(Kernel) + "\t.warning \"look here\"\n";
  std::vector<SourceDiagnostic> Warnings;
  ObjectEmitOptions Opts;
  Opts.BufferName = "warn.s";
  Opts.Warnings = [&](const SourceDiagnostic &D) { Warnings.push_back(D); };
  Expected<std::string> Obj = assembleObject(Text, *gfx942(), Opts);
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0].Kind, SourceMgr::DK_Warning);
  EXPECT_EQ(Warnings[0].Message, "look here");
  EXPECT_NE(Warnings[0].render().find("warn.s:9:2: warning: look here"), std::string::npos)
      << Warnings[0].render();
}

TEST(ObjectEmitterTest, EmitObjectAssemblesTheWrittenModule) {
  Expected<std::unique_ptr<Module>> M =
      readAsm(MemoryBuffer::getMemBufferCopy(Kernel, "k.s"), ReaderOptions());
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  Expected<std::string> FromModule = emitObject(**M);
  ASSERT_TRUE(bool(FromModule)) << toString(FromModule.takeError());
  Expected<std::string> FromText = assembleObject(Kernel, *gfx942());
  ASSERT_TRUE(bool(FromText)) << toString(FromText.takeError());
  EXPECT_EQ(*FromModule, *FromText);
}

} // namespace
