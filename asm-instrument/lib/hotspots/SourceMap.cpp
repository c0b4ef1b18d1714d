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
  for (Function &F : S.M->functions())
    buildCFG(F);
  S.computeOffsets();
  return std::move(S);
}

namespace {

/// What a directive line does to the offset: nothing, align it, or add
/// bytes; nullopt when it emits bytes of a size not worked out here.
std::optional<uint64_t> afterDirective(StringRef Line, uint64_t Offset) {
  Line = Line.split("//").first.split(';').first.trim();
  if (Line.empty() || !Line.starts_with("."))
    return Line.empty() ? std::optional<uint64_t>(Offset) : std::nullopt;
  auto [Name, Args] = Line.split(' ');
  Name = Name.split('\t').first;
  Args = Args.trim();
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

void SourceMap::computeOffsets() {
  InstructionSizes Sizes(*M);
  for (Function &F : M->functions()) {
    std::optional<uint64_t> Off = 0;
    for (BasicBlock &BB : F.blocks()) {
      if (&BB != &*F.blocks().begin())
        Off = afterText(BB.leadingText(), Off);
      for (BlockItem &Item : BB.items()) {
        if (!Off)
          break;
        if (auto *D = dyn_cast<Directive>(&Item)) {
          Off = afterText(D->text(), Off);
          continue;
        }
        auto &I = cast<Instruction>(Item);
        ByteRange Size = Sizes.of(I);
        if (Size.Lo != Size.Hi) {
          Off.reset();
          break;
        }
        Offsets[&I] = *Off;
        *Off += Size.Lo;
      }
    }
  }
}

std::optional<uint64_t> SourceMap::offset(const Instruction &I) const {
  auto It = Offsets.find(&I);
  if (It == Offsets.end())
    return std::nullopt;
  return It->second;
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
      // Try each row with the first instruction's mnemonic as its start;
      // score by the first instructions (enough to tell places apart).
      const size_t Probe = std::min<size_t>(Known.size(), 64);
      size_t BestScore = 0;
      for (auto &[Key, Mn] : Mnemonics) {
        if (Mn != Known.front().second || Key.second < Known.front().first)
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
    for (auto &[Off, I] : Insts)
      ByAddress[{Best->CodeObject, Best->Base + Off}] = I;
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
