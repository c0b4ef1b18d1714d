//===- TextFields.cpp - Typed key/value fields over module text -----------===//
#include "stinkytofu/ir/TextFields.h"

using namespace llvm;

namespace stinkytofu {

void TextFields::add(StringRef Key, StringRef Value, size_t Offset) {
  unsigned Line = Mod->items()[Item].Contents.take_front(Offset).count('\n');
  Fields.push_back({Key.str(), Value.str(), Offset, Line});
}

const TextFields::Field *TextFields::field(StringRef Key) const {
  for (const Field &F : Fields)
    if (F.Key == Key)
      return &F;
  return nullptr;
}

std::optional<uint64_t> TextFields::integer(StringRef Key) const {
  const Field *F = field(Key);
  uint64_t V;
  if (!F || StringRef(F->Value).getAsInteger(0, V))
    return std::nullopt;
  return V;
}

Error TextFields::set(Module &M, StringRef Key, StringRef Value) {
  auto It = find_if(Fields, [&](const Field &F) { return F.Key == Key; });
  if (&M != Mod || It == Fields.end())
    return createStringError(inconvertibleErrorCode(), "no field " + Key);
  StringRef Text = M.items()[Item].Contents;
  size_t Old = It->Value.size();
  M.items()[Item].Contents =
      M.save((Text.take_front(It->Offset) + Value + Text.substr(It->Offset + Old)).str());
  // Fields after it moved by the difference.
  for (Field &F : Fields)
    if (F.Offset > It->Offset)
      F.Offset = F.Offset + Value.size() - Old;
  It->Value = Value.str();
  return Error::success();
}

} // namespace stinkytofu
