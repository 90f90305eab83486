# SPDX-License-Identifier: GPL-2.0
# make bench's guest half: the same transitions in replug mode and in
# classic mode by turns (pmtest bench), on the default devices, then on
# test-bus trees with the default devices kept in place.  Each run's JSON goes to the host on the third serial
# port, one line each; the host makes the table, the JSON file and the
# plot.  What to run comes from the kernel command line:
#   replug.bench=SIZES:SHAPES:LATENCIES:ROUNDS[;...], e.g.
#   10,100:flat,wide:0,1000:3;10000:flat:0:1
# (latencies in µs, for unplug and probe alike; deep trees are chains of
# at most 50, as sysfs paths have a limit; each group separated by ';'
# runs all its combinations).  Each run is a KTAP case.

. /replug/tests/replug-lib.sh

ko=/lib/modules/replug-testbus.ko
out=/dev/ttyS2
[ -c $out ] || out=/dev/null
spec=$(cmdline_value replug.bench)
[ -n "$spec" ] || spec="10,100:flat,wide:0:3"
# bench_run LABEL ARGS...: one pmtest bench run, its JSON to the host.
bench_run() {
	local label=$1 status
	shift
	pmtest bench --label "$label" --format json "$@" > /tmp/bench.json 2> /tmp/bench.err
	status=$?
	[ $status -ne 0 ] || tr -d '\n' < /tmp/bench.json > $out
	[ $status -ne 0 ] || echo > $out
	ktap_result "bench $label" $status "$(tail -n 5 /tmp/bench.err)"
}

udevadm settle --timeout=60
# The default devices, through a real S3 the host wakes, as many rounds
# as the first group's.
rounds=$(echo "${spec%%;*}" | cut -d: -f4)
echo deep > /sys/power/mem_sleep
bench_run "devices" --state mem --test none --rounds "${rounds:-3}"

# bench_group SIZES:SHAPES:LATENCIES:ROUNDS: every tree of the group.
bench_group() {
	local sizes shapes latencies rounds size shape us tree
	IFS=: read -r sizes shapes latencies rounds <<EOF_GROUP
$1
EOF_GROUP
	for size in $(echo "$sizes" | tr , ' '); do
	for shape in $(echo "$shapes" | tr , ' '); do
	for us in $(echo "$latencies" | tr , ' '); do
		tree="count=$size shape=$shape unplug_us=$us probe_us=$us"
		[ "$shape" != deep ] || [ "$size" -le 50 ] || tree="$tree depth=50"
		if ! pmtest tree $tree --timeout 1200 > /tmp/tree.out 2>&1; then
			ktap_result "tree $tree" 1 "$(tail -n 5 /tmp/tree.out)"
			continue
		fi
		udevadm settle --timeout=600
		bench_run "$shape-$size-${us}us" --test devices --rounds "$rounds" \
			--settle-timeout 1200
	done
	done
	done
}

# pci_policy POLICY: every PCI function's replug policy.  The tree runs
# keep the machine's own devices in place (they go through the classic
# callbacks in both modes), so that the two modes differ in the tree
# alone and the udev work of re-enumerating a USB controller and disks
# does not swamp a 10-device tree.
pci_policy() {
	local dev
	for dev in /sys/bus/pci/devices/*; do
		echo "$1" > "$dev/power/replug"
	done
}

insmod $ko
pci_policy keep
for group in $(echo "$spec" | tr ';' ' '); do
	bench_group "$group"
done
pci_policy auto
echo 1 > /sys/kernel/debug/replug_test/destroy
rmmod replug_testbus
