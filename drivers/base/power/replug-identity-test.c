// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for replug's identities: matching what comes back against
 * what went (the same hardware in its place, other hardware there, a place
 * nothing left), and the fingerprints a device leaves: where it sits,
 * across the renaming of the devices around it, and who it is.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/pm/replug.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "replug.h"

#define PLACE_A		0x1111
#define PLACE_B		0x2222
#define DISK_1		0xd1
#define DISK_2		0xd2

static void departures_cleanup(void *set)
{
	replug_departures_release(set, NULL);
}

static struct replug_departures *departures(struct kunit *test)
{
	struct replug_departures *set = kunit_kzalloc(test, sizeof(*set),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, set);
	replug_departures_init(set);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, departures_cleanup,
							set), 0);
	return set;
}

static void replug_identity_same_place_same_hardware_test(struct kunit *test)
{
	struct replug_departures *set = departures(test);

	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_1), 0);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_1),
			PM_REPLUG_IDENTITY_SAME);
}

static void replug_identity_same_place_other_hardware_test(struct kunit *test)
{
	struct replug_departures *set = departures(test);

	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_1), 0);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_2),
			PM_REPLUG_IDENTITY_CHANGED);
}

/* The same hardware found in another place is new there. */
static void replug_identity_other_place_is_new_test(struct kunit *test)
{
	struct replug_departures *set = departures(test);

	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_1), 0);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_B, DISK_1),
			PM_REPLUG_IDENTITY_NEW);
}

/* One device that went answers for one that comes back, not two. */
static void replug_identity_is_used_up_test(struct kunit *test)
{
	struct replug_departures *set = departures(test);

	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_1), 0);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_1),
			PM_REPLUG_IDENTITY_SAME);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_1),
			PM_REPLUG_IDENTITY_NEW);
}

/*
 * Two like places (two disks behind one controller): each disk finds
 * its own record, whichever comes back first, and the one that took the
 * other's place is changed only once the same-hardware records are used.
 */
static void replug_identity_like_places_find_their_own_test(struct kunit *test)
{
	struct replug_departures *set = departures(test);

	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_1), 0);
	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_2), 0);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_2),
			PM_REPLUG_IDENTITY_SAME);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_1),
			PM_REPLUG_IDENTITY_SAME);
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_1),
			PM_REPLUG_IDENTITY_NEW);
}

/* The tally says how the cycle went, and what never came back is gone. */
static void replug_identity_tally_test(struct kunit *test)
{
	struct replug_departures *set = departures(test);
	unsigned int tally[PM_REPLUG_IDENTITY_CHANGED + 1];

	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_A, DISK_1), 0);
	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_B, DISK_2), 0);
	KUNIT_ASSERT_EQ(test, replug_departures_add(set, PLACE_B + 1, DISK_2), 0);
	replug_departures_match(set, PLACE_A, DISK_1);
	replug_departures_match(set, PLACE_B, DISK_1);
	replug_departures_match(set, PLACE_B + 2, DISK_1);
	replug_departures_release(set, tally);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_SAME], 1);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_CHANGED], 1);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_NEW], 1);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_NONE], 1);
	/* Released: nothing is found any more, and nothing is counted twice. */
	KUNIT_EXPECT_EQ(test, replug_departures_match(set, PLACE_A, DISK_1),
			PM_REPLUG_IDENTITY_NEW);
	replug_departures_release(set, tally);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_SAME], 0);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_NEW], 1);
	KUNIT_EXPECT_EQ(test, tally[PM_REPLUG_IDENTITY_NONE], 0);
}

/*
 * Devices of a made-up bus: @where and @what are what the test's
 * identifier says of them, NULL for a device it does not know.
 */
struct id_dev {
	struct device dev;
	const char *where;
	const char *what;
	bool absolute;
	bool in_cycle;
};

#define to_id_dev(d) container_of_const(d, struct id_dev, dev)

static void id_dev_release(struct device *dev)
{
	kfree(to_id_dev(dev));
}

static bool id_owns(const struct device *dev)
{
	return dev->release == id_dev_release && to_id_dev(dev)->where;
}

static bool id_where(const struct device *dev, char *buf, size_t len)
{
	strscpy(buf, to_id_dev(dev)->where, len);
	return to_id_dev(dev)->absolute;
}

static void id_what(const struct device *dev, char *buf, size_t len)
{
	strscpy(buf, to_id_dev(dev)->what, len);
}

static struct pm_replug_identifier id_identifier = {
	.name	= "kunit",
	.owns	= id_owns,
	.where	= id_where,
	.what	= id_what,
};

static bool id_in_cycle(const struct device *dev, const void *data)
{
	return dev->release == id_dev_release && to_id_dev(dev)->in_cycle;
}

static void id_dev_unregister(void *dev)
{
	device_unregister(dev);
}

/* A bus of their own for devices found below another bus's device. */
static const struct bus_type id_bus = {
	.name = "replug-id-kunit",
};

/* @where NULL: a device nothing identifies, in the cycle or not. */
static struct id_dev *id_dev_add_on(struct kunit *test,
				    const struct bus_type *bus,
				    struct id_dev *parent, const char *name,
				    const char *where, const char *what,
				    bool in_cycle)
{
	struct id_dev *idev = kzalloc(sizeof(*idev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, idev);
	idev->where = where;
	idev->what = what;
	idev->in_cycle = in_cycle;
	device_initialize(&idev->dev);
	idev->dev.bus = bus;
	idev->dev.release = id_dev_release;
	idev->dev.parent = parent ? &parent->dev : NULL;
	if (dev_set_name(&idev->dev, "replug-id-%s", name) ||
	    device_add(&idev->dev)) {
		put_device(&idev->dev);
		KUNIT_FAIL_AND_ABORT(test, "cannot add %s", name);
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, id_dev_unregister,
							&idev->dev), 0);
	return idev;
}

static struct id_dev *id_dev_add(struct kunit *test, struct id_dev *parent,
				 const char *name, const char *where,
				 const char *what, bool in_cycle)
{
	return id_dev_add_on(test, NULL, parent, name, where, what, in_cycle);
}

static void id_identifier_unregister(void *identifier)
{
	pm_replug_unregister_identifier(identifier);
}

static int replug_identity_suite_init(struct kunit_suite *suite)
{
	return bus_register(&id_bus);
}

static void replug_identity_suite_exit(struct kunit_suite *suite)
{
	bus_unregister(&id_bus);
}

static int replug_identity_test_init(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, pm_replug_register_identifier(&id_identifier), 0);
	return kunit_add_action_or_reset(test, id_identifier_unregister,
					 &id_identifier);
}

struct fingerprint {
	u64 where;
	u64 what;
};

static struct fingerprint fingerprint_of(struct kunit *test, struct id_dev *idev)
{
	struct fingerprint fp;

	KUNIT_ASSERT_TRUE(test, replug_identify(&idev->dev, id_in_cycle, NULL,
						&fp.where, &fp.what));
	return fp;
}

/*
 * A disk behind a controller that came back under another name (host0
 * then host7) sits where it sat: the controller is named by its kind.
 */
static void replug_identity_where_survives_renaming_test(struct kunit *test)
{
	struct id_dev *stays = id_dev_add(test, NULL, "port", NULL, NULL, false);
	struct id_dev *host0 = id_dev_add(test, stays, "host0", NULL, NULL, true);
	struct id_dev *host7 = id_dev_add(test, stays, "host7", NULL, NULL, true);
	struct fingerprint went, back, other;

	went = fingerprint_of(test, id_dev_add(test, host0, "sda", "disk",
					       "100 sectors", true));
	back = fingerprint_of(test, id_dev_add(test, host7, "sdb", "disk",
					       "100 sectors", true));
	other = fingerprint_of(test, id_dev_add(test, host7, "sdc", "disk",
						"200 sectors", true));
	KUNIT_EXPECT_EQ(test, went.where, back.where);
	KUNIT_EXPECT_EQ(test, went.what, back.what);
	KUNIT_EXPECT_EQ(test, went.where, other.where);
	KUNIT_EXPECT_NE(test, went.what, other.what);
}

/* What stays keeps its name: a disk behind another port is elsewhere. */
static void replug_identity_where_names_what_stays_test(struct kunit *test)
{
	struct id_dev *port1 = id_dev_add(test, NULL, "port1", NULL, NULL, false);
	struct id_dev *port2 = id_dev_add(test, NULL, "port2", NULL, NULL, false);
	struct fingerprint one, two;

	one = fingerprint_of(test, id_dev_add(test, port1, "d1", "disk", "x", true));
	two = fingerprint_of(test, id_dev_add(test, port2, "d2", "disk", "x", true));
	KUNIT_EXPECT_NE(test, one.where, two.where);
	KUNIT_EXPECT_EQ(test, one.what, two.what);
}

/* A place named in the whole system needs no path to it. */
static void replug_identity_absolute_where_test(struct kunit *test)
{
	struct id_dev *port1 = id_dev_add(test, NULL, "a1", NULL, NULL, false);
	struct id_dev *port2 = id_dev_add(test, NULL, "a2", NULL, NULL, false);
	struct id_dev *fn1 = id_dev_add(test, port1, "fn1", NULL, NULL, true);
	struct id_dev *fn2 = id_dev_add(test, port2, "fn2", NULL, NULL, true);
	struct fingerprint one, two;

	fn1->where = "0000:01:00.0";
	fn2->where = "0000:01:00.0";
	fn1->absolute = true;
	fn2->absolute = true;
	fn1->what = "8086:10d3";
	fn2->what = "8086:10d3";
	one = fingerprint_of(test, id_dev_add(test, fn1, "n1", "port1", "sn", true));
	two = fingerprint_of(test, id_dev_add(test, fn2, "n2", "port1", "sn", true));
	KUNIT_EXPECT_EQ(test, one.where, two.where);
}

static void replug_identity_unknown_device_test(struct kunit *test)
{
	struct id_dev *anon = id_dev_add(test, NULL, "anon", NULL, NULL, true);
	u64 where = 0, what = 0;

	KUNIT_EXPECT_FALSE(test, replug_identify(&anon->dev, id_in_cycle, NULL,
						 &where, &what));
}

#define TEST_CYCLE	0x7e57

/* As replug tags a device of the re-enumeration, and matches it. */
static struct id_dev *id_dev_back(struct kunit *test, struct id_dev *parent,
				  const char *name, const char *where,
				  const char *what)
{
	struct id_dev *idev = id_dev_add(test, parent, name, where, what, true);

	idev->dev.power.replug_cycle = TEST_CYCLE;
	replug_identity_match(&idev->dev, TEST_CYCLE);
	return idev;
}

static enum pm_replug_identity identity_back(struct kunit *test,
					     struct id_dev *parent,
					     const char *name,
					     const char *where,
					     const char *what)
{
	return dev_pm_replug_identity(&id_dev_back(test, parent, name, where,
						   what)->dev);
}

static void identity_forget(void *unused)
{
	replug_identity_forget(0);
}

/*
 * Through the whole way: a unit and what hangs below it go, the unit
 * comes back the same and the stick behind it other hardware; a device
 * nothing identifies takes its parent's answer, and the same medium in
 * the other stick is not the same device.
 */
static void replug_identity_through_a_cycle_test(struct kunit *test)
{
	struct id_dev *stays = id_dev_add(test, NULL, "slot", NULL, NULL, false);
	struct id_dev *unit, *stick, *back, *stick2, *iface;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, identity_forget,
							NULL), 0);
	unit = id_dev_add(test, stays, "ctrl", "ctrl", "card 1", false);
	stick = id_dev_add(test, unit, "stick", "port 1", "stick A", false);
	id_dev_add(test, id_dev_add(test, stick, "if", NULL, NULL, false),
		   "medium", "disk", "8 GB", false);
	replug_identity_note(&unit->dev);

	back = id_dev_back(test, stays, "ctrl2", "ctrl", "card 1");
	KUNIT_EXPECT_EQ(test, dev_pm_replug_identity(&back->dev),
			PM_REPLUG_IDENTITY_SAME);
	stick2 = id_dev_back(test, back, "stick2", "port 1", "stick B");
	KUNIT_EXPECT_EQ(test, dev_pm_replug_identity(&stick2->dev),
			PM_REPLUG_IDENTITY_CHANGED);
	iface = id_dev_back(test, stick2, "if2", NULL, NULL);
	KUNIT_EXPECT_EQ(test, dev_pm_replug_identity(&iface->dev),
			PM_REPLUG_IDENTITY_CHANGED);
	KUNIT_EXPECT_EQ(test, identity_back(test, iface, "medium2", "disk", "8 GB"),
			PM_REPLUG_IDENTITY_CHANGED);
	KUNIT_EXPECT_EQ(test, identity_back(test, back, "stick3", "port 2",
					    "stick A"),
			PM_REPLUG_IDENTITY_NEW);
	KUNIT_EXPECT_EQ(test, identity_back(test, stays, "anon", NULL, NULL),
			PM_REPLUG_IDENTITY_NEW);
}

/* The same disk behind the same controller is the same. */
static void replug_identity_same_all_the_way_test(struct kunit *test)
{
	struct id_dev *stays = id_dev_add(test, NULL, "bay", NULL, NULL, false);
	struct id_dev *unit, *back, *host;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, identity_forget,
							NULL), 0);
	unit = id_dev_add(test, stays, "ahci", "ahci", "card", false);
	id_dev_add(test, id_dev_add(test, unit, "host0", NULL, NULL, false),
		   "sda", "disk", "100", false);
	replug_identity_note(&unit->dev);

	back = id_dev_back(test, stays, "ahci2", "ahci", "card");
	host = id_dev_back(test, back, "host5", NULL, NULL);
	KUNIT_EXPECT_EQ(test, dev_pm_replug_identity(&host->dev),
			PM_REPLUG_IDENTITY_SAME);
	KUNIT_EXPECT_EQ(test, identity_back(test, host, "sdb", "disk", "100"),
			PM_REPLUG_IDENTITY_SAME);
}

/*
 * Hardware of another bus below a device that came back the same is new
 * unless something identifies it: only its bus could tell a stick from
 * the one that went.
 */
static void replug_identity_other_bus_below_is_new_test(struct kunit *test)
{
	struct id_dev *stays = id_dev_add(test, NULL, "hub", NULL, NULL, false);
	struct id_dev *unit, *back, *stick;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, identity_forget,
							NULL), 0);
	unit = id_dev_add(test, stays, "xhci", "xhci", "card", false);
	id_dev_add_on(test, &id_bus, unit, "stick", NULL, NULL, false);
	replug_identity_note(&unit->dev);

	back = id_dev_back(test, stays, "xhci2", "xhci", "card");
	KUNIT_ASSERT_EQ(test, dev_pm_replug_identity(&back->dev),
			PM_REPLUG_IDENTITY_SAME);
	stick = id_dev_add_on(test, &id_bus, back, "stick2", NULL, NULL, true);
	stick->dev.power.replug_cycle = TEST_CYCLE;
	replug_identity_match(&stick->dev, TEST_CYCLE);
	KUNIT_EXPECT_EQ(test, dev_pm_replug_identity(&stick->dev),
			PM_REPLUG_IDENTITY_NEW);
	/* What belongs to the stick's own hardware goes with its answer. */
	KUNIT_EXPECT_EQ(test, identity_back(test, stick, "lun", NULL, NULL),
			PM_REPLUG_IDENTITY_NEW);
}

static void replug_identity_names_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, pm_replug_identity_name(PM_REPLUG_IDENTITY_SAME),
			   "same");
	KUNIT_EXPECT_STREQ(test, pm_replug_identity_name(PM_REPLUG_IDENTITY_CHANGED),
			   "changed");
	KUNIT_EXPECT_STREQ(test, pm_replug_identity_name(PM_REPLUG_IDENTITY_NEW),
			   "new");
	KUNIT_EXPECT_STREQ(test, pm_replug_identity_name(PM_REPLUG_IDENTITY_CHANGED + 1),
			   "none");
}

static struct kunit_case replug_identity_test_cases[] = {
	KUNIT_CASE(replug_identity_same_place_same_hardware_test),
	KUNIT_CASE(replug_identity_same_place_other_hardware_test),
	KUNIT_CASE(replug_identity_other_place_is_new_test),
	KUNIT_CASE(replug_identity_is_used_up_test),
	KUNIT_CASE(replug_identity_like_places_find_their_own_test),
	KUNIT_CASE(replug_identity_tally_test),
	KUNIT_CASE(replug_identity_where_survives_renaming_test),
	KUNIT_CASE(replug_identity_where_names_what_stays_test),
	KUNIT_CASE(replug_identity_absolute_where_test),
	KUNIT_CASE(replug_identity_unknown_device_test),
	KUNIT_CASE(replug_identity_through_a_cycle_test),
	KUNIT_CASE(replug_identity_same_all_the_way_test),
	KUNIT_CASE(replug_identity_other_bus_below_is_new_test),
	KUNIT_CASE(replug_identity_names_test),
	{}
};

static struct kunit_suite replug_identity_test_suite = {
	.name = "replug_identity",
	.suite_init = replug_identity_suite_init,
	.suite_exit = replug_identity_suite_exit,
	.init = replug_identity_test_init,
	.test_cases = replug_identity_test_cases,
};

kunit_test_suite(replug_identity_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for replug's identities");
MODULE_LICENSE("GPL");
