//===- StirImplicitOperands.h - Implicit registers written in `.stir` -*- C++ -*-===//
//
// The reference's `.stir` writes the implicit registers of an instruction as
// extra operands after the explicit ones (`SCC0 = "st.s_cmp_eq_u32"(s60, 1)`,
// `"st.s_cbranch_scc1"("loop", SCC0)`) and spells special registers with an
// index (`SCC0`, `exec_lo0`, `vcc[0]`) or in upper case (`VCC`, `EXEC`,
// `M0`). LLVM MC already knows every implicit register, so such an operand
// adds nothing to the assembly: the `.stir` reader leaves it out and checks
// it against what MC says the instruction reads and writes. This file
// recognises the spellings and does the check; StirAssembly.cpp decides
// which operands are implicit.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_STIR_STIRIMPLICITOPERANDS_H
#define STINKYTOFU_STIR_STIRIMPLICITOPERANDS_H

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace stinkytofu {

/// An operand that names one special register (not an SGPR, VGPR, AGPR or
/// TTMP): scc, vcc, vcc_lo, exec, exec_hi, m0, src_shared_base, mode, ...
struct SpecialRegisterOperand {
  llvm::MCRegister Reg;
  /// Written as the assembler writes it (`vcc`, `m0`); false for the
  /// reference's forms (`VCC`, `vcc0`, `SCC[0]`), which MC does not read.
  bool AsmSpelling = false;
};

/// The special register \p Spelling names: its MC name in any case, alone
/// or with the reference's index (`0`, `[0]`, or any number: `SCC1`). None
/// for anything else.
std::optional<SpecialRegisterOperand> parseSpecialRegister(llvm::StringRef Spelling,
                                                           const TargetInfo &TI);

/// Whether \p Spelling is a special register in one of the reference's
/// forms, which the reader respells (`exec_lo0` -> `exec_lo`) or leaves out.
bool isReferenceRegisterSpelling(llvm::StringRef Spelling, const TargetInfo &TI);

/// What a special-register operand of a `.stir` instruction claims.
enum class RegisterClaim : uint8_t {
  ImplicitDef, ///< left out of the assembly: the instruction writes it
  ImplicitUse, ///< left out of the assembly: the instruction reads it
  Operand,     ///< respelled for the assembly: the instruction touches it
};

/// Checks the operand \p Spelling of \p I, naming \p Reg, against what MC
/// says \p I reads and writes (registers overlapping \p Reg count). The
/// message says what MC says instead.
llvm::Error checkRegisterClaim(const Instruction &I, llvm::StringRef Spelling,
                               llvm::MCRegister Reg, RegisterClaim Claim,
                               const TargetInfo &TI);

} // namespace stinkytofu

#endif
