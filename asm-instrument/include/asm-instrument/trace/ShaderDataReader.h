//===- ShaderDataReader.h - Stream the records of shaderdata files -*- C++ -*-===//
//
// shaderdata_<SE>_<IDX>.json holds the s_ttracedata values of one decoder
// batch: `records_schema` ["time","value","cu","simd","wave_id","flags"]
// and `records`, rows in that order. Rows are handed out one at a time;
// only the current file is in memory.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_SHADERDATAREADER_H
#define ASM_INSTRUMENT_TRACE_SHADERDATAREADER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "asm-instrument/trace/JsonInput.h"
#include <cstdint>

namespace stinkytofu::trace {

/// Bits of a record's `flags`.
enum : uint8_t { RecordFromImmediate = 1, RecordFromTrapHandler = 2 };

struct ShaderDataRecord {
  uint64_t Time = 0;
  uint32_t Value = 0;
  uint8_t CU = 0, SIMD = 0, Slot = 0, Flags = 0;
};

struct ShaderDataFileInfo {
  uint64_t Rows = 0;
  /// `records_count` as written; differs from Rows when records were lost.
  uint64_t DeclaredCount = 0;
};

/// Calls \p Each for every row of \p Path in file order.
llvm::Expected<ShaderDataFileInfo>
readShaderDataFile(llvm::StringRef Path, JsonReader &Reader,
                   llvm::function_ref<void(const ShaderDataRecord &)> Each);

} // namespace stinkytofu::trace

#endif
