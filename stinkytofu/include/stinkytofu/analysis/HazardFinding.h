//===- HazardFinding.h - One hazard a kernel does not cover -----*- C++ -*-===//
//
// What every hazard check reports (the s_nop wait-state rules, the ALU
// dependency waits `s_wait_alu`/`s_waitcnt_depctr`, the `s_delay_alu`
// delays): the instruction that must wait, the one it waits for, the rule's
// name and how much is missing. HazardVerifier turns findings into
// `file:line:col` diagnostics; the insertion passes turn them into code.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_HAZARDFINDING_H
#define STINKYTOFU_ANALYSIS_HAZARDFINDING_H

#include "llvm/MC/MCRegister.h"
#include <string>

namespace stinkytofu {

class Instruction;

struct HazardFinding {
  enum class Severity {
    /// The hardware gives a wrong result (a missing wait state or depctr wait).
    Error,
    /// The hardware stalls or the code is slower than it needs to be (a
    /// missing or too strong s_delay_alu).
    Warning,
  };
  /// The instruction that reads (or writes) too early.
  const Instruction *Consumer = nullptr;
  /// The instruction whose result or pipeline state it depends on; null when
  /// the producer lies on another path the check does not name.
  const Instruction *Producer = nullptr;
  /// The rule's name as the hardware model spells it.
  std::string Rule;
  /// Wait states (or VALU slots, for v_nop rules) still missing; 0 when the
  /// fix is a wait instruction rather than a distance.
  unsigned Missing = 0;
  /// What is missing in words: the register, the wait that would fix it.
  std::string Detail;
  /// The register the rule is about, where the check names one (part of
  /// what makes two findings the same, transforms/VerifierFinding.h).
  llvm::MCRegister Register;
  Severity Level = Severity::Error;
};

} // namespace stinkytofu

#endif
