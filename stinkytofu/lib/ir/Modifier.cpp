//===- Modifier.cpp - Typed metadata attached to instructions -------------===//
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/DerivedModifierFields.h"

using namespace llvm;

namespace stinkytofu {

Modifier::~Modifier() = default;

namespace {
struct Registration {
  ModifierKind Kind;
  StringRef Key;
  bool Derived, Private;
  /// Null for derived modifiers (their fields are checked, not stored) and
  /// private ones (never read).
  Expected<std::unique_ptr<Modifier>> (*Parse)(const AttrDict &);
};
const Registration Registry[] = {
#define STINKYTOFU_DERIVED(Name, Key) {ModifierKind::Name, Key, true, false, nullptr},
#define STINKYTOFU_ANNOTATION(Class, Key) {ModifierKind::Class, Key, false, false, &Class::parse},
#define STINKYTOFU_PRIVATE(Class, Key) {ModifierKind::Class, Key, false, true, nullptr},
#include "stinkytofu/ir/Modifiers.def"
};
const Registration &registration(ModifierKind K) { return Registry[unsigned(K)]; }

Error modError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}
} // namespace

StringRef Modifier::keyOf(ModifierKind K) { return registration(K).Key; }
bool Modifier::isDerivedKind(ModifierKind K) { return registration(K).Derived; }
bool Modifier::isPrivateKind(ModifierKind K) { return registration(K).Private; }

std::optional<ModifierKind> Modifier::kindOf(StringRef Key) {
  for (const Registration &R : Registry)
    if (R.Key == Key && !R.Private)
      return R.Kind;
  return std::nullopt;
}

Expected<std::unique_ptr<Modifier>> Modifier::fromAttrs(StringRef Key,
                                                        const AttrDict &Attrs) {
  std::optional<ModifierKind> K = kindOf(Key);
  if (!K)
    return modError("unknown modifier 'mod." + Key + "'");
  const Registration &R = registration(*K);
  if (R.Parse)
    return R.Parse(Attrs);
  if (Error E = checkDerivedFields(*K, Attrs))
    return std::move(E);
  return std::make_unique<DerivedModifier>(*K, Attrs);
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
  if (TailCall)
    Attrs.add("tail", AttrValue::boolean(true));
}
std::unique_ptr<Modifier> CallTargetData::clone() const {
  return std::make_unique<CallTargetData>(*this);
}
Expected<std::unique_ptr<Modifier>> CallTargetData::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys("mod.call_targets", {"callees", "tail"}))
    return std::move(E);
  Expected<std::vector<std::string>> Callees = Attrs.getStringList("callees");
  if (!Callees)
    return Callees.takeError();
  bool Tail = false;
  if (Attrs.find("tail")) {
    Expected<bool> B = Attrs.getBool("tail");
    if (!B)
      return B.takeError();
    Tail = *B;
  }
  return std::make_unique<CallTargetData>(std::move(*Callees), Tail);
}

// --- TextData -------------------------------------------------------------
template <ModifierKind TextKind>
Expected<std::unique_ptr<Modifier>> TextData<TextKind>::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys(("mod." + keyOf(TextKind)).str(), {"text"}))
    return std::move(E);
  Expected<std::string> Text = Attrs.getString("text");
  if (!Text)
    return Text.takeError();
  return std::make_unique<TextData<TextKind>>(std::move(*Text));
}
template struct TextData<ModifierKind::CommentData>;
template struct TextData<ModifierKind::WaitProvenanceData>;

// --- TokenListData ------------------------------------------------------
namespace {
AttrValue integerList(ArrayRef<int64_t> Values) {
  std::vector<AttrValue> List;
  for (int64_t V : Values)
    List.push_back(AttrValue::integer(V));
  return AttrValue::list(std::move(List));
}
} // namespace

template <ModifierKind TokensKind> void TokenListData<TokensKind>::toAttrs(AttrDict &Attrs) const {
  Attrs.add("tokens", integerList(Tokens));
}
template <ModifierKind TokensKind>
Expected<std::unique_ptr<Modifier>> TokenListData<TokensKind>::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys(("mod." + keyOf(TokensKind)).str(), {"tokens"}))
    return std::move(E);
  Expected<std::vector<int64_t>> Tokens = Attrs.getIntegerList("tokens");
  if (!Tokens)
    return Tokens.takeError();
  return std::make_unique<TokenListData<TokensKind>>(std::move(*Tokens));
}
template struct TokenListData<ModifierKind::MemTokenData>;
template struct TokenListData<ModifierKind::WaveSyncData>;

// --- LdsDependenceData ---------------------------------------------------
void LdsDependenceData::toAttrs(AttrDict &Attrs) const {
  Attrs.add("defs", integerList(Defs));
  Attrs.add("uses", integerList(Uses));
}
std::unique_ptr<Modifier> LdsDependenceData::clone() const {
  return std::make_unique<LdsDependenceData>(*this);
}
Expected<std::unique_ptr<Modifier>> LdsDependenceData::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys("mod.lds_deps", {"defs", "uses"}))
    return std::move(E);
  std::vector<int64_t> Lists[2];
  for (auto [Key, List] : {std::pair{"defs", &Lists[0]}, std::pair{"uses", &Lists[1]}}) {
    if (!Attrs.find(Key))
      continue;
    Expected<std::vector<int64_t>> Tokens = Attrs.getIntegerList(Key);
    if (!Tokens)
      return Tokens.takeError();
    *List = std::move(*Tokens);
  }
  return std::make_unique<LdsDependenceData>(std::move(Lists[0]), std::move(Lists[1]));
}

// --- LoopCarriedData ------------------------------------------------------
template <ModifierKind CarriedKind> void LoopCarriedData<CarriedKind>::toAttrs(AttrDict &Attrs) const {
  Attrs.add("tokens", integerList(Tokens));
  Attrs.add("distance", AttrValue::integer(Distance));
}
template <ModifierKind CarriedKind>
Expected<std::unique_ptr<Modifier>> LoopCarriedData<CarriedKind>::parse(const AttrDict &Attrs) {
  std::string Owner = ("mod." + keyOf(CarriedKind)).str();
  if (Error E = Attrs.checkKeys(Owner, {"tokens", "distance"}))
    return std::move(E);
  Expected<std::vector<int64_t>> Tokens = Attrs.getIntegerList("tokens");
  if (!Tokens)
    return Tokens.takeError();
  int64_t Distance = 1;
  if (Attrs.find("distance")) {
    Expected<int64_t> D = Attrs.getInteger("distance");
    if (!D)
      return D.takeError();
    if (*D < 1)
      return modError("attribute 'distance' must be at least 1");
    Distance = *D;
  }
  return std::make_unique<LoopCarriedData<CarriedKind>>(std::move(*Tokens), Distance);
}
template struct LoopCarriedData<ModifierKind::LoopCarriedRawData>;
template struct LoopCarriedData<ModifierKind::LoopCarriedWarData>;

// --- LdsRingData ----------------------------------------------------------
void LdsRingData::toAttrs(AttrDict &Attrs) const {
  std::vector<int64_t> Flat;
  for (const Access &A : Accesses)
    Flat.insert(Flat.end(), {A.BufferClass, A.Frame, A.Ring, A.GlobalDelta, int64_t(A.Kind)});
  if (!Flat.empty())
    Attrs.add("accesses", integerList(Flat));
  Flat.clear();
  for (const Advance &A : Advances)
    Flat.insert(Flat.end(), {A.Frame, A.Amount});
  if (!Flat.empty())
    Attrs.add("advances", integerList(Flat));
}
std::unique_ptr<Modifier> LdsRingData::clone() const {
  return std::make_unique<LdsRingData>(*this);
}
Expected<std::unique_ptr<Modifier>> LdsRingData::parse(const AttrDict &Attrs) {
  if (Error E = Attrs.checkKeys("mod.lds_ring", {"accesses", "advances"}))
    return std::move(E);
  // Both lists are flat: five integers per access, two per advance.
  auto Read = [&](StringRef Key, size_t Tuple) -> Expected<std::vector<int64_t>> {
    if (!Attrs.find(Key))
      return std::vector<int64_t>();
    Expected<std::vector<int64_t>> L = Attrs.getIntegerList(Key);
    if (L && L->size() % Tuple)
      return modError("attribute '" + Key + "' must hold " + Twine(Tuple) +
                      " integers per entry");
    return L;
  };
  Expected<std::vector<int64_t>> A = Read("accesses", 5);
  if (!A)
    return A.takeError();
  Expected<std::vector<int64_t>> V = Read("advances", 2);
  if (!V)
    return V.takeError();
  std::vector<Access> Accesses;
  for (size_t I = 0; I < A->size(); I += 5) {
    int64_t Kind = (*A)[I + 4];
    if (Kind < 0 || Kind > int64_t(AccessKind::Protect))
      return modError("access kind " + Twine(Kind) +
                      " is none of 0 (read), 1 (write), 2 (publish), 3 (protect)");
    if ((*A)[I + 2] <= 0)
      return modError("ring size " + Twine((*A)[I + 2]) + " must be positive");
    Accesses.push_back({(*A)[I], (*A)[I + 1], (*A)[I + 2], (*A)[I + 3], AccessKind(Kind)});
  }
  std::vector<Advance> Advances;
  for (size_t I = 0; I < V->size(); I += 2)
    Advances.push_back({(*V)[I], (*V)[I + 1]});
  return std::make_unique<LdsRingData>(std::move(Accesses), std::move(Advances));
}

} // namespace stinkytofu
