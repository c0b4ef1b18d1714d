//===- Diagnostics.cpp - What went wrong in a trace, counted --------------===//
#include "asm-instrument/trace/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace stinkytofu::trace {

void Diagnostics::noteUnknownId(uint32_t Id) {
  ++UnknownIds;
  if (UnknownIdValues.size() < 8)
    UnknownIdValues.insert(Id);
}

void Diagnostics::print(raw_ostream &OS, StringRef Tool) const {
  auto Warn = [&](uint64_t N, const Twine &What) {
    if (N)
      WithColor::warning(OS, Tool) << N << " " << What << "\n";
  };
  for (const std::string &W : Warnings)
    WithColor::warning(OS, Tool) << W << "\n";
  Warn(TrapRecords, "trap-handler records dropped");
  Warn(OrphanExits, "orphan exit markers (exit on an empty stack), ignored");
  Warn(EmptyTransitions, "transition markers on an empty stack (entered without exit)");
  if (UnknownIds) {
    std::string Ids;
    for (uint32_t Id : UnknownIdValues)
      Ids += (Ids.empty() ? "" : ", ") + utostr(Id);
    Warn(UnknownIds, "markers with an unknown ID (" + Ids +
                         (UnknownIdValues.size() == 8 ? ", ..." : "") + ")");
  }
  Warn(OpenScopesAtEnd, "scopes still open at wave end, closed there");
  Warn(RecordsAfterWaveEnd, "records after their wave's end");
  Warn(RecordsWithoutWave, "waves with records but no launch in occupancy.json");
  Warn(LostRecords, "records lost (records_count mismatch or a payload block cut short)");
  Warn(RowsWithoutInstruction, "wave instruction rows point at no code.json line, ignored");
}

} // namespace stinkytofu::trace
