//===- OutputFile.cpp - Write a file all at once or not at all ------------===//
#include "asm-instrument/elf/OutputFile.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu::elf {

Error writeFileAtomically(StringRef Path, StringRef Bytes, std::optional<sys::fs::perms> Mode) {
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(Path + ".tmp-%%%%%%%%");
  if (!Temp)
    return Temp.takeError();
  auto Discard = [&](Error E) {
    if (Error D = Temp->discard())
      return joinErrors(std::move(E), std::move(D));
    return E;
  };
  {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    OS << Bytes;
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return Discard(errorCodeToError(EC));
    }
  }
  if (Mode)
    if (std::error_code EC = sys::fs::setPermissions(Temp->FD, *Mode))
      return Discard(errorCodeToError(EC));
  return Temp->keep(Path);
}

} // namespace stinkytofu::elf
