//===- CodeLayout.cpp - Where instructions and labels sit in the code -----===//
#include "stinkytofu/analysis/CodeLayout.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

bool isTrivia(StringRef Text) {
  size_t I = 0, N = Text.size();
  while (I < N) {
    char C = Text[I];
    if (isSpace(C)) {
      ++I;
    } else if (C == ';' || Text.substr(I).starts_with("//")) {
      size_t End = Text.find('\n', I);
      I = End == StringRef::npos ? N : End + 1;
    } else if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      if (End == StringRef::npos)
        return false;
      I = End + 2;
    } else {
      return false;
    }
  }
  return true;
}

/// Whether the label line of \p BB is just `name:` plus comments.
static bool labelLineIsTrivia(const BasicBlock &BB) {
  StringRef Text = BB.labelText().ltrim(" \t");
  if (Text.empty())
    return true; // synthesized: printed as `name:\n`
  if (!Text.consume_front(BB.label()) || !Text.consume_front(":"))
    return false;
  return isTrivia(Text);
}

CodeLayout::~CodeLayout() = default;

CodeLayout::CodeLayout(const Module &M) : Target(M.target()) {
  size_t Count = 0;
  for (const Function &F : M.functions())
    Count += F.instructionCount();
  // Sized once: growing rehashes every position already numbered.
  Positions.reserve(Count);
  unsigned N = 0;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        Positions[&I] = N++;
}

std::optional<unsigned> CodeLayout::position(const Instruction &I) const {
  auto It = Positions.find(&I);
  if (It == Positions.end())
    return std::nullopt;
  return It->second;
}

std::optional<unsigned> CodeLayout::labelPosition(const BasicBlock &BB) const {
  const Function *F = BB.parent();
  if (!F)
    return std::nullopt;
  for (auto It = BB.getIterator(); It != F->blocks().end(); ++It)
    if (!It->empty())
      return position(It->instructions().front());
  // Nothing follows in the function: one past its last instruction.
  for (auto R = F->blocks().rbegin(); R != F->blocks().rend(); ++R)
    if (!R->empty()) {
      std::optional<unsigned> Last = position(R->instructions().back());
      return Last ? std::optional<unsigned>(*Last + 1) : std::nullopt;
    }
  return std::nullopt;
}

namespace {
/// Walks forward from the end of an instruction to the next instruction,
/// calling \p OnLabel for each label passed; stops (returning null) at the
/// first text that may emit bytes, or at the end of the function (setting
/// \p AtEnd).
template <typename Fn>
const Instruction *walkForward(const Instruction &I, Fn OnLabel, bool *AtEnd = nullptr) {
  const BasicBlock *BB = I.parent();
  if (!BB || !BB->parent())
    return nullptr;
  const Function &F = *BB->parent();
  Function::const_iterator Block = BB->getIterator();
  BasicBlock::const_item_iterator It = std::next(BasicBlock::const_item_iterator(I));
  while (true) {
    for (; !It.isEnd(); ++It) {
      if (!isTrivia(It->leadingText()))
        return nullptr;
      if (const auto *Next = dyn_cast<Instruction>(&*It))
        return Next;
      if (!isTrivia(cast<Directive>(*It).text()))
        return nullptr;
    }
    if (++Block == F.blocks().end()) {
      if (AtEnd)
        *AtEnd = true;
      return nullptr;
    }
    if (!isTrivia(Block->leadingText()))
      return nullptr;
    if (Block->hasLabel()) {
      if (!labelLineIsTrivia(*Block))
        return nullptr;
      OnLabel(Block->label());
    }
    It = Block->items().begin();
  }
}
} // namespace

const Instruction *CodeLayout::adjacentNext(const Instruction &I) {
  return walkForward(I, [](StringRef) {});
}

/// The labels that open the module text right after function \p F (clang
/// ends a function whose last instruction is a long branch with its
/// `.Lpost_addpcN:` there, then `.Lfunc_endN:`): each line `name:` or
/// trivia, up to the first other line.
static void labelsAfterFunction(const Function &F, SmallVectorImpl<StringRef> &Labels) {
  const Module *M = F.parent();
  if (!M)
    return;
  const std::vector<ModuleItem> &Items = M->items();
  auto It = llvm::find_if(Items, [&](const ModuleItem &Item) { return Item.Func == &F; });
  if (It == Items.end() || ++It == Items.end() || It->K != ModuleItem::Kind::Text)
    return;
  StringRef Rest = It->Contents;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (isTrivia(Line))
      continue;
    StringRef Text = Line.ltrim(" \t");
    size_t Colon = Text.find(':');
    StringRef Name = Text.take_front(Colon);
    if (Colon == StringRef::npos || Name.empty() ||
        !llvm::all_of(Name, [](char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$'; }) ||
        !isTrivia(Text.drop_front(Colon + 1)))
      return;
    Labels.push_back(Name);
  }
}

SmallVector<StringRef, 2> CodeLayout::labelsAfter(const Instruction &I) {
  SmallVector<StringRef, 2> Labels;
  bool AtEnd = false;
  walkForward(I, [&](StringRef L) { Labels.push_back(L); }, &AtEnd);
  if (AtEnd)
    labelsAfterFunction(*I.parent()->parent(), Labels);
  return Labels;
}

std::optional<InstructionEncoder::Encoding> CodeLayout::encode(const Instruction &I) const {
  if (I.mcInsts().empty())
    return std::nullopt;
  if (!Encoder)
    Encoder = std::make_unique<InstructionEncoder>(Target);
  return Encoder->encode(I.mcInsts());
}

std::optional<unsigned> CodeLayout::literalDistance(const Instruction &From,
                                                    const Instruction &To) const {
  // LLVM puts at most a few waits (s_wait_alu, s_sext_i32_i16) between the
  // PC read and its adds; a longer walk would not be an address idiom.
  constexpr unsigned MaxSteps = 8;
  unsigned Bytes = 0;
  const Instruction *I = adjacentNext(From);
  for (unsigned Step = 0; I && I != &To && Step < MaxSteps; ++Step) {
    std::optional<InstructionEncoder::Encoding> E = encode(*I);
    if (!E)
      return std::nullopt;
    Bytes += E->Size;
    I = adjacentNext(*I);
  }
  if (I != &To)
    return std::nullopt;
  std::optional<InstructionEncoder::Encoding> E = encode(To);
  if (!E || E->FixupOffsets.size() != 1)
    return std::nullopt;
  return Bytes + E->FixupOffsets.front();
}

} // namespace stinkytofu
