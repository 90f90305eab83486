// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the replug walk: the order devices are offered the
 * intent in (children and consumers first, in parallel where allowed),
 * which units go, which stay, and stopping on any failure.  Then the
 * parsing of replug's sysfs knobs: what they take, and that a bad write
 * is refused and changes nothing.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/pm/intent.h>
#include <linux/pm/replug.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "replug.h"

/*
 * The test devices, in dpm_list order (parents first).  A and B are units
 * that can be removed and rediscovered, A1, A2 and B1 are their children,
 * and C has no way to be rediscovered.  The walk must visit them backwards.
 */
enum { A, A1, A2, B, B1, C, NR_DEVS };

static const int unit_of_index[NR_DEVS] = {
	[A] = A, [A1] = A, [A2] = A, [B] = B, [B1] = B, [C] = -1,
};

static const int parent_index[NR_DEVS] = {
	[A] = -1, [A1] = A, [A2] = A, [B] = -1, [B1] = B, [C] = -1,
};

static const char * const dev_names[NR_DEVS] = {
	[A] = "A", [A1] = "A1", [A2] = "A2", [B] = "B", [B1] = "B1", [C] = "C",
};

/* How long a slow device takes, and how long a test waits for another. */
#define SLOW_MS		100
#define HANDSHAKE_MS	5000

struct walk_fixture {
	struct device *devs[NR_DEVS];
	struct device *notified[NR_DEVS];
	/* Filled in from the walk's threads. */
	int unplugged[NR_DEVS + 1];
	atomic_t nr_unplugged;
	int removed[NR_DEVS];
	atomic_t nr_removed;
	atomic_t clock;
	int started[NR_DEVS];
	int finished[NR_DEVS];
	/* What each device does when offered the intent. */
	int fail_unplug_at;
	int answer[NR_DEVS];
	bool slow[NR_DEVS];
	int waits_for[NR_DEVS];
	struct completion unplug_started[NR_DEVS];
	bool handshake_timed_out;
	bool fail_remove;
	bool slow_remove;
	unsigned int watchdog_ms;
	/* What dev_pm_intent() said of each device when its unit went. */
	const struct pm_intent *intent_at_removal[NR_DEVS];
	struct pm_intent intent;
	struct replug_walk walk;
};

/* The walk calls back from its own threads: find the test through @dev. */
static struct walk_fixture *fixture_of(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static int index_of(struct device *dev)
{
	struct walk_fixture *f = fixture_of(dev);
	int i;

	for (i = 0; i < NR_DEVS; i++)
		if (f->devs[i] == dev)
			return i;
	return -1;
}

static struct device *fake_unit_of(struct device *dev)
{
	int unit = unit_of_index[index_of(dev)];

	return unit < 0 ? NULL : fixture_of(dev)->devs[unit];
}

static int fake_unplug(struct device *dev, const struct pm_intent *intent)
{
	struct walk_fixture *f = fixture_of(dev);
	int call = atomic_inc_return(&f->nr_unplugged) - 1;
	int i = index_of(dev);
	int other = f->waits_for[i];

	f->unplugged[call] = i;
	f->started[i] = atomic_inc_return(&f->clock);
	complete_all(&f->unplug_started[i]);
	if (other >= 0 &&
	    !wait_for_completion_timeout(&f->unplug_started[other],
					 msecs_to_jiffies(HANDSHAKE_MS)))
		f->handshake_timed_out = true;
	if (f->slow[i])
		msleep(SLOW_MS);
	f->finished[i] = atomic_inc_return(&f->clock);
	return call == f->fail_unplug_at ? -EBUSY : f->answer[i];
}

static int fake_remove(struct device *unit, const struct pm_intent *intent)
{
	struct walk_fixture *f = fixture_of(unit);

	int i;

	if (f->fail_remove)
		return -ENOMEM;
	if (f->slow_remove)
		msleep(SLOW_MS);
	for (i = 0; i < NR_DEVS; i++)
		if (fake_unit_of(f->devs[i]) == unit)
			f->intent_at_removal[i] = dev_pm_intent(f->devs[i]);
	f->removed[atomic_inc_return(&f->nr_removed) - 1] = index_of(unit);
	return 0;
}

static void release_child(struct device *dev)
{
	kfree(dev);
}

static void unregister_child(void *dev)
{
	device_unregister(dev);
}

/* A device below @parent, for the walk to find through the driver model. */
static struct device *add_child(struct kunit *test, struct device *parent,
				const char *name)
{
	struct device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int error;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	device_initialize(dev);
	dev->parent = parent;
	dev->release = release_child;
	error = dev_set_name(dev, "%s", name) ?: device_add(dev);
	if (error) {
		put_device(dev);
		KUNIT_FAIL_AND_ABORT(test, "adding %s: %d", name, error);
	}
	error = kunit_add_action_or_reset(test, unregister_child, dev);
	KUNIT_ASSERT_EQ(test, error, 0);
	return dev;
}

/*
 * A KUnit device comes with a driver of its name, which a debug kernel
 * (CONFIG_DEBUG_KOBJECT_RELEASE) takes off the bus seconds late: each
 * test names its root devices after itself, so that the next can register
 * its own.
 */
static const char *root_name(struct kunit *test, const char *name)
{
	size_t len = strlen(test->name) + strlen(name) + 2;
	char *unique = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, unique);
	snprintf(unique, len, "%s-%s", test->name, name);
	return unique;
}

static int replug_walk_test_init(struct kunit *test)
{
	struct walk_fixture *f;
	int i, parent;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	for (i = 0; i < NR_DEVS; i++) {
		parent = parent_index[i];
		if (parent < 0)
			f->devs[i] = kunit_device_register(test,
							   root_name(test, dev_names[i]));
		else
			f->devs[i] = add_child(test, f->devs[parent], dev_names[i]);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->devs[i]);
		dev_set_drvdata(f->devs[i], f);
		f->waits_for[i] = -1;
		init_completion(&f->unplug_started[i]);
	}
	pm_intent_init_suspend(&f->intent, PM_SUSPEND_MEM, PM_INTENT_TEST_NONE);
	f->fail_unplug_at = -1;
	return 0;
}

static void make_async(struct walk_fixture *f)
{
	int i;

	for (i = 0; i < NR_DEVS; i++)
		device_enable_async_suspend(f->devs[i]);
}

/* Run the walk afresh; drop the references it took on the way out. */
static int run_walk(struct kunit *test, bool async)
{
	struct walk_fixture *f = test->priv;
	int error, i;

	atomic_set(&f->nr_unplugged, 0);
	atomic_set(&f->nr_removed, 0);
	for (i = 0; i < NR_DEVS; i++)
		reinit_completion(&f->unplug_started[i]);
	f->walk = (struct replug_walk) {
		.intent = &f->intent,
		.unit_of = fake_unit_of,
		.unplug = fake_unplug,
		.remove = fake_remove,
		.notified = f->notified,
		.async = async,
		.watchdog_ms = f->watchdog_ms,
	};
	error = replug_walk_devices(&f->walk, f->devs, NR_DEVS);
	for (i = 0; i < f->walk.nr_notified; i++)
		put_device(f->notified[i]);
	return error;
}

static int nr_unplugged(struct walk_fixture *f)
{
	return atomic_read(&f->nr_unplugged);
}

static int nr_removed(struct walk_fixture *f)
{
	return atomic_read(&f->nr_removed);
}

static void expect_indices(struct kunit *test, const int *got, int nr_got,
			   const int *want, int nr_want, const char *what)
{
	int i;

	KUNIT_ASSERT_EQ_MSG(test, nr_got, nr_want, "%s: count", what);
	for (i = 0; i < nr_want; i++)
		KUNIT_EXPECT_STREQ_MSG(test, dev_names[got[i]], dev_names[want[i]],
				       "%s: position %d", what, i);
}

static void replug_walk_order_test(struct kunit *test)
{
	static const int unplug_order[] = { C, B1, B, A2, A1, A };
	static const int removal_order[] = { B, A };
	struct walk_fixture *f = test->priv;

	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	expect_indices(test, f->unplugged, nr_unplugged(f), unplug_order,
		       ARRAY_SIZE(unplug_order), "unplug");
	expect_indices(test, f->removed, nr_removed(f), removal_order,
		       ARRAY_SIZE(removal_order), "removal");
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
	KUNIT_EXPECT_EQ(test, nr_unplugged(f) - nr_removed(f), 4);
}

/*
 * ->remove() takes no intent: the devices of a unit that goes must still
 * find it through dev_pm_intent(), and no device may keep it afterwards.
 */
static void replug_walk_intent_reaches_removal_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;
	int i;

	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	for (i = 0; i < NR_DEVS; i++) {
		if (unit_of_index[i] >= 0)
			KUNIT_EXPECT_PTR_EQ_MSG(test, f->intent_at_removal[i],
						&f->intent, "%s", dev_names[i]);
		KUNIT_EXPECT_NULL_MSG(test, dev_pm_intent(f->devs[i]),
				      "%s after the walk", dev_names[i]);
	}
}

/* After a refusal in a parallel walk, no device may keep the intent either. */
static void replug_walk_intent_cleared_after_refusal_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;
	int i;

	make_async(f);
	f->answer[A2] = -EBUSY;
	KUNIT_ASSERT_EQ(test, run_walk(test, true), -EBUSY);
	for (i = 0; i < NR_DEVS; i++)
		KUNIT_EXPECT_NULL_MSG(test, dev_pm_intent(f->devs[i]),
				      "%s after the walk", dev_names[i]);
}

static void replug_walk_kept_child_pins_unit_test(struct kunit *test)
{
	static const int removal_order[] = { B };
	struct walk_fixture *f = test->priv;

	f->devs[A1]->power.replug_policy = PM_REPLUG_KEEP;
	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	KUNIT_EXPECT_EQ(test, nr_unplugged(f), NR_DEVS);
	expect_indices(test, f->removed, nr_removed(f), removal_order,
		       ARRAY_SIZE(removal_order), "removal");
	KUNIT_EXPECT_EQ(test, f->walk.removed, 1);
}

static void replug_walk_kept_unit_test(struct kunit *test)
{
	static const int removal_order[] = { A };
	struct walk_fixture *f = test->priv;

	f->devs[B]->power.replug_policy = PM_REPLUG_KEEP;
	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	expect_indices(test, f->removed, nr_removed(f), removal_order,
		       ARRAY_SIZE(removal_order), "removal");
}

static void replug_walk_remove_policy_is_no_pin_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->devs[A1]->power.replug_policy = PM_REPLUG_REMOVE;
	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
}

/*
 * A refusal at any position stops the walk there: nothing after it is
 * offered the intent, and only the units finished before it are gone.
 */
static void replug_walk_stops_at_refusal_test(struct kunit *test)
{
	/* Units finished before each call: B is removed at call 2. */
	static const int removed_before[NR_DEVS] = { 0, 0, 0, 1, 1, 1 };
	struct walk_fixture *f = test->priv;
	int k;

	for (k = 0; k < NR_DEVS; k++) {
		f->fail_unplug_at = k;
		KUNIT_EXPECT_EQ_MSG(test, run_walk(test, false), -EBUSY, "refusal at %d", k);
		KUNIT_EXPECT_EQ_MSG(test, nr_unplugged(f), k + 1,
				    "refusal at %d: devices offered", k);
		KUNIT_EXPECT_EQ_MSG(test, f->walk.removed, removed_before[k],
				    "refusal at %d: units removed", k);
		KUNIT_EXPECT_EQ_MSG(test, nr_removed(f), removed_before[k],
				    "refusal at %d: removals", k);
		/* Everyone offered the intent and still here, refuser included. */
		KUNIT_EXPECT_EQ_MSG(test, f->walk.nr_notified,
				    k + 1 - removed_before[k],
				    "refusal at %d: devices to tell it is off", k);
	}
}

static void replug_walk_stops_at_removal_failure_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->fail_remove = true;
	KUNIT_EXPECT_EQ(test, run_walk(test, false), -ENOMEM);
	/* C, B1, then B whose removal failed: all still here, all told. */
	KUNIT_EXPECT_EQ(test, nr_unplugged(f), 3);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 0);
	KUNIT_EXPECT_EQ(test, f->walk.nr_notified, 3);
}

/*
 * A device still in ->unplug() when the watchdog fires is named; once it
 * returns, the walk stops with -ETIMEDOUT and the device hears it is off.
 */
static void replug_walk_watchdog_calls_off_late_unplug_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->slow[B1] = true;
	f->watchdog_ms = SLOW_MS / 5;
	KUNIT_EXPECT_EQ(test, run_walk(test, false), -ETIMEDOUT);
	/* C, then B1, which came back too late: nothing after it. */
	KUNIT_EXPECT_EQ(test, nr_unplugged(f), 2);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 0);
	KUNIT_EXPECT_EQ(test, f->walk.nr_notified, 2);
}

/* A removal that outlives the watchdog is done, counted, and calls the rest off. */
static void replug_walk_watchdog_calls_off_late_removal_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->slow_remove = true;
	f->watchdog_ms = SLOW_MS / 5;
	KUNIT_EXPECT_EQ(test, run_walk(test, false), -ETIMEDOUT);
	/* C, B1, then B, whose unit went late: A's side is never offered. */
	KUNIT_EXPECT_EQ(test, nr_unplugged(f), 3);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 1);
	KUNIT_EXPECT_EQ(test, nr_removed(f), 1);
}

/* Slow but within the limit, or with the watchdog off: no harm done. */
static void replug_walk_watchdog_spares_slow_devices_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->slow[B1] = true;
	f->slow_remove = true;
	f->watchdog_ms = SLOW_MS * 20;
	KUNIT_EXPECT_EQ(test, run_walk(test, false), 0);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
	f->watchdog_ms = 0;
	KUNIT_EXPECT_EQ(test, run_walk(test, true), 0);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
}

/* A driver that answers with a positive value keeps its unit in place. */
static void replug_walk_driver_stays_test(struct kunit *test)
{
	static const int removal_order[] = { B };
	struct walk_fixture *f = test->priv;

	f->answer[A2] = 1;
	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	KUNIT_EXPECT_EQ(test, nr_unplugged(f), NR_DEVS);
	expect_indices(test, f->removed, nr_removed(f), removal_order,
		       ARRAY_SIZE(removal_order), "removal");
}

/* ... unless the user's policy says remove. */
static void replug_walk_remove_policy_beats_driver_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->answer[A2] = 1;
	f->devs[A2]->power.replug_policy = PM_REPLUG_REMOVE;
	KUNIT_ASSERT_EQ(test, run_walk(test, false), 0);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
}

static void expect_before(struct kunit *test, int first, int then)
{
	struct walk_fixture *f = test->priv;

	KUNIT_EXPECT_LT_MSG(test, f->finished[first], f->started[then],
			    "%s must be done with before %s starts",
			    dev_names[first], dev_names[then]);
}

/* In parallel, a parent still waits for every child, however slow. */
static void replug_walk_async_children_first_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	make_async(f);
	f->slow[A1] = true;
	f->slow[A2] = true;
	f->slow[B1] = true;
	KUNIT_ASSERT_EQ(test, run_walk(test, true), 0);
	KUNIT_EXPECT_EQ(test, nr_unplugged(f), NR_DEVS);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
	expect_before(test, A1, A);
	expect_before(test, A2, A);
	expect_before(test, B1, B);
}

/* Independent subtrees go at once: B1 can only finish if A2 starts. */
static void replug_walk_async_is_parallel_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	make_async(f);
	f->waits_for[B1] = A2;
	KUNIT_ASSERT_EQ(test, run_walk(test, true), 0);
	KUNIT_EXPECT_FALSE_MSG(test, f->handshake_timed_out,
			       "B1 waited for A2 in vain: the walk is serial");
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
}

/* The same devices without async_suspend go one by one. */
static void replug_walk_async_needs_device_opt_in_test(struct kunit *test)
{
	static const int unplug_order[] = { C, B1, B, A2, A1, A };
	struct walk_fixture *f = test->priv;

	f->slow[B1] = true;
	KUNIT_ASSERT_EQ(test, run_walk(test, true), 0);
	expect_indices(test, f->unplugged, nr_unplugged(f), unplug_order,
		       ARRAY_SIZE(unplug_order), "unplug");
	expect_before(test, B1, A2);
}

/* A supplier waits for its consumers, wherever they are in the tree. */
static void replug_walk_async_consumers_first_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;
	struct device_link *link;

	link = device_link_add(f->devs[C], f->devs[A1], DL_FLAG_STATELESS);
	KUNIT_ASSERT_NOT_NULL(test, link);
	make_async(f);
	f->slow[C] = true;
	KUNIT_EXPECT_EQ(test, run_walk(test, true), 0);
	device_link_del(link);
	expect_before(test, C, A1);
	expect_before(test, A1, A);
}

static bool unit_removed(struct walk_fixture *f, int unit)
{
	int i;

	for (i = 0; i < nr_removed(f); i++)
		if (f->removed[i] == unit)
			return true;
	return false;
}

static bool notified(struct walk_fixture *f, int index)
{
	size_t i;

	for (i = 0; i < f->walk.nr_notified; i++)
		if (f->walk.notified[i] == f->devs[index])
			return true;
	return false;
}

/*
 * A refusal in parallel stops every device not yet started; whatever was
 * offered the intent is either removed with its unit or told it is off.
 * Which units went before the refusal depends on the interleaving: a
 * child told before its unit went is on the list too, and is skipped
 * when the list is told, as it is no longer registered.
 */
static void replug_walk_async_refusal_loses_nothing_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;
	int i, dev, unit;

	make_async(f);
	f->answer[B1] = -EBUSY;
	KUNIT_EXPECT_EQ(test, run_walk(test, true), -EBUSY);
	for (i = 0; i < nr_unplugged(f); i++) {
		dev = f->unplugged[i];
		unit = unit_of_index[dev];
		KUNIT_EXPECT_NE_MSG(test, dev, B,
				    "B offered the intent after its child refused");
		KUNIT_EXPECT_TRUE_MSG(test, (unit >= 0 && unit_removed(f, unit)) ||
				      notified(f, dev),
				      "%s offered the intent, then neither removed nor told",
				      dev_names[dev]);
	}
}

static struct kunit_case replug_walk_test_cases[] = {
	KUNIT_CASE(replug_walk_order_test),
	KUNIT_CASE(replug_walk_intent_reaches_removal_test),
	KUNIT_CASE(replug_walk_intent_cleared_after_refusal_test),
	KUNIT_CASE(replug_walk_kept_child_pins_unit_test),
	KUNIT_CASE(replug_walk_kept_unit_test),
	KUNIT_CASE(replug_walk_remove_policy_is_no_pin_test),
	KUNIT_CASE(replug_walk_stops_at_refusal_test),
	KUNIT_CASE(replug_walk_stops_at_removal_failure_test),
	KUNIT_CASE(replug_walk_driver_stays_test),
	KUNIT_CASE(replug_walk_remove_policy_beats_driver_test),
	KUNIT_CASE(replug_walk_async_children_first_test),
	KUNIT_CASE(replug_walk_async_is_parallel_test),
	KUNIT_CASE(replug_walk_async_needs_device_opt_in_test),
	KUNIT_CASE(replug_walk_async_consumers_first_test),
	KUNIT_CASE(replug_walk_async_refusal_loses_nothing_test),
	KUNIT_CASE_SLOW(replug_walk_watchdog_calls_off_late_unplug_test),
	KUNIT_CASE_SLOW(replug_walk_watchdog_calls_off_late_removal_test),
	KUNIT_CASE_SLOW(replug_walk_watchdog_spares_slow_devices_test),
	{}
};

static struct kunit_suite replug_walk_test_suite = {
	.name = "replug_walk",
	.init = replug_walk_test_init,
	.test_cases = replug_walk_test_cases,
};

/* Writes that every knob must refuse. */
static const char * const bad_words[] = {
	"", "\n", "kee", "keep now", "KEEP", " keep", "keep\n\n", "replug2",
};

static ssize_t store_str(struct device_attribute *attr, struct device *dev,
			 const char *buf)
{
	return attr->store(dev, attr, buf, strlen(buf));
}

static char *show_str(struct kunit *test, struct device_attribute *attr,
		      struct device *dev)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_GT(test, attr->show(dev, attr, buf), 0);
	return buf;
}

static struct device_attribute *policy_attr(struct kunit *test)
{
	struct attribute *attr = pm_replug_attr_group.attrs[0];

	KUNIT_ASSERT_NOT_NULL(test, attr);
	KUNIT_ASSERT_STREQ(test, attr->name, "replug");
	return container_of(attr, struct device_attribute, attr);
}

static void replug_sysfs_policy_test(struct kunit *test)
{
	struct device *dev = kunit_device_register(test, "policy");
	struct device_attribute *attr = policy_attr(test);
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_EXPECT_STREQ(test, show_str(test, attr, dev), "auto\n");
	KUNIT_EXPECT_EQ(test, store_str(attr, dev, "keep\n"), 5);
	KUNIT_EXPECT_STREQ(test, show_str(test, attr, dev), "keep\n");
	KUNIT_EXPECT_EQ(test, store_str(attr, dev, "auto"), 4);
	KUNIT_EXPECT_EQ(test, dev->power.replug_policy, PM_REPLUG_AUTO);
	KUNIT_EXPECT_EQ(test, store_str(attr, dev, "keep"), 4);

	/* Not a PCI function: nothing could find it again once removed. */
	KUNIT_EXPECT_EQ(test, store_str(attr, dev, "remove\n"), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad_words); i++)
		KUNIT_EXPECT_EQ_MSG(test, store_str(attr, dev, bad_words[i]),
				    -EINVAL, "\"%s\"", bad_words[i]);
	KUNIT_EXPECT_STREQ(test, show_str(test, attr, dev), "keep\n");
}

static struct kobj_attribute *power_knob(struct kunit *test, const char *name)
{
	struct attribute **attr;

	for (attr = replug_power_group.attrs; *attr; attr++)
		if (!strcmp((*attr)->name, name))
			return container_of(*attr, struct kobj_attribute, attr);
	KUNIT_FAIL_AND_ABORT(test, "no /sys/power/replug/%s", name);
	return NULL;
}

static ssize_t knob_store(struct kobj_attribute *knob, const char *buf)
{
	return knob->store(NULL, knob, buf, strlen(buf));
}

static char *knob_show(struct kunit *test, struct kobj_attribute *knob)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_GT(test, knob->show(NULL, knob, buf), 0);
	return buf;
}

static void expect_knob_rejects_bad_words(struct kunit *test,
					  struct kobj_attribute *knob)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_words); i++)
		KUNIT_EXPECT_EQ_MSG(test, knob_store(knob, bad_words[i]), -EINVAL,
				    "%s: \"%s\"", knob->attr.name, bad_words[i]);
}

struct saved_knob {
	struct kobj_attribute *knob;
	const char *word;
};

static void restore_knob(void *data)
{
	struct saved_knob *saved = data;

	knob_store(saved->knob, saved->word);
}

/* The tests switch modes: put back the one the system had, whatever happens. */
static struct kobj_attribute *save_mode(struct kunit *test)
{
	struct saved_knob *saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, saved);
	saved->knob = power_knob(test, "mode");
	saved->word = strcmp(knob_show(test, saved->knob), "classic [replug]\n") ?
		      "classic" : "replug";
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_knob, saved), 0);
	return saved->knob;
}

static void replug_sysfs_mode_test(struct kunit *test)
{
	struct kobj_attribute *mode = save_mode(test);

	KUNIT_EXPECT_EQ(test, knob_store(mode, "classic\n"), 8);
	KUNIT_EXPECT_STREQ(test, knob_show(test, mode), "[classic] replug\n");
	KUNIT_EXPECT_EQ(test, knob_store(mode, "replug"), 6);
	KUNIT_EXPECT_STREQ(test, knob_show(test, mode), "classic [replug]\n");
	expect_knob_rejects_bad_words(test, mode);
	KUNIT_EXPECT_STREQ(test, knob_show(test, mode), "classic [replug]\n");
}

static void replug_sysfs_announce_test(struct kunit *test)
{
	struct kobj_attribute *mode = save_mode(test);
	struct kobj_attribute *announce = power_knob(test, "announce");
	char *before;

	/* In classic mode, replug would not take part: nothing to announce. */
	KUNIT_ASSERT_EQ(test, knob_store(mode, "classic"), 7);
	before = knob_show(test, announce);
	KUNIT_EXPECT_EQ(test, knob_store(announce, "deep\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, knob_store(announce, "s2idle"), -EINVAL);

	/* Not a suspend state replug takes part in, in either mode. */
	KUNIT_ASSERT_EQ(test, knob_store(mode, "replug"), 6);
	expect_knob_rejects_bad_words(test, announce);
	KUNIT_EXPECT_EQ(test, knob_store(announce, "mem"), -EINVAL);
	KUNIT_EXPECT_EQ(test, knob_store(announce, "disk"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, knob_show(test, announce), before);
}

static void replug_sysfs_dry_run_test(struct kunit *test)
{
	struct kobj_attribute *mode = save_mode(test);
	struct kobj_attribute *dry_run = power_knob(test, "dry_run");
	struct kobj_attribute *cycle = power_knob(test, "cycle");
	char *cycle_before = knob_show(test, cycle);

	KUNIT_EXPECT_STREQ(test, knob_show(test, dry_run),
			   "poweroff halt reboot kexec\n");
	/* In classic mode there is no walk to rehearse with. */
	KUNIT_ASSERT_EQ(test, knob_store(mode, "classic"), 7);
	KUNIT_EXPECT_EQ(test, knob_store(dry_run, "poweroff\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, knob_store(dry_run, "kexec"), -EINVAL);

	/* Only what ends this kernel; never a suspend or a hibernation. */
	KUNIT_ASSERT_EQ(test, knob_store(mode, "replug"), 6);
	expect_knob_rejects_bad_words(test, dry_run);
	KUNIT_EXPECT_EQ(test, knob_store(dry_run, "suspend"), -EINVAL);
	KUNIT_EXPECT_EQ(test, knob_store(dry_run, "restore-handoff"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, knob_show(test, cycle), cycle_before);
}

static void replug_sysfs_counters_are_read_only_test(struct kunit *test)
{
	static const char * const counters[] = { "cycle", "removed", "kept" };
	int i;

	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		struct kobj_attribute *knob = power_knob(test, counters[i]);

		KUNIT_EXPECT_NULL_MSG(test, knob->store, "%s", counters[i]);
		KUNIT_EXPECT_EQ_MSG(test, knob->attr.mode & 0222, 0, "%s",
				    counters[i]);
	}
}

/* The knob called @name, set back to its value when the test ends. */
static struct kobj_attribute *save_knob(struct kunit *test, const char *name)
{
	struct saved_knob *saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, saved);
	saved->knob = power_knob(test, name);
	saved->word = knob_show(test, saved->knob);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_knob,
							saved), 0);
	return saved->knob;
}

static void replug_sysfs_watchdog_ms_test(struct kunit *test)
{
	static const char * const out_of_range[] = {
		"-1", "600001", "4294967296", "99999999999999999999", "1.5", "0x10",
	};
	struct kobj_attribute *watchdog = save_knob(test, "watchdog_ms");
	int i;

	KUNIT_EXPECT_EQ(test, knob_store(watchdog, "250\n"), 4);
	KUNIT_EXPECT_STREQ(test, knob_show(test, watchdog), "250\n");
	KUNIT_EXPECT_EQ(test, knob_store(watchdog, "0"), 1);
	KUNIT_EXPECT_STREQ(test, knob_show(test, watchdog), "0\n");
	KUNIT_EXPECT_EQ(test, knob_store(watchdog, "600000"), 6);
	expect_knob_rejects_bad_words(test, watchdog);
	for (i = 0; i < ARRAY_SIZE(out_of_range); i++)
		KUNIT_EXPECT_EQ_MSG(test, knob_store(watchdog, out_of_range[i]),
				    -EINVAL, "\"%s\"", out_of_range[i]);
	KUNIT_EXPECT_STREQ(test, knob_show(test, watchdog), "600000\n");
}

/* Whether a call of @ms, watched on @dev, outlives the watchdog. */
static bool watched_call_outlives(struct device *dev, unsigned int ms)
{
	struct pm_replug_watchdog wd;

	pm_replug_watchdog_start(&wd, dev, "a watched call");
	msleep(ms);
	return pm_replug_watchdog_stop(&wd);
}

/*
 * Outside the walk, the watchdog only names: a call that outlives the
 * knob says so, one within it or with the knob at 0 does not, and nor
 * does one that waits for no device.
 */
static void replug_sysfs_watchdog_names_slow_calls_test(struct kunit *test)
{
	struct kobj_attribute *watchdog = save_knob(test, "watchdog_ms");
	struct device *disk = kunit_device_register(test, "watched-disk");

	KUNIT_ASSERT_FALSE(test, IS_ERR(disk));
	KUNIT_ASSERT_EQ(test, knob_store(watchdog, "20"), 2);
	KUNIT_EXPECT_TRUE(test, watched_call_outlives(disk, SLOW_MS));
	KUNIT_EXPECT_FALSE(test, watched_call_outlives(NULL, SLOW_MS));
	KUNIT_ASSERT_EQ(test, knob_store(watchdog, "10000"), 5);
	KUNIT_EXPECT_FALSE(test, watched_call_outlives(disk, SLOW_MS));
	KUNIT_ASSERT_EQ(test, knob_store(watchdog, "0"), 1);
	KUNIT_EXPECT_FALSE(test, watched_call_outlives(disk, SLOW_MS));
}

static struct kunit_case replug_sysfs_test_cases[] = {
	KUNIT_CASE(replug_sysfs_policy_test),
	KUNIT_CASE(replug_sysfs_mode_test),
	KUNIT_CASE(replug_sysfs_announce_test),
	KUNIT_CASE(replug_sysfs_dry_run_test),
	KUNIT_CASE(replug_sysfs_counters_are_read_only_test),
	KUNIT_CASE(replug_sysfs_watchdog_ms_test),
	KUNIT_CASE_SLOW(replug_sysfs_watchdog_names_slow_calls_test),
	{}
};

static struct kunit_suite replug_sysfs_test_suite = {
	.name = "replug_sysfs",
	.test_cases = replug_sysfs_test_cases,
};

kunit_test_suites(&replug_walk_test_suite, &replug_sysfs_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the replug walk");
MODULE_LICENSE("GPL");
