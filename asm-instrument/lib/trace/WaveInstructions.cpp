//===- WaveInstructions.cpp - One wave file's instruction rows ------------===//
#include "asm-instrument/trace/WaveInstructions.h"

using namespace llvm;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

StringRef categoryName(uint8_t Category) {
  static const char *const Names[] = {"none", "SMEM",  "SALU",    "VMEM",    "FLAT",
                                      "LDS",  "VALU",  "JUMP",    "NEXT",    "IMMED",
                                      "CONTEXT", "MESSAGE", "BVH"};
  return Category < std::size(Names) ? Names[Category] : "other";
}

namespace {

void readRows(od::value Instructions, WaveSpan &Span, function_ref<void(const WaveRow &)> Row) {
  WaveRow R;
  for (auto Entry : Instructions.get_array()) {
    uint64_t C[5];
    unsigned N = 0;
    for (auto Col : Entry.get_array()) {
      if (N < 5 && Col.get_uint64().get(C[N]))
        throw JsonFormatError("instruction row " + std::to_string(Span.Rows) +
                              ": expected unsigned integers");
      ++N;
    }
    if (N != 5)
      throw JsonFormatError("instruction row " + std::to_string(Span.Rows) + " has " +
                            std::to_string(N) + " columns, expected 5");
    R.Time = C[0];
    R.Category = uint8_t(C[1]);
    R.Stall = C[2];
    R.Duration = C[3];
    R.Line = uint32_t(C[4]);
    Row(R);
    ++Span.Rows;
  }
}

} // namespace

Expected<WaveSpan> readWaveInstructions(StringRef Path, JsonReader &Reader,
                                        function_ref<void(const WaveRow &)> Row) {
  WaveSpan Span;
  bool SawWave = false;
  Error E = Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key != "wave")
        continue;
      SawWave = true;
      for (auto WaveField : Field.value().get_object()) {
        std::string_view WaveKey = WaveField.unescaped_key();
        if (WaveKey == "begin")
          Span.Begin = readUnsigned(WaveField.value(), "wave begin");
        else if (WaveKey == "end")
          Span.End = readUnsigned(WaveField.value(), "wave end");
        else if (WaveKey == "instructions")
          readRows(WaveField.value(), Span, Row);
      }
    }
  });
  if (E)
    return std::move(E);
  if (!SawWave)
    return fileError(Path, "no \"wave\" object");
  return Span;
}

} // namespace stinkytofu::trace
