// A simulated GPU for the session tests: it executes the PM4 the core
// submits (through the core's own decoder) against a register file of
// performance counters, one set per block instance, that count events the
// test injects while perfmon is started.
#pragma once

#include <cstdint>
#include <vector>

#include "pd_session.h"

class FakeGpu {
public:
  explicit FakeGpu(const pd_arch &arch);

  static const pd_gpu_ops kOps;

  // n events of `select` at reading `instance` (pd_block_instance order) of
  // `block`: every slot of the block selecting it there counts them.
  void happen(pd_block block, uint32_t select, unsigned instance, uint64_t n);

  unsigned starts = 0; // CP_PERFMON_CNTL = start (the START sequence)
  unsigned stops = 0;  // CP_PERFMON_CNTL = stop (the STOP sequence)
  unsigned submits = 0;
  bool dropFence = false; // WRITE_DATA does not land: a stale READ

private:
  int submit(const uint32_t *dw, size_t n);
  void setReg(uint32_t addr, uint32_t value);
  void copy(const pd_pm4_packet &p);
  void store(uint64_t dst, uint64_t value, unsigned bytes);
  bool addresses(uint32_t instanceIndex) const;
  // The instance of `block` the current GRBM_GFX_INDEX selects; fails the
  // test unless exactly one does.
  unsigned selectedInstance(pd_block block) const;
  bool findCounterReg(uint32_t addr, pd_block &block, unsigned &slot,
                      int &kind) const;

  const pd_arch &arch_;
  uint32_t grbm_ = PD_GRBM_BROADCAST_ALL;
  uint32_t perfmonState_ = PD_PERFMON_STATE_DISABLE_AND_RESET;
  bool perfmonClockOn_ = false; // GFX9 counts only with the clock forced
  struct Counter {
    uint32_t select = 0;
    uint64_t value = 0;
  };
  // [block][slot][instance]
  std::vector<std::vector<std::vector<Counter>>> counters_;
  std::vector<uint8_t> results_;
  static constexpr uint64_t kResultAddr = 0x7f0000000ull;
};
