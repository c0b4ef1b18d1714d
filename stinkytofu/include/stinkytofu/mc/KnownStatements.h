//===- KnownStatements.h - Lines of a text already assembled ----*- C++ -*-===//
//
// What the producer of an assembly text already knows of it, so that the
// reader need not run LLVM's parser over those lines again: the disassembler
// has assembled every instruction line it printed (its proof) and every
// descriptor and metadata block it wrote. Parsing them again was most of
// the cost of reading a binary (docs/binary-input.md, Cost).
//
// Only the parser's work is skipped: the reader cuts the text into items as
// for any other file, and an instruction line gets the MC instruction its
// text assembles into, as a parse would give it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_KNOWNSTATEMENTS_H
#define STINKYTOFU_MC_KNOWNSTATEMENTS_H

#include "stinkytofu/ir/PackedMCInsts.h"
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace stinkytofu {

struct KnownStatements {
  /// The target id the text was assembled for (`gfx90a:xnack-`); read for
  /// another, the text is parsed as any other.
  std::string TargetId;

  /// One line holding one instruction, indented, without a comment.
  struct Instruction {
    size_t Line = 0;     ///< byte offset of the line's start
    size_t Mnemonic = 0; ///< of its mnemonic
    size_t End = 0;      ///< past its newline
    /// Its MC instruction in Insts (lines of the same text share one).
    PackedMCInsts::Offset Inst = 0;
    /// A branch the text writes with a label: the MC instruction in Insts
    /// holds its target as a number, and operand LabelOperand names the
    /// symbol Label instead.
    int LabelOperand = -1;
    std::string Label;
  };
  /// In text order.
  std::vector<Instruction> Instructions;
  /// Whole lines, [begin, end) byte offsets in text order, of directive
  /// blocks LLVM MC assembled without error and that put nothing in a code
  /// section (kernel descriptors, the metadata note).
  std::vector<std::pair<size_t, size_t>> CheckedBlocks;
  PackedMCInsts Insts;
};

} // namespace stinkytofu

#endif
