//===- PseudoInstructions.h - Statements a pass lowers, not MC ---*- C++ -*-===//
//
// A pseudo-instruction is a statement of the input (`.s` or `.stir`) that is
// not an AMDGPU instruction but a request to a pass, for example
// `sqtt_marker_enter "loop"` for the SQTT instrumentation. Registering a pass
// registers the mnemonics it lowers in its context's registry
// (StinkyTofuContext); the `.s` reader of that context then keeps a statement
// that LLVM MC rejects and whose mnemonic is registered as an instruction of
// kind InstKind::Pseudo instead of failing. The registering pass lowers it;
// writing assembly that still holds one is an error (writeAsm).
//
// A pseudo-instruction reads the registers named by its operands and writes
// nothing (its facts), so analyses see the values it consumes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_PSEUDOINSTRUCTIONS_H
#define STINKYTOFU_IR_PSEUDOINSTRUCTIONS_H

#include "stinkytofu/hw/InstrFacts.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace stinkytofu {

class Instruction;
class TargetInfo;

struct PseudoInstructionInfo {
  std::string Mnemonic;  ///< lower case: `sqtt_marker_enter`
  std::string LoweredBy; ///< the pass that lowers it: `SQTTInstrumentPass`
};

class PseudoInstructionRegistry {
public:
  /// Registers \p Info; registering a mnemonic again replaces it.
  void add(PseudoInstructionInfo Info);
  /// The entry for a mnemonic (case-insensitive), or null.
  const PseudoInstructionInfo *find(llvm::StringRef Mnemonic) const;
  /// The entry a statement line starts with, or null (the first word of
  /// the line, after blanks, up to a blank or a comma).
  const PseudoInstructionInfo *findStatement(llvm::StringRef Statement) const;
  const std::vector<PseudoInstructionInfo> &entries() const { return Entries; }

private:
  std::vector<PseudoInstructionInfo> Entries;
};

/// The facts of a pseudo-instruction: it reads the registers its operands
/// name and writes nothing; IF_SideEffects keeps it in place.
InstrFacts pseudoInstructionFacts(const Instruction &I, const TargetInfo &TI);

} // namespace stinkytofu

#endif
