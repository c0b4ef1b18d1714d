//===- DescriptorDecoder.cpp - Kernel descriptors as directives -----------===//
#include "DescriptorDecoder.h"
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <mutex>
#include <unistd.h>

using namespace llvm;

namespace stinkytofu {

namespace {

/// Runs \p Decode with file descriptor 1 pointing at a temporary file and
/// returns what was written to it. LLVM 22's AMDGPU disassembler writes the
/// decoded descriptor to outs() (llvm-objdump's stdout) and offers no stream
/// of its own; one decode at a time, so no other writer's bytes can mix in.
Expected<std::string> captureStdout(function_ref<Expected<bool>()> Decode, bool &Decoded) {
  static std::mutex Lock;
  std::lock_guard<std::mutex> Guard(Lock);
  outs().flush();
  std::FILE *Temp = std::tmpfile();
  if (!Temp)
    return createStringError("cannot create a temporary file for the kernel descriptor");
  int Saved = ::dup(STDOUT_FILENO);
  if (Saved < 0 || ::dup2(::fileno(Temp), STDOUT_FILENO) < 0) {
    if (Saved >= 0)
      ::close(Saved);
    std::fclose(Temp);
    return createStringError("cannot redirect the kernel descriptor decoder's output");
  }
  Expected<bool> Result = Decode();
  outs().flush();
  ::dup2(Saved, STDOUT_FILENO);
  ::close(Saved);
  std::string Text;
  std::rewind(Temp);
  char Chunk[4096];
  for (size_t N; (N = std::fread(Chunk, 1, sizeof(Chunk), Temp)) > 0;)
    Text.append(Chunk, N);
  std::fclose(Temp);
  if (!Result)
    return Result.takeError();
  Decoded = *Result;
  return Text;
}

/// \p Block with the value of directive \p Key set to \p Value (unchanged
/// when it has no such directive).
std::string withValue(StringRef Block, StringRef Key, uint64_t Value) {
  size_t At = Block.find(("\t" + Key + " ").str());
  if (At == StringRef::npos)
    return Block.str();
  size_t ValueAt = At + Key.size() + 2;
  size_t End = Block.find('\n', ValueAt);
  return (Block.take_front(ValueAt) + Twine(Value) + Block.drop_front(End)).str();
}

std::optional<uint64_t> valueOf(StringRef Block, StringRef Key) {
  size_t At = Block.find(("\t" + Key + " ").str());
  if (At == StringRef::npos)
    return std::nullopt;
  uint64_t Value = 0;
  StringRef Digits = Block.drop_front(At + Key.size() + 2).take_until(isSpace);
  if (Digits.getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

/// The repairs tried, in order: 0 is LLVM's text; then for each of the two
/// `.amdhsa_reserve_xnack_mask` values, `.amdhsa_next_free_sgpr` lowered by
/// 0 to 8 (the extra SGPRs are at most 6).
constexpr unsigned NumRepairs = 1 + 2 * 9;

std::string repaired(StringRef Block, unsigned Repair) {
  if (Repair == 0)
    return Block.str();
  unsigned Xnack = (Repair - 1) / 9, Lower = (Repair - 1) % 9;
  std::string Out = withValue(Block, ".amdhsa_reserve_xnack_mask", Xnack);
  std::optional<uint64_t> Sgprs = valueOf(Out, ".amdhsa_next_free_sgpr");
  if (Sgprs && *Sgprs >= Lower)
    Out = withValue(Out, ".amdhsa_next_free_sgpr", *Sgprs - Lower);
  return Out;
}

} // namespace

bool DescriptorDecoder::reproduces(StringRef Kernel, StringRef Block, ArrayRef<uint8_t> Bytes,
                                   bool AnyGranule) {
  std::string Text = Preamble + "\t.text\n\t.globl " + Kernel.str() + "\n\t.type " + Kernel.str() +
                     ",@function\n" + Kernel.str() + ":\n\ts_endpgm\n\t.rodata\n\t.p2align 6\n" +
                     Block.str();
  Expected<std::string> Object = assembleObject(Text, Target);
  if (!Object) {
    consumeError(Object.takeError());
    return false;
  }
  Expected<elf::ElfImage> Image = elf::ElfImage::create(*Object);
  if (!Image) {
    consumeError(Image.takeError());
    return false;
  }
  auto It = Image->definedSymbols().find((Kernel + ".kd").str());
  SmallVector<unsigned, 1> Rodata = Image->findSections(".rodata");
  if (It == Image->definedSymbols().end() || Rodata.size() != 1)
    return false;
  StringRef Contents = Image->sectionContents(Image->sections()[Rodata.front()]);
  if (It->second.Value > Contents.size() || Contents.size() - It->second.Value < 64)
    return false;
  std::string Got = Contents.substr(It->second.Value, 64).str();
  std::string Want = toStringRef(Bytes).str();
  if (AnyGranule)
    for (std::string *Side : {&Got, &Want}) {
      char *Rsrc1 = Side->data() + amdhsa::COMPUTE_PGM_RSRC1_OFFSET;
      support::endian::write32le(
          Rsrc1, support::endian::read32le(Rsrc1) &
                     ~uint32_t(amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT));
    }
  // kernel_code_entry_byte_offset (bytes 16-23) is a relocation here.
  return Got.substr(0, 16) == Want.substr(0, 16) && Got.substr(24) == Want.substr(24);
}

Expected<DecodedDescriptor> DescriptorDecoder::decode(StringRef Kernel, ArrayRef<uint8_t> Bytes,
                                                      uint64_t Address,
                                                      std::optional<uint64_t> SgprCount) {
  std::string SymbolName = (Kernel + ".kd").str();
  SymbolInfoTy Symbol(Address, SymbolName, ELF::STT_OBJECT);
  uint64_t Size = 0;
  bool Decoded = false;
  Expected<std::string> Text = captureStdout(
      [&] { return Disassembler.onSymbolStart(Symbol, Size, Bytes, Address); }, Decoded);
  // ROCm's older compilers set the SGPR granule on gfx10+ too, where it is
  // reserved (the hardware ignores it) and LLVM 22 refuses the descriptor:
  // the rest is decoded without it, and the bytes are kept as they are.
  uint32_t Rsrc1 = support::endian::read32le(Bytes.data() + amdhsa::COMPUTE_PGM_RSRC1_OFFSET);
  uint32_t Granule = AMDHSA_BITS_GET(Rsrc1, amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT);
  if ((!Text || !Decoded) && Granule &&
      Target.subtargetInfo().checkFeatures("+gfx10-insts")) {
    consumeError(Text.takeError());
    SmallVector<uint8_t, 64> Cleared(Bytes.begin(), Bytes.end());
    AMDHSA_BITS_SET(Rsrc1, amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT, 0);
    support::endian::write32le(Cleared.data() + amdhsa::COMPUTE_PGM_RSRC1_OFFSET, Rsrc1);
    Expected<DecodedDescriptor> Rest = decode(Kernel, Cleared, Address, SgprCount);
    if (Rest)
      Rest->KeptAsBytes = "COMPUTE_PGM_RSRC1 sets the SGPR granule (" + std::to_string(Granule) +
                          "), reserved on " + Target.processor().str();
    return Rest;
  }
  if (!Text)
    return createStringError("kernel descriptor " + SymbolName +
                             ": LLVM cannot decode it: " + toString(Text.takeError()));
  StringRef Block = StringRef(*Text).trim();
  if (!Decoded || !Block.starts_with(".amdhsa_kernel ") ||
      !Block.ends_with(".end_amdhsa_kernel"))
    return createStringError("kernel descriptor " + SymbolName + ": LLVM did not decode it");
  std::string Clean = Block.str() + "\n";
  // LLVM 22 prints no `.amdhsa_user_sgpr_count`: without it the assembler
  // counts the enabled user SGPRs, fewer than a kernel may reserve.
  if (!valueOf(Clean, ".amdhsa_user_sgpr_count")) {
    uint32_t Rsrc2 = support::endian::read32le(Bytes.data() + amdhsa::COMPUTE_PGM_RSRC2_OFFSET);
    unsigned UserSgprs =
        Target.processor().starts_with("gfx125")
            ? AMDHSA_BITS_GET(Rsrc2, amdhsa::COMPUTE_PGM_RSRC2_GFX125_USER_SGPR_COUNT)
            : AMDHSA_BITS_GET(Rsrc2, amdhsa::COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT);
    size_t FirstLine = Clean.find('\n') + 1;
    Clean.insert(FirstLine, "\t.amdhsa_user_sgpr_count " + std::to_string(UserSgprs) + "\n");
  }
  // Where the descriptor does not encode the SGPR count (gfx10+), any
  // count reproduces it: the metadata's is the kernel's, LLVM's only the
  // smallest granule.
  if (SgprCount)
    for (unsigned Xnack = 0; Xnack < 2; ++Xnack) {
      std::string Candidate = withValue(Clean, ".amdhsa_next_free_sgpr", *SgprCount);
      if (Xnack)
        Candidate = withValue(Candidate, ".amdhsa_reserve_xnack_mask",
                              !valueOf(Candidate, ".amdhsa_reserve_xnack_mask").value_or(1));
      if (reproduces(Kernel, Candidate, Bytes))
        return DecodedDescriptor{Candidate, ""};
    }
  for (unsigned I = 0; I < NumRepairs; ++I) {
    unsigned Repair = I == 0 ? LastRepair : I <= LastRepair ? I - 1 : I;
    std::string Candidate = repaired(Clean, Repair);
    if (reproduces(Kernel, Candidate, Bytes)) {
      LastRepair = Repair;
      return DecodedDescriptor{Candidate, ""};
    }
  }
  // Older compilers counted more extra SGPRs than LLVM 22 adds (flat
  // scratch with XNACK): a granule no `.amdhsa_next_free_sgpr` the assembler
  // takes reaches. The rest of the descriptor must be reproduced.
  std::optional<uint64_t> Printed = valueOf(Clean, ".amdhsa_next_free_sgpr");
  for (unsigned Xnack = 0; Printed && Xnack < 2; ++Xnack)
    for (uint64_t Sgprs = *Printed + 1; Sgprs-- > 0 && *Printed - Sgprs <= 32;) {
      std::string Candidate = withValue(withValue(Clean, ".amdhsa_reserve_xnack_mask", Xnack),
                                        ".amdhsa_next_free_sgpr", Sgprs);
      if (reproduces(Kernel, Candidate, Bytes, /*AnyGranule=*/true))
        return DecodedDescriptor{
            Candidate, "its SGPR granule (" +
                           std::to_string(AMDHSA_BITS_GET(
                               support::endian::read32le(Bytes.data() +
                                                         amdhsa::COMPUTE_PGM_RSRC1_OFFSET),
                               amdhsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT)) +
                           ") is more than any .amdhsa_next_free_sgpr LLVM assembles gives"};
    }
  return createStringError(
      "kernel descriptor " + SymbolName +
      ": the directives LLVM decodes it into do not assemble back into its bytes");
}

} // namespace stinkytofu
