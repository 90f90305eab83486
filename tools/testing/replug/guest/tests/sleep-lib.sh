# SPDX-License-Identifier: GPL-2.0
# sleep_cycle STATE: write STATE to /sys/power/state and assert that the
# kernel counted a successful suspend and that the inventory is unchanged.
#
# The host wakes the guest: from S3 when QMP reports SUSPEND, from s2idle
# when asked on the console (REPLUG-HOST: wake-from-s2idle) by pressing the
# ACPI power button, since QEMU raises the ACPI RTC event only from S3.

# enter_sleep STATE: write STATE to /sys/power/state, asking the host for
# the wake from s2idle, and assert that the write succeeded.
enter_sleep() {
	local state=$1 status

	echo "replug guest: entering $state" > /dev/console
	[ "$state" != freeze ] ||
		host_request wake-from-s2idle
	echo "$state" > /sys/power/state
	status=$?
	host_request awake
	echo "replug guest: back from $state" > /dev/console
	ktap_result "write of '$state' to /sys/power/state succeeded" $status \
		"exit status $status"
}

sleep_cycle() {
	local state=$1 before after successes

	before=$(inventory)
	successes=$(cat /sys/power/suspend_stats/success)
	dmesg -c > /dev/null
	enter_sleep "$state"
	expect_eq "suspend_stats counts one more success" \
		$((successes + 1)) "$(cat /sys/power/suspend_stats/success)"
	udevadm settle --timeout=30
	after=$(inventory)
	expect "inventory holds the test devices ($(echo "$before" | wc -l) entries)" \
		test "$(echo "$before" | wc -l)" -gt 20
	echo "$before" > /tmp/inventory.before
	echo "$after" > /tmp/inventory.after
	expect "every device present before is present after" \
		diff /tmp/inventory.before /tmp/inventory.after
}
