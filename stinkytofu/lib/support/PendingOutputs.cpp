//===- PendingOutputs.cpp - All of a run's outputs, or none ---------------===//
#include "stinkytofu/support/PendingOutputs.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace stinkytofu {

static Error cannotWrite(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), "cannot write " + Path + ": " + Why);
}

PendingOutputs::~PendingOutputs() {
  for (Output &O : Outputs)
    consumeError(O.Temp.discard());
}

Error PendingOutputs::add(StringRef Path, function_ref<Error(raw_ostream &)> Write,
                          std::optional<sys::fs::perms> Mode) {
  sys::fs::file_status Status;
  bool Renamed = Path != "-" && (sys::fs::status(Path, Status) || !sys::fs::exists(Status) ||
                                 sys::fs::is_regular_file(Status));
  SmallString<128> Model;
  if (Renamed) {
    // Beside the destination, so that the rename stays on one file system;
    // the name keeps the destination's for a reader of a left-over file.
    Model = Path;
  } else {
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
    sys::path::append(Model, sys::path::filename(Path == "-" ? "stdout" : Path));
  }
  Model += ".tmp%%%%%%";
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(Model);
  if (!Temp)
    return cannotWrite(Path, toString(Temp.takeError()));
  Output &O = Outputs.emplace_back(Output{Path.str(), std::move(*Temp), Renamed});
  raw_fd_ostream OS(O.Temp.FD, /*shouldClose=*/false);
  // Outputs are hundreds of kilobytes: a few large writes, not one a page.
  OS.SetBufferSize(1 << 16);
  if (Error E = Write(OS))
    return E;
  OS.flush();
  if (OS.has_error()) {
    std::error_code EC = OS.error();
    OS.clear_error();
    return cannotWrite(Path, EC.message());
  }
  if (Mode)
    if (std::error_code EC = sys::fs::setPermissions(O.Temp.FD, *Mode))
      return cannotWrite(Path, EC.message());
  return Error::success();
}

Error PendingOutputs::copyTo(Output &O) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getOpenFile(
      sys::fs::convertFDToNativeFile(O.Temp.FD), O.Temp.TmpName, /*FileSize=*/-1);
  if (!Text)
    return cannotWrite(O.Path, Text.getError().message());
  if (O.Path == "-") {
    outs() << (*Text)->getBuffer();
    outs().flush();
  } else {
    std::error_code EC;
    raw_fd_ostream OS(O.Path, EC);
    if (!EC) {
      OS << (*Text)->getBuffer();
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    if (EC)
      return cannotWrite(O.Path, EC.message());
  }
  return O.Temp.discard();
}

Error PendingOutputs::commit() {
  for (Output &O : Outputs) {
    if (!O.Renamed) {
      if (Error E = copyTo(O))
        return E;
      continue;
    }
    if (Error E = O.Temp.keep(O.Path))
      return cannotWrite(O.Path, toString(std::move(E)));
  }
  return Error::success();
}

Error writeFileAtomically(StringRef Path, StringRef Bytes, std::optional<sys::fs::perms> Mode) {
  PendingOutputs Out;
  if (Error E = Out.add(
          Path,
          [&](raw_ostream &OS) {
            OS << Bytes;
            return Error::success();
          },
          Mode))
    return E;
  return Out.commit();
}

} // namespace stinkytofu
