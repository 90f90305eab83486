// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz command's inputs: hostile writes for a knob, from a seed, so
 * that a failure can be replayed.  Each kind of input is built to be
 * invalid for every knob of the project, whatever it accepts: binary
 * bytes, a word too long to be a keyword, a negative number, a number
 * past 64 bits, or a keyword with a stray byte.  None holds a NUL byte:
 * the kernel reads a write as a C string, so "replug\0junk" is "replug"
 * for most sysfs attributes, which is no bug of theirs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmtest.h"

/* The words the project's knobs know, for near misses. */
static const char *const words[] = {
	"replug", "classic", "auto", "remove", "keep", "s2idle", "shallow",
	"deep", "poweroff", "halt", "reboot", "kexec", "count", "shape",
	"fanout", "depth", "links", "unplug_us", "probe_us", "flat", "wide",
	"unplug", "probe", "replugged", "error", "hang", "off", "vanish",
	"appear", "swap", "root", "rt1", "1", "none", "devices",
};
#define NR_WORDS (sizeof(words) / sizeof(words[0]))

/* xorshift64*: small, and the same on every machine for a seed. */
static uint64_t next(struct pm_fuzz_gen *g)
{
	g->state ^= g->state >> 12;
	g->state ^= g->state << 25;
	g->state ^= g->state >> 27;
	return g->state * 0x2545F4914F6CDD1DULL;
}

/* A value from @lo to @hi, both included. */
static size_t between(struct pm_fuzz_gen *g, size_t lo, size_t hi)
{
	return lo + next(g) % (hi - lo + 1);
}

void pm_fuzz_init(struct pm_fuzz_gen *g, uint64_t seed, size_t max_len)
{
	/* xorshift never leaves 0. */
	g->state = seed ? seed : 0x9E3779B97F4A7C15ULL;
	g->max_len = max_len < PM_FUZZ_MIN_LEN ? PM_FUZZ_MIN_LEN : max_len;
	g->made = 0;
}

/* Bytes 1 to 255, one at least not ASCII: not UTF-8-clean text either. */
static size_t make_binary(struct pm_fuzz_gen *g, char *buf)
{
	size_t len = between(g, 1, g->max_len), i;

	for (i = 0; i < len; i++)
		buf[i] = (char)between(g, 1, 255);
	buf[between(g, 0, len - 1)] = (char)between(g, 0x80, 0xff);
	return len;
}

/* One word of letters, longer than any keyword. */
static size_t make_overlong(struct pm_fuzz_gen *g, char *buf)
{
	size_t len = between(g, PM_FUZZ_MIN_LEN, g->max_len), i;

	for (i = 0; i < len; i++)
		buf[i] = (char)between(g, 'a', 'z');
	return len;
}

/* "-N", "KEY=-N" or "WORD -N". */
static size_t make_negative(struct pm_fuzz_gen *g, char *buf)
{
	const char *word = words[between(g, 0, NR_WORDS - 1)];
	uint64_t n = next(g) >> between(g, 0, 63);

	switch (between(g, 0, 2)) {
	case 0:
		return snprintf(buf, g->max_len + 1, "-%" PRIu64, n ? n : 1);
	case 1:
		return snprintf(buf, g->max_len + 1, "%s=-%" PRIu64, word, n ? n : 1);
	default:
		return snprintf(buf, g->max_len + 1, "%s -%" PRIu64, word, n ? n : 1);
	}
}

/* A number of 21 to 40 digits: past what 64 bits hold. */
static size_t make_overflow(struct pm_fuzz_gen *g, char *buf)
{
	size_t len = 0, digits = between(g, 21, 40), i;

	if (next(g) & 1)
		len = snprintf(buf, g->max_len + 1, "%s=", words[between(g, 0, NR_WORDS - 1)]);
	buf[len++] = (char)between(g, '1', '9');
	for (i = 1; i < digits; i++)
		buf[len++] = (char)between(g, '0', '9');
	return len;
}

/* A keyword with a control byte or a non-ASCII byte after it. */
static size_t make_near_miss(struct pm_fuzz_gen *g, char *buf)
{
	size_t len = snprintf(buf, g->max_len + 1, "%s", words[between(g, 0, NR_WORDS - 1)]);

	buf[len++] = (char)(next(g) & 1 ? between(g, 1, 8) : between(g, 0x80, 0xff));
	return len;
}

/**
 * pm_fuzz_next - the next hostile input
 * @g: the generator, from pm_fuzz_init()
 * @buf: room for @g->max_len + 1 bytes
 * @kind: set to the kind of input made
 *
 * The kinds come in turn, so that any count of inputs from five on has
 * each of them.
 *
 * Return: its length, 1 to @g->max_len; @buf is NUL-terminated after it.
 */
size_t pm_fuzz_next(struct pm_fuzz_gen *g, char *buf, enum pm_fuzz_kind *kind)
{
	static size_t (*const make[PM_FUZZ_NR_KINDS])(struct pm_fuzz_gen *, char *) = {
		[PM_FUZZ_BINARY] = make_binary,
		[PM_FUZZ_OVERLONG] = make_overlong,
		[PM_FUZZ_NEGATIVE] = make_negative,
		[PM_FUZZ_OVERFLOW] = make_overflow,
		[PM_FUZZ_NEAR_MISS] = make_near_miss,
	};
	size_t len;

	*kind = g->made++ % PM_FUZZ_NR_KINDS;
	len = make[*kind](g, buf);
	buf[len] = '\0';
	return len;
}

const char *pm_fuzz_kind_name(enum pm_fuzz_kind kind)
{
	static const char *const names[PM_FUZZ_NR_KINDS] = {
		[PM_FUZZ_BINARY] = "binary",
		[PM_FUZZ_OVERLONG] = "overlong",
		[PM_FUZZ_NEGATIVE] = "negative",
		[PM_FUZZ_OVERFLOW] = "overflow",
		[PM_FUZZ_NEAR_MISS] = "near miss",
	};

	return kind < PM_FUZZ_NR_KINDS ? names[kind] : "invalid";
}

/* @len bytes of @buf as C escapes, cut at @room - 1 characters. */
void pm_fuzz_escape(const char *buf, size_t len, char *out, size_t room)
{
	size_t i, used = 0;
	unsigned char c;
	char one[5];

	if (!room)
		return;
	for (i = 0; i < len; i++) {
		c = buf[i];
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"')
			snprintf(one, sizeof(one), "%c", c);
		else
			snprintf(one, sizeof(one), "\\x%02x", c);
		if (used + strlen(one) >= room)
			break;
		memcpy(out + used, one, strlen(one));
		used += strlen(one);
	}
	out[used] = '\0';
}
