//===- ModuleOptions.h - TensileLite's module options, checked --*- C++ -*-===//
#ifndef ROCISA_BRIDGE_PYTHON_MODULEOPTIONS_H
#define ROCISA_BRIDGE_PYTHON_MODULEOPTIONS_H

#include "Bindings.h"
#include "rocisa-bridge/convert/StinkyModule.h"
#include "rocisa-bridge/convert/ToStinkyTofu.h"
#include <string>
#include <vector>

namespace rocisa::python {

struct ModuleOptions {
  ConversionOptions Conversion;
  StinkyModule::PipelineOptions Pipeline;
  /// The scheduler options given that StinkyTofu has no counterpart for, in
  /// the dictionary's order.
  std::vector<std::string> WithoutCounterpart;
};

/// The options dictionary of toStinkyTofuModule for a module of \p Arch
/// (None: the defaults). A wrong type raises TypeError; an unknown key, a
/// value out of range or a request StinkyTofu cannot honour ValueError.
ModuleOptions toModuleOptions(py::object Options, std::string Signature, llvm::StringRef Arch);

} // namespace rocisa::python

#endif
