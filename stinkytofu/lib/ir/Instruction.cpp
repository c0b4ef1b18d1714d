//===- Instruction.cpp - One assembly statement of the Asm IR -------------===//
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/parse/OperandParser.h"

namespace stinkytofu {

Instruction::Instruction(InstKind Kind, std::string Mnemonic,
                         std::vector<Operand> Operands)
    : Kind(Kind), Mnemonic(std::move(Mnemonic)), Operands(std::move(Operands)) {}

OperandSource::~OperandSource() = default;

void Instruction::splitLazyStatement() const {
  Statement S = splitStatement(LazyStatement.rtrim("\r\n"));
  LazyStatement = {};
  Mnemonic = S.Mnemonic.lower();
  if (S.Mnemonic != Mnemonic)
    Spelling = S.Mnemonic.str();
  Comment = S.Comment.str();
  LazyBody = S.Body;
}

void Instruction::materializeOperands() const {
  Operands = Lazy->parseOperands(LazyBody);
  Lazy = nullptr;
}

void Instruction::setOperands(std::vector<Operand> NewOperands) {
  materializeStatement();
  Lazy = nullptr;
  Operands = std::move(NewOperands);
  Modified = true;
}

void Instruction::setModifier(std::unique_ptr<Modifier> M) {
  removeModifier(M->kind());
  Mods.push_back(std::move(M));
}

void Instruction::removeModifier(ModifierKind K) {
  std::erase_if(Mods, [K](const std::unique_ptr<Modifier> &M) { return M->kind() == K; });
}

} // namespace stinkytofu
