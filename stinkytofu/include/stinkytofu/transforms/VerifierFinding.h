//===- VerifierFinding.h - A verifier's finding, comparable across runs -*- C++ -*-===//
//
// WaitCntVerifier and HazardVerifier report each finding as a
// `file:line:col` error that also carries what the finding is about, in
// terms that survive a pipeline's insertions: the rule, the register units,
// and the consumer's and producer's positions in the input. A pipeline's
// output is judged against its input by these keys (passes/PipelineProof.h),
// never by the message, whose counts and paths change when code is inserted.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_VERIFIERFINDING_H
#define STINKYTOFU_TRANSFORMS_VERIFIERFINDING_H

#include "stinkytofu/support/Diagnostics.h"
#include "llvm/MC/MCRegister.h"
#include <compare>
#include <string>
#include <vector>

namespace stinkytofu {

class Instruction;
class Module;

/// Where an instruction stands in the input; 0:0 for inserted code.
struct InputPosition {
  unsigned Line = 0, Column = 0;
  bool inserted() const { return Line == 0; }
  auto operator<=>(const InputPosition &) const = default;
};

struct FindingKey {
  /// The hazard rule, or the wait reason and its counter ("read vmcnt").
  std::string Rule;
  /// The units of the register the finding is about, ascending; empty when
  /// it names none (a barrier, a return, LDS).
  std::vector<unsigned> Units;
  InputPosition Consumer;
  /// The producer's position; 0:0 also when the finding names none.
  InputPosition Producer;
  /// The consumer, or a producer the finding names, is inserted code: the
  /// input cannot have had it.
  bool Inserted = false;

  auto operator<=>(const FindingKey &) const = default;
};

/// The key of a finding about \p Consumer waiting for \p Producer (may be
/// null) under \p Rule on \p Reg (may be invalid); \p M gives the register
/// units.
FindingKey makeFindingKey(const Module &M, std::string Rule, llvm::MCRegister Reg,
                          const Instruction &Consumer, const Instruction *Producer);

/// A diagnostic at \p Consumer. An inserted consumer has no input position:
/// the diagnostic stands at the original instruction the inserted code is
/// in front of (the nearest one after it in layout order, else before it)
/// and says that the finding is in inserted code.
SourceDiagnostic findingDiagnostic(const Module &M, const Instruction &Consumer,
                                   llvm::SourceMgr::DiagKind Kind, std::string Message);

/// A verifier's error finding: its diagnostic and its key.
class VerifierFindingError
    : public llvm::ErrorInfo<VerifierFindingError, SourceDiagnosticError> {
public:
  static char ID;
  VerifierFindingError(SourceDiagnostic D, FindingKey K)
      : ErrorInfo(std::move(D)), Key(std::move(K)) {}
  const FindingKey &key() const { return Key; }

private:
  FindingKey Key;
};

} // namespace stinkytofu

#endif
