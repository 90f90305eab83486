// SPDX-License-Identifier: GPL-2.0
/* pmtest: the replug project's power-management test tool. */
#include <string.h>

#include "pmtest.h"

static const struct {
	const char *name;
	int (*run)(struct pmtest_ctx *ctx, int argc, char **argv);
} commands[] = {
	{ "inventory", cmd_inventory },
	{ "diff", cmd_diff },
	{ "cycle", cmd_cycle },
	{ "fault", cmd_fault },
	{ "tree", cmd_tree },
	{ "change", cmd_change },
	{ "kunit", cmd_kunit },
	{ "report", cmd_report },
	{ "bench", cmd_bench },
	{ "fuzz", cmd_fuzz },
};

int main(int argc, char **argv)
{
	struct pmtest_ctx ctx = { .out = stdout, .err = stderr };
	size_t i;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		pm_usage_all(stdout);
		return 0;
	}
	for (i = 0; argc > 1 && i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[1], commands[i].name)) {
			ctx.command = commands[i].name;
			return commands[i].run(&ctx, argc - 1, argv + 1);
		}
	}
	if (argc > 1)
		fprintf(stderr, "pmtest: unknown command '%s'\n", argv[1]);
	pm_usage_all(stderr);
	return 2;
}
