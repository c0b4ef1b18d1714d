//===- BranchRange.cpp - Short branches stay in range ---------------------===//
#include "stinkytofu/analysis/BranchRange.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/StatementText.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Casting.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// A range no code section reaches: what an unknown byte count adds.
constexpr uint64_t Unbounded = uint64_t(1) << 40;

/// The simm16 dword offset of a short branch, in bytes.
constexpr int64_t MaxForward = int64_t(INT16_MAX) * 4;
constexpr int64_t MaxBackward = int64_t(INT16_MIN) * 4;

/// The items of a data directive's operand list.
unsigned countItems(StringRef Operands) {
  return Operands.trim().empty() ? 0 : splitTopLevel(Operands, ',').size();
}

/// The characters of the string literals in \p Operands (escapes count
/// as one).
uint64_t stringBytes(StringRef Operands, bool NulTerminated) {
  uint64_t Bytes = 0;
  bool InString = false;
  for (size_t K = 0; K < Operands.size(); ++K) {
    char C = Operands[K];
    if (!InString) {
      InString = C == '"';
      continue;
    }
    if (C == '"') {
      InString = false;
      Bytes += NulTerminated;
      continue;
    }
    if (C == '\\')
      ++K;
    ++Bytes;
  }
  return Bytes;
}

std::optional<uint64_t> number(StringRef S) {
  uint64_t V;
  if (S.trim().getAsInteger(0, V))
    return std::nullopt;
  return V;
}

/// The bytes one directive statement emits; at a known \p Address,
/// alignment padding is exact.
ByteRange statementBytes(StringRef Directive, StringRef Operands,
                         std::optional<uint64_t> Address) {
  SmallVector<StringRef, 8> Args = splitTopLevel(Operands, ',');
  auto Arg = [&](unsigned N) -> std::optional<uint64_t> {
    return N < Args.size() ? number(Args[N]) : std::nullopt;
  };
  auto Exact = [](uint64_t N) { return ByteRange{N, N}; };
  auto Padding = [&](std::optional<uint64_t> Largest) -> ByteRange {
    if (!Largest)
      return {0, Unbounded};
    std::optional<uint64_t> Max = Arg(2);
    if (Address) {
      // Largest + 1 is the alignment; more than the maximum skip pads nothing.
      uint64_t Pad = (*Largest + 1 - *Address % (*Largest + 1)) % (*Largest + 1);
      return Exact(Max && Pad > *Max ? 0 : Pad);
    }
    if (Max)
      Largest = std::min(*Largest, *Max);
    return {0, *Largest};
  };
  unsigned ItemSize = StringSwitch<unsigned>(Directive)
                          .Case(".byte", 1)
                          .Cases({".short", ".2byte", ".hword", ".value", ".word"}, 2)
                          .Cases({".long", ".int", ".4byte"}, 4)
                          .Cases({".quad", ".8byte"}, 8)
                          .Default(0);
  if (ItemSize)
    return Exact(uint64_t(ItemSize) * countItems(Operands));
  if (Directive == ".ascii")
    return Exact(stringBytes(Operands, false));
  if (Directive == ".asciz" || Directive == ".string")
    return Exact(stringBytes(Operands, true));
  if (Directive == ".p2align") {
    std::optional<uint64_t> Log = Arg(0);
    return Padding(Log && *Log < 32 ? std::optional<uint64_t>((uint64_t(1) << *Log) - 1)
                                    : std::nullopt);
  }
  if (Directive == ".balign" || Directive == ".align") {
    std::optional<uint64_t> Align = Arg(0);
    return Padding(Align && *Align ? std::optional<uint64_t>(*Align - 1) : std::nullopt);
  }
  if (Directive == ".fill") {
    std::optional<uint64_t> Repeat = Arg(0), Size = Args.size() > 1 ? Arg(1) : 1;
    return Repeat && Size ? Exact(*Repeat * *Size) : ByteRange{0, Unbounded};
  }
  if (Directive == ".space" || Directive == ".skip" || Directive == ".zero") {
    std::optional<uint64_t> N = Arg(0);
    return N ? Exact(*N) : ByteRange{0, Unbounded};
  }
  return {};
}

/// The symbol a PC-relative branch MC instruction names, or "".
StringRef branchSymbol(const MCInst &MI, const MCInstrInfo &MII) {
  if (!MII.get(MI.getOpcode()).isBranch())
    return "";
  for (const MCOperand &Op : MI)
    if (Op.isExpr())
      if (const auto *Ref = dyn_cast<MCSymbolRefExpr>(Op.getExpr()))
        return Ref->getSymbol().getName();
  return "";
}

/// The label of a short branch, whose range a layout checks; else "".
std::string shortBranchTarget(const Instruction &I) {
  if (I.kind() != InstKind::Machine || !I.facts().has(IF_Branch) ||
      I.facts().has(IF_ComputedTarget) || I.facts().has(IF_IndirectBranch))
    return "";
  return getBranchTarget(I);
}

/// Whether \p F has a branch a layout checks. Only then do addresses
/// matter, and measuring them costs an encoding per instruction.
bool hasCheckedBranch(const Function &F) {
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (I.kind() == InstKind::MacroCall)
        return true; // its expansion may branch
      std::string Target = shortBranchTarget(I);
      if (!Target.empty() && F.findBlock(Target))
        return true;
    }
  return false;
}

} // namespace

ByteRange directiveBytes(StringRef Text, std::optional<uint64_t> Address) {
  ByteRange Total;
  bool InBlockComment = false;
  unsigned MacroDepth = 0;
  // Data since the last `.endr`: written inside a repeated body, its count
  // is unknown here.
  bool DataSinceRepeat = false;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    if (InBlockComment) {
      size_t Close = Line.find("*/");
      if (Close == StringRef::npos)
        continue;
      Line = Line.drop_front(Close + 2);
      InBlockComment = false;
    }
    // Block comments before the statement, then everything from the first
    // comment marker on.
    Line = Line.ltrim();
    if (!Line.starts_with(".") && !Line.contains("/*"))
      continue; // most lines are comments
    while (Line.starts_with("/*") && Line.find("*/", 2) != StringRef::npos)
      Line = Line.drop_front(Line.find("*/", 2) + 2).ltrim();
    size_t Comment = findComment(Line);
    if (Comment != StringRef::npos && Line.substr(Comment).starts_with("/*") &&
        Line.find("*/", Comment + 2) == StringRef::npos)
      InBlockComment = true;
    StringRef Statement = Line.take_front(Comment).trim();
    if (!Statement.starts_with("."))
      continue;
    size_t Gap = Statement.find_first_of(" \t");
    StringRef Directive = Statement.take_front(Gap),
              Operands = Statement.substr(std::min(Gap, Statement.size()));
    std::string Lower = Directive.lower();
    if (Lower == ".macro") {
      ++MacroDepth;
      continue;
    }
    if ((Lower == ".endm" || Lower == ".endmacro") && MacroDepth) {
      --MacroDepth;
      continue;
    }
    if (MacroDepth)
      continue; // a definition emits nothing
    if (Lower == ".endr") {
      if (DataSinceRepeat)
        Total.Hi += Unbounded;
      DataSinceRepeat = false;
      continue;
    }
    ByteRange B = statementBytes(Lower, Operands, Address);
    DataSinceRepeat |= B.Hi != 0;
    Total += B;
    if (Address)
      Address = B.Lo == B.Hi ? std::optional<uint64_t>(*Address + B.Lo) : std::nullopt;
  }
  return Total;
}

BranchLayout::BranchLayout(Function &F, InstructionSizes &Sizes) {
  const MCInstrInfo &MII = F.parent()->target().instrInfo();
  DenseMap<const BasicBlock *, std::pair<unsigned, ByteRange>> LabelOf;
  ByteRange Addr;
  auto AddSlot = [&](const BasicBlock *BB, const Instruction *I, ByteRange At) {
    SlotOf[{BB, I}] = SlotAt.size();
    SlotAt.push_back(At);
  };
  // Without a branch to check nothing is out of range: no slot is asked for.
  if (!hasCheckedBranch(F))
    return;
  for (BasicBlock &BB : F.blocks()) {
    Addr += directiveBytes(BB.leadingText());
    LabelOf[&BB] = {unsigned(SlotAt.size()), Addr};
    // Code inserted before an instruction goes in front of the directives
    // before it (MarkerEmitter), so the slot is where they start.
    std::optional<ByteRange> DirectivesAt;
    for (BlockItem &Item : BB.items()) {
      if (const auto *D = dyn_cast<Directive>(&Item)) {
        DirectivesAt = DirectivesAt.value_or(Addr);
        Addr += directiveBytes(D->text());
        continue;
      }
      Instruction &I = cast<Instruction>(Item);
      unsigned Slot = SlotAt.size();
      AddSlot(&BB, &I, DirectivesAt.value_or(Addr));
      DirectivesAt.reset();
      ByteRange Size;
      if (std::string Target = shortBranchTarget(I); !Target.empty()) {
        Size = Sizes.of(I);
        Branches.push_back({&I, Target, Slot, Addr, unsigned(Size.Lo), 0, {}});
      } else if (I.kind() == InstKind::MacroCall) {
        // Its size is its MC instructions' (InstructionSizes::of), each
        // measured once here.
        ByteRange At = Addr;
        for (const MCInst &MI : I.mcInsts()) {
          unsigned Bytes = Sizes.bytesOf(MI);
          if (StringRef Sym = branchSymbol(MI, MII); !Sym.empty())
            Branches.push_back({&I, Sym.str(), Slot, At, Bytes, 0, {}});
          At += {Bytes, Bytes};
          Size += {Bytes, Bytes};
        }
      } else {
        Size = Sizes.of(I);
      }
      Addr += Size;
    }
    AddSlot(&BB, nullptr, Addr);
  }
  // Keep the branches whose label is a block of this function.
  std::erase_if(Branches, [&](Branch &B) {
    const BasicBlock *Target = F.findBlock(B.Target);
    if (!Target)
      return true;
    std::tie(B.LabelSlot, B.Label) = LabelOf.lookup(Target);
    return false;
  });
}

std::optional<unsigned> BranchLayout::slot(const InsertPoint &P) const {
  auto It = SlotOf.find({P.block(), P.Before});
  if (It == SlotOf.end())
    return std::nullopt;
  return It->second;
}

std::vector<BranchLayout::OutOfRange> BranchLayout::check(ArrayRef<uint64_t> Inserted) const {
  return scan(Inserted, /*OnlyInsertions=*/true);
}

std::vector<BranchLayout::OutOfRange> BranchLayout::outOfRange() const {
  return scan({}, /*OnlyInsertions=*/false);
}

std::vector<BranchLayout::OutOfRange> BranchLayout::scan(ArrayRef<uint64_t> Inserted,
                                                         bool OnlyInsertions) const {
  // Before[K]: bytes inserted at the slots before slot K.
  std::vector<uint64_t> Before(SlotAt.size() + 1, 0);
  for (size_t K = 0; K < SlotAt.size(); ++K)
    Before[K + 1] = Before[K] + (K < Inserted.size() ? Inserted[K] : 0);
  std::vector<OutOfRange> Out;
  for (const Branch &B : Branches) {
    // The code inserted at the branch's own slot lies before it; the code
    // at the label's first slot lies after the label.
    if (B.LabelSlot > B.Slot) {
      uint64_t Between = Before[B.LabelSlot] - Before[B.Slot + 1];
      if (!Between && OnlyInsertions)
        continue;
      int64_t Far = int64_t(B.Label.Hi) - int64_t(B.Start.Lo) - B.Size + int64_t(Between);
      if (Far > MaxForward)
        Out.push_back(
            {B.I, B.Target, Far / 4, uint64_t(Far - MaxForward), B.Slot + 1, B.LabelSlot - 1});
    } else {
      uint64_t Between = Before[B.Slot + 1] - Before[B.LabelSlot];
      if (!Between && OnlyInsertions)
        continue;
      int64_t Far = int64_t(B.Label.Lo) - int64_t(B.Start.Hi) - B.Size - int64_t(Between);
      if (Far < MaxBackward)
        Out.push_back({B.I, B.Target, Far / 4, uint64_t(MaxBackward - Far), B.LabelSlot, B.Slot});
    }
  }
  return Out;
}

} // namespace stinkytofu
