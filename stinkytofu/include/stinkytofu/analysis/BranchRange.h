//===- BranchRange.h - Short branches stay in range ---------------*- C++ -*-===//
//
// `s_branch` and `s_cbranch_*` encode their target as a signed 16-bit
// dword offset from the next instruction: at most 32767 dwords forward and
// 32768 back. Code inserted between a branch and its label moves them
// apart, and a branch that was just in range would no longer assemble
// (llvm-mc: "branch size exceeds simm16").
//
// BranchLayout measures one function as written: the address range of every
// insertion point (InsertPoint order: each instruction of each block, then
// the block's end) and of every label, from the encoded sizes of the
// instructions (InstructionSizes.h) and the bytes of the directives between
// them. Given the bytes to be inserted at each point, check() reports each
// short branch whose worst-case offset would leave the range and the
// insertion points between it and its target. Only insertions can make a
// branch fail there: a branch with nothing inserted between it and its
// target is never reported. outOfRange() reports the branches the code as it
// stands puts out of range (what the branch relaxation pass turns into long
// branches).
//
// Directive bytes: `.byte`, `.short`/`.2byte`/`.hword`/`.value`/`.word`,
// `.long`/`.int`/`.4byte`, `.quad`/`.8byte` (per item), `.fill`, `.space`,
// `.skip`, `.zero` (numeric counts), `.ascii`/`.asciz`/`.string`;
// `.p2align`, `.balign` and `.align` (bytes, as on AMDGPU) add 0 up to their
// largest padding. A count that is not a number and data repeated by
// `.rept` make the range unbounded. Other directives emit nothing in the
// code section. Branches to a label of another function are not checked
// (compilers emit none: each function is its own section fragment).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_BRANCHRANGE_H
#define STINKYTOFU_ANALYSIS_BRANCHRANGE_H

#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/ir/InsertPoint.h"
#include "llvm/ADT/DenseMap.h"
#include <string>
#include <vector>

namespace stinkytofu {

/// The bytes the directives in \p Text emit (comments and instructions
/// aside; instructions are measured by InstructionSizes). Given the
/// \p Address the text starts at, alignment padding is exact, not a range.
ByteRange directiveBytes(llvm::StringRef Text, std::optional<uint64_t> Address = std::nullopt);

class BranchLayout {
public:
  /// The layout of \p F, whose branches it hands out for the pass to edit
  /// (BranchRelaxationPass relaxes them).
  BranchLayout(Function &F, InstructionSizes &Sizes);

  /// The index of \p P among the function's insertion points; none for a
  /// point of another function, and for every point when the function has
  /// no branch to check (hasBranches).
  std::optional<unsigned> slot(const InsertPoint &P) const;
  unsigned numSlots() const { return SlotAt.size(); }
  /// Whether a short branch of the function targets one of its blocks:
  /// without one, no insertion can push anything out of range.
  bool hasBranches() const { return !Branches.empty(); }

  struct OutOfRange {
    Instruction *Branch;
    std::string Target;
    /// The worst-case offset in dwords with the insertions.
    int64_t Offset;
    /// Bytes that must go from between the two to bring it back in range.
    uint64_t Excess;
    /// Insertion points [FirstSlot, LastSlot] lie between branch and target.
    unsigned FirstSlot, LastSlot;
  };
  /// The short branches that \p Inserted (bytes per slot, numSlots() long)
  /// would put out of range.
  std::vector<OutOfRange> check(llvm::ArrayRef<uint64_t> Inserted) const;
  /// The short branches out of range as the function stands: their
  /// worst-case offset leaves the range (Excess: the bytes beyond it).
  std::vector<OutOfRange> outOfRange() const;

private:
  std::vector<OutOfRange> scan(llvm::ArrayRef<uint64_t> Inserted, bool OnlyInsertions) const;

  struct Branch {
    Instruction *I;
    std::string Target;
    unsigned Slot;      ///< the slot right before the branch instruction
    ByteRange Start;    ///< its address, without insertions
    unsigned Size;      ///< its encoding (the offset counts from its end)
    unsigned LabelSlot; ///< the target block's first slot
    ByteRange Label;    ///< the target's address, without insertions
  };
  llvm::DenseMap<std::pair<const BasicBlock *, const Instruction *>, unsigned> SlotOf;
  std::vector<ByteRange> SlotAt;
  std::vector<Branch> Branches;
};

} // namespace stinkytofu

#endif
