//===- StinkyTofuContextTest.cpp - Registries and reports per context ------===//
//
// What used to be process-wide belongs to a context: two contexts share no
// pass and no pseudo-instruction, and what the reader and the passes report
// reaches the context's handler and streams, not stderr.
//
//===----------------------------------------------------------------------===//
#include "asm-instrument/InstrumentPasses.h"
#include "asm-instrument/sqtt/SQTTInstrumentPass.h"
#include "TestModules.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

/// A pass that does nothing, registered under a test's own name.
class EmptyPass final : public Pass {
public:
  llvm::StringRef name() const override { return "Empty"; }
  llvm::Expected<PreservedAnalyses> run(Module &, AnalysisManager &, const PassScope &) override {
    return PreservedAnalyses::all();
  }
};

llvm::Expected<std::unique_ptr<Pass>> createEmptyPass(const PassArguments &) {
  return std::make_unique<EmptyPass>();
}

llvm::Expected<std::unique_ptr<Module>> readIn(StinkyTofuContext &Ctx, llvm::StringRef Text,
                                               bool AllowUnknown = false) {
  ReaderOptions Opts;
  Opts.Arch = "gfx942";
  Opts.AllowUnknownInstructions = AllowUnknown;
  Opts.Context = &Ctx;
  return readAsm(llvm::MemoryBuffer::getMemBufferCopy(Text, "w.s"), Opts);
}

const char *const MarkedKernel = "\t.text\n"
                                 "k:\n"
                                 "\tsqtt_marker_point \"here\"\n"
                                 "\ts_endpgm\n";

TEST(StinkyTofuContextTest, TwoContextsDoNotSeeEachOthersPasses) {
  StinkyTofuContext Instrumenting, Plain;
  registerInstrumentPasses(passRegistry(Instrumenting));
  passRegistry(Plain).add({"Empty", "does nothing", createEmptyPass});

  // Both have the core passes, each only its own additions.
  EXPECT_NE(passRegistry(Instrumenting).find("CFGBuilder"), nullptr);
  EXPECT_NE(passRegistry(Plain).find("CFGBuilder"), nullptr);
  EXPECT_NE(passRegistry(Instrumenting).find("SQTTInstrumentPass"), nullptr);
  EXPECT_EQ(passRegistry(Instrumenting).find("Empty"), nullptr);
  EXPECT_NE(passRegistry(Plain).find("Empty"), nullptr);
  llvm::Expected<std::unique_ptr<Pass>> P = passRegistry(Plain).create("SQTTInstrumentPass");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(toString(P.takeError()).rfind("unknown pass 'SQTTInstrumentPass'", 0), 0u);
  EXPECT_NE(Instrumenting.passRegistry(), Plain.passRegistry());
}

TEST(StinkyTofuContextTest, PseudoInstructionsOfOneContextAreUnknownInAnother) {
  StinkyTofuContext Instrumenting, Plain;
  registerInstrumentPasses(passRegistry(Instrumenting));
  passRegistry(Plain);
  const PseudoInstructionInfo *Info =
      Instrumenting.pseudoInstructions().find("sqtt_marker_point");
  ASSERT_NE(Info, nullptr);
  EXPECT_EQ(Info->LoweredBy, "SQTTInstrumentPass");
  EXPECT_TRUE(Plain.pseudoInstructions().entries().empty());

  llvm::Expected<std::unique_ptr<Module>> Kept = readIn(Instrumenting, MarkedKernel);
  ASSERT_TRUE(bool(Kept)) << toString(Kept.takeError());
  const Instruction &Marker =
      (*Kept)->functions().front().blocks().front().instructions().front();
  EXPECT_EQ(Marker.kind(), InstKind::Pseudo);
  EXPECT_EQ(Marker.mnemonic(), "sqtt_marker_point");
  // The writer names the lowering pass from the registry it was read with.
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Error Left = writeAsm(**Kept, OS);
  ASSERT_TRUE(bool(Left));
  EXPECT_NE(toString(std::move(Left)).find("SQTTInstrumentPass did not run"), std::string::npos);

  llvm::Expected<std::unique_ptr<Module>> Refused = readIn(Plain, MarkedKernel);
  ASSERT_FALSE(bool(Refused));
  EXPECT_EQ(toString(Refused.takeError()).rfind("w.s:3:2: error: ", 0), 0u);
}

TEST(StinkyTofuContextTest, ReaderWarningsReachTheHandlerAndNotStderr) {
  StinkyTofuContext Ctx;
  std::vector<SourceDiagnostic> Seen;
  Ctx.setDiagnosticHandler([&](const SourceDiagnostic &D) { Seen.push_back(D); });
  testing::internal::CaptureStderr();
  llvm::Expected<std::unique_ptr<Module>> M = readIn(Ctx,
                                                     "\t.text\n"
                                                     "k:\n"
                                                     "\t.warning \"look here\"\n"
                                                     "\tv_no_such_op v0\n"
                                                     "\ts_endpgm\n",
                                                     /*AllowUnknown=*/true);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ASSERT_TRUE(bool(M)) << toString(M.takeError());

  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[0].Kind, llvm::SourceMgr::DK_Warning);
  EXPECT_EQ(Seen[0].File, "w.s");
  EXPECT_EQ(Seen[0].Line, 3u);
  EXPECT_EQ(Seen[0].Column, 2u);
  EXPECT_EQ(Seen[0].Message, "look here");
  EXPECT_TRUE(Seen[0].Notes.empty());
  // The statement MC rejected, kept as opaque: a warning at its line with a
  // note that says what became of it.
  EXPECT_EQ(Seen[1].Kind, llvm::SourceMgr::DK_Warning);
  EXPECT_EQ(Seen[1].Line, 4u);
  EXPECT_EQ(Seen[1].LineText, "\tv_no_such_op v0");
  ASSERT_EQ(Seen[1].Notes.size(), 1u);
  EXPECT_EQ(Seen[1].Notes[0].Kind, llvm::SourceMgr::DK_Note);
  EXPECT_NE(Seen[1].Notes[0].Message.find("kept as an opaque instruction"), std::string::npos);
  // Rendered as the tool always printed it: position, line and caret.
  EXPECT_EQ(Seen[0].render().rfind("w.s:3:2: warning: look here\n", 0), 0u) << Seen[0].render();
  EXPECT_EQ(llvm::StringRef(Seen[0].render()).count('\n'), 3u) << Seen[0].render();

  // The default handler prints exactly that text to stderr.
  StinkyTofuContext Default;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(bool(readIn(Default, "\t.text\nk:\n\t.warning \"look here\"\n\ts_endpgm\n")));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), Seen[0].render());
}

TEST(StinkyTofuContextTest, PassesReportThroughTheContext) {
  StinkyTofuContext Ctx;
  registerInstrumentPasses(passRegistry(Ctx));
  std::string Stats, Dump;
  llvm::raw_string_ostream StatsOS(Stats), DumpOS(Dump);
  Ctx.setStatsStream(StatsOS);
  Ctx.setDumpStream(DumpOS);
  llvm::Expected<std::unique_ptr<Module>> M = readIn(Ctx, MarkedKernel);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());

  PassManager PM(Ctx);
  ASSERT_FALSE(bool(addPasses(
      PM, {"CFGBuilder", "PrintLiveness", "SQTTInstrumentPass=scope-cu=-1,stats"},
      passRegistry(Ctx))));
  AnalysisManager AM;
  testing::internal::CaptureStderr();
  llvm::Error E = PM.run(**M, AM);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ASSERT_FALSE(bool(E)) << toString(std::move(E));
  EXPECT_EQ(Dump.rfind("liveness of @k:\n", 0), 0u) << Dump;
  EXPECT_EQ(Stats.rfind("kernel k: markers 1 (entry 0, exit 0, user 1,", 0), 0u) << Stats;
  EXPECT_NE(Stats.find("\ntotal: markers 1 "), std::string::npos) << Stats;
}

TEST(StinkyTofuContextTest, TheSQTTEnvironmentIsWhatTheDriverHandsOver) {
  StinkyTofuContext Ctx, Other, Invalid;
  registerInstrumentPasses(passRegistry(Ctx), {{"SQTT_INSTRUMENT_MEMORY", "2:5"}});
  registerInstrumentPasses(passRegistry(Other));
  registerInstrumentPasses(passRegistry(Invalid), {{"SQTT_INSTRUMENT_MEMORY", "4"}});
  auto MemoryChunk = [](StinkyTofuContext &C, llvm::StringRef Spec) -> unsigned {
    llvm::Expected<std::unique_ptr<Pass>> P = passRegistry(C).create(Spec);
    if (!P) {
      ADD_FAILURE() << toString(P.takeError());
      return ~0u;
    }
    return static_cast<sqtt::SQTTInstrumentPass &>(**P).config().MemoryChunk;
  };
  EXPECT_EQ(MemoryChunk(Ctx, "SQTTInstrumentPass"), 2u);
  // Arguments win over the environment.
  EXPECT_EQ(MemoryChunk(Ctx, "SQTTInstrumentPass=memory=off"), 0u);
  // The other context's pass sees no environment at all.
  EXPECT_EQ(MemoryChunk(Other, "SQTTInstrumentPass"), 0u);

  llvm::Expected<std::unique_ptr<Pass>> Bad = passRegistry(Invalid).create("SQTTInstrumentPass");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(toString(Bad.takeError())
                .rfind("SQTTInstrumentPass: invalid SQTT_INSTRUMENT_MEMORY='4': expected N:M", 0),
            0u);
}

} // namespace
