//===- FuncMapReport.h - A code object's funcmap with addresses -*- C++ -*-===//
//
// What `sqtt-funcmap dump` shows for one code object: its `.sqtt_funcmap`
// read leniently (as decoders read it), each F:/K: row given the address of
// the symbol of the same name, and the spec's table:
//
//     Type        ID               Vaddr  Name
//     ----       ---               -----  ----
//   kernel         -  0x0000000000001000  _Z8kernelAi  @ kernel.hip:80
//     user         1                   -  load_input
//     func         4                   -  _Z12helper_funcv  @ helper.hpp:17  (inlined)
//
// K: rows come first, then the rest by id; "(inlined)" marks an F: row
// whose function has no symbol.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_ELF_FUNCMAPREPORT_H
#define ASM_INSTRUMENT_ELF_FUNCMAPREPORT_H

#include "stinkytofu/object/ElfImage.h"
#include "asm-instrument/funcmap/FuncMap.h"
#include "asm-instrument/funcmap/FuncMapParser.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::elf {

struct ReportOptions {
  bool Demangle = false; ///< Demangle F:/K: names (LLVM Demangle).
};

struct ReportRow {
  funcmap::Marker Marker;
  std::string DisplayName;       ///< The name, demangled when asked.
  std::optional<uint64_t> Vaddr; ///< F:/K: rows whose symbol exists.
  bool Inlined = false;          ///< An F: row without a symbol.
};

struct FuncMapReport {
  bool HasSection = false;
  std::optional<uint32_t> WaveSize;
  std::optional<funcmap::MarkerEncoding> Encoding;
  std::vector<ReportRow> Rows;
  /// Lenient-parse warnings and section oddities (line 0).
  std::vector<funcmap::FuncMapWarning> Warnings;
};

/// Reads the funcmap of \p Obj and resolves its F:/K: names. Never fails: a
/// missing section gives HasSection = false, bad rows give warnings.
FuncMapReport buildFuncMapReport(const ElfImage &Obj, const ReportOptions &Opts);

/// The spec's table (or a line saying there is no funcmap).
void printFuncMapTable(const FuncMapReport &Report, llvm::raw_ostream &OS);

/// {"has_funcmap", "wave_size", "shader_clock", "markers": [{"type", "prefix",
/// "id", "name", "demangled", "source_loc", "vaddr", "inlined",
/// "extra_payload_count"}], "warnings": [{"line", "message"}]}
llvm::json::Object funcMapReportToJSON(const FuncMapReport &Report);

} // namespace stinkytofu::elf

#endif
