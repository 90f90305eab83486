// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the system intent: what each transition tells a driver.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/kobject.h>
#include <linux/pm/intent.h>
#include <linux/slab.h>
#include <linux/string.h>

struct intent_expectation {
	const char *name;
	bool power_lost;
	bool firmware_reinit;
	bool kernel_resumes;
	bool wakeup_armed;
};

static void expect_consequences(struct kunit *test,
				const struct pm_intent *intent,
				const struct intent_expectation *want)
{
	KUNIT_EXPECT_EQ_MSG(test, intent->power_lost, want->power_lost,
			    "%s: power_lost", want->name);
	KUNIT_EXPECT_EQ_MSG(test, intent->firmware_reinit,
			    want->firmware_reinit, "%s: firmware_reinit",
			    want->name);
	KUNIT_EXPECT_EQ_MSG(test, intent->kernel_resumes, want->kernel_resumes,
			    "%s: kernel_resumes", want->name);
	KUNIT_EXPECT_EQ_MSG(test, intent->wakeup_armed, want->wakeup_armed,
			    "%s: wakeup_armed", want->name);
}

struct suspend_case {
	suspend_state_t state;
	enum pm_intent_test level;
	struct intent_expectation want;
};

static const struct suspend_case suspend_cases[] = {
	{ PM_SUSPEND_TO_IDLE, PM_INTENT_TEST_NONE,
	  { "s2idle", false, false, true, true } },
	{ PM_SUSPEND_STANDBY, PM_INTENT_TEST_NONE,
	  { "shallow", false, false, true, true } },
	{ PM_SUSPEND_MEM, PM_INTENT_TEST_NONE,
	  { "deep", true, true, true, true } },
	{ PM_SUSPEND_MEM, PM_INTENT_TEST_CORE,
	  { "deep/core", false, false, true, true } },
	{ PM_SUSPEND_MEM, PM_INTENT_TEST_PLATFORM,
	  { "deep/platform", false, false, true, true } },
	{ PM_SUSPEND_MEM, PM_INTENT_TEST_DEVICES,
	  { "deep/devices", false, false, true, false } },
	{ PM_SUSPEND_TO_IDLE, PM_INTENT_TEST_FREEZER,
	  { "s2idle/freezer", false, false, true, false } },
};

static void pm_intent_suspend_test(struct kunit *test)
{
	const struct suspend_case *c;
	struct pm_intent intent;

	for (c = suspend_cases; c < suspend_cases + ARRAY_SIZE(suspend_cases); c++) {
		memset(&intent, 0xa5, sizeof(intent));
		pm_intent_init_suspend(&intent, c->state, c->level);

		KUNIT_EXPECT_EQ(test, intent.transition, PM_TRANSITION_SUSPEND);
		KUNIT_EXPECT_EQ(test, (int __force)intent.suspend_state,
				(int __force)c->state);
		KUNIT_EXPECT_EQ(test, intent.hibernate_phase, PM_HIBERNATE_NONE);
		KUNIT_EXPECT_EQ(test, intent.test, c->level);
		KUNIT_EXPECT_EQ(test, intent.cycle, 0);
		KUNIT_EXPECT_EQ(test, pm_intent_is_test(&intent),
				c->level != PM_INTENT_TEST_NONE);
		expect_consequences(test, &intent, &c->want);
	}
}

struct hibernate_case {
	enum pm_hibernate_phase phase;
	enum pm_hibernate_mode mode;
	enum pm_intent_test level;
	struct intent_expectation want;
};

static const struct hibernate_case hibernate_cases[] = {
	{ PM_HIBERNATE_FREEZE, PM_HIBERNATE_MODE_PLATFORM, PM_INTENT_TEST_NONE,
	  { "freeze", false, false, true, false } },
	{ PM_HIBERNATE_THAW, PM_HIBERNATE_MODE_PLATFORM, PM_INTENT_TEST_NONE,
	  { "thaw", false, false, true, false } },
	{ PM_HIBERNATE_RECOVER, PM_HIBERNATE_MODE_SHUTDOWN, PM_INTENT_TEST_NONE,
	  { "recover", false, false, true, false } },
	{ PM_HIBERNATE_WAKE, PM_HIBERNATE_MODE_SUSPEND, PM_INTENT_TEST_NONE,
	  { "wake", true, true, true, false } },
	{ PM_HIBERNATE_WAKE, PM_HIBERNATE_MODE_SUSPEND, PM_INTENT_TEST_DEVICES,
	  { "wake/test", false, false, true, false } },
	{ PM_HIBERNATE_POWEROFF, PM_HIBERNATE_MODE_PLATFORM, PM_INTENT_TEST_NONE,
	  { "poweroff/platform", true, true, true, true } },
	{ PM_HIBERNATE_POWEROFF, PM_HIBERNATE_MODE_SHUTDOWN, PM_INTENT_TEST_NONE,
	  { "poweroff/shutdown", true, true, true, false } },
	{ PM_HIBERNATE_POWEROFF, PM_HIBERNATE_MODE_REBOOT, PM_INTENT_TEST_NONE,
	  { "poweroff/reboot", false, true, true, false } },
	{ PM_HIBERNATE_POWEROFF, PM_HIBERNATE_MODE_SUSPEND, PM_INTENT_TEST_NONE,
	  { "poweroff/suspend", true, true, true, true } },
	{ PM_HIBERNATE_POWEROFF, PM_HIBERNATE_MODE_TEST_RESUME,
	  PM_INTENT_TEST_NONE,
	  { "poweroff/test_resume", false, false, true, false } },
	{ PM_HIBERNATE_POWEROFF, PM_HIBERNATE_MODE_PLATFORM,
	  PM_INTENT_TEST_DEVICES,
	  { "poweroff/platform/devices", false, false, true, false } },
	{ PM_HIBERNATE_RESTORE, PM_HIBERNATE_MODE_SHUTDOWN, PM_INTENT_TEST_NONE,
	  { "restore", true, true, true, false } },
	{ PM_HIBERNATE_RESTORE, PM_HIBERNATE_MODE_TEST_RESUME,
	  PM_INTENT_TEST_NONE,
	  { "restore/test_resume", false, false, true, false } },
};

static void pm_intent_hibernate_test(struct kunit *test)
{
	const struct hibernate_case *c;
	struct pm_intent intent;

	for (c = hibernate_cases;
	     c < hibernate_cases + ARRAY_SIZE(hibernate_cases); c++) {
		memset(&intent, 0xa5, sizeof(intent));
		pm_intent_init_hibernate(&intent, c->phase, c->mode, c->level);

		KUNIT_EXPECT_EQ(test, intent.transition, PM_TRANSITION_HIBERNATE);
		KUNIT_EXPECT_EQ(test, (int __force)intent.suspend_state,
				(int __force)PM_SUSPEND_ON);
		KUNIT_EXPECT_EQ(test, intent.hibernate_phase, c->phase);
		KUNIT_EXPECT_EQ(test, intent.hibernate_mode, c->mode);
		KUNIT_EXPECT_EQ(test, intent.test, c->level);
		expect_consequences(test, &intent, &c->want);
	}
}

struct system_case {
	enum pm_transition transition;
	struct intent_expectation want;
};

static const struct system_case system_cases[] = {
	{ PM_TRANSITION_POWEROFF, { "poweroff", true, true, false, false } },
	{ PM_TRANSITION_HALT, { "halt", false, true, false, false } },
	{ PM_TRANSITION_REBOOT, { "reboot", false, true, false, false } },
	{ PM_TRANSITION_KEXEC, { "kexec", false, false, false, false } },
	{ PM_TRANSITION_RESTORE_HANDOFF,
	  { "restore-handoff", false, false, false, false } },
};

static void pm_intent_system_test(struct kunit *test)
{
	const struct system_case *c;
	struct pm_intent intent;

	for (c = system_cases; c < system_cases + ARRAY_SIZE(system_cases); c++) {
		memset(&intent, 0xa5, sizeof(intent));
		KUNIT_ASSERT_EQ(test, pm_intent_init_system(&intent, c->transition,
							    PM_INTENT_TEST_NONE), 0);

		KUNIT_EXPECT_EQ(test, intent.transition, c->transition);
		KUNIT_EXPECT_EQ(test, intent.hibernate_phase, PM_HIBERNATE_NONE);
		KUNIT_EXPECT_FALSE(test, pm_intent_is_test(&intent));
		expect_consequences(test, &intent, &c->want);
	}
}

/* A rehearsal names the transition, loses nothing, and this kernel goes on. */
static void pm_intent_system_rehearsal_test(struct kunit *test)
{
	const struct system_case *c;
	struct pm_intent intent;

	for (c = system_cases; c < system_cases + ARRAY_SIZE(system_cases); c++) {
		KUNIT_ASSERT_EQ(test, pm_intent_init_system(&intent, c->transition,
							    PM_INTENT_TEST_DEVICES), 0);
		KUNIT_EXPECT_EQ(test, intent.transition, c->transition);
		KUNIT_EXPECT_TRUE(test, pm_intent_is_test(&intent));
		KUNIT_EXPECT_FALSE_MSG(test, intent.power_lost, "%s", c->want.name);
		KUNIT_EXPECT_FALSE_MSG(test, intent.firmware_reinit, "%s", c->want.name);
		KUNIT_EXPECT_TRUE_MSG(test, intent.kernel_resumes, "%s", c->want.name);
		KUNIT_EXPECT_FALSE_MSG(test, pm_intent_hands_over(&intent), "%s",
				       c->want.name);
	}
}

/* Only a kexec and the handoff to an image leave devices to the next kernel as they are. */
static void pm_intent_hands_over_test(struct kunit *test)
{
	const struct system_case *c;
	struct pm_intent intent;

	KUNIT_EXPECT_FALSE(test, pm_intent_hands_over(NULL));
	for (c = system_cases; c < system_cases + ARRAY_SIZE(system_cases); c++) {
		KUNIT_ASSERT_EQ(test, pm_intent_init_system(&intent, c->transition,
							    PM_INTENT_TEST_NONE), 0);
		KUNIT_EXPECT_EQ_MSG(test, pm_intent_hands_over(&intent),
				    c->transition == PM_TRANSITION_KEXEC ||
				    c->transition == PM_TRANSITION_RESTORE_HANDOFF,
				    "%s", c->want.name);
	}
	pm_intent_init_suspend(&intent, PM_SUSPEND_TO_IDLE, PM_INTENT_TEST_NONE);
	KUNIT_EXPECT_FALSE(test, pm_intent_hands_over(&intent));
}

/* A reboot, a kexec, an image handoff and a hibernation in reboot mode start again at once. */
static void pm_intent_restarts_test(struct kunit *test)
{
	const struct system_case *c;
	enum pm_hibernate_mode mode;
	struct pm_intent intent;

	for (c = system_cases; c < system_cases + ARRAY_SIZE(system_cases); c++) {
		KUNIT_ASSERT_EQ(test, pm_intent_init_system(&intent, c->transition,
							    PM_INTENT_TEST_NONE), 0);
		KUNIT_EXPECT_EQ_MSG(test, pm_intent_restarts(&intent),
				    c->transition == PM_TRANSITION_REBOOT ||
				    c->transition == PM_TRANSITION_KEXEC ||
				    c->transition == PM_TRANSITION_RESTORE_HANDOFF,
				    "%s", c->want.name);
	}
	for (mode = 0; mode < PM_HIBERNATE_MODE_COUNT; mode++) {
		pm_intent_init_hibernate(&intent, PM_HIBERNATE_POWEROFF, mode,
					 PM_INTENT_TEST_NONE);
		KUNIT_EXPECT_EQ_MSG(test, pm_intent_restarts(&intent),
				    mode == PM_HIBERNATE_MODE_REBOOT, "%s",
				    pm_hibernate_mode_name(mode));
	}
	pm_intent_init_hibernate(&intent, PM_HIBERNATE_FREEZE,
				 PM_HIBERNATE_MODE_REBOOT, PM_INTENT_TEST_NONE);
	KUNIT_EXPECT_FALSE(test, pm_intent_restarts(&intent));
	pm_intent_init_suspend(&intent, PM_SUSPEND_MEM, PM_INTENT_TEST_NONE);
	KUNIT_EXPECT_FALSE(test, pm_intent_restarts(&intent));
}

/*
 * The classic callbacks of a registered device find the phase's intent.
 * Every device sees the intents for a moment, so they are not on the stack.
 */
static void pm_intent_set_devices_test(struct kunit *test)
{
	static struct pm_intent freeze, thaw;
	struct device *dev;

	dev = kunit_device_register(test, "pm_intent_dpm_set");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_EXPECT_NULL(test, dev_pm_intent(dev));

	pm_intent_init_hibernate(&freeze, PM_HIBERNATE_FREEZE,
				 PM_HIBERNATE_MODE_SHUTDOWN, PM_INTENT_TEST_NONE);
	pm_intent_init_hibernate(&thaw, PM_HIBERNATE_THAW,
				 PM_HIBERNATE_MODE_SHUTDOWN, PM_INTENT_TEST_NONE);
	pm_intent_set_devices(&freeze);
	KUNIT_EXPECT_PTR_EQ(test, dev_pm_intent(dev), &freeze);
	pm_intent_set_devices(&thaw);
	KUNIT_EXPECT_PTR_EQ(test, dev_pm_intent(dev), &thaw);
	pm_intent_set_devices(NULL);
	KUNIT_EXPECT_NULL(test, dev_pm_intent(dev));
}

static void pm_intent_system_rejects_sleep_test(struct kunit *test)
{
	static const enum pm_transition sleeps[] = {
		PM_TRANSITION_SUSPEND, PM_TRANSITION_HIBERNATE,
		PM_TRANSITION_COUNT, (enum pm_transition)-1,
	};
	struct pm_intent intent, untouched;
	int i;

	memset(&untouched, 0x5a, sizeof(untouched));
	for (i = 0; i < ARRAY_SIZE(sleeps); i++) {
		intent = untouched;
		KUNIT_EXPECT_EQ(test, pm_intent_init_system(&intent, sleeps[i],
							    PM_INTENT_TEST_NONE),
				-EINVAL);
		KUNIT_EXPECT_MEMEQ(test, &intent, &untouched, sizeof(intent));
	}
}

static void pm_intent_names_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, pm_transition_name(PM_TRANSITION_KEXEC), "kexec");
	KUNIT_EXPECT_STREQ(test, pm_transition_name(PM_TRANSITION_RESTORE_HANDOFF),
			   "restore-handoff");
	KUNIT_EXPECT_STREQ(test, pm_transition_name(PM_TRANSITION_COUNT), "invalid");
	KUNIT_EXPECT_STREQ(test, pm_hibernate_phase_name(PM_HIBERNATE_RECOVER),
			   "recover");
	KUNIT_EXPECT_STREQ(test, pm_hibernate_phase_name(PM_HIBERNATE_PHASE_COUNT),
			   "invalid");
	KUNIT_EXPECT_STREQ(test, pm_hibernate_mode_name(PM_HIBERNATE_MODE_TEST_RESUME),
			   "test_resume");
	KUNIT_EXPECT_STREQ(test, pm_intent_test_name(PM_INTENT_TEST_DEVICES),
			   "devices");
	KUNIT_EXPECT_STREQ(test, pm_intent_test_name(PM_INTENT_TEST_COUNT), "invalid");
	KUNIT_EXPECT_STREQ(test, pm_intent_suspend_state_name(PM_SUSPEND_TO_IDLE),
			   "s2idle");
	KUNIT_EXPECT_STREQ(test, pm_intent_suspend_state_name(PM_SUSPEND_STANDBY),
			   "shallow");
	KUNIT_EXPECT_STREQ(test, pm_intent_suspend_state_name(PM_SUSPEND_MEM), "deep");
	KUNIT_EXPECT_STREQ(test, pm_intent_suspend_state_name(PM_SUSPEND_MAX),
			   "invalid");
}

static struct kobj_uevent_env *alloc_env(struct kunit *test)
{
	struct kobj_uevent_env *env;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	return env;
}

static void expect_env(struct kunit *test, struct kobj_uevent_env *env,
		       const char * const *want, int count)
{
	int i;

	KUNIT_ASSERT_EQ(test, env->envp_idx, count);
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_STREQ(test, env->envp[i], want[i]);
}

static void pm_intent_uevent_suspend_test(struct kunit *test)
{
	static const char * const want[] = {
		"PM_TRANSITION=suspend", "PM_SUSPEND_STATE=deep", "PM_TEST=none",
		"PM_POWER_LOST=1", "PM_FIRMWARE_REINIT=1", "PM_KERNEL_RESUMES=1",
		"PM_WAKEUP_ARMED=1", "PM_CYCLE=42",
	};
	struct kobj_uevent_env *env = alloc_env(test);
	struct pm_intent intent;

	pm_intent_init_suspend(&intent, PM_SUSPEND_MEM, PM_INTENT_TEST_NONE);
	intent.cycle = 42;
	KUNIT_ASSERT_EQ(test, pm_intent_add_uevent_vars(&intent, env), 0);
	expect_env(test, env, want, ARRAY_SIZE(want));
}

static void pm_intent_uevent_hibernate_test(struct kunit *test)
{
	static const char * const want[] = {
		"PM_TRANSITION=hibernate", "PM_HIBERNATE_PHASE=poweroff",
		"PM_HIBERNATE_MODE=reboot", "PM_TEST=none", "PM_POWER_LOST=0",
		"PM_FIRMWARE_REINIT=1", "PM_KERNEL_RESUMES=1",
		"PM_WAKEUP_ARMED=0", "PM_CYCLE=0",
	};
	struct kobj_uevent_env *env = alloc_env(test);
	struct pm_intent intent;

	pm_intent_init_hibernate(&intent, PM_HIBERNATE_POWEROFF,
				 PM_HIBERNATE_MODE_REBOOT, PM_INTENT_TEST_NONE);
	KUNIT_ASSERT_EQ(test, pm_intent_add_uevent_vars(&intent, env), 0);
	expect_env(test, env, want, ARRAY_SIZE(want));
}

static struct kunit_case pm_intent_test_cases[] = {
	KUNIT_CASE(pm_intent_suspend_test),
	KUNIT_CASE(pm_intent_hibernate_test),
	KUNIT_CASE(pm_intent_system_test),
	KUNIT_CASE(pm_intent_system_rehearsal_test),
	KUNIT_CASE(pm_intent_hands_over_test),
	KUNIT_CASE(pm_intent_restarts_test),
	KUNIT_CASE(pm_intent_set_devices_test),
	KUNIT_CASE(pm_intent_system_rejects_sleep_test),
	KUNIT_CASE(pm_intent_names_test),
	KUNIT_CASE(pm_intent_uevent_suspend_test),
	KUNIT_CASE(pm_intent_uevent_hibernate_test),
	{}
};

static struct kunit_suite pm_intent_test_suite = {
	.name = "pm_intent",
	.test_cases = pm_intent_test_cases,
};

kunit_test_suite(pm_intent_test_suite);

MODULE_DESCRIPTION("KUnit tests for the replug system intent");
MODULE_LICENSE("GPL");
