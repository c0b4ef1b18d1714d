// SPDX-License-Identifier: MIT
/*
 * pm4-decode: reads a PM4 dword stream (hex, one or more per line, '#'
 * starts a comment) and prints one line per packet with registers named
 * for --arch. The whole stream is decoded before anything is printed, so
 * bad input gives an error and no partial listing.
 */
/* strtok_r is POSIX, not ISO C. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_print.h"

struct stream {
	uint32_t *dw;
	size_t len;
	size_t cap;
};

static int die(const char *fmt, const char *arg)
{
	fprintf(stderr, "error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

static int push(struct stream *s, uint32_t v)
{
	if (s->len == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		uint32_t *dw = realloc(s->dw, cap * sizeof(*dw));

		if (!dw)
			return -1;
		s->dw = dw;
		s->cap = cap;
	}
	s->dw[s->len++] = v;
	return 0;
}

static int parse_token(const char *tok, uint32_t *out)
{
	const char *digits = tok;
	unsigned long long v = 0;

	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		digits += 2;
	if (!*digits || strlen(digits) > 8)
		return -1;
	for (; *digits; digits++) {
		if (!isxdigit((unsigned char)*digits))
			return -1;
		v = v * 16 + (unsigned long long)(isdigit((unsigned char)*digits) ?
			*digits - '0' : tolower((unsigned char)*digits) - 'a' + 10);
	}
	*out = (uint32_t)v;
	return 0;
}

static int read_stream(FILE *in, struct stream *s)
{
	char line[4096];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), in)) {
		char *hash = strchr(line, '#'), *tok, *save = NULL;

		lineno++;
		if (hash)
			*hash = '\0';
		for (tok = strtok_r(line, " \t\r\n,", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n,", &save)) {
			uint32_t v;

			if (parse_token(tok, &v)) {
				fprintf(stderr, "error: line %lu: '%s' is not a 32-bit hex dword\n",
					lineno, tok);
				return 1;
			}
			if (push(s, v))
				return die("%s", "out of memory");
		}
	}
	if (ferror(in))
		return die("%s", "cannot read the input");
	return 0;
}

int main(int argc, char **argv)
{
	const struct pd_arch *arch = NULL;
	const char *path = NULL;
	struct pd_pm4_packet *packets;
	struct stream s = { 0 };
	size_t at = 0, n = 0, i;
	FILE *in = stdin;
	int a, ret;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--arch")) {
			if (a + 1 == argc)
				return die("%s", "--arch needs a value");
			arch = pd_arch_find(argv[++a]);
			if (!arch) {
				pd_print_unknown_arch(argv[a]);
				return 1;
			}
		} else if (argv[a][0] == '-' && argv[a][1]) {
			return die("unknown option '%s' (usage: pm4-decode [--arch NAME] [FILE])",
				   argv[a]);
		} else if (!path) {
			path = argv[a];
		} else {
			return die("unexpected argument '%s'", argv[a]);
		}
	}
	if (path && strcmp(path, "-")) {
		in = fopen(path, "r");
		if (!in)
			return die("cannot open '%s'", path);
	}
	ret = read_stream(in, &s);
	if (in != stdin)
		fclose(in);
	if (ret)
		return ret;
	packets = calloc(s.len ? s.len : 1, sizeof(*packets));
	if (!packets)
		return die("%s", "out of memory");
	while (at < s.len) {
		const char *why = "";
		int used = pd_pm4_decode(s.dw + at, s.len - at, &packets[n], &why);

		if (used < 0) {
			fprintf(stderr, "error: dword %zu (0x%08X): %s\n", at,
				s.dw[at], why);
			return 1;
		}
		at += (size_t)used;
		n++;
	}
	for (i = 0; i < n; i++)
		pd_print_packet(stdout, arch, &packets[i]);
	free(packets);
	free(s.dw);
	return 0;
}
