//===- SQTTInstrumentPassTest.cpp - The pass on small modules -------------===//
#include "asm-instrument/InstrumentPasses.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "asm-instrument/sqtt/SQTTInstrumentPass.h"
#include "TestModules.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::sqtt;

namespace {

/// The tests' context: the SQTT pass registered, so the reader keeps its
/// marker pseudo-instructions.
StinkyTofuContext &context() {
  static StinkyTofuContext *Ctx = [] {
    auto *C = new StinkyTofuContext();
    registerInstrumentPasses(passRegistry(*C));
    return C;
  }();
  return *Ctx;
}

std::unique_ptr<Module> readInContext(llvm::StringRef Text, llvm::StringRef Arch) {
  return test::readAsmText(Text, Arch, false, "t.s", &context());
}

/// Runs the pass (no scope check, verifier on) and returns the assembly.
std::string instrument(Module &M, SQTTConfig C, funcmap::FuncMap *Map = nullptr) {
  C.Scope.Cu = ScopeMasks::FullCu;
  C.Verify = true;
  SQTTInstrumentPass P(C);
  P.setContext(context());
  AnalysisManager AM;
  auto PA = P.run(M, AM, PassScope());
  EXPECT_TRUE(bool(PA)) << (PA ? "" : llvm::toString(PA.takeError()));
  if (Map)
    *Map = P.funcMap();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (llvm::Error E = writeAsm(M, OS))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return Out;
}

const char *Vector = "\t.text\n"
                     "marker_kernel:\n"
                     "\tsqtt_marker_enter \"outer\"\n"
                     "\ts_nop 0\n"
                     "\tsqtt_marker_exit \"outer\"\n"
                     "\tsqtt_marker_enter \"inner\"\n"
                     "\ts_mov_b32 s3, 1\n"
                     "\tsqtt_marker_point \"point\"\n"
                     "\tsqtt_marker_data \"data\", s3\n"
                     "\tsqtt_marker_exit \"inner\"\n"
                     "\ts_endpgm\n";

TEST(SQTTInstrumentPassTest, ReferenceUserMarkerVector) {
  auto M = readInContext(Vector, "gfx1100");
  ASSERT_TRUE(M);
  funcmap::FuncMap Map;
  std::string Out = instrument(*M, SQTTConfig(), &Map);
  EXPECT_EQ(Out, "\t.text\n"
                 "marker_kernel:\n"
                 "\ts_ttracedata_imm 0x6\n"
                 "\ts_nop 0\n"
                 "\ts_ttracedata_imm 0xb\n" // fused exit outer + enter inner
                 "\ts_mov_b32 s3, 1\n"
                 "\ts_ttracedata_imm 0xc\n"
                 "\ts_ttracedata_imm 0x10\n"
                 "\ts_mov_b32 m0, s3\n"
                 "\ts_ttracedata\n"
                 "\ts_ttracedata_imm 0x1\n"
                 "\ts_endpgm\n");
  EXPECT_EQ(funcmap::printFuncMap(Map), "K:marker_kernel@t.s:2\n"
                                        "U:1:outer\n"
                                        "U:2:inner\n"
                                        "P:3:point\n"
                                        "P:4:data\n"
                                        "R:4:extra_payload_count=1\n");
}

TEST(SQTTInstrumentPassTest, SavesAndRestoresALiveM0) {
  auto M = readInContext("\t.text\n"
                         "k:\n"
                         "\ts_mov_b32 s4, 1\n"
                         "\ts_mov_b32 m0, s4\n"
                         "\tsqtt_marker_point \"p\"\n"
                         "\ts_movrels_b32 s5, s4\n"
                         "\ts_endpgm\n",
                         "gfx90a");
  ASSERT_TRUE(M);
  std::string Out = instrument(*M, SQTTConfig());
  EXPECT_NE(Out.find("\ts_mov_b32 m0, s4\n"
                     "\ts_mov_b32 s0, m0\n"
                     "\ts_mov_b32 m0, 0x4\n"
                     "\ts_nop 0\n"
                     "\ts_ttracedata\n"
                     "\ts_mov_b32 m0, s0\n"
                     "\ts_nop 0\n"
                     "\ts_movrels_b32 s5, s4\n"),
            std::string::npos)
      << Out;
}

TEST(SQTTInstrumentPassTest, DeadM0IsWrittenWithoutSave) {
  auto M = readInContext("\t.text\n"
                         "k:\n"
                         "\ts_mov_b32 s4, 1\n"
                         "\tsqtt_marker_point \"p\"\n"
                         "\ts_mov_b32 m0, s4\n"
                         "\ts_movrels_b32 s5, s4\n"
                         "\ts_endpgm\n",
                         "gfx942");
  ASSERT_TRUE(M);
  std::string Out = instrument(*M, SQTTConfig());
  EXPECT_NE(Out.find("\ts_mov_b32 s4, 1\n"
                     "\ts_mov_b32 m0, 0x4\n"
                     "\ts_nop 0\n"
                     "\ts_ttracedata\n"
                     "\ts_mov_b32 m0, s4\n"),
            std::string::npos)
      << Out;
}

TEST(SQTTInstrumentPassTest, RefusesRatherThanClobbers) {
  // s4 and s5 are all the SGPRs the function has and both are live.
  auto M = readInContext("\t.text\n"
                         "k:\n"
                         "\ts_mov_b32 s4, 1\n"
                         "\ts_mov_b32 s5, 2\n"
                         "\ts_mov_b32 m0, s4\n"
                         "\tsqtt_marker_point \"p\"\n"
                         "\ts_movrels_b32 s5, s5\n"
                         "\ts_add_u32 s4, s4, s5\n"
                         "\ts_endpgm\n",
                         "gfx942");
  ASSERT_TRUE(M);
  std::string Out = instrument(*M, SQTTConfig());
  // s0 is dead and below s5: the save goes there.
  EXPECT_NE(Out.find("s_mov_b32 s0, m0"), std::string::npos) << Out;

  // Every SGPR is live but VCC is dead: its low half saves M0.
  auto VccFree = readInContext("\t.text\n"
                               "k:\n"
                               "\ts_mov_b32 s0, 1\n"
                               "\ts_mov_b32 s1, 2\n"
                               "\ts_mov_b32 m0, s0\n"
                               "\tsqtt_marker_point \"p\"\n"
                               "\ts_movrels_b32 s1, s1\n"
                               "\ts_add_u32 s0, s0, s1\n"
                               "\ts_endpgm\n",
                               "gfx942");
  ASSERT_TRUE(VccFree);
  Out = instrument(*VccFree, SQTTConfig());
  EXPECT_NE(Out.find("s_mov_b32 vcc_lo, m0"), std::string::npos) << Out;
  EXPECT_NE(Out.find("s_mov_b32 m0, vcc_lo"), std::string::npos) << Out;

  // VCC is live across the site too: nothing is left, so no marker.
  auto Tight = readInContext("\t.text\n"
                             "k:\n"
                             "\ts_mov_b32 s0, 1\n"
                             "\ts_mov_b32 s1, 2\n"
                             "\ts_mov_b64 vcc, 0\n"
                             "\ts_mov_b32 m0, s0\n"
                             "\tsqtt_marker_point \"p\"\n"
                             "\ts_movrels_b32 s1, s1\n"
                             "\ts_add_u32 s0, s0, s1\n"
                             "\ts_add_u32 s0, vcc_lo, vcc_hi\n"
                             "\ts_endpgm\n",
                             "gfx942");
  ASSERT_TRUE(Tight);
  Out = instrument(*Tight, SQTTConfig());
  EXPECT_EQ(Out.find("s_ttracedata"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("sqtt_marker"), std::string::npos) << Out;
}

TEST(SQTTInstrumentPassTest, FunctionEntryAndExitsGoInTogether) {
  // `helper` becomes a function through the call recovery, but it is not
  // declared `.type @function`, and `.globl` lets code outside the module
  // call it: at its return the caller may read any register, so gfx9's M0
  // form of the exit cannot go in, and the entry is left out with it.
  const char *Text = "\t.text\n"
                     "\t.globl helper\n"
                     "k:\n"
                     "\ts_getpc_b64 s[4:5]\n"
                     "\ts_add_u32 s4, s4, helper@rel32@lo+4\n"
                     "\ts_addc_u32 s5, s5, helper@rel32@hi+12\n"
                     "\ts_swappc_b64 s[30:31], s[4:5]\n"
                     "\ts_endpgm\n"
                     "helper:\n"
                     "\ts_mov_b32 s6, 1\n"
                     "\ts_mov_b32 s7, 1\n"
                     "\ts_setpc_b64 s[30:31]\n";
  auto Recover = [](Module &M) {
    auto P = createCallTargetRecoveryPass({});
    ASSERT_TRUE(bool(P));
    AnalysisManager AM;
    auto PA = (*P)->run(M, AM, PassScope());
    ASSERT_TRUE(bool(PA)) << llvm::toString(PA.takeError());
  };
  SQTTConfig C;
  C.FunctionThreshold = 1;
  auto M = readInContext(Text, "gfx942");
  ASSERT_TRUE(M);
  Recover(*M);
  ASSERT_EQ(M->functions().size(), 2u);
  std::string Out = instrument(*M, C);
  EXPECT_EQ(Out.find("s_ttracedata"), std::string::npos) << Out;
  // With the immediate form nothing needs M0.
  auto M11 = readInContext(Text, "gfx1100");
  ASSERT_TRUE(M11);
  Recover(*M11);
  Out = instrument(*M11, C);
  EXPECT_NE(Out.find("helper:\n\ts_ttracedata_imm 0x6\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\ts_ttracedata_imm 0x1\n\ts_setpc_b64 s[30:31]\n"), std::string::npos)
      << Out;
}

} // namespace
