// SPDX-License-Identifier: GPL-2.0
/* Two sorted inventories, merged: what went away and what came. */
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

/*
 * A line present twice in one and once in the other differs once: two
 * devices of the same identity are two devices.
 *
 * Return: the number of lines put in @out, or -ENOMEM.
 */
int pm_invdiff(const struct strv *old, const struct strv *new, struct strv *out)
{
	size_t i = 0, j = 0;
	int cmp, ret = 0, count = 0;

	while (!ret && (i < old->n || j < new->n)) {
		if (i == old->n)
			cmp = 1;
		else if (j == new->n)
			cmp = -1;
		else
			cmp = strcmp(old->v[i], new->v[j]);
		if (cmp < 0)
			ret = strv_pushf(out, "- %s", old->v[i++]);
		else if (cmp > 0)
			ret = strv_pushf(out, "+ %s", new->v[j++]);
		else
			i++, j++;
		count += cmp != 0;
	}
	return ret ? ret : count;
}

/*
 * The devices of @old an @expected inventory leaves out: hardware taken
 * away while the system slept.  Each goes into @gone as the DEVPATH its
 * uevents carry ("/devices/" and the line's PATH), sorted.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_inventory_gone(const struct strv *old, const struct strv *expected,
		      struct strv *gone)
{
	struct strv diff = { 0 };
	const char *path;
	size_t i, len;
	int ret;

	ret = pm_invdiff(old, expected, &diff);
	for (i = 0; ret >= 0 && i < diff.n; i++) {
		if (diff.v[i][0] != '-')
			continue;
		/* "- BUS PATH DRIVER MODALIAS" */
		path = strchr(diff.v[i] + 2, ' ');
		if (!path)
			continue;
		path++;
		len = strcspn(path, " ");
		ret = strv_pushf(gone, "/devices/%.*s", (int)len, path);
	}
	strv_free(&diff);
	if (ret < 0)
		return ret;
	strv_sort(gone);
	return 0;
}
