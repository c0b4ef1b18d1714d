//===- CommentStripping.cpp - Assembly without its comments ---------------===//
#include "CommentStripping.h"

using namespace llvm;

namespace stinkytofu {

std::string stripAsmComments(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  bool InBlockComment = false;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool HasNewline = Line.size() < Text.size();
    Text = Rest;
    size_t Cut = StringRef::npos;
    bool InString = false;
    for (size_t I = 0; I < Line.size() && Cut == StringRef::npos; ++I) {
      char C = Line[I];
      if (InBlockComment) {
        if (Line.substr(I).starts_with("*/")) {
          InBlockComment = false;
          ++I;
        }
      } else if (InString) {
        if (C == '\\')
          ++I;
        else if (C == '"')
          InString = false;
      } else if (C == '"') {
        InString = true;
      } else if (Line.substr(I).starts_with("/*")) {
        InBlockComment = true;
        ++I;
      } else if (C == ';' || Line.substr(I).starts_with("//") ||
                 (C == '#' && Line.take_front(I).trim().empty())) {
        Cut = I;
      }
    }
    StringRef Kept = Cut == StringRef::npos ? Line : Line.take_front(Cut).rtrim();
    if (Cut != StringRef::npos && Kept.trim().empty())
      continue; // a line that held only a comment
    Out += Kept;
    if (HasNewline)
      Out += '\n';
  }
  return Out;
}

} // namespace stinkytofu
