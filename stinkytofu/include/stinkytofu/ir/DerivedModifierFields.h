//===- DerivedModifierFields.h - Fields of the derived modifiers -*- C++ -*-===//
//
// The fields each derived modifier (Modifiers.def) may state, with their
// types, in the order they print. Reading a `.stir` file checks a stated
// modifier's fields against this; mc/DerivedModifiers.cpp computes them.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_DERIVEDMODIFIERFIELDS_H
#define STINKYTOFU_IR_DERIVEDMODIFIERFIELDS_H

#include "stinkytofu/ir/Modifier.h"
#include "llvm/ADT/ArrayRef.h"

namespace stinkytofu {

enum class FieldType : uint8_t { Int, Bool, String, IntList };

struct DerivedField {
  llvm::StringRef Name;
  FieldType Type;
};

/// The fields of derived modifier \p K, in print order.
llvm::ArrayRef<DerivedField> derivedFields(ModifierKind K);

/// Checks that \p Attrs, stated for derived modifier \p K, names only its
/// fields, each with a value of the field's type.
llvm::Error checkDerivedFields(ModifierKind K, const AttrDict &Attrs);

} // namespace stinkytofu

#endif
