//===- ShaderDataReader.cpp - Stream the records of shaderdata files ------===//
#include "asm-instrument/trace/ShaderDataReader.h"
#include "asm-instrument/trace/JsonInput.h"

using namespace llvm;
namespace od = simdjson::ondemand;

namespace stinkytofu::trace {

static const char *const Schema[] = {"time", "value", "cu", "simd", "wave_id", "flags"};

Expected<ShaderDataFileInfo>
readShaderDataFile(StringRef Path, JsonReader &Reader,
                   function_ref<void(const ShaderDataRecord &)> Each) {
  ShaderDataFileInfo Info;
  bool SawRecords = false, SawCount = false;
  Error E = Reader.read(Path, [&](od::document &Doc) {
    for (auto Field : Doc.get_object()) {
      std::string_view Key = Field.unescaped_key();
      if (Key == "records_schema") {
        unsigned N = 0;
        for (auto Name : Field.value().get_array()) {
          if (N >= 6 || std::string_view(Name.get_string()) != Schema[N])
            throw JsonFormatError("unexpected records_schema (expected "
                                  "[\"time\",\"value\",\"cu\",\"simd\",\"wave_id\",\"flags\"])");
          ++N;
        }
        if (N != 6)
          throw JsonFormatError("records_schema has " + std::to_string(N) + " columns, expected 6");
      } else if (Key == "records_count") {
        SawCount = true;
        Info.DeclaredCount = readUnsigned(Field.value(), "records_count");
      } else if (Key == "records") {
        SawRecords = true;
        od::array Rows = Field.value().get_array();
        for (simdjson::simdjson_result<od::value> Row : Rows) {
          // The error-code API: no exception plumbing in the hot loop.
          od::array Cols;
          if (simdjson::error_code E = Row.get_array().get(Cols))
            throw simdjson::simdjson_error(E);
          ShaderDataRecord R;
          uint64_t C[6];
          unsigned N = 0;
          for (simdjson::simdjson_result<od::value> Col : Cols) {
            if (N == 6)
              throw JsonFormatError("record " + std::to_string(Info.Rows) +
                                    " has more than 6 columns");
            if (simdjson::error_code E = Col.get_uint64().get(C[N++]))
              throw simdjson::simdjson_error(E);
          }
          if (N != 6)
            throw JsonFormatError("record " + std::to_string(Info.Rows) + " has " +
                                  std::to_string(N) + " columns, expected 6");
          R.Time = C[0];
          R.Value = uint32_t(C[1]); // s_ttracedata writes 32 bits.
          R.CU = uint8_t(C[2]);
          R.SIMD = uint8_t(C[3]);
          R.Slot = uint8_t(C[4]);
          R.Flags = uint8_t(C[5]);
          ++Info.Rows;
          Each(R);
        }
      }
    }
  });
  if (E)
    return std::move(E);
  if (!SawRecords)
    return fileError(Path, "no \"records\" array");
  if (!SawCount)
    Info.DeclaredCount = Info.Rows;
  return Info;
}

} // namespace stinkytofu::trace
