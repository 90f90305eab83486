// SPDX-License-Identifier: GPL-2.0
/*
 * System intent for device power transitions (replug).
 *
 * The consequences of a transition for the hardware (is power lost, does
 * firmware run, does this kernel come back) are derived here, in one
 * place, so that no driver has to work them out from globals and every
 * driver gets the same answer.
 */
#include <kunit/visibility.h>
#include <linux/array_size.h>
#include <linux/bug.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kobject.h>
#include <linux/pm/intent.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "../base.h"

static const char * const pm_transition_names[] = {
	[PM_TRANSITION_SUSPEND]		= "suspend",
	[PM_TRANSITION_HIBERNATE]	= "hibernate",
	[PM_TRANSITION_POWEROFF]	= "poweroff",
	[PM_TRANSITION_HALT]		= "halt",
	[PM_TRANSITION_REBOOT]		= "reboot",
	[PM_TRANSITION_KEXEC]		= "kexec",
	[PM_TRANSITION_RESTORE_HANDOFF]	= "restore-handoff",
};

static_assert(ARRAY_SIZE(pm_transition_names) == PM_TRANSITION_COUNT);

static const char * const pm_hibernate_phase_names[] = {
	[PM_HIBERNATE_NONE]	= "none",
	[PM_HIBERNATE_FREEZE]	= "freeze",
	[PM_HIBERNATE_THAW]	= "thaw",
	[PM_HIBERNATE_POWEROFF]	= "poweroff",
	[PM_HIBERNATE_RESTORE]	= "restore",
	[PM_HIBERNATE_WAKE]	= "wake",
	[PM_HIBERNATE_RECOVER]	= "recover",
};

static_assert(ARRAY_SIZE(pm_hibernate_phase_names) == PM_HIBERNATE_PHASE_COUNT);

/* The spelling of /sys/power/disk. */
static const char * const pm_hibernate_mode_names[] = {
	[PM_HIBERNATE_MODE_PLATFORM]	= "platform",
	[PM_HIBERNATE_MODE_SHUTDOWN]	= "shutdown",
	[PM_HIBERNATE_MODE_REBOOT]	= "reboot",
	[PM_HIBERNATE_MODE_SUSPEND]	= "suspend",
	[PM_HIBERNATE_MODE_TEST_RESUME]	= "test_resume",
};

static_assert(ARRAY_SIZE(pm_hibernate_mode_names) == PM_HIBERNATE_MODE_COUNT);

/* The spelling of /sys/power/pm_test. */
static const char * const pm_intent_test_names[] = {
	[PM_INTENT_TEST_NONE]		= "none",
	[PM_INTENT_TEST_CORE]		= "core",
	[PM_INTENT_TEST_PROCESSORS]	= "processors",
	[PM_INTENT_TEST_PLATFORM]	= "platform",
	[PM_INTENT_TEST_DEVICES]	= "devices",
	[PM_INTENT_TEST_FREEZER]	= "freezer",
};

static_assert(ARRAY_SIZE(pm_intent_test_names) == PM_INTENT_TEST_COUNT);

static const char *name_of(const char * const *names, size_t count,
			   unsigned int index)
{
	return index < count ? names[index] : "invalid";
}

/**
 * pm_transition_name - the name of a transition, as put in uevents
 * @transition: the transition.
 *
 * Return: a static string, "invalid" for a value out of range.
 */
const char *pm_transition_name(enum pm_transition transition)
{
	return name_of(pm_transition_names, ARRAY_SIZE(pm_transition_names),
		       transition);
}
EXPORT_SYMBOL_GPL(pm_transition_name);

/**
 * pm_hibernate_phase_name - the name of a hibernation phase
 * @phase: the phase.
 *
 * Return: a static string, "invalid" for a value out of range.
 */
const char *pm_hibernate_phase_name(enum pm_hibernate_phase phase)
{
	return name_of(pm_hibernate_phase_names,
		       ARRAY_SIZE(pm_hibernate_phase_names), phase);
}
EXPORT_SYMBOL_GPL(pm_hibernate_phase_name);

/**
 * pm_hibernate_mode_name - the name of a hibernation mode
 * @mode: the mode.
 *
 * Return: the name /sys/power/disk uses, "invalid" for a value out of range.
 */
const char *pm_hibernate_mode_name(enum pm_hibernate_mode mode)
{
	return name_of(pm_hibernate_mode_names,
		       ARRAY_SIZE(pm_hibernate_mode_names), mode);
}
EXPORT_SYMBOL_GPL(pm_hibernate_mode_name);

/**
 * pm_intent_test_name - the name of a pm_test level
 * @test: the level.
 *
 * Return: the name /sys/power/pm_test uses, "invalid" for a value out of
 * range.
 */
const char *pm_intent_test_name(enum pm_intent_test test)
{
	return name_of(pm_intent_test_names, ARRAY_SIZE(pm_intent_test_names),
		       test);
}
EXPORT_SYMBOL_GPL(pm_intent_test_name);

/**
 * pm_intent_suspend_state_name - the name of a suspend target state
 * @state: the state.
 *
 * Return: the name /sys/power/mem_sleep uses ("s2idle", "shallow",
 * "deep"), "on" for %PM_SUSPEND_ON and "invalid" for anything else.
 */
const char *pm_intent_suspend_state_name(suspend_state_t state)
{
	switch (state) {
	case PM_SUSPEND_ON:
		return "on";
	case PM_SUSPEND_TO_IDLE:
		return "s2idle";
	case PM_SUSPEND_STANDBY:
		return "shallow";
	case PM_SUSPEND_MEM:
		return "deep";
	default:
		return "invalid";
	}
}
EXPORT_SYMBOL_GPL(pm_intent_suspend_state_name);

/*
 * Below PM_INTENT_TEST_DEVICES the suspend reaches the noirq phase, which
 * is where wakeup interrupts are armed.
 */
static bool pm_test_arms_wakeup(enum pm_intent_test test)
{
	return test < PM_INTENT_TEST_DEVICES;
}

/**
 * pm_intent_init_suspend - describe a system suspend
 * @intent: the intent to fill in.
 * @state: the target state, %PM_SUSPEND_TO_IDLE to %PM_SUSPEND_MEM.
 * @test: the pm_test level in force.
 *
 * Only suspend to RAM cuts power to devices and runs firmware on resume;
 * suspend to idle and standby keep the platform powered.  Under a pm_test
 * level the system never really sleeps, so nothing is lost.
 */
void pm_intent_init_suspend(struct pm_intent *intent, suspend_state_t state,
			    enum pm_intent_test test)
{
	bool sleeps = test == PM_INTENT_TEST_NONE;

	*intent = (struct pm_intent) {
		.transition = PM_TRANSITION_SUSPEND,
		.suspend_state = state,
		.hibernate_phase = PM_HIBERNATE_NONE,
		.test = test,
		.power_lost = sleeps && state == PM_SUSPEND_MEM,
		.firmware_reinit = sleeps && state == PM_SUSPEND_MEM,
		.kernel_resumes = true,
		.wakeup_armed = pm_test_arms_wakeup(test),
	};
}
EXPORT_SYMBOL_GPL(pm_intent_init_suspend);

static bool hibernate_mode_loses_power(enum pm_hibernate_mode mode)
{
	return mode == PM_HIBERNATE_MODE_PLATFORM ||
	       mode == PM_HIBERNATE_MODE_SHUTDOWN ||
	       mode == PM_HIBERNATE_MODE_SUSPEND;
}

static bool hibernate_mode_arms_wakeup(enum pm_hibernate_mode mode)
{
	return mode == PM_HIBERNATE_MODE_PLATFORM ||
	       mode == PM_HIBERNATE_MODE_SUSPEND;
}

/**
 * pm_intent_init_hibernate - describe one phase of a hibernation
 * @intent: the intent to fill in.
 * @phase: the phase, not %PM_HIBERNATE_NONE.
 * @mode: how the system goes down once the image is written.
 * @test: the pm_test level in force.
 *
 * The freeze, thaw and recover phases happen with the machine running.
 * Power-off ends the way @mode says: a reboot keeps power but runs
 * firmware, test_resume does neither.  The restore phase follows whatever
 * power-off did, which the restored kernel cannot know, so it assumes the
 * worst; so does the wake from the sleep of suspend mode, which may have
 * been suspend to RAM.  In every phase the kernel that wrote the image is
 * the one that comes back.
 */
void pm_intent_init_hibernate(struct pm_intent *intent,
			      enum pm_hibernate_phase phase,
			      enum pm_hibernate_mode mode,
			      enum pm_intent_test test)
{
	bool goes_down = test == PM_INTENT_TEST_NONE &&
			 mode != PM_HIBERNATE_MODE_TEST_RESUME;

	*intent = (struct pm_intent) {
		.transition = PM_TRANSITION_HIBERNATE,
		.suspend_state = PM_SUSPEND_ON,
		.hibernate_phase = phase,
		.hibernate_mode = mode,
		.test = test,
		.kernel_resumes = true,
	};

	switch (phase) {
	case PM_HIBERNATE_POWEROFF:
		intent->power_lost = goes_down && hibernate_mode_loses_power(mode);
		intent->firmware_reinit = goes_down;
		intent->wakeup_armed = pm_test_arms_wakeup(test) &&
				       hibernate_mode_arms_wakeup(mode);
		break;
	case PM_HIBERNATE_RESTORE:
	case PM_HIBERNATE_WAKE:
		intent->power_lost = goes_down;
		intent->firmware_reinit = goes_down;
		break;
	default:
		break;
	}
}
EXPORT_SYMBOL_GPL(pm_intent_init_hibernate);

/**
 * pm_intent_init_system - describe a transition that ends this kernel
 * @intent: the intent to fill in.
 * @transition: %PM_TRANSITION_POWEROFF, %PM_TRANSITION_HALT,
 *	%PM_TRANSITION_REBOOT, %PM_TRANSITION_KEXEC or
 *	%PM_TRANSITION_RESTORE_HANDOFF.
 * @test: %PM_INTENT_TEST_NONE, or the level a rehearsal of @transition
 *	stops at (/sys/power/replug/dry_run uses %PM_INTENT_TEST_DEVICES).
 *
 * None of these come back to this kernel.  Only power-off is sure to cut
 * power; halt and reboot leave it to the platform.  Firmware runs before
 * the next kernel except on kexec and on the handoff to a hibernation
 * image, where the next kernel finds the devices as this one left them.
 * A rehearsal loses nothing and this kernel goes on, as under a pm_test
 * level for suspend: @transition says what is rehearsed, the consequences
 * say what really happens.
 *
 * Return: 0, or -EINVAL (and @intent untouched) for a suspend or
 * hibernation, which have their own initialisers.
 */
int pm_intent_init_system(struct pm_intent *intent,
			  enum pm_transition transition,
			  enum pm_intent_test test)
{
	bool goes_down = test == PM_INTENT_TEST_NONE;
	bool firmware_runs;

	switch (transition) {
	case PM_TRANSITION_POWEROFF:
	case PM_TRANSITION_HALT:
	case PM_TRANSITION_REBOOT:
		firmware_runs = true;
		break;
	case PM_TRANSITION_KEXEC:
	case PM_TRANSITION_RESTORE_HANDOFF:
		firmware_runs = false;
		break;
	default:
		return -EINVAL;
	}

	*intent = (struct pm_intent) {
		.transition = transition,
		.suspend_state = PM_SUSPEND_ON,
		.hibernate_phase = PM_HIBERNATE_NONE,
		.test = test,
		.power_lost = goes_down && transition == PM_TRANSITION_POWEROFF,
		.firmware_reinit = goes_down && firmware_runs,
		.kernel_resumes = !goes_down,
	};
	return 0;
}
EXPORT_SYMBOL_GPL(pm_intent_init_system);

/**
 * pm_intent_add_uevent_vars - put an intent into a uevent's environment
 * @intent: the intent.
 * @env: the environment being built.
 *
 * Adds PM_TRANSITION, PM_SUSPEND_STATE (suspend only), PM_HIBERNATE_PHASE
 * and PM_HIBERNATE_MODE (hibernation only), PM_TEST, PM_POWER_LOST,
 * PM_FIRMWARE_REINIT, PM_KERNEL_RESUMES, PM_WAKEUP_ARMED and PM_CYCLE.
 * Every value is a fixed keyword or a number, so rules can match them
 * without quoting.
 *
 * Return: 0, or -ENOMEM when @env is full.
 */
int pm_intent_add_uevent_vars(const struct pm_intent *intent,
			      struct kobj_uevent_env *env)
{
	int ret;

	ret = add_uevent_var(env, "PM_TRANSITION=%s",
			     pm_transition_name(intent->transition));
	if (!ret && intent->transition == PM_TRANSITION_SUSPEND)
		ret = add_uevent_var(env, "PM_SUSPEND_STATE=%s",
				     pm_intent_suspend_state_name(intent->suspend_state));
	if (!ret && intent->transition == PM_TRANSITION_HIBERNATE)
		ret = add_uevent_var(env, "PM_HIBERNATE_PHASE=%s",
				     pm_hibernate_phase_name(intent->hibernate_phase)) ?:
		      add_uevent_var(env, "PM_HIBERNATE_MODE=%s",
				     pm_hibernate_mode_name(intent->hibernate_mode));
	if (ret)
		return ret;

	return add_uevent_var(env, "PM_TEST=%s",
			      pm_intent_test_name(intent->test)) ?:
	       add_uevent_var(env, "PM_POWER_LOST=%d", intent->power_lost) ?:
	       add_uevent_var(env, "PM_FIRMWARE_REINIT=%d",
			      intent->firmware_reinit) ?:
	       add_uevent_var(env, "PM_KERNEL_RESUMES=%d",
			      intent->kernel_resumes) ?:
	       add_uevent_var(env, "PM_WAKEUP_ARMED=%d", intent->wakeup_armed) ?:
	       add_uevent_var(env, "PM_CYCLE=%llu", intent->cycle);
}
EXPORT_SYMBOL_GPL(pm_intent_add_uevent_vars);

/**
 * pm_intent_set_devices - say which transition the next callbacks serve
 * @intent: the intent of the phase about to start, or NULL once the
 *	transition is over.
 *
 * The classic dev_pm_ops callbacks and ->shutdown() learn no more than a
 * pm_message_t, if that.  The PM core calls this before each phase of a
 * suspend or hibernation, and device_shutdown() before the first
 * ->shutdown(), so that dev_pm_intent() answers in ->suspend(),
 * ->freeze(), ->thaw(), ->poweroff(), ->restore() and ->shutdown() as it
 * does in ->unplug(): a driver can base its decisions on the intent before
 * it moves to replug, and a device replug keeps in place sees the same
 * intent as those it takes away.
 *
 * Every registered device is set, not only those on dpm_list, which a
 * transition empties as it moves devices from one phase's list to the
 * next.
 *
 * Context: any context that may take a spinlock, between two device
 * phases.  @intent must stay valid until the next call.
 */
void pm_intent_set_devices(const struct pm_intent *intent)
{
	struct device *dev;

	spin_lock(&devices_kset->list_lock);
	list_for_each_entry(dev, &devices_kset->list, kobj.entry)
		WRITE_ONCE(dev->power.intent, intent);
	spin_unlock(&devices_kset->list_lock);
}
EXPORT_SYMBOL_IF_KUNIT(pm_intent_set_devices);
