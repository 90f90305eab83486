/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System intent for device power transitions (replug).
 *
 * A driver that is told to let go of its device should not have to guess
 * from system_state or kexec_in_progress why.  struct pm_intent says it:
 * which transition the system is making and what follows from it for the
 * hardware.  It is passed as an argument, never read from a global.
 */
#ifndef _LINUX_PM_INTENT_H
#define _LINUX_PM_INTENT_H

#include <linux/device.h>
#include <linux/suspend.h>
#include <linux/types.h>

struct kobj_uevent_env;

/**
 * enum pm_transition - what the system as a whole is doing
 * @PM_TRANSITION_SUSPEND: system suspend; see &pm_intent.suspend_state.
 * @PM_TRANSITION_HIBERNATE: hibernation; see &pm_intent.hibernate_phase.
 * @PM_TRANSITION_POWEROFF: the machine is being powered off.
 * @PM_TRANSITION_HALT: the machine stops; power may stay on.
 * @PM_TRANSITION_REBOOT: the machine restarts through its firmware.
 * @PM_TRANSITION_KEXEC: another kernel takes over without the firmware.
 * @PM_TRANSITION_RESTORE_HANDOFF: the boot kernel hands the machine over
 *	to a hibernation image it has just loaded.
 * @PM_TRANSITION_COUNT: the number of transitions, not one of them.
 */
enum pm_transition {
	PM_TRANSITION_SUSPEND,
	PM_TRANSITION_HIBERNATE,
	PM_TRANSITION_POWEROFF,
	PM_TRANSITION_HALT,
	PM_TRANSITION_REBOOT,
	PM_TRANSITION_KEXEC,
	PM_TRANSITION_RESTORE_HANDOFF,
	PM_TRANSITION_COUNT
};

/**
 * enum pm_hibernate_phase - where a hibernation is
 * @PM_HIBERNATE_NONE: not hibernating.
 * @PM_HIBERNATE_FREEZE: quiescing devices so that a consistent image can
 *	be made; the same kernel goes on right after.
 * @PM_HIBERNATE_THAW: the image is made; devices come back to write it.
 * @PM_HIBERNATE_POWEROFF: the image is written; the system goes down in
 *	the way &pm_intent.hibernate_mode says.
 * @PM_HIBERNATE_RESTORE: the restored image kernel takes the devices back.
 * @PM_HIBERNATE_WAKE: the image is written and the system slept in RAM
 *	instead of powering off (suspend mode); it woke up, and this kernel
 *	goes on with its memory, the image no longer needed.
 * @PM_HIBERNATE_RECOVER: making or writing the image failed; the system
 *	runs on as if it had never tried.
 * @PM_HIBERNATE_PHASE_COUNT: the number of phases, not one of them.
 */
enum pm_hibernate_phase {
	PM_HIBERNATE_NONE,
	PM_HIBERNATE_FREEZE,
	PM_HIBERNATE_THAW,
	PM_HIBERNATE_POWEROFF,
	PM_HIBERNATE_RESTORE,
	PM_HIBERNATE_WAKE,
	PM_HIBERNATE_RECOVER,
	PM_HIBERNATE_PHASE_COUNT
};

/**
 * enum pm_hibernate_mode - how a hibernating system goes down once the
 *	image is saved, as set in /sys/power/disk
 * @PM_HIBERNATE_MODE_PLATFORM: the platform (ACPI S4) powers off.
 * @PM_HIBERNATE_MODE_SHUTDOWN: a plain power-off.
 * @PM_HIBERNATE_MODE_REBOOT: a reboot.
 * @PM_HIBERNATE_MODE_SUSPEND: suspend to RAM, image kept as a fallback.
 * @PM_HIBERNATE_MODE_TEST_RESUME: no power-off; the image is read back
 *	at once.
 * @PM_HIBERNATE_MODE_COUNT: the number of modes, not one of them.
 */
enum pm_hibernate_mode {
	PM_HIBERNATE_MODE_PLATFORM,
	PM_HIBERNATE_MODE_SHUTDOWN,
	PM_HIBERNATE_MODE_REBOOT,
	PM_HIBERNATE_MODE_SUSPEND,
	PM_HIBERNATE_MODE_TEST_RESUME,
	PM_HIBERNATE_MODE_COUNT
};

/**
 * enum pm_intent_test - the pm_test level in force (/sys/power/pm_test)
 * @PM_INTENT_TEST_NONE: a real transition.
 * @PM_INTENT_TEST_CORE: everything but the final platform call.
 * @PM_INTENT_TEST_PROCESSORS: up to taking non-boot CPUs down.
 * @PM_INTENT_TEST_PLATFORM: up to the platform's prepare callbacks.
 * @PM_INTENT_TEST_DEVICES: up to the devices; they are brought back after
 *	a pause.
 * @PM_INTENT_TEST_FREEZER: only the freezer runs.
 * @PM_INTENT_TEST_COUNT: the number of levels, not one of them.
 *
 * The order is that of the kernel's own pm_test levels.
 */
enum pm_intent_test {
	PM_INTENT_TEST_NONE,
	PM_INTENT_TEST_CORE,
	PM_INTENT_TEST_PROCESSORS,
	PM_INTENT_TEST_PLATFORM,
	PM_INTENT_TEST_DEVICES,
	PM_INTENT_TEST_FREEZER,
	PM_INTENT_TEST_COUNT
};

/**
 * struct pm_intent - why a device is being taken away, and what follows
 * @transition: what the system is doing.
 * @suspend_state: the target state of a %PM_TRANSITION_SUSPEND
 *	(%PM_SUSPEND_TO_IDLE, %PM_SUSPEND_STANDBY or %PM_SUSPEND_MEM),
 *	%PM_SUSPEND_ON otherwise.
 * @hibernate_phase: the phase of a %PM_TRANSITION_HIBERNATE,
 *	%PM_HIBERNATE_NONE otherwise.
 * @hibernate_mode: how a hibernation ends; meaningful only when
 *	@transition is %PM_TRANSITION_HIBERNATE.
 * @test: the pm_test level in force.  Anything but %PM_INTENT_TEST_NONE
 *	means the system will not really go down.
 * @power_lost: the device will lose power before it is used again.
 * @firmware_reinit: platform firmware runs, and may re-initialise the
 *	device, before the next kernel uses it.
 * @kernel_resumes: this kernel instance, with its memory, goes on using
 *	the hardware afterwards (false when another kernel takes over).
 * @wakeup_armed: the system arms its wakeup sources for this transition;
 *	whether a given device may wake it is device_may_wakeup().
 * @cycle: a count of replug cycles since boot, so that the removal and
 *	the re-enumeration of one transition can be matched.
 *
 * Fill one in with pm_intent_init_suspend() and its siblings, which
 * derive the consequences from the transition so that every driver sees
 * the same answers.
 */
struct pm_intent {
	enum pm_transition transition;
	suspend_state_t suspend_state;
	enum pm_hibernate_phase hibernate_phase;
	enum pm_hibernate_mode hibernate_mode;
	enum pm_intent_test test;
	bool power_lost;
	bool firmware_reinit;
	bool kernel_resumes;
	bool wakeup_armed;
	u64 cycle;
};

void pm_intent_init_suspend(struct pm_intent *intent, suspend_state_t state,
			    enum pm_intent_test test);
void pm_intent_init_hibernate(struct pm_intent *intent,
			      enum pm_hibernate_phase phase,
			      enum pm_hibernate_mode mode,
			      enum pm_intent_test test);
int pm_intent_init_system(struct pm_intent *intent,
			  enum pm_transition transition,
			  enum pm_intent_test test);

const char *pm_transition_name(enum pm_transition transition);
const char *pm_hibernate_phase_name(enum pm_hibernate_phase phase);
const char *pm_hibernate_mode_name(enum pm_hibernate_mode mode);
const char *pm_intent_test_name(enum pm_intent_test test);
const char *pm_intent_suspend_state_name(suspend_state_t state);

int pm_intent_add_uevent_vars(const struct pm_intent *intent,
			      struct kobj_uevent_env *env);

void pm_intent_set_devices(const struct pm_intent *intent);

#ifdef CONFIG_PM_SLEEP_DEBUG
enum pm_intent_test pm_test_intent_level(void);
#else
static inline enum pm_intent_test pm_test_intent_level(void)
{
	return PM_INTENT_TEST_NONE;
}
#endif

/**
 * pm_intent_is_test - will the system stay up despite the transition?
 * @intent: the intent to look at.
 *
 * Return: true when a pm_test level keeps the system from really going
 * down, so a driver may skip what only matters on real power loss.
 */
static inline bool pm_intent_is_test(const struct pm_intent *intent)
{
	return intent->test != PM_INTENT_TEST_NONE;
}

/**
 * pm_intent_hands_over - does another kernel take the devices as they are?
 * @intent: the intent to look at, or NULL outside a system transition.
 *
 * True for a kexec and for the boot kernel handing the machine over to a
 * hibernation image: no firmware runs in between to reset the hardware,
 * so a device left doing DMA would write into memory the next kernel
 * already owns.
 *
 * Return: whether the next kernel finds the devices as they are left.
 */
static inline bool pm_intent_hands_over(const struct pm_intent *intent)
{
	return intent && !intent->kernel_resumes && !intent->firmware_reinit;
}

/**
 * pm_intent_restarts - is the machine started again right away?
 * @intent: the intent to look at.
 *
 * True for a reboot, a kexec, the handoff to a hibernation image and the
 * end of a hibernation in reboot mode: the next kernel wants the hardware
 * at once, so parking it (spinning a disk down, say) only costs time.
 * Unlike @intent->power_lost this tells a reboot from a halt, which may
 * keep power on just as well but leaves the machine stopped.
 *
 * Return: whether a kernel takes the hardware over as soon as this
 * transition ends.
 */
static inline bool pm_intent_restarts(const struct pm_intent *intent)
{
	switch (intent->transition) {
	case PM_TRANSITION_REBOOT:
	case PM_TRANSITION_KEXEC:
	case PM_TRANSITION_RESTORE_HANDOFF:
		return true;
	case PM_TRANSITION_HIBERNATE:
		return intent->hibernate_phase == PM_HIBERNATE_POWEROFF &&
		       intent->hibernate_mode == PM_HIBERNATE_MODE_REBOOT;
	default:
		return false;
	}
}

/**
 * dev_pm_intent - the system transition a device is being taken through
 * @dev: the device, as passed to one of its callbacks.
 *
 * &dev_pm_ops.unplug gets the intent as its argument, but ->remove() and
 * ->shutdown() have signatures shared by every driver of a bus.  So the PM
 * core records the intent in the device for as long as it takes the
 * device through a system transition: from ->unplug() through the
 * ->remove() that follows when replug takes the device away, through every
 * phase of a suspend or hibernation (->suspend(), ->freeze(), ->thaw(),
 * ->poweroff(), ->restore() and the rest, see pm_intent_set_devices()), and
 * around ->shutdown() at power-off, halt, reboot and kexec.
 *
 * Context: the device's own callbacks.  The core sets the intent before
 * it offers the transition to the device and clears it when the
 * transition is over, so an unbind racing with a transition may see it.
 * The intent lives only as long as the transition: copy what you need,
 * never keep the pointer.
 *
 * Return: the intent, or NULL outside a system transition (the driver is
 * being unbound, or the device was really unplugged).
 */
static inline const struct pm_intent *dev_pm_intent(const struct device *dev)
{
	return READ_ONCE(dev->power.intent);
}

#endif /* _LINUX_PM_INTENT_H */
