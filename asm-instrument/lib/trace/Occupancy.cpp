//===- Occupancy.cpp - Wave launches and ends (occupancy.json) ------------===//
#include "asm-instrument/trace/Occupancy.h"
#include "asm-instrument/trace/JsonInput.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <tuple>

using namespace llvm;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

const WaveSpan *Occupancy::find(uint32_t Slot, uint64_t Time, uint32_t &Index) const {
  auto It = Slots.find(Slot);
  if (It == Slots.end() || It->second.empty())
    return nullptr;
  const std::vector<WaveSpan> &Spans = It->second;
  auto After = std::upper_bound(Spans.begin(), Spans.end(), Time,
                                [](uint64_t T, const WaveSpan &S) { return T < S.Launch; });
  Index = After == Spans.begin() ? 0 : uint32_t(After - Spans.begin() - 1);
  return &Spans[Index];
}

StringRef Occupancy::kernelName(uint32_t KernelId) const {
  auto It = KernelNames.find(KernelId);
  return It == KernelNames.end() ? StringRef() : StringRef(It->second);
}

Expected<Occupancy> readOccupancy(StringRef Path) {
  Occupancy Occ;
  JsonReader Reader;
  // Column of workgroup_id; 9 in the 3.1.0 writers, named by occupancy_fields.
  unsigned WorkGroupColumn = 9;
  Error E = Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key == "dispatches") {
        for (auto K : Field.value().get_object()) {
          uint32_t Id = parseKeyNumber(K.unescaped_key(), "kernel id");
          Occ.KernelNames[Id] = std::string(std::string_view(K.value().get_string()));
        }
      } else if (Key == "occupancy_fields") {
        unsigned Column = 0;
        for (auto Name : Field.value().get_array()) {
          if (std::string_view(Name.get_string()) == "workgroup_id")
            WorkGroupColumn = Column;
          ++Column;
        }
      } else if (Key == "version" || Key == "events") {
        continue; // Dispatch/event objects are not needed.
      } else if (!Key.empty() && std::isdigit((unsigned char)Key[0])) {
        uint32_t SE = parseKeyNumber(Key, "shader engine");
        for (auto RowValue : Field.value().get_array()) {
          uint64_t Cols[11] = {};
          unsigned N = 0;
          for (auto Col : RowValue.get_array()) {
            uint64_t V = readUnsigned(Col.value(), "occupancy column");
            if (N < 11)
              Cols[N] = V;
            ++N;
          }
          if (N < 6)
            throw JsonFormatError("occupancy row of SE " + std::to_string(SE) + " has " +
                                  std::to_string(N) + " columns, expected at least 6");
          uint32_t Key = slotKey(SE, uint32_t(Cols[1]), uint32_t(Cols[2]), uint32_t(Cols[3]));
          std::vector<WaveSpan> &Spans = Occ.Slots[Key];
          uint64_t Time = Cols[0];
          if (Cols[4]) {
            WaveSpan S;
            S.Launch = Time;
            S.KernelId = uint32_t(Cols[5]);
            if (N > WorkGroupColumn && WorkGroupColumn < 11)
              S.WorkGroup = int64_t(Cols[WorkGroupColumn]);
            Spans.push_back(S);
            Occ.Changes.push_back({Time, +1});
          } else if (!Spans.empty() && Spans.back().End == UINT64_MAX) {
            Spans.back().End = Time;
            Occ.Changes.push_back({Time, -1});
          }
        }
      }
    }
  });
  if (E)
    return std::move(E);
  for (auto &Entry : Occ.Slots)
    llvm::sort(Entry.second, [](const WaveSpan &A, const WaveSpan &B) {
      return std::tie(A.Launch, A.End) < std::tie(B.Launch, B.End);
    });
  llvm::sort(Occ.Changes);
  return Occ;
}

} // namespace stinkytofu::trace
