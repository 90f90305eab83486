// SPDX-License-Identifier: GPL-2.0
/* Loading a kernel module with libkmod, as modprobe or insmod would. */
#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <libkmod.h>

#include "pmtest.h"

/*
 * By name, with its dependencies and options, as modprobe; by path, the
 * file alone, as insmod.  A module already loaded is no error.
 *
 * Return: 0 or -errno, after a message.
 */
int pm_module_load(const struct pmtest_ctx *ctx, const char *name, bool is_path)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *kmod;
	int ret;

	kmod = kmod_new(NULL, NULL);
	if (!kmod) {
		pm_err(ctx, "cannot start libkmod");
		return -ENOMEM;
	}
	/* Its errors would say again what our message says. */
	kmod_set_log_priority(kmod, LOG_CRIT);
	if (is_path) {
		ret = kmod_module_new_from_path(kmod, name, &mod);
		if (!ret)
			ret = kmod_module_insert_module(mod, 0, NULL);
	} else {
		ret = kmod_module_new_from_name(kmod, name, &mod);
		if (!ret)
			ret = kmod_module_probe_insert_module(mod, 0, NULL, NULL, NULL, NULL);
	}
	if (ret == -EEXIST)
		ret = 0;
	if (ret)
		pm_err(ctx, "cannot load module %s: %s", name, strerror(-ret));
	kmod_module_unref(mod);
	kmod_unref(kmod);
	return ret;
}
