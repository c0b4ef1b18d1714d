//===- LiveUnitsDataflow.h - Backward liveness of register units -*- C++ -*-===//
//
// The dataflow problem (Dataflow.h) under Liveness and under the callee
// summaries of CallEffectAnalyzer: the register units that may be read
// before being written, per instruction
//   live-before = (live-after - defs) | uses,
// everything live before an opaque instruction, and a call stepped by its
// CallTransfer. What differs between the users is left to the analysis that
// derives from this one (CRTP, like DataflowAnalysis):
//
//   const CallTransfer &callTransfer(const Instruction &Call) const;
//       the transfer of each call of the function;
//   llvm::BitVector exitState(const BasicBlock &BB) const;
//       what is live after a block that leaves the function;
//
// and, optionally, the other hooks of DataflowAnalysis.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_LIVEUNITSDATAFLOW_H
#define STINKYTOFU_ANALYSIS_LIVEUNITSDATAFLOW_H

#include "stinkytofu/analysis/CallEffects.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/BitVector.h"

namespace stinkytofu {

template <typename AnalysisT>
class LiveUnitsDataflow
    : public DataflowAnalysis<AnalysisT, llvm::BitVector, DataflowDirection::Backward> {
public:
  /// Holds a reference to \p RU: use the analysis while it lives.
  LiveUnitsDataflow(const Function &F, const RegisterUnits &RU)
      : DataflowAnalysis<AnalysisT, llvm::BitVector, DataflowDirection::Backward>(F), RU(RU) {}

  const RegisterUnits &units() const { return RU; }

  llvm::BitVector initialState() const { return RU.none(); }
  void join(llvm::BitVector &Into, const llvm::BitVector &From) const { Into |= From; }
  void transfer(const Instruction &I, llvm::BitVector &Live) const {
    for (llvm::MCRegister R : I.facts().Defs)
      RU.reset(Live, R);
    for (llvm::MCRegister R : I.facts().Uses)
      RU.set(Live, R);
  }
  void transferCall(const Instruction &I, llvm::BitVector &Live) const {
    const CallTransfer &T = this->analysis().callTransfer(I);
    Live.reset(T.Kill);
    Live |= T.Gen;
  }
  /// An opaque instruction may read anything.
  void transferOpaque(const Instruction &, llvm::BitVector &Live) const { Live.set(); }

protected:
  const RegisterUnits &RU;
};

} // namespace stinkytofu

#endif
