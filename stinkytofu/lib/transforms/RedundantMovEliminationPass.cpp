//===- RedundantMovEliminationPass.cpp - Delete repeated computations -----===//
#include "stinkytofu/transforms/RedundantMovEliminationPass.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/transforms/DeadCodeEliminationPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {
namespace {

/// An earlier instruction whose result is still in its destination.
struct Available {
  std::string Key;      ///< mnemonic and operands as written
  BitVector Touched;    ///< units it reads or writes
};

/// The statement without its comment: what makes two instructions the same.
std::string keyOf(const Instruction &I) {
  std::string Key = I.mnemonic().str();
  for (const Operand &Op : I.operands())
    Key += "\x1f" + Op.spelling().str();
  return Key;
}

class RedundantMovEliminationPass final : public Pass {
public:
  StringRef name() const override { return "RedundantMovEliminationPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                  const PassScope &Scope) override {
    RegisterUnits RU(M.target());
    std::vector<Instruction *> Doomed;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks()) {
        std::vector<Available> Avail;
        for (BlockItem &Item : BB.items()) {
          Instruction *I = trackedInstruction(Item);
          if (!I) {
            Avail.clear();
            continue;
          }
          BitVector Reads = RU.none(), Writes = RU.none();
          for (MCRegister R : I->facts().Uses)
            RU.set(Reads, R);
          for (MCRegister R : I->facts().Defs)
            RU.set(Writes, R);
          // An instruction that reads no register (s_getpc_b64, a clock
          // read) may give another value each time, unless it is a copy of
          // a constant.
          bool Pure = onlyWritesRegisters(M.target(), *I) && !Reads.anyCommon(Writes) &&
                      (Reads.any() || HardwareModel::roleOf(I->mnemonic()) == InstRole::Move32);
          std::string Key = Pure ? keyOf(*I) : std::string();
          if (Pure && isRewritable(M, Scope, *I) &&
              any_of(Avail, [&](const Available &A) { return A.Key == Key; })) {
            Doomed.push_back(I); // its writes change nothing
            continue;
          }
          llvm::erase_if(Avail, [&](const Available &A) { return A.Touched.anyCommon(Writes); });
          if (Pure) {
            Reads |= Writes;
            Avail.push_back({std::move(Key), std::move(Reads)});
          }
        }
      }
    return eraseAndReport(Doomed);
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createRedundantMovEliminationPass(const PassArguments &Args) {
  return createArgumentlessPass<RedundantMovEliminationPass>(Args);
}

} // namespace stinkytofu
