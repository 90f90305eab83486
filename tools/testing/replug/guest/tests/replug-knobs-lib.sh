# SPDX-License-Identifier: GPL-2.0
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
