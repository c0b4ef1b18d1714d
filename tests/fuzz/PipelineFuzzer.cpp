//===- PipelineFuzzer.cpp - libFuzzer target for the pass pipeline --------===//
//
// Reads every input as `.s` and, when the module verifies, runs what
// stinkytofu-opt runs on a kernel, built from pipeline text the same way:
// the CFG builder, long-branch lowering and call-target recovery, liveness
// of every function, wait insertion (after which the wait-count verifier
// must find nothing missing), then SQTTInstrumentPass with every kind of
// marker and its verifier; the IR verifier after each pass. A pass may
// refuse an input with an error (no free register, a branch out of range,
// ...), but the verifiers must never fail, and what the instrumentation
// produces must write out and read back as assembly.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"
#include "stinkytofu/transforms/PrintLivenessPass.h"
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace stinkytofu;

namespace {

const char *const Analyses = "CFGBuilder,LongBranchLoweringPass,CallTargetRecoveryPass";
const char *const Instrumentation =
    "SQTTInstrumentPass(functions=1,barriers,memory=1:8,verify)";

/// A fresh pass manager per input: passes keep state (the last funcmap).
PassManager pipeline(StringRef Text) {
  PassManagerOptions Opts;
  Opts.VerifyEach = true;
  PassManager PM(fuzz::context(), Opts);
  PM.setVerifier(verifyModule);
  Expected<std::vector<std::string>> Specs = parsePassPipeline(Text);
  fuzz::check(bool(Specs), "the pipeline text does not parse");
  fuzz::check(!addPasses(PM, *Specs, passRegistry(fuzz::context())),
              "the pipeline's passes cannot be built");
  return PM;
}

/// A pass's refusal is fine; a verifier's complaint is a bug.
void checkPassError(Error E) {
  std::string Message = toString(std::move(E));
  bool Verifier = StringRef(Message).contains("verifier failed") ||
                  StringRef(Message).contains("does not verify");
  if (Verifier)
    std::fprintf(stderr, "%s\n", Message.c_str());
  fuzz::check(!Verifier, "a verifier failed after a pass");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Expected<std::unique_ptr<Module>> Read =
      readAsm(fuzz::inputBuffer(Data, Size, "fuzz-input.s"), fuzz::readerOptions());
  if (!Read) {
    consumeError(Read.takeError());
    return 0;
  }
  Module &M = **Read;
  // As stinkytofu-opt --verify-each: an input that does not verify is
  // refused before any pass runs.
  if (Error E = verifyModule(M)) {
    consumeError(std::move(E));
    return 0;
  }
  AnalysisManager AM;
  if (Error E = pipeline(Analyses).run(M, AM)) {
    checkPassError(std::move(E));
    return 0;
  }
  // CFGBuilder ran: every function has a valid CFG.
  if (Error E = printModuleLiveness(M, AM, nulls())) {
    std::fprintf(stderr, "%s\n", toString(std::move(E)).c_str());
    fuzz::check(false, "liveness refused the CFG that CFGBuilder built");
  }
  if (Error E = pipeline("StinkyWaitCntInsertionPass").run(M, AM)) {
    checkPassError(std::move(E));
    return 0;
  }
  if (Error E = pipeline("WaitCntVerifier").run(M, AM)) {
    std::fprintf(stderr, "%s\n", toString(std::move(E)).c_str());
    fuzz::check(false, "the inserted waits do not verify");
  }
  if (Error E = pipeline(Instrumentation).run(M, AM)) {
    checkPassError(std::move(E));
    return 0;
  }

  std::string Asm;
  raw_string_ostream OS(Asm);
  if (Error E = writeAsm(M, OS)) {
    std::string Message = toString(std::move(E));
    // A documented refusal (docs/binary-input.md): an edit between a branch
    // written as words and a target no label can be given for.
    if (StringRef(Message).contains("written as data words"))
      return 0;
    std::fprintf(stderr, "%s\n", Message.c_str());
    fuzz::check(false, "the instrumented module does not write out");
  }
  Expected<std::unique_ptr<Module>> Again =
      readAsm(MemoryBuffer::getMemBufferCopy(Asm, "instrumented.s"), fuzz::readerOptions());
  if (!Again) {
    std::fprintf(stderr, "%s\n", toString(Again.takeError()).c_str());
    fuzz::check(false, "the instrumented assembly does not read back");
  }
  return 0;
}
