//===- CodeObjectLinkerTest.cpp - Finding and running ld.lld --------------===//
//
// findLld's choices and linkCodeObject's failure report
// (stinkytofu/emit/CodeObjectLinker.h). Successful links are compared with
// ld.lld's own output in tests/lit/funcmap/one-shot*.test.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/emit/CodeObjectLinker.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <string>

using namespace stinkytofu;

namespace {

TEST(CodeObjectLinkerTest, AnOverrideMustBeExecutable) {
  llvm::Expected<std::string> Lld = findLld("/nonexistent/ld.lld");
  ASSERT_FALSE(bool(Lld));
  EXPECT_EQ(toString(Lld.takeError()),
            "ld.lld '/nonexistent/ld.lld' is not an executable file");
  llvm::Expected<std::string> Dir = findLld("/");
  ASSERT_FALSE(bool(Dir));
  consumeError(Dir.takeError());
}

TEST(CodeObjectLinkerTest, WithoutOverrideFindsAnExecutable) {
  llvm::Expected<std::string> Lld = findLld();
  if (!Lld) {
    consumeError(Lld.takeError());
    GTEST_SKIP() << "no ld.lld on this machine";
  }
  EXPECT_TRUE(llvm::sys::fs::can_execute(*Lld)) << *Lld;
}

TEST(CodeObjectLinkerTest, AFailingLinkerReportsItsExitCode) {
  if (!llvm::sys::fs::can_execute("/bin/false"))
    GTEST_SKIP() << "no /bin/false";
  llvm::Expected<std::string> Out = linkCodeObject("not an object", "/bin/false", "k.o");
  ASSERT_FALSE(bool(Out));
  EXPECT_EQ(toString(Out.takeError()), "/bin/false -shared failed (exit code 1)");
}

TEST(CodeObjectLinkerTest, ARealLinkerErrorCarriesItsMessages) {
  llvm::Expected<std::string> Lld = findLld();
  if (!Lld) {
    consumeError(Lld.takeError());
    GTEST_SKIP() << "no ld.lld on this machine";
  }
  llvm::Expected<std::string> Out = linkCodeObject("not an object", *Lld, "k.o");
  ASSERT_FALSE(bool(Out));
  std::string Msg = toString(Out.takeError());
  // ld.lld reads text input as a linker script; the input is named by its
  // file name, not its temporary path.
  EXPECT_NE(Msg.find("ld.lld: error: k.o:1: unknown directive: not"), std::string::npos) << Msg;
}

} // namespace
