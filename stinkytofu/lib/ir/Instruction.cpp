//===- Instruction.cpp - One assembly statement of the Asm IR -------------===//
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/parse/OperandParser.h"

namespace stinkytofu {

const InstrFacts Instruction::NoFacts;

Instruction::Instruction(InstKind Kind, std::string Mnemonic,
                         std::vector<Operand> Operands)
    : Kind(Kind), Operands(std::move(Operands)) {
  if (!Mnemonic.empty())
    Spelled.get().Mnemonic = std::move(Mnemonic);
}

OperandSource::~OperandSource() = default;

void Instruction::splitLazyStatement() const {
  Statement S = splitStatement(LazyStatement.rtrim("\r\n"));
  LazyStatement = {};
  SpelledStatement &Words = Spelled.get();
  Words.Mnemonic = S.Mnemonic.lower();
  if (S.Mnemonic != Words.Mnemonic)
    Words.Spelling = S.Mnemonic.str();
  Words.Comment = S.Comment.str();
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
