# SPDX-License-Identifier: GPL-2.0
# pm_test=devices in replug mode: the whole unplug walk, a pause, and the
# re-enumeration, without the machine sleeping.
. /replug/tests/replug-lib.sh
echo deep > /sys/power/mem_sleep
echo devices > /sys/power/pm_test
REPLUG_TRANSITION_VARS="PM_TRANSITION=suspend PM_SUSPEND_STATE=deep PM_TEST=devices PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
replug_cycle mem
echo none > /sys/power/pm_test
