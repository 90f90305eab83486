# SPDX-License-Identifier: GPL-2.0
# Helpers for the hibernation tests in replug mode.

. /replug/tests/replug-lib.sh

freeze="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=freeze"
nothing_lost="PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"

# hibernate MODE [WANT]: hibernate in MODE; WANT=fail expects the write
# of /sys/power/state to fail.
hibernate() {
	local status
	echo "$1" > /sys/power/disk
	cat "/sys/block/${SWAP_DEV##*/}/dev" > /sys/power/resume
	echo "replug guest: hibernating ($1)" > /dev/console
	echo disk > /sys/power/state 2>/tmp/hibernate.err
	status=$?
	echo "replug guest: back from hibernation ($1): $status" > /dev/console
	if [ "$2" = fail ]; then
		ktap_result "hibernation ($1) fails for the writer" $((status == 0)) \
			"the write succeeded"
	else
		ktap_result "hibernation ($1) succeeded" $status "$(cat /tmp/hibernate.err)"
	fi
}


# hibernate_across_boots MODE: a real hibernation in MODE.  The machine
# goes down once the image is on the swap disk; the host boots it again
# with replug.resume=1, that kernel hands over to the image, and this test
# goes on in the restored kernel, which finds every device again as new
# hardware, told the image was restored after a loss of power.
# The VGA function, bound to samples/replug, is kept in place: the host
# checks on the console what its callbacks found before the power-off.
hibernate_across_boots() {
	local vga=/sys/bus/pci/devices/0000:00:01.0 restored

	expect "sample driver loads" insmod /lib/modules/replug-sample.ko
	echo keep > $vga/power/replug
	REPLUG_ENTER="hibernate $1"
	REPLUG_TRANSITION_VARS="$freeze PM_HIBERNATE_MODE=$1 PM_TEST=none $nothing_lost"
	REPLUG_COMEBACK_VARS="PM_TRANSITION=hibernate PM_HIBERNATE_PHASE=restore PM_HIBERNATE_MODE=$1 PM_TEST=none PM_POWER_LOST=1 PM_FIRMWARE_REINIT=1 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
	replug_cycle disk
	expect "this kernel was restored from the image" \
		sh -c 'dmesg | grep -q "PM: hibernation: Hibernation image restored successfully"'
	restored="transition=hibernate state=on phase=restore test=none power_lost=1 firmware_reinit=1 kernel_resumes=1 wakeup_armed=0 cycle=[0-9]* mode=$1"
	expect "the kept function's ->restore() found the restore phase" \
		sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: restore: $restored\$'"
	expect "and so did its ->replugged()" \
		sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: replugged: $restored\$'"
	echo auto > $vga/power/replug
}
