//===- DumpStinkyModulePass.cpp - Print the module as .stir ---------------===//
#include "stinkytofu/passes/DumpStinkyModulePass.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu {
namespace {

class DumpStinkyModulePass final : public Pass {
public:
  explicit DumpStinkyModulePass(bool ToStdout) : ToStdout(ToStdout) {}
  StringRef name() const override { return "DumpStinkyModulePass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    raw_ostream &OS = ToStdout ? outs() : context().dumpStream();
    writeStir(M, OS);
    OS.flush();
    return PreservedAnalyses::all();
  }

private:
  bool ToStdout;
};

} // namespace

Expected<std::unique_ptr<Pass>> createDumpStinkyModulePass(const PassArguments &Args) {
  bool Stdout = false, SsaForm = false, SsaLive = false;
  if (Error E = parseFlagArguments(
          Args, {{"stdout", &Stdout}, {"ssaForm", &SsaForm}, {"ssaLive", &SsaLive}}))
    return std::move(E);
  for (auto [Asked, Name] : {std::pair{SsaForm, "ssaForm"}, std::pair{SsaLive, "ssaLive"}})
    if (Asked)
      return createStringError(inconvertibleErrorCode(),
                               Twine("the '") + Name +
                                   "' form is not supported: StinkyTofu has no SSA form of "
                                   "the IR; only the .stir dump (and 'stdout') is");
  return std::make_unique<DumpStinkyModulePass>(Stdout);
}

} // namespace stinkytofu
