//===- InstructionFormatter.cpp - Printing in the file's own style --------===//
#include "stinkytofu/print/InstructionFormatter.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/parse/OperandParser.h"

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
  if (!BB)
    return AsmStyle();
  // The nearest source-backed instruction before, else after, in the function.
  const Instruction *Before = nullptr, *After = nullptr;
  bool Seen = false;
  for (const BasicBlock &Block : BB->parent()->blocks())
    for (const Instruction &Other : Block.instructions()) {
      if (&Other == &I) {
        Seen = true;
        continue;
      }
      if (Other.sourceText().empty() || Other.kind() != InstKind::Machine)
        continue;
      if (!Seen)
        Before = &Other;
      else if (!After)
        After = &Other;
    }
  if (Before)
    return of(*Before);
  if (After)
    return of(*After);
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

} // namespace stinkytofu
