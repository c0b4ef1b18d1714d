/* SPDX-License-Identifier: MIT */
/*
 * PM4 type-3 packets: one struct per packet, an encoder that appends it to
 * a dword buffer and a decoder that reads it back. The sequences build
 * packets through pd_pm4_emit and pm4-decode reads them with
 * pd_pm4_decode, so the two cannot drift apart.
 *
 * Header (Linux PACKET3): type 3 in bits 30-31, body dwords - 1 in bits
 * 16-29, opcode in bits 8-15.
 */
#ifndef PD_PM4_H
#define PD_PM4_H

#include "pd_compat.h"

PD_EXTERN_C_BEGIN

#define PD_PACKET3(op, n) \
	((3u << 30) | (((uint32_t)(n) & 0x3fff) << 16) | (((uint32_t)(op) & 0xff) << 8))

enum pd_pm4_opcode {
	PD_PM4_WRITE_DATA = 0x37,
	PD_PM4_COPY_DATA = 0x40,
	PD_PM4_EVENT_WRITE = 0x46,
	PD_PM4_ACQUIRE_MEM = 0x58,
	PD_PM4_SET_SH_REG = 0x76,
	PD_PM4_SET_UCONFIG_REG = 0x79,
};

/* Register windows: the packet carries the address minus the start. */
#define PD_UCONFIG_START 0xc000u
#define PD_UCONFIG_END 0x10000u
#define PD_SH_START 0x2c00u
#define PD_SH_END 0x3000u

/* EVENT_WRITE */
#define PD_EVENT_CS_PARTIAL_FLUSH 0x07u
#define PD_EVENT_INDEX_CS_PARTIAL_FLUSH 4u

/* COPY_DATA control (soc15d.h) */
#define PD_COPY_SRC_PERF 4u   /* SRC_SEL: performance counter register */
#define PD_COPY_DST_MEM 5u    /* DST_SEL: memory */
#define PD_COPY_DST_SHIFT 8
#define PD_COPY_COUNT_64 (1u << 16)
#define PD_COPY_WR_CONFIRM (1u << 20)

/* WRITE_DATA control */
#define PD_WRITE_DST_MEM 5u
#define PD_WRITE_DST_SHIFT 8
#define PD_WRITE_WR_CONFIRM (1u << 20)

/* ACQUIRE_MEM: GFX9 CP_COHER_CNTL and GFX10+ GCR_CNTL bits that write L2 back */
#define PD_COHER_TC_WB_ACTION_ENA (1u << 18)
#define PD_COHER_TC_ACTION_ENA (1u << 23)
#define PD_GCR_GL2_WB (1u << 15)
#define PD_ACQUIRE_POLL_INTERVAL 10u

/* Header bits 0-1: predicated, and the shader type bit compute rings may set. */
#define PD_PM4_HEADER_PREDICATE (1u << 0)
#define PD_PM4_HEADER_SHADER_COMPUTE (1u << 1)

struct pd_pm4_packet {
	enum pd_pm4_opcode op;
	uint8_t header_flags; /* PD_PM4_HEADER_* */
	union {
		/*
		 * SET_UCONFIG_REG, SET_SH_REG: absolute register address and the
		 * INDEX field of the offset dword (bits 28-31; 0 here, other
		 * writers use it on GFX10+).
		 */
		struct {
			uint32_t addr;
			uint32_t value;
			uint8_t index;
		} set_reg;
		struct {
			uint8_t type;
			uint8_t index;
		} event;
		struct {
			uint32_t control;
			uint64_t src;
			uint64_t dst;
		} copy;
		struct {
			uint32_t control;
			uint64_t dst;
			uint32_t data;
		} write;
		/*
		 * Base and size in 256-byte units. GFX9 has 7 dwords; GFX10
		 * and later add GCR_CNTL (has_gcr) and leave dword 1 zero.
		 */
		struct {
			uint32_t coher_cntl;
			uint64_t size;
			uint64_t base;
			uint32_t poll_interval;
			bool has_gcr;
			uint32_t gcr_cntl;
		} acquire;
	};
};

struct pd_pm4_buf {
	uint32_t *dw;
	size_t cap;
	size_t len;
	int err; /* first error; later appends are dropped */
};

void pd_pm4_buf_init(struct pd_pm4_buf *buf, uint32_t *storage, size_t cap);

/* Appends p; on failure records -EINVAL or -ENOSPC in buf->err. */
void pd_pm4_emit(struct pd_pm4_buf *buf, const struct pd_pm4_packet *p);

/*
 * Decodes the packet at dw[0..n). Returns the dwords used, or -EINVAL with
 * *why set (why may be NULL).
 */
int pd_pm4_decode(const uint32_t *dw, size_t n, struct pd_pm4_packet *p,
		  const char **why);

const char *pd_pm4_opcode_name(enum pd_pm4_opcode op);

bool pd_pm4_packet_equal(const struct pd_pm4_packet *a,
			 const struct pd_pm4_packet *b);

PD_EXTERN_C_END

#endif /* PD_PM4_H */
