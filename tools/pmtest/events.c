// SPDX-License-Identifier: GPL-2.0
/*
 * The uevents of one cycle, as udev handled them, and the rules a replug
 * cycle keeps: each device taken away comes back, and every event of the
 * cycle names its transition, cycle and pm_test level.  Only events with
 * PM_REPLUG=1 count: the rest are the machine's own business.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

/* Enough to see what went wrong without burying the report. */
#define PM_DIAG_MAX 10

static char *dup_or_null(const char *s, int *ret)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*ret = -ENOMEM;
	return d;
}

/* The copies pm_events_add() made are the list's own. */
static void event_free(struct pm_event *ev)
{
	free((char *)ev->action);
	free((char *)ev->devpath);
	free((char *)ev->replug);
	free((char *)ev->transition);
	free((char *)ev->cycle);
	free((char *)ev->test);
	free((char *)ev->identity);
}

/* Keeps a copy of @ev, whose action and devpath are set. */
int pm_events_add(struct pm_events *evs, const struct pm_event *ev)
{
	struct pm_event copy, *v;
	int ret = 0;

	copy = (struct pm_event){
		.action = dup_or_null(ev->action, &ret),
		.devpath = dup_or_null(ev->devpath, &ret),
		.replug = dup_or_null(ev->replug, &ret),
		.transition = dup_or_null(ev->transition, &ret),
		.cycle = dup_or_null(ev->cycle, &ret),
		.test = dup_or_null(ev->test, &ret),
		.identity = dup_or_null(ev->identity, &ret),
		.on_bus = ev->on_bus,
	};
	if (!ret && evs->n == evs->cap) {
		v = realloc(evs->v, (evs->cap ? evs->cap * 2 : 64) * sizeof(*v));
		if (v) {
			evs->v = v;
			evs->cap = evs->cap ? evs->cap * 2 : 64;
		} else {
			ret = -ENOMEM;
		}
	}
	if (ret) {
		event_free(&copy);
		return ret;
	}
	evs->v[evs->n++] = copy;
	return 0;
}

void pm_events_free(struct pm_events *evs)
{
	size_t i;

	for (i = 0; i < evs->n; i++)
		event_free(&evs->v[i]);
	free(evs->v);
	*evs = (struct pm_events){ 0 };
}

static bool is_replug(const struct pm_event *ev)
{
	return ev->replug && !strcmp(ev->replug, "1");
}

size_t pm_events_replug_count(const struct pm_events *evs)
{
	size_t i, n = 0;

	for (i = 0; i < evs->n; i++)
		n += is_replug(&evs->v[i]);
	return n;
}

static const char *or_unset(const char *s)
{
	return s ? s : "(unset)";
}

/* One more offender: described while there is room, counted after. */
static int offend(struct strv *diag, size_t *offenders, const struct pm_event *ev,
		  const char *what, const char *value, const char *want)
{
	if (++*offenders > PM_DIAG_MAX)
		return 0;
	if (!what)
		return strv_pushf(diag, "%s %s: no add followed", ev->action, ev->devpath);
	return strv_pushf(diag, "%s %s: %s=%s, want %s", ev->action, ev->devpath,
			  what, or_unset(value), want);
}

static int finish(struct strv *diag, size_t offenders, int ret)
{
	if (!ret && offenders > PM_DIAG_MAX)
		ret = strv_pushf(diag, "... and %zu more", offenders - PM_DIAG_MAX);
	return ret ? ret : (int)offenders;
}

struct pm_pair_entry {
	char *path;
	size_t seq;
	bool add;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct pm_pair_entry *x = a, *y = b;
	int cmp = strcmp(x->path, y->path);

	return cmp ? cmp : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Each REMOVE of a bus device is matched to a later ADD of the same
 * device, by DEVPATH with the instance numbers as N, since a device comes
 * back as a new one.  An ADD alone is no fault: a rescan may find more
 * than was there.  Class devices are left out: what they come back as is
 * the kernel's choice (vda and vdb may trade places).  A device whose
 * DEVPATH is in @gone (sorted; NULL for none) went while the system slept
 * and need not come back.
 *
 * Return: 0 when it holds, the number of unmatched REMOVEs, or -ENOMEM.
 */
int pm_events_check_pairs(const struct pm_events *evs, const struct pm_norm *norm,
			  const struct strv *gone, struct strv *diag)
{
	struct pm_pair_entry *e;
	size_t i, n = 0, first, pending, removed = 0, offenders = 0;
	int ret = 0;

	e = calloc(evs->n ? evs->n : 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (i = 0; !ret && i < evs->n; i++) {
		const struct pm_event *ev = &evs->v[i];
		bool add = !strcmp(ev->action, "add");

		if (!is_replug(ev) || !ev->on_bus ||
		    (!add && strcmp(ev->action, "remove")))
			continue;
		e[n] = (struct pm_pair_entry){ pm_norm_apply(norm, ev->devpath), i, add };
		if (!e[n++].path)
			ret = -ENOMEM;
	}
	if (!ret)
		qsort(e, n, sizeof(*e), cmp_entry);
	for (first = 0; !ret && first < n; first = i) {
		pending = 0;
		for (i = first; i < n && !strcmp(e[i].path, e[first].path); i++) {
			if (!e[i].add) {
				pending++;
				removed = e[i].seq;
			}
			else if (pending)
				pending--;
		}
		if (gone && strv_has_sorted(gone, e[first].path))
			pending = 0;
		while (!ret && pending--)
			ret = offend(diag, &offenders, &evs->v[removed],
				     NULL, NULL, NULL);
	}
	for (i = 0; i < n; i++)
		free(e[i].path);
	free(e);
	return finish(diag, offenders, ret);
}

/* Return: 0 when it holds, the number of events that differ, or -ENOMEM. */
int pm_events_check_keys(const struct pm_events *evs, const char *transition,
			 const char *cycle, struct strv *diag)
{
	size_t i, offenders = 0;
	int ret = 0;

	for (i = 0; !ret && i < evs->n; i++) {
		const struct pm_event *ev = &evs->v[i];

		if (!is_replug(ev))
			continue;
		if (!ev->transition || strcmp(ev->transition, transition))
			ret = offend(diag, &offenders, ev, "PM_TRANSITION",
				     ev->transition, transition);
		else if (!ev->cycle || strcmp(ev->cycle, cycle))
			ret = offend(diag, &offenders, ev, "PM_CYCLE", ev->cycle, cycle);
	}
	return finish(diag, offenders, ret);
}

/* Return: 0 when it holds, the number of events that differ, or -ENOMEM. */
int pm_events_check_test(const struct pm_events *evs, const char *test,
			 struct strv *diag)
{
	size_t i, offenders = 0;
	int ret = 0;

	for (i = 0; !ret && i < evs->n; i++) {
		const struct pm_event *ev = &evs->v[i];

		if (is_replug(ev) && (!ev->test || strcmp(ev->test, test)))
			ret = offend(diag, &offenders, ev, "PM_TEST", ev->test, test);
	}
	return finish(diag, offenders, ret);
}

static bool is_identity(const char *identity)
{
	return identity && (!strcmp(identity, "same") || !strcmp(identity, "changed") ||
			    !strcmp(identity, "new"));
}

/*
 * Every bus device added with PM_REPLUG=1 says whether it is the hardware
 * that went, and none of @came (sorted DEVPATHs, the hardware plugged in
 * or swapped while the system slept; NULL for none) says it is.  A class
 * device takes its parent's answer and is not checked apart.
 *
 * Return: 0 when it holds, the number of events that differ, or -ENOMEM.
 */
int pm_events_check_identity(const struct pm_events *evs, const struct pm_norm *norm,
			     const struct strv *came, struct strv *diag)
{
	size_t i, offenders = 0;
	bool plugged_in;
	char *path;
	int ret = 0;

	for (i = 0; !ret && i < evs->n; i++) {
		const struct pm_event *ev = &evs->v[i];

		if (!is_replug(ev) || !ev->on_bus || strcmp(ev->action, "add"))
			continue;
		if (!is_identity(ev->identity)) {
			ret = offend(diag, &offenders, ev, "PM_REPLUG_IDENTITY",
				     ev->identity, "same, changed or new");
			continue;
		}
		if (!came || strcmp(ev->identity, "same"))
			continue;
		path = pm_norm_apply(norm, ev->devpath);
		if (!path)
			return -ENOMEM;
		plugged_in = strv_has_sorted(came, path);
		free(path);
		if (plugged_in)
			ret = offend(diag, &offenders, ev, "PM_REPLUG_IDENTITY",
				     ev->identity, "changed or new: the hardware changed");
	}
	return finish(diag, offenders, ret);
}

/* How many bus devices came back as what, for the report. */
int pm_events_tally_identity(const struct pm_events *evs, struct strv *diag)
{
	size_t i, same = 0, changed = 0, new = 0;

	for (i = 0; i < evs->n; i++) {
		const struct pm_event *ev = &evs->v[i];

		if (!is_replug(ev) || !ev->on_bus || strcmp(ev->action, "add") ||
		    !ev->identity)
			continue;
		same += !strcmp(ev->identity, "same");
		changed += !strcmp(ev->identity, "changed");
		new += !strcmp(ev->identity, "new");
	}
	return strv_pushf(diag, "devices added again: %zu the same, %zu changed, %zu new",
			  same, changed, new);
}
