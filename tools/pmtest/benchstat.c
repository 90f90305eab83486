// SPDX-License-Identifier: GPL-2.0
/*
 * The bench command's arithmetic: where a suspend's trace says the devices
 * were all down and where they started back up, and the medians and
 * ratios of the cycles measured.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

/* The last thing done on the way down, and the first on the way up. */
static const char *const down_ends[] = {
	"dpm_suspend", "dpm_suspend_late", "dpm_suspend_noirq", NULL
};
static const char *const up_begins[] = {
	"dpm_resume_noirq", "dpm_resume_early", "dpm_resume", NULL
};

static bool listed(const char *action, size_t len, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == len && !strncmp(action, *list, len))
			return true;
	return false;
}

/*
 * One line of an ftrace text trace, "... TIMESTAMP: suspend_resume:
 * ACTION[VAL] begin|end".  Return: true when it is one, with its parts.
 */
static bool parse_suspend_resume(const char *line, double *ts, const char **action,
				 size_t *len, bool *begin)
{
	const char *ev = strstr(line, ": suspend_resume: "), *p;
	char *end;

	if (!ev)
		return false;
	/* The timestamp is the word before the event's name. */
	for (p = ev; p > line && p[-1] != ' '; p--)
		;
	*ts = strtod(p, &end);
	if (end != ev)
		return false;
	*action = ev + strlen(": suspend_resume: ");
	*len = strcspn(*action, "[");
	p = strchr(*action, ']');
	if (!p || (*action)[*len] != '[')
		return false;
	if (!strncmp(p, "] begin", 7))
		*begin = true;
	else if (!strncmp(p, "] end", 5))
		*begin = false;
	else
		return false;
	return true;
}

/**
 * pm_bench_split - where a suspend's devices were all down, and back up
 * @lines: the trace, with the power:suspend_resume events of one suspend
 * @down: the end of the last device phase on the way down, or the start of
 *	machine_suspend, in the trace's seconds
 * @up: the start of the first device phase on the way up, or the end of
 *	machine_suspend
 *
 * What lies between is the sleep itself (or pm_test's wait), which belongs
 * to neither the suspend nor the resume.
 *
 * Return: 0, or -ENOENT when the trace lacks either point.
 */
int pm_bench_split(const struct strv *lines, double *down, double *up)
{
	const char *action;
	double ts;
	size_t i, len;
	bool begin, machine;

	*down = NAN;
	*up = NAN;
	for (i = 0; i < lines->n; i++) {
		if (!parse_suspend_resume(lines->v[i], &ts, &action, &len, &begin))
			continue;
		machine = len == strlen("machine_suspend") &&
			  !strncmp(action, "machine_suspend", len);
		if ((machine && begin) || (!begin && listed(action, len, down_ends)))
			*down = isnan(*down) || ts > *down ? ts : *down;
		if ((machine && !begin) || (begin && listed(action, len, up_begins)))
			*up = isnan(*up) || ts < *up ? ts : *up;
	}
	return isnan(*down) || isnan(*up) || *up < *down ? -ENOENT : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n values, NAN for none; @v is sorted in place. */
double pm_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* @a over @b, NAN when @b is not above zero. */
double pm_ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}
