//===- CodeWordDecoder.h - Instructions written as data words ---*- C++ -*-===//
//
// Hand-written kernels (Tensile's replacement and custom kernels) put whole
// routines in code sections as `.long` words. LLVM's disassembler decodes
// them, so the analyses see the instructions the hardware runs; the text
// stays as written (asm/AsmReader keeps each line's words as its source).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_CODEWORDDECODER_H
#define STINKYTOFU_MC_CODEWORDDECODER_H

#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/MC/MCInst.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace llvm {
class MCDisassembler;
class MCInstrAnalysis;
} // namespace llvm

namespace stinkytofu {

/// Registers LLVM's AMDGPU disassembler (once per process).
void initializeAMDGPUDisassembler();

/// Decodes the instruction \p Bytes start with, at \p Address: its size,
/// or nothing when MC decodes none that \p Bytes hold whole. LLVM 22's
/// AMDGPU decoder crashes when a literal operand runs past the bytes it is
/// given (llvm-mc --disassemble of `0xff 0x02 0x00 0x7e` does too), so a
/// tail shorter than the longest instruction is decoded from a zero-padded
/// copy, and an instruction that reaches into the padding is refused.
std::optional<uint64_t> decodeInstruction(const llvm::MCDisassembler &Disassembler,
                                          llvm::MCInst &Inst, llvm::ArrayRef<uint8_t> Bytes,
                                          uint64_t Address);

/// One instruction decoded from a run of words.
struct DecodedWords {
  llvm::MCInst Inst;
  unsigned FirstWord = 0, NumWords = 0;
  /// A PC-relative branch: the word its target starts at, counted from the
  /// run's first word (negative or past the end: outside the run).
  std::optional<int64_t> TargetWord;
};

class CodeWordDecoder {
public:
  /// Decoded instructions live in \p Ctx (their expressions, if any).
  CodeWordDecoder(const TargetInfo &TI, llvm::MCContext &Ctx);
  ~CodeWordDecoder();

  /// Decodes \p Words, consecutive in the code, from the first; stops at
  /// the first word MC cannot decode or at an instruction cut off by the
  /// end of the run.
  std::vector<DecodedWords> decode(llvm::ArrayRef<uint32_t> Words) const;

private:
  std::unique_ptr<llvm::MCDisassembler> Disassembler;
  std::unique_ptr<llvm::MCInstrAnalysis> Analysis;
};

} // namespace stinkytofu

#endif
