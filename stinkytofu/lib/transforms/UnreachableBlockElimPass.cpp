//===- UnreachableBlockElimPass.cpp - Delete code control never reaches ---===//
#include "stinkytofu/transforms/UnreachableBlockElimPass.h"

#include "stinkytofu/analysis/Reachability.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

bool isSymbolChar(char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$' || C == '@'; }

/// Whether \p Text names the symbol \p Name (as a whole word; a mention in a
/// comment counts too, which only keeps a block).
bool mentions(StringRef Text, StringRef Name) {
  for (size_t At = Text.find(Name); At != StringRef::npos; At = Text.find(Name, At + 1)) {
    size_t End = At + Name.size();
    if ((At == 0 || !isSymbolChar(Text[At - 1])) &&
        (End == Text.size() || !isSymbolChar(Text[End])))
      return true;
  }
  return false;
}

/// Why control in \p F may reach a block without a CFG edge; "" when every
/// transfer's targets are known.
std::string unknownTransfer(const Function &F) {
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (I.kind() == InstKind::Opaque || I.kind() == InstKind::MacroCall)
        return "'" + I.mnemonic().str() + "' (line " + std::to_string(I.location().Line) +
               ") may branch anywhere";
      if (isComputedBranch(I) && getBranchTargets(I).empty() && !isReturn(I))
        return "the computed branch at line " + std::to_string(I.location().Line) +
               " has no proven target";
    }
  return "";
}

class StinkyUnreachableBlockElimPass final : public Pass {
public:
  StringRef name() const override { return "StinkyUnreachableBlockElimPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    raw_ostream &OS = context().statsStream();
    if (!coversWholeModule(Scope))
      return PreservedAnalyses::all();
    bool Changed = false;
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG()) {
        buildCFG(F);
        Changed = true;
      }
      std::vector<const BasicBlock *> Dead = unreachableBlocks(F);
      if (Dead.empty())
        continue;
      if (std::string Why = unknownTransfer(F); !Why.empty()) {
        OS << name() << ": " << F.name() << ": kept " << Dead.size()
           << " unreachable block(s): " << Why << "\n";
        continue;
      }
      std::vector<BasicBlock *> Erase = provablyDead(M, F, Dead, OS);
      for (BasicBlock *BB : Erase)
        BB->eraseFromParent();
      if (!Erase.empty()) {
        buildCFG(F);
        Changed = true;
        OS << name() << ": " << F.name() << ": erased " << Erase.size()
           << " unreachable block(s)\n";
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// The blocks of \p Dead whose labels nothing kept names, closed under
  /// the edges of kept ones: a kept block may fall through or branch to
  /// another dead block, which must then stay too.
  std::vector<BasicBlock *> provablyDead(const Module &M, Function &F,
                                         ArrayRef<const BasicBlock *> Dead, raw_ostream &OS) {
    SmallPtrSet<const BasicBlock *, 16> DeadSet(Dead.begin(), Dead.end());
    auto NamedOutside = [&](StringRef Label) -> bool {
      for (const ModuleItem &Item : M.items())
        if (Item.K == ModuleItem::Kind::Text && mentions(Item.Contents, Label))
          return true;
      for (const Function &G : M.functions())
        for (const BasicBlock &BB : G.blocks()) {
          if (mentions(BB.leadingText(), Label))
            return true;
          for (const BlockItem &Item : BB.items()) {
            if (const auto *D = dyn_cast<Directive>(&Item)) {
              if (mentions(D->text(), Label))
                return true;
            } else if (!DeadSet.count(&BB) &&
                       mentions(cast<Instruction>(Item).sourceText(), Label)) {
              return true;
            }
          }
        }
      return false;
    };
    // A kept block keeps what it reaches and what it names: until no more
    // stay.
    for (bool Kept = true; Kept;) {
      Kept = false;
      std::vector<const BasicBlock *> Work;
      for (const BasicBlock *BB : Dead)
        if (DeadSet.count(BB) && BB->hasLabel() && NamedOutside(BB->label())) {
          OS << name() << ": " << F.name() << ": kept " << BB->label()
             << ": its label is named outside unreachable code\n";
          Work.push_back(BB);
        }
      while (!Work.empty()) {
        const BasicBlock *BB = Work.back();
        Work.pop_back();
        if (!DeadSet.erase(BB))
          continue;
        Kept = true;
        for (const BasicBlock *S : BB->successors())
          if (DeadSet.count(S))
            Work.push_back(S);
      }
    }
    std::vector<BasicBlock *> Erase;
    for (BasicBlock &BB : F.blocks())
      if (DeadSet.count(&BB))
        Erase.push_back(&BB);
    return Erase;
  }
};

} // namespace

Expected<std::unique_ptr<Pass>>
createStinkyUnreachableBlockElimPass(const PassArguments &Args) {
  return createArgumentlessPass<StinkyUnreachableBlockElimPass>(Args);
}

} // namespace stinkytofu
