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
#define RT_CHANGE	RT_DIR "/change"
#define RT_NODES	RT_DIR "/nodes"
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

/* The nodes file's line of node @id: "ID PARENT IDENTITY present=P device=D". */
static const char *node_line(const struct strv *nodes, unsigned int id)
{
	unsigned int got;
	size_t i;

	for (i = 0; i < nodes->n; i++)
		if (sscanf(nodes->v[i], "%u ", &got) == 1 && got == id)
			return nodes->v[i];
	return NULL;
}

static bool node_present(const char *line)
{
	return line && strstr(line, " present=1 ");
}

/*
 * Whether the model changed as asked, and how: the node's line after the
 * change goes into @diag.  Return: true when it did.
 */
static bool change_shown(const struct change_args *a, const struct strv *before,
			 const struct strv *after, struct strv *diag)
{
	const char *old = node_line(before, a->id), *now = node_line(after, a->id);
	char parent[16], want[16];
	unsigned int id;
	size_t i;

	if (!strcmp(a->change, "appear")) {
		snprintf(want, sizeof(want), a->root ? "-" : "%u", a->id);
		/* The new node is the one line the model did not have. */
		for (i = 0; i < after->n; i++) {
			if (sscanf(after->v[i], "%u %15s", &id, parent) != 2 ||
			    node_line(before, id))
				continue;
			strv_pushf(diag, "%s", after->v[i]);
			return !strcmp(parent, want) && node_present(after->v[i]) &&
			       after->n == before->n + 1;
		}
		return false;
	}
	if (now)
		strv_pushf(diag, "%s", now);
	if (!old || !now)
		return false;
	if (!strcmp(a->change, "vanish"))
		return !node_present(now);
	/* swap: the identity's generation moved on, all else is the same. */
	return strcmp(old, now) != 0 && node_present(now);
}

int cmd_change(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct strv before = { 0 }, after = { 0 }, diag = { 0 };
	struct change_args args;
	struct pm_report report;
	char line[64];
	bool shown;
	size_t i;
	int ret;

	ret = change_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	if (!pm_is_root(ctx) || testbus_ready(ctx, args.module))
		return 1;
	if (args.root)
		snprintf(line, sizeof(line), "%s root", args.change);
	else
		snprintf(line, sizeof(line), "%s %u", args.change, args.id);
	pm_report_begin(&report, ctx->out, args.format, 1);
	ret = read_lines(ctx, RT_NODES, &before);
	if (!ret) {
		ret = sysfs_write(RT_CHANGE, line);
		if (ret)
			strv_pushf(&diag, "write of '%s' to " RT_CHANGE " failed: %s%s", line,
				   strerror(-ret), ret == -EINVAL ? " (no such device?)" : "");
	}
	if (!ret)
		ret = read_lines(ctx, RT_NODES, &after);
	shown = !ret && change_shown(&args, &before, &after, &diag);
	for (i = 0; i < diag.n; i++)
		pm_report_diag(&report, "%s", diag.v[i]);
	pm_report_result(&report, shown, "change %s: for the next rescan", line);
	strv_free(&before);
	strv_free(&after);
	strv_free(&diag);
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
