//===- PassArguments.h - A pass's `--Pass=arg,key=value` arguments -*- C++ -*-===//
//
// What a pass factory receives. Part of the pass core so that every pass can
// be written and built below the registry that names them all
// (passes/PassRegistry.h).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASS_PASSARGUMENTS_H
#define STINKYTOFU_PASS_PASSARGUMENTS_H

#include "stinkytofu/pass/Pass.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stinkytofu {

/// `key=value` or bare `flag` arguments, in order.
using PassArguments = std::vector<std::pair<std::string, std::string>>;

using PassFactory =
    std::function<llvm::Expected<std::unique_ptr<Pass>>(const PassArguments &)>;

/// The factory of a pass that takes no arguments: any argument is an error.
/// \p Fixed are the constructor's arguments of a factory that names a
/// variant (e.g. a debug form of the same pass).
template <typename PassT, typename... FixedArgs>
llvm::Expected<std::unique_ptr<Pass>> createArgumentlessPass(const PassArguments &Args,
                                                             FixedArgs &&...Fixed) {
  if (!Args.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "takes no arguments");
  return std::make_unique<PassT>(std::forward<FixedArgs>(Fixed)...);
}

/// Splits `a,b=c` into arguments.
PassArguments parsePassArguments(llvm::StringRef Text);

} // namespace stinkytofu

#endif
