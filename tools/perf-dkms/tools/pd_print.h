/* SPDX-License-Identifier: MIT */
/* Text shared by perf-dkms-packets and pm4-decode: PM4 packets, errors. */
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

/* "error: unknown architecture 'NAME' (known: ...)" on stderr. */
void pd_print_unknown_arch(const char *name);

#endif /* PD_PRINT_H */
