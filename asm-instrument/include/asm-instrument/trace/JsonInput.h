//===- JsonInput.h - Reading the ATT JSON files with simdjson ---*- C++ -*-===//
//
// The ATT files are read with simdjson's on-demand API: one parser and one
// file buffer reused across files (no fresh pages per file), values pulled
// as they are needed. Inside a read, simdjson's exceptions and
// JsonFormatError (a value of the wrong shape) unwind to JsonReader::read(),
// which turns them into "FILE: reason" errors.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_JSONINPUT_H
#define ASM_INSTRUMENT_TRACE_JSONINPUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include <simdjson.h>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace stinkytofu::trace {

/// Thrown inside a read for JSON that parses but does not fit the schema.
class JsonFormatError : public std::runtime_error {
public:
  explicit JsonFormatError(const std::string &What) : std::runtime_error(What) {}
};

/// A "FILE: reason" error.
llvm::Error fileError(llvm::StringRef Path, const llvm::Twine &Reason);

/// Opens \p Path for reading; a missing file is "FILE: no such file".
llvm::Expected<llvm::sys::fs::file_t> openCaptureFile(llvm::StringRef Path);

class JsonReader {
public:
  /// Loads \p Path and runs \p Read on its document. Missing files, bad or
  /// truncated JSON and JsonFormatError become "FILE: reason" errors.
  llvm::Error read(llvm::StringRef Path,
                   const std::function<void(simdjson::ondemand::document &)> &Read);
  /// Sizes the buffer and the parser for files up to \p Bytes at once, so
  /// that a sequence of files does not reallocate (and fragment) them.
  llvm::Error reserve(size_t Bytes);

private:
  simdjson::ondemand::parser Parser;
  std::unique_ptr<char[]> Buffer;
  size_t Capacity = 0;
};

/// Field accessors that accept integers written as JSON numbers or strings
/// (object keys are strings; some writers quote numbers).
uint64_t readUnsigned(simdjson::ondemand::value V, const char *What);
int64_t readSigned(simdjson::ondemand::value V, const char *What);
/// A JSON object key holding a number ("3").
uint32_t parseKeyNumber(std::string_view Key, const char *What);

} // namespace stinkytofu::trace

#endif
