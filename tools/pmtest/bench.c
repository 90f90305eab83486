// SPDX-License-Identifier: GPL-2.0
/*
 * The bench command: the same suspend, in replug mode and in classic mode
 * by turns (A B A B ...), on the devices the machine has, timed from the
 * kernel's own trace: suspend until the last device phase on the way
 * down, resume from the first on the way up until the write returns, and
 * how long after that udev took to settle with every device back.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libudev.h>

#include "pmtest.h"

#define TRACING		"/sys/kernel/tracing"
#define TRACE_FILE	TRACING "/trace"
#define TRACE_CLOCK	TRACING "/trace_clock"
#define TRACE_ON	TRACING "/tracing_on"
#define SR_EVENT	TRACING "/events/power/suspend_resume/enable"
#define REPLUG_EVENT	TRACING "/events/replug/replug_device"
#define CB_START_EVENT	TRACING "/events/power/device_pm_callback_start"
#define CB_END_EVENT	TRACING "/events/power/device_pm_callback_end"
/* The test bus's devices and its root, which the rescan starts from. */
#define TREE_FILTER	"driver == \"" PM_TREE_DRIVER "\" || device == \"" \
			PM_TREE_DRIVER "\""
#define BUFFER_SIZE	TRACING "/buffer_size_kb"
#define PM_TEST_FILE	"/sys/power/pm_test"
#define PM_TEST_DELAY	"/sys/module/suspend/parameters/pm_test_delay"
#define STATE_FILE	"/sys/power/state"
#define MODE_FILE	"/sys/power/replug/mode"
#define SETTLE_POLL_MS	10

enum {
	BENCH_SUSPEND, BENCH_RESUME, BENCH_SETTLE, BENCH_TOTAL,
	BENCH_DEVICES_DOWN, BENCH_DEVICES_UP, BENCH_TREE_DOWN, BENCH_TREE_UP,
	BENCH_NR
};

static const char *const bench_names[BENCH_NR] = {
	"suspend_ms", "resume_ms", "settle_ms", "total_ms",
	"devices_down_ms", "devices_up_ms", "tree_down_ms", "tree_up_ms"
};

/* A file set for the run and put back after it. */
struct bench_knob {
	const char *path;
	const char *value;
	bool choice;		/* read back as "a [b] c" */
	bool pm_test;		/* missing without CONFIG_PM_DEBUG */
	const char *reset;	/* written back instead of what was read */
	char old[64];
};

struct bench_run {
	struct pmtest_ctx *ctx;
	const struct bench_args *args;
	struct pm_norm norm;
	struct udev *udev;
	struct udev_queue *queue;
	struct strv before;
	double *ms[PM_BENCH_MAX_MODES][BENCH_NR];	/* [mode][metric][round] */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An unused ring buffer reads "7 (expanded: 1408)": keep the 1408. */
static void knob_unexpand(char *old)
{
	static const char tag[] = "(expanded: ";
	char *size = strstr(old, tag);
	size_t len;

	if (!size)
		return;
	size += strlen(tag);
	len = strspn(size, "0123456789");
	memmove(old, size, len);
	old[len] = '\0';
}

static int knob_set(struct bench_run *run, struct bench_knob *k)
{
	int ret = k->choice ? sysfs_read_choice(k->path, k->old, sizeof(k->old)) :
			      sysfs_read(k->path, k->old, sizeof(k->old));

	knob_unexpand(k->old);
	ret = ret < 0 ? ret : sysfs_write(k->path, k->value);
	if (ret) {
		k->old[0] = '\0';
		pm_err(run->ctx, "cannot set %s to %s: %s", k->path, k->value, strerror(-ret));
	}
	return ret;
}

static void knob_restore(struct bench_run *run, struct bench_knob *k)
{
	const char *old = k->reset ?: k->old;
	int ret;

	if (k->old[0] && (ret = sysfs_write(k->path, old)))
		pm_err(run->ctx, "cannot put %s back to %s: %s", k->path, old,
		       strerror(-ret));
}

static int trace_clear(struct bench_run *run)
{
	int fd = open(TRACE_FILE, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0) {
		pm_err(run->ctx, "cannot clear " TRACE_FILE ": %m");
		return -errno;
	}
	close(fd);
	return 0;
}

static int trace_read(struct bench_run *run, struct strv *lines)
{
	FILE *f = fopen(TRACE_FILE, "re");
	int ret;

	if (!f) {
		ret = -errno;
		pm_err(run->ctx, "cannot open " TRACE_FILE ": %m");
		return ret;
	}
	ret = strv_read_lines(lines, f);
	fclose(f);
	if (ret)
		pm_err(run->ctx, "cannot read " TRACE_FILE ": %s", strerror(-ret));
	return ret;
}

/* Until udev is idle and every device is back. Return: 0 or -errno. */
static int settle(struct bench_run *run, double *when)
{
	double deadline = now() + run->args->settle_timeout;
	struct strv after = { 0 };
	bool same;
	int ret;

	for (;;) {
		ret = pm_inventory_take(run->ctx, &run->norm, &after);
		if (ret)
			return ret;
		same = strv_equal(&run->before, &after);
		strv_free(&after);
		*when = now();
		if (same && udev_queue_get_queue_is_empty(run->queue))
			return 0;
		if (*when > deadline) {
			pm_err(run->ctx, "udev not settled or devices missing after %u s",
			       run->args->settle_timeout);
			return -ETIMEDOUT;
		}
		poll(NULL, 0, SETTLE_POLL_MS);
	}
}

static void wait_idle(const struct bench_run *run)
{
	double deadline = now() + run->args->settle_timeout;

	while (!udev_queue_get_queue_is_empty(run->queue) && now() < deadline)
		poll(NULL, 0, SETTLE_POLL_MS);
}

/* One cycle of @mode, its times into round @round. Return: 0 or -errno. */
static int bench_cycle(struct bench_run *run, size_t mode, unsigned int round)
{
	const struct bench_args *a = run->args;
	struct strv lines = { 0 };
	struct pm_bench_marks m;
	double t0, t1, t2, *ms;
	size_t k;
	int ret;

	ret = sysfs_write(MODE_FILE, a->modes[mode]);
	if (ret) {
		pm_err(run->ctx, "cannot set " MODE_FILE " to %s: %s", a->modes[mode],
		       strerror(-ret));
		return ret;
	}
	wait_idle(run);
	ret = trace_clear(run);
	if (ret)
		return ret;
	t0 = now();
	ret = sysfs_write(STATE_FILE, a->state);
	t1 = now();
	if (ret) {
		pm_err(run->ctx, "%s: write of '%s' to " STATE_FILE " failed: %s",
		       a->modes[mode], a->state, strerror(-ret));
		return ret;
	}
	ret = settle(run, &t2) ?: trace_read(run, &lines);
	if (!ret && pm_bench_split(&lines, &m)) {
		pm_err(run->ctx, "no device phases in the suspend_resume events of "
		       TRACE_FILE);
		ret = -ENOENT;
	}
	strv_free(&lines);
	if (ret)
		return ret;
	ms = (double[BENCH_NR]){
		[BENCH_SUSPEND] = m.down - t0,
		[BENCH_RESUME] = t1 - m.up,
		[BENCH_SETTLE] = t2 - t1,
		[BENCH_TOTAL] = m.down - t0 + t2 - m.up,
		[BENCH_DEVICES_DOWN] = m.down - m.first,
		[BENCH_DEVICES_UP] = m.last - m.up,
		[BENCH_TREE_DOWN] = m.tree_down - m.tree_first,
		[BENCH_TREE_UP] = m.tree_last - m.tree_up,
	};
	for (k = 0; k < BENCH_NR; k++)
		run->ms[mode][k][round] = ms[k] * 1e3;
	fprintf(run->ctx->err, "round %u/%u %-7s suspend %.1f ms, resume %.1f ms, "
		"settle %.1f ms, devices down %.1f ms, up %.1f ms\n", round + 1,
		a->rounds, a->modes[mode], ms[BENCH_SUSPEND] * 1e3,
		ms[BENCH_RESUME] * 1e3, ms[BENCH_SETTLE] * 1e3,
		ms[BENCH_DEVICES_DOWN] * 1e3, ms[BENCH_DEVICES_UP] * 1e3);
	return 0;
}

/* The median of one metric of one mode; the rounds stay in their order. */
static double median_of(const struct bench_run *run, size_t mode, int metric)
{
	double v[PM_BENCH_MAX_ROUNDS];

	memcpy(v, run->ms[mode][metric], run->args->rounds * sizeof(*v));
	return pm_median(v, run->args->rounds);
}

/* A figure the trace could not give (a tree's, without a tree) is null. */
static void json_number(FILE *out, const char *sep, const char *name, int len,
			double v)
{
	fprintf(out, "%s\"%.*s\": ", sep, len, name);
	if (isnan(v))
		fputs("null", out);
	else
		fprintf(out, "%.3f", v);
}

static void print_json(const struct bench_run *run)
{
	const struct bench_args *a = run->args;
	FILE *out = run->ctx->out;
	size_t m;
	unsigned int r;
	int k;

	fprintf(out, "{\"label\": \"%s\", \"devices\": %zu, \"state\": \"%s\", "
		"\"test\": \"%s\", \"rounds\": %u,\n \"cycles\": [", a->label,
		run->before.n, a->state, a->test, a->rounds);
	for (r = 0; r < a->rounds; r++) {
		for (m = 0; m < a->nmodes; m++) {
			fprintf(out, "%s\n  {\"round\": %u, \"mode\": \"%s\"",
				r || m ? "," : "", r + 1, a->modes[m]);
			for (k = 0; k < BENCH_NR; k++)
				json_number(out, ", ", bench_names[k], -1, run->ms[m][k][r]);
			fputc('}', out);
		}
	}
	fputs("],\n \"median\": {", out);
	for (m = 0; m < a->nmodes; m++) {
		fprintf(out, "%s\"%s\": {", m ? ", " : "", a->modes[m]);
		for (k = 0; k < BENCH_NR; k++)
			json_number(out, k ? ", " : "", bench_names[k], -1,
				    median_of(run, m, k));
		fputc('}', out);
	}
	fputc('}', out);
	if (a->nmodes == 2) {
		fprintf(out, ",\n \"ratio\": {\"of\": \"%s/%s\"", a->modes[0], a->modes[1]);
		for (k = 0; k < BENCH_NR; k++)
			json_number(out, ", ", bench_names[k],
				    (int)(strlen(bench_names[k]) - strlen("_ms")),
				    pm_ratio(median_of(run, 0, k), median_of(run, 1, k)));
		fputc('}', out);
	}
	fputs("}\n", out);
}

static void print_text(const struct bench_run *run)
{
	const struct bench_args *a = run->args;
	FILE *out = run->ctx->out;
	size_t m;
	int k;

	fprintf(out, "bench %s: %zu devices, %s, pm_test %s, median of %u rounds\n",
		a->label, run->before.n, a->state, a->test, a->rounds);
	fprintf(out, "%-16s %10s %10s %10s %10s %10s %10s %10s %10s\n", "mode",
		"suspend", "resume", "settle", "total", "dev down", "dev up",
		"tree down", "tree up");
	for (m = 0; m < a->nmodes; m++) {
		fprintf(out, "%-16s", a->modes[m]);
		for (k = 0; k < BENCH_NR; k++)
			fprintf(out, " %7.1f ms", median_of(run, m, k));
		fputc('\n', out);
	}
	if (a->nmodes == 2) {
		fprintf(out, "%-16s", "ratio");
		for (k = 0; k < BENCH_NR; k++)
			fprintf(out, " %10.3f",
				pm_ratio(median_of(run, 0, k), median_of(run, 1, k)));
		fprintf(out, "  (%s/%s)\n", a->modes[0], a->modes[1]);
	}
}

static int bench_all(struct bench_run *run)
{
	const struct bench_args *a = run->args;
	unsigned int r;
	size_t m;
	int ret = 0;

	for (r = 0; !ret && r < a->rounds; r++)
		for (m = 0; !ret && m < a->nmodes; m++)
			ret = bench_cycle(run, m, r);
	return ret;
}

static int bench_prepare(struct bench_run *run)
{
	size_t m;
	int k;

	if (access(MODE_FILE, F_OK)) {
		pm_err(run->ctx, "no " MODE_FILE ": this kernel has no replug");
		return -ENOENT;
	}
	if (access(SR_EVENT, F_OK)) {
		pm_err(run->ctx, "no " SR_EVENT ": is tracefs mounted?");
		return -ENOENT;
	}
	for (m = 0; m < run->args->nmodes; m++)
		for (k = 0; k < BENCH_NR; k++)
			if (!(run->ms[m][k] = calloc(run->args->rounds, sizeof(double))))
				return -ENOMEM;
	run->udev = udev_new();
	run->queue = run->udev ? udev_queue_new(run->udev) : NULL;
	if (!run->queue) {
		pm_err(run->ctx, "cannot start libudev");
		return -ENOMEM;
	}
	wait_idle(run);
	return pm_inventory_take(run->ctx, &run->norm, &run->before);
}

int cmd_bench(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct bench_args args;
	struct bench_knob knobs[] = {
		{ .path = MODE_FILE, .choice = true },
		{ .path = PM_TEST_FILE, .choice = true, .pm_test = true },
		/* pm_test's wait is no part of either mode's time. */
		{ .path = PM_TEST_DELAY, .value = "0", .pm_test = true },
		/* CLOCK_MONOTONIC, as now() reads it. */
		{ .path = TRACE_CLOCK, .value = "mono", .choice = true },
		/* Room for a bind event per device of a 10,000-device tree. */
		{ .path = BUFFER_SIZE, .value = "4096" },
		{ .path = SR_EVENT, .value = "1" },
		/* When the last device that came back was bound. */
		{ .path = REPLUG_EVENT "/filter", .value = "action == \"replug\"",
		  .reset = "0" },
		{ .path = REPLUG_EVENT "/enable", .value = "1" },
		/* What a test-bus tree's own devices took, in either mode. */
		{ .path = CB_START_EVENT "/filter", .value = TREE_FILTER, .reset = "0" },
		{ .path = CB_START_EVENT "/enable", .value = "1" },
		{ .path = CB_END_EVENT "/filter", .value = TREE_FILTER, .reset = "0" },
		{ .path = CB_END_EVENT "/enable", .value = "1" },
		{ .path = TRACE_ON, .value = "1" },
	};
	struct bench_run run = { .ctx = ctx, .args = &args };
	size_t set = 0, m;
	int k, ret;

	ret = bench_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	if (!pm_is_root(ctx))
		return 1;
	knobs[0].value = args.modes[0];
	knobs[1].value = args.test;
	if (pm_norm_init(&run.norm)) {
		pm_err(ctx, "cannot compile the expressions");
		return 1;
	}
	ret = bench_prepare(&run);
	for (; !ret && set < sizeof(knobs) / sizeof(knobs[0]); set++) {
		/* A kernel without pm_test runs only at --test none. */
		if (knobs[set].pm_test && !strcmp(args.test, "none") &&
		    access(knobs[set].path, F_OK))
			continue;
		ret = knob_set(&run, &knobs[set]);
	}
	ret = ret ?: bench_all(&run);
	while (set--)
		knob_restore(&run, &knobs[set]);
	if (!ret && args.format == PM_FORMAT_JSON)
		print_json(&run);
	else if (!ret)
		print_text(&run);
	for (m = 0; m < PM_BENCH_MAX_MODES; m++)
		for (k = 0; k < BENCH_NR; k++)
			free(run.ms[m][k]);
	strv_free(&run.before);
	udev_queue_unref(run.queue);
	udev_unref(run.udev);
	pm_norm_free(&run.norm);
	return ret ? 1 : 0;
}
