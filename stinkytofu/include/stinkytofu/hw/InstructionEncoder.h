//===- InstructionEncoder.h - Encoded bytes of MC instructions -*- C++ -*-===//
//
// How many bytes MC instructions take in the code object and where their
// fixups sit, from LLVM MC's code emitter for the module's target (literal
// constants, 64-bit encodings and every instruction of a macro expansion
// counted), so no size is written down by hand. Shared by the analyses that
// prove PC-relative idioms and by passes that check branch ranges.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_INSTRUCTIONENCODER_H
#define STINKYTOFU_HW_INSTRUCTIONENCODER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include <memory>

namespace llvm {
class MCCodeEmitter;
class MCContext;
} // namespace llvm

namespace stinkytofu {

class TargetInfo;

class InstructionEncoder {
public:
  explicit InstructionEncoder(const TargetInfo &Target);
  ~InstructionEncoder();

  struct Encoding {
    unsigned Size = 0;
    /// Byte offsets of the fixups (relocated literals) from the start of
    /// the first instruction.
    llvm::SmallVector<unsigned, 1> FixupOffsets;
  };
  /// The encoding of \p Insts placed one after another.
  Encoding encode(llvm::ArrayRef<llvm::MCInst> Insts);
  /// Just the byte count of \p Insts.
  unsigned bytes(llvm::ArrayRef<llvm::MCInst> Insts) { return encode(Insts).Size; }

private:
  const TargetInfo &Target;
  /// The emitter's own context: encoding creates no symbols, and this keeps
  /// it independent of the assembler state that parsed the module.
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<llvm::MCCodeEmitter> Emitter;
  llvm::SmallVector<char, 16> Buffer;
  llvm::SmallVector<llvm::MCFixup, 2> Fixups;
};

} // namespace stinkytofu

#endif
