//===- OffloadBundleTest.cpp - Bundle reading on hand-made bytes ----------===//
//
// Offload bundles built byte by byte (stinkytofu/object/OffloadBundle.h):
// entry ids, bounds, compressed headers and their sanity limits. The lit
// tests (tests/lit/funcmap/fatbin.test) cover clang-offload-bundler output.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/elf/FuncMapPatcher.h"
#include "stinkytofu/object/BundleWriter.h"
#include "stinkytofu/object/OffloadBundle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"
#include "gtest/gtest.h"

#include <string>
#include <utility>
#include <vector>

using namespace stinkytofu::elf;
using llvm::StringRef;

namespace {

void put64(std::string &S, uint64_t V) {
  char B[8];
  llvm::support::endian::write64le(B, V);
  S.append(B, 8);
}

/// An uncompressed bundle: header, then each entry's bytes.
std::string makeBundle(const std::vector<std::pair<std::string, std::string>> &Entries) {
  std::string Header(BundleMagic);
  put64(Header, Entries.size());
  uint64_t HeaderSize = Header.size();
  for (const auto &E : Entries)
    HeaderSize += 24 + E.first.size();
  uint64_t Offset = HeaderSize;
  std::string Data;
  for (const auto &[Id, Bytes] : Entries) {
    put64(Header, Offset);
    put64(Header, Bytes.size());
    put64(Header, Id.size());
    Header += Id;
    Data += Bytes;
    Offset += Bytes.size();
  }
  return Header + Data;
}

/// A version 3 "CCOB" around \p Raw.
std::string makeCompressed(StringRef Raw, uint64_t ClaimedSize, uint64_t Hash) {
  llvm::SmallVector<uint8_t, 0> Packed;
  llvm::compression::zlib::compress(llvm::arrayRefFromStringRef(Raw), Packed);
  std::string Out(CompressedBundleMagic);
  Out.append("\x03\x00\x00\x00", 4); // version 3, zlib
  put64(Out, 32 + Packed.size());
  put64(Out, ClaimedSize);
  put64(Out, Hash);
  Out.append(reinterpret_cast<const char *>(Packed.data()), Packed.size());
  return Out;
}

std::string bundleError(llvm::Expected<OffloadBundle> B) {
  return B ? std::string() : llvm::toString(B.takeError());
}

TEST(OffloadBundleTest, EntryIds) {
  BundleEntryId Id = parseBundleEntryId("hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
  EXPECT_EQ(Id.Kind, "hipv4");
  EXPECT_EQ(Id.Triple, "amdgcn-amd-amdhsa-");
  EXPECT_EQ(Id.TargetId, "gfx90a:sramecc+:xnack-");
  Id = parseBundleEntryId("hip-amdgcn-amd-amdhsa-gfx906");
  EXPECT_EQ(Id.Triple, "amdgcn-amd-amdhsa");
  EXPECT_EQ(Id.TargetId, "gfx906");
  Id = parseBundleEntryId("host-x86_64-unknown-linux-gnu");
  EXPECT_EQ(Id.Triple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(Id.TargetId, "");
  EXPECT_TRUE(isAMDGPUBundleEntry("openmp-amdgcn-amd-amdhsa--gfx1100"));
  EXPECT_FALSE(isAMDGPUBundleEntry("host-x86_64-unknown-linux-gnu"));
}

TEST(OffloadBundleTest, ReadsEntriesAndSkipsPadding) {
  std::string B = makeBundle({{"host-x86_64-unknown-linux-gnu", ""},
                              {"hipv4-amdgcn-amd-amdhsa--gfx942", "code"}});
  std::string Two = B + std::string(100, '\0') + B + std::string(7, '\0');
  llvm::Expected<std::vector<OffloadBundle>> All = readOffloadBundles(Two);
  ASSERT_TRUE(bool(All)) << llvm::toString(All.takeError());
  ASSERT_EQ(All->size(), 2u);
  EXPECT_EQ((*All)[1].Entries[1].Data, "code");
  EXPECT_EQ((*All)[0].Size, B.size());
  EXPECT_EQ((*All)[0].Start, 0u);
  EXPECT_EQ((*All)[1].Start, B.size() + 100);
}

TEST(OffloadBundleTest, WritesCompressed) {
  std::string Raw = writeOffloadBundle({{"host-x86_64-unknown-linux-gnu", 0, ""},
                                        {"hipv4-amdgcn-amd-amdhsa--gfx942", 0, "code"}});
  llvm::Expected<std::string> Packed = compressOffloadBundle(Raw);
  ASSERT_TRUE(bool(Packed)) << llvm::toString(Packed.takeError());
  // Zero padding after it, as in a .hip_fatbin it was written into.
  llvm::Expected<std::vector<OffloadBundle>> All =
      readOffloadBundles(*Packed + std::string(64, '\0'));
  ASSERT_TRUE(bool(All)) << llvm::toString(All.takeError());
  ASSERT_EQ(All->size(), 1u);
  const OffloadBundle &B = All->front();
  EXPECT_TRUE(B.Compressed);
  EXPECT_EQ(B.Version, 3u);
  EXPECT_EQ(B.Size, Packed->size());
  EXPECT_EQ(B.CompressionMethod, llvm::compression::zstd::isAvailable() ? "zstd" : "zlib");
  ASSERT_EQ(B.Entries.size(), 2u);
  EXPECT_EQ(B.Entries[1].Id, "hipv4-amdgcn-amd-amdhsa--gfx942");
  EXPECT_EQ(B.Entries[1].Data, "code");
  EXPECT_EQ(B.Entries[1].Offset, 4096u);
}

TEST(OffloadBundleTest, RejectsBadBounds) {
  std::string B = makeBundle({{"hipv4-amdgcn-amd-amdhsa--gfx942", "code"}});
  EXPECT_EQ(bundleError(readOffloadBundle(StringRef(B).drop_back(1))),
            "offload bundle entry 'hipv4-amdgcn-amd-amdhsa--gfx942' (offset 0x57, size 0x4) "
            "extends past the end of the bundle (size 0x5a)");
  std::string Huge(BundleMagic);
  put64(Huge, uint64_t(1) << 60);
  EXPECT_EQ(bundleError(readOffloadBundle(Huge)),
            "offload bundle claims 1152921504606846976 entries, more than its header can hold");
  EXPECT_EQ(bundleError(readOffloadBundle(StringRef(B).take_front(30))),
            "truncated offload bundle header");
  llvm::Expected<std::vector<OffloadBundle>> Junk = readOffloadBundles(B + "junk");
  ASSERT_FALSE(bool(Junk));
  EXPECT_EQ(llvm::toString(Junk.takeError()), "unexpected data at offset 0x5b after offload bundle 0");
}

TEST(OffloadBundleTest, Compressed) {
  if (!llvm::compression::zlib::isAvailable())
    GTEST_SKIP() << "no zlib";
  std::string Raw = makeBundle({{"hipv4-amdgcn-amd-amdhsa--gfx1201", std::string(5000, 'x')}});
  uint64_t Hash = llvm::MD5::hash(llvm::arrayRefFromStringRef(Raw)).low();
  llvm::Expected<OffloadBundle> B = readOffloadBundle(makeCompressed(Raw, Raw.size(), Hash));
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  EXPECT_TRUE(B->Compressed);
  EXPECT_EQ(B->CompressionMethod, "zlib");
  EXPECT_EQ(B->Version, 3u);
  EXPECT_EQ(B->Entries[0].Data, std::string(5000, 'x'));

  EXPECT_EQ(bundleError(readOffloadBundle(makeCompressed(Raw, Raw.size(), Hash + 1))),
            "compressed offload bundle hash mismatch: corrupt data");
  // A header asking for far more than the data can hold is refused before
  // any allocation.
  std::string Forged = makeCompressed(Raw, uint64_t(1) << 40, Hash);
  EXPECT_NE(bundleError(readOffloadBundle(Forged)).find("implausible"), std::string::npos);
  std::string BadVersion = makeCompressed(Raw, Raw.size(), Hash);
  BadVersion[4] = 9;
  EXPECT_EQ(bundleError(readOffloadBundle(BadVersion)),
            "unsupported compressed offload bundle version 9");
  std::string Cut = makeCompressed(Raw, Raw.size(), Hash);
  EXPECT_NE(
      bundleError(readOffloadBundle(StringRef(Cut).drop_back(10))).find("does not fit the data"),
      std::string::npos);
}

TEST(OffloadBundleTest, FuncMapSectionText) {
  EXPECT_TRUE(isFuncMapSectionText(""));
  EXPECT_TRUE(isFuncMapSectionText(StringRef("K:k\n\0", 5)));
  EXPECT_TRUE(isFuncMapSectionText(StringRef("K:k\r\n\0\0", 7)));
  EXPECT_FALSE(isFuncMapSectionText("K:k\n")); // no terminator
  EXPECT_FALSE(isFuncMapSectionText(StringRef("K:\x01k\n\0", 6)));
  EXPECT_FALSE(isFuncMapSectionText(StringRef("K:k\0U:1:u\0", 10)));
}

} // namespace
