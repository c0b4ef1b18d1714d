//===- AsmWriter.cpp - Writing the Asm IR back as assembly ----------------===//
#include "stinkytofu/print/AsmWriter.h"
#include "stinkytofu/print/InstructionFormatter.h"

namespace stinkytofu {

std::string instructionText(const Instruction &I) {
  if (!I.isModified())
    return I.sourceText().str();
  const AsmStyle Style = I.sourceText().empty() ? AsmStyle::around(I) : AsmStyle::of(I);
  return formatInstruction(I, Style) + "\n";
}

static void writeFunction(const Function &F, llvm::raw_ostream &OS) {
  for (const BasicBlock &BB : F.blocks()) {
    OS << BB.leadingText();
    if (!BB.labelText().empty())
      OS << BB.labelText();
    else if (BB.hasLabel())
      OS << BB.label() << ":\n";
    for (const Instruction &I : BB.instructions())
      OS << I.leadingText() << instructionText(I);
  }
}

void writeAsm(const Module &M, llvm::raw_ostream &OS) {
  for (const ModuleItem &Item : M.items()) {
    if (Item.K == ModuleItem::Kind::Text)
      OS << Item.Contents;
    else
      writeFunction(*Item.Func, OS);
  }
}

} // namespace stinkytofu
