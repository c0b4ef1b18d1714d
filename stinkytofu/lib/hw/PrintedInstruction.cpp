//===- PrintedInstruction.cpp - MC's printed text cut into operands -------===//
#include "stinkytofu/hw/PrintedInstruction.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Pieces of \p S between separators outside `[...]` and `(...)`.
void splitOutside(StringRef S, char Sep, SmallVectorImpl<StringRef> &Out) {
  int Depth = 0;
  size_t Start = 0;
  for (size_t K = 0; K < S.size(); ++K) {
    char C = S[K];
    if (C == '[' || C == '(')
      ++Depth;
    else if (C == ']' || C == ')')
      --Depth;
    else if (C == Sep && Depth == 0) {
      if (K > Start)
        Out.push_back(S.slice(Start, K));
      Start = K + 1;
    }
  }
  if (Start < S.size())
    Out.push_back(S.drop_front(Start));
}

} // namespace

PrintedInstruction::PrintedInstruction(std::string Instruction)
    : Printed(std::move(Instruction)) {
  StringRef Rest = StringRef(Printed).trim().split(' ').second;
  SmallVector<StringRef, 8> Pieces;
  splitOutside(Rest, ',', Pieces);
  for (StringRef P : Pieces)
    Operands.push_back(P.trim());
  if (Operands.empty())
    return;
  SmallVector<StringRef, 8> Words;
  splitOutside(Operands.back(), ' ', Words);
  Operands.back() = Words.front();
  for (StringRef W : ArrayRef(Words).drop_front())
    Modifiers.push_back(W);
}

bool PrintedInstruction::has(StringRef Modifier) const {
  return is_contained(Modifiers, Modifier);
}

std::optional<int64_t> PrintedInstruction::field(StringRef Name) const {
  for (StringRef M : Modifiers) {
    int64_t V;
    if (M.consume_front(Name) && M.consume_front(":") && !M.getAsInteger(0, V))
      return V;
  }
  return std::nullopt;
}

} // namespace stinkytofu
