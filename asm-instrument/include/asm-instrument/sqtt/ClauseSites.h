//===- ClauseSites.h - No marker inside an s_clause ---------------*- C++ -*-===//
//
// `s_clause N` makes the N+1 instructions after it one memory clause (gfx10
// and up): the count covers instructions, so code inserted among them
// (a scope check's compare and branch, a marker) would fall inside the
// clause and push its last members out. A site whose point lies within a
// clause moves out of it: a marker that belongs after the previous
// instruction (a memory group's) to after the clause's last member, any
// other to before the s_clause. Address traces stay in front of the
// operation they trace (they split its clause, as any code between its
// members would).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_CLAUSESITES_H
#define ASM_INSTRUMENT_SQTT_CLAUSESITES_H

#include "asm-instrument/sqtt/MarkerSites.h"

namespace stinkytofu::sqtt {

/// Moves each site of \p F in \p Sites whose point is inside an s_clause
/// span to the nearest point outside it.
void placeOutsideClauses(Function &F, std::vector<MarkerSite> &Sites);

} // namespace stinkytofu::sqtt

#endif
