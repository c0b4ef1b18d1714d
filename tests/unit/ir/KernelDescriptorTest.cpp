//===- KernelDescriptorTest.cpp - Typed .amdhsa_kernel fields -------------===//
#include "stinkytofu/ir/KernelDescriptor.h"
#include "TestModules.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using stinkytofu::test::printAsmText;
using stinkytofu::test::readAsmText;

namespace {

const char *Source = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
                     "\t.text\n"
                     "\t.globl\tk\n"
                     "\t.type\tk,@function\n"
                     "k:\n"
                     "\ts_endpgm\n"
                     "\t.rodata\n"
                     "\t.p2align\t6, 0x0\n"
                     "\t.amdhsa_kernel k\n"
                     "\t\t.amdhsa_next_free_vgpr 0x20 ; vgprs\n"
                     "\t\t.amdhsa_next_free_sgpr   24   // sgprs\n"
                     "\t\t.amdhsa_accum_offset max(4, 4)\n"
                     "\t.end_amdhsa_kernel\n"
                     "\t.text\n";

TEST(KernelDescriptorTest, FieldsAreTyped) {
  std::unique_ptr<Module> M = readAsmText(Source);
  ASSERT_TRUE(M);
  EXPECT_FALSE(KernelDescriptor::find(*M, "other"));
  std::optional<KernelDescriptor> D = KernelDescriptor::find(*M, "k");
  ASSERT_TRUE(D);
  EXPECT_EQ(D->kernel(), "k");
  ASSERT_EQ(D->fields().size(), 3u);
  EXPECT_EQ(D->fields()[1].Key, ".amdhsa_next_free_sgpr");
  EXPECT_EQ(D->fields()[1].Value, "24");
  // Lines count from the item's start: `.rodata` and `.p2align` come first.
  EXPECT_EQ(D->fields()[1].Line, 4u);
  EXPECT_EQ(D->integer(".amdhsa_next_free_vgpr"), 32u);
  EXPECT_EQ(D->integer(".amdhsa_next_free_sgpr"), 24u);
  // An expression is MC's to evaluate: no number here.
  EXPECT_EQ(D->field(".amdhsa_accum_offset")->Value, "max(4, 4)");
  EXPECT_FALSE(D->integer(".amdhsa_accum_offset"));
  EXPECT_FALSE(D->field(".amdhsa_user_sgpr_count"));
  EXPECT_EQ(KernelDescriptor::all(*M).size(), 1u);
}

TEST(KernelDescriptorTest, SettingAFieldChangesOnlyItsValue) {
  std::unique_ptr<Module> M = readAsmText(Source);
  ASSERT_TRUE(M);
  std::optional<KernelDescriptor> D = KernelDescriptor::find(*M, "k");
  ASSERT_TRUE(D);
  ASSERT_FALSE(bool(D->setInteger(*M, ".amdhsa_next_free_sgpr", 130)));
  ASSERT_FALSE(bool(D->set(*M, ".amdhsa_next_free_vgpr", "48")));
  std::string Expected = Source;
  Expected.replace(Expected.find("24   //"), 2, "130");
  Expected.replace(Expected.find("0x20 ;"), 4, "48");
  EXPECT_EQ(printAsmText(*M), Expected);
  // The object and a new reading agree.
  EXPECT_EQ(D->integer(".amdhsa_next_free_sgpr"), 130u);
  EXPECT_EQ(KernelDescriptor::find(*M, "k")->integer(".amdhsa_next_free_sgpr"), 130u);
  EXPECT_EQ(KernelDescriptor::find(*M, "k")->integer(".amdhsa_next_free_vgpr"), 48u);

  llvm::Error Missing = D->setInteger(*M, ".amdhsa_user_sgpr_count", 2);
  EXPECT_EQ(llvm::toString(std::move(Missing)),
            "no field .amdhsa_user_sgpr_count");
  EXPECT_EQ(printAsmText(*M), Expected);
}

TEST(KernelDescriptorTest, InstPrefSizeIsSetOrAdded) {
  // Absent: a line before .end_amdhsa_kernel, indented like it.
  std::unique_ptr<Module> M = readAsmText(Source);
  ASSERT_TRUE(M);
  std::optional<KernelDescriptor> D = KernelDescriptor::find(*M, "k");
  ASSERT_TRUE(D);
  ASSERT_FALSE(bool(D->setInstPrefSize(*M, 3)));
  std::string Expected = Source;
  Expected.insert(Expected.find("\t.end_amdhsa_kernel"), "\t.amdhsa_inst_pref_size 3\n");
  EXPECT_EQ(printAsmText(*M), Expected);
  EXPECT_EQ(D->integer(KernelDescriptor::instPrefSizeKey()), 3u);
  // Present: only its value changes, in the object and in a new reading.
  ASSERT_FALSE(bool(D->setInstPrefSize(*M, 12)));
  Expected.replace(Expected.find("inst_pref_size 3"), 16, "inst_pref_size 12");
  EXPECT_EQ(printAsmText(*M), Expected);
  EXPECT_EQ(KernelDescriptor::find(*M, "k")->integer(KernelDescriptor::instPrefSizeKey()), 12u);
}

} // namespace
