// SPDX-License-Identifier: GPL-2.0
/*
 * The cycle command: suspend (or a replug dry run) and back, N times,
 * checking after each that every device is where it was and, in replug
 * mode, that udev saw each removed device added again with the intent and
 * told whether it is the hardware that went.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libudev.h>

#include "pmtest.h"

#define PM_TEST_FILE	"/sys/power/pm_test"
#define STATE_FILE	"/sys/power/state"
#define MODE_FILE	"/sys/power/replug/mode"
#define CYCLE_FILE	"/sys/power/replug/cycle"
#define DRY_RUN_FILE	"/sys/power/replug/dry_run"
#define WAKEALARM_FILE	"/sys/class/rtc/rtc0/wakealarm"

/* The events of a whole replug of a large test tree, with room to spare. */
#define MONITOR_BUFFER	(128 * 1024 * 1024)
#define POLL_MS		500
#define STILL_S		5

struct cycle_run {
	struct pmtest_ctx *ctx;
	const struct cycle_args *args;
	struct pm_norm norm;
	struct udev *udev;
	struct udev_queue *queue;
	struct pm_report report;
	struct strv expected;	/* --expect's inventory, or empty */
	bool replug;		/* the mode is replug: its events are checked */
	char old_test[32];	/* to put back, when pm_test was written */
	char old_mode[32];	/* likewise for replug/mode */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool subsystem_is_bus(const char *subsystem)
{
	char path[PATH_MAX];

	if (!subsystem)
		return false;
	snprintf(path, sizeof(path), "/sys/bus/%s", subsystem);
	return access(path, F_OK) == 0;
}

/* Return: 0 or -ENOMEM. */
static int drain(struct udev_monitor *mon, struct pm_events *evs)
{
	struct pollfd pfd = { .fd = udev_monitor_get_fd(mon), .events = POLLIN };
	struct udev_device *dev;
	int ret = 0;

	while (!ret && poll(&pfd, 1, 0) > 0) {
		dev = udev_monitor_receive_device(mon);
		if (!dev)
			continue;
		ret = pm_events_add(evs, &(struct pm_event){
			.action = udev_device_get_action(dev),
			.devpath = udev_device_get_devpath(dev),
			.replug = udev_device_get_property_value(dev, "PM_REPLUG"),
			.transition = udev_device_get_property_value(dev, "PM_TRANSITION"),
			.cycle = udev_device_get_property_value(dev, "PM_CYCLE"),
			.test = udev_device_get_property_value(dev, "PM_TEST"),
			.identity = udev_device_get_property_value(dev, "PM_REPLUG_IDENTITY"),
			.on_bus = subsystem_is_bus(udev_device_get_subsystem(dev)),
		});
		udev_device_unref(dev);
	}
	return ret;
}

/* Diagnostics gathered by a check become the report's. */
static void result(struct cycle_run *run, int check, struct strv *diag,
		   unsigned int cycle, const char *name)
{
	size_t i;

	for (i = 0; i < diag->n; i++)
		pm_report_diag(&run->report, "%s", diag->v[i]);
	if (check < 0)
		pm_report_diag(&run->report, "check failed: %s", strerror(-check));
	pm_report_result(&run->report, check == 0, "cycle %u: %s", cycle, name);
	strv_free(diag);
}

/*
 * Re-enumeration goes on after the write returns, so wait for udev to be
 * idle and the inventory to be @want.  Both must hold at two polls in a
 * row: the queue is empty for a moment between a device appearing and its
 * children's events reaching udev.  An inventory that is not @want but has
 * not changed, with udev idle, for STILL_S is final too: a device that did
 * not come back is reported then, not at the timeout.
 *
 * Return: 0 or -errno, after a message.
 */
static int settle(struct cycle_run *run, struct udev_monitor *mon,
		  const struct strv *want, struct strv *after,
		  struct pm_events *evs, bool *settled)
{
	double deadline = now() + run->args->settle_timeout, still_since = now();
	struct strv last = { 0 };
	int ret, stable = 0;

	for (;;) {
		ret = drain(mon, evs);
		*settled = udev_queue_get_queue_is_empty(run->queue);
		strv_free(&last);
		last = *after;
		*after = (struct strv){ 0 };
		ret = ret ?: pm_inventory_take(run->ctx, &run->norm, after);
		if (ret)
			break;
		if (!*settled || !strv_equal(&last, after))
			still_since = now();
		stable = *settled && strv_equal(want, after) ? stable + 1 : 0;
		if (stable == 2 || now() > deadline || now() - still_since > STILL_S)
			break;
		poll(NULL, 0, POLL_MS);
	}
	strv_free(&last);
	return ret ?: drain(mon, evs);
}

/*
 * Events still queued from before (a tree torn down, the last cycle's
 * late devices) would be taken for this cycle's, so start from an idle
 * udev.
 */
static void wait_idle(const struct cycle_run *run)
{
	double deadline = now() + run->args->settle_timeout;

	while (!udev_queue_get_queue_is_empty(run->queue) && now() < deadline)
		poll(NULL, 0, POLL_MS);
}

/*
 * The RTC alarm, as rtcwake(8) sets it: cleared first, since the kernel
 * refuses a new alarm while one is pending.
 *
 * Return: 0 or -errno.
 */
static int arm_wakealarm(unsigned int seconds)
{
	char value[16];

	snprintf(value, sizeof(value), "+%u", seconds);
	return sysfs_write(WAKEALARM_FILE, "0") ?: sysfs_write(WAKEALARM_FILE, value);
}

/* Write @file, with the RTC alarm armed around the write when asked. */
static int write_transition(struct cycle_run *run, const char *file, const char *value,
			    struct strv *diag)
{
	unsigned int wake = run->args->wake_after;
	int ret;

	if (wake && (ret = arm_wakealarm(wake))) {
		strv_pushf(diag, "cannot arm " WAKEALARM_FILE ": %s", strerror(-ret));
		return ret;
	}
	ret = sysfs_write(file, value);
	/* A failed or shallow transition leaves the alarm to go off later. */
	if (wake)
		sysfs_write(WAKEALARM_FILE, "0");
	if (ret)
		strv_pushf(diag, "write of '%s' failed: %s", value, strerror(-ret));
	return ret;
}

static int run_cycle(struct cycle_run *run, unsigned int n)
{
	const struct cycle_args *a = run->args;
	const char *file = a->intent ? DRY_RUN_FILE : STATE_FILE;
	struct strv before = { 0 }, after = { 0 }, diag = { 0 }, gone = { 0 }, came = { 0 };
	const struct strv *want = a->expect ? &run->expected : &before;
	struct pm_events evs = { 0 };
	struct udev_monitor *mon;
	char cycle[32] = "";
	bool settled;
	int ret, written, got;

	wait_idle(run);
	ret = pm_inventory_take(run->ctx, &run->norm, &before);
	if (ret)
		return ret;
	mon = udev_monitor_new_from_netlink(run->udev, "udev");
	if (!mon || udev_monitor_set_receive_buffer_size(mon, MONITOR_BUFFER) < 0 ||
	    udev_monitor_enable_receiving(mon) < 0) {
		pm_err(run->ctx, "cannot monitor udev events");
		ret = -EIO;
		goto out;
	}
	written = write_transition(run, file, a->intent ? a->intent : a->state, &diag);
	ret = settle(run, mon, want, &after, &evs, &settled);
	ret = ret ?: pm_inventory_changes(&before, want, &gone, &came);
	if (ret)
		goto out;
	result(run, written != 0, &diag, n,
	       a->intent ? "write to " DRY_RUN_FILE " succeeded" :
	       "write to " STATE_FILE " succeeded");
	result(run, pm_invdiff(want, &after, &diag), &diag, n,
	       a->expect ? "inventory is the expected one" : "inventory matches");
	if (run->replug) {
		got = sysfs_read(CYCLE_FILE, cycle, sizeof(cycle));
		if (got < 0)
			strv_pushf(&diag, "cannot read " CYCLE_FILE ": %s", strerror(-got));
		strv_pushf(&diag, "%zu events, %zu with PM_REPLUG=1, cycle %s", evs.n,
			   pm_events_replug_count(&evs), cycle);
		result(run, pm_events_check_pairs(&evs, &run->norm, &gone, &diag), &diag, n,
		       "every bus device removed with PM_REPLUG=1 was added again");
		result(run, pm_events_check_keys(&evs, a->intent ? a->intent :
						 strcmp(a->state, "disk") ? "suspend" : "hibernate",
						 cycle, &diag), &diag, n,
		       "every replug event carries PM_TRANSITION and PM_CYCLE of the cycle");
		result(run, pm_events_check_test(&evs, a->intent ? "devices" : a->test, &diag),
		       &diag, n, "PM_TEST matches --test");
		pm_events_tally_identity(&evs, &diag);
		result(run, pm_events_check_identity(&evs, &run->norm, &came, &diag), &diag, n,
		       "every bus device added again says whether it is the hardware that went");
	}
	if (!settled)
		strv_pushf(&diag, "udev queue not empty after %u s", a->settle_timeout);
	result(run, !settled, &diag, n, "udev settled");
out:
	udev_monitor_unref(mon);
	pm_events_free(&evs);
	strv_free(&diag);
	strv_free(&gone);
	strv_free(&came);
	strv_free(&before);
	strv_free(&after);
	return ret;
}

/* Set @file to @value, keeping its old choice in @old to put back. */
static int set_choice(struct cycle_run *run, const char *file, const char *value,
		      char *old, size_t size)
{
	int ret = sysfs_read_choice(file, old, size);

	ret = ret ?: sysfs_write(file, value);
	if (ret) {
		old[0] = '\0';
		pm_err(run->ctx, "cannot set %s to %s: %s", file, value, strerror(-ret));
	}
	return ret;
}

static void restore(struct cycle_run *run, const char *file, const char *old)
{
	int ret;

	if (old[0] && (ret = sysfs_write(file, old)))
		pm_err(run->ctx, "cannot put %s back to %s: %s", file, old, strerror(-ret));
}

static int prepare(struct cycle_run *run)
{
	const struct cycle_args *a = run->args;
	bool has_replug = !access(MODE_FILE, F_OK);

	if (!has_replug && run->replug) {
		pm_err(run->ctx, "no " MODE_FILE ": this kernel has no replug");
		return -ENOENT;
	}
	if (!a->intent && access(PM_TEST_FILE, F_OK) && strcmp(a->test, "none")) {
		pm_err(run->ctx, "no " PM_TEST_FILE ": this kernel has no CONFIG_PM_DEBUG");
		return -ENOENT;
	}
	if (a->wake_after && access(WAKEALARM_FILE, W_OK)) {
		pm_err(run->ctx, "no " WAKEALARM_FILE ": --wake-after needs an RTC that can wake");
		return -ENOENT;
	}
	if (a->expect && pm_inventory_read(run->ctx, a->expect, &run->expected))
		return -EIO;
	run->udev = udev_new();
	run->queue = run->udev ? udev_queue_new(run->udev) : NULL;
	if (!run->queue) {
		pm_err(run->ctx, "cannot start libudev");
		return -ENOMEM;
	}
	if (!a->intent && !access(PM_TEST_FILE, F_OK) &&
	    set_choice(run, PM_TEST_FILE, a->test, run->old_test, sizeof(run->old_test)))
		return -EIO;
	if (has_replug &&
	    set_choice(run, MODE_FILE, a->mode, run->old_mode, sizeof(run->old_mode)))
		return -EIO;
	return 0;
}

int cmd_cycle(struct pmtest_ctx *ctx, int argc, char **argv)
{
	struct cycle_args args;
	struct cycle_run run;
	unsigned int n;
	int ret;

	ret = cycle_parse(ctx, argc, argv, &args);
	if (ret != PM_PARSE_RUN)
		return ret;
	if (!pm_is_root(ctx))
		return 1;
	run = (struct cycle_run){ .ctx = ctx, .args = &args,
				  .replug = !strcmp(args.mode, "replug") };
	if (pm_norm_init(&run.norm)) {
		pm_err(ctx, "cannot compile the expressions");
		return 1;
	}
	ret = prepare(&run);
	if (!ret) {
		pm_report_begin(&run.report, ctx->out, args.format,
				args.count * (run.replug ? 7 : 3));
		for (n = 1; !ret && n <= args.count; n++) {
			if (args.count > 1)
				fprintf(ctx->err, "cycle %u/%u\n", n, args.count);
			ret = run_cycle(&run, n);
			fflush(ctx->out);
		}
		ret = pm_report_end(&run.report) || ret;
	}
	restore(&run, MODE_FILE, run.old_mode);
	restore(&run, PM_TEST_FILE, run.old_test);
	udev_queue_unref(run.queue);
	udev_unref(run.udev);
	strv_free(&run.expected);
	pm_norm_free(&run.norm);
	return ret ? 1 : 0;
}
