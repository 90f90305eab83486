# SPDX-License-Identifier: GPL-2.0
# pm_test=devices in replug mode: the whole unplug walk, a pause, and the
# re-enumeration, without the machine sleeping.
. /replug/tests/replug-lib.sh
echo deep > /sys/power/mem_sleep
echo devices > /sys/power/pm_test
REPLUG_TRANSITION_VARS="PM_TRANSITION=suspend PM_SUSPEND_STATE=deep PM_TEST=devices PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
replug_cycle mem
echo none > /sys/power/pm_test

# pm_test=freezer stops before any device is touched: no replug cycle.
echo replug > /sys/power/replug/mode
echo freezer > /sys/power/pm_test
cycle=$(cat /sys/power/replug/cycle)
echo mem > /sys/power/state
ktap_result "pm_test=freezer cycle succeeded" $?
expect_eq "pm_test=freezer runs no replug cycle" "$cycle" "$(cat /sys/power/replug/cycle)"
echo none > /sys/power/pm_test
echo classic > /sys/power/replug/mode

# The levels past devices, with suspend to RAM: the unplug walk and the
# re-enumeration run around each, and the intent names the level (wakeup
# is armed from platform on, since the noirq phase runs).
e1000e=$(pci_devpath 0000:01:00.0)
echo replug > /sys/power/replug/mode
inventory > /tmp/inventory.before
for level in platform processors core; do
	echo $level > /sys/power/pm_test
	cycle=$(($(cat /sys/power/replug/cycle) + 1))
	uevent_watch /tmp/level.raw
	echo mem > /sys/power/state
	ktap_result "pm_test=$level cycle succeeded" $?
	expect "pm_test=$level: every device came back" \
		wait_for_inventory /tmp/inventory.before
	uevent_unwatch /tmp/level.raw /tmp/level.events
	expect_eq "pm_test=$level: cycle counted" "$cycle" \
		"$(cat /sys/power/replug/cycle)"
	want="ACTION=add DEVPATH=$e1000e PM_REPLUG=1 PM_TRANSITION=suspend PM_SUSPEND_STATE=deep PM_TEST=$level PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=1 PM_CYCLE=$cycle PM_REPLUG_IDENTITY=same"
	expect "pm_test=$level: udev saw $want" grep -qxF "$want" /tmp/level.events
done
echo none > /sys/power/pm_test
echo classic > /sys/power/replug/mode
