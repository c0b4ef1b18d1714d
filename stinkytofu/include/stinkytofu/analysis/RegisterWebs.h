//===- RegisterWebs.h - The values a function keeps in registers --*- C++ -*-===//
//
// A web is one value of a register: the writes of a register and the reads
// that see them, closed under "a read sees two writes" (both are the same
// value for a renaming). It is what the reference's SSA lift makes of each
// register; renaming registers (RegisterAllocationPass) gives each web a
// register of its own file.
//
// Built per VGPR, AGPR and SGPR (32-bit registers; a tuple operand names
// one web per register it covers, tied into a group that keeps their
// distances) by a forward flow over the CFG, on Liveness.h and
// LaneLiveness.h:
//   - a write starts a new web, except where it keeps part of the old value:
//     an operand MC ties to a source (v_fmac's destination, a lane write,
//     a d16 load), a 16-bit half, or a VGPR/AGPR write under EXEC whose
//     other lanes are read later (otherLanesLiveAfter): those continue the
//     web they write over;
//   - at a block start the webs that reach a live register from the
//     predecessors are one; a register live into the first block, or read
//     where nothing wrote it, is a value from outside (an entry web);
//   - an instruction whose register effects are not all its written
//     operands (a call, a branch, a macro invocation, a statement MC does
//     not know, an implicit register operand) is irregular: the webs it
//     reads and writes are pinned, and the registers it touches are fixed.
// Two webs interfere where both are live (on a VGPR or AGPR, live in any
// lane), and the webs an instruction writes interfere with the webs it
// reads that named another register (so a renaming never makes a
// destination overlap a source it did not overlap).
//
// equivalentPartition() compares two builds of the same instructions: the
// renaming validator (every read sees the renamed values of the writes it
// saw before).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_REGISTERWEBS_H
#define STINKYTOFU_ANALYSIS_REGISTERWEBS_H

#include "stinkytofu/analysis/RegisterPressure.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/Error.h"
#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace stinkytofu {

class LaneLiveness;

/// Which files a build lifts (the reference's `classes=v`, `s`, `vs`; `a`
/// for AGPRs).
using WebFiles = std::array<bool, NumPressureFiles>;

class RegisterWebs {
public:
  struct Web {
    PressureFile File;
    unsigned Reg;        ///< the register it is written in
    bool Pinned = false; ///< keeps Reg (a value from outside, an irregular access)
    bool FromEntry = false;
    unsigned Group = 0;  ///< webs a tuple ties together share it
    unsigned FirstSeen = 0; ///< layout position of its first occurrence
  };
  struct Group {
    PressureFile File;
    unsigned Base = 0, Width = 0; ///< its registers as written
    /// A new base keeps Base modulo this, so every tuple start in the group
    /// keeps its alignment (a tuple may start above the base).
    unsigned Align = 1;
    bool Pinned = false;
    unsigned FirstSeen = 0;
    std::vector<unsigned> Webs;
  };
  /// A register operand of a regular instruction in a lifted file.
  struct OperandUse {
    Instruction *Inst;
    unsigned Operand; ///< written operand index
    PressureFile File;
    unsigned First, Count;
    unsigned Web; ///< the web of its first register (the group places the rest)
  };

  /// Lifts the webs of \p F (a valid CFG) in \p Files. An error names the
  /// first thing that makes the renaming unprovable (a register at a
  /// run-time index, stale MC).
  static llvm::Expected<RegisterWebs> build(Function &F, const Liveness &L,
                                            const LaneLiveness &LL, WebFiles Files);

  const std::vector<Web> &webs() const { return Webs; }
  const std::vector<Group> &groups() const { return Groups; }
  const std::vector<OperandUse> &operandUses() const { return Operands; }
  /// Whether webs \p A and \p B (of one file) are live at once.
  bool interfere(unsigned A, unsigned B) const;
  /// Calls \p Fn(Web) for each web that interferes with web \p W.
  template <typename FnT> void forEachInterfering(unsigned W, FnT Fn) const {
    const std::vector<unsigned> &InFile = WebsOfFile[unsigned(Webs[W].File)];
    for (unsigned Index : Interference[W].set_bits())
      Fn(InFile[Index]);
  }
  /// The registers of \p File an irregular instruction reads or writes.
  const llvm::BitVector &fixedRegisters(PressureFile File) const {
    return Fixed[unsigned(File)];
  }
  /// The highest register + 1 of \p File any occurrence names.
  unsigned registersNamed(PressureFile File) const { return Named[unsigned(File)]; }
  /// How many webs come from outside (registers live into the function).
  unsigned entryWebs() const;
  /// The instructions that write a lifted VGPR or AGPR under EXEC whose
  /// other lanes are read later, in layout order: each write continues the
  /// web it writes over (the reference ties such a destination to its old
  /// value with TieExecMaskedWritesPass).
  const std::vector<const Instruction *> &laneKeepingWrites() const { return LaneKeeping; }

  /// Whether \p Other (a build of the same instructions after a renaming)
  /// groups every occurrence into webs as this does, one web for one web,
  /// and keeps the register of every pinned web: each instruction then
  /// reads the renamed values of what it read before. Else the first
  /// occurrence that differs.
  std::optional<std::string> differingOccurrence(const RegisterWebs &Other) const;

private:
  /// An occurrence: instruction, written operand (~0u: an irregular access,
  /// Component is then the register), component, def.
  using Key = std::tuple<const Instruction *, unsigned, unsigned, bool>;
  class Builder;

  std::vector<Web> Webs;
  std::vector<Group> Groups;
  std::vector<OperandUse> Operands;
  std::vector<const Instruction *> LaneKeeping;
  std::map<Key, unsigned> Occurrences;
  /// Interference, one row per web over the webs of its file.
  std::vector<llvm::BitVector> Interference;
  std::vector<unsigned> IndexInFile;
  std::array<std::vector<unsigned>, NumPressureFiles> WebsOfFile;
  std::array<llvm::BitVector, NumPressureFiles> Fixed;
  std::array<unsigned, NumPressureFiles> Named{};
};

} // namespace stinkytofu

#endif
