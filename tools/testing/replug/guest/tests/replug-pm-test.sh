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
