// SPDX-License-Identifier: GPL-2.0
/*
 * The bench command's arithmetic: where a suspend's trace says the device
 * phases began and ended, and the medians and ratios of the cycles
 * measured.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

/* The first device phase on the way down, and the last one on the way up. */
static const char *const down_begins[] = { "replug_unplug", "dpm_prepare", NULL };
static const char *const up_ends[] = { "dpm_complete", "replug_rescan", NULL };
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

/* The timestamp of a trace line, the word before @ev. */
static bool parse_timestamp(const char *line, const char *ev, double *ts)
{
	const char *p;
	char *end;

	for (p = ev; p > line && p[-1] != ' '; p--)
		;
	*ts = strtod(p, &end);
	return end == ev && end != p;
}

/*
 * One line of an ftrace text trace, "... TIMESTAMP: suspend_resume:
 * ACTION[VAL] begin|end".  Return: true when it is one, with its parts.
 */
static bool parse_suspend_resume(const char *line, double *ts, const char **action,
				 size_t *len, bool *begin)
{
	const char *ev = strstr(line, ": suspend_resume: "), *p;

	if (!ev || !parse_timestamp(line, ev, ts))
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

/*
 * "... TIMESTAMP: replug_device: replug DRIVER DEVICE ...": a replugged
 * device bound; @tree: one of the test bus's.
 */
static bool parse_replugged(const char *line, double *ts, bool *tree)
{
	static const char tag[] = ": replug_device: replug ";
	const char *ev = strstr(line, tag);

	if (!ev || !parse_timestamp(line, ev, ts))
		return false;
	*tree = !strncmp(ev + strlen(tag), PM_TREE_DRIVER " ", strlen(PM_TREE_DRIVER) + 1);
	return true;
}

/* "... TIMESTAMP: device_pm_callback_start: ..." or _end. */
static bool parse_callback(const char *line, double *ts, bool *start)
{
	const char *ev = strstr(line, ": device_pm_callback_");

	if (!ev || !parse_timestamp(line, ev, ts))
		return false;
	ev += strlen(": device_pm_callback_");
	*start = !strncmp(ev, "start: ", 7);
	return *start || !strncmp(ev, "end: ", 5);
}

static void take_min(double *at, double ts)
{
	if (isnan(*at) || ts < *at)
		*at = ts;
}

static void take_max(double *at, double ts)
{
	if (isnan(*at) || ts > *at)
		*at = ts;
}

static bool is_action(const char *action, size_t len, const char *name)
{
	return len == strlen(name) && !strncmp(action, name, len);
}

/*
 * The span of the test-bus tree's own work on either side of the sleep:
 * the trace's device_pm_callback events are those of the tree (the
 * writer filters them), the rescan's included, and on the way up in
 * replug mode the tree is back when its last device is bound again.
 */
static void split_tree(const struct strv *lines, struct pm_bench_marks *m)
{
	double ts;
	size_t i;
	bool start, tree;

	m->tree_first = m->tree_down = m->tree_up = m->tree_last = NAN;
	for (i = 0; i < lines->n; i++) {
		if (parse_replugged(lines->v[i], &ts, &tree)) {
			if (tree && ts >= m->up)
				take_max(&m->tree_last, ts);
		} else if (parse_callback(lines->v[i], &ts, &start)) {
			if (ts <= m->down && start)
				take_min(&m->tree_first, ts);
			else if (ts <= m->down)
				take_max(&m->tree_down, ts);
			else if (ts >= m->up && start)
				take_min(&m->tree_up, ts);
			else if (ts >= m->up)
				take_max(&m->tree_last, ts);
		}
	}
	if (isnan(m->tree_first) || isnan(m->tree_down) || isnan(m->tree_up) ||
	    isnan(m->tree_last))
		m->tree_first = m->tree_down = m->tree_up = m->tree_last = NAN;
}

/**
 * pm_bench_split - where a suspend's device phases began and ended
 * @lines: the trace, with the power:suspend_resume events of one suspend
 *	and the replug_device events of the devices that came back
 * @m: filled in, in the trace's seconds:
 *	@first, the start of the first device phase on the way down (the
 *	replug walk or dpm_prepare);
 *	@down, the end of the last device phase on the way down, or the start
 *	of machine_suspend;
 *	@up, the start of the first device phase on the way up, or the end of
 *	machine_suspend;
 *	@last, the end of the last device phase on the way up (dpm_complete or
 *	the replug rescan) or, if later, the last replugged device's bind;
 *	@tree_first to @tree_down and @tree_up to @tree_last, the same for the
 *	devices of a test-bus tree alone, or NAN when the trace has none.
 *
 * What lies between @down and @up is the sleep itself (or pm_test's wait),
 * which belongs to neither the suspend nor the resume; before @first and
 * after @last is the transition's own work (freezing, thawing, syncing).
 *
 * Return: 0, or -ENOENT when the trace lacks any of the points.
 */
int pm_bench_split(const struct strv *lines, struct pm_bench_marks *m)
{
	const char *action;
	double ts;
	size_t i, len;
	bool begin, machine, tree;

	m->first = m->down = m->up = m->last = NAN;
	for (i = 0; i < lines->n; i++) {
		if (parse_replugged(lines->v[i], &ts, &tree)) {
			take_max(&m->last, ts);
			continue;
		}
		if (!parse_suspend_resume(lines->v[i], &ts, &action, &len, &begin))
			continue;
		machine = is_action(action, len, "machine_suspend");
		if (begin && listed(action, len, down_begins))
			take_min(&m->first, ts);
		if ((machine && begin) || (!begin && listed(action, len, down_ends)))
			take_max(&m->down, ts);
		if ((machine && !begin) || (begin && listed(action, len, up_begins)))
			take_min(&m->up, ts);
		if (!begin && listed(action, len, up_ends))
			take_max(&m->last, ts);
	}
	if (isnan(m->first) || isnan(m->down) || isnan(m->up) || isnan(m->last) ||
	    m->first > m->down || m->down > m->up || m->up > m->last)
		return -ENOENT;
	split_tree(lines, m);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The median of @n values, NAN for none or when one is missing (NAN);
 * @v is sorted in place.
 */
double pm_median(double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(v[i]))
			return NAN;
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
