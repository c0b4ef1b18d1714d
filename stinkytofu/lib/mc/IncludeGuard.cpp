//===- IncludeGuard.cpp - Bounded `.include` for LLVM MC ------------------===//
#include "IncludeGuard.h"
#include "stinkytofu/mc/OperandParser.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace stinkytofu {

IncludeGuardFileSystem::IncludeGuardFileSystem(SourceMgr &SM, const InputLimits &Limits,
                                               const MCAsmInfo &MAI)
    : ProxyFileSystem(vfs::getRealFileSystem()), SM(SM), Limits(Limits), MAI(MAI) {}

ErrorOr<std::unique_ptr<vfs::File>>
IncludeGuardFileSystem::refuse(SMLoc At, const Twine &Message) {
  if (!Violation)
    Violation = renderDiagnostic(SM.GetMessage(At, SourceMgr::DK_Error, Message));
  return make_error_code(errc::operation_not_permitted);
}

ErrorOr<std::unique_ptr<vfs::File>>
IncludeGuardFileSystem::openFileForRead(const Twine &PathTwine) {
  if (Violation)
    return make_error_code(errc::operation_not_permitted);
  SMLoc At = Parser ? Parser->getTok().getLoc() : SMLoc();
  unsigned Buffer = At.isValid() ? SM.FindBufferContainingLoc(At) : 0;
  if (!Buffer)
    return ProxyFileSystem::openFileForRead(PathTwine);
  // An `.include` opens the file while the parser stands at the end of its
  // line; `.incbin` (bytes, not assembly) only after moving past it.
  StringRef Including = SM.getMemoryBuffer(Buffer)->getBuffer();
  StringRef Line = positionOf(Including, At.getPointer() - Including.data()).LineText;
  if (!Line.take_front(findComment(Line)).contains_insensitive(".include"))
    return ProxyFileSystem::openFileForRead(PathTwine);

  std::string Path = PathTwine.str();
  sys::fs::UniqueID Target;
  bool Known = !sys::fs::getUniqueID(Path, Target);
  // The files being included, innermost first.
  SmallVector<StringRef, 8> Open;
  bool Cycle = false;
  for (unsigned B = Buffer; B;) {
    StringRef Name = SM.getMemoryBuffer(B)->getBufferIdentifier();
    Open.push_back(Name);
    sys::fs::UniqueID Id;
    Cycle |= Known && !sys::fs::getUniqueID(Name, Id) && Id == Target;
    SMLoc Parent = SM.getParentIncludeLoc(B);
    B = Parent.isValid() ? SM.FindBufferContainingLoc(Parent) : 0;
  }
  unsigned Depth = Open.size();
  if (Cycle) {
    std::string Chain;
    for (StringRef Name : reverse(Open))
      Chain += Name.str() + " -> ";
    return refuse(At, "include cycle: " + Chain + Path);
  }
  if (Depth > Limits.MaxIncludeDepth)
    return refuse(At, "'" + Path + "' would be included " + Twine(Depth) +
                          " levels deep, over the limit of " + Twine(Limits.MaxIncludeDepth) +
                          " (--max-include-depth)");

  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = getUnderlyingFS().getBufferForFile(Path);
  if (!Text)
    return Text.getError();
  if (std::optional<LimitViolation> V = checkInputLimits((*Text)->getBuffer(), Limits, MAI)) {
    TextPosition P = positionOf((*Text)->getBuffer(), V->Offset);
    Violation = renderDiagnostic(Path, P.Line, P.Column, P.LineText, SourceMgr::DK_Error,
                                 V->Message);
    return make_error_code(errc::operation_not_permitted);
  }
  return ProxyFileSystem::openFileForRead(Path);
}

} // namespace stinkytofu
