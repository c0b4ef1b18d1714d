//===- InputJobs.h - Run a batch's inputs on several threads ----*- C++ -*-===//
//
// stinkytofu-opt's --jobs: the inputs of a batch run on worker threads, and
// what each reports comes out on stderr in input order, each input's report
// whole, as one thread running them one after another would print it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OPT_INPUTJOBS_H
#define STINKYTOFU_OPT_INPUTJOBS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>

namespace stinkytofu {

enum class InputStatus {
  Written, ///< the input's outputs are in place
  Failed,  ///< reported, nothing of it written; the others still run
  Abort,   ///< every input would fail the same way: run no more
};

/// Runs \p Run(I, Report) for every input I in [0, \p Count) on \p Jobs
/// threads (0: one per hardware thread; never more than inputs). With one
/// job the inputs run on this thread in order, reporting straight to stderr.
/// With more, the inputs of highest \p Cost (an estimate of each one's work,
/// such as its size) start first, so that the threads finish together, and
/// each input's report is kept until the inputs before it have been printed.
/// An Abort (every input would fail alike) prints that input's report alone
/// and starts no other input. Returns the run's exit status: 0 when every
/// input was written.
int runInputJobs(size_t Count, unsigned Jobs, llvm::ArrayRef<uint64_t> Cost,
                 llvm::function_ref<InputStatus(size_t, llvm::raw_ostream &)> Run);

} // namespace stinkytofu

#endif
