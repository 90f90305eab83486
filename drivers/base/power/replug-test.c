// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the replug walk: the order devices are offered the
 * intent in, which units go, which stay, and stopping on any failure.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/device.h>
#include <linux/pm/replug.h>

#include "replug.h"

/*
 * The test devices, in dpm_list order (parents first).  A and B are units
 * that can be removed and rediscovered, A1, A2 and B1 hang off them, and C
 * has no way to be rediscovered.  The walk must visit them backwards.
 */
enum { A, A1, A2, B, B1, C, NR_DEVS };

static const int unit_of_index[NR_DEVS] = {
	[A] = A, [A1] = A, [A2] = A, [B] = B, [B1] = B, [C] = -1,
};

static const char * const dev_names[NR_DEVS] = {
	[A] = "A", [A1] = "A1", [A2] = "A2", [B] = "B", [B1] = "B1", [C] = "C",
};

struct walk_fixture {
	struct device *devs[NR_DEVS];
	struct device *notified[NR_DEVS];
	int unplugged[NR_DEVS + 1];
	int nr_unplugged;
	int removed[NR_DEVS];
	int nr_removed;
	int fail_unplug_at;
	bool fail_remove;
	struct pm_intent intent;
	struct replug_walk walk;
};

static struct walk_fixture *fixture(void)
{
	return kunit_get_current_test()->priv;
}

static int index_of(struct device *dev)
{
	int i;

	for (i = 0; i < NR_DEVS; i++)
		if (fixture()->devs[i] == dev)
			return i;
	return -1;
}

static struct device *fake_unit_of(struct device *dev)
{
	int unit = unit_of_index[index_of(dev)];

	return unit < 0 ? NULL : fixture()->devs[unit];
}

static int fake_unplug(struct device *dev, const struct pm_intent *intent)
{
	struct walk_fixture *f = fixture();
	int call = f->nr_unplugged++;

	f->unplugged[call] = index_of(dev);
	return call == f->fail_unplug_at ? -EBUSY : 0;
}

static int fake_remove(struct device *unit, const struct pm_intent *intent)
{
	struct walk_fixture *f = fixture();

	if (f->fail_remove)
		return -ENOMEM;
	f->removed[f->nr_removed++] = index_of(unit);
	return 0;
}

static int replug_walk_test_init(struct kunit *test)
{
	struct walk_fixture *f;
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	for (i = 0; i < NR_DEVS; i++) {
		f->devs[i] = kunit_device_register(test, dev_names[i]);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f->devs[i]);
	}
	pm_intent_init_suspend(&f->intent, PM_SUSPEND_MEM, PM_INTENT_TEST_NONE);
	f->fail_unplug_at = -1;
	test->priv = f;
	return 0;
}

/* Run the walk afresh; drop the references it took on the way out. */
static int run_walk(struct kunit *test)
{
	struct walk_fixture *f = test->priv;
	int error, i;

	f->nr_unplugged = 0;
	f->nr_removed = 0;
	f->walk = (struct replug_walk) {
		.intent = &f->intent,
		.unit_of = fake_unit_of,
		.unplug = fake_unplug,
		.remove = fake_remove,
		.notified = f->notified,
	};
	error = replug_walk_devices(&f->walk, f->devs, NR_DEVS);
	for (i = 0; i < f->walk.nr_notified; i++)
		put_device(f->notified[i]);
	return error;
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

	KUNIT_ASSERT_EQ(test, run_walk(test), 0);
	expect_indices(test, f->unplugged, f->nr_unplugged, unplug_order,
		       ARRAY_SIZE(unplug_order), "unplug");
	expect_indices(test, f->removed, f->nr_removed, removal_order,
		       ARRAY_SIZE(removal_order), "removal");
	KUNIT_EXPECT_EQ(test, f->walk.removed, 2);
	KUNIT_EXPECT_EQ(test, f->nr_unplugged - f->nr_removed, 4);
}

static void replug_walk_kept_child_pins_unit_test(struct kunit *test)
{
	static const int removal_order[] = { B };
	struct walk_fixture *f = test->priv;

	f->devs[A1]->power.replug_policy = PM_REPLUG_KEEP;
	KUNIT_ASSERT_EQ(test, run_walk(test), 0);
	KUNIT_EXPECT_EQ(test, f->nr_unplugged, NR_DEVS);
	expect_indices(test, f->removed, f->nr_removed, removal_order,
		       ARRAY_SIZE(removal_order), "removal");
	KUNIT_EXPECT_EQ(test, f->walk.removed, 1);
}

static void replug_walk_kept_unit_test(struct kunit *test)
{
	static const int removal_order[] = { A };
	struct walk_fixture *f = test->priv;

	f->devs[B]->power.replug_policy = PM_REPLUG_KEEP;
	KUNIT_ASSERT_EQ(test, run_walk(test), 0);
	expect_indices(test, f->removed, f->nr_removed, removal_order,
		       ARRAY_SIZE(removal_order), "removal");
}

static void replug_walk_remove_policy_is_no_pin_test(struct kunit *test)
{
	struct walk_fixture *f = test->priv;

	f->devs[A1]->power.replug_policy = PM_REPLUG_REMOVE;
	KUNIT_ASSERT_EQ(test, run_walk(test), 0);
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
		KUNIT_EXPECT_EQ_MSG(test, run_walk(test), -EBUSY, "refusal at %d", k);
		KUNIT_EXPECT_EQ_MSG(test, f->nr_unplugged, k + 1,
				    "refusal at %d: devices offered", k);
		KUNIT_EXPECT_EQ_MSG(test, f->walk.removed, removed_before[k],
				    "refusal at %d: units removed", k);
		KUNIT_EXPECT_EQ_MSG(test, f->nr_removed, removed_before[k],
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
	KUNIT_EXPECT_EQ(test, run_walk(test), -ENOMEM);
	/* C, B1, then B whose removal failed. */
	KUNIT_EXPECT_EQ(test, f->nr_unplugged, 3);
	KUNIT_EXPECT_EQ(test, f->walk.removed, 0);
}

static struct kunit_case replug_walk_test_cases[] = {
	KUNIT_CASE(replug_walk_order_test),
	KUNIT_CASE(replug_walk_kept_child_pins_unit_test),
	KUNIT_CASE(replug_walk_kept_unit_test),
	KUNIT_CASE(replug_walk_remove_policy_is_no_pin_test),
	KUNIT_CASE(replug_walk_stops_at_refusal_test),
	KUNIT_CASE(replug_walk_stops_at_removal_failure_test),
	{}
};

static struct kunit_suite replug_walk_test_suite = {
	.name = "replug_walk",
	.init = replug_walk_test_init,
	.test_cases = replug_walk_test_cases,
};

kunit_test_suite(replug_walk_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for the replug walk");
MODULE_LICENSE("GPL");
