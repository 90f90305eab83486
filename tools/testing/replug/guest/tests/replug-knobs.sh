# SPDX-License-Identifier: GPL-2.0
# Bad writes to replug's knobs are refused with EINVAL and change nothing.

# knob_rejects FILE VALUE: one write(2) of VALUE fails with EINVAL and the
# file reads the same afterwards.
knob_rejects() {
	local file=$1 value=$2 before after
	before=$(cat "$file")
	if printf '%s' "$value" | dd of="$file" bs=4096 2>/tmp/knob.err; then
		echo "write of '$value' to $file succeeded"
		return 1
	fi
	grep -q 'Invalid argument' /tmp/knob.err || { cat /tmp/knob.err; return 1; }
	after=$(cat "$file")
	[ "$before" = "$after" ] || { echo "$file changed: '$before' -> '$after'"; return 1; }
}

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
