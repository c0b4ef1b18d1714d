//===- PipelineProofTest.cpp - Output findings judged against the input ---===//
#include "TestModules.h"
#include "stinkytofu/passes/PipelineProof.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace llvm;

namespace {

const std::vector<std::string> Verifiers = {"WaitCntVerifier", "HazardVerifier"};

// Line 8 reads the carry pair the VALU of line 7 wrote with no wait state
// between (gfx942 needs 2): the input's own hazard.
constexpr const char *Input = R"(	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	v_add_co_u32_e64 v2, s[16:17], v0, v1
	v_addc_co_u32_e64 v3, s[18:19], v4, v5, s[16:17]
	global_load_dword v8, v[0:1], off
	s_waitcnt vmcnt(0)
	v_add_u32_e32 v9, v8, v3
	s_endpgm
)";

struct ProofRun {
  Expected<ProofResult> Result;
  unsigned InputReads;
};

/// Proves the module of \p OutputText against Input.
ProofRun prove(StringRef OutputText) {
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> Output = test::readAsmText(OutputText, "", false, "k.s", &Ctx);
  unsigned Reads = 0;
  AnalysisManager AM;
  Expected<ProofResult> Result = proveAgainstInput(
      *Output, AM, Verifiers, passRegistry(Ctx), {}, Ctx,
      [&]() -> Expected<std::unique_ptr<Module>> {
        ++Reads;
        return test::readAsmText(Input, "", false, "k.s", &Ctx);
      });
  return {std::move(Result), Reads};
}

TEST(PipelineProofTest, FindingsTheInputHadAreNoErrors) {
  ProofRun R = prove(Input);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  EXPECT_TRUE(R.Result->NewFindings.empty());
  EXPECT_EQ(R.Result->InputFindings, 1u);
  EXPECT_EQ(R.InputReads, 1u);
}

TEST(PipelineProofTest, AFindingTheInputDidNotHaveIsNew) {
  // The load's wait gone (a nop keeps the lines): v8 is read too early.
  std::string Output = Input;
  Output.replace(Output.find("s_waitcnt vmcnt(0)"), 18, "s_nop 0");
  ProofRun R = prove(Output);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  ASSERT_EQ(R.Result->NewFindings.size(), 1u);
  EXPECT_EQ(R.Result->NewFindings[0].Line, 11u);
  EXPECT_NE(R.Result->NewFindings[0].Message.find("v8 read before the global_load_dword"),
            std::string::npos);
  EXPECT_EQ(R.Result->InputFindings, 1u) << "the input's hazard is still excused";
}

TEST(PipelineProofTest, TheInputIsReadOnlyWhenTheOutputHasFindings) {
  // Two wait states between the carry pair's writer and reader.
  std::string Output = Input;
  Output.replace(Output.find("\tv_addc"), 0, "\ts_nop 1\n");
  ProofRun R = prove(Output);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  EXPECT_TRUE(R.Result->NewFindings.empty());
  EXPECT_EQ(R.Result->InputFindings, 0u);
  EXPECT_EQ(R.InputReads, 0u);
}

} // namespace
