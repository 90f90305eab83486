// SPDX-License-Identifier: GPL-2.0
/* The diff command: two inventory files, as pm_invdiff() sees them. */
#include <string.h>

#include "pmtest.h"

/* Exit 0 when equal, 1 when they differ, 2 on trouble, as diff(1). */
int cmd_diff(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct strv old = { 0 }, new = { 0 }, out = { 0 };
	struct diff_args args;
	size_t i;
	int ret;

	ret = diff_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	ret = pm_inventory_read(ctx, args.old, &old) ?: pm_inventory_read(ctx, args.new, &new);
	if (!ret) {
		ret = pm_invdiff(&old, &new, &out);
		if (ret < 0)
			pm_err(ctx, "out of memory");
	}
	for (i = 0; i < out.n; i++)
		fprintf(ctx->out, "%s\n", out.v[i]);
	strv_free(&old);
	strv_free(&new);
	strv_free(&out);
	return ret < 0 ? 2 : ret > 0;
}
