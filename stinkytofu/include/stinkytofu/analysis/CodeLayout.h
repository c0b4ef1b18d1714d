//===- CodeLayout.h - Where instructions and labels sit in the code -*- C++ -*-===//
//
// Proofs about PC-relative idioms depend on addresses: `s_getpc_b64` yields
// the address of the next instruction, a bare label in a 32-bit literal is
// encoded relative to the literal, `.Lpost_getpcN:` names the address right
// after an instruction. This answers those questions from the source layout:
// the module-wide order of instructions, whether only comments, white
// space and labels (which emit no bytes) lie between two points, and how
// many bytes the instructions between two points encode to (LLVM MC's code
// emitter says). Anything else in between (a directive such as `.p2align`,
// data) makes the answer "not adjacent": the proofs then fail instead of
// guessing.
//
// Order is address order within one code section; the reader keeps a
// function inside one section.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CODELAYOUT_H
#define STINKYTOFU_ANALYSIS_CODELAYOUT_H

#include "stinkytofu/hw/InstructionEncoder.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>

namespace stinkytofu {

/// True when \p Text holds only white space and comments (`//`, `;`,
/// `/* ... */`): it emits no bytes.
bool isTrivia(llvm::StringRef Text);

class CodeLayout {
public:
  /// Numbers every instruction of \p M in source order. Block splits and
  /// function splits keep the numbering valid (they move no instruction).
  explicit CodeLayout(const Module &M);
  ~CodeLayout();

  /// Module-wide source position of \p I; nullopt for an instruction added
  /// after the layout was computed.
  std::optional<unsigned> position(const Instruction &I) const;
  /// The position of the address \p BB's label names: that of the first
  /// instruction at or after it in its function (one past the function's
  /// last instruction when none follows).
  std::optional<unsigned> labelPosition(const BasicBlock &BB) const;

  /// The instruction that directly follows \p I in the encoding: the next
  /// one, with only labels, comments and white space in between; null when
  /// anything else lies between or \p I ends its function.
  static const Instruction *adjacentNext(const Instruction &I);
  /// The labels naming the address right after \p I: labels reached before
  /// the next instruction with nothing but comments and white space between;
  /// after a function's last instruction, also those opening the module text
  /// that follows it.
  static llvm::SmallVector<llvm::StringRef, 2> labelsAfter(const Instruction &I);

  /// The distance in bytes from the end of \p From to the literal of \p To
  /// (its one fixup: the address a PC-relative relocation such as
  /// `F@rel32@lo` is taken at), \p To following \p From through a few
  /// adjacent instructions. nullopt when they are not so placed, something
  /// in between has no MC encoding, or \p To has not exactly one fixup.
  std::optional<unsigned> literalDistance(const Instruction &From, const Instruction &To) const;

private:
  /// Encoded size and fixup offsets of \p I; nullopt without MC instructions.
  std::optional<InstructionEncoder::Encoding> encode(const Instruction &I) const;

  const TargetInfo &Target;
  llvm::DenseMap<const Instruction *, unsigned> Positions;
  /// Made on first use: most layouts never measure bytes.
  mutable std::unique_ptr<InstructionEncoder> Encoder;
};

} // namespace stinkytofu

#endif
