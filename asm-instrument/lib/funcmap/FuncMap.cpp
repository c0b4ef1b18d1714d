//===- FuncMap.cpp - The .sqtt_funcmap model and builder ------------------===//
#include "asm-instrument/funcmap/FuncMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu::funcmap {

PointGroup classifyPointName(StringRef Name) {
  if (Name.starts_with("addr_trace_"))
    return PointGroup::AddressTrace;
  if (Name == "barrier" || Name == "barrier_signal" || Name == "barrier_wait" ||
      Name == "vmem_load" || Name == "vmem_store")
    return PointGroup::System;
  return PointGroup::User;
}

char Marker::prefix() const {
  switch (Kind) {
  case MarkerKind::Function:
    return 'F';
  case MarkerKind::Kernel:
    return 'K';
  case MarkerKind::UserScope:
    return 'U';
  case MarkerKind::Point:
    return 'P';
  }
  return '?';
}

bool operator==(const Marker &A, const Marker &B) {
  return A.Kind == B.Kind && A.Id == B.Id && A.Name == B.Name && A.SourceLoc == B.SourceLoc &&
         A.ExtraPayloadCount == B.ExtraPayloadCount &&
         (A.Kind != MarkerKind::Point || A.Group == B.Group);
}

// --- Building -------------------------------------------------------------

Marker &FuncMap::add(Marker M) {
  Markers.push_back(std::move(M));
  return Markers.back();
}

Marker &FuncMap::addFunction(uint32_t Id, StringRef Name, StringRef SourceLoc) {
  return add(Marker{MarkerKind::Function, PointGroup::User, Id, Name.str(), SourceLoc.str(), 0});
}

Marker &FuncMap::addKernel(StringRef Name, StringRef SourceLoc) {
  return add(Marker{MarkerKind::Kernel, PointGroup::User, 0, Name.str(), SourceLoc.str(), 0});
}

Marker &FuncMap::addUserScope(uint32_t Id, StringRef Name) {
  return add(Marker{MarkerKind::UserScope, PointGroup::User, Id, Name.str(), "", 0});
}

Marker &FuncMap::addUserPoint(uint32_t Id, StringRef Name, StringRef SourceLoc,
                              uint32_t ExtraPayloadCount) {
  return add(Marker{MarkerKind::Point, PointGroup::User, Id, Name.str(), SourceLoc.str(),
                    ExtraPayloadCount});
}

Marker &FuncMap::addSystemPoint(uint32_t Id, StringRef Name) {
  return add(Marker{MarkerKind::Point, PointGroup::System, Id, Name.str(), "", 0});
}

Marker &FuncMap::addAddressTracePoint(uint32_t Id, StringRef Name, StringRef SourceLoc,
                                      uint32_t ExtraPayloadCount) {
  return add(Marker{MarkerKind::Point, PointGroup::AddressTrace, Id, Name.str(),
                    SourceLoc.str(), ExtraPayloadCount});
}

bool FuncMap::setExtraPayloadCount(uint32_t Id, uint32_t Count) {
  for (Marker &M : llvm::reverse(Markers))
    if (M.hasId() && M.Id == Id) {
      M.ExtraPayloadCount = Count;
      return true;
    }
  return false;
}

bool FuncMap::remove(uint32_t Id) {
  auto It = std::find_if(Markers.begin(), Markers.end(),
                         [&](const Marker &M) { return M.hasId() && M.Id == Id; });
  if (It == Markers.end())
    return false;
  Markers.erase(It);
  return true;
}

// --- Reading --------------------------------------------------------------

const Marker *FuncMap::find(uint32_t Id) const {
  for (const Marker &M : llvm::reverse(Markers))
    if (M.hasId() && M.Id == Id)
      return &M;
  return nullptr;
}

std::vector<const Marker *> FuncMap::markersInEmissionOrder() const {
  std::vector<const Marker *> Functions, Kernels, User, System, AddrTrace;
  for (const Marker &M : Markers) {
    switch (M.Kind) {
    case MarkerKind::Function:
      Functions.push_back(&M);
      break;
    case MarkerKind::Kernel:
      Kernels.push_back(&M);
      break;
    case MarkerKind::UserScope:
      User.push_back(&M);
      break;
    case MarkerKind::Point:
      (M.Group == PointGroup::System         ? System
       : M.Group == PointGroup::AddressTrace ? AddrTrace
                                             : User)
          .push_back(&M);
      break;
    }
  }
  // By id; equal ids keep insertion order (the markers share one vector).
  std::sort(Functions.begin(), Functions.end(), [](const Marker *A, const Marker *B) {
    return A->Id != B->Id ? A->Id < B->Id : A < B;
  });
  std::vector<const Marker *> Out;
  Out.reserve(Markers.size());
  for (auto *Group : {&Functions, &Kernels, &User, &System, &AddrTrace})
    Out.insert(Out.end(), Group->begin(), Group->end());
  return Out;
}

bool FuncMap::operator==(const FuncMap &Other) const {
  if (Wave != Other.Wave || Encoding != Other.Encoding || Markers.size() != Other.Markers.size())
    return false;
  std::vector<const Marker *> A = markersInEmissionOrder(), B = Other.markersInEmissionOrder();
  for (size_t I = 0; I < A.size(); ++I)
    if (!(*A[I] == *B[I]))
      return false;
  return true;
}

// --- Checks ---------------------------------------------------------------

std::optional<std::string> checkName(StringRef Name) {
  if (Name.empty())
    return std::string("empty name");
  for (char C : Name) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '@')
      return std::string("'@' in a name (it starts the source location)");
    if (U < 0x20 || U >= 0x7f)
      return "name has a non-printable or non-ASCII byte 0x" + utohexstr(U, /*LowerCase=*/true);
  }
  if (Name.front() == ' ' || Name.back() == ' ')
    return std::string("name starts or ends with a blank");
  return std::nullopt;
}

std::optional<std::string> checkSourceLoc(StringRef Loc) {
  if (Loc.empty())
    return std::string("empty source location after '@'");
  SmallVector<StringRef, 4> Frames;
  Loc.split(Frames, " -> ");
  for (StringRef Frame : Frames) {
    auto [File, Line] = Frame.rsplit(':');
    if (Frame.find(':') == StringRef::npos || File.empty() || Line.empty() ||
        !llvm::all_of(Line, isDigit))
      return ("source location '" + Frame + "' is not file:line").str();
    for (char C : Frame) {
      unsigned char U = static_cast<unsigned char>(C);
      if (C == '@' || U < 0x20 || U >= 0x7f)
        return ("source location '" + Frame + "' has a stray character").str();
    }
    if (Frame.front() == ' ' || Frame.back() == ' ')
      return ("source location '" + Frame + "' has stray blanks").str();
  }
  return std::nullopt;
}

std::optional<std::string> checkId(uint32_t Id, uint32_t IdBits) {
  if (Id == 0)
    return std::string("id 0 is reserved");
  if (IdBits < 32 && (uint64_t(Id) >> IdBits) != 0)
    return ("id " + Twine(Id) + " does not fit in " + Twine(IdBits) + " bits").str();
  return std::nullopt;
}

std::optional<std::string> checkWaveSize(uint32_t WaveSize) {
  if (WaveSize != 32 && WaveSize != 64)
    return ("wave size " + Twine(WaveSize) + " is not 32 or 64").str();
  return std::nullopt;
}

std::optional<std::string> checkEncoding(const MarkerEncoding &E) {
  if (E.ShaderClockBits == 0)
    return std::string("shader_clock_bits=0 means no packing: leave the M: row out");
  if (E.ShaderClockBits > 29)
    return ("shader_clock_bits=" + Twine(E.ShaderClockBits) + " leaves no id bits").str();
  if (E.ShaderClockShift >= 32 || E.ShaderClockBits + E.ShaderClockShift > 32)
    return ("shader clock window (bits " + Twine(E.ShaderClockBits) + ", shift " +
            Twine(E.ShaderClockShift) + ") does not fit in 32 bits")
        .str();
  return std::nullopt;
}

std::optional<std::string> checkMarker(const Marker &M) {
  if (auto Msg = checkName(M.Name))
    return Msg;
  if (!M.SourceLoc.empty()) {
    if (M.Kind == MarkerKind::UserScope)
      return std::string("U: rows take no source location");
    if (auto Msg = checkSourceLoc(M.SourceLoc))
      return Msg;
  }
  if (M.hasId()) {
    if (auto Msg = checkId(M.Id))
      return Msg;
  } else if (M.Id != 0) {
    return std::string("K: rows have no id");
  }
  if (!M.hasId() && M.ExtraPayloadCount != 0)
    return std::string("K: rows take no payload count");
  return std::nullopt;
}

Error FuncMap::verify() const {
  auto Fail = [](const Marker &M, const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(),
                             Twine(M.prefix()) + ":" + (M.hasId() ? Twine(M.Id) + ":" : "") +
                                 M.Name + ": " + Msg);
  };
  if (Wave)
    if (auto Msg = checkWaveSize(*Wave))
      return createStringError(inconvertibleErrorCode(), "W: row: " + *Msg);
  uint32_t IdBits = MaxMarkerIdBits;
  if (Encoding) {
    if (auto Msg = checkEncoding(*Encoding))
      return createStringError(inconvertibleErrorCode(), "M: row: " + *Msg);
    IdBits = Encoding->markerIdBits();
  }
  DenseMap<uint32_t, const Marker *> Seen;
  for (const Marker &M : Markers) {
    if (auto Msg = checkMarker(M))
      return Fail(M, *Msg);
    if (!M.hasId())
      continue;
    if (auto Msg = checkId(M.Id, IdBits))
      return Fail(M, *Msg + " left by the M: row");
    if (Encoding && M.ExtraPayloadCount != 0)
      return Fail(M, "payload records (R:) need unpacked marker headers: no M: row");
    auto [It, New] = Seen.try_emplace(M.Id, &M);
    if (!New)
      return Fail(M, "duplicate id (also " + Twine(It->second->prefix()) + ":" + Twine(M.Id) +
                         ":" + It->second->Name + ")");
  }
  return Error::success();
}

} // namespace stinkytofu::funcmap
