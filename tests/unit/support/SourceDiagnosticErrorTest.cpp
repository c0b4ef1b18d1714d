//===- SourceDiagnosticErrorTest.cpp - Reader errors carry their position --===//
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

TEST(SourceDiagnosticErrorTest, AReadErrorIsTypedAndPrintsAsBefore) {
  // An input limit the reader checks before MC: a string that never closes.
  auto Buffer = llvm::MemoryBuffer::getMemBufferCopy("  .text\nk:\n  .ascii \"open\n", "bad.s");
  llvm::Expected<std::unique_ptr<Module>> M = readAsm(std::move(Buffer), ReaderOptions());
  ASSERT_FALSE(bool(M));
  llvm::Error E = M.takeError();
  ASSERT_TRUE(E.isA<SourceDiagnosticError>());
  std::string Text;
  llvm::handleAllErrors(std::move(E), [&](const SourceDiagnosticError &D) {
    const SourceDiagnostic &S = D.diagnostic();
    EXPECT_EQ(S.Kind, llvm::SourceMgr::DK_Error);
    EXPECT_EQ(S.File, "bad.s");
    EXPECT_EQ(S.Line, 3u);
    EXPECT_EQ(S.Column, 10u);
    EXPECT_EQ(S.LineText, "  .ascii \"open");
    Text = S.render();
  });
  // What toString printed before: the rendered diagnostic.
  EXPECT_EQ(Text, renderDiagnostic("bad.s", 3, 10, "  .ascii \"open",
                                   llvm::SourceMgr::DK_Error,
                                   "unterminated string: no closing '\"' on its line"));
}

} // namespace
