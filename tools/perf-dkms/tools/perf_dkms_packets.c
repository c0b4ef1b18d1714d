// SPDX-License-Identifier: MIT
/*
 * perf-dkms-packets: prints the PM4 stream the amdgpu_pmu module would
 * submit for a set of counters, without a GPU.
 */
/* strtok_r is POSIX, not ISO C. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_counters.h"
#include "pd_print.h"
#include "pd_result.h"
#include "pd_sequence.h"
#include "pd_share.h"

#define MAX_COUNTERS (PD_BLOCK_COUNT * PD_MAX_SLOTS)
#define STREAM_CAPACITY 65536
#define DEFAULT_RESULT_ADDR 0x100000ull

enum sequence { SEQ_NONE, SEQ_START, SEQ_READ, SEQ_STOP };
enum format { FORMAT_TEXT, FORMAT_HEX, FORMAT_JSON };

struct options {
	const char *arch_name;
	const char *counter_list;
	const char *dims_text;
	enum sequence sequence;
	enum format format;
	uint64_t result_addr;
	uint32_t fence;
};

struct request {
	const struct pd_arch *arch;
	struct pd_dims dims;
	size_t n;
	const struct pd_counter_def *defs[MAX_COUNTERS];
	struct pd_programmed_counter counters[MAX_COUNTERS];
};

static const char usage[] =
	"usage: perf-dkms-packets <arch> <counter>[,<counter>...] --sequence start|read|stop\n"
	"                         [--dims se=1,sa=0,wgp=2|aggregate] [--hex|--json]\n"
	"                         [--result-addr ADDR] [--fence N]\n";

static int die(const char *fmt, const char *arg)
{
	fprintf(stderr, "error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

static int parse_u64(const char *text, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*text || *text == '-')
		return -1;
	v = strtoull(text, &end, 0);
	if (*end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	int i, positional = 0;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->dims_text = "";
	o->result_addr = DEFAULT_RESULT_ADDR;
	o->fence = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--hex")) {
			o->format = FORMAT_HEX;
		} else if (!strcmp(a, "--json")) {
			o->format = FORMAT_JSON;
		} else if (!strcmp(a, "--sequence") || !strcmp(a, "--dims") ||
			   !strcmp(a, "--result-addr") || !strcmp(a, "--fence")) {
			if (!value)
				return die("%s needs a value", a);
			i++;
			if (!strcmp(a, "--dims")) {
				o->dims_text = value;
			} else if (!strcmp(a, "--sequence")) {
				if (!strcmp(value, "start"))
					o->sequence = SEQ_START;
				else if (!strcmp(value, "read"))
					o->sequence = SEQ_READ;
				else if (!strcmp(value, "stop"))
					o->sequence = SEQ_STOP;
				else
					return die("--sequence must be start, read or stop, not '%s'", value);
			} else if (!strcmp(a, "--result-addr")) {
				if (parse_u64(value, UINT64_MAX, &o->result_addr) ||
				    o->result_addr & 0xff)
					return die("--result-addr needs a 256-byte aligned address, not '%s'", value);
			} else {
				if (parse_u64(value, UINT32_MAX, &v))
					return die("--fence needs a 32-bit number, not '%s'", value);
				o->fence = (uint32_t)v;
			}
		} else if (a[0] == '-' && a[1]) {
			return die("unknown option '%s'", a);
		} else if (positional == 0) {
			o->arch_name = a;
			positional++;
		} else if (positional == 1) {
			o->counter_list = a;
			positional++;
		} else {
			return die("unexpected argument '%s'", a);
		}
	}
	if (!o->arch_name || !o->counter_list || o->sequence == SEQ_NONE) {
		fputs(usage, stderr);
		return die("%s", "missing <arch>, <counter> or --sequence");
	}
	return 0;
}

static int add_counter(struct request *r, struct pd_counter_pool *pool,
		       const char *name)
{
	const struct pd_counter_def *def = pd_counter_by_name(name);
	bool needs_start;
	const char *why;
	size_t i;
	int ret;

	if (!def)
		return die("unknown counter '%s'", name);
	for (i = 0; i < r->n; i++)
		if (r->defs[i] == def)
			return die("counter '%s' given twice", name);
	ret = pd_pool_acquire(pool, r->arch, def->id, &r->counters[r->n],
			      &needs_start);
	if (ret == -ENOENT) {
		fprintf(stderr, "error: counter '%s' does not exist on %s\n",
			name, r->arch->name);
		return 1;
	}
	if (ret == -EBUSY) {
		fprintf(stderr, "error: no free %s counter left for '%s' (%u slots)\n",
			r->arch->blocks[def->block].reg_prefix, name,
			r->arch->blocks[def->block].num_slots);
		return 1;
	}
	if (pd_dims_validate(&r->dims, pd_block_dims(r->arch, def->block),
			     &r->arch->topo, &why)) {
		fprintf(stderr, "error: --dims for '%s' on %s: %s\n", name,
			r->arch->name, why);
		return 1;
	}
	r->defs[r->n++] = def;
	return 0;
}

static int build_request(const struct options *o, struct request *r)
{
	struct pd_counter_pool pool;
	char list[1024], *name, *save = NULL;
	const char *why;

	memset(r, 0, sizeof(*r));
	r->arch = pd_arch_find(o->arch_name);
	if (!r->arch) {
		pd_print_unknown_arch(o->arch_name);
		return 1;
	}
	if (pd_dims_parse(o->dims_text, &r->dims, &why)) {
		fprintf(stderr, "error: --dims '%s': %s\n", o->dims_text, why);
		return 1;
	}
	if (strlen(o->counter_list) >= sizeof(list))
		return die("%s", "counter list too long");
	strcpy(list, o->counter_list);
	pd_pool_init(&pool);
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (r->n == MAX_COUNTERS)
			return die("%s", "too many counters");
		if (add_counter(r, &pool, name))
			return 1;
	}
	if (!r->n)
		return die("%s", "no counter given");
	return 0;
}

static void print_json(const struct options *o, const struct request *r,
		       const struct pd_pm4_buf *buf)
{
	static const char *const names[] = { "", "start", "read", "stop" };
	uint8_t coords[PD_DIM_COUNT];
	uint32_t index;
	size_t i, k;
	unsigned int j, n;

	printf("{\n  \"arch\": \"%s\",\n  \"sequence\": \"%s\",\n",
	       r->arch->name, names[o->sequence]);
	if (o->sequence == SEQ_READ)
		printf("  \"result_addr\": \"0x%" PRIX64 "\",\n  \"fence_offset\": %zu,\n",
		       o->result_addr, pd_read_bytes(r->arch, r->counters, r->n));
	printf("  \"counters\": [\n");
	for (i = 0; i < r->n; i++) {
		const struct pd_programmed_counter *c = &r->counters[i];
		bool first = true;

		n = pd_block_instances(r->arch, c->block);
		printf("    {\"name\": \"%s\", \"block\": \"%s\", \"slot\": %u, "
		       "\"select\": %u, \"result_offset\": %zu, \"readings\": %u, "
		       "\"selected_readings\": [",
		       r->defs[i]->name, r->arch->blocks[c->block].reg_prefix,
		       c->slot, c->select, pd_read_bytes(r->arch, r->counters, i), n);
		for (j = 0; j < n; j++) {
			pd_block_instance(r->arch, c->block, j, coords, &index);
			if (!pd_result_selects(&r->dims, coords))
				continue;
			printf("%s%u", first ? "" : ", ", j);
			first = false;
		}
		printf("]}%s\n", i + 1 < r->n ? "," : "");
	}
	printf("  ],\n  \"dwords\": [");
	for (k = 0; k < buf->len; k++)
		printf("%s\"0x%08X\"", k ? ", " : "", buf->dw[k]);
	printf("]\n}\n");
}

static void print_text(const struct pd_arch *arch, const struct pd_pm4_buf *buf)
{
	struct pd_pm4_packet p;
	size_t at = 0;
	int used;

	while (at < buf->len) {
		used = pd_pm4_decode(buf->dw + at, buf->len - at, &p, NULL);
		if (used <= 0)
			abort(); /* the builder only makes decodable packets */
		pd_print_packet(stdout, arch, &p);
		at += (size_t)used;
	}
}

int main(int argc, char **argv)
{
	static uint32_t storage[STREAM_CAPACITY];
	struct pd_pm4_buf buf;
	struct options o;
	struct request r;
	size_t i;
	int ret;

	if (parse_options(argc, argv, &o) || build_request(&o, &r))
		return 1;
	pd_pm4_buf_init(&buf, storage, STREAM_CAPACITY);
	if (o.sequence == SEQ_START)
		ret = pd_seq_start(&buf, r.arch, r.counters, r.n);
	else if (o.sequence == SEQ_READ)
		ret = pd_seq_read(&buf, r.arch, r.counters, r.n, o.result_addr,
				  o.fence);
	else
		ret = pd_seq_stop(&buf, r.arch);
	if (ret)
		return die("%s", ret == -ENOSPC ? "packet stream too long" :
						  "cannot build the packet stream");
	if (o.format == FORMAT_HEX) {
		for (i = 0; i < buf.len; i++)
			printf("0x%08X\n", buf.dw[i]);
	} else if (o.format == FORMAT_JSON) {
		print_json(&o, &r, &buf);
	} else {
		print_text(r.arch, &buf);
	}
	return 0;
}
