# SPDX-License-Identifier: GPL-2.0
# Bad writes to replug's knobs are refused with EINVAL and change nothing.

. /replug/tests/replug-knobs-lib.sh

policy=/sys/bus/pci/devices/0000:01:00.0/power/replug
expect_eq "policy defaults to auto" auto "$(cat $policy)"
for bad in "Keep" "keepx" "remove keep" "-1" " " "$(printf 'k\377')"; do
	expect "policy rejects '$bad'" knob_rejects $policy "$bad"
done
echo keep > $policy
expect_eq "policy accepts keep" keep "$(cat $policy)"
echo auto > $policy
expect "remove refused where nothing could rediscover the device" \
	knob_rejects /sys/devices/platform/serial8250/power/replug remove
for bad in "Replug" "replug classic" "2" " "; do
	expect "mode rejects '$bad'" knob_rejects /sys/power/replug/mode "$bad"
done
expect "cycle is read-only" sh -c '! echo 5 > /sys/power/replug/cycle'
expect_eq "replug starts in classic mode" "[classic] replug" \
	"$(cat /sys/power/replug/mode)"
expect "dry run refused in classic mode" \
	knob_rejects /sys/power/replug/dry_run poweroff
echo replug > /sys/power/replug/mode
for bad in "suspend" "mem" "disk" "Poweroff" "poweroff reboot" "restore-handoff" " "; do
	expect "dry run rejects '$bad'" knob_rejects /sys/power/replug/dry_run "$bad"
done
echo classic > /sys/power/replug/mode
