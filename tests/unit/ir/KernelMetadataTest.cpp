//===- KernelMetadataTest.cpp - A kernel's .amdgpu_metadata entry ---------===//
#include "stinkytofu/ir/KernelMetadata.h"
#include "TestModules.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using stinkytofu::test::printAsmText;
using stinkytofu::test::readAsmText;

namespace {

// The metadata alone: a kernel's entry does not need its code.
const char *MetadataOnlySource = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
                                 "\t.amdgpu_metadata\n"
                                 "---\n"
                                 "amdhsa.kernels:\n"
                                 "  - .group_segment_fixed_size: 0\n"
                                 "    .kernarg_segment_align: 8\n"
                                 "    .kernarg_segment_size: 0\n"
                                 "    .max_flat_workgroup_size: 1024\n"
                                 "    .name:           other\n"
                                 "    .private_segment_fixed_size: 0\n"
                                 "    .sgpr_count:     3\n"
                                 "    .sgpr_spill_count: 0\n"
                                 "    .symbol:         other.kd\n"
                                 "    .vgpr_count:     1\n"
                                 "    .wavefront_size: 64\n"
                                 "  - .group_segment_fixed_size: 0\n"
                                 "    .kernarg_segment_align: 8\n"
                                 "    .kernarg_segment_size: 0\n"
                                 "    .max_flat_workgroup_size: 1024\n"
                                 "    .name:           'k'\n"
                                 "    .private_segment_fixed_size: 0\n"
                                 "    .sgpr_count:     9    # counted\n"
                                 "    .sgpr_spill_count: 0\n"
                                 "    .symbol:         k.kd\n"
                                 "    .vgpr_count:     1\n"
                                 "    .wavefront_size: 64\n"
                                 "amdhsa.target:   amdgcn-amd-amdhsa--gfx942\n"
                                 "amdhsa.version:\n"
                                 "  - 1\n"
                                 "  - 2\n"
                                 "...\n"
                                 "\t.end_amdgpu_metadata\n";

TEST(KernelMetadataTest, OneKernelsEntry) {
  std::unique_ptr<Module> M = readAsmText(MetadataOnlySource);
  ASSERT_TRUE(M);
  EXPECT_FALSE(KernelMetadata::find(*M, "missing"));
  std::optional<KernelMetadata> K = KernelMetadata::find(*M, "k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->integer(".sgpr_count"), 9u);
  EXPECT_EQ(K->field(".symbol")->Value, "k.kd");
  EXPECT_EQ(K->field(".name")->Value, "'k'"); // as written
  EXPECT_FALSE(K->integer(".symbol"));
  EXPECT_EQ(KernelMetadata::find(*M, "other")->integer(".sgpr_count"), 3u);
}

TEST(KernelMetadataTest, SettingAValueChangesOnlyIt) {
  std::unique_ptr<Module> M = readAsmText(MetadataOnlySource);
  ASSERT_TRUE(M);
  std::optional<KernelMetadata> K = KernelMetadata::find(*M, "k");
  ASSERT_TRUE(K);
  ASSERT_FALSE(bool(K->setInteger(*M, ".sgpr_count", 12)));
  std::string Expected = MetadataOnlySource;
  Expected.replace(Expected.find("9    #"), 1, "12");
  EXPECT_EQ(printAsmText(*M), Expected);
  EXPECT_EQ(KernelMetadata::find(*M, "k")->integer(".sgpr_count"), 12u);
  EXPECT_EQ(KernelMetadata::find(*M, "other")->integer(".sgpr_count"), 3u);
  llvm::Error Missing = K->setInteger(*M, ".agpr_count", 1);
  EXPECT_EQ(llvm::toString(std::move(Missing)), "no field .agpr_count");
  EXPECT_EQ(printAsmText(*M), Expected);
}

} // namespace
