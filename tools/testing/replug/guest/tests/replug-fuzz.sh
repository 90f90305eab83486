# SPDX-License-Identifier: GPL-2.0
# Hostile input to every knob of the project, in replug mode so that each
# one's parser is reached: pmtest fuzz writes binary bytes, words too long
# for any keyword, negative numbers, numbers past 64 bits and keywords
# with a stray byte, REPLUG_FUZZ_COUNT of them per knob (replug.fuzz= on
# the command line, 2,000 by default), and each must be refused with
# EINVAL (E2BIG past a page) and change nothing: not the knob, not the
# others, not the kernel's taint flags (a WARN or an oops sets them).

. /replug/tests/replug-lib.sh

tb=/sys/kernel/debug/replug_test
count=$(cmdline_value replug.fuzz)
[ -n "$count" ] || count=2000

[ -d $tb ] || insmod /lib/modules/replug-testbus.ko
echo "count=20 shape=wide links=3" > $tb/tree
udevadm settle --timeout=60
echo replug > /sys/power/replug/mode
pci=$(ls -d /sys/bus/pci/devices/* | head -n 1)
rt=/sys/bus/replug_test/devices/rt3

watch=""
for f in /sys/power/replug/mode /sys/power/replug/cycle \
	/sys/power/replug/announce /sys/power/replug/removed \
	/sys/power/replug/kept /sys/power/replug/watchdog_ms /sys/power/pm_test \
	$pci/power/replug $rt/power/replug $tb/tree $tb/fault $tb/nodes; do
	watch="$watch --watch $f"
done
tainted=$(cat /proc/sys/kernel/tainted)
seed=$(cmdline_value replug.fuzz_seed)
[ -n "$seed" ] || seed=$(( $(date +%s) % 100000 ))
echo "# fuzz seed $seed, $count inputs per knob"

for knob in /sys/power/replug/mode /sys/power/replug/announce \
	/sys/power/replug/dry_run /sys/power/replug/watchdog_ms \
	$pci/power/replug $rt/power/replug \
	$tb/tree $tb/destroy $tb/fault $tb/change $tb/latency; do
	# shellcheck disable=SC2086 # one --watch FILE pair each
	pmtest fuzz "$knob" --count "$count" --seed "$seed" --format text $watch \
		> /tmp/fuzz.out 2>&1
	ktap_result "$count hostile writes to $knob refused, nothing changed" $? \
		"$(tail -n 8 /tmp/fuzz.out)"
done
# The check can fail: a plain file takes every input.
echo x > /tmp/takes-anything
expect "fuzz fails a file that takes anything" \
	sh -c "! pmtest fuzz /tmp/takes-anything --count 5 --format text > /dev/null"
expect_eq "no WARN, oops or other taint" "$tainted" "$(cat /proc/sys/kernel/tainted)"
expect "no splat in the kernel log" sh -c "! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection'"
expect_eq "the tree is all there" 20 "$(ls /sys/bus/replug_test/devices | grep -c '^rt')"
echo classic > /sys/power/replug/mode
echo 1 > $tb/destroy
