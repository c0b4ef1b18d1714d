//===- RegisterPressure.h - Live VGPRs, AGPRs and SGPRs at every point -*- C++ -*-===//
//
// How many registers of each file a function holds at each instruction, per
// block, per loop and over the function, on top of Liveness.h. The
// registers an instruction occupies are those live before it (its reads
// included) and those it writes: a write that is never read still needs its
// register while the instruction runs. Registers are counted as 32-bit
// registers of their file, a tuple as every register it covers (what the
// hardware allocates); VCC, EXEC, M0, SCC and trap temporaries are not
// counted. At a call, what its callee reads is live before it (Liveness,
// CallEffects.h) and counts; what the callee may write does not: that is
// the callee's own pressure.
//
// A callable function (not a kernel: `.type f,@function`, AMDGPU calling
// convention) is counted with what its caller reads after a return bounded
// by the convention (pressureLivenessOptions): the return address, the
// stack pointer, and of the return-value VGPRs and the callee-saved
// registers those it writes (CallingConvention.h, heldAtAbiReturn). A
// callee-saved register it never writes holds its caller's value
// untouched: no register of its own, as a register it never names.
//
// A VGPR of a kernel that v_writelane_b32 parks values in (an SGPR spill
// to a lane) is live for Liveness from the kernel's entry: a lane write
// reads the lanes it keeps. Until some path writes it, it holds nothing:
// it is not counted there. So it counts from its first v_writelane_b32 to
// its last read (through a whole loop that parks on every iteration);
// parkedLanes() lists them. v0-v2 (the work-item IDs) hold values at a
// kernel's entry and count as ever.
//
// Pressure is about values; the allocation (the highest register a kernel
// names, what its descriptor reserves) is what occupancy depends on, since
// registers are not renamed: highestUsed() gives that next to the counts.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_REGISTERPRESSURE_H
#define STINKYTOFU_ANALYSIS_REGISTERPRESSURE_H

#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <vector>

namespace stinkytofu {

/// The register files whose pressure is counted.
enum class PressureFile : uint8_t { VGPR, AGPR, SGPR };
inline constexpr unsigned NumPressureFiles = 3;
/// "vgpr", "agpr", "sgpr".
llvm::StringRef pressureFileName(PressureFile F);

/// A count per file.
struct PressureCounts {
  std::array<unsigned, NumPressureFiles> Count{};

  unsigned operator[](PressureFile F) const { return Count[unsigned(F)]; }
  unsigned &operator[](PressureFile F) { return Count[unsigned(F)]; }
  /// The larger count of each file.
  void maxWith(const PressureCounts &O);
  bool operator==(const PressureCounts &O) const { return Count == O.Count; }
};

/// Which 32-bit register of which file each register unit belongs to.
class PressureUnitMap {
public:
  explicit PressureUnitMap(const RegisterUnits &RU);

  /// The registers of each file with any unit set in \p Units.
  PressureCounts count(const llvm::BitVector &Units) const;
  /// The registers of file \p F with any unit set in \p Units, ascending.
  std::vector<unsigned> registers(const llvm::BitVector &Units, PressureFile F) const;
  /// Calls \p Fn(Index) for each unit set in \p Units of a register of file
  /// \p F, ascending: twice for a register whose two halves are set.
  template <typename FnT>
  void forEachRegisterUnit(const llvm::BitVector &Units, PressureFile F, FnT Fn) const {
    forEachSetUnit(Units, [&](unsigned U) {
      if (const Slot &S = Slots[U]; S.File == int8_t(F))
        Fn(unsigned(S.Index));
    });
  }
  /// The highest index + 1 of a register of each file with a unit set.
  PressureCounts highest(const llvm::BitVector &Units) const;
  /// Sets the units of register \p Index of file \p F in \p Units.
  void set(llvm::BitVector &Units, PressureFile F, unsigned Index) const {
    const std::vector<std::pair<unsigned, unsigned>> &Of = UnitsOf[unsigned(F)];
    if (Index < Of.size())
      Units.set(Of[Index].first, Of[Index].second + 1);
  }
  /// Whether a unit of register \p Index of file \p F is set in \p Units.
  bool test(const llvm::BitVector &Units, PressureFile F, unsigned Index) const {
    const std::vector<std::pair<unsigned, unsigned>> &Of = UnitsOf[unsigned(F)];
    return Index < Of.size() && (Units.test(Of[Index].first) || Units.test(Of[Index].second));
  }

private:
  struct Slot {
    int8_t File = -1; ///< a PressureFile, -1 for other registers
    uint16_t Index = 0;
    unsigned First = 0; ///< the first unit of the register
  };
  std::vector<Slot> Slots; // by unit
  /// By file and index, the first and last unit of the register.
  std::array<std::vector<std::pair<unsigned, unsigned>>, NumPressureFiles> UnitsOf;
};

/// A VGPR that v_writelane_b32 parks values in (SGPRs spilled to lanes).
struct ParkedLanes {
  unsigned VGPR;              ///< its index
  unsigned Writes = 0;        ///< the v_writelane_b32 writing it
  const Instruction *FirstWrite = nullptr;
  /// The last instruction, in layout order, reading it after FirstWrite
  /// (a lane write reads the lanes it keeps); null when none.
  const Instruction *LastRead = nullptr;
};

/// The liveness options a function's pressure is counted with: the
/// defaults for a kernel; for a callable function, what it holds at a
/// return by the calling convention (heldAtAbiReturn of what it writes).
LivenessOptions pressureLivenessOptions(const Function &F);

class RegisterPressure {
public:
  /// The pressure of the function \p Live describes.
  explicit RegisterPressure(const Liveness &Live);
  /// The same, keeping \p Own.
  explicit RegisterPressure(std::unique_ptr<Liveness> Own);

  const Liveness &liveness() const { return *Live; }
  const PressureUnitMap &unitMap() const { return Map; }

  /// The registers \p I occupies: live before it or written by it. Zero
  /// counts for an instruction of another function.
  PressureCounts at(const Instruction &I) const;
  /// The units behind at(\p I).
  llvm::BitVector occupiedAt(const Instruction &I) const;
  /// The same into \p Units, whose storage is reused (a walk over every
  /// instruction).
  void occupiedAt(const Instruction &I, llvm::BitVector &Units) const;
  /// The largest count of each file over the instructions of \p BB, its
  /// live-in and its live-out.
  PressureCounts blockMax(const BasicBlock &BB) const;
  /// The largest count of each file over the blocks of \p L.
  PressureCounts loopMax(const Loop &L) const;
  /// The largest count of each file over the function.
  const PressureCounts &max() const { return FunctionMax; }
  /// The instructions where file \p F reaches max(), in layout order.
  const std::vector<const Instruction *> &maxPoints(PressureFile F) const {
    return MaxPoints[unsigned(F)];
  }
  /// The highest index + 1 of a register of each file the function's
  /// operands name: the registers it needs allocated (its callees' not
  /// included).
  const PressureCounts &highestUsed() const { return Highest; }
  /// The vector units live before \p I that hold no value yet (see the
  /// file comment); null when there are none.
  const llvm::BitVector *valuelessBefore(const Instruction &I) const {
    auto It = Valueless.find(&I);
    return It == Valueless.end() ? nullptr : &It->second;
  }
  /// The VGPRs v_writelane_b32 parks values in, ascending.
  const std::vector<ParkedLanes> &parkedLanes() const { return Parked; }
  /// Calls of a callee outside the module, which may read every register
  /// (CallEffects.h): everything is live before them (and before a call of
  /// a function that makes one).
  unsigned unknownCalls() const { return UnknownCalls; }

private:
  std::unique_ptr<Liveness> Owned;
  const Liveness *Live;
  PressureUnitMap Map;
  llvm::DenseMap<const Instruction *, PressureCounts> AtInst;
  llvm::DenseMap<const BasicBlock *, PressureCounts> BlockMax;
  PressureCounts FunctionMax, Highest;
  unsigned UnknownCalls = 0;
  std::array<std::vector<const Instruction *>, NumPressureFiles> MaxPoints;
  llvm::DenseMap<const Instruction *, llvm::BitVector> Valueless;
  std::vector<ParkedLanes> Parked;

  /// Fills Valueless, for a kernel whose parked VGPRs are live before any
  /// write (after findParkedLanes).
  void findValueless(const Function &F);
  /// Fills Parked.
  void findParkedLanes(const Function &F);
};

/// The pressure of a function, on LivenessAnalysis for a kernel and on a
/// liveness of its own (pressureLivenessOptions) for a callable function:
/// an error when its CFG is not valid.
struct RegisterPressureAnalysis {
  static AnalysisKey Key;
  using Result = RegisterPressure;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif
