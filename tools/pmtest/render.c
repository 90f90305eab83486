// SPDX-License-Identifier: GPL-2.0
/*
 * A cycle pm_cycle_build() made, as a table, as JSON or as an SVG
 * timeline, on the stream handed in.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

/* The text table's cells of one device; the others are the trace's strings. */
struct row {
	char order[24];
	char unplug[48];
	char remove[48];
	char back[48];
	char err[24];
};

#define NCOLS 8

static void ms_cell(char *buf, size_t size, const char *pre, double ms, const char *post)
{
	if (isnan(ms))
		snprintf(buf, size, "%s-", pre);
	else
		snprintf(buf, size, "%s%.3f%s", pre, ms, post);
}

static void cells_of(const struct pm_dev_report *d, struct row *r, const char **cell)
{
	if (d->order)
		snprintf(r->order, sizeof(r->order), "%u", d->order);
	else
		strcpy(r->order, "-");
	ms_cell(r->unplug, sizeof(r->unplug), "unplug@", d->unplug_ms, "");
	ms_cell(r->remove, sizeof(r->remove), "remove=", d->remove_ms, "ms");
	ms_cell(r->back, sizeof(r->back), "back@", d->back_ms, "");
	if (d->error)
		snprintf(r->err, sizeof(r->err), "err=%d", d->error);
	else
		r->err[0] = '\0';
	cell[0] = r->order;
	cell[1] = d->device;
	cell[2] = d->driver ? d->driver : "-";
	cell[3] = pm_result_name(d->result);
	cell[4] = r->unplug;
	cell[5] = r->remove;
	cell[6] = r->back;
	cell[7] = r->err;
}

/*
 * "cycle N (T): D devices, R removed, K kept, span S ms", then one line
 * per device, columns aligned, the order right-aligned, no trailing blanks.
 */
int pm_render_text(FILE *out, const struct pm_cycle *c)
{
	size_t width[NCOLS] = { 0 }, i, k, len;
	const char *cell[NCOLS];
	struct row *rows;

	rows = calloc(c->ndevs ? c->ndevs : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < c->ndevs; i++) {
		cells_of(&c->devs[i], &rows[i], cell);
		for (k = 0; k < NCOLS; k++) {
			len = strlen(cell[k]);
			width[k] = len > width[k] ? len : width[k];
		}
	}
	fprintf(out, "cycle %llu (%s): %zu devices, %zu removed, %zu kept, span %.3f ms\n",
		c->cycle, c->transition, c->ndevs, c->removed, c->kept, c->span_ms);
	for (i = 0; i < c->ndevs; i++) {
		cells_of(&c->devs[i], &rows[i], cell);
		fprintf(out, "%*s", (int)width[0], cell[0]);
		for (k = 1; k < NCOLS; k++) {
			if (k == NCOLS - 1 && !*cell[k])
				break;
			if (k == NCOLS - 1 || (k == NCOLS - 2 && !*cell[k + 1]))
				fprintf(out, " %s", cell[k]);
			else
				fprintf(out, " %-*s", (int)width[k], cell[k]);
		}
		fputc('\n', out);
	}
	free(rows);
	return 0;
}

static void json_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void json_ms(FILE *out, double ms)
{
	if (isnan(ms))
		fputs("null", out);
	else
		fprintf(out, "%.3f", ms);
}

int pm_render_json(FILE *out, const struct pm_cycle *c)
{
	const struct pm_dev_report *d;
	const struct pm_phase *p;
	size_t i, k;

	fprintf(out, "{\"cycle\": %llu, \"transition\": ", c->cycle);
	json_string(out, c->transition);
	fprintf(out, ", \"span_ms\": %.3f, \"devices\": [", c->span_ms);
	for (i = 0; i < c->ndevs; i++) {
		d = &c->devs[i];
		fputs(i ? ",\n  {\"order\": " : "\n  {\"order\": ", out);
		if (d->order)
			fprintf(out, "%u", d->order);
		else
			fputs("null", out);
		fputs(", \"device\": ", out);
		json_string(out, d->device);
		fputs(", \"driver\": ", out);
		json_string(out, d->driver);
		fputs(", \"transition\": ", out);
		json_string(out, d->transition);
		fputs(", \"result\": ", out);
		json_string(out, pm_result_name(d->result));
		fputs(", \"unplug_ms\": ", out);
		json_ms(out, d->unplug_ms);
		fputs(", \"remove_ms\": ", out);
		json_ms(out, d->remove_ms);
		fputs(", \"back_ms\": ", out);
		json_ms(out, d->back_ms);
		fprintf(out, ", \"error\": %d, \"phases\": [", d->error);
		for (k = 0; k < d->nphases; k++) {
			p = &d->phases[k];
			fputs(k ? ", {\"name\": " : "{\"name\": ", out);
			json_string(out, p->name);
			fprintf(out, ", \"start_ms\": %.3f, \"end_ms\": %.3f, \"err\": %d}",
				p->start_ms, p->end_ms, p->err);
		}
		fputs("]}", out);
	}
	fputs(c->ndevs ? "\n]}\n" : "]}\n", out);
	return 0;
}

/* Text and attribute values: markup escaped, control characters as '?'. */
static void xml_stringn(FILE *out, const char *s, size_t n)
{
	for (; s && *s && n; s++, n--) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, out);
			else
				fputc('?', out);
		}
	}
}

static void xml_string(FILE *out, const char *s)
{
	xml_stringn(out, s, SIZE_MAX);
}

enum {
	SVG_WIDTH = 1200,
	SVG_RIGHT = 30,
	SVG_ROW = 16,
	SVG_BAR = 10,
	SVG_TOP = 92,		/* below the title, the legend and the axis labels */
	SVG_CHAR = 7,		/* of the 11 px monospace font, roughly */
	SVG_NAME_MAX = 40,	/* characters of a device name shown */
};

static const struct {
	const char *name;
	const char *colour;
} legend[] = {
	{ "replug unplug", "#4e79a7" },
	{ "replug remove", "#f28e2b" },
	{ "replug rescan", "#59a14f" },
	{ "classic callback", "#b0a8a4" },
	{ "callback failed", "#e15759" },
};

static const char *phase_colour(const struct pm_phase *p)
{
	size_t i;

	if (p->err)
		return legend[4].colour;
	for (i = 0; i < 3; i++)
		if (!strcmp(p->name, legend[i].name))
			return legend[i].colour;
	return legend[3].colour;
}

/* A round step giving about ten ticks over @span, without libm. */
static double tick_step(double span)
{
	double raw = span / 10, mag = 1;

	if (raw <= 0)
		return 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	return raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
}

struct svg_scale {
	double left;		/* x of time 0 */
	double width;		/* px of the span */
	double span;		/* ms */
};

static double svg_x(const struct svg_scale *s, double ms)
{
	return s->left + ms / s->span * s->width;
}

static void svg_axis(FILE *out, const struct svg_scale *s, double bottom)
{
	double step = tick_step(s->span), t, x;
	unsigned int i;

	fprintf(out, "<g stroke=\"#999\" stroke-width=\"1\">\n"
		"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
		s->left, SVG_TOP - 6, s->left + s->width, SVG_TOP - 6);
	for (i = 0; (t = i * step) <= s->span * (1 + 1e-9); i++) {
		x = svg_x(s, t);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke-dasharray=\"2,3\" stroke=\"#ddd\"/>\n",
			x, SVG_TOP - 6, x, bottom);
	}
	fputs("</g>\n<g font-size=\"10\" text-anchor=\"middle\" fill=\"#333\">\n", out);
	for (i = 0; (t = i * step) <= s->span * (1 + 1e-9); i++)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\">%g</text>\n",
			svg_x(s, t), SVG_TOP - 10, t);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">ms</text>\n</g>\n",
		s->left + s->width + SVG_RIGHT - 4, SVG_TOP - 10);
}

static void svg_legend(FILE *out)
{
	size_t i;
	int x = 10;

	fputs("<g class=\"legend\" font-size=\"11\" fill=\"#333\">\n", out);
	for (i = 0; i < sizeof(legend) / sizeof(legend[0]); i++) {
		fprintf(out, "<rect class=\"legend\" x=\"%d\" y=\"36\" width=\"14\" "
			"height=\"%d\" fill=\"%s\"/><text x=\"%d\" y=\"45\">%s</text>\n",
			x, SVG_BAR, legend[i].colour, x + 18, legend[i].name);
		x += 18 + (int)strlen(legend[i].name) * SVG_CHAR + 20;
	}
	fprintf(out, "<line x1=\"%d\" y1=\"35\" x2=\"%d\" y2=\"47\" stroke=\"#000\" "
		"stroke-width=\"2\"/><text x=\"%d\" y=\"45\">unplug</text>\n",
		x + 6, x + 6, x + 12);
	x += 12 + 6 * SVG_CHAR + 20;
	fprintf(out, "<line x1=\"%d\" y1=\"35\" x2=\"%d\" y2=\"47\" stroke=\"#1b7837\" "
		"stroke-width=\"2\"/><text x=\"%d\" y=\"45\">back</text>\n</g>\n",
		x + 6, x + 6, x + 12);
}

static void svg_mark(FILE *out, const struct svg_scale *s, double ms, double y,
		     const char *colour, const char *device, const char *what)
{
	double x = svg_x(s, ms);

	if (isnan(ms))
		return;
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\"><title>", x, y, x, y + SVG_ROW - 2, colour);
	xml_string(out, device);
	fprintf(out, ": %s at %.3f ms</title></line>\n", what, ms);
}

static void svg_row(FILE *out, const struct svg_scale *s, const struct pm_dev_report *d,
		    size_t row, int name_chars)
{
	double y = SVG_TOP + row * SVG_ROW, x, w;
	const struct pm_phase *p;
	size_t i;

	fprintf(out, "<text x=\"6\" y=\"%.1f\" font-size=\"11\" fill=\"#000\">", y + 12);
	if ((int)strlen(d->device) > name_chars) {
		xml_stringn(out, d->device, name_chars - 3);
		fputs("...", out);
	} else {
		xml_string(out, d->device);
	}
	fputs("<title>", out);
	xml_string(out, d->device);
	fprintf(out, " (%s, %s", d->driver ? d->driver : "-", pm_result_name(d->result));
	if (d->order)
		fprintf(out, ", walk order %u", d->order);
	if (d->error)
		fprintf(out, ", err=%d", d->error);
	fputs(")</title></text>\n", out);
	for (i = 0; i < d->nphases; i++) {
		p = &d->phases[i];
		x = svg_x(s, p->start_ms);
		w = svg_x(s, p->end_ms) - x;
		fprintf(out, "<rect class=\"phase\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
			"height=\"%d\" fill=\"%s\"><title>", x, y + (SVG_ROW - SVG_BAR) / 2.0,
			w < 1 ? 1 : w, SVG_BAR, phase_colour(p));
		xml_string(out, d->device);
		fputs(": ", out);
		xml_string(out, p->name);
		fprintf(out, " %.3f ms (%.3f to %.3f)", p->end_ms - p->start_ms,
			p->start_ms, p->end_ms);
		if (p->err)
			fprintf(out, ", err=%d", p->err);
		fputs("</title></rect>\n", out);
	}
	svg_mark(out, s, d->unplug_ms, y + 1, "#000", d->device, "unplug");
	svg_mark(out, s, d->back_ms, y + 1, "#1b7837", d->device, "back");
}

/*
 * One row per device, at most PM_SVG_MAX_ROWS, each callback a bar at
 * its time, with the unplug and the return marked.  Plain SVG 1.1.
 */
int pm_render_svg(FILE *out, const struct pm_cycle *c)
{
	size_t rows = c->ndevs < PM_SVG_MAX_ROWS ? c->ndevs : PM_SVG_MAX_ROWS, i, len;
	int name_chars = 6, height;
	struct svg_scale s;

	for (i = 0; i < rows; i++) {
		len = strlen(c->devs[i].device);
		name_chars = (int)len > name_chars ? (int)len : name_chars;
	}
	name_chars = name_chars > SVG_NAME_MAX ? SVG_NAME_MAX : name_chars;
	s.left = 12 + name_chars * SVG_CHAR;
	s.width = SVG_WIDTH - SVG_RIGHT - s.left;
	s.span = c->span_ms > 0 ? c->span_ms : 1;
	height = SVG_TOP + rows * SVG_ROW + 24;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"monospace\">\n<title>replug cycle %llu (",
		SVG_WIDTH, height, SVG_WIDTH, height, c->cycle);
	xml_string(out, c->transition);
	fprintf(out, "): %zu devices", c->ndevs);
	if (rows < c->ndevs)
		fprintf(out, ", the first %zu shown", rows);
	fprintf(out, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#fff\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\" fill=\"#000\">"
		"replug cycle %llu (", SVG_WIDTH, height, c->cycle);
	xml_string(out, c->transition);
	fprintf(out, "): %zu devices, %zu removed, %zu kept, span %.3f ms",
		c->ndevs, c->removed, c->kept, c->span_ms);
	if (rows < c->ndevs)
		fprintf(out, "; only the first %zu devices of the walk are shown", rows);
	fputs("</text>\n", out);
	svg_legend(out);
	for (i = 1; i < rows; i += 2)
		fprintf(out, "<rect class=\"row\" x=\"0\" y=\"%zu\" width=\"%d\" "
			"height=\"%d\" fill=\"#f4f4f4\"/>\n",
			SVG_TOP + i * SVG_ROW, SVG_WIDTH, SVG_ROW);
	svg_axis(out, &s, SVG_TOP + rows * SVG_ROW);
	for (i = 0; i < rows; i++)
		svg_row(out, &s, &c->devs[i], i, name_chars);
	fputs("</svg>\n", out);
	return 0;
}

int pm_render(FILE *out, const struct pm_cycle *c, enum pm_view view)
{
	switch (view) {
	case PM_VIEW_JSON:
		return pm_render_json(out, c);
	case PM_VIEW_SVG:
		return pm_render_svg(out, c);
	default:
		return pm_render_text(out, c);
	}
}
