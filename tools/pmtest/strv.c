// SPDX-License-Identifier: GPL-2.0
/* A growable array of owned strings: inventories and diagnostics. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

/* Takes @s, freeing it if it cannot be kept. */
int strv_push(struct strv *sv, char *s)
{
	char **v;

	if (!s)
		return -ENOMEM;
	if (sv->n == sv->cap) {
		v = realloc(sv->v, (sv->cap ? sv->cap * 2 : 16) * sizeof(*v));
		if (!v) {
			free(s);
			return -ENOMEM;
		}
		sv->v = v;
		sv->cap = sv->cap ? sv->cap * 2 : 16;
	}
	sv->v[sv->n++] = s;
	return 0;
}

int strv_pushv(struct strv *sv, const char *fmt, va_list ap)
{
	char *s;

	return strv_push(sv, vasprintf(&s, fmt, ap) < 0 ? NULL : s);
}

int strv_pushf(struct strv *sv, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = strv_pushv(sv, fmt, ap);
	va_end(ap);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether @s is in @sv, which strv_sort() sorted. */
bool strv_has_sorted(const struct strv *sv, const char *s)
{
	return sv->n && bsearch(&s, sv->v, sv->n, sizeof(*sv->v), cmp_str);
}

/* Byte order, as sort(1) in the C locale the guest runs. */
void strv_sort(struct strv *sv)
{
	if (sv->n)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
}

bool strv_equal(const struct strv *a, const struct strv *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return false;
	return true;
}

/* Every line of @f, without its newline. */
int strv_read_lines(struct strv *sv, FILE *f)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	int ret = 0;

	while (!ret && (len = getline(&line, &size, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		ret = strv_push(sv, strdup(line));
	}
	free(line);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

void strv_free(struct strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	*sv = (struct strv){ 0 };
}
