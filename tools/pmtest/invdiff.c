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
 * The DEVPATHs ("/devices/" and the line's PATH) of the lines of @diff
 * that start with @sign, sorted, into @paths.
 *
 * Return: 0 or -ENOMEM.
 */
static int diff_paths(const struct strv *diff, char sign, struct strv *paths)
{
	const char *path;
	size_t i, len;
	int ret = 0;

	for (i = 0; !ret && i < diff->n; i++) {
		if (diff->v[i][0] != sign)
			continue;
		/* "- BUS PATH DRIVER MODALIAS" */
		path = strchr(diff->v[i] + 2, ' ');
		if (!path)
			continue;
		path++;
		len = strcspn(path, " ");
		ret = strv_pushf(paths, "/devices/%.*s", (int)len, path);
	}
	if (ret < 0)
		return ret;
	strv_sort(paths);
	return 0;
}

/*
 * What an @expected inventory says of the hardware changed while the
 * system slept, against the @old one: the devices it leaves out, taken
 * away (@gone), and those it adds or changes, plugged in (@came), each as
 * the DEVPATH its uevents carry, sorted.  Either may be NULL.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_inventory_changes(const struct strv *old, const struct strv *expected,
			 struct strv *gone, struct strv *came)
{
	struct strv diff = { 0 };
	int ret;

	ret = pm_invdiff(old, expected, &diff);
	if (ret >= 0 && gone)
		ret = diff_paths(&diff, '-', gone);
	if (ret >= 0 && came)
		ret = diff_paths(&diff, '+', came);
	strv_free(&diff);
	return ret < 0 ? ret : 0;
}
