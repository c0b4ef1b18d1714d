//===- CodeWordLines.h - `.long` lines of code read as instructions -*- C++ -*-===//
//
// A run of lines in a code section that hold only 4-byte constants
// (`.long 0xC00A0600, 0x00000008`) is decoded by LLVM's disassembler
// (mc/CodeWordDecoder.h). A line whose words are whole instructions becomes
// an instruction of the IR whose source text is the line as written: the
// analyses (liveness, waits, hazards, pressure) see what the hardware runs,
// the output keeps the words. A line that splits an instruction, or holds a
// word MC cannot decode, stays a directive.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ASM_CODEWORDLINES_H
#define STINKYTOFU_LIB_ASM_CODEWORDLINES_H

#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/mc/CodeWordDecoder.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace stinkytofu {

class AssemblerState;

/// One line of a run: where it is in the text and the words it holds.
struct WordLine {
  unsigned Line = 0;
  size_t Begin = 0, End = 0; ///< the statement, newline included
  llvm::SmallVector<uint32_t, 2> Words;
};

/// A line of a run that holds whole instructions.
struct EncodedLine {
  unsigned Index = 0; ///< in the run
  unsigned FirstWord = 0; ///< in the run
  llvm::SmallVector<llvm::MCInst, 1> Insts;
  /// The line a PC-relative branch among them goes to, when it is a line
  /// of the run that starts with an instruction.
  std::optional<unsigned> TargetIndex;
  /// Else the word (from the run's start, before it when negative) a
  /// PC-relative branch among them goes to: no line of the run starts there.
  std::optional<int64_t> OffRunTargetWord;
};

/// The lines of \p Run (consecutive in the code) that hold whole
/// instructions, in order; decoding stops at the first word MC cannot read.
std::vector<EncodedLine> decodeWordLines(llvm::ArrayRef<WordLine> Run,
                                         const CodeWordDecoder &Decoder);

/// The instruction for \p Line: mnemonic and operands as LLVM prints its
/// first instruction, the MC instructions, and \p Text as its source, so
/// that it is written as it was read until a pass edits it.
Instruction encodedInstruction(const EncodedLine &Line, llvm::StringRef Text,
                               const TargetInfo &TI, const AssemblerState &AS);

} // namespace stinkytofu

#endif
