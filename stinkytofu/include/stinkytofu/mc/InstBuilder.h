//===- InstBuilder.h - Creating instructions without re-parsing --*- C++ -*-===//
//
// How passes create instructions. An instruction is described by its
// mnemonic and typed operands (registers by file, index and width,
// immediates, labels, expressions of labels, waitcnt / depctr / delay-ALU
// fields, hardware registers, source modifiers (`-|v1|`), the memory scope
// `scope:SCOPE_SE`, and modifier text such as `offset:16`); LLVM MC still decides what it means, but once per shape, not
// once per instruction:
//   - the first instruction of a shape (mnemonic, and per operand its kind,
//     register file and width, immediate class, label or exact text) is
//     assembled with placeholder values that are distinct per operand, so
//     each typed operand is found in the MC instruction (a prototype);
//   - every further instruction of that shape is a copy of the prototype with
//     its registers, immediates, labels and expressions patched into the MC
//     operands directly: no text, no parser, no new source buffer.
// An expression (`(L-.Lpost_getpc0)&4294967295`, an offset between labels)
// is an MCExpr the caller builds with MC in the module's context
// (InstBuilder::labelDifference, MCBinaryExpr); MC's printer spells it.
// A shape whose operands cannot be found that way (MC transformed a value),
// or whose text operands name symbols, is assembled from its concrete text,
// in the module's context, each time it is built: a result is never a guess
// and never points into the builder.
//
// Prototypes are assembled in the builder's own MC context: building never
// defines a label or a `.set` symbol of the module. Label operands refer to
// (undefined until placed) symbols of the module's context. A module built
// without text gets an assembler for its target from the builder, so a whole
// module can be built, printed and assembled without reading a file.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_INSTBUILDER_H
#define STINKYTOFU_MC_INSTBUILDER_H

#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MCContext;
class MCExpr;
} // namespace llvm

namespace stinkytofu {

class AssemblerState;

/// Builds an instruction from one line of assembly in the module's context
/// (its symbols are known), assembling it anew: it has no source text and
/// prints in the file's style. InstBuilder::parse does the same once per
/// distinct text.
llvm::Expected<Instruction> createInstruction(Module &M, llvm::StringRef Text);

/// `s_waitcnt` counter fields (gfx9-gfx11); a field left empty is not
/// written, which MC encodes as "no wait" on that counter.
struct WaitcntFields {
  std::optional<unsigned> VmCnt, ExpCnt, LgkmCnt;
};

/// `s_waitcnt_depctr` (gfx10-gfx11) / `s_wait_alu` (gfx12+) fields: the
/// counts of outstanding ALU results an instruction waits for; a field left
/// empty is not waited on.
struct DepCtrFields {
  std::optional<unsigned> VaVdst, VaSdst, VaSsrc, VaVcc, SaSdst, VmVsrc, HoldCnt;
};

/// `s_delay_alu` (gfx11+): which earlier instruction the next one (and,
/// \c Skip instructions later, a second one) depends on.
enum class AluDependency : uint8_t {
  NoDep,
  ValuDep1, ValuDep2, ValuDep3, ValuDep4,
  Trans32Dep1, Trans32Dep2, Trans32Dep3,
  FmaAccumCycle1,
  SaluCycle1, SaluCycle2, SaluCycle3,
};
struct DelayAluFields {
  AluDependency First = AluDependency::NoDep;
  /// Instructions between the first and the second dependent one: 0 for the
  /// same instruction, 1 for the next, up to 5 (`SKIP_4`).
  unsigned Skip = 0;
  AluDependency Second = AluDependency::NoDep;
};

/// The scope of a memory instruction (gfx12+ `scope:SCOPE_SE`): which
/// caches it reaches through.
enum class MemoryScope : uint8_t { CU, SE, DEV, SYS };

/// One operand of an instruction to build: what it is, not how it is written.
class BuildOperand {
public:
  enum class Kind : uint8_t { Register, Special, Immediate, Label, Expression, Modifier, Text };

  /// `s4`, `v[0:3]`, `a7`, `ttmp[4:5]`: \p Count registers from \p First.
  static BuildOperand reg(RegFile File, unsigned First, unsigned Count = 1);
  static BuildOperand sgpr(unsigned First, unsigned Count = 1) {
    return reg(RegFile::SGPR, First, Count);
  }
  static BuildOperand vgpr(unsigned First, unsigned Count = 1) {
    return reg(RegFile::VGPR, First, Count);
  }
  static BuildOperand agpr(unsigned First, unsigned Count = 1) {
    return reg(RegFile::AGPR, First, Count);
  }
  /// exec, exec_lo, vcc, m0, scc, null, off ...
  static BuildOperand special(llvm::StringRef Name);
  static BuildOperand imm(int64_t Value);
  /// An immediate written in hex: `0x1F` as LLVM writes wait counts, or
  /// with \p LowerCase `0x1f`.
  static BuildOperand hexImm(uint64_t Value, bool LowerCase = false);
  static BuildOperand label(llvm::StringRef Name);
  /// The register \p Reg of \p TI: a register of the four files as
  /// reg(), any other (`vcc_lo`, `m0`, `exec`) as special().
  static BuildOperand mcReg(llvm::MCRegister Reg, const TargetInfo &TI);
  /// Written as given: modifiers (`offset:16`, `glc`), floats.
  static BuildOperand text(llvm::StringRef Spelling);
  /// The field of a hardware register that `s_getreg_b32` / `s_setreg_b32`
  /// read or write: `hwreg(HW_REG_HW_ID, 8, 4)` (\p Name as the assembler
  /// names it).
  static BuildOperand hwreg(llvm::StringRef Name, unsigned Offset, unsigned Width);
  /// The whole hardware register \p Name: `hwreg(HW_REG_WAVE_SCHED_MODE)`.
  static BuildOperand hwreg(llvm::StringRef Name);
  /// The modifier `scope:SCOPE_SE`, written after the operand before it
  /// without a comma.
  static BuildOperand scope(MemoryScope S);
  /// The one operand of `s_waitcnt`: `vmcnt(0) lgkmcnt(1)`.
  static BuildOperand waitcnt(const WaitcntFields &Fields);
  /// The one operand of `s_waitcnt_depctr` / `s_wait_alu`:
  /// `depctr_va_vdst(0) depctr_sa_sdst(0)`.
  static BuildOperand depctr(const DepCtrFields &Fields);
  /// The one operand of `s_delay_alu`:
  /// `instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)`.
  static BuildOperand delayAlu(const DelayAluFields &Fields);
  /// The operand \p O of an instruction: typed when its spelling is the
  /// typed one (a register, a decimal immediate), else as spelled.
  static BuildOperand copyOf(const Operand &O);
  /// This register operand with source modifiers (a mask of SourceModifier):
  /// `-v1`, `|v1|`, `-|v1|`, `sext(v1)`.
  BuildOperand withSourceModifiers(unsigned Mask) const;

  Kind kind() const { return K; }
  RegFile regFile() const { return File; }
  unsigned first() const { return First; }
  unsigned count() const { return Count; }
  int64_t immediate() const { return Value; }
  llvm::StringRef name() const { return Name; }
  /// Expression: in the module's MC context.
  const llvm::MCExpr *expression() const { return Expr; }
  unsigned sourceModifiers() const { return Mods; }

  /// How the operand is written in assembly.
  std::string spelling() const;
  /// Appends what tells this operand from every other (appendSpecKey).
  void appendKey(llvm::SmallVectorImpl<char> &Key) const;

private:
  friend class InstBuilder;
  /// \p E as MC spells it (InstBuilder::expression).
  static BuildOperand expression(const llvm::MCExpr *E, std::string Spelling);

  Kind K = Kind::Text;
  RegFile File = RegFile::None;
  unsigned First = 0, Count = 0;
  uint8_t Mods = SrcModNone; ///< Register
  bool Hex = false;          ///< Immediate
  bool LowerHex = false;     ///< Immediate, with Hex
  int64_t Value = 0;
  const llvm::MCExpr *Expr = nullptr; ///< Expression
  std::string Name; ///< Special, Label, Modifier, Text; Expression: as MC prints it
};

/// A mnemonic and its operands.
struct InstSpec {
  std::string Mnemonic;
  std::vector<BuildOperand> Operands;
};

/// The wait instruction \p W (CounterModel::waitStatements) to build.
InstSpec waitSpec(const WaitStatement &W);

/// A statement the hardware model writes out (HardwareModel.td: `s_nop 4`,
/// `s_wait_alu depctr_va_sdst(0)`): its mnemonic, and its operands as MC
/// reads them.
InstSpec modelStatementSpec(llvm::StringRef Statement);

/// Appends to \p Key what tells the instruction \p Mnemonic \p Operands
/// from every other: two specs with equal keys build equal instructions.
void appendSpecKey(llvm::StringRef Mnemonic, llvm::ArrayRef<BuildOperand> Operands,
                   llvm::SmallVectorImpl<char> &Key);

class InstBuilder {
public:
  /// A builder for \p M. A module without an assembler (built without
  /// text) gets one for its target here.
  explicit InstBuilder(Module &M);
  ~InstBuilder();
  InstBuilder(const InstBuilder &) = delete;
  InstBuilder &operator=(const InstBuilder &) = delete;

  /// The instruction \p Mnemonic \p Operands; an error naming the statement
  /// when MC rejects it. An instruction built before (but for branches) is
  /// copied, its details shared until either copy changes them
  /// (Instruction::clone), as parse() copies a text seen before.
  llvm::Expected<Instruction> build(llvm::StringRef Mnemonic,
                                    llvm::ArrayRef<BuildOperand> Operands);
  llvm::Expected<Instruction> build(const InstSpec &Spec) {
    return build(Spec.Mnemonic, Spec.Operands);
  }
  /// Builds every spec, assembling the prototypes of all new shapes together
  /// in one source buffer with one parser run.
  llvm::Expected<std::vector<Instruction>> buildAll(llvm::ArrayRef<InstSpec> Specs);

  /// One statement of assembly text, assembled in the module's context (its
  /// `.set` symbols are known); texts seen before are copied, not parsed.
  llvm::Expected<Instruction> parse(llvm::StringRef Statement);

  // --- Editing an instruction in place ------------------------------------
  // Both keep the instruction's place, comments and source location, and
  // re-derive its MC instructions and facts from the new operands, so that
  // operands, MC and facts never disagree. On error the instruction is left
  // as it was.

  /// Gives \p I (same mnemonic) the typed \p Operands: `s_waitcnt`'s fields
  /// are edited with `{BuildOperand::waitcnt(...)}`.
  llvm::Error rewrite(Instruction &I, llvm::ArrayRef<BuildOperand> Operands);
  /// Gives \p I the spelled \p Operands, assembled in the module's context
  /// (its `.set` symbols known).
  llvm::Error setOperands(Instruction &I, std::vector<Operand> Operands);

  // --- Expressions of labels ---------------------------------------------
  // Built with MC (MCBinaryExpr, MCConstantExpr) in context(), the
  // module's MC context, where the labels are.

  /// The module's MC context, where operand expressions are built.
  llvm::MCContext &context() const;
  /// `Plus-Minus`, or with \p Addend `Plus-Minus+Addend`: the distance
  /// between two labels of the module.
  const llvm::MCExpr *labelDifference(llvm::StringRef Plus, llvm::StringRef Minus,
                                      int64_t Addend = 0) const;
  /// The operand that is the value of \p E (built in context()), spelled
  /// by MC's printer.
  BuildOperand expression(const llvm::MCExpr *E) const;

  /// The one operand of \p Mnemonic (`s_wait_alu`, `s_waitcnt_depctr`)
  /// waiting on \p Fields, written as LLVM's printer writes it: its own
  /// field order, fields at their default left out
  /// (`depctr_sa_sdst(0) depctr_va_sdst(0)`).
  llvm::Expected<BuildOperand> printedDepctr(llvm::StringRef Mnemonic,
                                             const DepCtrFields &Fields);

  Module &module() const { return M; }

  /// How many statements MC assembled so far (prototypes, texts, and
  /// instances of shapes that cannot be patched).
  unsigned statementsAssembled() const { return Assembled; }

private:
  struct Prototype;
  llvm::Expected<const Prototype *> prototypeFor(llvm::StringRef Mnemonic,
                                                 llvm::ArrayRef<BuildOperand> Operands);
  llvm::Error assemblePrototypes(llvm::ArrayRef<const InstSpec *> Specs);
  Prototype makePrototype(llvm::StringRef Mnemonic, llvm::ArrayRef<BuildOperand> Placeholders,
                          llvm::SmallVector<llvm::MCInst, 1> Insts);
  llvm::Expected<Instruction> instantiate(const Prototype &P, llvm::StringRef Mnemonic,
                                          llvm::ArrayRef<BuildOperand> Operands);
  Instruction describe(llvm::StringRef Mnemonic, llvm::ArrayRef<BuildOperand> Operands,
                       InstKind Kind) const;
  /// \p Text assembled in \p In: the builder's scratch state for
  /// prototypes, the module's for instructions the module keeps.
  llvm::Expected<llvm::SmallVector<llvm::MCInst, 1>> assembleText(llvm::StringRef Text,
                                                                  ModuleAssembler &In);

  Module &M;
  const TargetInfo &Target;
  /// Prototypes are assembled here, away from the module's symbols (texts
  /// given to parse() in the module's context).
  std::unique_ptr<AssemblerState> Scratch;
  llvm::StringMap<std::unique_ptr<Prototype>> Shapes;
  llvm::StringMap<Instruction> Texts;
  /// Every instruction built from a patchable shape without a label, by
  /// appendSpecKey.
  llvm::StringMap<Instruction> Built;
  unsigned Assembled = 0;
};

} // namespace stinkytofu

#endif
