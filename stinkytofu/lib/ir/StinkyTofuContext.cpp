//===- StinkyTofuContext.cpp - What a reader and a pipeline share ---------===//
#include "stinkytofu/ir/StinkyTofuContext.h"

using namespace llvm;

namespace stinkytofu {

StinkyTofuContext::StinkyTofuContext()
    : Handler(printDiagnostic), Stats(&errs()), Dump(&errs()) {}

StinkyTofuContext::~StinkyTofuContext() = default;

void StinkyTofuContext::setDiagnosticHandler(DiagnosticHandler H) {
  Handler = H ? std::move(H) : DiagnosticHandler(printDiagnostic);
}

} // namespace stinkytofu
