#include "FakeGpu.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {
enum { kSelect, kLo, kHi };
constexpr uint32_t kFieldMask = 0xff;
} // namespace

const pd_gpu_ops FakeGpu::kOps = {
    [](void *gpu, const uint32_t *dw, size_t n) {
      return static_cast<FakeGpu *>(gpu)->submit(dw, n);
    },
    [](void *gpu, uint64_t *addr) {
      auto *self = static_cast<FakeGpu *>(gpu);
      *addr = kResultAddr;
      return reinterpret_cast<const uint64_t *>(self->results_.data());
    },
};

FakeGpu::FakeGpu(const pd_arch &arch) : arch_(arch) {
  counters_.resize(PD_BLOCK_COUNT);
  for (unsigned b = 0; b < PD_BLOCK_COUNT; ++b) {
    counters_[b].resize(arch.blocks[b].num_slots);
    for (auto &slot : counters_[b])
      slot.resize(pd_block_instances(&arch, static_cast<pd_block>(b)));
  }
  // Garbage, so a reading the READ does not write (the high half of a
  // 32-bit counter) shows up if it is used.
  results_.assign(pd_session_result_bytes(&arch), 0xAB);
}

void FakeGpu::happen(pd_block block, uint32_t select, unsigned instance,
                     uint64_t n) {
  if (perfmonState_ != PD_PERFMON_STATE_START ||
      (arch_.force_perfmon_clock && !perfmonClockOn_))
    return;
  unsigned bits = arch_.blocks[block].counter_bits;
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  for (auto &slot : counters_[block]) {
    Counter &c = slot.at(instance);
    if ((c.select & 0x1ff) == select)
      c.value = (c.value + n) & mask;
  }
}

// Whether the current GRBM_GFX_INDEX reaches the instance with index
// value `instanceIndex` (its own broadcast fields mean "any").
bool FakeGpu::addresses(uint32_t instanceIndex) const {
  const struct {
    uint32_t broadcast;
    unsigned shift;
  } fields[] = {{PD_GRBM_SE_BROADCAST, PD_GRBM_SE_SHIFT},
                {PD_GRBM_SA_BROADCAST, PD_GRBM_SA_SHIFT},
                {PD_GRBM_INSTANCE_BROADCAST, PD_GRBM_INSTANCE_SHIFT}};
  for (const auto &f : fields) {
    if ((instanceIndex & f.broadcast) || (grbm_ & f.broadcast))
      continue;
    if (((instanceIndex >> f.shift) & kFieldMask) != ((grbm_ >> f.shift) & kFieldMask))
      return false;
  }
  return true;
}

unsigned FakeGpu::selectedInstance(pd_block block) const {
  unsigned n = pd_block_instances(&arch_, block), found = n, matches = 0;
  uint8_t coords[PD_DIM_COUNT];
  uint32_t index;
  for (unsigned i = 0; i < n; ++i) {
    pd_block_instance(&arch_, block, i, coords, &index);
    if (addresses(index)) {
      found = i;
      ++matches;
    }
  }
  EXPECT_EQ(matches, 1u) << "a counter read must select one instance, GRBM_GFX_INDEX 0x"
                         << std::hex << grbm_;
  return found == n ? 0 : found;
}

bool FakeGpu::findCounterReg(uint32_t addr, pd_block &block, unsigned &slot,
                             int &kind) const {
  for (unsigned b = 0; b < PD_BLOCK_COUNT; ++b)
    for (unsigned s = 0; s < arch_.blocks[b].num_slots; ++s) {
      const pd_slot_regs &r = arch_.blocks[b].slots[s];
      block = static_cast<pd_block>(b);
      slot = s;
      if (pd_reg_addr(&arch_, r.select) == addr) {
        kind = kSelect;
        return true;
      }
      if (pd_reg_addr(&arch_, r.lo) == addr) {
        kind = kLo;
        return true;
      }
      if (arch_.blocks[b].counter_bits == 64 && pd_reg_addr(&arch_, r.hi) == addr) {
        kind = kHi;
        return true;
      }
    }
  return false;
}

void FakeGpu::setReg(uint32_t addr, uint32_t value) {
  if (addr == pd_reg_addr(&arch_, arch_.grbm_gfx_index)) {
    grbm_ = value;
    return;
  }
  if (addr == pd_reg_addr(&arch_, arch_.cp_perfmon_cntl)) {
    perfmonState_ = value & 0xf;
    if (perfmonState_ == PD_PERFMON_STATE_DISABLE_AND_RESET)
      for (auto &block : counters_)
        for (auto &slot : block)
          for (Counter &c : slot)
            c.value = 0;
    if (value == PD_PERFMON_STATE_START)
      ++starts;
    if (value == PD_PERFMON_STATE_STOP)
      ++stops;
    return;
  }
  if (arch_.force_perfmon_clock && addr == pd_reg_addr(&arch_, arch_.rlc_perfmon_clk_cntl)) {
    perfmonClockOn_ = value & 1;
    return;
  }
  if (addr == pd_reg_addr(&arch_, arch_.sq_perfcounter_ctrl) ||
      addr == pd_reg_addr(&arch_, arch_.sq_perfcounter_ctrl2))
    return;
  pd_block block;
  unsigned slot;
  int kind;
  ASSERT_TRUE(findCounterReg(addr, block, slot, kind) && kind == kSelect)
      << "write to an unexpected register 0x" << std::hex << addr;
  uint8_t coords[PD_DIM_COUNT];
  uint32_t index;
  for (unsigned i = 0; i < counters_[block][slot].size(); ++i) {
    pd_block_instance(&arch_, block, i, coords, &index);
    if (addresses(index))
      counters_[block][slot][i].select = value;
  }
}

void FakeGpu::store(uint64_t dst, uint64_t value, unsigned bytes) {
  ASSERT_GE(dst, kResultAddr);
  ASSERT_LE(dst - kResultAddr + bytes, results_.size());
  std::memcpy(results_.data() + (dst - kResultAddr), &value, bytes);
}

void FakeGpu::copy(const pd_pm4_packet &p) {
  ASSERT_EQ(p.copy.control & 0xf, PD_COPY_SRC_PERF);
  ASSERT_EQ((p.copy.control >> PD_COPY_DST_SHIFT) & 0xf, PD_COPY_DST_MEM);
  pd_block block;
  unsigned slot;
  int kind;
  ASSERT_TRUE(findCounterReg(static_cast<uint32_t>(p.copy.src), block, slot, kind) &&
              kind != kSelect)
      << "COPY_DATA from 0x" << std::hex << p.copy.src;
  uint64_t value = counters_[block][slot][selectedInstance(block)].value;
  if (kind == kHi)
    value >>= 32;
  bool count64 = p.copy.control & PD_COPY_COUNT_64;
  store(p.copy.dst, count64 ? value : value & 0xffffffffu, count64 ? 8 : 4);
}

int FakeGpu::submit(const uint32_t *dw, size_t n) {
  ++submits;
  size_t at = 0;
  while (at < n) {
    pd_pm4_packet p;
    const char *why = "";
    int used = pd_pm4_decode(dw + at, n - at, &p, &why);
    EXPECT_GT(used, 0) << why;
    if (used <= 0)
      return -EINVAL;
    switch (p.op) {
    case PD_PM4_SET_UCONFIG_REG:
      setReg(p.set_reg.addr, p.set_reg.value);
      break;
    case PD_PM4_SET_SH_REG:
      EXPECT_EQ(p.set_reg.addr, pd_reg_addr(&arch_, arch_.compute_perfcount_enable));
      break;
    case PD_PM4_COPY_DATA:
      copy(p);
      break;
    case PD_PM4_WRITE_DATA:
      if (!dropFence)
        store(p.write.dst, p.write.data, 4);
      break;
    case PD_PM4_EVENT_WRITE:
    case PD_PM4_ACQUIRE_MEM:
      break;
    }
    at += used;
  }
  return 0;
}
