//===- StirBlockNames.h - Function-scoped block names in `.stir` -*- C++ -*-===//
//
// In `.stir` a block name belongs to its function: two functions may each
// have a block `^entry` or `^loop` (the reference's files do). In assembly
// a block's name is a label, and labels are global, so before the file is
// put back together each block whose name an earlier function already uses
// gets a collision-free label, and every reference to it inside its own
// function (branch operands, `Successors:`, `mod.label`) follows.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_STIR_STIRBLOCKNAMES_H
#define STINKYTOFU_STIR_STIRBLOCKNAMES_H

#include "stinkytofu/stir/StirParser.h"

namespace stinkytofu {

/// Renames, in \p M, the blocks whose names an earlier function (in the
/// file's order) already uses, and the references to them in their own
/// function. A renamed block of function `f` named `b` becomes `f.b`
/// (then `f.b.1`, ... if that is taken too).
void scopeBlockNames(StirModule &M);

} // namespace stinkytofu

#endif
