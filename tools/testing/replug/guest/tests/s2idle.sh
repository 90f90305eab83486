# SPDX-License-Identifier: GPL-2.0
# One suspend-to-idle cycle through the kernel's stock path, woken by the
# RTC alarm, then every device present before must be present after.

. /replug/tests/sleep-lib.sh

expect "s2idle is offered" grep -qw freeze /sys/power/state
sleep_cycle freeze "rtc"
expect "kernel entered s2idle" sh -c 'dmesg | grep -q "PM: suspend entry (s2idle)"'
expect "RTC alarm fired (wakealarm cleared)" \
	test -z "$(cat /sys/class/rtc/rtc0/wakealarm)"
