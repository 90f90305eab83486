// SPDX-License-Identifier: GPL-2.0
/* One KUnit suite's debugfs results, as a subtest of a larger document. */
#include <string.h>

#include "pmtest.h"

/*
 * A results file is a document of its own: "KTAP version 1", "1..1", the
 * suite as a subtest indented by four, and "ok 1 SUITE".  Its first two
 * lines go, and its last is numbered @number in ours.
 */
void pm_kunit_suite(FILE *out, const char *name, const struct strv *lines,
		    unsigned int number, struct pm_kunit_count *count)
{
	size_t i, first = 0, last = lines->n;
	const char *result;
	bool ok, not_ok;

	while (first < last && first < 2 && (!strcmp(lines->v[first], "KTAP version 1") ||
					     !strncmp(lines->v[first], "1..", 3)))
		first++;
	while (last > first && !lines->v[last - 1][0])
		last--;
	result = last > first ? lines->v[last - 1] : NULL;
	ok = result && !strncmp(result, "ok 1 ", 5);
	not_ok = result && !strncmp(result, "not ok 1 ", 9);
	last -= ok || not_ok;
	for (i = first; i < last; i++) {
		fprintf(out, "%s\n", lines->v[i]);
		if (!strncmp(lines->v[i], "    ok ", 7))
			count->passed++;
		else if (!strncmp(lines->v[i], "    not ok ", 11))
			count->failed++;
	}
	if (ok)
		fprintf(out, "ok %u %s\n", number, result + 5);
	else if (not_ok)
		fprintf(out, "not ok %u %s\n", number, result + 9);
	else
		fprintf(out, "# %s: no result line\nnot ok %u %s\n", name, number, name);
	count->suite_failed |= !ok;
}

