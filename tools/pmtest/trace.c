// SPDX-License-Identifier: GPL-2.0
/*
 * An ftrace text trace (the default "trace" file format) of replug's
 * replug_device events and the PM core's device_pm_callback_start/end,
 * and what one replug cycle of it did to each device.  No I/O but on the
 * stream handed in.
 *
 *   TASK-PID [CPU] FLAGS TS: replug_device: ACTION DRIVER DEVICE cycle=N transition=T
 *   TASK-PID [CPU] FLAGS TS: device_pm_callback_start: DRIVER DEVICE, parent: P, INFO[EVENT]
 *   TASK-PID [CPU] FLAGS TS: device_pm_callback_end: DRIVER DEVICE, err=N
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

static const struct {
	const char *marker;
	enum pm_trace_kind kind;
} kinds[] = {
	{ ": replug_device: ", PM_TRACE_REPLUG },
	{ ": device_pm_callback_start: ", PM_TRACE_CB_START },
	{ ": device_pm_callback_end: ", PM_TRACE_CB_END },
};

static const char *const actions[] = { "unplug", "remove", "replug", "keep", NULL };

static const char *const result_names[] = {
	[PM_RESULT_NONE] = "none",
	[PM_RESULT_UNPLUGGED] = "unplugged",
	[PM_RESULT_REFUSED] = "refused",
	[PM_RESULT_REPLUGGED] = "replugged",
	[PM_RESULT_KEPT] = "kept",
	[PM_RESULT_REMOVED] = "removed",
};

const char *pm_result_name(enum pm_result result)
{
	return result_names[result];
}

/*
 * Cut @s at single spaces into exactly @n words.  An empty word (two
 * spaces: an empty field) or a word too many or too few fails.
 */
static bool split_words(char *s, char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		w[i] = s;
		s += strcspn(s, " ");
		if (s == w[i])
			return false;
		if (i + 1 < n) {
			if (!*s)
				return false;
			*s++ = '\0';
		}
	}
	return !*s;
}

static bool parse_ull(const char *s, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}

static bool parse_int(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
		return false;
	*out = v;
	return true;
}

/* "DRIVER DEVICE" */
static bool parse_names(char *s, struct pm_trace_event *ev)
{
	char *w[2];

	if (!split_words(s, w, 2))
		return false;
	ev->driver = w[0];
	ev->device = w[1];
	return true;
}

/* "ACTION DRIVER DEVICE cycle=N transition=NAME" */
static bool parse_replug(char *s, struct pm_trace_event *ev)
{
	const char *const *a;
	char *w[5];

	if (!split_words(s, w, 5) || strncmp(w[3], "cycle=", 6) ||
	    strncmp(w[4], "transition=", 11) || !w[4][11] ||
	    !parse_ull(w[3] + 6, &ev->cycle))
		return false;
	for (a = actions; *a && strcmp(*a, w[0]); a++)
		;
	if (!*a)
		return false;
	ev->action = *a;
	ev->driver = w[1];
	ev->device = w[2];
	ev->transition = w[4] + 11;
	return true;
}

/* "DRIVER DEVICE, parent: PARENT, INFO[EVENT]", INFO with its trailing space. */
static bool parse_start(char *s, struct pm_trace_event *ev)
{
	char *parent = strstr(s, ", parent: "), *info, *event, *end;

	if (!parent)
		return false;
	*parent = '\0';
	parent += strlen(", parent: ");
	info = strstr(parent, ", ");
	if (!info || info == parent)
		return false;
	*info = '\0';
	info += 2;
	event = strrchr(info, '[');
	end = info + strlen(info);
	if (!event || end[-1] != ']' || end - 1 == event + 1)
		return false;
	end[-1] = '\0';
	*event++ = '\0';
	for (end = event - 1; end > info && end[-1] == ' '; end--)
		end[-1] = '\0';
	if (!*info)
		return false;
	ev->parent = parent;
	ev->info = info;
	ev->event = event;
	return parse_names(s, ev);
}

/* "DRIVER DEVICE, err=N" */
static bool parse_end(char *s, struct pm_trace_event *ev)
{
	char *err = strstr(s, ", err=");

	if (!err || !parse_int(err + strlen(", err="), &ev->err))
		return false;
	*err = '\0';
	return parse_names(s, ev);
}

/*
 * Return: 1 with @ev filled in (free ev->buf), 0 for a line of another
 * event or a comment, -EINVAL for a line of ours that does not parse,
 * -ENOMEM.
 */
int pm_trace_parse_line(const char *line, struct pm_trace_event *ev)
{
	const char *mark = NULL, *word;
	size_t i, len;
	char *end;
	bool ok;

	*ev = (struct pm_trace_event){ 0 };
	if (line[strspn(line, " \t")] == '#')
		return 0;
	for (i = 0; !mark && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		mark = strstr(line, kinds[i].marker);
	if (!mark)
		return 0;
	ev->kind = kinds[i - 1].kind;

	/* The timestamp is the word before the event's name. */
	for (word = mark; word > line && word[-1] != ' '; word--)
		;
	if (word == mark || *word < '0' || *word > '9')
		return -EINVAL;
	errno = 0;
	ev->ts = strtod(word, &end);
	if (errno || end != mark)
		return -EINVAL;

	ev->buf = strdup(mark + strlen(kinds[i - 1].marker));
	if (!ev->buf)
		return -ENOMEM;
	len = strlen(ev->buf);
	while (len && strchr(" \t\r\n", ev->buf[len - 1]))
		ev->buf[--len] = '\0';
	switch (ev->kind) {
	case PM_TRACE_REPLUG:
		ok = parse_replug(ev->buf, ev);
		break;
	case PM_TRACE_CB_START:
		ok = parse_start(ev->buf, ev);
		break;
	default:
		ok = parse_end(ev->buf, ev);
		break;
	}
	if (!ok) {
		free(ev->buf);
		*ev = (struct pm_trace_event){ 0 };
		return -EINVAL;
	}
	return 1;
}

/* Keeps the line's event; a line of ours that does not parse is counted. */
int pm_trace_add_line(struct pm_trace *tr, const char *line)
{
	struct pm_trace_event ev, *v;
	int ret = pm_trace_parse_line(line, &ev);

	if (ret == -EINVAL)
		tr->skipped++;
	if (ret <= 0)
		return ret == -ENOMEM ? ret : 0;
	if (tr->n == tr->cap) {
		v = realloc(tr->v, (tr->cap ? tr->cap * 2 : 256) * sizeof(*v));
		if (!v) {
			free(ev.buf);
			return -ENOMEM;
		}
		tr->v = v;
		tr->cap = tr->cap ? tr->cap * 2 : 256;
	}
	tr->v[tr->n++] = ev;
	return 0;
}

/* Return: 0, -ENOMEM or -EIO. */
int pm_trace_read(struct pm_trace *tr, FILE *f)
{
	char *line = NULL;
	size_t size = 0;
	int ret = 0;

	while (!ret && getline(&line, &size, f) >= 0)
		ret = pm_trace_add_line(tr, line);
	free(line);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

void pm_trace_free(struct pm_trace *tr)
{
	size_t i;

	for (i = 0; i < tr->n; i++)
		free(tr->v[i].buf);
	free(tr->v);
	*tr = (struct pm_trace){ 0 };
}

/* An event of the trace, sorted by device, then by where it is. */
struct item {
	const char *device;
	size_t i;
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int d = strcmp(x->device, y->device);

	return d ? d : x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Each start's end: the first end of the same device after it that no
 * later start took, as the most recent unmatched start takes an end.
 * match[start] is the end's index + 1, 0 for none.
 */
static int match_callbacks(const struct pm_trace *tr, size_t *match)
{
	struct item *items;
	size_t *stack, n = 0, depth, i, j;

	items = malloc(tr->n * sizeof(*items));
	stack = malloc(tr->n * sizeof(*stack));
	if (!items || !stack) {
		free(items);
		free(stack);
		return -ENOMEM;
	}
	for (i = 0; i < tr->n; i++)
		if (tr->v[i].kind != PM_TRACE_REPLUG)
			items[n++] = (struct item){ tr->v[i].device, i };
	qsort(items, n, sizeof(*items), cmp_item);
	for (i = 0; i < n; i = j) {
		depth = 0;
		for (j = i; j < n && !strcmp(items[j].device, items[i].device); j++) {
			if (tr->v[items[j].i].kind == PM_TRACE_CB_START)
				stack[depth++] = items[j].i;
			else if (depth)
				match[stack[--depth]] = items[j].i + 1;
		}
	}
	free(items);
	free(stack);
	return 0;
}

static int add_phase(struct pm_dev_report *d, const struct pm_phase *p)
{
	struct pm_phase *v = realloc(d->phases, (d->nphases + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->phases = v;
	d->phases[d->nphases++] = *p;
	return 0;
}

/*
 * One device's events of the cycle, in trace order, times in seconds;
 * @first_unplug is where its first unplug is, SIZE_MAX for none.
 * Return: 1 for a device of the cycle, 0 for one with classic callbacks
 * only, -ENOMEM.
 */
static int build_device(const struct pm_trace *tr, const size_t *match,
			const struct item *items, size_t n,
			struct pm_dev_report *d, size_t *first_unplug)
{
	bool remove = false, keep = false, replug = false, ours = false;
	const struct pm_trace_event *ev, *end;
	size_t i;

	*d = (struct pm_dev_report){ .device = items[0].device, .unplug_ms = NAN,
				     .remove_ms = NAN, .back_ms = NAN };
	*first_unplug = SIZE_MAX;
	for (i = 0; i < n; i++) {
		ev = &tr->v[items[i].i];
		if (!d->driver)
			d->driver = ev->driver;
		if (ev->kind == PM_TRACE_CB_START) {
			end = &tr->v[match[items[i].i] - 1];
			if (add_phase(d, &(struct pm_phase){
				.name = ev->info, .start_ms = ev->ts, .end_ms = end->ts,
				.err = end->err,
				.classic = strncmp(ev->info, "replug ", 7) != 0 }))
				return -ENOMEM;
			ours |= strncmp(ev->info, "replug ", 7) == 0;
			if (!strcmp(ev->info, "replug remove") && isnan(d->remove_ms))
				d->remove_ms = end->ts - ev->ts;
			if (end->err && !d->error)
				d->error = end->err;
			continue;
		}
		ours = true;
		if (!d->transition)
			d->transition = ev->transition;
		if (!strcmp(ev->action, "unplug") && *first_unplug == SIZE_MAX) {
			*first_unplug = items[i].i;
			d->unplug_ms = ev->ts;
		}
		remove |= !strcmp(ev->action, "remove");
		keep |= !strcmp(ev->action, "keep");
		if (!strcmp(ev->action, "replug") && !replug) {
			replug = true;
			d->back_ms = ev->ts;
		}
	}
	d->result = remove ? PM_RESULT_REMOVED : keep ? PM_RESULT_KEPT :
		replug ? PM_RESULT_REPLUGGED : d->error ? PM_RESULT_REFUSED :
		*first_unplug != SIZE_MAX ? PM_RESULT_UNPLUGGED : PM_RESULT_NONE;
	return ours;
}

struct ordered {
	size_t first_unplug;
	struct pm_dev_report dev;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->first_unplug != y->first_unplug)
		return x->first_unplug < y->first_unplug ? -1 : 1;
	return strcmp(x->dev.device, y->dev.device);
}

/* Seconds of the trace into ms from @start. */
static void to_ms(struct pm_dev_report *d, double start)
{
	size_t i;

	d->unplug_ms = (d->unplug_ms - start) * 1000;
	d->remove_ms *= 1000;
	d->back_ms = (d->back_ms - start) * 1000;
	for (i = 0; i < d->nphases; i++) {
		d->phases[i].start_ms = (d->phases[i].start_ms - start) * 1000;
		d->phases[i].end_ms = (d->phases[i].end_ms - start) * 1000;
	}
}

/*
 * The cycle's replug_device events, and the callbacks that overlap them.
 * A device's "replug unplug" callback comes before its unplug event, so
 * replug's own callbacks count from the end of the cycle before.
 */
static size_t cycle_items(const struct pm_trace *tr, const size_t *match,
			  unsigned long long cycle, struct item *items,
			  size_t *unmatched)
{
	const struct pm_trace_event *v = tr->v;
	double t0 = INFINITY, t1 = -INFINITY, before = -INFINITY, from;
	size_t i, n = 0;

	for (i = 0; i < tr->n; i++) {
		if (v[i].kind == PM_TRACE_REPLUG && v[i].cycle == cycle) {
			t0 = v[i].ts < t0 ? v[i].ts : t0;
			t1 = v[i].ts > t1 ? v[i].ts : t1;
			items[n++] = (struct item){ v[i].device, i };
		}
	}
	for (i = 0; i < tr->n; i++)
		if (v[i].kind == PM_TRACE_REPLUG && v[i].cycle != cycle &&
		    v[i].ts < t0 && v[i].ts > before)
			before = v[i].ts;
	*unmatched = 0;
	for (i = 0; i < tr->n; i++) {
		if (v[i].kind != PM_TRACE_CB_START)
			continue;
		from = strncmp(v[i].info, "replug ", 7) ? t0 : before;
		if (!match[i])
			*unmatched += v[i].ts > from && v[i].ts <= t1;
		else if (v[i].ts <= t1 && v[match[i] - 1].ts >= t0)
			items[n++] = (struct item){ v[i].device, i };
		else if (v[i].ts <= t1 && v[i].ts > from)
			items[n++] = (struct item){ v[i].device, i };
	}
	return n;
}

/*
 * Each device's part in replug cycle @cycle, 0 for the last one of the
 * trace.  The span runs from the cycle's first replug_device event to its
 * last, widened to the callbacks of its devices that overlap it and to
 * replug's callbacks since the cycle before.
 * Return: 0, -ENOENT when the trace has no such cycle, or -ENOMEM.
 */
int pm_cycle_build(const struct pm_trace *tr, unsigned long long cycle,
		   struct pm_cycle *c)
{
	double start = INFINITY, end = -INFINITY;
	struct ordered *devs = NULL;
	struct item *items = NULL;
	size_t *match = NULL, n, i, j, k, nd = 0;
	int ret = -ENOENT;

	*c = (struct pm_cycle){ 0 };
	for (i = tr->n; !cycle && i > 0; i--)
		if (tr->v[i - 1].kind == PM_TRACE_REPLUG)
			cycle = tr->v[i - 1].cycle;
	for (i = 0; i < tr->n && !c->transition; i++)
		if (tr->v[i].kind == PM_TRACE_REPLUG && tr->v[i].cycle == cycle)
			c->transition = tr->v[i].transition;
	if (!c->transition)
		return -ENOENT;
	c->cycle = cycle;

	ret = -ENOMEM;
	match = calloc(tr->n, sizeof(*match));
	items = malloc(tr->n * sizeof(*items));
	devs = calloc(tr->n, sizeof(*devs));
	if (!match || !items || !devs || match_callbacks(tr, match))
		goto out;
	n = cycle_items(tr, match, cycle, items, &c->unmatched);
	qsort(items, n, sizeof(*items), cmp_item);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(items[j].device, items[i].device); j++)
			;
		ret = build_device(tr, match, items + i, j - i, &devs[nd].dev,
				   &devs[nd].first_unplug);
		if (ret < 0) {
			nd++;
			goto out;
		}
		if (!ret) {
			free(devs[nd].dev.phases);
			continue;
		}
		/* Only the devices listed widen the span. */
		for (k = i; k < j; k++) {
			const struct pm_trace_event *ev = &tr->v[items[k].i];
			double until = ev->kind == PM_TRACE_CB_START ?
				tr->v[match[items[k].i] - 1].ts : ev->ts;

			start = ev->ts < start ? ev->ts : start;
			end = until > end ? until : end;
		}
		nd++;
	}
	ret = -ENOMEM;
	c->devs = malloc((nd ? nd : 1) * sizeof(*c->devs));
	if (!c->devs)
		goto out;
	qsort(devs, nd, sizeof(*devs), cmp_ordered);
	for (i = 0; i < nd; i++) {
		c->devs[i] = devs[i].dev;
		c->devs[i].order = devs[i].first_unplug == SIZE_MAX ? 0 : i + 1;
		to_ms(&c->devs[i], start);
		c->removed += c->devs[i].result == PM_RESULT_REMOVED;
		c->kept += c->devs[i].result == PM_RESULT_KEPT;
	}
	c->ndevs = nd;
	c->span_ms = (end - start) * 1000;
	nd = 0;
	ret = 0;
out:
	for (i = 0; i < nd; i++)
		free(devs[i].dev.phases);
	free(devs);
	free(items);
	free(match);
	if (ret)
		pm_cycle_free(c);
	return ret;
}

void pm_cycle_free(struct pm_cycle *c)
{
	size_t i;

	for (i = 0; i < c->ndevs; i++)
		free(c->devs[i].phases);
	free(c->devs);
	*c = (struct pm_cycle){ 0 };
}
