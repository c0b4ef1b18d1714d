//===- Operand.h - Typed instruction operands -------------------*- C++ -*-===//
//
// Operands keep their exact source spelling so that an untouched instruction
// prints back byte for byte, and carry a typed view (register range, special
// register, immediate, expression, symbol reference, modifier) for passes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_OPERAND_H
#define STINKYTOFU_IR_OPERAND_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace stinkytofu {

enum class OperandKind : uint8_t {
  Register,        ///< v5, s[4:7], a[0:15], acc[0:3], ttmp[4:5], v[vgprX+3]
  SpecialRegister, ///< exec, vcc_lo, m0, scc, null, off, src_shared_base ...
  Immediate,       ///< 42, -3, 0x4
  FloatImmediate,  ///< 1.0, -0.5
  Expression,      ///< arithmetic over symbols: (a-b)&4294967295, label-.-12
  Symbol,          ///< a bare symbol: a label or a .set name
  Function,        ///< hwreg(...), sendmsg(...), vmcnt(0) ...
  Modifier,        ///< space-separated instruction modifiers: offset:16, glc
};

/// The register file a Register operand names.
enum class RegFile : uint8_t { None, VGPR, SGPR, AGPR, TTMP };

/// Source modifiers written around a register: `-v1` or `neg(v1)` negates,
/// `|v1|` or `abs(v1)` takes the absolute value, `sext(v1)` sign-extends;
/// `-|v1|` is both. MC encodes them in the source-modifier operand that
/// precedes the source.
enum SourceModifier : uint8_t {
  SrcModNone = 0,
  SrcModNeg = 1 << 0,
  SrcModAbs = 1 << 1,
  SrcModSext = 1 << 2,
};

/// The part of a 32-bit VGPR a true16 operand names: `v1.l`, `v1.h`.
enum class RegHalf : uint8_t { Full, Low, High };

class Operand {
public:
  Operand() = default;
  Operand(OperandKind Kind, std::string Spelling)
      : Kind(Kind), Spelling(std::move(Spelling)) {}

  OperandKind kind() const { return Kind; }
  /// Exact text as written, source modifiers included (`-v1`, `|v2|`): an
  /// untouched operand prints back as it was.
  llvm::StringRef spelling() const { return Spelling; }

  bool isRegister() const { return Kind == OperandKind::Register; }
  bool isSpecialRegister() const { return Kind == OperandKind::SpecialRegister; }
  bool isImmediate() const { return Kind == OperandKind::Immediate; }
  bool isSymbol() const { return Kind == OperandKind::Symbol; }
  bool isExpression() const { return Kind == OperandKind::Expression; }
  bool isModifier() const { return Kind == OperandKind::Modifier; }

  /// Register operands: the file and, when the index is numeric or resolved
  /// through the module's symbols, the first register and the count.
  RegFile regFile() const { return File; }
  std::optional<unsigned> firstReg() const { return First; }
  unsigned regCount() const { return Count; }
  /// True when the register index is written with symbols (v[vgprValuC+3]).
  bool isSymbolicRegister() const { return Symbolic; }

  /// Register operands: the source modifiers around the register (a mask
  /// of SourceModifier) and the half of a true16 register. The register
  /// view above is the register itself, modifiers aside.
  unsigned sourceModifiers() const { return Mods; }
  bool isNegated() const { return Mods & SrcModNeg; }
  bool hasAbs() const { return Mods & SrcModAbs; }
  bool hasSext() const { return Mods & SrcModSext; }
  RegHalf half() const { return Half; }

  /// Immediate operands: the value.
  std::optional<int64_t> immediate() const { return Imm; }

  void setRegister(RegFile F, std::optional<unsigned> FirstReg, unsigned N,
                   bool IsSymbolic) {
    File = F;
    First = FirstReg;
    Count = N;
    Symbolic = IsSymbolic;
  }
  void setSourceModifiers(unsigned Mask, RegHalf H) {
    Mods = uint8_t(Mask);
    Half = H;
  }
  void setImmediate(int64_t V) { Imm = V; }

  bool operator==(const Operand &O) const {
    return Kind == O.Kind && Spelling == O.Spelling;
  }

private:
  OperandKind Kind = OperandKind::Expression;
  std::string Spelling;
  RegFile File = RegFile::None;
  std::optional<unsigned> First;
  unsigned Count = 0;
  bool Symbolic = false;
  uint8_t Mods = SrcModNone;
  RegHalf Half = RegHalf::Full;
  std::optional<int64_t> Imm;
};

} // namespace stinkytofu

#endif
