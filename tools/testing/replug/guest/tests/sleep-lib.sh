# SPDX-License-Identifier: GPL-2.0
# sleep_cycle STATE WAKER: write STATE to /sys/power/state, woken by the RTC
# alarm (WAKER=rtc) or by the host (anything else), and assert that the
# kernel counted a successful suspend and that the inventory is unchanged.

sleep_cycle() {
	local state=$1 waker=$2 before after successes status

	before=$(inventory)
	successes=$(cat /sys/power/suspend_stats/success)
	dmesg -c > /dev/null
	if [ "$waker" = rtc ]; then
		echo 0 > /sys/class/rtc/rtc0/wakealarm
		echo +3 > /sys/class/rtc/rtc0/wakealarm
	fi
	echo "replug guest: entering $state" > /dev/console
	echo "$state" > /sys/power/state
	status=$?
	echo "replug guest: back from $state" > /dev/console
	ktap_result "write of '$state' to /sys/power/state succeeded" $status \
		"exit status $status"
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
