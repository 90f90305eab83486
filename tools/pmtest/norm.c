// SPDX-License-Identifier: GPL-2.0
/*
 * The instance numbers a re-enumeration hands out afresh (virtio3, host6,
 * the SCSI host in 6:0:0:0, the HID instance in 0003:0627:0001.0002)
 * replaced by N, so that a device found again compares equal to itself.
 * The expressions are the shell version's sed, applied in the same order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmtest.h"

static const struct {
	const char *pattern;
	const char *replacement;	/* \1 is the first group */
} pm_norm_rules[] = {
	{ "(virtio|host|target|ata|input|usb|rtc)[0-9]+", "\\1N" },
	{ "/[0-9]+:([0-9]+:[0-9]+:[0-9]+)", "/N:\\1" },
	{ "(:[0-9A-F]{4}:[0-9A-F]{4})\\.[0-9A-F]{4}", "\\1.N" },
};

int pm_norm_init(struct pm_norm *norm)
{
	size_t i;

	for (i = 0; i < sizeof(pm_norm_rules) / sizeof(pm_norm_rules[0]); i++) {
		if (regcomp(&norm->re[i], pm_norm_rules[i].pattern, REG_EXTENDED)) {
			while (i--)
				regfree(&norm->re[i]);
			return -EINVAL;
		}
	}
	return 0;
}

void pm_norm_free(struct pm_norm *norm)
{
	size_t i;

	for (i = 0; i < sizeof(pm_norm_rules) / sizeof(pm_norm_rules[0]); i++)
		regfree(&norm->re[i]);
}

/* Every match of @re in @s replaced, as sed's s///g does. */
static char *subst(const regex_t *re, const char *replacement, const char *s)
{
	const char *p = s, *r;
	regmatch_t m[2];
	size_t size;
	char *buf;
	FILE *f;

	f = open_memstream(&buf, &size);
	if (!f)
		return NULL;
	while (*p && !regexec(re, p, 2, m, p == s ? 0 : REG_NOTBOL)) {
		fwrite(p, 1, m[0].rm_so, f);
		for (r = replacement; *r; r++) {
			if (r[0] == '\\' && r[1] == '1') {
				fwrite(p + m[1].rm_so, 1, m[1].rm_eo - m[1].rm_so, f);
				r++;
			} else {
				fputc(*r, f);
			}
		}
		p += m[0].rm_eo;
	}
	fputs(p, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Return: a new string, NULL when out of memory. */
char *pm_norm_apply(const struct pm_norm *norm, const char *s)
{
	char *cur = strdup(s), *next;
	size_t i;

	for (i = 0; cur && i < sizeof(pm_norm_rules) / sizeof(pm_norm_rules[0]); i++) {
		next = subst(&norm->re[i], pm_norm_rules[i].replacement, cur);
		free(cur);
		cur = next;
	}
	return cur;
}
