# SPDX-License-Identifier: GPL-2.0
# One suspend-to-idle cycle through the kernel's stock path, woken by the
# ACPI power button, then every device present before must be present after.

. /replug/tests/sleep-lib.sh

expect "s2idle is offered" grep -qw freeze /sys/power/state
sleep_cycle freeze
expect "kernel entered s2idle" sh -c 'dmesg | grep -q "PM: suspend entry (s2idle)"'
acpi_irq=$(awk '/ acpi$/ { sub(":", "", $1); print $1 }' /proc/interrupts)
expect_eq "woken by the ACPI SCI (the power button)" "$acpi_irq" \
	"$(cat /sys/power/pm_wakeup_irq 2>&1)"
