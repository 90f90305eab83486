// SPDX-License-Identifier: GPL-2.0
/*
 * The fault and tree commands: the replug test bus's debugfs files, its
 * module loaded first when they are not there.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmtest.h"

#define RT_DIR		"/sys/kernel/debug/replug_test"
#define RT_FAULT	RT_DIR "/fault"
#define RT_TREE		RT_DIR "/tree"
#define RT_MODULE	"replug-testbus"

static int testbus_ready(const struct pmtest_ctx *ctx, const char *module)
{
	int ret;

	if (!access(RT_DIR, F_OK))
		return 0;
	ret = pm_module_load(ctx, module ? module : RT_MODULE, module != NULL);
	if (ret)
		return ret;
	if (access(RT_DIR, F_OK)) {
		pm_err(ctx, "no " RT_DIR " after loading the test bus: is debugfs mounted?");
		return -ENOENT;
	}
	return 0;
}

static int read_lines(const struct pmtest_ctx *ctx, const char *path, struct strv *sv)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		pm_err(ctx, "cannot open %s: %m", path);
		return ret;
	}
	ret = strv_read_lines(sv, f);
	fclose(f);
	if (ret)
		pm_err(ctx, "cannot read %s: %s", path, strerror(-ret));
	return ret;
}

/* Whether the fault file shows what was asked: "ID PHASE KIND VALUE fired=N". */
static bool fault_shown(const struct fault_args *a, const struct strv *lines)
{
	char phase[16], kind[16];
	unsigned int id, value, fired;
	unsigned long want = 0;
	size_t i, klen = strcspn(a->action, "=");
	bool off = !strcmp(a->action, "off");

	if (!off)
		want = strtoul(a->action + klen + 1, NULL, 10);
	for (i = 0; i < lines->n; i++) {
		if (sscanf(lines->v[i], "%u %15s %15s %u fired=%u", &id, phase, kind,
			   &value, &fired) != 5 || id != a->id || strcmp(phase, a->phase))
			continue;
		/* "off" forgets the fault, so any line for it is wrong. */
		return !off && strlen(kind) == klen &&
		       !strncmp(kind, a->action, klen) && value == want;
	}
	return off;
}

int cmd_fault(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct strv lines = { 0 };
	struct pm_report report;
	struct fault_args args;
	char line[64];
	size_t i;
	int ret;

	ret = fault_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	if (!pm_is_root(ctx) || testbus_ready(ctx, args.module))
		return 1;
	if (args.list) {
		ret = read_lines(ctx, RT_FAULT, &lines);
		for (i = 0; i < lines.n; i++)
			fprintf(ctx->out, "%s\n", lines.v[i]);
		strv_free(&lines);
		return ret ? 1 : 0;
	}
	snprintf(line, sizeof(line), "%u %s %s", args.id, args.phase, args.action);
	pm_report_begin(&report, ctx->out, args.format, 1);
	ret = sysfs_write(RT_FAULT, line);
	if (ret)
		pm_report_diag(&report, "write of '%s' to " RT_FAULT " failed: %s",
			       line, strerror(-ret));
	else if (read_lines(ctx, RT_FAULT, &lines))
		ret = -EIO;
	for (i = 0; i < lines.n; i++)
		pm_report_diag(&report, "%s", lines.v[i]);
	pm_report_result(&report, !ret && fault_shown(&args, &lines), "fault rt%s %s",
			 line, strcmp(args.action, "off") ? "armed" : "cleared");
	strv_free(&lines);
	return pm_report_end(&report);
}

/* "bound=B" of the tree file's one line, or -1. */
static long tree_bound(const char *line)
{
	const char *p = strstr(line, " bound=");

	return p ? strtol(p + 7, NULL, 10) : -1;
}

int cmd_tree(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct timespec start, t;
	struct pm_report report;
	struct tree_args args;
	char line[256], status[256] = "";
	size_t len = 0;
	int i, ret, got;

	ret = tree_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	for (i = 0; i < args.nwords; i++)
		len += snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0,
				"%s%s", i ? " " : "", args.words[i]);
	if (len >= sizeof(line)) {
		pm_err(ctx, "the tree's words are too long");
		return 2;
	}
	if (!pm_is_root(ctx) || testbus_ready(ctx, args.module))
		return 1;
	pm_report_begin(&report, ctx->out, args.format, 1);
	ret = sysfs_write(RT_TREE, line);
	if (ret)
		pm_report_diag(&report, "write of '%s' to " RT_TREE " failed: %s",
			       line, strerror(-ret));
	/* Probing goes on after the write returns: devices bind one by one. */
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!ret) {
		got = sysfs_read(RT_TREE, status, sizeof(status));
		if (got < 0) {
			pm_report_diag(&report, "cannot read " RT_TREE ": %s", strerror(-got));
			ret = got;
			break;
		}
		if (tree_bound(status) == (long)args.count)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - start.tv_sec >= (time_t)args.timeout) {
			pm_report_diag(&report, "not all bound after %u s", args.timeout);
			ret = -ETIMEDOUT;
		} else {
			poll(NULL, 0, 100);
		}
	}
	if (status[0])
		pm_report_diag(&report, "%s", status);
	pm_report_result(&report, !ret, "tree %s: %u devices bound", line, args.count);
	return pm_report_end(&report);
}
