//===- Instruction.cpp - Printing instructions --------------------------===//
#include "rocisa-bridge/code/Instruction.h"
#include "rocisa-bridge/code/Branch.h"
#include "llvm/ADT/StringRef.h"

namespace rocisa {

std::string formatLine(const std::string &Statement, const std::string &Comment) {
  if (Comment.empty())
    return Statement + "\n";
  constexpr size_t CommentColumn = 50;
  std::string Line = Statement;
  if (Line.size() < CommentColumn)
    Line.append(CommentColumn - Line.size(), ' ');
  return Line + " // " + Comment + "\n";
}

std::string Instruction::toString() const {
  std::string Operands = operandText();
  return formatLine(Operands.empty() ? instStr : instStr + " " + Operands, comment);
}

std::string CommonInstruction::operandText() const {
  std::string Text;
  for (const InstructionInput &In : getParams()) {
    if (!Text.empty())
      Text += ", ";
    Text += inputToString(In);
  }
  if (!modifiers.empty())
    Text += Text.empty() ? modifiers : " " + modifiers;
  return Text;
}

std::vector<InstructionInput> CommonInstruction::getParams() const {
  std::vector<InstructionInput> All = dsts;
  All.insert(All.end(), srcs.begin(), srcs.end());
  return All;
}

std::string BranchInstruction::targetLabel() const {
  // `label_X-.-12`, `label_X-.Lpost_addpc0`: the label is the symbol before
  // the first operator.
  llvm::StringRef Text = llvm::StringRef(labelName).trim();
  size_t End = Text.find_first_of("-+ ");
  return Text.take_front(End).str();
}

#define ROCISA_BRANCH(Class, Mnemonic)                                                    \
  std::shared_ptr<BranchInstruction> Class(std::string Label, std::string Comment) {          \
    return std::make_shared<BranchInstruction>(#Class, Mnemonic, std::move(Label),            \
                                               std::move(Comment));                           \
  }
#include "rocisa-bridge/code/BranchClasses.def"

} // namespace rocisa
