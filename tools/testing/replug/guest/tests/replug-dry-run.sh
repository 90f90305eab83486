# SPDX-License-Identifier: GPL-2.0
# Dry runs of the transitions that end this kernel: every device is taken
# away with the power-off or the kexec intent, at pm_test level devices,
# and comes back instead of the machine going down.  The intent names the
# transition rehearsed and says what really happens: nothing is lost and
# this kernel goes on.
. /replug/tests/replug-lib.sh

dry_run() {
	echo "replug guest: dry run of $1" > /dev/console
	echo "$1" > /sys/power/replug/dry_run
	ktap_result "dry run of $1 succeeded" $? "write of '$1' failed"
}

REPLUG_ENTER="dry_run poweroff"
REPLUG_TRANSITION_VARS="PM_TRANSITION=poweroff PM_TEST=devices PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
replug_cycle poweroff

REPLUG_ENTER="dry_run kexec"
REPLUG_TRANSITION_VARS="PM_TRANSITION=kexec PM_TEST=devices PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=0"
replug_cycle kexec

expect_eq "the dry run lists what it can rehearse" "poweroff halt reboot kexec" \
	"$(cat /sys/power/replug/dry_run)"
