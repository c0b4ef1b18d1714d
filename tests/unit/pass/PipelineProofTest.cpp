//===- PipelineProofTest.cpp - Output findings judged against the input ---===//
#include "TestModules.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/passes/PipelineProof.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

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
  llvm::Expected<ProofResult> Result;
  unsigned InputReads;
};

/// Proves \p Output against Input.
ProofRun prove(Module &Output, StinkyTofuContext &Ctx) {
  unsigned Reads = 0;
  AnalysisManager AM;
  llvm::Expected<ProofResult> Result = proveAgainstInput(
      Output, AM, Verifiers, passRegistry(Ctx), {}, Ctx,
      [&]() -> llvm::Expected<std::unique_ptr<Module>> {
        ++Reads;
        return test::readAsmText(Input, "", false, "k.s", &Ctx);
      });
  return {std::move(Result), Reads};
}

/// Proves the module of \p OutputText against Input.
ProofRun prove(llvm::StringRef OutputText) {
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> Output = test::readAsmText(OutputText, "", false, "k.s", &Ctx);
  return prove(*Output, Ctx);
}

/// Input as a pipeline would leave it after inserting \p Texts before its
/// \p N-th instruction (0-based): the inserted instructions have no input
/// position, the others keep theirs while their output lines move.
struct Inserted {
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M = test::readAsmText(Input, "", false, "k.s", &Ctx);
  Inserted(unsigned N, std::initializer_list<llvm::StringRef> Texts) {
    BasicBlock &BB = M->functions().front().blocks().front();
    auto It = BB.instructions().begin();
    std::advance(It, N);
    for (llvm::StringRef Text : Texts) {
      llvm::Expected<Instruction> I = createInstruction(*M, Text);
      EXPECT_TRUE(static_cast<bool>(I)) << toString(I.takeError());
      BB.insert(It, std::move(*I));
    }
  }
};

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

TEST(PipelineProofTest, AnInputFindingIsRecognisedAfterInsertionsMoveIt) {
  // Two instructions at the top move every line down by two, and one wait
  // state between the carry pair's writer and reader changes the message
  // (1 more wait state instead of 2): the finding is the input's still.
  Inserted Out(0, {"s_nop 0", "v_mov_b32_e32 v20, 0"});
  BasicBlock &BB = Out.M->functions().front().blocks().front();
  llvm::Expected<Instruction> Nop = createInstruction(*Out.M, "s_nop 0");
  ASSERT_TRUE(static_cast<bool>(Nop));
  BB.insert(std::next(BB.instructions().begin(), 3), std::move(*Nop));
  ProofRun R = prove(*Out.M, Out.Ctx);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  EXPECT_TRUE(R.Result->NewFindings.empty());
  EXPECT_EQ(R.Result->InputFindings, 1u);
}

TEST(PipelineProofTest, AnInputFindingIsRecognisedWhenItsProducerWasRewritten) {
  // A pass rewrote the carry pair's writer (another source operand), which
  // keeps its input position: the message quotes the new text, the key is
  // the same.
  Inserted Out(0, {});
  BasicBlock &BB = Out.M->functions().front().blocks().front();
  Instruction &Old = *BB.instructions().begin();
  llvm::Expected<Instruction> New =
      createInstruction(*Out.M, "v_add_co_u32_e64 v2, s[16:17], v0, v11");
  ASSERT_TRUE(static_cast<bool>(New));
  New->setLocation(Old.location());
  BB.insert(Old.getIterator(), std::move(*New));
  Old.eraseFromParent();
  ProofRun R = prove(*Out.M, Out.Ctx);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  EXPECT_TRUE(R.Result->NewFindings.empty());
  EXPECT_EQ(R.Result->InputFindings, 1u);
}

TEST(PipelineProofTest, AFindingInInsertedCodeIsNewAndNamesTheLineItStandsBefore) {
  // An inserted read of v8 right after its load, before the wait: new, at
  // the input line of the s_waitcnt the inserted code stands before.
  Inserted Out(3, {"v_mov_b32_e32 v20, v8"});
  ProofRun R = prove(*Out.M, Out.Ctx);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  ASSERT_EQ(R.Result->NewFindings.size(), 1u);
  const SourceDiagnostic &D = R.Result->NewFindings[0];
  EXPECT_EQ(D.File, "k.s");
  EXPECT_EQ(D.Line, 10u);
  EXPECT_EQ(D.Column, 2u);
  EXPECT_EQ(D.Message, "in the code inserted before this instruction ('v_mov_b32_e32 v20, v8'): "
                       "v8 read before the global_load_dword at line 9 completes (vmcnt needs "
                       "<= 0 here, is 1)");
  EXPECT_EQ(R.Result->InputFindings, 1u) << "the input's hazard is still excused";
}

TEST(PipelineProofTest, AHazardAtAnInsertedReaderIsNewTheInputsStaysExcused) {
  // An inserted VALU reads the carry pair right after its writer: the same
  // rule and producer as the input's hazard, but its consumer is inserted.
  // The original reader, one wait state further now, is still the input's.
  Inserted Out(1, {"v_addc_co_u32_e64 v10, s[20:21], v4, v5, s[16:17]"});
  ProofRun R = prove(*Out.M, Out.Ctx);
  ASSERT_TRUE(static_cast<bool>(R.Result)) << toString(R.Result.takeError());
  ASSERT_EQ(R.Result->NewFindings.size(), 1u);
  EXPECT_EQ(R.Result->NewFindings[0].Line, 8u) << "the original instruction after it";
  EXPECT_NE(R.Result->NewFindings[0].Message.find("VALUWriteSGPR_VALURead"), std::string::npos);
  EXPECT_EQ(R.Result->InputFindings, 1u);
}

TEST(PipelineProofTest, TheInputVerifiedBeforeThePipelineExcusesItsFindingsOnly) {
  // The module itself is verified before a "pipeline" inserts an early read
  // of v8 into it: its hazard stays excused, the new read is new, and the
  // module's text is what the pipeline made of it.
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M = test::readAsmText(Input, "", false, "k.s", &Ctx);
  ASSERT_TRUE(canVerifyInputInPlace(*M));
  llvm::Expected<InputFindings> Keys = verifyInput(*M, Verifiers, passRegistry(Ctx), {});
  ASSERT_TRUE(static_cast<bool>(Keys)) << toString(Keys.takeError());
  ASSERT_EQ(Keys->Count.size(), 1u);
  EXPECT_EQ(Keys->Count.begin()->first.Rule, "VALUWriteSGPR_VALURead");
  BasicBlock &BB = M->functions().front().blocks().front();
  llvm::Expected<Instruction> Read = createInstruction(*M, "v_mov_b32_e32 v20, v8");
  ASSERT_TRUE(static_cast<bool>(Read));
  BB.insert(std::next(BB.instructions().begin(), 3), std::move(*Read));
  AnalysisManager AM;
  llvm::Expected<ProofResult> R = proveAgainstInput(
      *M, AM, Verifiers, passRegistry(Ctx), {}, Ctx,
      []() -> llvm::Expected<std::unique_ptr<Module>> {
        ADD_FAILURE() << "the input is read again";
        return nullptr;
      },
      &*Keys);
  ASSERT_TRUE(static_cast<bool>(R)) << toString(R.takeError());
  ASSERT_EQ(R->NewFindings.size(), 1u);
  EXPECT_EQ(R->NewFindings[0].Line, 10u);
  EXPECT_NE(R->NewFindings[0].Message.find("v8 read before the global_load_dword at line 9"),
            std::string::npos);
  EXPECT_EQ(R->InputFindings, 1u);
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
