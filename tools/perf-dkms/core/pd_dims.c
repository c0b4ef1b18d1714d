// SPDX-License-Identifier: MIT
#include "pd_dims.h"

static const char *const dim_names[PD_DIM_COUNT] = {
	[PD_DIM_XCC] = "xcc",
	[PD_DIM_SE] = "se",
	[PD_DIM_SA] = "sa",
	[PD_DIM_WGP] = "wgp",
	[PD_DIM_CU] = "cu",
};

static void set_why(const char **why, const char *text)
{
	if (why)
		*why = text;
}

uint64_t pd_dims_encode(const struct pd_dims *dims)
{
	uint64_t config1 = 0;
	unsigned int d;

	for (d = 0; d < PD_DIM_COUNT; d++) {
		if (!(dims->given & PD_DIM_BIT(d)))
			continue;
		config1 |= (uint64_t)dims->value[d] << (d * PD_CONFIG1_FIELD_BITS);
		config1 |= 1ull << (PD_CONFIG1_GIVEN_SHIFT + d);
	}
	if (dims->aggregate)
		config1 |= 1ull << PD_CONFIG1_AGGREGATE_BIT;
	return config1;
}

int pd_dims_decode(uint64_t config1, struct pd_dims *dims, const char **why)
{
	unsigned int d;

	memset(dims, 0, sizeof(*dims));
	if (config1 >> PD_CONFIG1_USED_BITS) {
		set_why(why, "reserved config1 bits 46-63 are set");
		return -EINVAL;
	}
	for (d = 0; d < PD_DIM_COUNT; d++) {
		uint8_t value = (config1 >> (d * PD_CONFIG1_FIELD_BITS)) & 0xff;
		bool given = (config1 >> (PD_CONFIG1_GIVEN_SHIFT + d)) & 1;

		if (value && !given) {
			set_why(why, "a dimension value is set without its given flag");
			return -EINVAL;
		}
		dims->value[d] = value;
		if (given)
			dims->given |= PD_DIM_BIT(d);
	}
	dims->aggregate = (config1 >> PD_CONFIG1_AGGREGATE_BIT) & 1;
	return 0;
}

static unsigned int dim_limit(const struct pd_topology *topo, enum pd_dim dim)
{
	switch (dim) {
	case PD_DIM_XCC:
		return topo->num_xcc;
	case PD_DIM_SE:
		return topo->num_se;
	case PD_DIM_SA:
		return topo->num_sa_per_se;
	case PD_DIM_WGP:
		return topo->num_wgp_per_sa;
	case PD_DIM_CU:
		return topo->num_cu_per_sa;
	default:
		return 0;
	}
}

int pd_dims_validate(const struct pd_dims *dims, unsigned int supported,
		     const struct pd_topology *topo, const char **why)
{
	unsigned int d;

	if (dims->aggregate && dims->given) {
		set_why(why, "aggregate cannot be combined with a dimension");
		return -EINVAL;
	}
	for (d = 0; d < PD_DIM_COUNT; d++) {
		if (!(dims->given & PD_DIM_BIT(d)))
			continue;
		if (!(supported & PD_DIM_BIT(d))) {
			set_why(why, "the counter cannot be split by this dimension");
			return -EINVAL;
		}
		if (dims->value[d] >= dim_limit(topo, d)) {
			set_why(why, "dimension value beyond the GPU's topology");
			return -EINVAL;
		}
	}
	return 0;
}

/* Decimal 0-255; the kernel has no strtoul that works on a length. */
static int parse_u8(const char *s, size_t len, uint8_t *out)
{
	unsigned int v = 0;
	size_t i;

	if (len == 0 || len > 3)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	if (v > 255)
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

static int parse_term(const char *s, size_t len, struct pd_dims *dims,
		      const char **why)
{
	const char *eq = memchr(s, '=', len);
	size_t name_len = eq ? (size_t)(eq - s) : len;
	unsigned int d;

	if (name_len == 9 && !memcmp(s, "aggregate", 9)) {
		if (eq && !(len - name_len == 2 && eq[1] == '1')) {
			set_why(why, "aggregate takes no value or =1");
			return -EINVAL;
		}
		dims->aggregate = true;
		return 0;
	}
	for (d = 0; d < PD_DIM_COUNT; d++) {
		if (strlen(dim_names[d]) != name_len ||
		    memcmp(s, dim_names[d], name_len))
			continue;
		if (!eq || parse_u8(eq + 1, len - name_len - 1, &dims->value[d])) {
			set_why(why, "a dimension needs a value 0-255, e.g. se=1");
			return -EINVAL;
		}
		if (dims->given & PD_DIM_BIT(d)) {
			set_why(why, "a dimension is given twice");
			return -EINVAL;
		}
		dims->given |= PD_DIM_BIT(d);
		return 0;
	}
	set_why(why, "unknown dimension (expected xcc, se, sa, wgp, cu or aggregate)");
	return -EINVAL;
}

int pd_dims_parse(const char *text, struct pd_dims *dims, const char **why)
{
	memset(dims, 0, sizeof(*dims));
	while (*text) {
		const char *comma = strchr(text, ',');
		size_t len = comma ? (size_t)(comma - text) : strlen(text);
		int ret = parse_term(text, len, dims, why);

		if (ret)
			return ret;
		text += len;
		if (*text == ',') {
			text++;
			if (!*text) {
				set_why(why, "trailing comma");
				return -EINVAL;
			}
		}
	}
	return 0;
}
