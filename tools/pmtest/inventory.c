// SPDX-License-Identifier: GPL-2.0
/*
 * Every device on a bus, one line each, by what identifies it on its bus:
 * "BUS PATH DRIVER MODALIAS", PATH under /sys/devices with the instance
 * numbers as N, DRIVER "-" when none is bound (a device back without its
 * driver is not back), MODALIAS empty when the device has none.  The line is the shell
 * version's, trailing space included, so that either one's output can be
 * compared with the other's.  Two inventories taken around a replug cycle
 * are equal when every device came back where it was.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmtest.h"

#define SYS_BUS "/sys/bus"
#define SYS_DEVICES "/sys/devices/"

static int add_device(const struct pmtest_ctx *ctx, const struct pm_norm *norm,
		      const char *bus, const char *link, struct strv *out)
{
	char path[PATH_MAX], attr[PATH_MAX + 16], driver[PATH_MAX], alias[4097], *line;
	const char *driver_name = "-";
	ssize_t len;
	int ret;

	/* A device may go between readdir() and here: it is not there. */
	if (!realpath(link, path)) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		pm_err(ctx, "cannot resolve %s: %m", link);
		return ret;
	}
	snprintf(attr, sizeof(attr), "%s/driver", path);
	len = readlink(attr, driver, sizeof(driver) - 1);
	if (len > 0) {
		driver[len] = '\0';
		driver_name = strrchr(driver, '/') ? strrchr(driver, '/') + 1 : driver;
	}
	snprintf(attr, sizeof(attr), "%s/modalias", path);
	if (sysfs_read(attr, alias, sizeof(alias)) < 0)
		alias[0] = '\0';
	if (asprintf(&line, "%s %s %s %s", bus, strncmp(path, SYS_DEVICES, strlen(SYS_DEVICES)) ?
		     path : path + strlen(SYS_DEVICES), driver_name, alias) < 0)
		return -ENOMEM;
	ret = strv_push(out, pm_norm_apply(norm, line));
	free(line);
	return ret;
}

static int add_bus(const struct pmtest_ctx *ctx, const struct pm_norm *norm,
		   const char *bus, struct strv *out)
{
	char dir[PATH_MAX], link[PATH_MAX * 2];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(dir, sizeof(dir), SYS_BUS "/%s/devices", bus);
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		pm_err(ctx, "cannot open %s: %m", dir);
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, de->d_name);
		ret = add_device(ctx, norm, bus, link, out);
	}
	closedir(d);
	return ret;
}

/* Return: 0 or -errno, after a message. */
int pm_inventory_take(const struct pmtest_ctx *ctx, const struct pm_norm *norm,
		      struct strv *out)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(SYS_BUS);
	if (!d) {
		ret = -errno;
		pm_err(ctx, "cannot open " SYS_BUS ": %m");
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		/* The workqueue "bus" holds kernel objects, not hardware. */
		if (de->d_name[0] != '.' && strcmp(de->d_name, "workqueue"))
			ret = add_bus(ctx, norm, de->d_name, out);
	}
	closedir(d);
	if (ret == -ENOMEM)
		pm_err(ctx, "out of memory");
	if (!ret)
		strv_sort(out);
	return ret;
}

/* An inventory saved to a file, sorted.  Return: 0 or -errno, after a message. */
int pm_inventory_read(const struct pmtest_ctx *ctx, const char *path, struct strv *sv)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		pm_err(ctx, "cannot open %s: %m", path);
		return -EIO;
	}
	ret = strv_read_lines(sv, f);
	fclose(f);
	if (ret)
		pm_err(ctx, "cannot read %s: %s", path, strerror(-ret));
	/* Sorted again, as a file sorted by another locale's rules may be. */
	strv_sort(sv);
	return ret;
}

int cmd_inventory(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct inventory_args args;
	struct strv inv = { 0 };
	struct pm_norm norm;
	FILE *f = ctx->out;
	size_t i;
	int ret;

	ret = inventory_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	if (pm_norm_init(&norm)) {
		pm_err(ctx, "cannot compile the expressions");
		return 1;
	}
	ret = pm_inventory_take(ctx, &norm, &inv);
	pm_norm_free(&norm);
	if (!ret && args.output && !(f = fopen(args.output, "we"))) {
		ret = -errno;
		pm_err(ctx, "cannot open %s: %m", args.output);
	}
	for (i = 0; !ret && i < inv.n; i++)
		fprintf(f, "%s\n", inv.v[i]);
	if (!ret && (f == ctx->out ? fflush(f) : fclose(f))) {
		ret = -errno;
		pm_err(ctx, "cannot write %s: %m", args.output ? args.output : "output");
	}
	strv_free(&inv);
	return ret ? 1 : 0;
}
