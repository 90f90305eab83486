# SPDX-License-Identifier: GPL-2.0
# A suspend-to-RAM (ACPI S3) cycle in replug mode.
. /replug/tests/replug-lib.sh
echo deep > /sys/power/mem_sleep
REPLUG_TRANSITION_VARS="PM_TRANSITION=suspend PM_SUSPEND_STATE=deep PM_TEST=none PM_POWER_LOST=1 PM_FIRMWARE_REINIT=1 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=1"
replug_cycle mem
expect "firmware entered ACPI S3" \
	sh -c 'dmesg | grep -q "Preparing to enter system sleep state S3"'

# The host draws this cycle's timeline with pm-graph's sleepgraph: the
# trace goes out on the third serial port with the stamp line it expects.
if [ -c /dev/ttyS2 ]; then
	{
		echo "# suspend-$(date +%m%d%y-%H%M%S) replug-guest mem $(uname -r)"
		cat /tmp/trace
	} > /dev/ttyS2
fi
