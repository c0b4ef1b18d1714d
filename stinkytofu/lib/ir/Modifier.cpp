//===- Modifier.cpp - Typed metadata attached to instructions -------------===//
#include "stinkytofu/ir/Modifier.h"

using namespace llvm;

namespace stinkytofu {

Modifier::~Modifier() = default;

namespace {
struct Registration {
  ModifierKind Kind;
  StringRef Key;
  Expected<std::unique_ptr<Modifier>> (*Parse)(const AttrDict &);
};
const Registration Registry[] = {
#define STINKYTOFU_MODIFIER(Class, Key) {ModifierKind::Class, Key, &Class::parse},
#include "stinkytofu/ir/Modifiers.def"
};
} // namespace

StringRef Modifier::key() const {
  for (const Registration &R : Registry)
    if (R.Kind == K)
      return R.Key;
  llvm_unreachable("modifier kind not registered in Modifiers.def");
}

bool Modifier::isKnownKey(StringRef Key) {
  return llvm::any_of(Registry, [&](const Registration &R) { return R.Key == Key; });
}

Expected<std::unique_ptr<Modifier>> Modifier::fromAttrs(StringRef Key,
                                                        const AttrDict &Attrs) {
  for (const Registration &R : Registry)
    if (R.Key == Key)
      return R.Parse(Attrs);
  return createStringError(inconvertibleErrorCode(),
                           "unknown modifier 'mod." + Key + "'");
}

// --- LabelData ------------------------------------------------------------
void LabelData::toAttrs(AttrDict &Attrs) const {
  Attrs.add("label", AttrValue::string(Label));
  Attrs.add("alignment", AttrValue::integer(Alignment));
}
std::unique_ptr<Modifier> LabelData::clone() const {
  return std::make_unique<LabelData>(*this);
}
Expected<std::unique_ptr<Modifier>> LabelData::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys("mod.label", {"label", "alignment"}))
    return std::move(E);
  Expected<std::string> Label = Attrs.getString("label");
  if (!Label)
    return Label.takeError();
  unsigned Alignment = 1;
  if (Attrs.find("alignment")) {
    Expected<int64_t> A = Attrs.getInteger("alignment");
    if (!A)
      return A.takeError();
    Alignment = unsigned(*A);
  }
  return std::make_unique<LabelData>(std::move(*Label), Alignment);
}

// --- CallTargetData -------------------------------------------------------
void CallTargetData::toAttrs(AttrDict &Attrs) const {
  std::vector<AttrValue> List;
  for (const std::string &C : Callees)
    List.push_back(AttrValue::string(C));
  Attrs.add("callees", AttrValue::list(std::move(List)));
}
std::unique_ptr<Modifier> CallTargetData::clone() const {
  return std::make_unique<CallTargetData>(*this);
}
Expected<std::unique_ptr<Modifier>> CallTargetData::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys("mod.call_targets", {"callees"}))
    return std::move(E);
  Expected<std::vector<std::string>> Callees = Attrs.getStringList("callees");
  if (!Callees)
    return Callees.takeError();
  return std::make_unique<CallTargetData>(std::move(*Callees));
}

// --- CommentData ----------------------------------------------------------
void CommentData::toAttrs(AttrDict &Attrs) const {
  Attrs.add("text", AttrValue::string(Text));
}
std::unique_ptr<Modifier> CommentData::clone() const {
  return std::make_unique<CommentData>(*this);
}
Expected<std::unique_ptr<Modifier>> CommentData::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys("mod.comment", {"text"}))
    return std::move(E);
  Expected<std::string> Text = Attrs.getString("text");
  if (!Text)
    return Text.takeError();
  return std::make_unique<CommentData>(std::move(*Text));
}

} // namespace stinkytofu
