# SPDX-License-Identifier: GPL-2.0
# One suspend-to-RAM (ACPI S3) cycle through the kernel's stock path, woken
# by the host's QMP system_wakeup, then the same inventory check.

. /replug/tests/sleep-lib.sh

expect "deep sleep is offered" grep -qw deep /sys/power/mem_sleep
echo deep > /sys/power/mem_sleep
expect_eq "mem_sleep set to deep" "[deep]" \
	"$(grep -o '\[[a-z2]*\]' /sys/power/mem_sleep)"
sleep_cycle mem
expect "firmware entered ACPI S3" \
	sh -c 'dmesg | grep -q "Preparing to enter system sleep state S3"'
