# SPDX-License-Identifier: GPL-2.0
# A kernel the soak's kexec started, in replug mode: every device the
# first kernel had is here, every file the soak wrote is intact; then on
# to the next kexec until replug.kexec_left is 0.

. /replug/tests/replug-soak-lib.sh

left=$(cmdline_value replug.kexec_left)
expect_eq "replug mode selected" "classic [replug]" \
	"$(echo replug > /sys/power/replug/mode; cat /sys/power/replug/mode)"
expect "data disk mounted" soak_mount_data
expect "every device the first kernel had is here" \
	wait_for_inventory $SOAK_DATA/inventory.kexec
expect "every file the soak wrote is intact ($(soak_data_intact))" soak_data_intact
expect "another file written" soak_write "kexec$left"
expect "the data disk unmounts" umount /mnt/data
[ "$left" -eq 0 ] ||
	expect "kexec loaded: $left to go" soak_kexec_load $((left - 1))
