// SPDX-License-Identifier: MIT
#include "pd_print.h"

#include <inttypes.h>

static const char *const block_reg_kinds[] = { "SELECT", "LO", "HI" };

static bool block_reg_name(const struct pd_arch *arch, uint32_t addr,
			   char *buf, size_t len)
{
	unsigned int b, s, k;

	for (b = 0; b < PD_BLOCK_COUNT; b++) {
		const struct pd_block_desc *block = &arch->blocks[b];

		for (s = 0; s < block->num_slots; s++) {
			const struct pd_slot_regs *r = &block->slots[s];
			const struct pd_reg regs[] = { r->select, r->lo, r->hi };
			unsigned int kinds = block->counter_bits == 64 ? 3 : 2;

			for (k = 0; k < kinds; k++) {
				if (pd_reg_addr(arch, regs[k]) != addr)
					continue;
				snprintf(buf, len, "%s_PERFCOUNTER%u_%s",
					 block->reg_prefix, r->counter,
					 block_reg_kinds[k]);
				return true;
			}
		}
	}
	return false;
}

static bool control_reg_name(const struct pd_arch *arch, uint32_t addr,
			     char *buf, size_t len)
{
	const struct {
		struct pd_reg reg;
		const char *name;
	} controls[] = {
		{ arch->grbm_gfx_index, "GRBM_GFX_INDEX" },
		{ arch->cp_perfmon_cntl, "CP_PERFMON_CNTL" },
		{ arch->compute_perfcount_enable, "COMPUTE_PERFCOUNT_ENABLE" },
		{ arch->sq_perfcounter_ctrl, "SQ_PERFCOUNTER_CTRL" },
		{ arch->sq_perfcounter_ctrl2, "SQ_PERFCOUNTER_CTRL2" },
	};
	size_t i;

	if (arch->force_perfmon_clock &&
	    pd_reg_addr(arch, arch->rlc_perfmon_clk_cntl) == addr) {
		snprintf(buf, len, "RLC_PERFMON_CLK_CNTL");
		return true;
	}
	for (i = 0; i < PD_ARRAY_SIZE(controls); i++) {
		if (pd_reg_addr(arch, controls[i].reg) == addr) {
			snprintf(buf, len, "%s", controls[i].name);
			return true;
		}
	}
	return false;
}

void pd_reg_name(const struct pd_arch *arch, uint32_t addr, char *buf,
		 size_t len)
{
	if (arch && (control_reg_name(arch, addr, buf, len) ||
		     block_reg_name(arch, addr, buf, len)))
		return;
	snprintf(buf, len, "reg");
}

static void print_grbm_index(FILE *out, uint32_t v)
{
	fprintf(out, " [se=");
	if (v & PD_GRBM_SE_BROADCAST)
		fprintf(out, "all");
	else
		fprintf(out, "%u", (v >> PD_GRBM_SE_SHIFT) & 0xff);
	fprintf(out, " sa=");
	if (v & PD_GRBM_SA_BROADCAST)
		fprintf(out, "all");
	else
		fprintf(out, "%u", (v >> PD_GRBM_SA_SHIFT) & 0xff);
	fprintf(out, " instance=");
	if (v & PD_GRBM_INSTANCE_BROADCAST)
		fprintf(out, "all");
	else
		fprintf(out, "%u", (v >> PD_GRBM_INSTANCE_SHIFT) & 0xff);
	fprintf(out, "]");
}

static void print_perfmon(FILE *out, uint32_t v)
{
	static const char *const states[] = { "disable-and-reset", "start",
					      "stop" };
	uint32_t state = v & 0xf;

	if (state < PD_ARRAY_SIZE(states))
		fprintf(out, " [%s", states[state]);
	else
		fprintf(out, " [state=%u", state);
	if (v & PD_PERFMON_SAMPLE_ENABLE)
		fprintf(out, " sample");
	fprintf(out, "]");
}

static void print_set_reg(FILE *out, const struct pd_arch *arch,
			  const struct pd_pm4_packet *p)
{
	char name[64];

	pd_reg_name(arch, p->set_reg.addr, name, sizeof(name));
	if (p->set_reg.index)
		fprintf(out, " index=%u", p->set_reg.index);
	fprintf(out, " %s(0x%04X) = 0x%08X", name, p->set_reg.addr,
		p->set_reg.value);
	if (arch && p->set_reg.addr == pd_reg_addr(arch, arch->grbm_gfx_index))
		print_grbm_index(out, p->set_reg.value);
	else if (arch && p->set_reg.addr == pd_reg_addr(arch, arch->cp_perfmon_cntl))
		print_perfmon(out, p->set_reg.value);
}

static void print_copy(FILE *out, const struct pd_arch *arch,
		       const struct pd_pm4_packet *p)
{
	uint32_t c = p->copy.control;
	char name[64];

	fprintf(out, " src_sel=%u", c & 0xf);
	if ((c & 0xf) == PD_COPY_SRC_PERF) {
		pd_reg_name(arch, (uint32_t)p->copy.src, name, sizeof(name));
		fprintf(out, "(perf) %s(0x%04" PRIX64 ")", name, p->copy.src);
	} else {
		fprintf(out, " src=0x%016" PRIX64, p->copy.src);
	}
	fprintf(out, " dst_sel=%u%s dst=0x%016" PRIX64 " count=%s%s",
		(c >> PD_COPY_DST_SHIFT) & 0xf,
		((c >> PD_COPY_DST_SHIFT) & 0xf) == PD_COPY_DST_MEM ? "(memory)" : "",
		p->copy.dst, c & PD_COPY_COUNT_64 ? "64" : "32",
		c & PD_COPY_WR_CONFIRM ? " wr_confirm" : "");
	c &= ~(0xfu | (0xfu << PD_COPY_DST_SHIFT) | PD_COPY_COUNT_64 |
	       PD_COPY_WR_CONFIRM);
	if (c)
		fprintf(out, " other_control=0x%08X", c);
}

void pd_print_packet(FILE *out, const struct pd_arch *arch,
		     const struct pd_pm4_packet *p)
{
	fprintf(out, "%s", pd_pm4_opcode_name(p->op));
	if (p->header_flags & PD_PM4_HEADER_PREDICATE)
		fprintf(out, " predicated");
	if (p->header_flags & PD_PM4_HEADER_SHADER_COMPUTE)
		fprintf(out, " compute");
	switch (p->op) {
	case PD_PM4_SET_UCONFIG_REG:
	case PD_PM4_SET_SH_REG:
		print_set_reg(out, arch, p);
		break;
	case PD_PM4_EVENT_WRITE:
		fprintf(out, " event_type=0x%02X%s event_index=%u", p->event.type,
			p->event.type == PD_EVENT_CS_PARTIAL_FLUSH ?
				"(CS_PARTIAL_FLUSH)" : "",
			p->event.index);
		break;
	case PD_PM4_COPY_DATA:
		print_copy(out, arch, p);
		break;
	case PD_PM4_WRITE_DATA:
		fprintf(out, " control=0x%08X dst_sel=%u dst=0x%016" PRIX64
			" data=0x%08X%s", p->write.control,
			(p->write.control >> PD_WRITE_DST_SHIFT) & 0xf,
			p->write.dst, p->write.data,
			p->write.control & PD_WRITE_WR_CONFIRM ? " wr_confirm" : "");
		break;
	case PD_PM4_ACQUIRE_MEM:
		fprintf(out, " coher_cntl=0x%08X base=0x%016" PRIX64
			" size=0x%" PRIX64 " (256-byte units) poll_interval=%u",
			p->acquire.coher_cntl, p->acquire.base << 8,
			p->acquire.size, p->acquire.poll_interval);
		if (p->acquire.has_gcr)
			fprintf(out, " gcr_cntl=0x%08X%s", p->acquire.gcr_cntl,
				p->acquire.gcr_cntl & PD_GCR_GL2_WB ? "(GL2_WB)" : "");
		break;
	}
	fputc('\n', out);
}

void pd_print_unknown_arch(const char *name)
{
	unsigned int i;

	fprintf(stderr, "error: unknown architecture '%s' (known:", name);
	for (i = 0; i < pd_arch_count(); i++)
		fprintf(stderr, "%s %s", i ? "," : "", pd_arch_at(i)->name);
	fprintf(stderr, ")\n");
}
