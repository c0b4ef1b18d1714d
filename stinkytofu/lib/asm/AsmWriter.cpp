//===- AsmWriter.cpp - Writing the Asm IR back as assembly ----------------===//
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/asm/WordBranchSpelling.h"
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

static void writeFunction(const Function &F, const RespelledWordBranches &Respelled,
                          llvm::raw_ostream &OS) {
  // New instructions take the style of the nearest source-backed one before
  // them (AsmStyle::around), tracked here so that printing stays linear.
  const Instruction *LastSource = nullptr;
  // Before the first of them, the first one after: the function's first.
  const Instruction *FirstSource = nullptr;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions())
      if (!FirstSource && !I.sourceText().empty() && I.kind() == InstKind::Machine)
        FirstSource = &I;
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
      } else if (I.sourceText().empty() && (LastSource || I.isModified())) {
        const Instruction *StyleFrom = LastSource ? LastSource : FirstSource;
        if (StyleSource != StyleFrom) {
          AsmStyle New = StyleFrom ? AsmStyle::of(*StyleFrom) : AsmStyle();
          if (New.Indent != Style.Indent || New.OperandColumn != Style.OperandColumn ||
              New.CommentColumn != Style.CommentColumn)
            Formatted.clear();
          Style = std::move(New);
          StyleSource = StyleFrom;
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
