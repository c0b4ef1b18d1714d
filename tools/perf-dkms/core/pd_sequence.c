// SPDX-License-Identifier: MIT
#include "pd_sequence.h"

#define READING_BYTES 8u
#define ACQUIRE_GRANULE_SHIFT 8

static void set_reg(struct pd_pm4_buf *buf, const struct pd_arch *arch,
		    struct pd_reg reg, uint32_t value)
{
	struct pd_pm4_packet p = { .op = PD_PM4_SET_UCONFIG_REG };

	p.set_reg.addr = pd_reg_addr(arch, reg);
	p.set_reg.value = value;
	pd_pm4_emit(buf, &p);
}

static void cs_partial_flush(struct pd_pm4_buf *buf)
{
	struct pd_pm4_packet p = { .op = PD_PM4_EVENT_WRITE };

	p.event.type = PD_EVENT_CS_PARTIAL_FLUSH;
	p.event.index = PD_EVENT_INDEX_CS_PARTIAL_FLUSH;
	pd_pm4_emit(buf, &p);
}

static void grbm_broadcast(struct pd_pm4_buf *buf, const struct pd_arch *arch)
{
	set_reg(buf, arch, arch->grbm_gfx_index, PD_GRBM_BROADCAST_ALL);
}

static void perfmon(struct pd_pm4_buf *buf, const struct pd_arch *arch,
		    uint32_t value)
{
	set_reg(buf, arch, arch->cp_perfmon_cntl, value);
}

static void copy_counter(struct pd_pm4_buf *buf, uint32_t reg_addr,
			 uint64_t dst, bool count_64)
{
	struct pd_pm4_packet p = { .op = PD_PM4_COPY_DATA };

	p.copy.control = PD_COPY_SRC_PERF |
			 (PD_COPY_DST_MEM << PD_COPY_DST_SHIFT) |
			 (count_64 ? PD_COPY_COUNT_64 : 0) | PD_COPY_WR_CONFIRM;
	p.copy.src = reg_addr;
	p.copy.dst = dst;
	pd_pm4_emit(buf, &p);
}

static bool counters_valid(const struct pd_arch *arch,
			   const struct pd_programmed_counter *counters,
			   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (counters[i].block >= PD_BLOCK_COUNT ||
		    counters[i].slot >= arch->blocks[counters[i].block].num_slots)
			return false;
	return true;
}

static void program_counter(struct pd_pm4_buf *buf, const struct pd_arch *arch,
			    const struct pd_programmed_counter *c)
{
	const struct pd_block_desc *block = &arch->blocks[c->block];
	const struct pd_slot_regs *regs = &block->slots[c->slot];
	unsigned int i, instances;
	uint8_t coords[PD_DIM_COUNT];
	uint32_t index;

	if (c->block == PD_BLOCK_SQ) {
		set_reg(buf, arch, regs->select, c->select | arch->sq_select_masks);
		set_reg(buf, arch, arch->sq_perfcounter_ctrl, arch->sq_ctrl_value);
		return;
	}
	if (block->layout != PD_LAYOUT_PER_CHANNEL) {
		set_reg(buf, arch, regs->select, c->select);
		return;
	}
	/* A broadcast write does not reach every L2 channel's SELECT. */
	instances = pd_block_instances(arch, c->block);
	for (i = 0; i < instances; i++) {
		pd_block_instance(arch, c->block, i, coords, &index);
		set_reg(buf, arch, arch->grbm_gfx_index, index);
		set_reg(buf, arch, regs->select, c->select);
	}
	grbm_broadcast(buf, arch);
}

int pd_seq_start(struct pd_pm4_buf *buf, const struct pd_arch *arch,
		 const struct pd_programmed_counter *counters, size_t n)
{
	struct pd_pm4_packet enable = { .op = PD_PM4_SET_SH_REG };
	bool uses_sq = false;
	size_t i;

	if (!counters_valid(arch, counters, n))
		return -EINVAL;
	cs_partial_flush(buf);
	grbm_broadcast(buf, arch);
	if (arch->force_perfmon_clock)
		set_reg(buf, arch, arch->rlc_perfmon_clk_cntl, 1);
	perfmon(buf, arch, PD_PERFMON_STATE_DISABLE_AND_RESET);
	for (i = 0; i < n; i++)
		uses_sq |= counters[i].block == PD_BLOCK_SQ;
	if (uses_sq)
		set_reg(buf, arch, arch->sq_perfcounter_ctrl2, arch->sq_ctrl2_value);
	grbm_broadcast(buf, arch);
	for (i = 0; i < n; i++)
		program_counter(buf, arch, &counters[i]);
	enable.set_reg.addr = pd_reg_addr(arch, arch->compute_perfcount_enable);
	enable.set_reg.value = 1;
	pd_pm4_emit(buf, &enable);
	perfmon(buf, arch, PD_PERFMON_STATE_START);
	cs_partial_flush(buf);
	return buf->err;
}

static void read_counter(struct pd_pm4_buf *buf, const struct pd_arch *arch,
			 const struct pd_programmed_counter *c, uint64_t *addr)
{
	const struct pd_block_desc *block = &arch->blocks[c->block];
	const struct pd_slot_regs *regs = &block->slots[c->slot];
	unsigned int i, instances = pd_block_instances(arch, c->block);
	uint8_t coords[PD_DIM_COUNT];
	uint32_t index;

	for (i = 0; i < instances; i++, *addr += READING_BYTES) {
		pd_block_instance(arch, c->block, i, coords, &index);
		if (block->split_lo_hi) {
			/* The channel must be re-selected from broadcast. */
			grbm_broadcast(buf, arch);
			set_reg(buf, arch, arch->grbm_gfx_index, index);
			copy_counter(buf, pd_reg_addr(arch, regs->lo), *addr, false);
			copy_counter(buf, pd_reg_addr(arch, regs->hi), *addr + 4, false);
		} else {
			set_reg(buf, arch, arch->grbm_gfx_index, index);
			copy_counter(buf, pd_reg_addr(arch, regs->lo), *addr,
				     block->counter_bits == 64);
		}
	}
}

size_t pd_read_bytes(const struct pd_arch *arch,
		     const struct pd_programmed_counter *counters, size_t n)
{
	size_t i, bytes = 0;

	for (i = 0; i < n; i++)
		bytes += READING_BYTES * pd_block_instances(arch, counters[i].block);
	return bytes;
}

static void acquire_results(struct pd_pm4_buf *buf, const struct pd_arch *arch,
			    uint64_t addr, size_t bytes)
{
	struct pd_pm4_packet p = { .op = PD_PM4_ACQUIRE_MEM };
	const uint64_t granule = 1u << ACQUIRE_GRANULE_SHIFT;

	p.acquire.base = addr >> ACQUIRE_GRANULE_SHIFT;
	p.acquire.size = (bytes + granule - 1) >> ACQUIRE_GRANULE_SHIFT;
	p.acquire.poll_interval = PD_ACQUIRE_POLL_INTERVAL;
	if (arch->family == PD_FAMILY_GFX9) {
		p.acquire.coher_cntl = PD_COHER_TC_ACTION_ENA |
				       PD_COHER_TC_WB_ACTION_ENA;
	} else {
		p.acquire.has_gcr = true;
		p.acquire.gcr_cntl = PD_GCR_GL2_WB;
	}
	pd_pm4_emit(buf, &p);
}

static void write_fence(struct pd_pm4_buf *buf, uint64_t addr, uint32_t fence)
{
	struct pd_pm4_packet p = { .op = PD_PM4_WRITE_DATA };

	p.write.control = (PD_WRITE_DST_MEM << PD_WRITE_DST_SHIFT) |
			  PD_WRITE_WR_CONFIRM;
	p.write.dst = addr;
	p.write.data = fence;
	pd_pm4_emit(buf, &p);
}

int pd_seq_read(struct pd_pm4_buf *buf, const struct pd_arch *arch,
		const struct pd_programmed_counter *counters, size_t n,
		uint64_t result_addr, uint32_t fence)
{
	uint64_t addr = result_addr;
	size_t i, bytes;

	if (!counters_valid(arch, counters, n) ||
	    result_addr & ((1u << ACQUIRE_GRANULE_SHIFT) - 1))
		return -EINVAL;
	bytes = pd_read_bytes(arch, counters, n);
	perfmon(buf, arch, PD_PERFMON_STATE_START | PD_PERFMON_SAMPLE_ENABLE);
	grbm_broadcast(buf, arch);
	cs_partial_flush(buf);
	for (i = 0; i < n; i++)
		read_counter(buf, arch, &counters[i], &addr);
	grbm_broadcast(buf, arch);
	acquire_results(buf, arch, result_addr, bytes);
	write_fence(buf, result_addr + bytes, fence);
	return buf->err;
}

int pd_seq_stop(struct pd_pm4_buf *buf, const struct pd_arch *arch)
{
	grbm_broadcast(buf, arch);
	perfmon(buf, arch, PD_PERFMON_STATE_STOP);
	cs_partial_flush(buf);
	return buf->err;
}
