// SPDX-License-Identifier: GPL-2.0
/*
 * replug: system sleep as a hot-remove, resume as a re-enumeration.
 *
 * On the way down every device is offered the system intent, children and
 * consumers first (dpm_list backwards).  A device then goes away with the
 * unit it hangs off (a PCI function, or a device of another registered
 * bus, see struct pm_replug_bus), through the bus's own hot-remove path,
 * or is kept in place by an explicit policy and sleeps the classic way.
 * On the way up the buses that lost devices are rescanned, so the hardware
 * comes back as new struct devices, probed from scratch, whose ADD uevents
 * carry PM_REPLUG=1 and the intent.
 *
 * Everything here runs under system_transition_mutex, one transition at a
 * time; replug.lock only guards what the driver core reads from other
 * contexts while a cycle is open (uevents, probes on other threads).
 */

#define pr_fmt(fmt) "PM: replug: " fmt

#include <kunit/visibility.h>
#include <linux/async.h>
#include <linux/blkdev.h>
#include <linux/bsearch.h>
#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/hashtable.h>
#include <linux/kobject.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/pm/replug.h>
#include <linux/rculist.h>
#include <linux/sched/debug.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/suspend.h>
#include <linux/sysfs.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include <trace/events/power.h>

#define CREATE_TRACE_POINTS
#include <trace/events/replug.h>

#include "../base.h"
#include "power.h"
#include "replug.h"

/*
 * Devices that appear this long after a resume are still taken as part of
 * its re-enumeration: USB and other buses behind the rescanned ones find
 * their devices from worker threads, well after the resume has returned.
 */
#define REPLUG_WINDOW_MS	30000

/*
 * How long a device's ->unplug() or removal may take before the watchdog
 * names it and the transition is called off: far beyond what a driver
 * needs to let go of its device, well short of the hung-task detector.
 */
#define REPLUG_WATCHDOG_MS	10000
#define REPLUG_WATCHDOG_MAX_MS	600000

/* The walk and the rescan show in a suspend's timeline, as dpm_suspend() does. */
#define TPS(x)	tracepoint_string(x)

enum replug_mode {
	REPLUG_MODE_CLASSIC,
	REPLUG_MODE_REPLUG,
};

static const char * const replug_mode_names[] = {
	[REPLUG_MODE_CLASSIC]	= "classic",
	[REPLUG_MODE_REPLUG]	= "replug",
};

static const char * const replug_policy_names[] = {
	[PM_REPLUG_AUTO]	= "auto",
	[PM_REPLUG_REMOVE]	= "remove",
	[PM_REPLUG_KEEP]	= "keep",
};

/* Where devices went away from and are to be found again. */
struct replug_point {
	struct list_head node;
	struct hlist_node by_dev;
	const struct pm_replug_bus *bus;
	struct device *dev;
};

/*
 * A removal notes a point and every device added during the cycle looks
 * for its parent among them: by device, so that neither is linear in the
 * number of points (a deep tree has a point per device).
 */
#define REPLUG_POINT_BITS	10

static struct {
	/* Guards what the driver core looks at while a cycle is open. */
	spinlock_t lock;
	struct pm_intent intent;
	unsigned int open_cycle;
	bool going;
	struct list_head points;	/* in the order they were noted */
	DECLARE_HASHTABLE(points_by_dev, REPLUG_POINT_BITS);

	/* Under system_transition_mutex; buses also read under RCU. */
	struct list_head buses;
	enum replug_mode mode;
	struct pm_intent announced;
	unsigned int cycles;
	struct device **notified;
	size_t nr_notified;
	unsigned int removed;
	unsigned int kept;
	struct delayed_work close_window;
	unsigned int watchdog_ms;
} replug = {
	.lock = __SPIN_LOCK_UNLOCKED(replug.lock),
	.points = LIST_HEAD_INIT(replug.points),
	.buses = LIST_HEAD_INIT(replug.buses),
	.mode = REPLUG_MODE_CLASSIC,
	.watchdog_ms = REPLUG_WATCHDOG_MS,
};

/*
 * The registered bus @dev is a unit of, if any.  The list changes only
 * under system_transition_mutex, which the walk's caller holds while its
 * workers look here; others look under rcu_read_lock().
 */
static const struct pm_replug_bus *replug_bus_of_unit(struct device *dev)
{
	const struct pm_replug_bus *bus;

	list_for_each_entry_rcu(bus, &replug.buses, node,
				lockdep_is_held(&system_transition_mutex))
		if (bus->is_unit(dev))
			return bus;
	return NULL;
}

/*
 * The unit a device is removed and rediscovered with: itself or the
 * nearest ancestor a registered bus can take away and find again.  NULL
 * for a device with no way to be rediscovered.
 */
static struct device *replug_unit_of(struct device *dev)
{
	for (; dev; dev = dev->parent)
		if (replug_bus_of_unit(dev))
			return dev;
	return NULL;
}

/* A disk or partition claimed by a mounted filesystem, swap, md or dm. */
static bool replug_in_use(struct device *dev)
{
	return dev->class == &block_class &&
	       READ_ONCE(dev_to_bdev(dev)->bd_holder);
}

/* @driver_stays: the driver asked to stay, as an armed wakeup device does. */
static bool replug_wants_keep(struct device *dev, bool driver_stays)
{
	switch (READ_ONCE(dev->power.replug_policy)) {
	case PM_REPLUG_KEEP:
		return true;
	case PM_REPLUG_REMOVE:
		return false;
	default:
		return driver_stays || replug_in_use(dev);
	}
}

/* @going: the walk is about to take devices away, rather than bring them back. */
static void replug_open_cycle(const struct pm_intent *intent, bool going)
{
	spin_lock(&replug.lock);
	replug.intent = *intent;
	replug.open_cycle = intent->cycle;
	replug.going = going;
	spin_unlock(&replug.lock);
}

static void replug_free_points(struct list_head *points)
{
	struct replug_point *point, *next;

	list_for_each_entry_safe(point, next, points, node) {
		put_device(point->dev);
		kfree(point);
	}
}

/* Take @point out of the noted ones, onto @points to be freed. */
static void replug_drop_point(struct replug_point *point, struct list_head *points)
{
	lockdep_assert_held(&replug.lock);
	hash_del(&point->by_dev);
	list_move_tail(&point->node, points);
}

static struct replug_point *replug_find_point(const struct pm_replug_bus *bus,
					      const struct device *dev)
{
	struct replug_point *point;

	lockdep_assert_held(&replug.lock);
	hash_for_each_possible(replug.points_by_dev, point, by_dev, (unsigned long)dev)
		if (point->dev == dev && (!bus || point->bus == bus))
			return point;
	return NULL;
}

static void replug_close_cycle(struct work_struct *work)
{
	struct replug_point *point, *next;
	unsigned int cycle;
	LIST_HEAD(points);

	scoped_guard(spinlock, &replug.lock) {
		cycle = replug.open_cycle;
		replug.open_cycle = 0;
		list_for_each_entry_safe(point, next, &replug.points, node)
			replug_drop_point(point, &points);
	}
	replug_free_points(&points);
	replug_identity_forget(cycle);
}

/* End the last cycle's window now rather than when its timer fires. */
static void replug_close_window(void)
{
	cancel_delayed_work_sync(&replug.close_window);
	replug_close_cycle(NULL);
}

/*
 * Remember where a unit about to go will come back, to rescan it later.
 * Units go in parallel, so the list is looked at under the lock.
 */
static int replug_note_point(const struct pm_replug_bus *bus,
			     struct device *unit)
{
	struct device *dev = bus->rescan_point(unit);
	struct replug_point *new __free(kfree) = NULL;

	if (!dev)
		return -ENODEV;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new) {
		put_device(dev);
		return -ENOMEM;
	}
	new->bus = bus;
	new->dev = dev;

	scoped_guard(spinlock, &replug.lock) {
		if (replug_find_point(bus, dev)) {
			put_device(dev);
			return 0;
		}
		hash_add(replug.points_by_dev, &new->by_dev, (unsigned long)dev);
		list_add_tail(&no_free_ptr(new)->node, &replug.points);
	}
	return 0;
}

static int replug_remove_unit(struct device *unit,
			      const struct pm_intent *intent)
{
	const struct pm_replug_bus *bus = replug_bus_of_unit(unit);
	int error;

	error = replug_note_point(bus, unit);
	if (error)
		return error;

	trace_replug_device(unit, intent, "remove");
	/* Its REMOVE events, and those of everything below it, carry the intent. */
	scoped_guard(spinlock, &replug.lock)
		unit->power.replug_cycle = replug.open_cycle;
	replug_identity_note(unit);

	trace_device_pm_callback_start(unit, "replug remove", PM_EVENT_SUSPEND);
	error = bus->remove(unit);
	trace_device_pm_callback_end(unit, error);
	return error;
}

/*
 * The points were noted as units went, children before parents, so a
 * point that went away itself comes back with the rescan of one noted
 * after it.
 */
static void replug_rescan(void)
{
	struct replug_point *point;

	/* The list only grows under system_transition_mutex, which we hold. */
	list_for_each_entry(point, &replug.points, node) {
		trace_device_pm_callback_start(point->dev, "replug rescan",
					       PM_EVENT_RESUME);
		point->bus->rescan(point->dev);
		trace_device_pm_callback_end(point->dev, 0);
	}
}

/* The callbacks of @dev's driver; the device lock keeps them valid. */
static const struct dev_pm_ops *replug_driver_pm(const struct device *dev)
{
	return dev->driver ? dev->driver->pm : NULL;
}

static int replug_call_unplug(struct device *dev, const struct pm_intent *intent)
{
	const struct dev_pm_ops *pm;
	int ret;

	guard(device)(dev);
	pm = replug_driver_pm(dev);
	if (!pm || !pm->unplug)
		return 0;

	trace_device_pm_callback_start(dev, "replug unplug", PM_EVENT_SUSPEND);
	ret = pm->unplug(dev, intent);
	trace_device_pm_callback_end(dev, ret);
	if (ret < 0)
		dev_err(dev, "refused to unplug for %s: %pe\n",
			pm_transition_name(intent->transition), ERR_PTR(ret));
	else if (ret > 0)
		dev_info(dev, "stays in place for %s\n",
			 pm_transition_name(intent->transition));
	return ret;
}

static void replug_call_replugged(struct device *dev,
				  const struct pm_intent *intent)
{
	const struct dev_pm_ops *pm;

	guard(device)(dev);
	pm = replug_driver_pm(dev);
	if (pm && pm->replugged)
		pm->replugged(dev, intent);
}

/*
 * Every device in dpm_list order, each with a reference: parents before
 * children and suppliers before consumers, so walking it backwards visits
 * children and consumers first.
 */
static struct device **replug_snapshot(size_t *count)
{
	struct device **devs, *dev;
	size_t n = 0;

	device_pm_lock();
	list_for_each_entry(dev, &dpm_list, power.entry)
		n++;
	devs = kvmalloc_array(n, sizeof(*devs), GFP_KERNEL);
	if (devs) {
		n = 0;
		list_for_each_entry(dev, &dpm_list, power.entry)
			devs[n++] = get_device(dev);
		*count = n;
	}
	device_pm_unlock();
	return devs;
}

static void replug_put_all(struct device **devs, size_t count)
{
	while (count)
		put_device(devs[--count]);
	kvfree(devs);
}

/* One device of a walk, and when it is done with. */
struct replug_node {
	struct device *dev;
	struct replug_walk *walk;
	struct completion done;
	/* The nodes of @dev's children, as they were when the walk began. */
	struct replug_node *first_child;
	struct replug_node *next_sibling;
};

static ASYNC_DOMAIN_EXCLUSIVE(replug_async_domain);

static int replug_node_cmp(const void *a, const void *b)
{
	const struct device *x = (*(struct replug_node * const *)a)->dev;
	const struct device *y = (*(struct replug_node * const *)b)->dev;

	return x < y ? -1 : x > y;
}

static int replug_node_key_cmp(const void *key, const void *elt)
{
	const struct device *dev = key;
	const struct device *y = (*(struct replug_node * const *)elt)->dev;

	return dev < y ? -1 : dev > y;
}

static struct replug_node *replug_node_of(struct replug_walk *walk,
					  struct device *dev)
{
	struct replug_node **found;

	found = bsearch(dev, walk->by_dev, walk->count, sizeof(*found),
			replug_node_key_cmp);
	return found ? *found : NULL;
}

/*
 * Wait until @dev, a consumer of @node's device, is done with.
 * Only devices later in the walk's list are waited for: they were started
 * first, and a list out of order must not deadlock the walk.
 */
static void replug_wait_for(struct replug_node *node, struct device *dev)
{
	struct replug_node *found = replug_node_of(node->walk, dev);

	if (found && found > node)
		wait_for_completion(&found->done);
}

/*
 * Children and consumers go first, as in dpm_suspend().  The children are
 * those of the walk's start: a child on its way out has left its parent's
 * list of children before its REMOVE event, and its parent must not go
 * before that event is out.
 */
static void replug_wait_for_subordinates(struct replug_node *node)
{
	struct device_link *link;
	struct replug_node *child;
	int idx;

	for (child = node->first_child; child; child = child->next_sibling)
		wait_for_completion(&child->done);

	idx = device_links_read_lock();
	list_for_each_entry_rcu(link, &node->dev->links.consumers, s_node,
				device_links_read_lock_held())
		if (READ_ONCE(link->status) != DL_STATE_DORMANT)
			replug_wait_for(node, link->consumer);
	device_links_read_unlock(idx);
}

/*
 * A unit is pinned when one of its devices must stay; units are few, so a
 * linear search of the pinned ones is cheaper than anything cleverer.
 */
static bool replug_pinned(struct replug_walk *walk, struct device *unit)
{
	size_t i;

	lockdep_assert_held(&walk->lock);
	for (i = 0; i < walk->nr_pinned; i++)
		if (walk->pinned[i] == unit)
			return true;
	return false;
}

static void replug_pin(struct replug_walk *walk, struct device *unit)
{
	lockdep_assert_held(&walk->lock);
	if (!replug_pinned(walk, unit))
		walk->pinned[walk->nr_pinned++] = unit;
}

/*
 * A device that does not come back from its callback cannot be cancelled,
 * but it can be named, with where it is stuck, while the walk waits; and
 * a transition that went on after it would hide the hang.
 */
static void replug_watchdog_fire(struct timer_list *timer)
{
	struct pm_replug_watchdog *wd = from_timer(wd, timer, timer);

	WRITE_ONCE(wd->fired, true);
	dev_warn(wd->dev, "replug: %s has not returned after %u ms\n",
		 wd->what, wd->ms);
	show_stack(wd->task, NULL, KERN_WARNING);
}

static void replug_watchdog_arm(struct pm_replug_watchdog *wd,
				struct device *dev, const char *what,
				unsigned int ms)
{
	wd->dev = dev;
	wd->task = current;
	wd->what = what;
	wd->ms = dev ? ms : 0;
	wd->fired = false;
	timer_setup_on_stack(&wd->timer, replug_watchdog_fire, 0);
	if (wd->ms)
		mod_timer(&wd->timer, jiffies + msecs_to_jiffies(wd->ms));
}

/* Return: whether the watched call outlived the watchdog. */
static bool replug_watchdog_disarm(struct pm_replug_watchdog *wd)
{
	del_timer_sync(&wd->timer);
	destroy_timer_on_stack(&wd->timer);
	return wd->fired;
}

static void replug_watchdog_start(struct pm_replug_watchdog *wd,
				  struct replug_walk *walk, struct device *dev,
				  const char *callback)
{
	replug_watchdog_arm(wd, dev, callback, walk->watchdog_ms);
}

/* Return: whether the callback outlived the watchdog. */
static bool replug_watchdog_stop(struct pm_replug_watchdog *wd)
{
	if (!replug_watchdog_disarm(wd))
		return false;
	dev_err(wd->dev, "replug: %s returned too late, calling the transition off\n",
		wd->what);
	return true;
}

/**
 * pm_replug_watchdog_start - watch a call of a transition that may hang
 * @wd: the watchdog, on the caller's stack until pm_replug_watchdog_stop().
 * @dev: the device the call waits for, named if it hangs; %NULL watches
 *	nothing.
 * @what: the call, for the message.
 *
 * For the steps of a transition outside the walk that wait for one device,
 * such as writing the hibernation image to its disk: should the call not
 * return within /sys/power/replug/watchdog_ms, @dev is named in the log
 * with the stack of the task stuck in it.  Unlike a device in the walk,
 * the transition goes on once the call returns: a slow disk is no error.
 */
void pm_replug_watchdog_start(struct pm_replug_watchdog *wd,
			      struct device *dev, const char *what)
{
	replug_watchdog_arm(wd, dev, what, READ_ONCE(replug.watchdog_ms));
}
EXPORT_SYMBOL_IF_KUNIT(pm_replug_watchdog_start);

/**
 * pm_replug_watchdog_stop - the watched call has returned
 * @wd: as started.
 *
 * Return: whether the call outlived the watchdog.
 */
bool pm_replug_watchdog_stop(struct pm_replug_watchdog *wd)
{
	if (!replug_watchdog_disarm(wd))
		return false;
	dev_warn(wd->dev, "replug: %s returned, the transition goes on\n",
		 wd->what);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(pm_replug_watchdog_stop);

/* @dev was told and stays: it will hear how the transition ended. */
static void replug_add_notified(struct replug_walk *walk, struct device *dev)
{
	lockdep_assert_held(&walk->lock);
	walk->notified[walk->nr_notified++] = get_device(dev);
}

static void replug_fail(struct replug_walk *walk, int error)
{
	lockdep_assert_held(&walk->lock);
	if (!walk->error)
		walk->error = error;
}

/*
 * Offer the intent to one device, and take its unit away if it is the
 * unit and nothing below it must stay.  Every device below it is done
 * with by now, so the unit's fate is known.  A driver that answers with a
 * positive value stays, with its unit, unless the user's policy says
 * remove: only the driver knows whether it is armed to wake the system,
 * as the wakeup flags the kernel sets by default on controllers and hubs
 * only permit wakeup.
 */
static void replug_walk_device(struct replug_walk *walk, struct device *dev)
{
	struct pm_replug_watchdog wd;
	struct device *unit;
	bool remove, late;
	int stay, error;

	if (READ_ONCE(walk->error) || !device_is_registered(dev))
		return;

	/* For the ->remove() calls below too, which take no intent. */
	WRITE_ONCE(dev->power.intent, walk->intent);
	replug_watchdog_start(&wd, walk, dev, "unplug()");
	stay = walk->unplug(dev, walk->intent);
	if (replug_watchdog_stop(&wd) && stay >= 0)
		stay = -ETIMEDOUT;
	if (stay < 0) {
		guard(mutex)(&walk->lock);
		replug_add_notified(walk, dev);
		replug_fail(walk, stay);
		return;
	}
	trace_replug_device(dev, walk->intent, "unplug");

	unit = walk->unit_of(dev);
	scoped_guard(mutex, &walk->lock) {
		if (unit && replug_wants_keep(dev, stay))
			replug_pin(walk, unit);
		remove = dev == unit && !replug_pinned(walk, unit);
		if (!remove)
			replug_add_notified(walk, dev);
	}
	if (!remove)
		return;

	replug_watchdog_start(&wd, walk, unit, "removal");
	error = walk->remove(unit, walk->intent);
	late = replug_watchdog_stop(&wd);
	guard(mutex)(&walk->lock);
	if (error) {
		/* Still here, so it must hear that the transition is off. */
		replug_add_notified(walk, dev);
		replug_fail(walk, error);
		return;
	}
	walk->removed++;
	/* Gone, so the rollback's rescan brings it back. */
	if (late)
		replug_fail(walk, -ETIMEDOUT);
}

static void replug_walk_one(struct replug_node *node)
{
	replug_wait_for_subordinates(node);
	replug_walk_device(node->walk, node->dev);
	complete_all(&node->done);
}

static void replug_walk_async(void *data, async_cookie_t cookie)
{
	replug_walk_one(data);
}

static bool replug_walk_is_async(struct replug_walk *walk, struct device *dev)
{
	return walk->async && dev->power.async_suspend;
}

/*
 * Give every node the nodes of its children.  Only children later in the
 * walk's list count, as in replug_wait_for(): they start first.
 */
static void replug_link_children(struct replug_walk *walk)
{
	struct replug_node *node, *parent;
	size_t i;

	for (i = walk->count; i--; ) {
		node = &walk->nodes[i];
		parent = node->dev->parent ?
			 replug_node_of(walk, node->dev->parent) : NULL;
		if (parent && parent < node) {
			node->next_sibling = parent->first_child;
			parent->first_child = node;
		}
	}
}

static int replug_walk_prepare(struct replug_walk *walk, struct device **devs,
			       size_t count)
{
	size_t i;

	mutex_init(&walk->lock);
	walk->error = 0;
	walk->count = count;
	walk->nr_pinned = 0;
	walk->nodes = kvcalloc(count, sizeof(*walk->nodes), GFP_KERNEL);
	walk->by_dev = kvcalloc(count, sizeof(*walk->by_dev), GFP_KERNEL);
	walk->pinned = kvcalloc(count, sizeof(*walk->pinned), GFP_KERNEL);
	if (!walk->nodes || !walk->by_dev || !walk->pinned)
		return -ENOMEM;

	for (i = 0; i < count; i++) {
		walk->nodes[i].dev = devs[i];
		walk->nodes[i].walk = walk;
		init_completion(&walk->nodes[i].done);
		walk->by_dev[i] = &walk->nodes[i];
	}
	sort(walk->by_dev, count, sizeof(*walk->by_dev), replug_node_cmp, NULL);
	replug_link_children(walk);
	return 0;
}

static void replug_walk_release(struct replug_walk *walk)
{
	kvfree(walk->pinned);
	kvfree(walk->by_dev);
	kvfree(walk->nodes);
	walk->pinned = NULL;
	walk->by_dev = NULL;
	walk->nodes = NULL;
	mutex_destroy(&walk->lock);
}

/**
 * replug_walk_devices - unplug devices, children and consumers first
 * @walk: how, and where the results go.
 * @devs: the devices in dpm_list order (parents and suppliers first).
 * @count: how many.
 *
 * Backwards through @devs, each device waits for its children and
 * consumers, so a unit comes after every device below it and its fate is
 * known when the walk gets to it: it is removed unless one of its devices
 * must stay.  With @walk->async, devices that allow asynchronous suspend
 * go in parallel, under the same ordering rules as dpm_suspend().
 * Devices that are no longer registered are skipped.  From the moment a
 * device is offered @walk->intent until the walk ends, dev_pm_intent()
 * returns it, so the ->remove() of a unit's devices sees it too.
 *
 * Return: 0, or the first error of @walk's ->unplug() or ->remove(); no
 * device starts after it, those already under way finish, and what was
 * done is in @walk.
 */
VISIBLE_IF_KUNIT int replug_walk_devices(struct replug_walk *walk,
					 struct device **devs, size_t count)
{
	struct replug_node *node;
	size_t i;
	int error;

	error = replug_walk_prepare(walk, devs, count);
	if (error) {
		replug_walk_release(walk);
		return error;
	}

	for (i = count; i--; ) {
		node = &walk->nodes[i];
		if (READ_ONCE(walk->error))
			break;
		if (replug_walk_is_async(walk, node->dev))
			async_schedule_domain(replug_walk_async, node,
					      &replug_async_domain);
		else
			replug_walk_one(node);
	}
	async_synchronize_full_domain(&replug_async_domain);
	for (i = 0; i < count; i++)
		WRITE_ONCE(devs[i]->power.intent, NULL);

	error = walk->error;
	replug_walk_release(walk);
	return error;
}
EXPORT_SYMBOL_IF_KUNIT(replug_walk_devices);

/* Tell every device that got unplug() and is still here that it is back. */
static void replug_notify_kept(const struct pm_intent *intent)
{
	while (replug.nr_notified) {
		struct device *dev = replug.notified[--replug.nr_notified];

		if (device_is_registered(dev)) {
			trace_replug_device(dev, intent, "keep");
			replug_call_replugged(dev, intent);
			replug.kept++;
		}
		put_device(dev);
	}
	kvfree(replug.notified);
	replug.notified = NULL;
}

/* Does replug take part in a transition with @intent? */
static bool replug_engaged(const struct pm_intent *intent)
{
	return READ_ONCE(replug.mode) == REPLUG_MODE_REPLUG &&
	       intent->test != PM_INTENT_TEST_FREEZER;
}

static struct kobj_uevent_env *replug_announce_env(const struct pm_intent *intent)
{
	struct kobj_uevent_env *env = kzalloc(sizeof(*env), GFP_KERNEL);

	if (!env)
		return NULL;
	if (add_uevent_var(env, "PM_REPLUG=1") ||
	    pm_intent_add_uevent_vars(intent, env)) {
		kfree(env);
		return NULL;
	}
	return env;
}

static int replug_ptr_cmp(const void *a, const void *b)
{
	const struct device *x = *(struct device * const *)a;
	const struct device *y = *(struct device * const *)b;

	return x < y ? -1 : x > y;
}

/*
 * The units that stay whatever their drivers answer, since one of their
 * devices is kept by its policy or in use, into @pins, sorted.  Return:
 * how many.
 */
static size_t replug_policy_pins(struct device **devs, size_t count,
				 struct device **pins)
{
	struct device *unit;
	size_t i, n = 0;

	for (i = 0; i < count; i++) {
		if (!device_is_registered(devs[i]) ||
		    !replug_wants_keep(devs[i], false))
			continue;
		unit = replug_unit_of(devs[i]);
		if (unit)
			pins[n++] = unit;
	}
	sort(pins, n, sizeof(*pins), replug_ptr_cmp, NULL);
	return n;
}

/*
 * Can @dev go with a unit?  Any unit above it that is not pinned takes it
 * along, pinned units below that one included.
 */
static bool replug_may_go(struct device *dev, struct device **pins, size_t nr_pins)
{
	for (; dev; dev = dev->parent)
		if (replug_bus_of_unit(dev) &&
		    !bsearch(&dev, pins, nr_pins, sizeof(*pins), replug_ptr_cmp))
			return true;
	return false;
}

/*
 * Send the CHANGE events, as a new cycle, to the devices that may go.
 * Those of a unit the policy keeps would lose nothing, and each event
 * costs user space a run of every rule, most often after the wake, since
 * the freezer stops udev soon after the events are sent.
 */
static void replug_announce(struct pm_intent *intent)
{
	struct kobj_uevent_env *env __free(kfree) = NULL;
	struct device **pins __free(kvfree) = NULL;
	size_t count, i, nr_pins, told = 0;
	struct device **devs;

	/* A window still open would tag the events with the last cycle. */
	replug_close_window();
	intent->cycle = ++replug.cycles;
	env = replug_announce_env(intent);
	devs = replug_snapshot(&count);
	if (devs)
		pins = kvmalloc_array(count, sizeof(*pins), GFP_KERNEL);
	if (!env || !pins) {
		/* Only a courtesy: the transition goes on without it. */
		pr_warn("cycle %llu: out of memory, not announced\n",
			intent->cycle);
		if (devs)
			replug_put_all(devs, count);
		return;
	}

	nr_pins = replug_policy_pins(devs, count, pins);
	for (i = 0; i < count; i++) {
		if (!device_is_registered(devs[i]) ||
		    !replug_may_go(devs[i], pins, nr_pins))
			continue;
		if (!kobject_uevent_env(&devs[i]->kobj, KOBJ_CHANGE, env->envp))
			told++;
	}
	replug_put_all(devs, count);
	pr_info("cycle %llu: %zu devices told of the %s\n", intent->cycle,
		told, pm_transition_name(intent->transition));
}

/* Was the transition @intent describes announced already? */
static bool replug_same_transition(const struct pm_intent *a,
				   const struct pm_intent *b)
{
	return a->transition == b->transition &&
	       a->suspend_state == b->suspend_state &&
	       a->hibernate_mode == b->hibernate_mode &&
	       a->test == b->test;
}

/**
 * pm_replug_announce - tell user space which devices are about to go
 * @intent: why; its @cycle is filled in here.
 *
 * Sends a CHANGE uevent with PM_REPLUG=1 and the intent for every device
 * the coming walk may take away, that is everything below a removable
 * unit, while user space still runs: udev rules can save what must outlive
 * the device and restore it when the new one is added.  Devices with no
 * way to be rediscovered are not told, nor those of a unit that a device
 * kept by its policy or in use (a mounted disk) pins, since they stay and
 * lose nothing.  A unit only its driver keeps is told: the walk asks the
 * driver later.
 *
 * Nothing waits for the rules.  User space that must know they ran
 * announces the transition itself through /sys/power/replug/announce,
 * waits for udev, then starts it; the transition then takes that
 * announcement's cycle instead of sending the events again.
 *
 * Nothing happens in classic mode or when pm_test stops at the freezer.
 * Must be called with system_transition_mutex held, before user space is
 * frozen.
 */
void pm_replug_announce(struct pm_intent *intent)
{
	struct pm_intent announced = replug.announced;

	lockdep_assert_held(&system_transition_mutex);
	/* An announcement holds for the next transition only. */
	replug.announced.cycle = 0;
	if (!replug_engaged(intent))
		return;

	if (announced.cycle && replug_same_transition(&announced, intent)) {
		intent->cycle = announced.cycle;
		pr_info("cycle %llu: announced by user space\n", intent->cycle);
		return;
	}
	replug_announce(intent);
}

/*
 * Offer @intent to every device through @unplug and remove what may go.
 * The results stay in the framework state for pm_replug_replug().
 */
static int replug_unplug_all(struct pm_intent *intent,
			     int (*unplug)(struct device *dev,
					   const struct pm_intent *intent))
{
	struct replug_walk walk = {
		.intent = intent,
		.unit_of = replug_unit_of,
		.unplug = unplug,
		.remove = replug_remove_unit,
		.async = pm_async_enabled,
		.watchdog_ms = READ_ONCE(replug.watchdog_ms),
	};
	struct device **devs;
	size_t count;
	int error;

	replug_close_window();
	if (!intent->cycle)
		intent->cycle = ++replug.cycles;
	replug.kept = 0;

	devs = replug_snapshot(&count);
	if (!devs)
		return -ENOMEM;
	walk.notified = kvmalloc_array(count, sizeof(*walk.notified), GFP_KERNEL);
	if (!walk.notified) {
		replug_put_all(devs, count);
		return -ENOMEM;
	}

	pr_info("cycle %llu: unplugging for %s\n", intent->cycle,
		pm_transition_name(intent->transition));
	replug_open_cycle(intent, true);
	/* Nothing may bind to what the walk is taking away. */
	device_block_probing();
	error = replug_walk_devices(&walk, devs, count);
	device_unblock_probing();
	scoped_guard(spinlock, &replug.lock)
		replug.going = false;
	replug_put_all(devs, count);
	replug.notified = walk.notified;
	replug.nr_notified = walk.nr_notified;
	replug.removed = walk.removed;
	if (!error)
		pr_info("cycle %llu: %u devices removed\n", intent->cycle,
			replug.removed);
	return error;
}

/**
 * pm_replug_unplug - take every device away for a system transition
 * @intent: why; its @cycle is filled in here.
 *
 * Offers @intent to every device's &dev_pm_ops.unplug, children and
 * consumers before parents and suppliers, and removes each device whose
 * policy allows it together with the PCI function it hangs off.  The
 * devices that stay (by policy, or for lack of a way to rediscover them)
 * go through the classic dev_pm_ops path afterwards.  In classic mode, or
 * when pm_test stops at the freezer, nothing happens.
 *
 * Must be called with kernel threads running and system_transition_mutex
 * held; pm_replug_replug() undoes it.  A suspend or hibernation has frozen
 * user space by then; a dry run of a shutdown has not, as the real one
 * would not have.
 *
 * Return: 0, or the error of the device that refused, in which case every
 * device already removed has been brought back and the transition must
 * be abandoned.
 */
int pm_replug_unplug(struct pm_intent *intent)
{
	int error;

	lockdep_assert_held(&system_transition_mutex);
	if (!replug_engaged(intent))
		return 0;

	trace_suspend_resume(TPS("replug_unplug"), 0, true);
	error = replug_unplug_all(intent, replug_call_unplug);
	trace_suspend_resume(TPS("replug_unplug"), 0, false);
	if (error) {
		pr_err("cycle %llu: unplug failed, bringing %u removed devices back\n",
		       intent->cycle, replug.removed);
		pm_replug_replug(intent);
	}
	return error;
}

/* Going down, nothing can be refused: a driver that tries stays in place. */
static int replug_call_unplug_going_down(struct device *dev,
					 const struct pm_intent *intent)
{
	int ret = replug_call_unplug(dev, intent);

	return ret < 0 ? 1 : ret;
}

/**
 * pm_replug_shutdown - hot-remove the devices before the system goes down
 * @intent: power-off, halt, reboot or kexec.
 *
 * In replug mode every device is offered @intent and each PCI function
 * that may go is removed, as for a suspend, so that drivers let go through
 * their ->remove() with the intent at hand (dev_pm_intent()) rather than
 * through ->shutdown() alone.  Nothing comes back and nothing can stop
 * the transition: a driver that refuses stays, and device_shutdown()
 * shuts it down with every other device that stays.
 *
 * A hibernation that ends in a power-off or reboot took away what could go
 * at its freeze phase; what is still here then stays, so no second walk
 * runs and its devices get ->shutdown() with the power-off intent.
 *
 * Context: device_shutdown(), before it blocks probing.  The walk needs
 * system_transition_mutex, which every orderly way down holds (the reboot
 * system call, kexec, hibernation's power-off); a power-off the kernel
 * forces on its own does not, and gets the classic shutdown alone.
 */
void pm_replug_shutdown(const struct pm_intent *intent)
{
	struct pm_intent going_down = *intent;

	if (!mutex_is_locked(&system_transition_mutex) ||
	    !replug_engaged(&going_down))
		return;
	if (replug.notified) {
		pr_info("cycle %llu: %s with the devices of the cycle still away\n",
			replug.intent.cycle, pm_transition_name(intent->transition));
		return;
	}
	if (replug_unplug_all(&going_down, replug_call_unplug_going_down))
		pr_err("cycle %llu: not every device could be removed for %s\n",
		       going_down.cycle, pm_transition_name(intent->transition));
}

/**
 * pm_replug_replug - bring the hardware back after a system transition
 * @intent: the intent pm_replug_unplug() was given, or, for a hibernation,
 *	the one of the phase that brings the devices back, with its cycle.
 *
 * Rescans every bus that lost devices, so that they are found and probed
 * as new hardware, their ADD events and &dev_pm_ops.replugged carrying
 * @intent, and calls &dev_pm_ops.replugged for the devices that were
 * kept.  Devices that appear behind the rescanned buses in the next
 * REPLUG_WINDOW_MS are tagged as replugged too.
 *
 * Must be called with kernel threads running, and with user space still
 * frozen if pm_replug_unplug() found it frozen.
 */
void pm_replug_replug(const struct pm_intent *intent)
{
	lockdep_assert_held(&system_transition_mutex);
	if (!replug.notified)
		return;

	trace_suspend_resume(TPS("replug_rescan"), 0, true);
	replug_open_cycle(intent, false);
	replug_rescan();
	replug_notify_kept(intent);
	trace_suspend_resume(TPS("replug_rescan"), 0, false);
	pr_info("cycle %llu: buses rescanned, %u devices kept\n", intent->cycle,
		replug.kept);
	schedule_delayed_work(&replug.close_window,
			      msecs_to_jiffies(REPLUG_WINDOW_MS));
}

/* Is a device added under @parent part of the open cycle? */
static bool replug_parent_replugs(const struct device *parent)
{
	lockdep_assert_held(&replug.lock);
	return parent->power.replug_cycle == replug.open_cycle ||
	       replug_find_point(NULL, parent);
}

/**
 * pm_replug_device_added - tag a new device that is part of a replug
 * @dev: the device being added, not yet announced to user space.
 *
 * A device is part of the open replug cycle when it appears under a bridge
 * whose bus was rescanned, or under a device that is itself part of it.
 * It is then matched against the devices that went, for
 * dev_pm_replug_identity() and its ADD uevent.
 */
void pm_replug_device_added(struct device *dev)
{
	unsigned int cycle = 0;

	scoped_guard(spinlock, &replug.lock) {
		if (dev->parent && replug.open_cycle &&
		    replug_parent_replugs(dev->parent)) {
			cycle = replug.open_cycle;
			dev->power.replug_cycle = cycle;
		}
	}
	if (cycle)
		replug_identity_match(dev, cycle);
	else
		WRITE_ONCE(dev->power.replug_identity, PM_REPLUG_IDENTITY_NONE);
}

/**
 * pm_replug_driver_bound - a replugged device found its driver
 * @dev: the device, with its driver bound and the device lock held.
 *
 * Calls &dev_pm_ops.replugged with the intent of the transition that took
 * the device's predecessor away.
 */
void pm_replug_driver_bound(struct device *dev)
{
	const struct dev_pm_ops *pm = replug_driver_pm(dev);
	struct pm_intent intent;

	scoped_guard(spinlock, &replug.lock) {
		if (!replug.open_cycle ||
		    dev->power.replug_cycle != replug.open_cycle)
			return;
		intent = replug.intent;
	}
	trace_replug_device(dev, &intent, "replug");
	if (pm && pm->replugged)
		pm->replugged(dev, &intent);
}

/* Is @dev, or the unit it goes or comes with, part of the open cycle? */
static bool replug_tagged(const struct device *dev)
{
	lockdep_assert_held(&replug.lock);
	for (; dev; dev = dev->parent)
		if (dev->power.replug_cycle == replug.open_cycle)
			return true;
	return false;
}

/**
 * pm_replug_uevent - add the replug environment to a device's uevent
 * @dev: the device.
 * @env: the uevent environment being built.
 *
 * The events of the devices replug takes away during its walk, and those
 * of the devices that come back, carry PM_REPLUG=1 and the intent (see
 * pm_intent_add_uevent_vars()).  A device that goes away once the walk is
 * over, even while the cycle still tags late devices, is really gone: its
 * events are left alone.  The events of a device that came back also say
 * whether it is the hardware that went: PM_REPLUG_IDENTITY=same, changed
 * or new (see dev_pm_replug_identity()).
 *
 * Return: 0, or -ENOMEM when @env is full.
 */
int pm_replug_uevent(const struct device *dev, struct kobj_uevent_env *env)
{
	enum pm_replug_identity identity = PM_REPLUG_IDENTITY_NONE;
	struct pm_intent intent;

	scoped_guard(spinlock, &replug.lock) {
		if (!replug.open_cycle || !replug_tagged(dev))
			return 0;
		/* Once the walk is over, a device that goes is really gone. */
		if (!replug.going && dev->p && dev->p->dead)
			return 0;
		intent = replug.intent;
		if (!replug.going && dev->power.replug_cycle == replug.open_cycle)
			identity = READ_ONCE(dev->power.replug_identity);
	}
	if (add_uevent_var(env, "PM_REPLUG=1") ||
	    pm_intent_add_uevent_vars(&intent, env))
		return -ENOMEM;
	if (identity == PM_REPLUG_IDENTITY_NONE)
		return 0;
	return add_uevent_var(env, "PM_REPLUG_IDENTITY=%s",
			      pm_replug_identity_name(identity));
}

/**
 * pm_replug_register_bus - let replug take a bus's devices away
 * @bus: what the bus can do; it must stay valid until unregistered.
 *
 * From the next transition on, devices of @bus that @bus->is_unit()
 * accepts are removed with everything below them and found again by
 * @bus->rescan(), instead of being kept in place.
 *
 * Return: 0, or -EINVAL when one of the callbacks is missing.
 */
int pm_replug_register_bus(struct pm_replug_bus *bus)
{
	unsigned int sleep_flags;

	if (!bus->is_unit || !bus->rescan_point || !bus->remove ||
	    !bus->rescan)
		return -EINVAL;

	sleep_flags = lock_system_sleep();
	list_add_tail_rcu(&bus->node, &replug.buses);
	unlock_system_sleep(sleep_flags);
	return 0;
}
EXPORT_SYMBOL_GPL(pm_replug_register_bus);

/**
 * pm_replug_unregister_bus - stop taking a bus's devices away
 * @bus: as registered.
 *
 * Waits for a transition under way, which may still call @bus (a module
 * unloaded in the middle of one has its exit wait here, its code still
 * there).  The points of @bus that the last cycle keeps for late devices
 * are dropped, so @bus may go right after.
 */
void pm_replug_unregister_bus(struct pm_replug_bus *bus)
{
	struct replug_point *point, *next;
	unsigned int sleep_flags;
	LIST_HEAD(points);

	sleep_flags = lock_system_sleep();
	list_del_rcu(&bus->node);
	scoped_guard(spinlock, &replug.lock) {
		list_for_each_entry_safe(point, next, &replug.points, node)
			if (point->bus == bus)
				replug_drop_point(point, &points);
	}
	unlock_system_sleep(sleep_flags);
	/* Policy writes look at the list without system_transition_mutex. */
	synchronize_rcu();
	replug_free_points(&points);
}
EXPORT_SYMBOL_GPL(pm_replug_unregister_bus);

static ssize_t replug_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  replug_policy_names[READ_ONCE(dev->power.replug_policy)]);
}

static ssize_t replug_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t n)
{
	int policy = sysfs_match_string(replug_policy_names, buf);
	bool removable;

	if (policy < 0)
		return -EINVAL;
	/*
	 * Not under system_transition_mutex: a transition may be removing
	 * this very file, and would wait for this write to end.
	 */
	scoped_guard(rcu)
		removable = replug_unit_of(dev);
	if (policy == PM_REPLUG_REMOVE && !removable)
		return -EINVAL;
	WRITE_ONCE(dev->power.replug_policy, policy);
	return n;
}

static DEVICE_ATTR_RW(replug);

static struct attribute *pm_replug_attrs[] = {
	&dev_attr_replug.attr,
	NULL,
};

/* Merged into each device's power/ directory by dpm_sysfs_add(). */
const struct attribute_group pm_replug_attr_group = {
	.name	= power_group_name,
	.attrs	= pm_replug_attrs,
};

/* The choices a knob takes, on one line, the one in force (if any) in brackets. */
static ssize_t replug_show_choices(char *buf, const char * const *names,
				   int count, int current_choice)
{
	ssize_t len = 0;
	int i;

	for (i = 0; i < count; i++)
		len += sysfs_emit_at(buf, len, i == current_choice ? "[%s] " : "%s ",
				     names[i]);
	buf[len - 1] = '\n';
	return len;
}

static ssize_t mode_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return replug_show_choices(buf, replug_mode_names,
				   ARRAY_SIZE(replug_mode_names),
				   READ_ONCE(replug.mode));
}

static ssize_t mode_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t n)
{
	int mode = sysfs_match_string(replug_mode_names, buf);
	unsigned int sleep_flags;

	if (mode < 0)
		return -EINVAL;
	/* Not in the middle of a transition. */
	sleep_flags = lock_system_sleep();
	WRITE_ONCE(replug.mode, mode);
	unlock_system_sleep(sleep_flags);
	return n;
}

static ssize_t cycle_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(replug.cycles));
}

static ssize_t removed_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(replug.removed));
}

static ssize_t kept_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(replug.kept));
}

/* What /sys/power/replug/announce takes: the suspend states, by their intent names. */
static const char * const replug_announce_names[] = {
	"s2idle", "shallow", "deep",
};

static const suspend_state_t replug_announce_states[] = {
	PM_SUSPEND_TO_IDLE, PM_SUSPEND_STANDBY, PM_SUSPEND_MEM,
};

static ssize_t announce_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct pm_intent announced;
	unsigned int sleep_flags;

	sleep_flags = lock_system_sleep();
	announced = replug.announced;
	unlock_system_sleep(sleep_flags);
	if (!announced.cycle)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s %llu\n",
			  pm_intent_suspend_state_name(announced.suspend_state),
			  announced.cycle);
}

/*
 * Announce the next suspend now, so that user space can wait for its
 * rules before it writes /sys/power/state.  Refused when replug would not
 * take part in that suspend.
 */
static ssize_t announce_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t n)
{
	int index = sysfs_match_string(replug_announce_names, buf);
	struct pm_intent intent;
	unsigned int sleep_flags;
	ssize_t ret = n;

	if (index < 0)
		return -EINVAL;

	sleep_flags = lock_system_sleep();
	pm_intent_init_suspend(&intent, replug_announce_states[index],
			       pm_test_intent_level());
	if (replug_engaged(&intent)) {
		replug_announce(&intent);
		replug.announced = intent;
	} else {
		ret = -EINVAL;
	}
	unlock_system_sleep(sleep_flags);
	return ret;
}

/* What /sys/power/replug/dry_run takes: the transitions that end this kernel. */
static const char * const replug_dry_run_names[] = {
	"poweroff", "halt", "reboot", "kexec",
};

static const enum pm_transition replug_dry_run_transitions[] = {
	PM_TRANSITION_POWEROFF, PM_TRANSITION_HALT, PM_TRANSITION_REBOOT,
	PM_TRANSITION_KEXEC,
};

static ssize_t dry_run_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return replug_show_choices(buf, replug_dry_run_names,
				   ARRAY_SIZE(replug_dry_run_names), -1);
}

/*
 * Rehearse a transition that would end this kernel: user space is told,
 * every device is offered the intent and taken away as the real thing
 * would take it, and then the buses are rescanned as after a
 * pm_test=devices suspend.  The intent names the transition and says
 * PM_INTENT_TEST_DEVICES with nothing lost, so a driver knows it will be
 * back; a refusal comes back to the writer.
 */
static ssize_t dry_run_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t n)
{
	int index = sysfs_match_string(replug_dry_run_names, buf);
	struct pm_intent intent;
	unsigned int sleep_flags;
	int error;

	if (index < 0)
		return -EINVAL;
	pm_intent_init_system(&intent, replug_dry_run_transitions[index],
			      PM_INTENT_TEST_DEVICES);

	sleep_flags = lock_system_sleep();
	if (!replug_engaged(&intent)) {
		unlock_system_sleep(sleep_flags);
		return -EINVAL;
	}
	pm_replug_announce(&intent);
	error = pm_replug_unplug(&intent);
	if (!error)
		pm_replug_replug(&intent);
	unlock_system_sleep(sleep_flags);
	return error ?: n;
}

static ssize_t watchdog_ms_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(replug.watchdog_ms));
}

/* For the next walk: one already under way keeps the limit it started with. */
static ssize_t watchdog_ms_store(struct kobject *kobj,
				 struct kobj_attribute *attr, const char *buf,
				 size_t n)
{
	unsigned int ms;

	if (kstrtouint(buf, 10, &ms) || ms > REPLUG_WATCHDOG_MAX_MS)
		return -EINVAL;
	WRITE_ONCE(replug.watchdog_ms, ms);
	return n;
}

static struct kobj_attribute mode_attr = __ATTR_RW(mode);
static struct kobj_attribute cycle_attr = __ATTR_RO(cycle);
static struct kobj_attribute removed_attr = __ATTR_RO(removed);
static struct kobj_attribute kept_attr = __ATTR_RO(kept);
static struct kobj_attribute announce_attr = __ATTR_RW(announce);
static struct kobj_attribute dry_run_attr = __ATTR_RW(dry_run);
static struct kobj_attribute watchdog_ms_attr = __ATTR_RW(watchdog_ms);

static struct attribute *replug_power_attrs[] = {
	&mode_attr.attr,
	&cycle_attr.attr,
	&removed_attr.attr,
	&kept_attr.attr,
	&announce_attr.attr,
	&dry_run_attr.attr,
	&watchdog_ms_attr.attr,
	NULL,
};

VISIBLE_IF_KUNIT const struct attribute_group replug_power_group = {
	.name	= "replug",
	.attrs	= replug_power_attrs,
};
EXPORT_SYMBOL_IF_KUNIT(replug_power_group);

static int __init pm_replug_init(void)
{
	INIT_DELAYED_WORK(&replug.close_window, replug_close_cycle);
	return sysfs_create_group(power_kobj, &replug_power_group);
}
late_initcall(pm_replug_init);
