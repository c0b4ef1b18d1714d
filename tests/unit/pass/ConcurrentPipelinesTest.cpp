//===- ConcurrentPipelinesTest.cpp - Pipelines on several threads at once --===//
//
// The library's promise to a threaded caller (docs/performance.md, "Batch"):
// with one context per module, pipelines running at once on several threads
// give what each gives alone. Eight kernels of eight targets, compiled by
// clang-22 here, each run through the identity, -O3 and the full SQTT
// instrumentation on eight threads, two threads on each target at a time;
// every output (assembly, object, diagnostics) must be the one a run alone
// wrote. The ThreadSanitizer build (scripts/test-tsan.sh) runs this test.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/InstrumentPasses.h"
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "gtest/gtest.h"
#include <thread>

using namespace stinkytofu;

namespace {

struct KernelAndTarget {
  const char *Source; // tests/kernels/<Source>.cl
  const char *Target;
};
// Eight targets of four generations; each kernel exercises a different part
// (calls, loops, LDS and barriers, waits, matrix code, long branches).
constexpr KernelAndTarget Kernels[] = {
    {"calls", "gfx942"},  {"loops", "gfx90a"},        {"memory", "gfx1100"},
    {"waits", "gfx1200"}, {"atomics", "gfx908"},      {"deep_loops", "gfx1030"},
    {"matrix", "gfx950"}, {"long_branches", "gfx900"},
};
constexpr size_t NumKernels = std::size(Kernels);

const std::vector<std::string> Identity;
const char *const FullInstrumentation[] = {
    "LongBranchLoweringPass", "CallTargetRecoveryPass",
    "SQTTInstrumentPass=functions=1,barriers,memory=4:8,loops,scope-cu=-1"};

/// The assembly clang-22 makes of each kernel, compiled into a fresh
/// directory.
class ConcurrentPipelinesTest : public testing::Test {
public:
  static void SetUpTestSuite() {
    llvm::ErrorOr<std::string> Clang = llvm::sys::findProgramByName("clang-22");
    ASSERT_TRUE(bool(Clang)) << "clang-22 is not on PATH (scripts/bootstrap.sh installs it)";
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("stinkytofu-concurrent", Dir));
    for (const KernelAndTarget &K : Kernels) {
      std::string Source = (llvm::Twine(STINKYTOFU_TEST_KERNELS) + "/" + K.Source + ".cl").str();
      std::string Output = (Dir + "/" + K.Source + "-" + K.Target + ".s").str();
      std::string Cpu = std::string("-mcpu=") + K.Target;
      llvm::StringRef Args[] = {*Clang, "-x", "cl", "-cl-std=CL2.0",
                                "--target=amdgcn-amd-amdhsa", Cpu, "-nogpulib", "-O2", "-S",
                                Source, "-o", Output};
      std::string Message;
      ASSERT_EQ(llvm::sys::ExecuteAndWait(*Clang, Args, std::nullopt, {}, 0, 0, &Message), 0)
          << Source << " for " << K.Target << ": " << Message;
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Output);
      ASSERT_TRUE(bool(Text));
      Texts.push_back((*Text)->getBuffer().str());
      llvm::sys::fs::remove(Output);
    }
    llvm::sys::fs::remove(Dir);
  }
  static void TearDownTestSuite() { Texts.clear(); }
  static std::vector<std::string> Texts;
};
std::vector<std::string> ConcurrentPipelinesTest::Texts;

/// Everything one run of \p Specs on kernel \p Index gives: its assembly,
/// its object and what it reported. Each run has a context of its own.
std::string runPipeline(size_t Index, std::vector<std::string> Specs) {
  StinkyTofuContext Ctx;
  std::string Report;
  llvm::raw_string_ostream ReportOS(Report);
  Ctx.setDiagnosticHandler([&](const SourceDiagnostic &D) { ReportOS << D.render(); });
  Ctx.setStatsStream(ReportOS);
  Ctx.setDumpStream(ReportOS);
  PassRegistry &Registry = passRegistry(Ctx);
  registerInstrumentPasses(Registry);

  ReaderOptions Opts;
  Opts.Context = &Ctx;
  const std::string &Text = ConcurrentPipelinesTest::Texts[Index];
  llvm::Expected<std::unique_ptr<Module>> M =
      readAsm(llvm::MemoryBuffer::getMemBufferCopy(Text, Kernels[Index].Source), Opts);
  if (!M)
    return "read error: " + toString(M.takeError());
  endPipelineProven(Specs, Registry);
  PassManager PM(Ctx);
  PM.setVerifier(verifyModule);
  if (llvm::Error E = addPasses(PM, Specs, Registry))
    return "setup error: " + toString(std::move(E));
  AnalysisManager AM;
  if (llvm::Error E = PM.run(**M, AM))
    return Report + "pass error: " + toString(std::move(E));
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (llvm::Error E = writeAsm(**M, OS))
    return Report + "write error: " + toString(std::move(E));
  llvm::Expected<std::string> Object =
      emitObject(**M, [&](const SourceDiagnostic &D) { ReportOS << D.render(); });
  if (!Object)
    return Report + Out + "object error: " + toString(Object.takeError());
  return Report + "--- assembly\n" + Out + "--- object\n" + *Object;
}

std::vector<std::vector<std::string>> pipelines() {
  std::vector<std::vector<std::string>> Result{Identity};
  llvm::Expected<std::vector<std::string>> O3 = standardPipeline(3);
  EXPECT_TRUE(bool(O3)) << toString(O3.takeError());
  Result.push_back(O3 ? *O3 : std::vector<std::string>{});
  Result.emplace_back(std::begin(FullInstrumentation), std::end(FullInstrumentation));
  return Result;
}

TEST_F(ConcurrentPipelinesTest, EightThreadsGiveWhatEightSingleRunsGive) {
  ASSERT_EQ(Texts.size(), NumKernels);
  const std::vector<std::vector<std::string>> Pipelines = pipelines();
  const size_t NumPipelines = Pipelines.size();
  // Expected[k][p]: kernel k through pipeline p, alone.
  std::vector<std::vector<std::string>> Expected(NumKernels);
  for (size_t K = 0; K < NumKernels; ++K)
    for (const std::vector<std::string> &P : Pipelines) {
      Expected[K].push_back(runPipeline(K, P));
      // A run that failed would make the comparison below a comparison of
      // two errors.
      EXPECT_NE(Expected[K].back().find("--- object\n"), std::string::npos)
          << Kernels[K].Source << ": " << Expected[K].back().substr(0, 2000);
    }

  // Thread T runs kernels T and T+1 through every pipeline, the odd threads
  // T+1 first: threads 2k-1 and 2k start on kernel 2k together, then both
  // move on to kernel 2k+1 with thread 2k+1. So two threads work on each
  // target at once (two TargetInfos of it, built at the same time), through
  // different pipelines (each thread starts its own way round).
  std::vector<std::vector<std::string>> Got(NumKernels,
                                            std::vector<std::string>(2 * NumPipelines));
  std::vector<std::thread> Threads;
  for (size_t T = 0; T < NumKernels; ++T)
    Threads.emplace_back([&, T] {
      for (size_t Step = 0; Step < 2; ++Step)
        for (size_t I = 0; I < NumPipelines; ++I) {
          size_t Round = T % 2 ? 1 - Step : Step;
          size_t P = (I + T) % NumPipelines;
          Got[T][Round * NumPipelines + P] = runPipeline((T + Round) % NumKernels, Pipelines[P]);
        }
    });
  for (std::thread &T : Threads)
    T.join();

  for (size_t T = 0; T < NumKernels; ++T)
    for (size_t Round = 0; Round < 2; ++Round)
      for (size_t P = 0; P < NumPipelines; ++P) {
        size_t K = (T + Round) % NumKernels;
        EXPECT_TRUE(Got[T][Round * NumPipelines + P] == Expected[K][P])
            << "thread " << T << ", " << Kernels[K].Source << " for " << Kernels[K].Target
            << ", pipeline " << P;
      }
}

} // namespace
