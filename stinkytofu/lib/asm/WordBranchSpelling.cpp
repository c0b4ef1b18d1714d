//===- WordBranchSpelling.cpp - Branches written as words, moved by an edit ===//
#include "stinkytofu/asm/WordBranchSpelling.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

using llvm::StringRef;

namespace stinkytofu {

/// A word branch re-spelled: the mnemonic and its target's label, with the
/// line's indentation.
std::string respelledBranchText(const Instruction &I) {
  StringRef Indent = I.sourceText().take_while([](char C) { return C == ' ' || C == '\t'; });
  return (Indent + I.mnemonic() + " " + I.getModifier<LabelData>()->Label + "\n").str();
}

static llvm::Error wordBranchError(const Module &M, const Function::WordBranch &B,
                                   const llvm::Twine &Why) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      StringRef(renderDiagnostic(M.fileName(), B.Line, 0, "", llvm::SourceMgr::DK_Error,
                                 "an edit changed the code between this branch, written as "
                                 "data words, and its target (line " +
                                     std::to_string(B.TargetLine) + "), and " + Why.str() +
                                     ": not written"))
          .rtrim("\n"));
}

/// Finds the instructions of each word branch's span again by their source
/// lines: the span is intact when each line is one unedited instruction,
/// they follow each other with nothing between, and the target still starts
/// its block (code put at the start of a loop's block is in the loop for the
/// IR, not for a branch back by words).
llvm::Expected<RespelledWordBranches> respelledWordBranches(const Module &M,
                                                                   const Function &F) {
  RespelledWordBranches R;
  if (F.wordBranches().empty())
    return R;
  constexpr size_t Edited = ~size_t(0);
  llvm::DenseMap<unsigned, size_t> Position;
  llvm::DenseMap<unsigned, StringRef> StartsBlock; // line -> label of its block
  llvm::DenseMap<unsigned, const Instruction *> AtLine; // during this call only
  size_t N = 0;
  for (const BasicBlock &BB : F.blocks()) {
    bool First = true;
    for (const Instruction &I : BB.instructions()) {
      if (!I.sourceText().empty()) {
        unsigned Line = I.location().Line;
        auto [It, New] = Position.try_emplace(Line, I.isModified() ? Edited : N);
        if (!New)
          It->second = Edited; // a clone: the line is written twice
        AtLine[Line] = &I;
        if (First && BB.hasLabel())
          StartsBlock[Line] = BB.label();
      }
      First = false;
      ++N;
    }
  }
  auto Intact = [&](const Function::WordBranch &B) {
    std::optional<size_t> Previous;
    for (unsigned Line : B.SpanLines) {
      auto It = Position.find(Line);
      if (It == Position.end() || It->second == Edited ||
          (Previous && It->second != *Previous + 1))
        return false;
      Previous = It->second;
    }
    return B.TargetLabel.empty() || StartsBlock.lookup(B.TargetLine) == B.TargetLabel;
  };
  // A record without a label to spell its target with: an edit in its
  // span cannot be written.
  auto Unlabeled = [&](const Function::WordBranch &B) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        StringRef(renderDiagnostic(
                      M.fileName(), B.Line, 0, "", llvm::SourceMgr::DK_Error,
                      B.ReadsPc ? "an edit changed the code around this s_getpc_b64, written "
                                  "as data words: the constants added to the PC it reads "
                                  "would reach elsewhere; not written"
                                : "an edit changed the code between this branch, written as "
                                  "data words, and its target, which no instruction line of "
                                  "its run starts with (no label can stand for it): not "
                                  "written"))
            .rtrim("\n"));
  };
  for (const Function::WordBranch &B : F.wordBranches()) {
    if (Intact(B))
      continue;
    if (B.TargetLabel.empty())
      return Unlabeled(B);
    R.Lines.insert(B.Line);
  }
  // A branch spelled with a label may be assembled longer than its word
  // (the gfx10 branch-offset workaround adds an s_nop): the word branches
  // across it are spelled with labels too.
  for (bool Changed = !R.Lines.empty(); Changed;) {
    Changed = false;
    for (const Function::WordBranch &B : F.wordBranches())
      if (!R.Lines.contains(B.Line) &&
          llvm::any_of(B.SpanLines, [&](unsigned L) { return R.Lines.contains(L); })) {
        if (B.TargetLabel.empty())
          return Unlabeled(B);
        Changed = R.Lines.insert(B.Line).second;
      }
  }
  for (const Function::WordBranch &B : F.wordBranches()) {
    if (B.TargetLabel.empty() || !R.Lines.contains(B.Line))
      continue;
    const Instruction *Branch = AtLine.lookup(B.Line);
    if (!Branch || !Branch->getModifier<LabelData>())
      continue; // erased: nothing jumps
    if (Branch->mcInsts().size() != 1)
      return wordBranchError(M, B, "its line holds other instructions too, which cannot be "
                                   "spelled apart from it");
    StringRef Label = Branch->getModifier<LabelData>()->Label;
    if (!F.findBlock(Label))
      return wordBranchError(M, B, "its target's block '" + Label + "' is gone");
    R.Labels.insert(Label);
  }
  return R;
}

} // namespace stinkytofu
