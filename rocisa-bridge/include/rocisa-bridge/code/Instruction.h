//===- Instruction.h - rocisa instructions ------------------------*- C++ -*-===//
//
// An instruction prints `<mnemonic> <dst>, <src>... <modifiers>` with its
// comment at rocisa's comment column. The object model keeps no table of
// what each mnemonic accepts: LLVM MC checks every instruction when the tree
// is converted (convert/ToStinkyTofu.h), and an instruction the target
// cannot assemble is an error naming the object.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CODE_INSTRUCTION_H
#define ROCISA_BRIDGE_CODE_INSTRUCTION_H

#include "rocisa-bridge/code/Item.h"
#include "rocisa-bridge/code/Operand.h"
#include <string>
#include <vector>

namespace rocisa {

/// rocisa's line format: the statement, padded to column 50 when there is a
/// comment, then ` // comment`; a newline at the end.
std::string formatLine(const std::string &Statement, const std::string &Comment);

class Instruction : public Item {
public:
  Instruction(std::string Mnemonic, std::string Comment)
      : instStr(std::move(Mnemonic)), comment(std::move(Comment)) {}

  /// The operands as written after the mnemonic (empty: none).
  virtual std::string operandText() const = 0;
  /// Destinations, then sources (labels and symbols as text).
  virtual std::vector<InstructionInput> getParams() const = 0;
  std::string toString() const override;

  std::string instStr;
  std::string comment;
};

/// An instruction with destinations, sources and modifier text: every ALU,
/// memory, wait and matrix instruction of the object model.
class CommonInstruction : public Instruction {
public:
  CommonInstruction(std::string ClassName, std::string Mnemonic,
                    std::vector<InstructionInput> Dsts, std::vector<InstructionInput> Srcs,
                    std::string Comment = "", std::string Modifiers = "")
      : Instruction(std::move(Mnemonic), std::move(Comment)), dsts(std::move(Dsts)),
        srcs(std::move(Srcs)), modifiers(std::move(Modifiers)), Class(std::move(ClassName)) {}

  std::string operandText() const override;
  std::vector<InstructionInput> getParams() const override;
  std::shared_ptr<Item> clone() const override {
    return std::make_shared<CommonInstruction>(*this);
  }
  std::string className() const override { return Class; }

  std::vector<InstructionInput> dsts;
  std::vector<InstructionInput> srcs;
  /// Written after the operands: `offen offset:16`, `glc`, `clamp` ...
  std::string modifiers;

private:
  std::string Class;
};

} // namespace rocisa

#endif
