//===- OffloadBundle.cpp - clang-offload-bundler containers ---------------===//
#include "stinkytofu/object/OffloadBundle.h"
#include "stinkytofu/support/HexString.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"

using namespace llvm;

namespace stinkytofu::elf {

namespace {

/// Bounds-checked little-endian reads.
class Reader {
public:
  explicit Reader(StringRef Data) : Data(Data) {}
  size_t offset() const { return Pos; }
  bool read(uint64_t &V, unsigned Bytes) {
    if (Data.size() - Pos < Bytes)
      return false;
    const char *P = Data.data() + Pos;
    V = Bytes == 2   ? support::endian::read16le(P)
        : Bytes == 4 ? support::endian::read32le(P)
                     : support::endian::read64le(P);
    Pos += Bytes;
    return true;
  }
  bool read(StringRef &S, uint64_t Length) {
    if (Data.size() - Pos < Length)
      return false;
    S = Data.substr(Pos, Length);
    Pos += Length;
    return true;
  }

private:
  StringRef Data;
  size_t Pos = 0;
};

constexpr uint64_t MaxDecompressionRatio = 1024;

Expected<OffloadBundle> readUncompressed(StringRef Data) {
  Reader R(Data);
  StringRef Magic;
  uint64_t NumEntries = 0;
  if (!R.read(Magic, BundleMagic.size()) || Magic != BundleMagic)
    return createStringError("not an offload bundle");
  if (!R.read(NumEntries, 8))
    return createStringError("truncated offload bundle header");
  // Each entry header takes at least 24 bytes.
  if (NumEntries > (Data.size() - R.offset()) / 24)
    return createStringError("offload bundle claims " + Twine(NumEntries) +
                             " entries, more than its header can hold");
  OffloadBundle B;
  uint64_t End = 0;
  for (uint64_t I = 0; I < NumEntries; ++I) {
    uint64_t Offset = 0, Size = 0, IdLength = 0;
    StringRef Id;
    if (!R.read(Offset, 8) || !R.read(Size, 8) || !R.read(IdLength, 8) || !R.read(Id, IdLength))
      return createStringError("truncated offload bundle entry " + Twine(I));
    if (Offset > Data.size() || Size > Data.size() - Offset)
      return createStringError("offload bundle entry '" + Id + "' (offset " + hexString(Offset) +
                               ", size " + hexString(Size) +
                               ") extends past the end of the bundle (size " +
                               hexString(Data.size()) + ")");
    B.Entries.push_back({Id.str(), Offset, Data.substr(Offset, Size)});
    End = std::max(End, Offset + Size);
  }
  B.Size = std::max<uint64_t>(End, R.offset());
  return std::move(B);
}

Expected<OffloadBundle> readCompressed(StringRef Data) {
  Reader R(Data);
  StringRef Magic;
  uint64_t Version = 0, Method = 0, TotalSize = 0, RawSize = 0, Hash = 0;
  if (!R.read(Magic, 4) || Magic != CompressedBundleMagic || !R.read(Version, 2) ||
      !R.read(Method, 2))
    return createStringError("truncated compressed offload bundle header");
  bool Ok = false;
  switch (Version) {
  case 1:
    Ok = R.read(RawSize, 4) && R.read(Hash, 8);
    TotalSize = Data.size();
    break;
  case 2:
    Ok = R.read(TotalSize, 4) && R.read(RawSize, 4) && R.read(Hash, 8);
    break;
  case 3:
    Ok = R.read(TotalSize, 8) && R.read(RawSize, 8) && R.read(Hash, 8);
    break;
  default:
    return createStringError("unsupported compressed offload bundle version " + Twine(Version));
  }
  if (!Ok)
    return createStringError("truncated compressed offload bundle header");
  if (TotalSize < R.offset() || TotalSize > Data.size())
    return createStringError("compressed offload bundle size " + hexString(TotalSize) +
                             " does not fit the data (" + hexString(Data.size()) + " bytes)");
  compression::Format Format;
  StringRef MethodName;
  if (Method == uint64_t(compression::Format::Zlib)) {
    Format = compression::Format::Zlib;
    MethodName = "zlib";
  } else if (Method == uint64_t(compression::Format::Zstd)) {
    Format = compression::Format::Zstd;
    MethodName = "zstd";
  } else {
    return createStringError("unknown compression method " + Twine(Method) +
                             " in compressed offload bundle");
  }
  if (const char *Why = compression::getReasonIfUnsupported(Format))
    return createStringError(Twine("cannot decompress offload bundle: ") + Why);

  StringRef Compressed = Data.slice(R.offset(), TotalSize);
  if (RawSize > Compressed.size() * MaxDecompressionRatio + 4096)
    return createStringError("compressed offload bundle claims " + hexString(RawSize) +
                             " uncompressed bytes, implausible for " +
                             hexString(Compressed.size()) + " compressed bytes");
  SmallVector<uint8_t, 0> Raw;
  if (Error E = compression::decompress(Format, arrayRefFromStringRef(Compressed), Raw, RawSize))
    return createStringError("cannot decompress offload bundle (" + MethodName +
                             "): " + toString(std::move(E)));
  if (Raw.size() != RawSize)
    return createStringError("decompressed offload bundle has " + Twine(Raw.size()) +
                             " bytes, header says " + Twine(RawSize));
  if (MD5::hash(Raw).low() != Hash)
    return createStringError("compressed offload bundle hash mismatch: corrupt data");

  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBufferCopy(toStringRef(Raw), "decompressed offload bundle");
  if (!Buffer->getBuffer().starts_with(BundleMagic))
    return createStringError("compressed offload bundle does not hold an offload bundle");
  Expected<OffloadBundle> Inner = readUncompressed(Buffer->getBuffer());
  if (!Inner)
    return Inner.takeError();
  Inner->Compressed = true;
  Inner->Version = uint16_t(Version);
  Inner->CompressionMethod = MethodName;
  Inner->Size = TotalSize;
  Inner->Decompressed = std::move(Buffer);
  return Inner;
}

} // namespace

BundleEntryId parseBundleEntryId(StringRef Id) {
  BundleEntryId Out;
  auto [Kind, Rest] = Id.split('-');
  Out.Kind = Kind;
  // Like clang's OffloadTargetInfo: the last '-' component before the
  // features is the processor when it names one.
  size_t FeaturesAt = Rest.find(':');
  StringRef NoFeatures = Rest.take_front(FeaturesAt);
  size_t Dash = NoFeatures.rfind('-');
  StringRef Last = Dash == StringRef::npos ? NoFeatures : NoFeatures.drop_front(Dash + 1);
  if (Dash != StringRef::npos && Last.starts_with("gfx")) {
    Out.Triple = Rest.take_front(Dash);
    Out.TargetId = Rest.drop_front(Dash + 1);
  } else {
    Out.Triple = Rest;
  }
  return Out;
}

bool isAMDGPUBundleEntry(StringRef Id) {
  return parseBundleEntryId(Id).Triple.starts_with("amdgcn");
}

bool startsWithBundleMagic(StringRef Data) {
  return Data.starts_with(BundleMagic) || Data.starts_with(CompressedBundleMagic);
}

Expected<OffloadBundle> readOffloadBundle(StringRef Data) {
  if (Data.starts_with(CompressedBundleMagic))
    return readCompressed(Data);
  if (Data.starts_with(BundleMagic))
    return readUncompressed(Data);
  return createStringError("not an offload bundle");
}

Expected<std::vector<OffloadBundle>> readOffloadBundles(StringRef Data) {
  std::vector<OffloadBundle> Out;
  size_t Pos = 0;
  while (true) {
    // Skip the zero padding between bundles.
    while (Pos < Data.size() && Data[Pos] == '\0')
      ++Pos;
    if (Pos >= Data.size())
      break;
    StringRef Rest = Data.drop_front(Pos);
    if (!startsWithBundleMagic(Rest))
      return createStringError("unexpected data at offset " + hexString(Pos) +
                               (Out.empty()
                                    ? Twine(": not an offload bundle")
                                    : Twine(" after offload bundle ") + Twine(Out.size() - 1)));
    Expected<OffloadBundle> B = readOffloadBundle(Rest);
    if (!B)
      return createStringError(inconvertibleErrorCode(), "offload bundle at offset " +
                                                             hexString(Pos) + ": " +
                                                             toString(B.takeError()));
    B->Start = Pos;
    Pos += std::max<uint64_t>(B->Size, 1);
    Out.push_back(std::move(*B));
  }
  return std::move(Out);
}

} // namespace stinkytofu::elf
