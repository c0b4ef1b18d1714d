//===- Label.h - A rocisa label: `label_<name>:` -------------------*- C++ -*-===//
#ifndef ROCISA_BRIDGE_CODE_LABEL_H
#define ROCISA_BRIDGE_CODE_LABEL_H

#include "rocisa-bridge/code/Item.h"
#include <string>

namespace rocisa {

/// rocisa adds the `label_` prefix itself: Label("Loop") prints `label_Loop:`.
class Label final : public Item {
public:
  Label(std::string Label, std::string Comment = "", int Alignment = 1)
      : label(std::move(Label)), comment(std::move(Comment)), alignment(Alignment) {}
  Label(int Number, std::string Comment = "", int Alignment = 1)
      : Label(std::to_string(Number), std::move(Comment), Alignment) {}

  /// `label_` + the name.
  std::string getLabelName() const { return labelName(label); }
  static std::string labelName(const std::string &Name) { return "label_" + Name; }

  /// `.align N` (when N > 1), `label_X:`, then `  /// comment` if any.
  std::string toString() const override;
  std::shared_ptr<Item> clone() const override { return std::make_shared<Label>(*this); }
  std::string className() const override { return "Label"; }

  std::string label;
  std::string comment;
  int alignment;
};

} // namespace rocisa

#endif
