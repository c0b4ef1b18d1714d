//===- PassManager.cpp - Running a pipeline of passes ---------------------===//
#include "stinkytofu/pass/PassManager.h"
#include "llvm/Support/Format.h"
#include <chrono>

using namespace llvm;

namespace stinkytofu {

Error PassManager::run(Module &M, AnalysisManager &AM, const PassScope &Scope) {
  std::vector<std::pair<std::string, double>> Times;
  Failed.reset();
  for (size_t Index = 0; Index < Passes.size(); ++Index) {
    Pass *P = Passes[Index].get();
    auto Start = std::chrono::steady_clock::now();
    Scope.Inside.reset(); // the previous pass may have added or removed instructions
    Expected<PreservedAnalyses> PA = P->run(M, AM, Scope);
    if (!PA) {
      Failed = Index;
      return PA.takeError();
    }
    AM.invalidateAll(*PA);
    Times.emplace_back(P->name().str(),
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
                           .count());
    if (Opts.PrintAfterAll && Print) {
      Ctx.dumpStream() << "# *** IR after " << P->name() << " ***\n";
      Print(M, Ctx.dumpStream());
    }
    if (Opts.VerifyEach && Verify)
      if (Error E = Verify(M))
        return createStringError(inconvertibleErrorCode(),
                                 "verifier failed after " + P->name() + ": " +
                                     toString(std::move(E)));
  }
  if (Opts.TimePasses && Opts.TimingStream) {
    double Total = 0;
    for (auto &[Name, Seconds] : Times)
      Total += Seconds;
    raw_ostream &OS = *Opts.TimingStream;
    OS << "===-------------------------------------------------------------------------===\n"
       << "                          Pass execution timing report\n"
       << "===-------------------------------------------------------------------------===\n"
       << format("  Total Execution Time: %.4f seconds\n\n", Total)
       << "   ---Wall Time---  --- Name ---\n";
    for (auto &[Name, Seconds] : Times)
      OS << format("   %.4f (%5.1f%%)  ", Seconds, Total > 0 ? 100 * Seconds / Total : 0.0)
         << Name << "\n";
    OS << format("   %.4f (100.0%%)  Total\n", Total);
  }
  return Error::success();
}

} // namespace stinkytofu
