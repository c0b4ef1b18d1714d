//===- StinkyModule.cpp - A converted kernel and what it can do ---------===//
#include "rocisa-bridge/convert/StinkyModule.h"
#include "asm-instrument/InstrumentPasses.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/stir/StirWriter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

namespace rocisa {

StinkyModule::StinkyModule() : Ctx(std::make_unique<StinkyTofuContext>()) {
  registerInstrumentPasses(passRegistry(*Ctx));
}

// The module refers to its context's registries: it goes first.
StinkyModule::~StinkyModule() { M.reset(); }

Error StinkyModule::run(const std::vector<std::string> &Specs) {
  PassManagerOptions Opts;
  Opts.VerifyEach = true;
  PassManager PM(*Ctx, Opts);
  PM.setVerifier(verifyModule);
  if (Error E = addPasses(PM, Specs, passRegistry(*Ctx)))
    return E;
  AnalysisManager AM;
  return PM.run(*M, AM);
}

Error StinkyModule::runPasses(StringRef Pipeline) {
  Expected<std::vector<std::string>> Specs = parsePassPipeline(Pipeline);
  if (!Specs)
    return Specs.takeError();
  return run(*Specs);
}

Expected<std::vector<std::string>> StinkyModule::optimizationPipeline(unsigned Level) const {
  Expected<std::vector<std::string>> Specs = standardPipeline(Level);
  if (!Specs)
    return Specs.takeError();
  std::vector<std::string> &P = *Specs;
  auto Find = [&](StringRef Name) {
    return llvm::find_if(P, [&](StringRef Spec) { return Spec.split('=').first == Name; });
  };
  auto InsertBefore = [&](StringRef Name, std::string Spec) {
    P.insert(Find(Name), std::move(Spec));
  };
  if (!Options.WaitCntInsertion)
    llvm::erase_if(P, [](StringRef Spec) {
      return Spec == "StinkyRemoveWaitCntPass" || Spec == "StinkyWaitCntInsertionPass";
    });
  // The reference's region pipeline repairs the windows its wait insertion
  // overfilled right after that insertion (and RemoveDscntPass), where the
  // scheduler ran.
  if (Options.WaitRepairSlots > 0 && Level >= 2)
    InsertBefore("TDMInflightGuardPass", "WaitAwareScheduleRepairPass=kSlotsToMovePastAnchor=" +
                                             std::to_string(Options.WaitRepairSlots));
  // Cluster barriers: after the waits and their repair, before the TDM
  // passes and InsertVgprMsbPass (the reference's steps 6 to 11). No
  // targets= here: asked for on a target without clusters, the pass fails
  // naming the pass and the target.
  if (Options.ClusterBarrierArgs)
    InsertBefore("TDMInflightGuardPass",
                 "InsertClusterBarrierPass" + (Options.ClusterBarrierArgs->empty()
                                                   ? ""
                                                   : "=" + *Options.ClusterBarrierArgs));
  if (Options.TDMInflightLimit)
    *Find("TDMInflightGuardPass") =
        "TDMInflightGuardPass=targets=gfx1250,limit=" + std::to_string(*Options.TDMInflightLimit);
  auto Prefetch = Find("SwInstructionPrefetchRelDynamicPass");
  if (Options.SwInstructionPrefetch && *Options.SwInstructionPrefetch)
    *Prefetch = "SwInstructionPrefetchRelDynamicPass";
  else if (Options.SwInstructionPrefetch)
    P.erase(Prefetch);
  // The reference deletes last, after its size accounting; here before the
  // hazard repair, so that what comes together where instructions went
  // gets its wait states, and the size is that of the final code (the same
  // divergence as the -O pipeline's other inserting passes, docs/passes.md).
  if (!Options.RemoveInstructions.empty())
    InsertBefore("HazardRecognizerPass", "RemoveInstructionPass=" + Options.RemoveInstructions);
  return std::move(*Specs);
}

Error StinkyModule::runOptimizationPipeline(std::optional<unsigned> Level) {
  Expected<std::vector<std::string>> Specs = optimizationPipeline(Level.value_or(Options.OptLevel));
  if (!Specs)
    return Specs.takeError();
  return run(*Specs);
}

Expected<std::string> StinkyModule::emitAssembly() const {
  std::string Text;
  raw_string_ostream OS(Text);
  if (Error E = writeAsm(*M, OS))
    return std::move(E);
  return Text;
}

std::string StinkyModule::emitStir() const {
  std::string Text;
  raw_string_ostream OS(Text);
  writeStir(*M, OS);
  return Text;
}

Expected<std::string> StinkyModule::emitObject() const {
  return stinkytofu::emitObject(*M, [this](const SourceDiagnostic &D) { Ctx->diagnose(D); });
}

std::vector<std::string> StinkyModule::getFunctionNames() const {
  std::vector<std::string> Names;
  for (const Function *F : M->functionsInPrintOrder())
    Names.push_back(F->name().str());
  return Names;
}

bool StinkyModule::hasFunction(StringRef Name) const {
  return const_cast<stinkytofu::Module &>(*M).findFunction(Name) != nullptr;
}

Expected<std::unique_ptr<StinkyModule>>
readStinkyModule(StringRef Text, StringRef Arch, StringRef Name,
                 decltype(ReaderOptions::MapPosition) MapPosition) {
  auto SM = std::make_unique<StinkyModule>();
  ReaderOptions Opts;
  Opts.Arch = Arch.str();
  Opts.Context = &SM->context();
  Opts.MapPosition = std::move(MapPosition);
  Expected<std::unique_ptr<stinkytofu::Module>> M =
      readAsm(MemoryBuffer::getMemBufferCopy(Text, Name), Opts);
  if (!M)
    return M.takeError();
  if (!Name.empty())
    (*M)->setName(Name.str());
  SM->setModule(std::move(*M));
  return SM;
}

} // namespace rocisa
