//===- CodeObjectDisassemblerTest.cpp - Code objects as assembly ----------===//
//
// disassembleCodeObject on objects LLVM MC assembles here: branch-target
// labels, undecodable words, padding, LLVM's descriptor made to reproduce
// its bytes, and the text assembling back into the same code
// (stinkytofu/disasm/CodeObjectDisassembler.h). Linked code objects, bundles
// and fat binaries: tests/lit/binary.
//
//===----------------------------------------------------------------------===//
#include "AssembledKernel.h"
#include "stinkytofu/disasm/BinaryInput.h"
#include "stinkytofu/disasm/CodeObjectDisassembler.h"
#include "stinkytofu/object/ElfImage.h"

#include "gtest/gtest.h"

#include <string>

using namespace stinkytofu;

namespace {

const char *const LoopKernelSource = R"(	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_mov_b32 s0, 4
.Lloop:
	s_sub_u32 s0, s0, 1
	s_cmp_lg_u32 s0, 0
	s_cbranch_scc1 .Lloop
	s_branch .Ldone
	.long 0xdeadbeef
.Ldone:
	s_endpgm
	.size k, .-k
	.rodata
	.p2align 6
	.amdhsa_kernel k
	.amdhsa_next_free_vgpr 3
	.amdhsa_next_free_sgpr 20
	.amdhsa_accum_offset 4
	.end_amdhsa_kernel
)";

llvm::StringRef textOf(const elf::ElfImage &Image) {
  return Image.sectionContents(Image.sections()[Image.findSections(".text").front()]);
}

TEST(CodeObjectDisassemblerTest, LabelsUndecodableWordsAndDescriptor) {
  std::string Object = test::assembleKernel(LoopKernelSource);
  llvm::Expected<elf::ElfImage> Image = elf::ElfImage::create(Object);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  llvm::Expected<std::string> Text = disassembleCodeObject(*Image, {});
  ASSERT_TRUE(bool(Text)) << toString(Text.takeError());
  // The loop head is 4 bytes into k, the end 0x18.
  EXPECT_NE(Text->find("\n.Lk_4:\n\ts_sub_u32 s0, s0, 1\n"), std::string::npos) << *Text;
  EXPECT_NE(Text->find("\ts_cbranch_scc1 .Lk_4\n\ts_branch .Lk_18\n"
                       "\t.long 0xdeadbeef ; undecodable\n.Lk_18:\n\ts_endpgm\n"),
            std::string::npos)
      << *Text;
  // gfx942 with XNACK "any" needs the mask reserved; LLVM 22 writes 0.
  EXPECT_NE(Text->find("\t.amdhsa_reserve_xnack_mask 1\n"), std::string::npos) << *Text;
  EXPECT_NE(Text->find(".amdhsa_kernel k\n"), std::string::npos);

  std::string Again = test::assembleKernel(*Text);
  llvm::Expected<elf::ElfImage> AgainImage = elf::ElfImage::create(Again);
  ASSERT_TRUE(bool(AgainImage)) << toString(AgainImage.takeError());
  EXPECT_EQ(textOf(*AgainImage), textOf(*Image));

  llvm::Expected<std::vector<std::string>> Kernels = codeObjectKernels(*Image);
  ASSERT_TRUE(bool(Kernels));
  EXPECT_EQ(*Kernels, std::vector<std::string>{"k"});
}

TEST(CodeObjectDisassemblerTest, UnknownKernelIsAnError) {
  std::string Object = test::assembleKernel(LoopKernelSource);
  llvm::Expected<elf::ElfImage> Image = elf::ElfImage::create(Object);
  ASSERT_TRUE(bool(Image));
  DisassemblyOptions Options;
  Options.Kernel = "other";
  llvm::Expected<std::string> Text = disassembleCodeObject(*Image, Options);
  ASSERT_FALSE(bool(Text));
  EXPECT_EQ(toString(Text.takeError()),
            "no kernel named 'other' (--list-kernels lists them)");
}

TEST(BinaryInputTest, RecognisesBinariesByTheirFirstBytes) {
  EXPECT_TRUE(isBinaryInput("\x7f" "ELF\x02\x01"));
  EXPECT_TRUE(isBinaryInput("__CLANG_OFFLOAD_BUNDLE__\x01"));
  EXPECT_TRUE(isBinaryInput("CCOB\x03\x00"));
  EXPECT_FALSE(isBinaryInput("\t.text\n"));
  EXPECT_FALSE(isBinaryInput(""));
}

TEST(BinaryInputTest, TextIsNotACodeObject) {
  std::unique_ptr<llvm::MemoryBuffer> Text =
      llvm::MemoryBuffer::getMemBuffer("\ts_endpgm\n", "k.s");
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Asm =
      disassembleBinary(Text->getMemBufferRef(), BinarySelection{});
  ASSERT_FALSE(bool(Asm));
  EXPECT_EQ(toString(Asm.takeError()), "not an ELF file or offload bundle");
}

} // namespace
