//===- JsonInput.cpp - Reading the ATT JSON files with simdjson -----------===//
#include "asm-instrument/trace/JsonInput.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <cstring>

using namespace llvm;

namespace stinkytofu::trace {

Error fileError(StringRef Path, const Twine &Reason) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Reason);
}

Expected<sys::fs::file_t> openCaptureFile(StringRef Path) {
  Expected<sys::fs::file_t> File = sys::fs::openNativeFileForRead(Path);
  if (File)
    return File;
  std::error_code EC = errorToErrorCode(File.takeError());
  return fileError(Path, EC == std::errc::no_such_file_or_directory ? "no such file"
                                                                    : EC.message());
}

Error JsonReader::read(StringRef Path, const std::function<void(simdjson::ondemand::document &)> &Read) {
  Expected<sys::fs::file_t> File = openCaptureFile(Path);
  if (!File)
    return File.takeError();
  scope_exit Close([&] { sys::fs::closeFile(*File); });
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(*File, Status))
    return fileError(Path, EC.message());
  size_t Size = Status.getSize();
  if (Size + simdjson::SIMDJSON_PADDING > Capacity) {
    // Grow by half at least: files of slowly growing sizes should not leave
    // a trail of freed buffers behind.
    Capacity = std::max(Size + simdjson::SIMDJSON_PADDING, Capacity + Capacity / 2);
    Buffer = std::make_unique<char[]>(Capacity);
  }
  if (Size > Parser.capacity())
    if (simdjson::error_code E = Parser.allocate(std::max(Size, Parser.capacity() * 3 / 2)))
      return fileError(Path, simdjson::error_message(E));
  for (size_t Done = 0; Done < Size;) {
    Expected<size_t> N = sys::fs::readNativeFile(
        *File, MutableArrayRef<char>(Buffer.get() + Done, Size - Done));
    if (!N)
      return fileError(Path, toString(N.takeError()));
    if (*N == 0)
      return fileError(Path, "file shrank while being read");
    Done += *N;
  }
  std::memset(Buffer.get() + Size, 0, simdjson::SIMDJSON_PADDING);
  try {
    simdjson::ondemand::document Doc =
        Parser.iterate(simdjson::padded_string_view(Buffer.get(), Size, Capacity));
    Read(Doc);
  } catch (const simdjson::simdjson_error &E) {
    return fileError(Path, Twine("malformed JSON: ") + E.what());
  } catch (const JsonFormatError &E) {
    return fileError(Path, E.what());
  }
  return Error::success();
}

Error JsonReader::reserve(size_t Bytes) {
  if (Bytes + simdjson::SIMDJSON_PADDING > Capacity) {
    Capacity = Bytes + simdjson::SIMDJSON_PADDING;
    Buffer = std::make_unique<char[]>(Capacity);
  }
  if (Bytes > Parser.capacity())
    if (simdjson::error_code E = Parser.allocate(Bytes))
      return createStringError(inconvertibleErrorCode(), simdjson::error_message(E));
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
