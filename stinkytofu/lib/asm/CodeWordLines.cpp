//===- CodeWordLines.cpp - `.long` lines of code read as instructions -----===//
#include "CodeWordLines.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace stinkytofu {

std::vector<EncodedLine> decodeWordLines(ArrayRef<WordLine> Run,
                                         const CodeWordDecoder &Decoder) {
  std::vector<uint32_t> Words;
  std::vector<unsigned> LineFirstWord;
  for (const WordLine &L : Run) {
    LineFirstWord.push_back(unsigned(Words.size()));
    Words.insert(Words.end(), L.Words.begin(), L.Words.end());
  }
  std::vector<DecodedWords> Decoded = Decoder.decode(Words);
  DenseMap<int64_t, unsigned> LineAtWord; // lines that start with an instruction
  std::vector<std::pair<size_t, int64_t>> Branches; // (in Out, target word)
  std::vector<EncodedLine> Out;
  size_t D = 0;
  for (unsigned Index = 0; Index < Run.size(); ++Index) {
    unsigned First = LineFirstWord[Index];
    unsigned End = First + unsigned(Run[Index].Words.size());
    while (D < Decoded.size() && Decoded[D].FirstWord < First)
      ++D;
    if (D == Decoded.size())
      break;
    if (Decoded[D].FirstWord != First)
      continue; // the line continues an instruction
    size_t K = D;
    while (K < Decoded.size() && Decoded[K].FirstWord + Decoded[K].NumWords <= End)
      ++K;
    if (K == D || Decoded[K - 1].FirstWord + Decoded[K - 1].NumWords != End)
      continue; // an instruction goes on past the line
    LineAtWord[First] = Index;
    EncodedLine E;
    E.Index = Index;
    E.FirstWord = First;
    for (size_t J = D; J < K; ++J) {
      E.Insts.push_back(Decoded[J].Inst);
      if (Decoded[J].TargetWord)
        Branches.emplace_back(Out.size(), *Decoded[J].TargetWord);
    }
    Out.push_back(std::move(E));
  }
  for (auto [At, Word] : Branches)
    if (auto It = LineAtWord.find(Word); It != LineAtWord.end())
      Out[At].TargetIndex = It->second;
    else if (!Out[At].TargetIndex)
      Out[At].OffRunTargetWord = Word;
  return Out;
}

Instruction encodedInstruction(const EncodedLine &Line, StringRef Text, const TargetInfo &TI,
                               const AssemblerState &AS) {
  std::string First = TI.printMC(Line.Insts.front());
  auto [Mnemonic, Body] = StringRef(First).split(' ');
  bool One = Line.Insts.size() == 1;
  Instruction I(One ? InstKind::Machine : InstKind::MacroCall, Mnemonic.trim().str(),
                One ? AS.parseOperands(Body.trim()) : std::vector<Operand>());
  I.setSourceText(Text);
  I.setMC(SmallVector<MCInst, 1>(Line.Insts.begin(), Line.Insts.end()), TI);
  return I;
}

} // namespace stinkytofu
