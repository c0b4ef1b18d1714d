//===- JsonInput.cpp - Reading the ATT JSON files with simdjson -----------===//
#include "asm-instrument/trace/JsonInput.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace stinkytofu::trace {

Error fileError(StringRef Path, const Twine &Reason) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Reason);
}

Error readJsonFile(StringRef Path, simdjson::ondemand::parser &Parser,
                   const std::function<void(simdjson::ondemand::document &)> &Read) {
  if (!sys::fs::exists(Path))
    return fileError(Path, "no such file");
  simdjson::padded_string Text;
  if (simdjson::error_code E = simdjson::padded_string::load(std::string(Path)).get(Text))
    return fileError(Path, simdjson::error_message(E));
  try {
    simdjson::ondemand::document Doc = Parser.iterate(Text);
    Read(Doc);
  } catch (const simdjson::simdjson_error &E) {
    return fileError(Path, Twine("malformed JSON: ") + E.what());
  } catch (const JsonFormatError &E) {
    return fileError(Path, E.what());
  }
  return Error::success();
}

static uint64_t parseDecimal(std::string_view S, const char *What) {
  uint64_t N = 0;
  if (S.empty() || StringRef(S.data(), S.size()).getAsInteger(10, N))
    throw JsonFormatError(std::string(What) + ": expected an integer, got \"" +
                          std::string(S) + "\"");
  return N;
}

uint64_t readUnsigned(simdjson::ondemand::value V, const char *What) {
  if (V.type() == simdjson::ondemand::json_type::string)
    return parseDecimal(V.get_string().value(), What);
  uint64_t N;
  if (V.get_uint64().get(N))
    throw JsonFormatError(std::string(What) + ": expected an unsigned integer");
  return N;
}

int64_t readSigned(simdjson::ondemand::value V, const char *What) {
  if (V.type() == simdjson::ondemand::json_type::string)
    return int64_t(parseDecimal(V.get_string().value(), What));
  int64_t N;
  if (V.get_int64().get(N))
    throw JsonFormatError(std::string(What) + ": expected an integer");
  return N;
}

uint32_t parseKeyNumber(std::string_view Key, const char *What) {
  uint64_t N = parseDecimal(Key, What);
  if (N > UINT32_MAX)
    throw JsonFormatError(std::string(What) + " out of range: " + std::string(Key));
  return uint32_t(N);
}

} // namespace stinkytofu::trace
