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
  // Stdout, and a destination that is no regular file (/dev/null, a pipe),
  // cannot be renamed over: they are kept in memory and written at commit.
  sys::fs::file_status Status;
  if (Path == "-" || (!sys::fs::status(Path, Status) && sys::fs::exists(Status) &&
                      !sys::fs::is_regular_file(Status))) {
    raw_string_ostream OS(O.Direct);
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

Error PendingOutputs::writeDirect(const Output &O) {
  if (O.Path == "-") {
    outs() << O.Direct;
    outs().flush();
    return Error::success();
  }
  std::error_code EC;
  raw_fd_ostream OS(O.Path, EC);
  if (!EC) {
    OS << O.Direct;
    OS.close();
    EC = OS.error();
  }
  if (EC)
    return createStringError(inconvertibleErrorCode(),
                             "cannot write " + O.Path + ": " + EC.message());
  return Error::success();
}

Error PendingOutputs::commit() {
  for (Output &O : Outputs) {
    if (!O.Temp) {
      if (Error E = writeDirect(O))
        return E;
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
