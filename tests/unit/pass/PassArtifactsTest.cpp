//===- PassArtifactsTest.cpp - What passes produce besides the module -----===//
#include "TestModules.h"
#include "stinkytofu/pass/PassManager.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

/// Reports a file and an object section, or removes the section.
class ReportingPass final : public Pass {
public:
  ReportingPass(std::string Tag, bool KeepSection) : Tag(std::move(Tag)), Keep(KeepSection) {}
  llvm::StringRef name() const override { return "report"; }
  llvm::Expected<PreservedAnalyses> run(Module &, AnalysisManager &, const PassScope &) override {
    artifacts().addFile("out.txt", "from " + Tag);
    if (Keep)
      artifacts().setObjectSection(".note", Tag);
    else
      artifacts().removeObjectSection(".note");
    return PreservedAnalyses::all();
  }

private:
  std::string Tag;
  bool Keep;
};

std::unique_ptr<Module> emptyKernel() {
  return test::readAsmText("  .text\nk:\n  s_endpgm\n", "gfx942");
}

TEST(PassArtifactsTest, TheLastPassOfTheRunDecides) {
  auto M = emptyKernel();
  ASSERT_TRUE(M);
  StinkyTofuContext Ctx;
  PassManager PM(Ctx);
  PM.add(std::make_unique<ReportingPass>("a", true));
  PM.add(std::make_unique<ReportingPass>("b", true));
  AnalysisManager AM;
  ASSERT_FALSE(bool(PM.run(*M, AM)));
  ASSERT_EQ(PM.artifacts().files().size(), 1u);
  EXPECT_EQ(PM.artifacts().files()[0].Path, "out.txt");
  EXPECT_EQ(PM.artifacts().files()[0].Contents, "from b");
  ASSERT_EQ(PM.artifacts().objectSections().count(".note"), 1u);
  EXPECT_EQ(PM.artifacts().objectSections().lookup(".note"), "b");

  PassManager Removing(Ctx);
  Removing.add(std::make_unique<ReportingPass>("a", true));
  Removing.add(std::make_unique<ReportingPass>("b", false));
  ASSERT_FALSE(bool(Removing.run(*M, AM)));
  EXPECT_EQ(Removing.artifacts().objectSections().count(".note"), 0u);
}

TEST(PassArtifactsTest, APassRunAloneKeepsItsOwn) {
  auto M = emptyKernel();
  ASSERT_TRUE(M);
  ReportingPass P("alone", true);
  AnalysisManager AM;
  ASSERT_TRUE(bool(P.run(*M, AM, PassScope())));
  EXPECT_EQ(P.artifacts().files().size(), 1u);
  EXPECT_EQ(P.artifacts().objectSections().lookup(".note"), "alone");
}

} // namespace
