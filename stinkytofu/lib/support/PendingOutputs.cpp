//===- PendingOutputs.cpp - All of a run's outputs, or none ---------------===//
#include "stinkytofu/support/PendingOutputs.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace stinkytofu {

PendingOutputs::~PendingOutputs() {
  for (Output &O : Outputs)
    if (O.Temp)
      consumeError(O.Temp->discard());
}

Error PendingOutputs::add(StringRef Path, function_ref<Error(raw_ostream &)> Write) {
  Output &O = Outputs.emplace_back();
  O.Path = Path.str();
  if (Path == "-") {
    raw_string_ostream OS(O.Stdout);
    return Write(OS);
  }
  // Beside the destination, so that the rename stays on one file system; the
  // name keeps the destination's for a reader of a left-over file.
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(Path + ".tmp%%%%%%");
  if (!Temp)
    return createStringError(inconvertibleErrorCode(), "cannot write " + Path + ": " +
                                                           toString(Temp.takeError()));
  O.Temp.emplace(std::move(*Temp));
  raw_fd_ostream OS(O.Temp->FD, /*shouldClose=*/false);
  // A kernel is hundreds of kilobytes: a few large writes, not one a page.
  OS.SetBufferSize(1 << 16);
  if (Error E = Write(OS))
    return E;
  OS.flush();
  if (OS.has_error())
    return createStringError(inconvertibleErrorCode(),
                             "cannot write " + Path + ": " + OS.error().message());
  return Error::success();
}

Error PendingOutputs::commit() {
  for (Output &O : Outputs) {
    if (!O.Temp) {
      outs() << O.Stdout;
      outs().flush();
      continue;
    }
    if (Error E = O.Temp->keep(O.Path))
      return createStringError(inconvertibleErrorCode(),
                               "cannot write " + O.Path + ": " + toString(std::move(E)));
    O.Temp.reset();
  }
  return Error::success();
}

} // namespace stinkytofu
