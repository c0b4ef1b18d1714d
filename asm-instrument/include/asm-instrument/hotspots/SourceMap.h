//===- SourceMap.h - Trace addresses to the user's `.s` lines ---*- C++ -*-===//
//
// A capture names instructions by code object and address; the user knows
// them by the lines of the `.s` (or `.stir`) the code object was assembled
// from. SourceMap reads that file into the IR (with its CFG), gives every
// instruction its offset from its function's start (LLVM MC's encoded
// sizes, InstructionSizes, and the alignment directives between them), and
// places each function in the capture:
//
//   - at a code.json label row or `kernels` entry of the function's name;
//   - else where the most of its first instructions find a code.json row of
//     the same mnemonic at the same distance (a code object's load address
//     is not in the capture otherwise).
//
// Alignment directives inside a function pad with `s_nop 0`, which a wave
// falling through executes: those addresses map to the block they align.
//
// Mnemonics are compared without encoding suffixes (`_e32`, `_e64`, `_sdwa`,
// `_dpp`): the decoder's disassembly and the source may spell them apart.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_HOTSPOTS_SOURCEMAP_H
#define ASM_INSTRUMENT_HOTSPOTS_SOURCEMAP_H

#include "asm-instrument/trace/InstructionProfile.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {
class InstructionSizes;
}

namespace stinkytofu::hotspots {

/// Where a function sits in the capture.
struct Placement {
  uint32_t CodeObject = 0;
  uint64_t Base = 0;
  bool ByLabel = false; ///< From a label row, not by matching mnemonics.
};

class SourceMap {
public:
  /// Reads \p Path (`.stir` by its extension) for \p Arch (empty: the
  /// file's `.amdgcn_target`, else gfx942) and builds every function's CFG.
  static llvm::Expected<SourceMap> create(llvm::StringRef Path, llvm::StringRef Arch);
  SourceMap(SourceMap &&);
  ~SourceMap();

  Module &module() { return *M; }
  const Module &module() const { return *M; }
  const std::vector<std::string> &lines() const { return Lines; }
  llvm::StringRef path() const { return Path; }

  /// Offset of \p I from its function's start; nullopt after an item of
  /// unknown size (data, an instruction MC does not encode).
  std::optional<uint64_t> offset(const Instruction &I) const;
  /// Places every function it can in \p P and indexes the instructions
  /// by address.
  void place(const trace::InstructionProfile &P);
  std::optional<Placement> placement(const Function &F) const;
  /// The instruction at (\p CodeObject, \p Address), after place().
  const Instruction *at(uint32_t CodeObject, uint64_t Address) const;

  /// The block whose alignment padding covers (\p CodeObject, \p Address).
  const BasicBlock *paddingBefore(uint32_t CodeObject, uint64_t Address) const;

  /// The comparable part of a mnemonic or a disassembled line.
  static std::string normalizedMnemonic(llvm::StringRef Text);

private:
  SourceMap() = default;
  /// Offsets and padding of \p F's instructions when it starts at \p Base.
  void layOut(Function &F, uint64_t Base);

  std::string Path;
  std::unique_ptr<Module> M;
  std::unique_ptr<InstructionSizes> Sizes;
  std::vector<std::string> Lines;
  llvm::DenseMap<const Instruction *, uint64_t> Offsets;
  llvm::DenseMap<const Function *, Placement> Placements;
  std::map<std::pair<uint32_t, uint64_t>, const Instruction *> ByAddress;
  /// Per function, [start, end) of the padding before a block.
  struct Padding {
    uint64_t Start, End;
    const BasicBlock *Before;
  };
  llvm::DenseMap<const Function *, std::vector<Padding>> Paddings;
  /// Placed padding: code object, start -> end and the block.
  std::map<std::pair<uint32_t, uint64_t>, std::pair<uint64_t, const BasicBlock *>> PlacedPadding;
};

} // namespace stinkytofu::hotspots

#endif
