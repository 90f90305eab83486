/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replug: system sleep as a hot-remove of every device, and resume as a
 * re-enumeration of the hardware.
 *
 * The PM core calls into this from the system transitions; the driver
 * core calls into it as devices are added, bound and announce uevents.
 * Drivers only implement the optional &dev_pm_ops.unplug and
 * &dev_pm_ops.replugged callbacks.
 */
#ifndef _LINUX_PM_REPLUG_H
#define _LINUX_PM_REPLUG_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/pm/intent.h>
#include <linux/timer_types.h>

struct attribute_group;
struct device;
struct kobj_uevent_env;
struct task_struct;

/**
 * enum pm_replug_policy - what replug does with one device
 * @PM_REPLUG_AUTO: remove it unless that would harm the system (a disk
 *	with a mounted filesystem or active swap, a device whose driver asks
 *	to stay, for example because it is armed to wake the system, a
 *	device with no way to be rediscovered).
 * @PM_REPLUG_REMOVE: remove it even when the automatic policy or its
 *	driver would not, as long as there is a way to rediscover it.
 * @PM_REPLUG_KEEP: keep it registered; it gets its callbacks with the
 *	intent and sleeps through the classic dev_pm_ops path.
 *
 * Shown and set through the device's power/replug sysfs attribute.
 */
enum pm_replug_policy {
	PM_REPLUG_AUTO,
	PM_REPLUG_REMOVE,
	PM_REPLUG_KEEP,
};

/**
 * struct pm_replug_bus - a bus replug can take devices away from and find
 *	them again on
 * @name: the bus, for messages.
 * @is_unit: whether @dev is a unit of this bus: a device that goes away
 *	with everything below it and is found again by @rescan.  The walk
 *	takes each device away with the nearest unit at or above it.
 *	Called under rcu_read_lock() too: must not sleep.
 * @rescan_point: the device @unit reappears under, which @rescan is
 *	given, with a reference taken.
 * @remove: hot-remove @unit and everything below it, as an unplug of the
 *	hardware would.  Called with the device's intent set, possibly for
 *	several units at once.
 * @rescan: find again what went away below @point and add it as new
 *	devices.  @point may itself have gone away since; the rescan of a
 *	point above it then finds it.
 * @node: private, on the list of registered buses.
 *
 * PCI is registered by replug itself; a bus driver registers its own with
 * pm_replug_register_bus() to have its devices removed and re-enumerated
 * rather than kept in place.
 */
struct pm_replug_bus {
	const char *name;
	bool (*is_unit)(struct device *dev);
	struct device *(*rescan_point)(struct device *unit);
	int (*remove)(struct device *unit);
	void (*rescan)(struct device *point);
	struct list_head node;
};

/**
 * enum pm_replug_identity - how a device a replug found compares with the
 *	hardware that went
 * @PM_REPLUG_IDENTITY_NONE: not found by a replug: present since boot,
 *	hotplugged, or kept in place through the transition.
 * @PM_REPLUG_IDENTITY_NEW: nothing with an identity went from where it was
 *	found, or nothing can tell who it is: new hardware.
 * @PM_REPLUG_IDENTITY_SAME: the device that went from the same place, by
 *	its bus identity: the same hardware, found again.
 * @PM_REPLUG_IDENTITY_CHANGED: another device than the one that went from
 *	the same place: the hardware was changed while the system was down.
 *
 * A device nothing identifies takes the answer of its parent when it is
 * part of the parent's hardware and came back with it (a network
 * interface that of its PCI function, a USB interface that of its USB
 * device); hardware of another bus below it is new unless its own bus
 * identifies it.
 */
enum pm_replug_identity {
	PM_REPLUG_IDENTITY_NONE,
	PM_REPLUG_IDENTITY_NEW,
	PM_REPLUG_IDENTITY_SAME,
	PM_REPLUG_IDENTITY_CHANGED,
};

#define PM_REPLUG_ID_WHERE_LEN	32
#define PM_REPLUG_ID_WHAT_LEN	128

/**
 * struct pm_replug_identifier - tells replug who the devices of a bus or
 *	class are
 * @name: the bus or class, for messages.
 * @owns: whether @dev is one of the devices this identifier knows.
 * @where: write where @dev sits below its parent (a slot and function, a
 *	port, a LUN) to @buf, the same for whatever hardware is found
 *	there.  Return true if that names its place in the whole system (a
 *	PCI address, say), so that its parents need not be looked at.
 * @what: write who @dev is to @buf, as its bus tells it (IDs, serial
 *	number, capacity), equal only for the same piece of hardware.
 * @node: private, on the list of registered identifiers.
 *
 * Called as a device goes away during a replug and as its successor is
 * added, from device_add() before the ADD uevent, so everything they
 * read must be known by then.  @owns and @where are called for the
 * parents of the devices identified too, so must be cheap.  The device
 * lock may be held by the caller: none of them may take it.
 */
struct pm_replug_identifier {
	const char *name;
	bool (*owns)(const struct device *dev);
	bool (*where)(const struct device *dev, char *buf, size_t len);
	void (*what)(const struct device *dev, char *buf, size_t len);
	struct list_head node;
};

/**
 * struct pm_replug_watchdog - names a device a transition waits for too long
 * @timer: fires after /sys/power/replug/watchdog_ms.
 * @dev: the device waited for.
 * @task: the task that waits, whose stack is shown.
 * @what: the call that waits, for the message.
 * @ms: the time it was given.
 * @fired: whether it outlived it.
 *
 * Lives on the stack of the waiting task, between pm_replug_watchdog_start()
 * and pm_replug_watchdog_stop(); its members are private.
 */
struct pm_replug_watchdog {
	struct timer_list timer;
	struct device *dev;
	struct task_struct *task;
	const char *what;
	unsigned int ms;
	bool fired;
};

/* The power/replug attribute; merged only with CONFIG_PM_REPLUG. */
extern const struct attribute_group pm_replug_attr_group;

#ifdef CONFIG_PM_REPLUG
void pm_replug_announce(struct pm_intent *intent);
int pm_replug_unplug(struct pm_intent *intent);
void pm_replug_replug(const struct pm_intent *intent);
void pm_replug_shutdown(const struct pm_intent *intent);
void pm_replug_device_added(struct device *dev);
void pm_replug_driver_bound(struct device *dev);
int pm_replug_uevent(const struct device *dev, struct kobj_uevent_env *env);
int pm_replug_register_bus(struct pm_replug_bus *bus);
void pm_replug_unregister_bus(struct pm_replug_bus *bus);
void pm_replug_watchdog_start(struct pm_replug_watchdog *wd,
			      struct device *dev, const char *what);
bool pm_replug_watchdog_stop(struct pm_replug_watchdog *wd);
int pm_replug_register_identifier(struct pm_replug_identifier *identifier);
void pm_replug_unregister_identifier(struct pm_replug_identifier *identifier);
const char *pm_replug_identity_name(enum pm_replug_identity identity);

/**
 * dev_pm_replug_identity - is a re-enumerated device the hardware that went?
 * @dev: the device, from its driver's probe or &dev_pm_ops.replugged on.
 *
 * A driver may skip what only new hardware needs (waiting for a medium to
 * settle, loading firmware it loaded before) for %PM_REPLUG_IDENTITY_SAME,
 * and must treat anything else as hardware it has never seen.
 *
 * Return: how @dev compares with the device that went from its place in
 * the last replug, %PM_REPLUG_IDENTITY_NONE if no replug found it.
 */
static inline enum pm_replug_identity
dev_pm_replug_identity(const struct device *dev)
{
	return READ_ONCE(dev->power.replug_identity);
}
#else
static inline void pm_replug_announce(struct pm_intent *intent) {}
static inline int pm_replug_unplug(struct pm_intent *intent) { return 0; }
static inline void pm_replug_replug(const struct pm_intent *intent) {}
static inline void pm_replug_shutdown(const struct pm_intent *intent) {}
static inline void pm_replug_device_added(struct device *dev) {}
static inline void pm_replug_driver_bound(struct device *dev) {}
static inline int pm_replug_uevent(const struct device *dev,
				   struct kobj_uevent_env *env)
{
	return 0;
}

static inline int pm_replug_register_bus(struct pm_replug_bus *bus)
{
	return 0;
}

static inline void pm_replug_unregister_bus(struct pm_replug_bus *bus) {}

static inline void pm_replug_watchdog_start(struct pm_replug_watchdog *wd,
					    struct device *dev,
					    const char *what) {}

static inline bool pm_replug_watchdog_stop(struct pm_replug_watchdog *wd)
{
	return false;
}

static inline int
pm_replug_register_identifier(struct pm_replug_identifier *identifier)
{
	return 0;
}

static inline void
pm_replug_unregister_identifier(struct pm_replug_identifier *identifier) {}

static inline enum pm_replug_identity
dev_pm_replug_identity(const struct device *dev)
{
	return PM_REPLUG_IDENTITY_NONE;
}
#endif

#endif /* _LINUX_PM_REPLUG_H */
