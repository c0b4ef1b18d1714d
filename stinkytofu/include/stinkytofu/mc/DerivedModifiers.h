//===- DerivedModifiers.h - Modifiers computed from MC ----------*- C++ -*-===//
//
// The derived modifiers of Modifiers.def (`mod.ds`, `mod.swaitcnt`, ...)
// describe an instruction, so they are computed from its MC instruction,
// as LLVM's instruction printer decodes it: fields and defaults are MC's,
// never a table of ours. A `.stir` file that states one is checked against
// it; setting a field rewrites the instruction and has MC assemble it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_DERIVEDMODIFIERS_H
#define STINKYTOFU_MC_DERIVEDMODIFIERS_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace stinkytofu {

/// The fields of derived modifier \p K for \p I in print order, or none
/// when \p K does not describe \p I (`mod.ds` of a VALU instruction).
std::optional<AttrDict> deriveModifier(ModifierKind K, const Instruction &I,
                                       const TargetInfo &TI);

/// Reconciles the fields a `.stir` file stated for \p Stated with \p I (in
/// module \p M): a field the operands leave at its default takes the stated
/// value (set through MC, as setDerivedField does; a value the target cannot
/// encode is MC's error); a field both state differently is a contradiction,
/// and the error names the field and MC's value.
llvm::Error applyDerivedModifier(Module &M, Instruction &I, const DerivedModifier &Stated);

/// Sets \p Field of derived modifier \p K of \p I (in module \p M) to
/// \p Value: the instruction is rewritten and assembled by MC, so a value
/// the target cannot encode is an error and \p I is left as it was.
llvm::Error setDerivedField(Module &M, Instruction &I, ModifierKind K, llvm::StringRef Field,
                            const AttrValue &Value);

/// The operands that derived modifier \p K with the fields \p Stated
/// spells for \p Mnemonic: the reference writes the waits it inserts
/// without operands (`"st.s_delay_alu"() { mod.delayalu = {...} }`). None
/// when \p K does not spell the operands of \p Mnemonic.
std::optional<std::string> operandsFromModifier(ModifierKind K, llvm::StringRef Mnemonic,
                                                const AttrDict &Stated);

/// The key of the reference's generic wait modifier (`mod.waitcnt = {
/// vlcnt = 0 }`), which states a wait's counts whatever the wait; it is read
/// as the wait's own derived modifier (resolveGenericWait) and never printed.
inline constexpr llvm::StringLiteral GenericWaitKey = "waitcnt";

/// The derived modifier of wait \p Mnemonic, and its fields, that the
/// generic wait modifier's fields \p Stated mean (`vscnt` of
/// `s_wait_storecnt` is `mod.swaitstorecnt`'s `storecnt`). An error when
/// \p Mnemonic waits on no counter, or a field names a counter it does not
/// wait on or is not an integer.
llvm::Expected<std::pair<ModifierKind, AttrDict>>
resolveGenericWait(llvm::StringRef Mnemonic, const AttrDict &Stated);

} // namespace stinkytofu

#endif
