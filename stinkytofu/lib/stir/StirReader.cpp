//===- StirReader.cpp - Reading the textual IR (`.stir`) ------------------===//
#include "stinkytofu/stir/StirReader.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/mc/DerivedModifiers.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/stir/StirAssembly.h"
#include "stinkytofu/stir/StirBlockNames.h"
#include "stinkytofu/stir/StirParser.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The block of \p Mod where \p SF starts: its labelled first block, else
/// the block of its first instruction (\p FirstInst indexes \p Insts).
BasicBlock *firstBlockOf(Module &Mod, const StirFunc &SF, size_t FirstInst,
                         const std::vector<Instruction *> &Insts) {
  if (SF.Blocks.empty())
    return nullptr;
  const StirBlock &First = SF.Blocks.front();
  if (!isSyntheticBlockName(First.Name) || First.Attrs.find("asm"))
    for (Function &F : Mod.functions())
      if (BasicBlock *BB = F.findBlock(First.Name))
        return BB;
  if (First.Insts.empty() || FirstInst >= Insts.size())
    return nullptr;
  Instruction *I = Insts[FirstInst];
  BasicBlock *BB = I->parent();
  return &BB->instructions().front() == I ? BB : nullptr;
}

/// The kind of the edge \p From -> \p To, read off \p From's terminator.
EdgeKind edgeKind(const Function &F, const BasicBlock &From, const BasicBlock &To) {
  auto Next = std::next(From.getIterator());
  bool IsNext = Next != F.blocks().end() && &*Next == &To;
  const Instruction *Last = From.empty() ? nullptr : &From.instructions().back();
  // A conditional branch to the next block has two edges to it: the branch
  // edge comes first, then the fall-through.
  bool Again = llvm::is_contained(From.successors(), &To);
  if (Last && isBranch(*Last) && !Again) {
    for (const std::string &Target : getBranchTargets(*Last))
      if (To.hasLabel() && To.label() == Target)
        return Last->facts().has(IF_ComputedTarget) ? EdgeKind::LongBranch : EdgeKind::Branch;
  }
  return IsNext ? EdgeKind::FallThrough : EdgeKind::Branch;
}

/// The reference's tests write edges without the branch that makes them (a
/// loop as `Successors: ^loop` on its last block). Our CFG follows from the
/// code, and every pass that rebuilds it would drop such an edge: where it
/// is the block's one way out and not its fall-through, it becomes an
/// `s_branch` at the end of the block. Other edges the code does not make
/// (two ways out without a conditional branch) stay as written.
Error branchForWrittenEdge(std::optional<InstBuilder> &Builder, Function &F, BasicBlock &From,
                           ArrayRef<BasicBlock *> Targets) {
  const Instruction *Last = From.empty() ? nullptr : &From.instructions().back();
  if (Last && (isBranch(*Last) || isProgramEnd(*Last)))
    return Error::success();
  auto Next = std::next(From.getIterator());
  const BasicBlock *FallThrough = Next == F.blocks().end() ? nullptr : &*Next;
  if (Targets.size() != 1 || Targets.front() == FallThrough || !Targets.front()->hasLabel())
    return Error::success();
  if (!Builder)
    Builder.emplace(*F.parent());
  InstInserter Inserter(*Builder);
  Inserter.setInsertPointAtEnd(From);
  Expected<Instruction &> Branch =
      Inserter.build("s_branch", {BuildOperand::label(Targets.front()->label())});
  return Branch ? Error::success() : Branch.takeError();
}

/// Puts \p Text in front of what \p Attrs' `leading` already holds.
void prependLeading(AttrDict &Attrs, StringRef Text) {
  AttrDict Updated;
  std::string Leading = Text.str();
  if (const AttrValue *Old = Attrs.find("leading"))
    Leading += Old->asString();
  Updated.add("leading", AttrValue::string(Leading));
  for (const auto &[Key, Value] : Attrs.entries())
    if (Key != "leading")
      Updated.add(Key, Value);
  Attrs = std::move(Updated);
}

/// The reference's `"st.asm_directive"("name"[, "symbol"])` is an assembler
/// directive, not an instruction: it becomes text in front of the next
/// statement (the next block's label, or the text after the function).
void lowerDirectives(StirModule &M) {
  std::string Pending;
  auto Flush = [&](AttrDict &Attrs) {
    if (!Pending.empty())
      prependLeading(Attrs, Pending);
    Pending.clear();
  };
  for (size_t FI = 0; FI < M.Funcs.size(); ++FI) {
    StirFunc &F = M.Funcs[FI];
    for (StirBlock &BB : F.Blocks) {
      if (!Pending.empty() && &BB != &F.Blocks.front())
        Flush(BB.Attrs);
      std::vector<StirInst> Kept;
      for (StirInst &I : BB.Insts) {
        if (I.Mnemonic == "asm_directive" && !I.Uses.empty() && I.Defs.empty()) {
          std::string Line = "\t" + I.Uses[0].Text;
          for (size_t K = 1; K < I.Uses.size(); ++K)
            Line += (K == 1 ? " " : ", ") + I.Uses[K].Text;
          Pending += Line + "\n";
          continue;
        }
        Flush(I.Attrs);
        Kept.push_back(std::move(I));
      }
      BB.Insts = std::move(Kept);
    }
    if (!Pending.empty()) {
      auto &Next = FI + 1 < M.Funcs.size() ? M.Funcs[FI + 1].Preamble : M.Trailing;
      Next.insert(Next.begin(), {Pending, F.Blocks.empty() ? 0 : F.Blocks.back().Line});
      Pending.clear();
    }
  }
}

/// The reference writes the waits it inserts without operands, their fields
/// in a derived modifier only (`"st.s_delay_alu"() { mod.delayalu = ... }`):
/// such an instruction gets the operands the modifier spells.
void spellOperandsFromModifiers(StirModule &M) {
  for (StirFunc &F : M.Funcs)
    for (StirBlock &BB : F.Blocks)
      for (StirInst &I : BB.Insts) {
        if (!I.Defs.empty() || !I.Uses.empty() || I.Attrs.find("asm"))
          continue;
        for (const StirModifier &SM : I.Mods) {
          std::optional<ModifierKind> K = Modifier::kindOf(SM.Key);
          if (!K || !Modifier::isDerivedKind(*K))
            continue;
          if (std::optional<std::string> Ops = operandsFromModifier(*K, I.Mnemonic, SM.Attrs)) {
            I.Uses.push_back({*Ops, SM.Line, SM.Column});
            break;
          }
        }
      }
}

/// The reference states a wait's counts in its generic `mod.waitcnt`: each
/// becomes the wait's own derived modifier (`mod.swaitcnt`, ...), so the
/// later steps check and print it as they do that one.
Error resolveGenericWaits(StirModule &M, const StirParser &P, StringRef File) {
  for (StirFunc &F : M.Funcs)
    for (StirBlock &BB : F.Blocks)
      for (StirInst &I : BB.Insts)
        for (StirModifier &SM : I.Mods) {
          if (SM.Key != GenericWaitKey)
            continue;
          Expected<std::pair<ModifierKind, AttrDict>> Own =
              resolveGenericWait(I.Mnemonic, SM.Attrs);
          if (!Own)
            return sourceError(File, SM.Line, SM.Column, P.lineText(SM.Line),
                               toString(Own.takeError()));
          if (any_of(I.Mods, [&](const StirModifier &Other) {
                return Other.Key == Modifier::keyOf(Own->first);
              }))
            return sourceError(File, SM.Line, SM.Column, P.lineText(SM.Line),
                               "mod." + GenericWaitKey + " and mod." +
                                   Modifier::keyOf(Own->first) +
                                   " both state the counts of " + I.Mnemonic);
          SM.WrittenAs = SM.Key;
          SM.Key = Modifier::keyOf(Own->first).str();
          SM.Attrs = std::move(Own->second);
        }
  return Error::success();
}

/// The buffer of an `LDS<t>` operand, the reference's pseudo-register for a
/// dependence on LDS buffer t (`"st.ds_load_b128"(v50, LDS0)`).
std::optional<int64_t> ldsTokenOperand(StringRef Text) {
  int64_t Token;
  if (!Text.consume_front("LDS") || Text.empty() || !isDigit(Text.front()) ||
      Text.getAsInteger(10, Token))
    return std::nullopt;
  return Token;
}

/// The reference writes the LDS buffers an instruction depends on as
/// trailing `LDS<t>` operands (definitions for buffers it writes, uses for
/// those it reads). They are not assembly: they become the instruction's
/// `mod.lds_deps`, merged with one the file states.
void liftLdsTokenOperands(StirModule &M) {
  for (StirFunc &F : M.Funcs)
    for (StirBlock &BB : F.Blocks)
      for (StirInst &I : BB.Insts) {
        if (I.Attrs.find("asm"))
          continue;
        std::vector<AttrValue> Lists[2]; // defs, uses
        std::optional<std::pair<unsigned, unsigned>> At;
        for (auto [Ops, List] : {std::pair{&I.Defs, &Lists[0]}, std::pair{&I.Uses, &Lists[1]}})
          while (!Ops->empty())
            if (std::optional<int64_t> Token = ldsTokenOperand(Ops->back().Text)) {
              List->insert(List->begin(), AttrValue::integer(*Token));
              At = {Ops->back().Line, Ops->back().Column};
              Ops->pop_back();
            } else {
              break;
            }
        if (!At)
          continue;
        auto Stated = llvm::find_if(I.Mods, [](const StirModifier &SM) {
          return SM.Key == "lds_deps";
        });
        if (Stated == I.Mods.end()) {
          I.Mods.push_back({"lds_deps", AttrDict(), At->first, At->second});
          Stated = std::prev(I.Mods.end());
        }
        AttrDict Merged;
        for (auto [Key, List] : {std::pair{"defs", &Lists[0]}, std::pair{"uses", &Lists[1]}}) {
          std::vector<AttrValue> Tokens;
          const AttrValue *Old = Stated->Attrs.find(Key);
          if (Old && Old->kind() == AttrValue::Kind::List)
            Tokens = Old->asList();
          llvm::append_range(Tokens, *List);
          Merged.add(Key, AttrValue::list(std::move(Tokens)));
        }
        Stated->Attrs = std::move(Merged);
      }
}

/// Lays `.stir` modifiers, cycle overrides and block splits over the module
/// the `.s` reader built from the synthesized text.
Error overlay(Module &Mod, const std::vector<const StirFunc *> &SourceOrder,
              const StirParser &P, StringRef File) {
  std::vector<Instruction *> Insts;
  for (Function &F : Mod.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        Insts.push_back(&I);
  size_t Index = 0;
  for (const StirFunc *F : SourceOrder)
    for (const StirBlock &BB : F->Blocks)
      for (const StirInst &SI : BB.Insts) {
        if (Index >= Insts.size())
          return sourceError(File, SI.Line, SI.Column, P.lineText(SI.Line),
                             "statement did not assemble to an instruction");
        Instruction &I = *Insts[Index++];
        for (const StirModifier &SM : SI.Mods) {
          Expected<std::unique_ptr<Modifier>> M = Modifier::fromAttrs(SM.Key, SM.Attrs);
          if (!M)
            return sourceError(File, SM.Line, SM.Column, P.lineText(SM.Line),
                               "mod." + SM.Key + ": " + toString(M.takeError()));
          // A derived modifier must say what MC says of the instruction,
          // or state a field the operands leave at its default.
          if ((*M)->isDerived())
            if (Error E = applyDerivedModifier(Mod, I,
                                               static_cast<const DerivedModifier &>(**M)))
              return sourceError(File, SM.Line, SM.Column, P.lineText(SM.Line),
                                 toString(std::move(E)) +
                                     (SM.WrittenAs.empty()
                                          ? ""
                                          : " (the file's mod." + SM.WrittenAs + ")"));
          I.setModifier(std::move(*M));
        }
        auto [DefaultIssue, DefaultLatency] = defaultCycles(I, Mod.target());
        int64_t Issue = 0, Latency = 0;
        if (const AttrValue *V = SI.Attrs.find("issueCycles"))
          Issue = V->asInteger();
        if (const AttrValue *V = SI.Attrs.find("latencyCycles"))
          Latency = V->asInteger();
        if ((Issue > 0 && unsigned(Issue) != DefaultIssue) ||
            (Latency > 0 && unsigned(Latency) != DefaultLatency))
          I.setCycleOverrides(Issue > 0 ? unsigned(Issue) : 0,
                              Latency > 0 ? unsigned(Latency) : 0);
      }
  if (Index != Insts.size())
    return createStringError(inconvertibleErrorCode(),
                             File + ": error: the assembly holds more instructions "
                                    "than the .stir file lists");

  // Unlabelled blocks (`^bb3`) start where the `.stir` file says.
  Index = 0;
  for (const StirFunc *F : SourceOrder)
    for (const StirBlock &SB : F->Blocks) {
      if (!SB.Insts.empty() && isSyntheticBlockName(SB.Name) && !SB.Attrs.find("asm") &&
          Index > 0) {
        Instruction *First = Insts[Index];
        BasicBlock *BB = First->parent();
        // The directives before First print in its leading text: they
        // start the new block with it.
        if (&BB->instructions().front() != First)
          BB->parent()->splitBlock(*BB, BB->directivesBefore(*First));
      }
      Index += SB.Insts.size();
    }
  for (Function &F : Mod.functions())
    F.renumberBlocks();

  // Function boundaries: the text gives the kernels and `.type @function`
  // symbols; a `st.func` whose first block lies inside another function (a
  // callee split off by CallTargetRecoveryPass) becomes a function again.
  std::vector<Function *> FuncOf(SourceOrder.size(), nullptr);
  Index = 0;
  for (size_t K = 0; K < SourceOrder.size(); ++K) {
    const StirFunc &SF = *SourceOrder[K];
    BasicBlock *Start = firstBlockOf(Mod, SF, Index, Insts);
    size_t FirstInst = Index;
    for (const StirBlock &SB : SF.Blocks)
      Index += SB.Insts.size();
    if (!Start) {
      // No clear start (an empty unlabelled first block): the function that
      // holds its first instruction, left as the text made it.
      if (FirstInst < Index && FirstInst < Insts.size())
        FuncOf[K] = Insts[FirstInst]->parent()->parent();
      continue;
    }
    Function *Owner = Start->parent();
    if (&Owner->blocks().front() != Start) {
      std::string Name = SF.Name;
      if (const AttrValue *N = SF.Attrs.find("name"))
        Name = N->asString().str();
      Owner = &Mod.splitFunction(*Owner, *Start, Name);
      if (const AttrValue *Kernel = SF.Attrs.find("kernel"))
        Owner->setEntry(Kernel->asBool());
    }
    FuncOf[K] = Owner;
  }

  // Explicit CFG edges, within each function; the kind follows from the
  // block's terminator.
  std::optional<InstBuilder> Builder;
  for (size_t K = 0; K < SourceOrder.size(); ++K) {
    Function *F = FuncOf[K];
    if (!F)
      continue;
    const StirFunc &SF = *SourceOrder[K];
    if (!SF.Blocks.empty() && isEmptyLastBlock(SF, SF.Blocks.back())) {
      BasicBlock &Exit = F->appendBlock(SF.Blocks.back().Name);
      Exit.setLabelText(Mod.save(Exit.label().str() + ":\n"));
      F->renumberBlocks();
    }
    StringMap<BasicBlock *> ByName;
    for (BasicBlock &BB : F->blocks())
      ByName.try_emplace(BB.name(), &BB);
    std::vector<std::pair<BasicBlock *, SmallVector<BasicBlock *, 2>>> Edges;
    for (const StirBlock &SB : SourceOrder[K]->Blocks) {
      if (SB.Successors.empty())
        continue;
      BasicBlock *From = ByName.lookup(SB.Name);
      SmallVector<BasicBlock *, 2> Targets;
      for (const std::string &To : SB.Successors) {
        Targets.push_back(ByName.lookup(To));
        if (!From || !Targets.back())
          return sourceError(File, SB.Line, 1, P.lineText(SB.Line),
                             "successor '^" + To + "' is not a block of this function");
      }
      if (Error E = branchForWrittenEdge(Builder, *F, *From, Targets))
        return sourceError(File, SB.Line, 1, P.lineText(SB.Line), toString(std::move(E)));
      Edges.emplace_back(From, std::move(Targets));
    }
    // The edges written are the CFG when there are any (a file written
    // before the CFG was built has none), or when one block needs none.
    if (!Edges.empty() || F->blocks().size() == 1)
      F->setCFGValid();
    for (auto &[From, Targets] : Edges)
      for (BasicBlock *Target : Targets)
        From->addSuccessor(Target, edgeKind(*F, *From, *Target));
  }
  return Error::success();
}

/// A text without a kernel symbol names its first function after its first
/// label (`entry`); the `.stir` file names it: the reference's flat form as
/// `st.func @name()` and no module, which then takes the function's name;
/// the printed form as `st.func @entry()` without a `name`, which the writer
/// omits where the function has the module's name.
void nameEntryFunction(Module &M, const StirModule &Parsed) {
  Function *Entry = M.entry();
  if (Parsed.Funcs.empty() || !Entry || Entry->blocks().empty() ||
      Entry->name() != Entry->blocks().front().label())
    return;
  const StirFunc &First = Parsed.Funcs.front();
  if (First.Attrs.find("name") || First.Attrs.find("position"))
    return;
  // A kernel's name is its symbol, whatever the module is called.
  std::string Descriptor = (".amdhsa_kernel " + Entry->name()).str();
  auto NamesKernel = [&](StringRef Text) {
    for (size_t At = Text.find(Descriptor); At != StringRef::npos;
         At = Text.find(Descriptor, At + 1)) {
      StringRef After = Text.drop_front(At + Descriptor.size());
      if (After.empty() || isSpace(After.front()))
        return true;
    }
    return false;
  };
  if (any_of(M.items(), [&](const ModuleItem &It) {
        return It.K == ModuleItem::Kind::Text && NamesKernel(It.Contents);
      }))
    return;
  if (Parsed.Name.empty() && First.Name != "entry")
    M.setName(First.Name);
  else if (Parsed.Name.empty() || First.Name != "entry")
    return;
  Entry->setName(M.name().str());
}

} // namespace

Expected<std::unique_ptr<Module>> readStir(std::unique_ptr<MemoryBuffer> Buffer,
                                           const ReaderOptions &Opts) {
  std::string File = Buffer->getBufferIdentifier().str();
  StirParser P(Buffer->getBuffer(), File);
  Expected<StirModule> Parsed = P.parse();
  if (!Parsed)
    return Parsed.takeError();
  scopeBlockNames(*Parsed);
  if (Error E = resolveGenericWaits(*Parsed, P, File))
    return std::move(E);
  liftLdsTokenOperands(*Parsed);
  spellOperandsFromModifiers(*Parsed);
  lowerDirectives(*Parsed);
  Expected<std::unique_ptr<Module>> M = assembleStir(*Parsed, P, File, Opts);
  if (!M)
    return M.takeError();
  if (!Parsed->Name.empty())
    (*M)->setName(Parsed->Name);
  if (Error E = overlay(**M, sourceOrder(*Parsed), P, File))
    return std::move(E);
  nameEntryFunction(**M, *Parsed);
  return M;
}

} // namespace stinkytofu
