// SPDX-License-Identifier: GPL-2.0
/* Error messages, in the form every command uses. */
#include <errno.h>

#include "pmtest.h"

void pm_err(const struct pmtest_ctx *ctx, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(ctx->err, "pmtest: %s: ", ctx->command);
	errno = saved;
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->err);
}
