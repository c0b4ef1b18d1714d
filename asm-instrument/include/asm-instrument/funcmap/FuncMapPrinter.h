//===- FuncMapPrinter.h - Write a funcmap as .sqtt_funcmap text -*- C++ -*-===//
//
// Prints the rows in the spec's emission order (sqtt-reference.md section 4):
// the M: row, F: rows by id, K: rows, user U:/P: rows in insertion order,
// system points, then W: and the address-trace P: rows. A marker with a
// payload count is followed at once by its R: row. Every row ends in '\n';
// the section holds that text plus one NUL.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_FUNCMAP_FUNCMAPPRINTER_H
#define ASM_INSTRUMENT_FUNCMAP_FUNCMAPPRINTER_H

#include "asm-instrument/funcmap/FuncMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace stinkytofu::funcmap {

/// The section the funcmap lives in.
inline constexpr llvm::StringLiteral FuncMapSectionName = ".sqtt_funcmap";

/// Writes one row (no newline); a marker's R: row is not included.
void printMarkerRow(const Marker &M, llvm::raw_ostream &OS);

/// Writes every row, each followed by '\n'. Does not check the map: call
/// FuncMap::verify() first when the map comes from elsewhere.
void printFuncMap(const FuncMap &Map, llvm::raw_ostream &OS);
std::string printFuncMap(const FuncMap &Map);

/// The bytes of a `.sqtt_funcmap` section: the text and a terminating NUL.
std::string funcMapSectionContents(const FuncMap &Map);

} // namespace stinkytofu::funcmap

#endif
