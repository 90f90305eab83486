// SPDX-License-Identifier: GPL-2.0
/*
 * The report command: one replug cycle of an ftrace trace, device by
 * device, as pm_cycle_build() sees it and render.c draws it.
 */
#include <errno.h>
#include <string.h>

#include "pmtest.h"

static int read_trace(const struct pmtest_ctx *ctx, const char *path, struct pm_trace *tr)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		pm_err(ctx, "cannot open %s: %m%s", path,
		       ret == -EACCES ? " (root, or --trace with a saved trace)" : "");
		return ret;
	}
	ret = pm_trace_read(tr, f);
	fclose(f);
	if (ret)
		pm_err(ctx, "cannot read %s: %s", path, strerror(-ret));
	return ret;
}

int cmd_report(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct pm_trace tr = { 0 };
	struct pm_cycle cycle;
	struct report_args args;
	FILE *f = ctx->out;
	int ret;

	ret = report_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	ret = read_trace(ctx, args.trace, &tr);
	if (ret)
		goto out;
	if (tr.skipped)
		pm_err(ctx, "%s: skipped %zu replug_device or device_pm_callback_* "
		       "lines that did not parse", args.trace, tr.skipped);
	ret = pm_cycle_build(&tr, args.cycle, &cycle);
	if (ret == -ENOENT && args.cycle)
		pm_err(ctx, "%s: no replug_device events of cycle %u", args.trace, args.cycle);
	else if (ret == -ENOENT)
		pm_err(ctx, "%s: no replug_device events (is the replug:replug_device "
		       "event enabled?)", args.trace);
	else if (ret)
		pm_err(ctx, "out of memory");
	if (ret)
		goto out;
	if (cycle.unmatched)
		pm_err(ctx, "%s: %zu callbacks in cycle %llu started without an end; "
		       "left out", args.trace, cycle.unmatched, cycle.cycle);
	if (args.output && !(f = fopen(args.output, "we"))) {
		ret = -errno;
		pm_err(ctx, "cannot open %s: %m", args.output);
	}
	if (!ret && (ret = pm_render(f, &cycle, args.view)))
		pm_err(ctx, "out of memory");
	if (f && (f == ctx->out ? fflush(f) : fclose(f)) && !ret) {
		ret = -errno;
		pm_err(ctx, "cannot write %s: %m", args.output ? args.output : "output");
	}
	pm_cycle_free(&cycle);
out:
	pm_trace_free(&tr);
	return ret ? 1 : 0;
}
