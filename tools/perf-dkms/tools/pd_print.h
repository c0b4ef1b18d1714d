/* SPDX-License-Identifier: MIT */
/* Text form of PM4 packets, shared by perf-dkms-packets and pm4-decode. */
#ifndef PD_PRINT_H
#define PD_PRINT_H

#include <stdio.h>

#include "pd_arch.h"
#include "pd_pm4.h"

/*
 * Writes the register's name for the architecture ("SQ_PERFCOUNTER0_LO"),
 * or "reg" when unknown or arch is NULL.
 */
void pd_reg_name(const struct pd_arch *arch, uint32_t addr, char *buf,
		 size_t len);

/* One line: opcode, registers by name and decoded fields. */
void pd_print_packet(FILE *out, const struct pd_arch *arch,
		     const struct pd_pm4_packet *p);

#endif /* PD_PRINT_H */
