//===- WaveDecoder.cpp - Shaderdata records to scope events, per wave -----===//
#include "asm-instrument/trace/WaveDecoder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu::trace {

struct WaveDecoder::Wave {
  WaveInfo Info;
  bool Active = false, Selected = false, Begun = false;
  uint64_t NextLaunch = UINT64_MAX;
  const MarkerIndex *Markers = nullptr;
  SmallVector<ScopeFrame, 8> Stack;
  unsigned Revealed = 0; ///< Frames whose enter the sink has seen.
  uint64_t LastChange = 0, LastSeen = 0;
  // The payload block after a header.
  uint32_t PayloadLeft = 0;
  const MarkerInfo *PayloadOwner = nullptr;
  uint32_t PayloadId = 0;
  uint64_t PayloadTime = 0;
  SmallVector<uint32_t, 0> Words;
  AddressTrace Address; ///< Reused: its lane vector keeps its capacity.
};

WaveDecoder::WaveDecoder(const Occupancy &Occ, const MarkerMaps &Maps,
                         const ClockCorrection &Clock, const TraceFilter &Filter,
                         TraceSink &Sink, Diagnostics &Diags)
    : Occ(Occ), Maps(Maps), Clock(Clock), Filter(Filter), Sink(Sink), Diags(Diags) {}

WaveDecoder::~WaveDecoder() = default;

WaveDecoder::Resolved WaveDecoder::resolve(const Occupancy &Occ, const MarkerMaps &Maps,
                                           uint32_t Slot, uint64_t Time) {
  Resolved Res;
  Res.Span = Occ.find(Slot, Time, Res.Instance);
  StringRef Kernel;
  if (Res.Span) {
    const std::vector<WaveSpan> &Spans = Occ.Slots.find(Slot)->second;
    if (Res.Instance + 1 < Spans.size())
      Res.NextLaunch = Spans[Res.Instance + 1].Launch;
    Kernel = Occ.kernelName(Res.Span->KernelId);
  }
  Res.CodeObject = Maps.codeObjectOfKernel(Kernel);
  Res.Markers = &Maps.forCodeObject(Res.CodeObject);
  return Res;
}

StringRef WaveDecoder::unknownName(uint32_t Id) {
  auto [It, New] = UnknownNames.try_emplace(Id);
  if (New)
    It->second = Names.save("marker_" + Twine(Id));
  return It->second;
}

int WaveDecoder::directIndex(uint32_t Key) {
  uint32_t SE = Key >> 24, CU = Key >> 16 & 0xff, SIMD = Key >> 8 & 0xff, Slot = Key & 0xff;
  if (SE >= 16 || CU >= 32 || SIMD >= 4 || Slot >= 16)
    return -1;
  return int(SE << 11 | CU << 6 | SIMD << 4 | Slot);
}

WaveDecoder::Wave &WaveDecoder::startWave(uint32_t SE, const ShaderDataRecord &R, uint32_t Key) {
  std::unique_ptr<Wave> &Slot = Slots[Key];
  if (!Slot) {
    Slot = std::make_unique<Wave>();
    if (int I = directIndex(Key); I >= 0) {
      if (Direct.empty())
        Direct.resize(1 << 15);
      Direct[I] = Slot.get();
    }
  }
  Wave &W = *Slot;
  if (W.Active && R.Time < W.NextLaunch)
    return W;
  Resolved Res = resolve(Occ, Maps, Key, R.Time);
  if (W.Active && Res.Span && Res.Instance == W.Info.Instance) {
    W.NextLaunch = Res.NextLaunch;
    return W;
  }
  if (W.Active)
    endWave(W);
  W.Active = true;
  W.Begun = false;
  W.Info = WaveInfo();
  W.Info.SE = uint8_t(SE);
  W.Info.CU = R.CU;
  W.Info.SIMD = R.SIMD;
  W.Info.Slot = R.Slot;
  W.Info.Instance = Res.Instance;
  W.Info.CodeObject = Res.CodeObject;
  if (Res.Span) {
    W.Info.Launch = std::min(Res.Span->Launch, R.Time);
    W.Info.End = Res.Span->End;
    W.Info.WorkGroup = Res.Span->WorkGroup;
    W.Info.Kernel = Occ.kernelName(Res.Span->KernelId);
  } else {
    ++Diags.RecordsWithoutWave;
    W.Info.Launch = R.Time;
    W.Info.End = UINT64_MAX;
  }
  W.NextLaunch = Res.NextLaunch;
  W.Markers = Res.Markers;
  W.Selected = Filter.selects(W.Info);
  W.LastChange = W.LastSeen = W.Info.Launch;
  return W;
}

void WaveDecoder::record(uint32_t SE, const ShaderDataRecord &R) {
  ++Diags.Records;
  if (R.Flags & RecordFromTrapHandler) {
    ++Diags.TrapRecords;
    return;
  }
  uint32_t Key = slotKey(SE, R.CU, R.SIMD, R.Slot);
  int I = directIndex(Key);
  Wave *W = I >= 0 && !Direct.empty() ? Direct[I] : nullptr;
  if (!W || !W->Active || R.Time >= W->NextLaunch)
    W = &startWave(SE, R, Key);
  if (!W->Selected)
    return;
  if (R.Time > W->Info.End && W->Info.End != UINT64_MAX)
    ++Diags.RecordsAfterWaveEnd;
  if (W->PayloadLeft) {
    payload(*W, R.Value);
    return;
  }
  uint32_t Value = R.Value;
  uint64_t Time = R.Time;
  if (!(R.Flags & RecordFromImmediate)) {
    if (std::optional<PackedHeader> H = unpackHeader(*W->Markers, R.Value)) {
      Value = H->Value;
      funcmap::MarkerEncoding E = *W->Markers->encoding();
      Time = Clock.correct(ClockCorrection::domainKey(SE, R.CU, R.SIMD, E), E, R.Time,
                           H->Sampled);
    }
  }
  header(*W, Time, R.Time, R.Value, Value);
}

void WaveDecoder::header(Wave &W, uint64_t Time, uint64_t Arrival, uint32_t Raw,
                         uint32_t Value) {
  W.LastSeen = std::max(W.LastSeen, Time);
  DecodedMarker M;
  M.Time = Time;
  M.ArrivalTime = Arrival;
  M.RawValue = Raw;
  M.Id = Value >> 2;
  bool Exit = Value & 1, Enter = Value & 2;
  const MarkerInfo *Info = nullptr;
  if (M.Id == 0) {
    M.Action = Value == 1 ? MarkerAction::Exit : MarkerAction::NoOp;
  } else {
    Info = W.Markers->find(M.Id);
    if (!Info)
      Diags.noteUnknownId(M.Id);
    M.Class = Info ? Info->Class : MarkerClass::Unknown;
    M.Name = Info ? Info->Name : unknownName(M.Id);
    M.SourceLoc = Info ? Info->SourceLoc : StringRef();
    if (M.Class == MarkerClass::Point) {
      M.Action = MarkerAction::Point;
      M.Payloads = Info->Payloads;
    } else {
      M.Action = Exit && Enter ? MarkerAction::Transition
                 : Enter       ? MarkerAction::Enter
                 : Exit        ? MarkerAction::Exit
                               : MarkerAction::Point;
    }
  }
  switch (M.Action) {
  case MarkerAction::Exit:
    scopeChange(W, Time);
    if (W.Stack.empty())
      ++Diags.OrphanExits;
    else
      pop(W, Time);
    break;
  case MarkerAction::Transition:
    scopeChange(W, Time);
    if (W.Stack.empty())
      ++Diags.EmptyTransitions;
    else
      pop(W, Time);
    push(W, M.Id, Info, Time);
    break;
  case MarkerAction::Enter:
    scopeChange(W, Time);
    push(W, M.Id, Info, Time);
    break;
  case MarkerAction::Point:
  case MarkerAction::NoOp:
    break;
  }
  M.Depth = W.Stack.size();
  if (Filter.inWindow(Time)) {
    reveal(W);
    Sink.marker(W.Info, M);
  }
  if (M.Payloads) {
    W.PayloadLeft = M.Payloads;
    W.PayloadOwner = Info;
    W.PayloadId = M.Id;
    W.PayloadTime = Time;
    W.Words.clear();
  }
}

void WaveDecoder::payload(Wave &W, uint32_t Word) {
  const MarkerInfo &Owner = *W.PayloadOwner;
  if (Owner.Address != AddressLayout::None)
    W.Words.push_back(Word);
  if (--W.PayloadLeft || Owner.Address == AddressLayout::None)
    return;
  unsigned WaveSize = W.Markers->waveSize();
  if (W.Words.size() < addressPayloadCount(Owner.Address, WaveSize)) {
    Diags.Warnings.push_back(("address trace '" + Owner.Name + "': R: count " +
                              Twine(W.Words.size()) + " is too small for wave" +
                              Twine(WaveSize))
                                 .str());
    return;
  }
  if (!Filter.inWindow(W.PayloadTime))
    return;
  AddressTrace &A = W.Address;
  A.Time = W.PayloadTime;
  A.Id = W.PayloadId;
  A.Kind = Owner.Name.drop_front(strlen("addr_trace_"));
  A.SourceLoc = Owner.SourceLoc;
  decodeAddressBlock(Owner.Address, WaveSize, W.Words, A);
  reveal(W);
  Sink.addressTrace(W.Info, A);
}

void WaveDecoder::scopeChange(Wave &W, uint64_t Time) {
  uint64_t To = std::max(Time, W.LastChange);
  uint64_t From = Filter.clip(W.LastChange), ClippedTo = Filter.clip(To);
  W.LastChange = To;
  if (ClippedTo <= From)
    return;
  reveal(W);
  Sink.attribute(W.Info, W.Stack, ClippedTo - From);
}

void WaveDecoder::push(Wave &W, uint32_t Id, const MarkerInfo *Info, uint64_t Time) {
  ScopeFrame F;
  F.Id = Id;
  F.Class = Info ? Info->Class : MarkerClass::Unknown;
  F.Name = Info ? Info->Name : unknownName(Id);
  F.Begin = std::max(Time, W.LastChange);
  W.Stack.push_back(F);
  if (Filter.inWindow(F.Begin))
    reveal(W);
}

void WaveDecoder::pop(Wave &W, uint64_t Time) {
  uint64_t End = std::max(Time, W.Stack.back().Begin);
  if (W.Stack.back().Begin <= Filter.End && End >= Filter.Begin) {
    reveal(W);
    Sink.exitScope(W.Info, W.Stack, Filter.clip(End));
  }
  W.Stack.pop_back();
  W.Revealed = std::min<unsigned>(W.Revealed, W.Stack.size());
}

void WaveDecoder::reveal(Wave &W) {
  if (!W.Begun) {
    W.Begun = true;
    W.Info.Serial = NextSerial++;
    Sink.beginWave(W.Info, Filter.clip(W.Info.Launch));
  }
  for (; W.Revealed < W.Stack.size(); ++W.Revealed) {
    ScopeFrame &F = W.Stack[W.Revealed];
    if (F.Begin > Filter.End)
      break;
    F.Begin = std::max(F.Begin, Filter.Begin);
    Sink.enterScope(W.Info, ArrayRef(W.Stack).take_front(W.Revealed + 1));
  }
}

void WaveDecoder::endWave(Wave &W) {
  if (W.PayloadLeft) {
    Diags.LostRecords += W.PayloadLeft;
    W.PayloadLeft = 0;
  }
  uint64_t End = W.Info.End == UINT64_MAX ? W.LastSeen : std::max(W.Info.End, W.LastSeen);
  End = std::max(End, W.LastChange);
  scopeChange(W, End);
  while (!W.Stack.empty()) {
    ++Diags.OpenScopesAtEnd;
    pop(W, End);
  }
  if (W.Begun)
    Sink.endWave(W.Info, Filter.clip(End));
  W.Active = false;
  W.Revealed = 0;
}

void WaveDecoder::finish() {
  // In slot order, so that outputs do not depend on hashing.
  SmallVector<uint32_t, 64> Keys;
  for (auto &Entry : Slots)
    if (Entry.second->Active)
      Keys.push_back(Entry.first);
  llvm::sort(Keys);
  for (uint32_t Key : Keys)
    endWave(*Slots[Key]);
}

} // namespace stinkytofu::trace
