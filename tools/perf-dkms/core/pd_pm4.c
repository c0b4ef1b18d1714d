// SPDX-License-Identifier: MIT
#include "pd_pm4.h"

#define ACQUIRE_SIZE_HI_MASK 0xffu
#define SET_REG_INDEX_SHIFT 28
#define SET_REG_OFFSET_MASK 0xffffu
#define ACQUIRE_BASE_HI_MASK 0xffffffu

void pd_pm4_buf_init(struct pd_pm4_buf *buf, uint32_t *storage, size_t cap)
{
	buf->dw = storage;
	buf->cap = cap;
	buf->len = 0;
	buf->err = 0;
}

static bool in_window(uint32_t addr, uint32_t start, uint32_t end)
{
	return addr >= start && addr < end;
}

/* Whether a packet's fields fit the encoding (so decoding gives them back). */
static bool encodable(const struct pd_pm4_packet *p)
{
	if (p->header_flags & ~(PD_PM4_HEADER_PREDICATE | PD_PM4_HEADER_SHADER_COMPUTE))
		return false;
	switch (p->op) {
	case PD_PM4_SET_UCONFIG_REG:
		return in_window(p->set_reg.addr, PD_UCONFIG_START, PD_UCONFIG_END) &&
		       p->set_reg.index < 0x10;
	case PD_PM4_SET_SH_REG:
		return in_window(p->set_reg.addr, PD_SH_START, PD_SH_END) &&
		       p->set_reg.index < 0x10;
	case PD_PM4_EVENT_WRITE:
		return p->event.type < 0x40 && p->event.index < 0x10;
	case PD_PM4_COPY_DATA:
	case PD_PM4_WRITE_DATA:
		return true;
	case PD_PM4_ACQUIRE_MEM:
		return (p->acquire.size >> 32) <= ACQUIRE_SIZE_HI_MASK &&
		       (p->acquire.base >> 32) <= ACQUIRE_BASE_HI_MASK &&
		       p->acquire.poll_interval <= 0xffff &&
		       !(p->acquire.has_gcr && p->acquire.coher_cntl);
	default:
		return false;
	}
}

/* Dwords the packet takes; 0 for a packet that cannot be encoded. */
static size_t packet_dwords(const struct pd_pm4_packet *p)
{
	if (!encodable(p))
		return 0;
	switch (p->op) {
	case PD_PM4_SET_UCONFIG_REG:
	case PD_PM4_SET_SH_REG:
		return 3;
	case PD_PM4_EVENT_WRITE:
		return 2;
	case PD_PM4_COPY_DATA:
		return 6;
	case PD_PM4_WRITE_DATA:
		return 5;
	case PD_PM4_ACQUIRE_MEM:
		return p->acquire.has_gcr ? 8 : 7;
	default:
		return 0;
	}
}

static uint32_t lo32(uint64_t v)
{
	return (uint32_t)v;
}

static uint32_t hi32(uint64_t v)
{
	return (uint32_t)(v >> 32);
}

void pd_pm4_emit(struct pd_pm4_buf *buf, const struct pd_pm4_packet *p)
{
	size_t n = packet_dwords(p);
	uint32_t *d;

	if (buf->err)
		return;
	if (!n) {
		buf->err = -EINVAL;
		return;
	}
	if (buf->cap - buf->len < n) {
		buf->err = -ENOSPC;
		return;
	}
	d = buf->dw + buf->len;
	buf->len += n;
	d[0] = PD_PACKET3(p->op, n - 2) | p->header_flags;
	switch (p->op) {
	case PD_PM4_SET_UCONFIG_REG:
	case PD_PM4_SET_SH_REG:
		d[1] = (p->set_reg.addr - (p->op == PD_PM4_SET_SH_REG ?
					   PD_SH_START : PD_UCONFIG_START)) |
		       ((uint32_t)p->set_reg.index << SET_REG_INDEX_SHIFT);
		d[2] = p->set_reg.value;
		break;
	case PD_PM4_EVENT_WRITE:
		d[1] = p->event.type | ((uint32_t)p->event.index << 8);
		break;
	case PD_PM4_COPY_DATA:
		d[1] = p->copy.control;
		d[2] = lo32(p->copy.src);
		d[3] = hi32(p->copy.src);
		d[4] = lo32(p->copy.dst);
		d[5] = hi32(p->copy.dst);
		break;
	case PD_PM4_WRITE_DATA:
		d[1] = p->write.control;
		d[2] = lo32(p->write.dst);
		d[3] = hi32(p->write.dst);
		d[4] = p->write.data;
		break;
	case PD_PM4_ACQUIRE_MEM:
		d[1] = p->acquire.coher_cntl;
		d[2] = lo32(p->acquire.size);
		d[3] = hi32(p->acquire.size);
		d[4] = lo32(p->acquire.base);
		d[5] = hi32(p->acquire.base);
		d[6] = p->acquire.poll_interval;
		if (p->acquire.has_gcr)
			d[7] = p->acquire.gcr_cntl;
		break;
	}
}

static uint64_t join64(uint32_t lo, uint32_t hi)
{
	return ((uint64_t)hi << 32) | lo;
}

static int fail(const char **why, const char *text)
{
	if (why)
		*why = text;
	return -EINVAL;
}

int pd_pm4_decode(const uint32_t *dw, size_t n, struct pd_pm4_packet *p,
		  const char **why)
{
	uint32_t header, body;
	size_t total;

	if (n == 0)
		return fail(why, "no dwords left for a packet header");
	header = dw[0];
	if (header >> 30 != 3)
		return fail(why, "not a type-3 packet header");
	if (header & 0xfc)
		return fail(why, "reserved header bits 2-7 are set");
	body = ((header >> 16) & 0x3fff) + 1;
	total = body + 1;
	if (total > n)
		return fail(why, "packet runs past the end of the stream");
	memset(p, 0, sizeof(*p));
	p->op = (enum pd_pm4_opcode)((header >> 8) & 0xff);
	p->header_flags = header & 0x3;
	switch (p->op) {
	case PD_PM4_SET_UCONFIG_REG:
	case PD_PM4_SET_SH_REG:
		if (body != 2)
			return fail(why, "only single-register SET packets are supported");
		if (dw[1] & ~(SET_REG_OFFSET_MASK | (0xfu << SET_REG_INDEX_SHIFT)))
			return fail(why, "SET register offset dword sets bits 16-27");
		p->set_reg.addr = (dw[1] & SET_REG_OFFSET_MASK) +
				  (p->op == PD_PM4_SET_SH_REG ? PD_SH_START :
								PD_UCONFIG_START);
		p->set_reg.index = dw[1] >> SET_REG_INDEX_SHIFT;
		p->set_reg.value = dw[2];
		break;
	case PD_PM4_EVENT_WRITE:
		if (body != 1)
			return fail(why, "only EVENT_WRITE without an address is supported");
		if (dw[1] & ~0xf3fu)
			return fail(why, "EVENT_WRITE sets bits outside EVENT_TYPE and EVENT_INDEX");
		p->event.type = dw[1] & 0x3f;
		p->event.index = (dw[1] >> 8) & 0xf;
		break;
	case PD_PM4_COPY_DATA:
		if (body != 5)
			return fail(why, "COPY_DATA has 5 body dwords");
		p->copy.control = dw[1];
		p->copy.src = join64(dw[2], dw[3]);
		p->copy.dst = join64(dw[4], dw[5]);
		break;
	case PD_PM4_WRITE_DATA:
		if (body != 4)
			return fail(why, "only WRITE_DATA of one dword is supported");
		p->write.control = dw[1];
		p->write.dst = join64(dw[2], dw[3]);
		p->write.data = dw[4];
		break;
	case PD_PM4_ACQUIRE_MEM:
		if (body != 6 && body != 7)
			return fail(why, "ACQUIRE_MEM has 6 (GFX9) or 7 (GFX10+) body dwords");
		p->acquire.coher_cntl = dw[1];
		p->acquire.size = join64(dw[2], dw[3]);
		p->acquire.base = join64(dw[4], dw[5]);
		p->acquire.poll_interval = dw[6];
		p->acquire.has_gcr = body == 7;
		if (p->acquire.has_gcr)
			p->acquire.gcr_cntl = dw[7];
		break;
	default:
		return fail(why, "unknown PM4 opcode");
	}
	if (!encodable(p))
		return fail(why, "packet fields out of range");
	return (int)total;
}

const char *pd_pm4_opcode_name(enum pd_pm4_opcode op)
{
	switch (op) {
	case PD_PM4_WRITE_DATA:
		return "WRITE_DATA";
	case PD_PM4_COPY_DATA:
		return "COPY_DATA";
	case PD_PM4_EVENT_WRITE:
		return "EVENT_WRITE";
	case PD_PM4_ACQUIRE_MEM:
		return "ACQUIRE_MEM";
	case PD_PM4_SET_SH_REG:
		return "SET_SH_REG";
	case PD_PM4_SET_UCONFIG_REG:
		return "SET_UCONFIG_REG";
	default:
		return "UNKNOWN";
	}
}

bool pd_pm4_packet_equal(const struct pd_pm4_packet *a,
			 const struct pd_pm4_packet *b)
{
	if (a->op != b->op || a->header_flags != b->header_flags)
		return false;
	switch (a->op) {
	case PD_PM4_SET_UCONFIG_REG:
	case PD_PM4_SET_SH_REG:
		return a->set_reg.addr == b->set_reg.addr &&
		       a->set_reg.value == b->set_reg.value &&
		       a->set_reg.index == b->set_reg.index;
	case PD_PM4_EVENT_WRITE:
		return a->event.type == b->event.type &&
		       a->event.index == b->event.index;
	case PD_PM4_COPY_DATA:
		return a->copy.control == b->copy.control &&
		       a->copy.src == b->copy.src && a->copy.dst == b->copy.dst;
	case PD_PM4_WRITE_DATA:
		return a->write.control == b->write.control &&
		       a->write.dst == b->write.dst &&
		       a->write.data == b->write.data;
	case PD_PM4_ACQUIRE_MEM:
		return a->acquire.coher_cntl == b->acquire.coher_cntl &&
		       a->acquire.size == b->acquire.size &&
		       a->acquire.base == b->acquire.base &&
		       a->acquire.poll_interval == b->acquire.poll_interval &&
		       a->acquire.has_gcr == b->acquire.has_gcr &&
		       a->acquire.gcr_cntl == b->acquire.gcr_cntl;
	default:
		return false;
	}
}
