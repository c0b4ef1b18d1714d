//===- TextItems.h - Text-only items: text, .set, macros, .if ------*- C++ -*-===//
//
// Items that print directives or free text. The converter keeps them as
// module text or block directives, so the assembly keeps every byte.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CODE_TEXTITEMS_H
#define ROCISA_BRIDGE_CODE_TEXTITEMS_H

#include "rocisa-bridge/code/Item.h"
#include <string>
#include <vector>

namespace rocisa {

/// Verbatim text (comments, blank lines, raw directives), printed as given.
class TextBlock final : public Item {
public:
  explicit TextBlock(std::string Text) : Item(Text), text(std::move(Text)) {}
  std::string toString() const override { return text; }
  std::shared_ptr<Item> clone() const override { return std::make_shared<TextBlock>(*this); }
  std::string className() const override { return "TextBlock"; }
  std::string text;
};

/// `.set name, value` (value a number or an expression), optional comment.
class ValueSet final : public Item {
public:
  ValueSet(std::string Name, std::string Value, std::string Comment = "")
      : Item(std::move(Name)), value(std::move(Value)), comment(std::move(Comment)) {}
  ValueSet(std::string Name, long long Value, std::string Comment = "")
      : ValueSet(std::move(Name), std::to_string(Value), std::move(Comment)) {}
  std::string toString() const override;
  std::shared_ptr<Item> clone() const override { return std::make_shared<ValueSet>(*this); }
  std::string className() const override { return "ValueSet"; }
  std::string value;
  std::string comment;
};

/// `.if expr` and `.elseif expr`: a conditional directive and its
/// expression.
class ConditionalDirective : public Item {
public:
  std::string toString() const override { return std::string(Directive) + " " + value + "\n"; }
  std::string value;

protected:
  ConditionalDirective(const char *Directive, std::string Expression)
      : value(std::move(Expression)), Directive(Directive) {}

private:
  const char *Directive;
};

class ValueIf final : public ConditionalDirective {
public:
  explicit ValueIf(std::string Expression) : ConditionalDirective(".if", std::move(Expression)) {}
  std::shared_ptr<Item> clone() const override { return std::make_shared<ValueIf>(*this); }
  std::string className() const override { return "ValueIf"; }
};

class ValueElseIf final : public ConditionalDirective {
public:
  explicit ValueElseIf(std::string Expression)
      : ConditionalDirective(".elseif", std::move(Expression)) {}
  std::shared_ptr<Item> clone() const override { return std::make_shared<ValueElseIf>(*this); }
  std::string className() const override { return "ValueElseIf"; }
};

class ValueEndif final : public Item {
public:
  std::string toString() const override { return ".endif\n"; }
  std::shared_ptr<Item> clone() const override { return std::make_shared<ValueEndif>(*this); }
  std::string className() const override { return "ValueEndif"; }
};

/// `.macro name args...`, the body lines (each printed with two spaces of
/// indentation), `.endm`.
class Macro final : public Item {
public:
  Macro(std::string Name, std::vector<std::string> Args)
      : Item(std::move(Name)), args(std::move(Args)) {}
  /// Adds a body line (an instruction or directive text, no newline).
  void add(std::string Line) { body.push_back(std::move(Line)); }
  std::string toString() const override;
  std::shared_ptr<Item> clone() const override { return std::make_shared<Macro>(*this); }
  std::string className() const override { return "Macro"; }
  std::vector<std::string> args;
  std::vector<std::string> body;
};

} // namespace rocisa

#endif
