//===- CodeObjectLinker.cpp - ld.lld -shared on one object ----------------===//
#include "stinkytofu/emit/CodeObjectLinker.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace stinkytofu {

namespace {

Error linkError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error writeBytes(StringRef Path, StringRef Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return linkError(Path + ": " + EC.message());
  OS << Bytes;
  OS.close();
  if (OS.has_error()) {
    std::error_code WriteEC = OS.error();
    OS.clear_error();
    return linkError(Path + ": " + WriteEC.message());
  }
  return Error::success();
}

Expected<std::string> readBytes(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return linkError(Path + ": " + Buf.getError().message());
  return (*Buf)->getBuffer().str();
}

} // namespace

Expected<std::string> findLld(StringRef Override) {
  if (!Override.empty()) {
    if (sys::fs::can_execute(Override) && !sys::fs::is_directory(Override))
      return Override.str();
    // A bare name (`ld.lld-21`) is looked up on PATH.
    if (!Override.contains('/'))
      if (ErrorOr<std::string> Found = sys::findProgramByName(Override))
        return *Found;
    return linkError("ld.lld '" + Override + "' is not an executable file");
  }
  const char *LLVM22Lld = "/usr/lib/llvm-22/bin/ld.lld";
  if (sys::fs::can_execute(LLVM22Lld))
    return std::string(LLVM22Lld);
  for (StringRef Name : {"ld.lld-22", "ld.lld"})
    if (ErrorOr<std::string> Found = sys::findProgramByName(Name))
      return *Found;
  return linkError("ld.lld not found (looked for /usr/lib/llvm-22/bin/ld.lld, and for "
                   "ld.lld-22 and ld.lld on PATH)");
}

Expected<std::string> linkCodeObject(StringRef Object, StringRef Lld, StringRef ObjectName) {
  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("stinkytofu-link", Dir))
    return linkError("cannot create a temporary directory for ld.lld: " + EC.message());
  scope_exit RemoveDir([&] { sys::fs::remove_directories(Dir); });

  SmallString<128> In(Dir), Out(Dir), Log(Dir);
  sys::path::append(In, sys::path::filename(ObjectName));
  sys::path::append(Out, sys::path::stem(ObjectName) + ".co");
  sys::path::append(Log, "ld.lld.log");
  if (Error E = writeBytes(In, Object))
    return std::move(E);

  StringRef Args[] = {Lld, "-shared", In, "-o", Out};
  // stdin empty; stdout and stderr into one log (never onto our stdout,
  // which may carry the tool's output).
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log), StringRef(Log)};
  std::string ExecError;
  bool ExecFailed = false;
  int Status = sys::ExecuteAndWait(Lld, Args, std::nullopt, Redirects, /*SecondsToWait=*/0,
                                   /*MemoryLimit=*/0, &ExecError, &ExecFailed);
  if (ExecFailed)
    return linkError("cannot run " + Lld + ": " + ExecError);
  if (Status != 0) {
    Expected<std::string> Messages = readBytes(Log);
    std::string Text = Messages ? *Messages : toString(Messages.takeError());
    // The linker names the input by its temporary path; the name is enough.
    Text = StringRef(Text).rtrim("\n").str();
    std::string Prefix = (Dir + sys::path::get_separator()).str();
    for (size_t At; (At = Text.find(Prefix)) != std::string::npos;)
      Text.erase(At, Prefix.size());
    std::string Why = Status < 0 ? ExecError : "exit code " + std::to_string(Status);
    return linkError(Lld + " -shared failed (" + Why + ")" + (Text.empty() ? "" : ":\n") + Text);
  }
  return readBytes(Out);
}

} // namespace stinkytofu
