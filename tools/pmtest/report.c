// SPDX-License-Identifier: GPL-2.0
/*
 * Results of checks, in KTAP (what kunit.py's parser reads), plain text
 * or JSON.  Diagnostics gather until their result, since JSON nests them
 * in it and KTAP puts them before it, as KUnit does.
 */
#include <stdlib.h>

#include "pmtest.h"

void pm_report_begin(struct pm_report *r, FILE *out, enum pm_format format,
		     unsigned int planned)
{
	*r = (struct pm_report){ .out = out, .format = format };
	if (format == PM_FORMAT_KTAP)
		fprintf(out, "KTAP version 1\n1..%u\n", planned);
	else if (format == PM_FORMAT_JSON)
		fputs("{\"results\": [", out);
}

int pm_report_diag(struct pm_report *r, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = strv_pushv(&r->diag, fmt, ap);
	va_end(ap);
	return ret;
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

void pm_report_result(struct pm_report *r, bool ok, const char *fmt, ...)
{
	va_list ap;
	char *name;
	size_t i;

	va_start(ap, fmt);
	if (vasprintf(&name, fmt, ap) < 0)
		name = NULL;
	va_end(ap);
	r->number++;
	if (ok)
		r->passed++;
	else
		r->failed++;
	switch (r->format) {
	case PM_FORMAT_KTAP:
		for (i = 0; i < r->diag.n; i++)
			fprintf(r->out, "# %s\n", r->diag.v[i]);
		fprintf(r->out, "%sok %u %s\n", ok ? "" : "not ", r->number,
			name ? name : "(out of memory)");
		break;
	case PM_FORMAT_TEXT:
		fprintf(r->out, "%s %s\n", ok ? "PASS" : "FAIL",
			name ? name : "(out of memory)");
		for (i = 0; i < r->diag.n; i++)
			fprintf(r->out, "    %s\n", r->diag.v[i]);
		break;
	case PM_FORMAT_JSON:
		fprintf(r->out, "%s\n  {\"name\": ", r->number > 1 ? "," : "");
		json_string(r->out, name ? name : "(out of memory)");
		fprintf(r->out, ", \"ok\": %s, \"diagnostics\": [", ok ? "true" : "false");
		for (i = 0; i < r->diag.n; i++) {
			fputs(i ? ", " : "", r->out);
			json_string(r->out, r->diag.v[i]);
		}
		fputs("]}", r->out);
		break;
	}
	free(name);
	strv_free(&r->diag);
}

/* Return: the exit status, 1 when anything failed. */
int pm_report_end(struct pm_report *r)
{
	switch (r->format) {
	case PM_FORMAT_KTAP:
		fprintf(r->out, "# %u passed, %u failed\n", r->passed, r->failed);
		break;
	case PM_FORMAT_TEXT:
		fprintf(r->out, "%u passed, %u failed\n", r->passed, r->failed);
		break;
	case PM_FORMAT_JSON:
		fprintf(r->out, "\n], \"passed\": %u, \"failed\": %u}\n",
			r->passed, r->failed);
		break;
	}
	strv_free(&r->diag);
	return r->failed ? 1 : 0;
}
