//===- RemoveDscntPass.cpp - Delete provably redundant s_wait_dscnt -------===//
#include "stinkytofu/transforms/RemoveDscntPass.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

/// N of `s_wait_dscnt N`: a wait on dscnt alone. (MC reads the combined
/// waits only as raw immediates and names no field in them; they only lower
/// the counter, so passing over them keeps a bound valid.)
std::optional<unsigned> dscntWait(const Module &M, const Instruction &I) {
  SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(I.mnemonic());
  if (Counters.size() != 1 || Counters[0] != "dscnt")
    return std::nullopt;
  std::optional<int64_t> Imm = writtenImmediate(I, M.target(), 0);
  return Imm ? std::optional<unsigned>(unsigned(*Imm)) : std::nullopt;
}

class RemoveDscntPass final : public Pass {
public:
  StringRef name() const override { return "RemoveDscntPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    std::vector<Instruction *> Doomed;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks()) {
        // At most Bound DS operations are outstanding here, when known.
        std::optional<unsigned> Bound;
        for (BlockItem &Item : BB.items()) {
          Instruction *I = trackedInstruction(Item);
          if (!I) {
            Bound.reset();
            continue;
          }
          if (std::optional<unsigned> N = dscntWait(M, *I)) {
            if (Bound && *N >= *Bound && isRewritable(M, Scope, *I)) {
              Doomed.push_back(I);
              continue;
            }
            Bound = Bound ? std::min(*Bound, *N) : *N;
            continue;
          }
          if (Bound && mayCountOnDscnt(M, *I))
            ++*Bound;
        }
      }
    return eraseAndReport(Doomed);
  }

private:
  /// Any memory access but a scalar one may be counted by dscnt.
  static bool mayCountOnDscnt(const Module &M, const Instruction &I) {
    const InstrFacts &F = I.facts();
    if (!F.has(IF_MayLoad) && !F.has(IF_MayStore))
      return false;
    return M.target().hardware().classify(I.mnemonic()).Name != "SMEM";
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createRemoveDscntPass(const PassArguments &Args) {
  return createArgumentlessPass<RemoveDscntPass>(Args);
}

} // namespace stinkytofu
