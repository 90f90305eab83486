# SPDX-License-Identifier: GPL-2.0
# Hibernation in replug mode, in one boot: devices go in the freeze phase,
# before the image is made, and come back as new hardware in the phase
# that follows: restore after test_resume has written the image and read
# it back, thaw after a pm_test run, wake after suspend mode's sleep in
# RAM, restore again after a swap disk that stalled the write, recover
# when the image cannot be written.  The active swap disk that takes the
# image stays in place.
. /replug/tests/hibernate-lib.sh

# The image is written to the swap disk and read back at once.
REPLUG_ENTER="hibernate test_resume"
REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=test_resume PM_TEST=none $nothing_lost"
REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=restore PM_HIBERNATE_MODE=test_resume PM_TEST=none $nothing_lost"
replug_cycle disk
# The log is the image's now: only what the restored kernel printed is in it.
expect "this kernel was restored from the image" \
	sh -c 'dmesg | grep -q "PM: hibernation: Hibernation image restored successfully"'

# pm_test=devices: the walk runs and the same kernel thaws.
echo devices > /sys/power/pm_test
REPLUG_ENTER="hibernate shutdown"
REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=shutdown PM_TEST=devices $nothing_lost"
REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=thaw PM_HIBERNATE_MODE=shutdown PM_TEST=devices $nothing_lost"
replug_cycle disk
echo none > /sys/power/pm_test

# Suspend mode: once the image is written the machine sleeps in S3 rather
# than powering off; the host wakes it, this kernel goes on, and the
# devices come back in the wake phase, power lost.
echo deep > /sys/power/mem_sleep
REPLUG_ENTER="hibernate suspend"
REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=suspend PM_TEST=none $nothing_lost"
REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=wake PM_HIBERNATE_MODE=suspend PM_TEST=none PM_POWER_LOST=1 PM_FIRMWARE_REINIT=1 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
replug_cycle disk
expect "the machine slept in S3 once the image was written" \
	sh -c 'dmesg | grep -q "Preparing to enter system sleep state S3"'

# A swap disk that stops answering while the image is written: the host
# throttles its writes to a trickle until the watchdog has named it (the
# host checks the console: this kernel's log is the image's, from before
# the write), then the write ends, the image is read back and restored.
watchdog_ms=$(cat /sys/power/replug/watchdog_ms)
echo 3000 > /sys/power/replug/watchdog_ms
host_request stall-swap-writes
REPLUG_ENTER="hibernate test_resume"
REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=test_resume PM_TEST=none $nothing_lost"
REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=restore PM_HIBERNATE_MODE=test_resume PM_TEST=none $nothing_lost"
replug_cycle disk
echo "$watchdog_ms" > /sys/power/replug/watchdog_ms

# A swap area too small for the image: writing it fails, and the devices
# come back with the recover intent while the system runs on.
shrink_swap() {
	swapoff "$SWAP_DEV" && mkswap "$SWAP_DEV" 1024 > /dev/null &&
		swapon "$SWAP_DEV"
}
REPLUG_SETUP_HOOK=shrink_swap
REPLUG_ENTER="hibernate shutdown fail"
REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=shutdown PM_TEST=none $nothing_lost"
REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=recover PM_HIBERNATE_MODE=shutdown PM_TEST=none $nothing_lost"
replug_cycle disk
expect "the writer is told there was no room" \
	grep -q "No space left on device" /tmp/hibernate.err
expect "the kernel says writing the image failed" \
	sh -c 'dmesg | grep -q "Image saving failed: -28"'
