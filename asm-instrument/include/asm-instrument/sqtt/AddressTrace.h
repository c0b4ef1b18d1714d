//===- AddressTrace.h - Per-lane addresses of memory operations --*- C++ -*-===//
//
// SQTT address tracing (spec "Address Tracing"; SQTT_TRACE_ADDRESSES,
// argument `addresses=memory|lds|memory,lds`): before each qualifying memory
// operation a header point marker with the operation's own ID, EXEC (two
// records), then the operation's addresses as the hardware forms them, read
// from the instruction's real operands:
//
//   global/flat (64-bit)   per lane: vaddr, or saddr + voffset, + offset
//   buffer                 rsrc word 0, rsrc word 1, soffset + offset, then
//                          per lane voffset (0 without offen), and per lane
//                          vindex when idxen (a struct buffer)
//   LDS (32-bit)           per lane: address VGPR + offset
//   ds_permute/bpermute    per lane: the index VGPR (+ offset)
//
// Scratch, GDS, LDS DMA and the DS forms without an address VGPR are not
// traced. The class of an instruction comes from MC (TSFlags, mayLoad,
// mayStore, the printed operands); which DS lane shuffles are permutes is
// the hardware model's (LanePermute).
//
// The per-lane values are read in the scalar unit, lane by lane, in a loop
// (`v_readlane_b32` with a counter SGPR and an `s_cbranch_scc1` back edge),
// each value written to M0 and recorded with `s_ttracedata`.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_ADDRESSTRACE_H
#define ASM_INSTRUMENT_SQTT_ADDRESSTRACE_H

#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::sqtt {

struct MarkerSite;
class MarkerIdAllocator;
class SourceLocations;

/// The record layout of one traced operation (the decoder's, see
/// trace/AddressLayout.h).
enum class AddressCategory : uint8_t { Flat64, Lds32, Buffer, StructBuffer, LanePermute };

/// One operation to trace, its operands as 32-bit register names.
struct TracedOperation {
  AddressCategory Category = AddressCategory::Flat64;
  /// The funcmap name after `addr_trace_`: load, store, atomic, lds_load,
  /// lds_store, lds_atomic, buffer_load, ..., struct_buffer_atomic,
  /// ds_permute, ds_bpermute.
  std::string Kind;
  /// Per-lane VGPRs: the address (low, high for a 64-bit vaddr), the
  /// voffset of a saddr or buffer form, the vindex of a struct buffer.
  std::string AddrLo, AddrHi, VIndex;
  /// The 64-bit scalar base of a saddr form (both halves).
  std::string SAddrLo, SAddrHi;
  /// Buffer: descriptor words 0 and 1, and soffset (a register or an
  /// integer; "0" for none).
  std::string Rsrc0, Rsrc1, SOffset = "0";
  /// The instruction's immediate offset, in bytes.
  int64_t Offset = 0;
  /// Why the operation cannot be traced (its site is refused), or empty.
  std::string Unsupported;

  std::string funcmapName() const { return "addr_trace_" + Kind; }
  /// Records after the header (the funcmap's R: count).
  unsigned extraPayloadCount(unsigned WaveSize) const;
  /// The registers the trace reads (to substitute a saved copy for M0).
  std::vector<std::string *> scalarSources();
};

/// Which operations to trace.
struct AddressTraceFilter {
  bool Memory = false; ///< global, flat, buffer
  bool Lds = false;    ///< LDS, LDS atomics, permutes
  bool any() const { return Memory || Lds; }
};

/// The operation \p I is, when the filter traces it.
std::optional<TracedOperation> tracedOperation(const Instruction &I, const TargetInfo &TI,
                                               AddressTraceFilter Filter);

/// A header site before each operation of \p F the filter traces, each with
/// its own ledger entry (`addr_trace_<kind>@file:line`, its record count).
std::vector<MarkerSite> addressTraceSites(Function &F, AddressTraceFilter Filter,
                                          MarkerIdAllocator &Ids, const SourceLocations &Locs);

/// The wave size the trace reads lanes of: the target's, or 64 when the
/// module is built for wave64 (`+wavefrontsize64`).
unsigned traceWaveSize(const TargetInfo &TI);

/// One statement of the trace code: an instruction, the start of a loop
/// body (a new block with a fresh label), or the loop's back edge (the
/// mnemonic `s_cbranch_scc1`, to that label).
struct TraceStatement {
  enum class Kind : uint8_t { Instruction, LoopHead, LoopBack } K = Kind::Instruction;
  InstSpec Spec;
};

/// What the code generator may use: the lane counter and
/// traceTemporaries() more SGPRs.
struct TraceRegisters {
  BuildOperand Counter;
  std::vector<BuildOperand> Temps;
};

/// What the target asks of the code.
struct TraceTarget {
  unsigned WaveSize = 64;
  /// s_nop 0 between an SALU write of M0 and s_ttracedata (gfx9).
  bool NopAfterM0Write = false;
  /// s_wait_alu before a read of an SGPR an SALU wrote (gfx1200/gfx1201).
  std::string SaluWriteWait;
};

/// How many temporaries tracing \p Op needs besides the counter: the lane's
/// value (two for a vaddr pair), and for a saddr form with an offset the
/// pair saddr + offset is folded into once.
unsigned traceTemporaries(const TracedOperation &Op);

/// How many lane loops that code has (two for a struct buffer).
unsigned traceLoops(const TracedOperation &Op);

/// The code after the header marker: EXEC, the fixed records, the lane
/// loops. It writes M0, SCC, the counter and the temporaries only.
std::vector<TraceStatement> addressTraceCode(const TracedOperation &Op,
                                             const TraceRegisters &Regs,
                                             const TraceTarget &Target);

} // namespace stinkytofu::sqtt

#endif
