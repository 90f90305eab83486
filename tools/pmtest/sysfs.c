// SPDX-License-Identifier: GPL-2.0
/* Small attribute files of sysfs and debugfs: one value each. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "pmtest.h"

/* Return: the length read, without the trailing newline, or -errno. */
int sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t len = 0, total = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1 &&
	       (len = read(fd, buf + total, size - 1 - total)) > 0)
		total += len;
	err = len < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	while (total && buf[total - 1] == '\n')
		total--;
	buf[total] = '\0';
	return total;
}

/*
 * One write(2), as the attribute takes it whole: its error is the kernel's
 * answer (EBUSY from a refused unplug, EINVAL from a bad value).
 *
 * Return: 0 or -errno.
 */
int sysfs_write(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t done;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	done = write(fd, value, len);
	err = done < 0 ? -errno : (size_t)done != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* The bracketed word of "a [b] c", as pm_test and replug/mode show it. */
int sysfs_read_choice(const char *path, char *buf, size_t size)
{
	char line[256], *start, *end;
	int ret;

	ret = sysfs_read(path, line, sizeof(line));
	if (ret < 0)
		return ret;
	start = strchr(line, '[');
	end = start ? strchr(start, ']') : NULL;
	if (!end || (size_t)(end - start) > size)
		return -EINVAL;
	memcpy(buf, start + 1, end - start - 1);
	buf[end - start - 1] = '\0';
	return 0;
}

bool pm_is_root(const struct pmtest_ctx *ctx)
{
	if (geteuid() == 0)
		return true;
	pm_err(ctx, "must be run as root");
	return false;
}
