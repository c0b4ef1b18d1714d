//===- InstructionEffects.h - What reordering an instruction may change -*- C++ -*-===//
//
// The effects of one instruction that decide whether two instructions may
// swap places, from LLVM MC and the hardware model only (no mnemonic lists):
//
//   - register units read and written: MC's explicit and implicit operands
//     (EXEC, VCC, SCC, M0, MODE included; RegisterUnits.h), everything for
//     an opaque instruction, a pseudo-instruction or a call;
//   - memory: per address space (global memory, which scalar, buffer,
//     global, scratch and generic flat accesses share; LDS; GDS) whether it
//     reads, writes, or must keep its order with every access of that space
//     (atomics); where a uniform address is known, its bytes
//     (MemoryLocation);
//   - fences, ordered with every other instruction: control transfers and
//     calls (MC's flags), the SALU program-control format (TSFlags SOPP:
//     waits, s_nop, s_setprio, s_sleep, s_sendmsg, s_barrier,
//     s_set_vgpr_msb, s_delay_alu, ...), the counter waits of the hardware
//     model (CounterWait), its roles Barrier, CacheInvalidate, HwRegWrite,
//     ReturningMessage, Clause and ProgramCounterRead, a memory-format
//     instruction that neither loads nor stores (cache maintenance, clock
//     reads), and an instruction with an expression operand (its value
//     may depend on the layout); a barrier with LDS dependences
//     (`mod.lds_deps`) is not a fence but an access of its LDS tokens and
//     an ordered access of global memory and GDS.
//
// MC's hasUnmodeledSideEffects is not used: LLVM sets it on nearly every
// real (encoded) opcode, which is what the assembler produces; only its
// codegen pseudos carry the meaningful flag.
//
// The dependence DAG (DependenceDAG.h) and the schedule validator
// (ScheduleValidator.h) both read these effects and nothing else, so what
// they prove rests on this file's model (docs/scheduler.md).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_INSTRUCTIONEFFECTS_H
#define STINKYTOFU_ANALYSIS_INSTRUCTIONEFFECTS_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/BitVector.h"
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace stinkytofu {

enum class MemorySpace : uint8_t { Global, Lds, Gds };
inline constexpr unsigned NumMemorySpaces = 3;
llvm::StringRef memorySpaceName(MemorySpace S);

/// What an instruction does to one address space.
struct SpaceAccess {
  bool Reads = false;
  bool Writes = false;
  /// Kept in order with every access of the space, disjoint or not
  /// (atomics, an access of unknown shape).
  bool Ordered = false;
  bool any() const { return Reads || Writes || Ordered; }
};

/// The bytes a memory instruction accesses when every lane uses the same
/// address: Begin..End past the value of its address registers, which are
/// the same registers (Key) for two accesses that can be compared.
struct MemoryLocation {
  /// The address operands as MC prints them ("s[4:7],s8").
  std::string Key;
  /// The units of the address registers: the locations of two accesses
  /// compare only when these units hold the same values at both.
  std::vector<unsigned> AddressUnits;
  int64_t Begin = 0;
  int64_t End = 0;
};

struct InstructionEffects {
  llvm::BitVector Reads;
  llvm::BitVector Writes;
  /// Ordered with every other instruction.
  bool Fence = false;
  std::array<SpaceAccess, NumMemorySpaces> Memory{};
  std::optional<MemoryLocation> Location;
  /// LDS buffers (`mod.memtoken`): LDS accesses with disjoint token sets
  /// touch different buffers. Empty when not annotated.
  std::vector<int64_t> LdsTokens;

  const SpaceAccess &space(MemorySpace S) const { return Memory[unsigned(S)]; }
  bool accessesMemory() const;
};

/// Whether the accesses of \p A and \p B to space \p S must keep their
/// order: both access it, one writes or is ordered, and no proof separates
/// them. \p SameAddressValues says whether the address registers of both
/// hold the same values (the caller knows no write to them in between).
bool memoryConflict(const InstructionEffects &A, const InstructionEffects &B, MemorySpace S,
                    bool SameAddressValues);

/// Whether \p I is a barrier StinkyBuildImplicitDependencyPass gave LDS
/// dependences (`mod.lds_deps`): not a fence, but ordered with the LDS
/// accesses of its tokens, with every global and GDS access and with the
/// other barriers (docs/scheduler.md).
bool isTokenBarrier(const Instruction &I);

/// Computes the effects of instructions of one target.
class EffectModel {
public:
  explicit EffectModel(const TargetInfo &TI);
  ~EffectModel();
  EffectModel(EffectModel &&);

  const RegisterUnits &units() const { return RU; }
  InstructionEffects effectsOf(const Instruction &I) const;
  /// Whether \p I is a fence (ordered with everything), without the rest.
  bool isFence(const Instruction &I) const;

private:
  /// The same with \p I's mnemonic in lower case.
  bool isFence(const Instruction &I, llvm::StringRef Mnemonic) const;
  void addMemory(const Instruction &I, llvm::StringRef Mnemonic, InstructionEffects &E) const;
  std::optional<MemoryLocation> uniformLocation(const Instruction &I) const;

  RegisterUnits RU;
  std::unique_ptr<CounterModel> Counters;
  uint64_t SoppMask = 0, SmrdMask = 0, BufferMask = 0, MemoryFormatMask = 0;
};

} // namespace stinkytofu

#endif
