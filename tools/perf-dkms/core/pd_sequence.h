/* SPDX-License-Identifier: MIT */
/*
 * The START / READ / STOP packet sequences (perf-dkms-reference.md 4.2).
 *
 * READ writes each counter's readings into consecutive 8-byte slots, one per
 * block instance in pd_block_instance order, counters in the order given (a
 * 32-bit counter fills the low half only);
 * after the readings and an ACQUIRE_MEM that writes L2 back, a WRITE_DATA
 * stores `fence` in the next 8 bytes so the host can tell a finished READ
 * from a stale buffer.
 */
#ifndef PD_SEQUENCE_H
#define PD_SEQUENCE_H

#include "pd_arch.h"
#include "pd_pm4.h"

PD_EXTERN_C_BEGIN

/* A hardware counter slot and the event it counts. */
struct pd_programmed_counter {
	enum pd_block block;
	uint8_t slot;
	uint32_t select;
};

/* Each returns 0 or the buffer's error (-EINVAL, -ENOSPC). */
int pd_seq_start(struct pd_pm4_buf *buf, const struct pd_arch *arch,
		 const struct pd_programmed_counter *counters, size_t n);

/* result_addr must be 256-byte aligned (ACQUIRE_MEM granularity). */
int pd_seq_read(struct pd_pm4_buf *buf, const struct pd_arch *arch,
		const struct pd_programmed_counter *counters, size_t n,
		uint64_t result_addr, uint32_t fence);

int pd_seq_stop(struct pd_pm4_buf *buf, const struct pd_arch *arch);

/* Bytes of readings of the first n counters (the fence goes right after). */
size_t pd_read_bytes(const struct pd_arch *arch,
		     const struct pd_programmed_counter *counters, size_t n);

PD_EXTERN_C_END

#endif /* PD_SEQUENCE_H */
