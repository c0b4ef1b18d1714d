//===- PackedMCInsts.h - MC instructions stored back to back ----*- C++ -*-===//
//
// An llvm::MCInst keeps room for six operands (128 bytes) and allocates
// beside it when it has more; a kernel's instructions average fewer than four
// operands, and a buffer access or MFMA has seven or more. Packed, each
// instruction takes a header word and its operands: under half the memory of
// MCInst copies, which is what a large kernel's IR is mostly made of.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_PACKEDMCINSTS_H
#define STINKYTOFU_IR_PACKEDMCINSTS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include <cstdint>
#include <vector>

namespace stinkytofu {

class PackedMCInsts {
public:
  /// Where a record starts; stays valid as the store grows.
  using Offset = uint32_t;

  /// Appends \p Inst (its opcode, flags and operands) and returns its offset.
  Offset append(const llvm::MCInst &Inst);
  /// Appends every record of \p From; a record at offset O there is at
  /// the returned offset plus O here.
  Offset appendAll(const PackedMCInsts &From);
  /// The offset of the record after the one at \p At.
  Offset next(Offset At) const;
  /// The record at \p At, for unpack(); valid until something is appended
  /// (moving the store keeps it valid).
  const uint64_t *record(Offset At) const { return Words.data() + At; }
  /// Room for \p NumInsts instructions of a typical size.
  void reserve(size_t NumInsts) { Words.reserve(NumInsts * 8); }

  /// Every instruction of the store, in order.
  llvm::SmallVector<llvm::MCInst, 1> unpackAll() const;
  /// Unpacks \p Count records starting at \p Record.
  static llvm::SmallVector<llvm::MCInst, 1> unpack(const uint64_t *Record, unsigned Count);

private:
  // A record: one header word (opcode, operand count, flags), then two
  // words per llvm::MCOperand, copied as they are.
  std::vector<uint64_t> Words;
};

} // namespace stinkytofu

#endif
