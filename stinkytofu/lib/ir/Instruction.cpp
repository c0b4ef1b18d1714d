//===- Instruction.cpp - One assembly statement of the Asm IR -------------===//
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/parse/OperandParser.h"

namespace stinkytofu {

const InstrFacts Instruction::NoFacts;
const std::vector<Operand> Instruction::NoOperands;
const std::vector<std::unique_ptr<Modifier>> Instruction::NoModifiers;

Instruction::Instruction(InstKind Kind, std::string Mnemonic,
                         std::vector<Operand> Operands)
    : Kind(Kind) {
  if (!Mnemonic.empty())
    extra().Mnemonic = std::move(Mnemonic);
  if (!Operands.empty())
    extra().Operands = std::move(Operands);
}

Instruction::Instruction(Instruction &&) noexcept = default;
Instruction &Instruction::operator=(Instruction &&) noexcept = default;
Instruction::~Instruction() = default;

OperandSource::~OperandSource() = default;

void Instruction::splitStatement() const {
  Statement S = stinkytofu::splitStatement(Source.rtrim("\r\n"));
  Unsplit = false;
  Details &Words = extra();
  Words.Mnemonic = S.Mnemonic.lower();
  if (S.Mnemonic != Words.Mnemonic)
    Words.Spelling = S.Mnemonic.str();
  Words.Comment = S.Comment.str();
  Words.OperandText = S.Body;
}

void Instruction::materializeOperands() const {
  Details &D = extra();
  D.Operands = Lazy->parseOperands(D.OperandText);
  Lazy = nullptr;
}

void Instruction::unpackMC() const {
  extra().OwnedMC = PackedMCInsts::unpack(Packed, NumPacked);
  Packed = nullptr;
  NumPacked = 0;
}

void Instruction::setOperands(std::vector<Operand> NewOperands) {
  materializeStatement();
  Lazy = nullptr;
  extra().Operands = std::move(NewOperands);
  Modified = true;
}

void Instruction::setModifier(std::unique_ptr<Modifier> M) {
  removeModifier(M->kind());
  extra().Mods.push_back(std::move(M));
}

void Instruction::removeModifier(ModifierKind K) {
  if (Extra)
    std::erase_if(Extra->Mods,
                  [K](const std::unique_ptr<Modifier> &M) { return M->kind() == K; });
}

} // namespace stinkytofu
