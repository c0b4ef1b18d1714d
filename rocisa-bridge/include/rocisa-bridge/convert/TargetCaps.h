//===- TargetCaps.h - What a target can assemble, asked of LLVM MC --*- C++ -*-===//
#ifndef ROCISA_BRIDGE_CONVERT_TARGETCAPS_H
#define ROCISA_BRIDGE_CONVERT_TARGETCAPS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace rocisa {

/// Whether \p Arch (`gfx1250`) assembles \p Statement. An unknown target is
/// an error.
llvm::Expected<bool> targetAssembles(llvm::StringRef Arch, llvm::StringRef Statement);

/// rocisa's asmCaps["HasAdd_PC_i64"]: the target has `s_add_pc_i64`.
llvm::Expected<bool> hasAddPCI64(llvm::StringRef Arch);

/// `gfx<major><minor><stepping in hex>`: (9,4,2) -> gfx942, (9,0,10) ->
/// gfx90a, (12,5,0) -> gfx1250.
std::string archName(int Major, int Minor, int Stepping);

} // namespace rocisa

#endif
