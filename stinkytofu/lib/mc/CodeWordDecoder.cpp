//===- CodeWordDecoder.cpp - Instructions written as data words -----------===//
#include "stinkytofu/mc/CodeWordDecoder.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

using namespace llvm;

namespace stinkytofu {

void initializeAMDGPUDisassembler() {
  static std::once_flag Once;
  std::call_once(Once, [] { LLVMInitializeAMDGPUDisassembler(); });
}

std::optional<uint64_t> decodeInstruction(const MCDisassembler &Disassembler, MCInst &Inst,
                                          ArrayRef<uint8_t> Bytes, uint64_t Address) {
  unsigned Longest = Disassembler.getContext().getAsmInfo()->getMaxInstLength();
  SmallVector<uint8_t, 32> Padded;
  ArrayRef<uint8_t> Given = Bytes;
  if (Bytes.size() < Longest) {
    Padded.assign(Bytes.begin(), Bytes.end());
    Padded.resize(Longest, 0);
    Given = Padded;
  }
  uint64_t Size = 0;
  if (Disassembler.getInstruction(Inst, Size, Given, Address, nulls()) !=
          MCDisassembler::Success ||
      Size == 0 || Size > Bytes.size())
    return std::nullopt;
  return Size;
}

CodeWordDecoder::CodeWordDecoder(const TargetInfo &TI, MCContext &Ctx) {
  initializeAMDGPUDisassembler();
  Disassembler.reset(TI.target().createMCDisassembler(TI.subtargetInfo(), Ctx));
  Analysis.reset(TI.target().createMCInstrAnalysis(&TI.instrInfo()));
}

CodeWordDecoder::~CodeWordDecoder() = default;

std::vector<DecodedWords> CodeWordDecoder::decode(ArrayRef<uint32_t> Words) const {
  std::vector<DecodedWords> Out;
  if (!Disassembler || !Analysis)
    return Out;
  std::vector<uint8_t> Bytes(Words.size() * 4);
  for (size_t I = 0; I < Words.size(); ++I)
    support::endian::write32le(&Bytes[I * 4], Words[I]);
  for (uint64_t At = 0; At < Bytes.size();) {
    DecodedWords D;
    std::optional<uint64_t> Size = decodeInstruction(*Disassembler, D.Inst,
                                                     ArrayRef(Bytes).drop_front(At), At);
    if (!Size || *Size % 4 != 0)
      break;
    D.FirstWord = unsigned(At / 4);
    D.NumWords = unsigned(*Size / 4);
    // Addresses count from the run's first byte, which may be negative
    // for a target before it: evaluate in two's complement.
    if (uint64_t Dest; Analysis->evaluateBranch(D.Inst, At, *Size, Dest))
      D.TargetWord = int64_t(Dest) / 4;
    Out.push_back(std::move(D));
    At += *Size;
  }
  return Out;
}

} // namespace stinkytofu
