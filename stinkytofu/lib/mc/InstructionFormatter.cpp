//===- InstructionFormatter.cpp - Printing in the file's own style --------===//
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/mc/OperandParser.h"

namespace stinkytofu {

AsmStyle AsmStyle::of(const Instruction &I) {
  AsmStyle Style;
  Statement S = splitStatement(I.sourceText().rtrim("\r\n"));
  Style.Indent = S.Indent.str();
  if (S.MnemonicGap.size() > 1 && !S.Body.empty())
    Style.OperandColumn = S.Mnemonic.size() + S.MnemonicGap.size();
  if (S.CommentGap.size() > 1 && !S.Comment.empty())
    Style.CommentColumn = S.Mnemonic.size() + S.MnemonicGap.size() + S.Body.size() +
                          S.CommentGap.size();
  return Style;
}

AsmStyle AsmStyle::around(const Instruction &I) {
  if (!I.sourceText().empty())
    return of(I);
  const BasicBlock *BB = I.parent();
  if (!BB || !BB->parent())
    return AsmStyle();
  // The nearest source-backed instruction before, else after, in the
  // function: walk outwards from I (passes insert many instructions; a scan
  // of the whole function per instruction made printing quadratic).
  auto Usable = [](const Instruction &Other) {
    return !Other.sourceText().empty() && Other.kind() == InstKind::Machine;
  };
  const auto Blocks = BB->parent()->blocks();
  auto BlockIt = BB->getIterator();
  const auto Insts = BB->instructions();
  auto Here = I.getIterator();
  // Before: the rest of this block backwards, then earlier blocks.
  for (auto It = std::make_reverse_iterator(Here); It != Insts.rend(); ++It)
    if (Usable(*It))
      return of(*It);
  for (auto B = std::make_reverse_iterator(BlockIt); B != Blocks.rend(); ++B)
    for (auto It = B->instructions().rbegin(); It != B->instructions().rend(); ++It)
      if (Usable(*It))
        return of(*It);
  // After: the rest of this block, then later blocks.
  for (auto It = std::next(Here); It != Insts.end(); ++It)
    if (Usable(*It))
      return of(*It);
  for (auto B = std::next(BlockIt); B != Blocks.end(); ++B)
    for (const Instruction &Other : B->instructions())
      if (Usable(Other))
        return of(Other);
  return AsmStyle();
}

std::string formatOperands(const Instruction &I) {
  std::string Out;
  for (const Operand &Op : I.operands()) {
    if (!Out.empty())
      Out += Op.isModifier() ? " " : ", ";
    Out += Op.spelling().str();
  }
  return Out;
}

std::string formatInstruction(const Instruction &I, const AsmStyle &Style) {
  std::string Line = Style.Indent;
  std::string Mnemonic = I.mnemonicSpelling().str();
  Line += Mnemonic;
  std::string Operands = formatOperands(I);
  if (!Operands.empty()) {
    size_t Pad = Style.OperandColumn > Mnemonic.size() ? Style.OperandColumn - Mnemonic.size() : 1;
    Line.append(Pad, ' ');
    Line += Operands;
  }
  if (!I.trailingComment().empty()) {
    size_t Column = Line.size() - Style.Indent.size();
    Line.append(Style.CommentColumn > Column ? Style.CommentColumn - Column : 1, ' ');
    Line += I.trailingComment().str();
  }
  return Line;
}

std::string instructionText(const Instruction &I) {
  if (!I.isModified())
    return I.sourceText().str();
  const AsmStyle Style = I.sourceText().empty() ? AsmStyle::around(I) : AsmStyle::of(I);
  return formatInstruction(I, Style) + "\n";
}

} // namespace stinkytofu
