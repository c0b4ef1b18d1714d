//===- AsmWriter.cpp - Writing the Asm IR back as assembly ----------------===//
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/PseudoInstructions.h"
#include "stinkytofu/hw/VgprSpelling.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <tuple>

using llvm::StringRef;

namespace stinkytofu {

namespace {
/// The branches of a function read from data words (Function::WordBranch)
/// that an edit moved off their words: each is written as its mnemonic and
/// its target's label, and that label is written at the target, so that the
/// assembler measures the distance the words had fixed. The others, and all
/// other words, are written as read.
struct RespelledWordBranches {
  llvm::DenseSet<unsigned> Lines; ///< the branches' source lines
  llvm::StringSet<> Labels;       ///< their targets
};
} // namespace

/// A word branch re-spelled: the mnemonic and its target's label, with the
/// line's indentation.
static std::string respelledBranchText(const Instruction &I) {
  StringRef Indent = I.sourceText().take_while([](char C) { return C == ' ' || C == '\t'; });
  return (Indent + I.mnemonic() + " " + I.getModifier<LabelData>()->Label + "\n").str();
}

static void writeFunction(const Function &F, const RespelledWordBranches &Respelled,
                          llvm::raw_ostream &OS) {
  // New instructions take the style of the nearest source-backed one before
  // them (AsmStyle::around), tracked here so that printing stays linear.
  const Instruction *LastSource = nullptr;
  // Its style, measured once for the run of new instructions after it.
  const Instruction *StyleSource = nullptr;
  AsmStyle Style;
  // New instructions are mostly clones sharing one record of words and
  // operands (Instruction::clone): each record is formatted once per style,
  // keyed by where its words live, which no two live records share.
  llvm::DenseMap<std::tuple<const char *, const Operand *, const char *>, std::string> Formatted;
  for (const BasicBlock &BB : F.blocks()) {
    OS << BB.leadingText();
    if (!BB.labelText().empty())
      OS << BB.labelText();
    else if (BB.hasLabel() &&
             (!BB.hasUnwrittenLabel() || Respelled.Labels.contains(BB.label())))
      OS << BB.label() << ":\n";
    for (const BlockItem &Item : BB.items()) {
      OS << Item.leadingText();
      const auto *Inst = llvm::dyn_cast<Instruction>(&Item);
      if (!Inst) {
        OS << llvm::cast<Directive>(Item).text();
        continue;
      }
      const Instruction &I = *Inst;
      if (!I.sourceText().empty() && Respelled.Lines.contains(I.location().Line) &&
          I.getModifier<LabelData>()) {
        OS << respelledBranchText(I);
      } else if (I.sourceText().empty() && LastSource) {
        if (StyleSource != LastSource) {
          AsmStyle New = AsmStyle::of(*LastSource);
          if (New.Indent != Style.Indent || New.OperandColumn != Style.OperandColumn ||
              New.CommentColumn != Style.CommentColumn)
            Formatted.clear();
          Style = std::move(New);
          StyleSource = LastSource;
        }
        llvm::StringRef Mnemonic = I.mnemonicSpelling();
        if (Mnemonic.empty()) {
          OS << formatInstruction(I, Style) << "\n";
        } else {
          auto [It, New] = Formatted.try_emplace(
              {Mnemonic.data(), I.operands().data(), I.trailingComment().data()});
          if (New)
            It->second = formatInstruction(I, Style);
          OS << It->second << "\n";
        }
      } else if (!I.isModified()) {
        OS << I.sourceText(); // no copy: most instructions are unchanged
      } else {
        OS << instructionText(I);
      }
      if (!I.sourceText().empty() && I.kind() == InstKind::Machine)
        LastSource = &I;
    }
  }
}

/// Every pseudo-instruction left in \p M, as one error.
static llvm::Error checkNoPseudoInstructions(const Module &M) {
  std::string Errors;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions()) {
        if (I.kind() != InstKind::Pseudo)
          continue;
        const PseudoInstructionInfo *Info =
            M.pseudoInstructions() ? M.pseudoInstructions()->find(I.mnemonic()) : nullptr;
        std::string Pass = Info && !Info->LoweredBy.empty() ? Info->LoweredBy
                                                            : "the pass that lowers it";
        StringRef Line = I.sourceText().rtrim("\r\n");
        Errors += renderDiagnostic(M.fileName(), I.location().Line, I.location().Column,
                                   Line, llvm::SourceMgr::DK_Error,
                                   "pseudo-instruction '" + I.mnemonic() +
                                       "' left in the output: " + Pass + " did not run");
      }
  if (Errors.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 StringRef(Errors).rtrim("\n"));
}

/// On a target with s_set_vgpr_msb, an instruction that still names a VGPR
/// of 256 or above as such: MC would refuse it, and its low register alone
/// would be another register. InsertVgprMsbPass writes the encoded form.
static llvm::Error checkNoLogicalHighVgprs(const Module &M) {
  if (!M.target().hardware().hasHighVgprs())
    return llvm::Error::success();
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions()) {
        std::string Printed;
        StringRef Text = I.isModified() ? StringRef(Printed = instructionText(I))
                                        : I.sourceText();
        std::optional<VgprToken> T = findHighVgpr(Text);
        if (!T)
          continue;
        StringRef Line = Text.rtrim("\r\n");
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            StringRef(renderDiagnostic(
                          M.fileName(), I.location().Line, I.location().Column, Line,
                          llvm::SourceMgr::DK_Error,
                          "'" + Text.slice(T->Begin, T->End) +
                              "' is a VGPR of 256 or above, which assembly names only "
                              "through s_set_vgpr_msb: run InsertVgprMsbPass before "
                              "writing assembly"))
                .rtrim("\n"));
      }
  return llvm::Error::success();
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
static llvm::Expected<RespelledWordBranches> respelledWordBranches(const Module &M,
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

llvm::Error writeAsm(const Module &M, llvm::raw_ostream &OS) {
  if (llvm::Error E = checkNoPseudoInstructions(M))
    return E;
  if (llvm::Error E = checkNoLogicalHighVgprs(M))
    return E;
  llvm::DenseMap<const Function *, RespelledWordBranches> Respelled;
  for (const Function &F : M.functions()) {
    llvm::Expected<RespelledWordBranches> R = respelledWordBranches(M, F);
    if (!R)
      return R.takeError();
    Respelled[&F] = std::move(*R);
  }
  for (const ModuleItem &Item : M.items()) {
    if (Item.K == ModuleItem::Kind::Text)
      OS << Item.Contents;
    else
      writeFunction(*Item.Func, Respelled[Item.Func], OS);
  }
  return llvm::Error::success();
}

} // namespace stinkytofu
