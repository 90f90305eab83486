// SPDX-License-Identifier: GPL-2.0
/*
 * replug identities: is the device a replug found the hardware that went?
 *
 * As a unit goes, every device below it that an identifier knows leaves
 * two fingerprints: where it sat and who it was.  Where is the path of its
 * positions from the nearest device that names its own place in the
 * system (a PCI address) or from the root, so that it survives the renaming
 * a re-enumeration brings (a USB bus number, sda for sdb); who is what its
 * bus says of it.  As each device of the re-enumeration is added, its
 * fingerprints are looked up among those that went: the same place and
 * the same hardware is the same device, the same place and other hardware
 * a changed one, a place nothing left is new.  What is never found again
 * is gone.
 *
 * The fingerprints are kept as hashes: a cycle of 10,000 devices keeps
 * 10,000 small records, never a string, and a lookup is one hash probe.
 */

#define pr_fmt(fmt) "PM: replug: " fmt

#include <kunit/visibility.h>
#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/pm/replug.h>
#include <linux/rculist.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "replug.h"

/* One device that went, waiting to be found again. */
struct replug_departed {
	struct hlist_node node;
	u64 where;
	u64 what;
	bool found;
};

static const char * const replug_identity_names[] = {
	[PM_REPLUG_IDENTITY_NONE]	= "none",
	[PM_REPLUG_IDENTITY_NEW]	= "new",
	[PM_REPLUG_IDENTITY_SAME]	= "same",
	[PM_REPLUG_IDENTITY_CHANGED]	= "changed",
};

static LIST_HEAD(replug_identifiers);
static DEFINE_MUTEX(replug_identifiers_lock);
static struct replug_departures replug_departures;
static siphash_key_t replug_id_key __ro_after_init;

/**
 * pm_replug_identity_name - the name of an identity answer, as uevents
 *	carry it
 * @identity: the answer.
 *
 * Return: "none", "new", "same" or "changed".
 */
const char *pm_replug_identity_name(enum pm_replug_identity identity)
{
	if (identity >= ARRAY_SIZE(replug_identity_names))
		return "none";
	return replug_identity_names[identity];
}
EXPORT_SYMBOL_GPL(pm_replug_identity_name);

/**
 * replug_departures_init - an empty set of departed devices
 * @set: the set.
 */
VISIBLE_IF_KUNIT void replug_departures_init(struct replug_departures *set)
{
	spin_lock_init(&set->lock);
	hash_init(set->by_where);
	set->nr = 0;
	memset(set->answers, 0, sizeof(set->answers));
}
EXPORT_SYMBOL_IF_KUNIT(replug_departures_init);

/**
 * replug_departures_add - remember a device that went
 * @set: the set.
 * @where: the hash of where it sat.
 * @what: the hash of who it was.
 *
 * Context: any task; units go in parallel.
 * Return: 0 or -ENOMEM.
 */
VISIBLE_IF_KUNIT int replug_departures_add(struct replug_departures *set,
					   u64 where, u64 what)
{
	struct replug_departed *gone = kmalloc(sizeof(*gone), GFP_KERNEL);

	if (!gone)
		return -ENOMEM;
	gone->where = where;
	gone->what = what;
	gone->found = false;
	spin_lock(&set->lock);
	hash_add(set->by_where, &gone->node, where);
	set->nr++;
	spin_unlock(&set->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(replug_departures_add);

/**
 * replug_departures_match - find a device that came back among those that went
 * @set: the set.
 * @where: the hash of where the new device sits.
 * @what: the hash of who it is.
 *
 * The same hardware found where it went is preferred over other hardware
 * in that place, so two like devices in like places (two disks behind one
 * controller, say) each find their own.  Whatever matched is used up: a
 * second device found in the same place is new.
 *
 * Return: %PM_REPLUG_IDENTITY_SAME, %PM_REPLUG_IDENTITY_CHANGED or
 * %PM_REPLUG_IDENTITY_NEW.
 */
VISIBLE_IF_KUNIT enum pm_replug_identity
replug_departures_match(struct replug_departures *set, u64 where, u64 what)
{
	struct replug_departed *gone, *other = NULL;
	enum pm_replug_identity answer = PM_REPLUG_IDENTITY_NEW;

	spin_lock(&set->lock);
	hash_for_each_possible(set->by_where, gone, node, where) {
		if (gone->found || gone->where != where)
			continue;
		if (gone->what == what) {
			other = gone;
			answer = PM_REPLUG_IDENTITY_SAME;
			break;
		}
		if (!other) {
			other = gone;
			answer = PM_REPLUG_IDENTITY_CHANGED;
		}
	}
	if (other)
		other->found = true;
	set->answers[answer]++;
	spin_unlock(&set->lock);
	return answer;
}
EXPORT_SYMBOL_IF_KUNIT(replug_departures_match);

/**
 * replug_departures_release - forget every departed device
 * @set: the set; empty afterwards, its answers counted from zero again.
 * @tally: filled in, if not NULL: how many devices came back with each
 *	answer, and, at %PM_REPLUG_IDENTITY_NONE, how many were never found.
 */
VISIBLE_IF_KUNIT void replug_departures_release(struct replug_departures *set,
						unsigned int *tally)
{
	struct replug_departed *gone;
	struct hlist_node *next;
	HLIST_HEAD(doomed);
	unsigned int bkt, lost = 0;

	scoped_guard(spinlock, &set->lock) {
		hash_for_each_safe(set->by_where, bkt, next, gone, node) {
			hash_del(&gone->node);
			hlist_add_head(&gone->node, &doomed);
			lost += !gone->found;
		}
		if (tally) {
			memcpy(tally, set->answers, sizeof(set->answers));
			tally[PM_REPLUG_IDENTITY_NONE] = lost;
		}
		set->nr = 0;
		memset(set->answers, 0, sizeof(set->answers));
	}
	hlist_for_each_entry_safe(gone, next, &doomed, node)
		kfree(gone);
}
EXPORT_SYMBOL_IF_KUNIT(replug_departures_release);

/* Context: rcu_read_lock(). */
static const struct pm_replug_identifier *
replug_identifier_of(const struct device *dev)
{
	const struct pm_replug_identifier *identifier;

	list_for_each_entry_rcu(identifier, &replug_identifiers, node)
		if (identifier->owns(dev))
			return identifier;
	return NULL;
}

static u64 replug_id_hash(u64 seed, const char *text)
{
	return siphash_2u64(seed, siphash(text, strlen(text), &replug_id_key),
			    &replug_id_key);
}

/* What names a device nothing identifies: its bus, class or type. */
static const char *replug_id_kind(const struct device *dev)
{
	if (dev->bus)
		return dev->bus->name;
	if (dev->class)
		return dev->class->name;
	return dev->type && dev->type->name ? dev->type->name : "device";
}

/*
 * Where @dev sits, from the leaf up.  A device taking part in the cycle
 * without an identifier is named by its kind alone, as its name is handed
 * out anew by the re-enumeration (host2, eth0); one that stays keeps its
 * name, and the one that names its own place ends the path.
 *
 * Context: rcu_read_lock().
 */
static u64 replug_id_where(const struct device *dev,
			   bool (*in_cycle)(const struct device *dev,
					    const void *data),
			   const void *data)
{
	char buf[PM_REPLUG_ID_WHERE_LEN];
	const struct pm_replug_identifier *identifier;
	u64 where = 0;

	for (; dev; dev = dev->parent) {
		identifier = replug_identifier_of(dev);
		if (identifier) {
			bool absolute = identifier->where(dev, buf, sizeof(buf));

			where = replug_id_hash(where, buf);
			if (absolute)
				break;
		} else {
			where = replug_id_hash(where, in_cycle(dev, data) ?
					       replug_id_kind(dev) : dev_name(dev));
		}
	}
	return where;
}

/**
 * replug_identify - the fingerprints of a device, if anything identifies it
 * @dev: the device.
 * @in_cycle: whether a device on the way up from @dev takes part in the
 *	cycle (goes or came back with @dev) rather than staying.
 * @data: for @in_cycle.
 * @where: filled in: the hash of where @dev sits.
 * @what: filled in: the hash of who it is.
 *
 * Return: whether an identifier knows @dev; if not, nothing is filled in.
 */
VISIBLE_IF_KUNIT bool replug_identify(const struct device *dev,
				      bool (*in_cycle)(const struct device *dev,
						       const void *data),
				      const void *data, u64 *where, u64 *what)
{
	const struct pm_replug_identifier *identifier;
	char buf[PM_REPLUG_ID_WHAT_LEN];

	guard(rcu)();
	identifier = replug_identifier_of(dev);
	if (!identifier)
		return false;
	buf[0] = '\0';
	identifier->what(dev, buf, sizeof(buf));
	*what = replug_id_hash(0, buf);
	*where = replug_id_where(dev, in_cycle, data);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(replug_identify);

struct replug_going {
	const struct device *unit;
	unsigned int noted;
};

/* Going, every device up to the unit goes with it. */
static bool replug_id_going(const struct device *dev, const void *data)
{
	const struct replug_going *going = data;
	const struct device *up;

	for (up = going->unit; up; up = up->parent)
		if (up == dev)
			return false;
	return true;
}

/* The unit itself is the last device up that goes: its parent stays. */
static bool replug_id_going_below(const struct device *dev, const void *data)
{
	const struct replug_going *going = data;

	return dev == going->unit || replug_id_going(dev, data);
}

static int replug_note_one(struct device *dev, void *data)
{
	struct replug_going *going = data;
	u64 where, what;

	if (replug_identify(dev, replug_id_going_below, going, &where, &what) &&
	    !replug_departures_add(&replug_departures, where, what))
		going->noted++;
	/* Below a unit nothing is deeper than the hardware's own tree. */
	return device_for_each_child(dev, going, replug_note_one);
}

/**
 * replug_identity_note - remember who goes with a unit
 * @unit: the unit about to be removed, with everything below it.
 *
 * Context: the walk, before @unit's bus removes it; units go in parallel.
 */
void replug_identity_note(struct device *unit)
{
	struct replug_going going = { .unit = unit };

	replug_note_one(unit, &going);
}

struct replug_coming {
	unsigned int cycle;
};

/* Coming back, a device is in the cycle when replug tagged it. */
static bool replug_id_coming(const struct device *dev, const void *data)
{
	const struct replug_coming *coming = data;

	return dev->power.replug_cycle == coming->cycle;
}

/*
 * A device nothing identifies is part of its parent's hardware when it is
 * no device of a bus of its own (a network interface of a PCI function)
 * or one of its parent's bus (a USB interface of a USB device).  A device
 * of another bus is hardware found below it, which only its own bus could
 * tell from other hardware in its place: a USB stick behind a controller.
 */
static bool replug_id_part_of_parent(const struct device *dev)
{
	return !dev->bus || dev->bus == dev->parent->bus;
}

/**
 * replug_identity_match - tell a device of the re-enumeration who it is
 * @dev: a device being added, tagged with @cycle, before its ADD uevent.
 * @cycle: the open cycle.
 *
 * Sets what dev_pm_replug_identity() returns.  A device nothing identifies
 * takes its parent's answer when it is part of its parent's hardware and
 * the parent came back in the cycle, and is new otherwise.  A device is
 * the same only if the device it came back below is too: the same disk
 * behind another USB stick is not.
 */
void replug_identity_match(struct device *dev, unsigned int cycle)
{
	const struct replug_coming coming = { .cycle = cycle };
	enum pm_replug_identity answer, parent = PM_REPLUG_IDENTITY_NONE;
	u64 where, what;

	if (dev->parent && replug_id_coming(dev->parent, &coming))
		parent = READ_ONCE(dev->parent->power.replug_identity);

	if (replug_identify(dev, replug_id_coming, &coming, &where, &what)) {
		answer = replug_departures_match(&replug_departures, where, what);
		if (answer == PM_REPLUG_IDENTITY_SAME &&
		    parent != PM_REPLUG_IDENTITY_NONE)
			answer = parent;
	} else if (parent != PM_REPLUG_IDENTITY_NONE &&
		   replug_id_part_of_parent(dev)) {
		answer = parent;
	} else {
		answer = PM_REPLUG_IDENTITY_NEW;
	}
	WRITE_ONCE(dev->power.replug_identity, answer);
}

/**
 * replug_identity_forget - end a cycle's matching, saying how it went
 * @cycle: the cycle ending, 0 for none.
 *
 * What was never found again is gone.
 */
void replug_identity_forget(unsigned int cycle)
{
	unsigned int tally[ARRAY_SIZE(replug_identity_names)];

	replug_departures_release(&replug_departures, tally);
	if (!cycle || !(tally[PM_REPLUG_IDENTITY_SAME] +
			tally[PM_REPLUG_IDENTITY_CHANGED] +
			tally[PM_REPLUG_IDENTITY_NEW] + tally[PM_REPLUG_IDENTITY_NONE]))
		return;
	pr_info("cycle %u: %u devices the same, %u changed, %u new, %u gone\n",
		cycle, tally[PM_REPLUG_IDENTITY_SAME],
		tally[PM_REPLUG_IDENTITY_CHANGED], tally[PM_REPLUG_IDENTITY_NEW],
		tally[PM_REPLUG_IDENTITY_NONE]);
}

/**
 * pm_replug_register_identifier - tell replug who the devices of a bus are
 * @identifier: how; it must stay valid until unregistered.
 *
 * From the next transition on, the devices @identifier owns are matched
 * against those that went as they are found again (see
 * dev_pm_replug_identity()).  Without an identifier, a device is taken as
 * new hardware unless its parent is known to be the same.
 *
 * Return: 0, or -EINVAL when one of the callbacks is missing.
 */
int pm_replug_register_identifier(struct pm_replug_identifier *identifier)
{
	if (!identifier->owns || !identifier->where || !identifier->what)
		return -EINVAL;
	guard(mutex)(&replug_identifiers_lock);
	list_add_tail_rcu(&identifier->node, &replug_identifiers);
	return 0;
}
EXPORT_SYMBOL_GPL(pm_replug_register_identifier);

/**
 * pm_replug_unregister_identifier - stop identifying a bus's devices
 * @identifier: as registered.
 *
 * Context: process; waits for every lookup that may still use it.
 */
void pm_replug_unregister_identifier(struct pm_replug_identifier *identifier)
{
	scoped_guard(mutex, &replug_identifiers_lock)
		list_del_rcu(&identifier->node);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(pm_replug_unregister_identifier);

/*
 * Disks and partitions, whatever their bus: where is the disk below its
 * controller or a partition's number, who its size (and a partition's
 * start), so that a disk of another size, or partitioned anew, is told.
 */
static bool replug_block_owns(const struct device *dev)
{
	return dev->class == &block_class;
}

static bool replug_block_where(const struct device *dev, char *buf, size_t len)
{
	struct block_device *bdev = dev_to_bdev((struct device *)dev);

	if (bdev_is_partition(bdev))
		snprintf(buf, len, "part%u", bdev_partno(bdev));
	else
		strscpy(buf, "disk", len);
	return false;
}

static void replug_block_what(const struct device *dev, char *buf, size_t len)
{
	struct block_device *bdev = dev_to_bdev((struct device *)dev);

	snprintf(buf, len, "start %llu sectors %llu",
		 (unsigned long long)bdev->bd_start_sect,
		 (unsigned long long)bdev_nr_sectors(bdev));
}

static struct pm_replug_identifier replug_block_identifier = {
	.name	= "block",
	.owns	= replug_block_owns,
	.where	= replug_block_where,
	.what	= replug_block_what,
};

static int __init replug_identity_init(void)
{
	get_random_bytes(&replug_id_key, sizeof(replug_id_key));
	replug_departures_init(&replug_departures);
	return pm_replug_register_identifier(&replug_block_identifier);
}
core_initcall(replug_identity_init);
