//===- MarkerIds.cpp - Marker ID allocation and compaction ----------------===//
#include "asm-instrument/sqtt/MarkerIds.h"
#include "stinkytofu/support/StableSort.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu::sqtt {

const char *systemMarkerName(SystemMarker S) {
  switch (S) {
  case SystemMarker::BarrierSignal:
    return "barrier_signal";
  case SystemMarker::BarrierWait:
    return "barrier_wait";
  case SystemMarker::Barrier:
    return "barrier";
  case SystemMarker::VmemLoad:
    return "vmem_load";
  case SystemMarker::VmemStore:
    return "vmem_store";
  }
  return "";
}

void MarkerIdAllocator::reserve(uint32_t Id) {
  if (Id != 0)
    Reserved.insert(Id);
}

unsigned MarkerIdAllocator::addUserMarker(LedgerKind Kind, StringRef Name,
                                          uint32_t ExtraPayloadCount) {
  // The reference's key: "U:" or "P:", the payload count, the name.
  std::string Key = (Kind == LedgerKind::UserScope ? "U:" : "P:") +
                    std::to_string(ExtraPayloadCount) + ":" + Name.str();
  auto [It, Inserted] = UserKeys.try_emplace(Key, Entries.size());
  if (Inserted)
    Entries.push_back({Kind, Name.str(), "", ExtraPayloadCount});
  return It->second;
}

unsigned MarkerIdAllocator::addAddressTrace(StringRef Name, StringRef SourceLoc,
                                            uint32_t ExtraPayloadCount) {
  Entries.push_back({LedgerKind::AddressTrace, Name.str(), SourceLoc.str(), ExtraPayloadCount});
  return Entries.size() - 1;
}

unsigned MarkerIdAllocator::addFunction(StringRef Name, StringRef SourceLoc) {
  Entries.push_back({LedgerKind::Function, Name.str(), SourceLoc.str()});
  return Entries.size() - 1;
}

uint32_t MarkerIdAllocator::next() {
  while (Reserved.contains(NextId))
    ++NextId;
  MaxId = std::max(MaxId, NextId);
  return NextId++;
}

void MarkerIdAllocator::assign(bool Barriers, bool Memory) {
  std::vector<unsigned> Order, Late;
  for (unsigned H = 0; H < Entries.size(); ++H)
    (Entries[H].Kind == LedgerKind::AddressTrace ? Late : Order).push_back(H);
  stableSort(Order, [&](unsigned A, unsigned B) {
    return Entries[A].Count > Entries[B].Count;
  });
  for (unsigned H : Order)
    Entries[H].Id = next();
  if (Barriers)
    for (SystemMarker S :
         {SystemMarker::BarrierSignal, SystemMarker::BarrierWait, SystemMarker::Barrier})
      SystemIds[static_cast<unsigned>(S)] = next();
  if (Memory)
    for (SystemMarker S : {SystemMarker::VmemLoad, SystemMarker::VmemStore})
      SystemIds[static_cast<unsigned>(S)] = next();
  for (unsigned H : Late)
    Entries[H].Id = next();
}

} // namespace stinkytofu::sqtt
