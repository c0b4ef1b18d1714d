//===- SourceMap.cpp - Trace addresses to the user's `.s` lines -----------===//
#include "asm-instrument/hotspots/SourceMap.h"
#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/stir/StirReader.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu::hotspots {

SourceMap::SourceMap(SourceMap &&) = default;
SourceMap::~SourceMap() = default;

Expected<SourceMap> SourceMap::create(StringRef Path, StringRef Arch) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError(Buffer.getError(), Path + ": " + Buffer.getError().message());
  SourceMap S;
  S.Path = Path.str();
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines)
    S.Lines.push_back(L.rtrim("\r").str());
  ReaderOptions Opts;
  Opts.Arch = Arch.str();
  Expected<std::unique_ptr<Module>> M = Path.ends_with(".stir")
                                            ? readStir(std::move(*Buffer), Opts)
                                            : readAsm(std::move(*Buffer), Opts);
  if (!M)
    return M.takeError();
  S.M = std::move(*M);
  S.Sizes = std::make_unique<InstructionSizes>(*S.M);
  for (Function &F : S.M->functions()) {
    buildCFG(F);
    // Placed at an address aligned for every directive until placed.
    S.layOut(F, 0);
  }
  return std::move(S);
}

namespace {

/// What a directive line does to the offset: nothing, align it, or add
/// bytes; nullopt when it emits bytes of a size not worked out here.
std::optional<uint64_t> afterDirective(StringRef Line, uint64_t Offset) {
  Line = Line.split("//").first.split(';').first.trim();
  if (Line.empty() || !Line.starts_with("."))
    return Line.empty() ? std::optional<uint64_t>(Offset) : std::nullopt;
  size_t NameEnd = Line.find_first_of(" \t");
  StringRef Name = Line.take_front(NameEnd);
  StringRef Args = Line.drop_front(Name.size()).trim();
  uint64_t N = 0;
  StringRef First = Args.split(',').first.trim();
  if (Name == ".p2align" || Name == ".p2alignl" || Name == ".p2alignw") {
    if (First.getAsInteger(0, N) || N > 16)
      return std::nullopt;
    return alignTo(Offset, uint64_t(1) << N);
  }
  if (Name == ".balign" || Name == ".align" || Name == ".balignl" || Name == ".balignw") {
    if (First.getAsInteger(0, N) || !N || !isPowerOf2_64(N))
      return std::nullopt;
    return alignTo(Offset, N);
  }
  static const std::pair<StringRef, unsigned> Data[] = {
      {".byte", 1}, {".short", 2}, {".hword", 2}, {".long", 4}, {".int", 4}, {".quad", 8}};
  for (auto [D, Size] : Data)
    if (Name == D)
      return Offset + Size * (Args.count(',') + 1);
  static const StringRef Sized[] = {".fill", ".skip", ".space", ".zero", ".incbin", ".ascii",
                                    ".asciz", ".string", ".org"};
  if (is_contained(Sized, Name))
    return std::nullopt;
  return Offset; // .set, .loc, .cfi_*, ...: no bytes.
}

std::optional<uint64_t> afterText(StringRef Text, std::optional<uint64_t> Offset) {
  SmallVector<StringRef, 4> Lines;
  Text.split(Lines, '\n');
  for (StringRef L : Lines)
    if (Offset)
      Offset = afterDirective(L, *Offset);
  return Offset;
}

} // namespace

void SourceMap::layOut(Function &F, uint64_t Base) {
  // Alignment is of the address, not of the offset: a function need not
  // start aligned as much as the loops it aligns.
  std::optional<uint64_t> Address = Base;
  std::vector<Padding> &Pads = Paddings[&F];
  Pads.clear();
  // Text that moves the address is padding before the next instruction's
  // block (data directives are rare inside code).
  auto Skip = [&](StringRef Text, const BasicBlock &Next) {
    uint64_t Before = *Address;
    Address = afterText(Text, Address);
    if (Address && *Address > Before)
      Pads.push_back({Before - Base, *Address - Base, &Next});
  };
  for (BasicBlock &BB : F.blocks()) {
    if (&BB != &*F.blocks().begin() && Address)
      Skip(BB.leadingText(), BB);
    for (BlockItem &Item : BB.items()) {
      if (!Address)
        break;
      if (auto *D = dyn_cast<Directive>(&Item)) {
        Skip(D->text(), BB);
        continue;
      }
      auto &I = cast<Instruction>(Item);
      ByteRange Size = Sizes->of(I);
      if (Size.Lo != Size.Hi) {
        Address.reset();
        break;
      }
      Offsets[&I] = *Address - Base;
      *Address += Size.Lo;
    }
  }
}

std::optional<uint64_t> SourceMap::offset(const Instruction &I) const {
  auto It = Offsets.find(&I);
  if (It == Offsets.end())
    return std::nullopt;
  return It->second;
}

const BasicBlock *SourceMap::paddingBefore(uint32_t CodeObject, uint64_t Address) const {
  auto It = PlacedPadding.upper_bound({CodeObject, Address});
  if (It == PlacedPadding.begin())
    return nullptr;
  --It;
  return It->first.first == CodeObject && Address < It->second.first ? It->second.second
                                                                      : nullptr;
}

std::string SourceMap::normalizedMnemonic(StringRef Text) {
  StringRef M = Text.trim().split(' ').first.split('\t').first;
  std::string S = M.lower();
  for (StringRef Suffix : {"_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp"})
    if (StringRef(S).ends_with(Suffix)) {
      S.resize(S.size() - Suffix.size());
      break;
    }
  return S;
}

void SourceMap::place(const trace::InstructionProfile &P) {
  std::map<std::pair<uint32_t, uint64_t>, std::string> Mnemonics;
  for (const trace::ProfiledInstruction &I : P.Instructions)
    Mnemonics[{I.CodeObject, I.Address}] = normalizedMnemonic(I.Isa);

  for (Function &F : M->functions()) {
    // The function's instructions with known offsets, in order.
    std::vector<std::pair<uint64_t, std::string>> Known;
    std::vector<std::pair<uint64_t, const Instruction *>> Insts;
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        if (std::optional<uint64_t> Off = offset(I)) {
          Known.push_back({*Off, normalizedMnemonic(I.mnemonic())});
          Insts.push_back({*Off, &I});
        }
    if (Known.empty())
      continue;
    std::optional<Placement> Best;
    for (const trace::CodeLabel &L : P.Labels)
      if (L.Name == F.name())
        Best = Placement{L.CodeObject, L.Address, true};
    if (!Best) {
      // Try each row with the first instruction's mnemonic as its start
      // (not one another function took: similar functions begin alike);
      // score by the instructions that agree.
      // Only the offsets before the first alignment inside the function are
      // known before its address is.
      uint64_t Exact = UINT64_MAX;
      for (const Padding &Pad : Paddings.lookup(&F))
        Exact = std::min(Exact, Pad.Start);
      size_t Probe = 0;
      while (Probe < Known.size() && Probe < 4096 && Known[Probe].first < Exact)
        ++Probe;
      Probe = std::max<size_t>(Probe, 1);
      size_t BestScore = 0;
      for (auto &[Key, Mn] : Mnemonics) {
        if (Mn != Known.front().second || Key.second < Known.front().first ||
            ByAddress.count({Key.first, Key.second - Known.front().first}))
          continue;
        uint64_t Base = Key.second - Known.front().first;
        size_t Score = 0;
        for (size_t I = 0; I < Probe; ++I) {
          auto It = Mnemonics.find({Key.first, Base + Known[I].first});
          Score += It != Mnemonics.end() && It->second == Known[I].second;
        }
        if (Score > BestScore) {
          BestScore = Score;
          Best = Placement{Key.first, Base, false};
        }
      }
      // Fewer than half agreeing is a coincidence, not this function.
      if (BestScore * 2 <= Probe)
        Best.reset();
    }
    if (!Best)
      continue;
    Placements[&F] = *Best;
    layOut(F, Best->Base);
    Insts.clear();
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        if (std::optional<uint64_t> Off = offset(I))
          Insts.push_back({*Off, &I});
    for (auto &[Off, I] : Insts)
      ByAddress[{Best->CodeObject, Best->Base + Off}] = I;
    for (const Padding &Pad : Paddings.lookup(&F))
      PlacedPadding[{Best->CodeObject, Best->Base + Pad.Start}] = {Best->Base + Pad.End,
                                                                   Pad.Before};
  }
}

std::optional<Placement> SourceMap::placement(const Function &F) const {
  auto It = Placements.find(&F);
  if (It == Placements.end())
    return std::nullopt;
  return It->second;
}

const Instruction *SourceMap::at(uint32_t CodeObject, uint64_t Address) const {
  auto It = ByAddress.find({CodeObject, Address});
  return It == ByAddress.end() ? nullptr : It->second;
}

} // namespace stinkytofu::hotspots
