//===- VgprMsbPasses.h - RaiseVgprMsbPass and InsertVgprMsbPass -*- C++ -*-===//
//
// gfx1250's VGPRs 256..1023 in the IR (docs/passes.md, "VGPR MSB passes").
// The IR holds logical registers (v300; MC operands VGPR300, which encode as
// their low 8 bits); assembly holds the low register and the s_set_vgpr_msb
// state in front (hw/VgprMsb.h).
//
// RaiseVgprMsbPass reads assembly in the encoded form into logical
// registers: it follows the state s_set_vgpr_msb sets over the CFG (0 at a
// function's entry and after a call, as LLVM's ABI has it; blocks whose
// predecessors disagree have no state, and a VGPR read there is an error),
// moves every VGPR operand to the register its slot's bank gives, respells
// it (`v44 /*v300*/` -> `v300`), and takes each s_set_vgpr_msb out, keeping
// it with the instruction that followed it (RaisedVgprMsbData).
//
// InsertVgprMsbPass writes the encoded form back: a forward dataflow over
// the CFG gives the state at each instruction (per slot known or not: a
// block's entry knows a slot when all its predecessors agree; a kernel
// starts at 0; a call leaves nothing known; a callable function starts
// with an explicit `s_set_vgpr_msb 0`, as the reference does), and an
// s_set_vgpr_msb goes in front of an instruction only when the state does
// not give its VGPR operands their banks. Slots an instruction does not use
// keep what they hold. A switch RaiseVgprMsbPass took out is written back
// as it was where it still serves the instruction after it, so raising and
// inserting gives the input back byte for byte. VGPRs are respelled in
// LLVM's way: `v44 /*v300*/`.
//
// Arguments of both: `mode=none|msb8|msb16` (default: the target's,
// HardwareModel::vgprMsbMode; none makes them do nothing), `stats`.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_VGPRMSBPASSES_H
#define STINKYTOFU_TRANSFORMS_VGPRMSBPASSES_H

#include "stinkytofu/hw/VgprMsbMode.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace stinkytofu {

/// The s_set_vgpr_msb statements RaiseVgprMsbPass took out in front of an
/// instruction (or, at the end of a block, after it), kept on that
/// instruction as a private modifier: InsertVgprMsbPass writes them back as
/// they were where the state they set still serves it, and drops them. A
/// clone carries none (Instruction::clone), so they are written back once,
/// at the instruction they were raised off; a clone that replaces it gets a
/// new switch where it needs one.
struct RaisedVgprMsbData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::RaisedVgprMsbData;
  struct Switch {
    llvm::StringRef Text;    ///< the statement, newline included
    llvm::StringRef Leading; ///< its comments, now in front of the next item's
    int64_t Immediate = 0;
    /// The state the code had set in front of it, when one path leads
    /// there: where a transform has changed that, the switch may no
    /// longer change anything.
    std::optional<uint8_t> StateBefore;
  };
  RaisedVgprMsbData() : Modifier(Kind) {}
  /// In order, those in front of the instruction and those after it.
  llvm::SmallVector<Switch, 1> Before, After;
  /// The statement as written and as raised, when the pass respelled it:
  /// one no transform has touched since is written back as it was (notes
  /// `/*vN*/` or none), not respelled.
  llvm::StringRef WrittenText, RaisedText;
  void toAttrs(AttrDict &) const override {} // private: never printed
  std::unique_ptr<Modifier> clone() const override {
    return std::make_unique<RaisedVgprMsbData>(*this);
  }
};

/// The leading arguments a driver gives both passes for its
/// `--vgpr-msb-mode=`: `mode=<name>` (a pass's own `mode=` overrides it).
inline PassArguments vgprMsbModeArguments(VgprMsbMode Mode) {
  return {{"mode", vgprMsbModeName(Mode).str()}};
}

llvm::Expected<std::unique_ptr<Pass>> createRaiseVgprMsbPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createInsertVgprMsbPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
