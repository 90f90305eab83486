// SPDX-License-Identifier: GPL-2.0
/* Two sorted inventories, merged: what went away and what came. */
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
