//===- UserMarkers.h - Named markers written in the assembly -----*- C++ -*-===//
//
// Hand-written kernels mark scopes and events with pseudo-instructions
// (ir/PseudoInstructions.h; registered with SQTTInstrumentPass):
//
//   sqtt_marker_enter "name"      U:id:name   (id << 2) | 2
//   sqtt_marker_exit  ["name"]    -           0x1 (the name is not checked)
//   sqtt_marker_point "name"      P:id:name   id << 2
//   sqtt_marker_data  "name", sN  P:id:name + R:id:extra_payload_count=1;
//                                 the header id << 2, then the value of sN
//                                 (or an immediate) as one raw record
//
// The same name shares one ID per kind (an enter and a point of one name do
// not). An exit directly followed by an enter in the same block becomes one
// marker (B_id << 2) | 3. The pass replaces every pseudo-instruction; one
// left behind makes writing assembly fail.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_USERMARKERS_H
#define ASM_INSTRUMENT_SQTT_USERMARKERS_H

#include "asm-instrument/sqtt/MarkerIds.h"
#include "asm-instrument/sqtt/MarkerSites.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace stinkytofu::sqtt {

/// The mnemonics of the four pseudo-instructions.
std::vector<std::string> markerPseudoInstructions();

enum class UserMarkerKind : uint8_t { None, Enter, Exit, Point, Data };
UserMarkerKind classifyUserMarker(const Instruction &I);

/// The sites of \p F's marker pseudo-instructions, adding their names to
/// \p Ids in order; errors (file:line:col) for a malformed one.
llvm::Expected<std::vector<MarkerSite>> userMarkerSites(Function &F, MarkerIdAllocator &Ids);

/// Removes every marker pseudo-instruction of \p F, keeping the comments and
/// directives written before each (they move to what follows).
void eraseUserMarkers(Function &F);

} // namespace stinkytofu::sqtt

#endif
