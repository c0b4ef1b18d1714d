//===- MarkerSites.cpp - Where markers go, before any is inserted ---------===//
#include "asm-instrument/sqtt/MarkerSites.h"
#include "asm-instrument/sqtt/MarkerEncoding.h"

namespace stinkytofu::sqtt {

uint32_t markerValue(const MarkerSite &S, const MarkerIdAllocator &Ids) {
  switch (S.Source) {
  case MarkerSite::IdSource::Ledger:
    return (Ids.id(S.Handle) << 2) | S.Flags;
  case MarkerSite::IdSource::System:
    return (Ids.systemId(S.System) << 2) | S.Flags;
  case MarkerSite::IdSource::None:
    return ExitMarker;
  }
  return ExitMarker;
}

void countSites(llvm::ArrayRef<MarkerSite> Sites, MarkerIdAllocator &Ids) {
  for (const MarkerSite &S : Sites)
    if (S.Source == MarkerSite::IdSource::Ledger || S.CountsTowardHandle)
      Ids.count(S.Handle);
}

} // namespace stinkytofu::sqtt
