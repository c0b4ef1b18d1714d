//===- InstructionSizes.h - Encoded bytes, from LLVM MC -----------*- C++ -*-===//
//
// How many bytes an instruction takes in the code object: LLVM MC's code
// emitter encodes its MC instructions (a literal constant, a 64-bit
// encoding and every instruction of a macro expansion counted), so no size
// is written down by hand. A statement MC does not know (kept by
// --allow-unknown-instructions) has no encoding: its size is a range.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_INSTRUCTIONSIZES_H
#define STINKYTOFU_ANALYSIS_INSTRUCTIONSIZES_H

#include "stinkytofu/hw/InstructionEncoder.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCInst.h"
#include <memory>

namespace stinkytofu {

/// A byte count known to lie in [Lo, Hi].
struct ByteRange {
  uint64_t Lo = 0, Hi = 0;
  ByteRange &operator+=(const ByteRange &O) {
    Lo += O.Lo;
    Hi += O.Hi;
    return *this;
  }
};

class InstructionSizes {
public:
  explicit InstructionSizes(Module &M);
  ~InstructionSizes();

  /// The encoded bytes of \p Insts.
  unsigned bytes(llvm::ArrayRef<llvm::MCInst> Insts) { return Encoder.bytes(Insts); }
  /// The bytes of \p I: exact for what MC encodes, none for a
  /// pseudo-instruction, a range for an opaque statement.
  ByteRange of(const Instruction &I);
  /// The bytes of \p MI. Kept for an MC instruction of registers and
  /// immediates only, by its opcode, flags and operands (Tensile kernels
  /// repeat a few hundred statements thousands of times); an expression
  /// is encoded each time.
  unsigned bytesOf(const llvm::MCInst &MI);

private:

  const TargetInfo &Target;
  InstructionEncoder Encoder;
  llvm::StringMap<unsigned> KnownBytes;
};

} // namespace stinkytofu

#endif
