//===- AddressLayout.h - Address-trace blocks: layout and addresses -*- C++ -*-===//
//
// An `addr_trace_*` point header is followed, in the same wave's stream, by
// exec_lo, exec_hi and the lane data (spec, "Address Tracing"):
//   flat/global/atomic  2 words per lane (lo, hi)
//   lds*, ds_*permute   1 word per lane
//   buffer_*            rsrc_lo, rsrc_hi, soffset, then 1 voffset per lane
//   struct_buffer_*     as buffer, then 1 vindex per lane
// Every lane is written; the EXEC mask says which ones are real.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_ADDRESSLAYOUT_H
#define ASM_INSTRUMENT_TRACE_ADDRESSLAYOUT_H

#include "asm-instrument/trace/TraceSink.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace stinkytofu::trace {

enum class AddressLayout : uint8_t { None, Flat64, Word32, Buffer, StructBuffer };

/// The layout an `addr_trace_*` marker name implies; None for other names.
AddressLayout addressLayoutOf(llvm::StringRef MarkerName);

/// Payload records after the header: 2 (EXEC) + the lane data.
uint32_t addressPayloadCount(AddressLayout L, unsigned WaveSize);

/// Fills \p Out (Exec, Lanes) from the payload words.
/// \p Words has addressPayloadCount(L, WaveSize) entries.
void decodeAddressBlock(AddressLayout L, unsigned WaveSize, llvm::ArrayRef<uint32_t> Words,
                        AddressTrace &Out);

} // namespace stinkytofu::trace

#endif
