//===- Bindings.h - The pybind11 module's parts ---------------------*- C++ -*-===//
//
// The Python layer is the only place exceptions exist: every llvm::Error
// of the C++ library becomes a Python exception here (ValueError, or
// IndexError for an index out of range).
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_PYTHON_BINDINGS_H
#define ROCISA_BRIDGE_PYTHON_BINDINGS_H

#include "llvm/Support/Error.h"
#include <pybind11/pybind11.h>
#include <stdexcept>

namespace rocisa::python {

namespace py = pybind11;

/// Raises \p E as a Python ValueError.
[[noreturn]] inline void raise(llvm::Error E) {
  throw py::value_error(llvm::toString(std::move(E)));
}

template <typename T> T unwrap(llvm::Expected<T> V) {
  if (!V)
    raise(V.takeError());
  return std::move(*V);
}

inline void check(llvm::Error E) {
  if (E)
    raise(std::move(E));
}

/// \p Work's result, computed with the GIL released so that other Python
/// threads run meanwhile (a generator's thread pool converting and
/// optimizing kernels uses every core). \p Work must touch no Python
/// object: callers convert their arguments before and the result after.
/// The C++ objects it works on must not be used by another thread
/// meanwhile (a module, a kernel tree: one thread each).
template <typename F> auto withoutGil(F &&Work) {
  py::gil_scoped_release Release;
  return Work();
}

/// `copy.copy` and `copy.deepcopy` both give a deep copy of the C++ object
/// with its most-derived type (metadata fields included).
template <typename T, typename PyClass> void addCopies(PyClass &C) {
  C.def("__deepcopy__", [](const T &Self, py::dict) {
    return std::static_pointer_cast<T>(Self.clone());
  });
  C.def("__copy__", [](const T &Self) { return std::static_pointer_cast<T>(Self.clone()); });
}

void bindCode(py::module_ &Code, py::module_ &Container);
void bindInstructions(py::module_ &Instruction);
void bindPasses(py::module_ &AsmPass);
void bindConvert(py::module_ &Top);

} // namespace rocisa::python

#endif
