//===- Modifier.h - Typed metadata attached to instructions -----*- C++ -*-===//
//
// Modifiers are the `mod.<key> = { ... }` attributes of the `.stir` dialect,
// registered once in Modifiers.def. Two kinds, kept apart:
//
// - annotations carry what the assembly cannot say (like BOLT's MCPlus
//   annotations): LabelData names the target of a long branch,
//   CallTargetData the callees of a call, MemTokenData the LDS buffers an
//   access touches. They are stored on the instruction, printed, read by the
//   passes that understand them and kept by every other pass;
// - derived modifiers describe the instruction itself (`mod.ds` offsets,
//   `mod.swaitcnt` counts, ...). Their fields are never stored: they are
//   computed from the MC instruction (mc/DerivedModifiers.h). A
//   DerivedModifier on an instruction only says "show this view" (the
//   `.stir` file stated it), so the writer prints it again, recomputed.
//
// A third kind, private, is one pass's note to a later one kept on the
// instruction it concerns (so it follows the instruction wherever it moves
// and dies with it): never printed, never read, and dropped by a clone.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_MODIFIER_H
#define STINKYTOFU_IR_MODIFIER_H

#include "stinkytofu/ir/Attribute.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

enum class ModifierKind : uint8_t {
#define STINKYTOFU_DERIVED(Name, Key) Name,
#define STINKYTOFU_ANNOTATION(Class, Key) Class,
#define STINKYTOFU_PRIVATE(Class, Key) Class,
#include "stinkytofu/ir/Modifiers.def"
};

class Modifier {
public:
  explicit Modifier(ModifierKind K) : K(K) {}
  virtual ~Modifier();
  ModifierKind kind() const { return K; }
  /// The `.stir` key after `mod.`: "label", "call_targets", ...
  llvm::StringRef key() const { return keyOf(K); }
  bool isDerived() const { return isDerivedKind(K); }
  bool isPrivate() const { return isPrivateKind(K); }
  virtual void toAttrs(AttrDict &Attrs) const = 0;
  virtual std::unique_ptr<Modifier> clone() const = 0;

  /// Builds the modifier registered under \p Key from its attributes.
  static llvm::Expected<std::unique_ptr<Modifier>> fromAttrs(llvm::StringRef Key,
                                                             const AttrDict &Attrs);
  static std::optional<ModifierKind> kindOf(llvm::StringRef Key);
  static llvm::StringRef keyOf(ModifierKind K);
  static bool isDerivedKind(ModifierKind K);
  static bool isPrivateKind(ModifierKind K);

private:
  ModifierKind K;
};

/// A derived modifier as a `.stir` file states it: which view to show, and
/// the fields the file wrote (checked against the instruction on reading;
/// printing recomputes them all).
struct DerivedModifier final : Modifier {
  DerivedModifier(ModifierKind K, AttrDict Stated) : Modifier(K), Stated(std::move(Stated)) {}
  AttrDict Stated;
  void toAttrs(AttrDict &Attrs) const override { Attrs = Stated; }
  std::unique_ptr<Modifier> clone() const override {
    return std::make_unique<DerivedModifier>(*this);
  }
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

/// The possible callees of a call (`s_swappc_b64`), or of a tail call (an
/// `s_setpc_b64` to another function, which returns to our caller). Never a
/// CFG edge.
struct CallTargetData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::CallTargetData;
  explicit CallTargetData(std::vector<std::string> Callees, bool TailCall = false)
      : Modifier(Kind), Callees(std::move(Callees)), TailCall(TailCall) {}
  std::vector<std::string> Callees;
  bool TailCall;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override;
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};

/// One line of text an instruction carries, never printed into assembly:
/// a note (`mod.comment`), or why a generated wait is there
/// (`mod.wait_provenance`, which a wait-insertion pass writes).
template <ModifierKind TextKind> struct TextData final : Modifier {
  static constexpr ModifierKind Kind = TextKind;
  explicit TextData(std::string Text) : Modifier(Kind), Text(std::move(Text)) {}
  std::string Text;
  void toAttrs(AttrDict &Attrs) const override { Attrs.add("text", AttrValue::string(Text)); }
  std::unique_ptr<Modifier> clone() const override { return std::make_unique<TextData>(*this); }
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};
using CommentData = TextData<ModifierKind::CommentData>;
using WaitProvenanceData = TextData<ModifierKind::WaitProvenanceData>;

/// A list of memory tokens, `mod.<key> = { tokens = [...] }`.
template <ModifierKind TokensKind> struct TokenListData final : Modifier {
  static constexpr ModifierKind Kind = TokensKind;
  explicit TokenListData(std::vector<int64_t> Tokens) : Modifier(Kind), Tokens(std::move(Tokens)) {}
  std::vector<int64_t> Tokens;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override { return std::make_unique<TokenListData>(*this); }
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};

/// The logical LDS buffers (tokens) an LDS access, tensor load or barrier
/// touches, as the producer numbered them for the iteration that issues it.
using MemTokenData = TokenListData<ModifierKind::MemTokenData>;

/// A barrier that only orders the waves' issue of tensor loads around a
/// wait draining the tokens \c Tokens (TDMLoadWaveSyncPass): every wave has
/// issued the loads that wait needs before any issues the ones it does not.
/// It publishes no LDS work still in flight, so the wait analysis does not
/// ask for that work to be done before it (docs/waitcnt.md).
using WaveSyncData = TokenListData<ModifierKind::WaveSyncData>;

/// The LDS buffers (memory tokens) an instruction is a dependence on, as
/// StinkyBuildImplicitDependencyPass derives them from `mod.memtoken`: an
/// LDS writer defines its tokens, a reader uses them, a barrier does both
/// (the reference's `LDS<t>` pseudo-register operands).
struct LdsDependenceData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::LdsDependenceData;
  LdsDependenceData(std::vector<int64_t> Defs, std::vector<int64_t> Uses)
      : Modifier(Kind), Defs(std::move(Defs)), Uses(std::move(Uses)) {}
  std::vector<int64_t> Defs;
  std::vector<int64_t> Uses;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override;
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};

/// A dependence on the LDS buffers \c Tokens of the iteration \c Distance
/// trips back: read-after-write on a reader (`mod.loopcarriedraw`),
/// write-after-read on a writer or barrier (`mod.loopcarriedwar`).
template <ModifierKind CarriedKind> struct LoopCarriedData final : Modifier {
  static constexpr ModifierKind Kind = CarriedKind;
  LoopCarriedData(std::vector<int64_t> Tokens, int64_t Distance)
      : Modifier(Kind), Tokens(std::move(Tokens)), Distance(Distance) {}
  std::vector<int64_t> Tokens;
  int64_t Distance;
  void toAttrs(AttrDict &Attrs) const override;
  std::unique_ptr<Modifier> clone() const override {
    return std::make_unique<LoopCarriedData>(*this);
  }
  static llvm::Expected<std::unique_ptr<Modifier>> parse(const AttrDict &Attrs);
};
using LoopCarriedRawData = LoopCarriedData<ModifierKind::LoopCarriedRawData>;
using LoopCarriedWarData = LoopCarriedData<ModifierKind::LoopCarriedWarData>;

/// Rotating LDS buffers: the ring slots an access uses, and on a loop latch
/// how far each frame advances.
struct LdsRingData final : Modifier {
  static constexpr ModifierKind Kind = ModifierKind::LdsRingData;
  enum class AccessKind : uint8_t { Read, Write, Publish, Protect };
  struct Access {
    int64_t BufferClass, Frame, Ring, GlobalDelta;
    AccessKind Kind;
  };
  struct Advance {
    int64_t Frame, Amount;
  };
  LdsRingData(std::vector<Access> Accesses, std::vector<Advance> Advances)
      : Modifier(Kind), Accesses(std::move(Accesses)), Advances(std::move(Advances)) {}
  std::vector<Access> Accesses;
  std::vector<Advance> Advances;
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
