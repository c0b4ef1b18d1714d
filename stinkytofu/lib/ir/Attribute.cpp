//===- Attribute.cpp - Attribute values of the textual IR ----------------===//
#include "stinkytofu/ir/Attribute.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace stinkytofu {

AttrValue AttrValue::integer(int64_t V, bool Hex) {
  AttrValue A;
  A.K = Kind::Integer;
  A.Int = V;
  A.Hex = Hex;
  return A;
}
AttrValue AttrValue::floating(std::string Spelling) {
  AttrValue A;
  A.K = Kind::Float;
  A.Str = std::move(Spelling);
  return A;
}
AttrValue AttrValue::string(std::string V) {
  AttrValue A;
  A.K = Kind::String;
  A.Str = std::move(V);
  return A;
}
AttrValue AttrValue::boolean(bool V) {
  AttrValue A;
  A.K = Kind::Bool;
  A.Int = V;
  return A;
}
AttrValue AttrValue::ident(std::string V) {
  AttrValue A;
  A.K = Kind::Ident;
  A.Str = std::move(V);
  return A;
}
AttrValue AttrValue::list(std::vector<AttrValue> Elements) {
  AttrValue A;
  A.K = Kind::List;
  A.Elements = std::move(Elements);
  return A;
}

void printQuoted(raw_ostream &OS, StringRef S) {
  OS << '"';
  for (unsigned char C : S) {
    switch (C) {
    case '"': OS << "\\\""; break;
    case '\\': OS << "\\\\"; break;
    case '\n': OS << "\\n"; break;
    case '\t': OS << "\\t"; break;
    case '\r': OS << "\\r"; break;
    default:
      if (C < 0x20 || C == 0x7f)
        OS << "\\x" << hexdigit(C >> 4, true) << hexdigit(C & 15, true);
      else
        OS << C;
    }
  }
  OS << '"';
}

void AttrValue::print(raw_ostream &OS) const {
  switch (K) {
  case Kind::Integer:
    if (Hex)
      OS << "0x" << utohexstr(uint64_t(Int));
    else
      OS << Int;
    return;
  case Kind::Float:
  case Kind::Ident:
    OS << Str;
    return;
  case Kind::String:
    printQuoted(OS, Str);
    return;
  case Kind::Bool:
    OS << (Int ? "true" : "false");
    return;
  case Kind::List:
    // Without spaces, as the reference prints its lists (`tokens = [0,1]`),
    // so that tests written against its output match ours.
    OS << '[';
    for (size_t I = 0; I < Elements.size(); ++I) {
      if (I)
        OS << ',';
      Elements[I].print(OS);
    }
    OS << ']';
    return;
  }
}

const AttrValue *AttrDict::find(StringRef Key) const {
  for (const auto &[K, V] : Entries)
    if (K == Key)
      return &V;
  return nullptr;
}

void AttrDict::print(raw_ostream &OS) const {
  OS << "{ ";
  for (size_t I = 0; I < Entries.size(); ++I) {
    if (I)
      OS << ", ";
    OS << Entries[I].first << " = ";
    Entries[I].second.print(OS);
  }
  OS << " }";
}

static Error attrError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<std::string> AttrDict::getString(StringRef Key) const {
  const AttrValue *V = find(Key);
  if (!V)
    return attrError("missing attribute '" + Key + "'");
  if (V->kind() != AttrValue::Kind::String && V->kind() != AttrValue::Kind::Ident)
    return attrError("attribute '" + Key + "' must be a string");
  return V->asString().str();
}

Expected<int64_t> AttrDict::getInteger(StringRef Key) const {
  const AttrValue *V = find(Key);
  if (!V)
    return attrError("missing attribute '" + Key + "'");
  if (V->kind() != AttrValue::Kind::Integer)
    return attrError("attribute '" + Key + "' must be an integer");
  return V->asInteger();
}

Expected<std::vector<std::string>> AttrDict::getStringList(StringRef Key) const {
  const AttrValue *V = find(Key);
  if (!V)
    return attrError("missing attribute '" + Key + "'");
  if (V->kind() != AttrValue::Kind::List)
    return attrError("attribute '" + Key + "' must be a list of strings");
  std::vector<std::string> Out;
  for (const AttrValue &E : V->asList()) {
    if (E.kind() != AttrValue::Kind::String && E.kind() != AttrValue::Kind::Ident)
      return attrError("attribute '" + Key + "' must be a list of strings");
    Out.push_back(E.asString().str());
  }
  return Out;
}

Expected<std::vector<int64_t>> AttrDict::getIntegerList(StringRef Key) const {
  const AttrValue *V = find(Key);
  if (!V)
    return attrError("missing attribute '" + Key + "'");
  if (V->kind() != AttrValue::Kind::List)
    return attrError("attribute '" + Key + "' must be a list of integers");
  std::vector<int64_t> Out;
  for (const AttrValue &E : V->asList()) {
    if (E.kind() != AttrValue::Kind::Integer)
      return attrError("attribute '" + Key + "' must be a list of integers");
    Out.push_back(E.asInteger());
  }
  return Out;
}

Expected<bool> AttrDict::getBool(StringRef Key) const {
  const AttrValue *V = find(Key);
  if (!V)
    return attrError("missing attribute '" + Key + "'");
  if (V->kind() == AttrValue::Kind::Bool ||
      (V->kind() == AttrValue::Kind::Integer && (V->asInteger() == 0 || V->asInteger() == 1)))
    return V->asBool();
  return attrError("attribute '" + Key + "' must be true or false");
}

Error AttrDict::checkKeys(StringRef Owner,
                          std::initializer_list<StringRef> Known) const {
  for (const auto &Entry : Entries)
    if (!llvm::is_contained(Known, StringRef(Entry.first)))
      return attrError("unknown key '" + Entry.first + "' in " + Owner);
  return Error::success();
}

} // namespace stinkytofu
