//===- Item.cpp - Items, labels and text items --------------------------===//
#include "rocisa-bridge/code/Item.h"
#include "rocisa-bridge/code/Label.h"
#include "rocisa-bridge/code/TextItems.h"

namespace rocisa {

Item::~Item() = default;

std::string Label::toString() const {
  std::string Text;
  if (alignment > 1)
    Text = ".align " + std::to_string(alignment) + "\n";
  Text += getLabelName() + ":";
  if (!comment.empty())
    Text += "  /// " + comment;
  return Text + "\n";
}

std::string ValueSet::toString() const {
  std::string Statement = ".set " + name + ", " + value;
  if (comment.empty())
    return Statement + "\n";
  return Statement + " // " + comment + "\n";
}

std::string Macro::toString() const {
  std::string Text = ".macro " + name;
  for (const std::string &A : args)
    Text += " " + A;
  Text += "\n";
  for (const std::string &Line : body)
    Text += "  " + Line + "\n";
  return Text + ".endm\n";
}

} // namespace rocisa
