//===- DescriptorDecoder.h - Kernel descriptors as directives ---*- C++ -*-===//
//
// A 64-byte kernel descriptor as the `.amdhsa_kernel NAME` ...
// `.end_amdhsa_kernel` block that assembles back into the same bytes.
//
// LLVM's AMDGPU disassembler decodes the fields (what `llvm-objdump -d`
// prints for a `.kd` symbol): the field knowledge stays in LLVM. Its text
// does not always assemble back to the same bytes (LLVM 22 prints
// `.amdhsa_reserve_xnack_mask 0` for every target id, and the
// `.amdhsa_next_free_sgpr` of the granule without the extra SGPRs the
// assembler adds for VCC, XNACK and flat scratch, and no
// `.amdhsa_user_sgpr_count`, which is added from the descriptor), so every
// block is assembled by LLVM MC and compared with the original bytes; when
// they differ, other values of the first two are tried, and the block that
// gives the original bytes is the one kept. None gives them: an error.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_DISASM_DESCRIPTORDECODER_H
#define STINKYTOFU_LIB_DISASM_DESCRIPTORDECODER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace llvm {
class MCDisassembler;
}

namespace stinkytofu {

class TargetInfo;

/// A descriptor as directives.
struct DecodedDescriptor {
  /// The `.amdhsa_kernel` block.
  std::string Block;
  /// Empty when the block assembles into the descriptor's bytes; else why
  /// it does not (the bytes set what no directive spells: older compilers
  /// wrote the SGPR granule of COMPUTE_PGM_RSRC1, reserved on gfx10+, and
  /// LLVM 22 refuses to decode it), and the descriptor is to be kept as
  /// its bytes.
  std::string KeptAsBytes;
};

class DescriptorDecoder {
public:
  /// \p Preamble: the `.amdgcn_target` and `.amdhsa_code_object_version`
  /// lines the check assembles each block under.
  DescriptorDecoder(const llvm::MCDisassembler &Disassembler, const TargetInfo &Target,
                    std::string Preamble)
      : Disassembler(Disassembler), Target(Target), Preamble(std::move(Preamble)) {}

  /// The block of kernel \p Kernel whose descriptor \p Bytes (64 bytes)
  /// sits at \p Address. \p SgprCount, the metadata's `.sgpr_count`, is
  /// the `.amdhsa_next_free_sgpr` tried first.
  llvm::Expected<DecodedDescriptor> decode(llvm::StringRef Kernel, llvm::ArrayRef<uint8_t> Bytes,
                                     uint64_t Address, std::optional<uint64_t> SgprCount);

private:
  /// Whether \p Block assembles into \p Bytes (the code entry offset aside,
  /// and COMPUTE_PGM_RSRC1's SGPR granule when \p AnyGranule).
  bool reproduces(llvm::StringRef Kernel, llvm::StringRef Block, llvm::ArrayRef<uint8_t> Bytes,
                  bool AnyGranule = false);

  const llvm::MCDisassembler &Disassembler;
  const TargetInfo &Target;
  std::string Preamble;
  /// The repair the last descriptor needed: the same target's descriptors
  /// need the same one.
  unsigned LastRepair = 0;
};

} // namespace stinkytofu

#endif
