//===- InstInserter.h - Building instructions at a place ---------*- C++ -*-===//
//
// How a pass adds code: an inserter is bound to an insertion point (a block
// and the item the code goes in front of, or the block's end) and builds
// typed instructions there, as LLVM's BuildMI and MLIR's OpBuilder do.
// Successive instructions inserted at one point come out in the order they
// were built.
//
// One policy for the text around the point: inserted code sits right next
// to the instruction the point names, and the comments and directives of the
// source keep their place in the text. Code inserted before an instruction
// goes between the text in front of it (comments such as a block's
// `; %bb.1:`, directives) and the instruction: the first inserted
// instruction takes over the instruction's comments, so they stay in front
// of the whole run and keep describing the place they were written at.
// Code inserted after an instruction goes right after it, in front of the
// comments and directives that follow it.
//
// A built wait (`s_waitcnt*`, `s_wait_*cnt`, `s_delay_alu`, `s_wait_alu`)
// carries its derived `.stir` modifier (`mod.swaitcnt = {...}`), so that
// `.stir` shows inserted waits by their fields and no pass attaches the
// modifier by hand.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_INSTINSERTER_H
#define STINKYTOFU_MC_INSTINSERTER_H

#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/Support/Error.h"

namespace stinkytofu {

class InstInserter {
public:
  /// An inserter building with \p B, not yet at a point.
  explicit InstInserter(InstBuilder &B) : Builder(B) {}

  /// Code goes right before \p I.
  void setInsertPointBefore(Instruction &I);
  /// Code goes right after \p I, before the comments and directives that
  /// follow it.
  void setInsertPointAfter(Instruction &I);
  /// Code goes at the end of \p BB, after its directives.
  void setInsertPointAtEnd(BasicBlock &BB);

  /// Builds \p Mnemonic \p Operands at the point; the point stays in front
  /// of the same item, so the next instruction comes after this one.
  llvm::Expected<Instruction &> build(llvm::StringRef Mnemonic,
                                      llvm::ArrayRef<BuildOperand> Operands);
  llvm::Expected<Instruction &> build(const InstSpec &Spec) {
    return build(Spec.Mnemonic, Spec.Operands);
  }
  /// Inserts the already made \p I at the point.
  Instruction &insert(Instruction I);

  /// Moves \p I (of any block) to the point; its own comments go with it,
  /// after the comments the point keeps in front.
  void move(Instruction &I);

  /// The builder the instructions are made with (for editing in place).
  InstBuilder &builder() { return Builder; }
  BasicBlock *block() const { return Block; }

private:
  /// Gives \p First, just placed before the point's instruction, the
  /// comments in front of that instruction.
  void keepCommentsInFront(Instruction &First);

  InstBuilder &Builder;
  BasicBlock *Block = nullptr;
  /// The item the code goes in front of; the block's end when null.
  BlockItem *Before = nullptr;
  /// Whether the point is before an instruction (whose comments the
  /// inserted run takes), not after one.
  bool TakesComments = false;
};

/// Attaches to \p I the derived `.stir` modifier of the wait it is (none
/// for other instructions).
void attachWaitModifier(Instruction &I, const TargetInfo &TI);

} // namespace stinkytofu

#endif
