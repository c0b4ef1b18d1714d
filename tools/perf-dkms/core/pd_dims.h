/* SPDX-License-Identifier: MIT */
/*
 * Dimensions of a measurement (which XCC, SE, SA, WGP or CU to count) and
 * their encoding in perf_event_attr.config1.
 *
 * config1 layout:
 *   bits  0-7   XCC        bits 32-39  CU
 *   bits  8-15  SE         bit  40     aggregate (sum of every instance)
 *   bits 16-23  SA         bits 41-45  "given" flags: XCC, SE, SA, WGP, CU
 *   bits 24-31  WGP        bits 46-63  reserved, must be 0
 *
 * The reference layout stops at bit 40 and reads a field value of 0 as
 * "not requested", so se=0 cannot be asked for. Here a dimension is
 * requested exactly when its given flag is set; a non-zero value without
 * its flag is rejected rather than guessed at.
 */
#ifndef PD_DIMS_H
#define PD_DIMS_H

#include "pd_compat.h"

PD_EXTERN_C_BEGIN

enum pd_dim {
	PD_DIM_XCC,
	PD_DIM_SE,
	PD_DIM_SA,
	PD_DIM_WGP,
	PD_DIM_CU,
	PD_DIM_COUNT
};

#define PD_DIM_BIT(d) (1u << (d))

#define PD_CONFIG1_FIELD_BITS 8
#define PD_CONFIG1_AGGREGATE_BIT 40
#define PD_CONFIG1_GIVEN_SHIFT 41
#define PD_CONFIG1_USED_BITS 46

struct pd_dims {
	uint8_t value[PD_DIM_COUNT];
	uint8_t given; /* PD_DIM_BIT() mask of the requested dimensions */
	bool aggregate;
};

/* The shape of one GPU partition the counters are read over. */
struct pd_topology {
	uint8_t num_xcc;
	uint8_t num_se;
	uint8_t num_sa_per_se;
	uint8_t num_wgp_per_sa; /* 0 where the hardware has no WGPs (GFX9) */
	uint8_t num_cu_per_sa;
};

uint64_t pd_dims_encode(const struct pd_dims *dims);

/* 0, or -EINVAL with *why naming the problem (why may be NULL). */
int pd_dims_decode(uint64_t config1, struct pd_dims *dims, const char **why);

/*
 * Checks the request against what a counter can be split by (a
 * PD_DIM_BIT() mask) and against the topology. Aggregate together with a
 * dimension is contradictory and rejected.
 */
int pd_dims_validate(const struct pd_dims *dims, unsigned int supported,
		     const struct pd_topology *topo, const char **why);

/*
 * Parses "se=1,sa=0,wgp=2" or "aggregate" (the spelling of the tools and of
 * perf's event terms). An empty string is no dimension at all.
 */
int pd_dims_parse(const char *text, struct pd_dims *dims, const char **why);

PD_EXTERN_C_END

#endif /* PD_DIMS_H */
