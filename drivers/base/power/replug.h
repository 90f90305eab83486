/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replug internals shared with the KUnit suite.
 */
#ifndef _DRIVERS_BASE_POWER_REPLUG_H
#define _DRIVERS_BASE_POWER_REPLUG_H

#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/pm/replug.h>
#include <linux/spinlock.h>
#include <linux/pm/intent.h>
#include <linux/types.h>

struct device;
struct replug_node;

/**
 * struct replug_walk - one pass of unplugging over a list of devices
 * @intent: why the devices are going.
 * @unit_of: the device that @dev is removed and rediscovered with (itself
 *	or an ancestor), or NULL if nothing could rediscover it.
 * @unplug: offer @intent to @dev's driver: a negative error stops the
 *	walk, a positive value keeps @dev and its unit in place.
 * @remove: take @unit and everything below it away.
 * @notified: filled in: the devices told of @intent (the one that refused
 *	included) and not removed as units, each with a reference; room for
 *	every device walked.
 * @nr_notified: how many of @notified are filled in.
 * @removed: filled in: how many units were removed.
 * @async: devices with power.async_suspend set may go in parallel with
 *	the ones they do not depend on.
 * @watchdog_ms: an @unplug or @remove call still running after this long
 *	is named, with its stack, and fails the walk with -ETIMEDOUT once it
 *	returns; 0 for no watchdog.
 */
struct replug_walk {
	const struct pm_intent *intent;
	struct device *(*unit_of)(struct device *dev);
	int (*unplug)(struct device *dev, const struct pm_intent *intent);
	int (*remove)(struct device *unit, const struct pm_intent *intent);
	struct device **notified;
	size_t nr_notified;
	unsigned int removed;
	bool async;
	unsigned int watchdog_ms;

	/* private: set up and used by replug_walk_devices() */
	struct mutex lock;		/* the results, @error and @pinned */
	int error;			/* the first; nothing starts after it */
	struct replug_node *nodes;	/* one per device, in the order given */
	struct replug_node **by_dev;	/* @nodes sorted by device */
	size_t count;
	struct device **pinned;		/* the units that must stay */
	size_t nr_pinned;
};

#define REPLUG_DEPARTED_BITS	10

/**
 * struct replug_departures - the devices that went in a cycle, by where
 *	they sat, waiting to be found again
 * @lock: guards the rest; units go, and devices come back, in parallel.
 * @by_where: each device that went, hashed by where it sat.
 * @nr: how many went.
 * @answers: how many came back with each answer so far.
 */
struct replug_departures {
	spinlock_t lock;		/* the rest */
	DECLARE_HASHTABLE(by_where, REPLUG_DEPARTED_BITS);
	unsigned int nr;
	unsigned int answers[PM_REPLUG_IDENTITY_CHANGED + 1];
};

/* replug-identity.c: who went, and whether what comes back is them. */
void replug_identity_note(struct device *unit);
void replug_identity_match(struct device *dev, unsigned int cycle);
void replug_identity_forget(unsigned int cycle);

#if IS_ENABLED(CONFIG_KUNIT)
void replug_departures_init(struct replug_departures *set);
int replug_departures_add(struct replug_departures *set, u64 where, u64 what);
enum pm_replug_identity
replug_departures_match(struct replug_departures *set, u64 where, u64 what);
void replug_departures_release(struct replug_departures *set,
			       unsigned int *tally);
bool replug_identify(const struct device *dev,
		     bool (*in_cycle)(const struct device *dev, const void *data),
		     const void *data, u64 *where, u64 *what);

int replug_walk_devices(struct replug_walk *walk, struct device **devs,
			size_t count);
/* /sys/power/replug/ */
extern const struct attribute_group replug_power_group;
#endif

#endif /* _DRIVERS_BASE_POWER_REPLUG_H */
