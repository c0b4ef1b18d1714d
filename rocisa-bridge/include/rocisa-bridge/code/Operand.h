//===- Operand.h - Instruction inputs: registers, numbers, symbols -*- C++ -*-===//
#ifndef ROCISA_BRIDGE_CODE_OPERAND_H
#define ROCISA_BRIDGE_CODE_OPERAND_H

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace rocisa {

/// A run of registers as rocisa writes it: `s5`, `v[4:7]`, `a0`, or by a
/// `.set` name, `s[sgprSrdA]`, `v[vgprValuC+2:vgprValuC+2+3]`.
class RegisterContainer {
public:
  /// \p Type is "s", "v" or "a"; \p Count registers from \p Index.
  RegisterContainer(std::string Type, int Index, int Count = 1)
      : regType(std::move(Type)), regIdx(Index), regNum(Count) {}
  /// Registers named by the `.set` symbol `<type>gpr<Name>` (plus \p Offset).
  RegisterContainer(std::string Type, std::string Name, int Count = 1, int Offset = 0)
      : regType(std::move(Type)), regName(std::move(Name)), regIdx(Offset), regNum(Count) {}

  std::string toString() const;
  bool isNamed() const { return !regName.empty(); }
  /// The register \p I of the run (an error-free view: out of range is the
  /// caller's mistake, reported by MC when the text is assembled).
  RegisterContainer sub(int I, int Count = 1) const {
    RegisterContainer R = *this;
    R.regIdx += I;
    R.regNum = Count;
    return R;
  }
  bool operator==(const RegisterContainer &O) const = default;

  std::string regType;
  std::string regName;
  int regIdx = 0;
  int regNum = 1;
};

inline RegisterContainer sgpr(int Index, int Count = 1) { return {"s", Index, Count}; }
inline RegisterContainer vgpr(int Index, int Count = 1) { return {"v", Index, Count}; }
inline RegisterContainer accvgpr(int Index, int Count = 1) { return {"a", Index, Count}; }
inline RegisterContainer sgpr(std::string Name, int Count = 1) {
  return {"s", std::move(Name), Count};
}
inline RegisterContainer vgpr(std::string Name, int Count = 1) {
  return {"v", std::move(Name), Count};
}

/// Temporary registers a builder may use: \p size registers from \p idx
/// (rocisa's RegisterPoolResource / ContinuousRegister).
struct ContinuousRegister {
  int idx = 0;
  int size = 0;
};

/// What an instruction takes: registers, integers, floats, and text
/// (labels, `.set` symbols, special registers such as `vcc` or `exec`).
using InstructionInput = std::variant<RegisterContainer, int64_t, double, std::string>;

/// How rocisa prints an input: integers in decimal, floats with a decimal
/// point, text as given.
std::string inputToString(const InstructionInput &In);

} // namespace rocisa

#endif
