//===- BridgeTestSupport.h - Checking Expected values in tests ------*- C++ -*-===//
#ifndef ROCISA_BRIDGE_TESTS_BRIDGETESTSUPPORT_H
#define ROCISA_BRIDGE_TESTS_BRIDGETESTSUPPORT_H

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <string>

/// A failed Expected fails the test with its message (evaluated on failure
/// only); a successful one stays usable.
#define ASSERT_OK(E) ASSERT_TRUE(bool(E)) << llvm::toString((E).takeError())
#define EXPECT_OK(E) EXPECT_TRUE(bool(E)) << llvm::toString((E).takeError())

namespace rocisa::test {

/// The message of a failed Expected (empty, and a test failure, when it
/// succeeded).
template <typename T> std::string errorMessage(llvm::Expected<T> E) {
  if (E) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(E.takeError());
}

inline std::string errorMessage(llvm::Error E) {
  if (!E) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(std::move(E));
}

} // namespace rocisa::test

#endif
