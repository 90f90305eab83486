// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz command: hostile writes to the project's knobs.  Each must be
 * refused with EINVAL (or E2BIG, which sysfs gives a write longer than a
 * page) and change nothing: not the knob, not the files the caller
 * watches, not the kernel's taint flags, which a WARN or an oops sets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmtest.h"

#define TAINTED		"/proc/sys/kernel/tainted"
#define STATE_MAX	(64 * 1024)

/* What must not change: the knob (when readable), the watched files. */
struct fuzz_state {
	char *text;
	size_t len;
};

static int append_file(struct fuzz_state *st, const char *path)
{
	char *buf = malloc(STATE_MAX), *grown = NULL;
	int n;

	if (!buf)
		return -ENOMEM;
	n = sysfs_read(path, buf, STATE_MAX);
	/* A write-only knob has no state of its own to compare. */
	if (n < 0)
		n = snprintf(buf, STATE_MAX, "unreadable");
	grown = realloc(st->text, st->len + strlen(path) + 3 + n);
	if (grown) {
		st->text = grown;
		st->len += sprintf(st->text + st->len, "%s:\n", path);
		memcpy(st->text + st->len, buf, n);
		st->len += n;
	}
	free(buf);
	return grown ? 0 : -ENOMEM;
}

static int take_state(const struct fuzz_args *a, const char *knob, struct fuzz_state *st)
{
	size_t i;
	int ret;

	*st = (struct fuzz_state){ 0 };
	ret = append_file(st, knob) ?: append_file(st, TAINTED);
	for (i = 0; !ret && i < a->nwatch; i++)
		ret = append_file(st, a->watch[i]);
	return ret;
}

static bool same_state(const struct fuzz_state *x, const struct fuzz_state *y)
{
	return x->len == y->len && !memcmp(x->text, y->text, x->len);
}

static bool refused(int ret)
{
	return ret == -EINVAL || ret == -E2BIG;
}

/* Every input to one knob.  Return: whether all were refused cleanly. */
static bool fuzz_knob(const struct fuzz_args *a, const char *knob, struct pm_report *r)
{
	struct fuzz_state before, after;
	struct pm_fuzz_gen gen;
	enum pm_fuzz_kind kind;
	char *buf = malloc(a->max_len + 1), shown[128];
	unsigned int i, bad = 0;
	size_t len;
	int ret;

	before.text = NULL;
	if (!buf || take_state(a, knob, &before)) {
		free(before.text);
		free(buf);
		pm_report_diag(r, "%s: out of memory", knob);
		return false;
	}
	if (access(knob, W_OK)) {
		pm_report_diag(r, "%s: cannot write: %s", knob, strerror(errno));
		free(before.text);
		free(buf);
		return false;
	}
	pm_fuzz_init(&gen, a->seed, a->max_len);
	for (i = 0; i < a->count && bad < PM_FUZZ_MAX_SHOWN; i++) {
		len = pm_fuzz_next(&gen, buf, &kind);
		/* The inputs hold no NUL: the string is the whole input. */
		ret = sysfs_write(knob, buf);
		if (take_state(a, knob, &after)) {
			free(after.text);
			pm_report_diag(r, "%s: out of memory", knob);
			bad++;
			break;
		}
		if (refused(ret) && same_state(&before, &after)) {
			free(after.text);
			continue;
		}
		pm_fuzz_escape(buf, len, shown, sizeof(shown));
		pm_report_diag(r, "%s: input %u (%s, %zu bytes) \"%s\": %s%s", knob, i + 1,
			       pm_fuzz_kind_name(kind), len, shown,
			       ret ? strerror(-ret) : "accepted",
			       same_state(&before, &after) ? "" : ", and the state changed");
		bad++;
		/* Compare what follows with what this one left. */
		free(before.text);
		before = after;
	}
	free(before.text);
	free(buf);
	if (!bad)
		pm_report_diag(r, "%s: %u inputs refused (seed %llu), state unchanged",
			       knob, a->count, (unsigned long long)a->seed);
	return !bad;
}

int cmd_fuzz(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct fuzz_args args;
	struct pm_report r;
	size_t i;
	bool ok;
	int ret;

	ret = fuzz_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	if (!pm_is_root(ctx)) {
		free(args.knobs);
		free(args.watch);
		return 1;
	}
	pm_report_begin(&r, ctx->out, args.format, args.nknobs);
	for (i = 0; i < args.nknobs; i++) {
		ok = fuzz_knob(&args, args.knobs[i], &r);
		pm_report_result(&r, ok, "%s", args.knobs[i]);
	}
	ret = pm_report_end(&r);
	free(args.knobs);
	free(args.watch);
	return ret ? 1 : 0;
}
