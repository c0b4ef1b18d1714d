//===- Modifier.h - Typed metadata attached to instructions -----*- C++ -*-===//
//
// Modifiers annotate an instruction without changing what it encodes, like
// BOLT's MCPlus annotations: LabelData names the target of a long branch,
// CallTargetData lists the possible callees of a call. Every kind prints and
// parses itself through an AttrDict, and is registered once in Modifiers.def.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_MODIFIER_H
#define STINKYTOFU_IR_MODIFIER_H

#include "stinkytofu/ir/Attribute.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

enum class ModifierKind : uint8_t {
#define STINKYTOFU_MODIFIER(Class, Key) Class,
#include "stinkytofu/ir/Modifiers.def"
};

class Modifier {
public:
  explicit Modifier(ModifierKind K) : K(K) {}
  virtual ~Modifier();
  ModifierKind kind() const { return K; }
  /// The `.stir` key after `mod.`: "label", "call_targets", ...
  llvm::StringRef key() const;
  virtual void toAttrs(AttrDict &Attrs) const = 0;
  virtual std::unique_ptr<Modifier> clone() const = 0;

  /// Builds the modifier registered under \p Key from its attributes.
  static llvm::Expected<std::unique_ptr<Modifier>> fromAttrs(llvm::StringRef Key,
                                                             const AttrDict &Attrs);
  static bool isKnownKey(llvm::StringRef Key);

private:
  ModifierKind K;
};

/// The statically known target of a branch; on `s_setpc_b64` it turns an
/// opaque indirect jump into a branch to `Label`.
struct LabelData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::LabelData;
  explicit LabelData(std::string Label, unsigned Alignment = 1)
      : Modifier(Kind), Label(std::move(Label)), Alignment(Alignment) {}
  std::string Label;
  unsigned Alignment;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override;
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};

/// The possible callees of a call (`s_swappc_b64`). Never a CFG edge.
struct CallTargetData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::CallTargetData;
  explicit CallTargetData(std::vector<std::string> Callees)
      : Modifier(Kind), Callees(std::move(Callees)) {}
  std::vector<std::string> Callees;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override;
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};

/// A note carried by an instruction (not printed into assembly).
struct CommentData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::CommentData;
  explicit CommentData(std::string Text) : Modifier(Kind), Text(std::move(Text)) {}
  std::string Text;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override;
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};

/// LLVM-style casting over modifier kinds.
template <typename T> const T *dyn_cast_modifier(const Modifier *M) {
  return M && M->kind() == T::Kind ? static_cast<const T *>(M) : nullptr;
}

} // namespace stinkytofu

#endif
