//===- TestKernels.h - rocisa trees the bridge's tests share --------*- C++ -*-===//
#ifndef ROCISA_BRIDGE_TESTS_TESTKERNELS_H
#define ROCISA_BRIDGE_TESTS_TESTKERNELS_H

#include "rocisa-bridge/code/KernelBody.h"
#include <memory>
#include <string>
#include <vector>

namespace rocisa::test {

/// The activation enums of the test kernels.
inline const std::vector<std::string> Activations = {"Relu", "Gelu"};

/// `label_Activation_<Enum>_VW<Width><Suffix>`.
std::string activationLabel(const std::string &Enum, int Width, const std::string &Suffix);

/// A wrapper `ActFunc_VW<Width>_Sgpr40_Tmp20_30` with one callable body per
/// activation, labelled with \p Suffix ("" or "_1"), each returning through
/// s[26:27].
std::shared_ptr<Module> activationWrapper(int Width, const std::string &Suffix);

/// An ActivationType=all call site: the InsertActFuncCallAddrCalc dispatch
/// (compare and branch per enum, a `label_To_*` address block each) and the
/// s_swappc_b64 whose calleeFuncs are that site's bodies.
std::shared_ptr<Module> activationCallSite(int Width, const std::string &Suffix);

/// A kernel (signature for \p Arch, `gemm:`) with two call sites and two
/// wrappers for each width in \p Widths, the wrappers after s_endpgm.
std::shared_ptr<KernelBody> activationKernel(const std::string &Arch, std::vector<int> Widths);

/// The text in front of the code: target, symbol, kernel descriptor.
std::string kernelSignature(const std::string &Arch, const std::string &Name);

} // namespace rocisa::test

#endif
