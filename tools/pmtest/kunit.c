// SPDX-License-Identifier: GPL-2.0
/*
 * The kunit command: the results KUnit keeps in debugfs, one file per
 * suite, as one KTAP document with each suite a subtest (pm_kunit_suite()).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

#define KUNIT_DIR "/sys/kernel/debug/kunit"

static int list_suites(const struct pmtest_ctx *ctx, struct strv *suites)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(KUNIT_DIR);
	if (!d) {
		ret = -errno;
		pm_err(ctx, "cannot open " KUNIT_DIR " (debugfs mounted? CONFIG_KUNIT_DEBUGFS?): %m");
		return ret;
	}
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] != '.')
			ret = strv_pushf(suites, "%s", de->d_name);
	closedir(d);
	if (ret)
		pm_err(ctx, "out of memory");
	strv_sort(suites);
	return ret;
}

int cmd_kunit(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct pm_kunit_count count = { 0 };
	struct strv suites = { 0 }, lines;
	struct kunit_args args;
	char path[512];
	size_t i;
	FILE *f;
	int ret;

	ret = kunit_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	ret = pm_is_root(ctx) ? 0 : -EPERM;
	for (i = 0; !ret && i < args.nmodules; i++)
		ret = pm_module_load(ctx, args.modules[i], false);
	free(args.modules);
	if (ret || list_suites(ctx, &suites))
		return 1;
	fprintf(ctx->out, "KTAP version 1\n1..%zu\n", suites.n);
	for (i = 0; i < suites.n; i++) {
		lines = (struct strv){ 0 };
		snprintf(path, sizeof(path), KUNIT_DIR "/%s/results", suites.v[i]);
		f = fopen(path, "re");
		if (!f || strv_read_lines(&lines, f))
			pm_err(ctx, "cannot read %s: %m", path);
		if (f)
			fclose(f);
		pm_kunit_suite(ctx->out, suites.v[i], &lines, i + 1, &count);
		strv_free(&lines);
	}
	fprintf(ctx->out, "%u passed, %u failed\n", count.passed, count.failed);
	strv_free(&suites);
	return count.failed || count.suite_failed;
}
