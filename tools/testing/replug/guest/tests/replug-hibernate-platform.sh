# SPDX-License-Identifier: GPL-2.0
# A real hibernation in replug mode, in platform mode, across two boots: the
# image goes to the swap disk and the platform powers off (ACPI S4); the host boots it again with
# replug.resume=1, that kernel hands over to the image (restore-handoff),
# and this test goes on in the restored kernel, which finds every device
# again as new hardware, told that the image was restored after a loss
# of power.
. /replug/tests/hibernate-lib.sh

REPLUG_ENTER="hibernate platform"
REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=platform PM_TEST=none $nothing_lost"
REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=restore PM_HIBERNATE_MODE=platform PM_TEST=none PM_POWER_LOST=1 PM_FIRMWARE_REINIT=1 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
replug_cycle disk
expect "this kernel was restored from the image" \
	sh -c 'dmesg | grep -q "PM: hibernation: Hibernation image restored successfully"'
