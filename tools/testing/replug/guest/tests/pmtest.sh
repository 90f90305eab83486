# SPDX-License-Identifier: GPL-2.0
# tools/pmtest in the guest, as a driver author would use it: build a
# 1,000-device test-bus tree and cycle it in replug mode; read the walk
# back from the trace (text, JSON, and an SVG the host keeps); break the
# first, a middle and the last device of the walk (unplug and remove
# errors rolled back, a failed probe named, a hang shown in the report);
# change the hardware while asleep and find exactly that; then S3 woken by
# the RTC alarm, s2idle and hibernation's test_resume; collect the KUnit
# results.  Its inventory agrees with the shell's, and bad arguments get a
# usage line and exit status 2.

. /replug/tests/replug-lib.sh

ko=/lib/modules/replug-testbus.ko

# pmtest_ok NAME ARGS...: pmtest succeeds and every KTAP case it prints
# is ok.
pmtest_ok() {
	local name=$1 out status
	shift
	out=$(pmtest "$@" 2>&1)
	status=$?
	echo "$out" > /tmp/pmtest.out
	[ $status -eq 0 ] && ! echo "$out" | grep -q '^not ok' &&
		echo "$out" | grep -q '^ok '
	ktap_result "$name" $? "$(echo "$out" | tail -n 20)"
}

expect "pmtest --help shows the commands" sh -c 'pmtest --help | grep -q "^  cycle "'
pmtest cycle --count 0 > /dev/null 2> /tmp/pmtest.err
expect_eq "a bad --count exits 2" 2 $?
expect "with a usage line" grep -q '^usage: pmtest cycle ' /tmp/pmtest.err
pmtest frobnicate > /dev/null 2> /tmp/pmtest.err
expect_eq "an unknown command exits 2" 2 $?

udevadm settle --timeout=30
inventory > /tmp/inventory.sh
pmtest inventory --output /tmp/inventory.pmtest
expect "pmtest's inventory is the shell's" \
	diff /tmp/inventory.sh /tmp/inventory.pmtest
pmtest diff /tmp/inventory.sh /tmp/inventory.pmtest > /dev/null
expect_eq "pmtest diff finds them equal" 0 $?
echo "pci made/up" >> /tmp/inventory.sh
pmtest diff /tmp/inventory.sh /tmp/inventory.pmtest > /tmp/pmtest.diff
expect_eq "pmtest diff says when they differ" 1 $?
expect "and shows the line" grep -qx -- '- pci made/up' /tmp/pmtest.diff

pmtest_ok "pmtest tree loads the test bus and builds 1,000 devices" \
	tree count=1000 shape=wide fanout=4 links=4 --module $ko
pmtest_ok "pmtest cycle: two replug cycles of the tree at pm_test=devices" \
	cycle --test devices --count 2
expect_eq "each cycle checked the events and the inventory (14 cases)" 14 \
	"$(grep -c '^ok ' /tmp/pmtest.out)"
pmtest inventory --output /tmp/inventory.tree

# trace_cycle ARGS...: a pmtest cycle with the replug and callback events
# traced; the trace is emptied first, so that report sees this cycle.
trace_cycle() {
	local event status
	echo > /sys/kernel/tracing/trace
	for event in replug/replug_device power/device_pm_callback_start \
		     power/device_pm_callback_end; do
		echo 1 > /sys/kernel/tracing/events/$event/enable
	done
	pmtest cycle "$@" > /tmp/pmtest.out 2>&1
	status=$?
	echo 0 > /sys/kernel/tracing/events/enable
	return $status
}

# pmtest report reads the cycle back from the trace.
trace_cycle --test devices
ktap_result "a traced cycle" $? "$(tail -n 20 /tmp/pmtest.out)"
cycle=$(cat /sys/power/replug/cycle)
pmtest report > /tmp/report.txt
expect "pmtest report names the cycle and its transition" \
	grep -q "^cycle $cycle (suspend): " /tmp/report.txt
expect_eq "every test device is in it, removed" 1000 \
	"$(grep -cE ' rt[0-9]+ +replug_test +removed ' /tmp/report.txt)"
expect "in walk order: the last registered first" \
	sh -c "sed -n 2p /tmp/report.txt | grep -qE '^ *1 +[^ ]+ '"
pmtest report --format json > /tmp/report.json
expect "as JSON" sh -c "grep -q '\"cycle\": $cycle' /tmp/report.json &&
			grep -q '\"device\": \"rt0\"' /tmp/report.json"
pmtest report --format svg > /tmp/report.svg
expect "as an SVG timeline with a bar per removal shown (500 rows)" \
	sh -c "grep -q '<svg' /tmp/report.svg &&
	       test \$(grep -o 'class=\"phase\"' /tmp/report.svg | wc -l) -ge 500"
# The host keeps the picture and checks it too.
[ -c /dev/ttyS2 ] && cat /tmp/report.svg > /dev/ttyS2
pmtest report --cycle 999999 > /dev/null 2>&1
expect_eq "a cycle not in the trace is an error" 1 $?
pmtest report --format png > /dev/null 2> /tmp/pmtest.err
expect_eq "a bad format exits 2" 2 $?

# The first, a middle and the last test device of the walk, as the report
# ordered them.
awk '$2 ~ /^rt[0-9]+$/ && $1 ~ /^[0-9]+$/ { print $1, $2 }' /tmp/report.txt |
	sort -n | awk '{ print $2 }' > /tmp/walk
first=$(sed -n 1p /tmp/walk)
middle=$(sed -n 500p /tmp/walk)
last=$(sed -n '$p' /tmp/walk)
expect "the report gives the walk's first, middle and last ($first $middle $last)" \
	test -n "$first" -a -n "$middle" -a -n "$last" -a "$(wc -l < /tmp/walk)" -eq 1000

# fault_cycle DEVICE PHASE: an error armed there fails the cycle, with the
# device's error for the writer, and the rollback leaves every device.
fault_cycle() {
	pmtest_ok "pmtest fault arms a $2 error at $1" fault "$1" "$2" error=5
	pmtest cycle --test devices > /tmp/pmtest.out 2>&1
	expect_eq "$2 fault at $1: the cycle fails" 1 $?
	expect "$2 fault at $1: the write is reported failed, with EIO" \
		sh -c "grep -q '^not ok 1 cycle 1: write to /sys/power/state' /tmp/pmtest.out &&
		       grep -q 'Input/output error' /tmp/pmtest.out"
	expect "$2 fault at $1: the inventory matches after the rollback" \
		grep -q '^ok 2 cycle 1: inventory matches' /tmp/pmtest.out
	expect "$2 fault at $1: every device removed came back" \
		grep -q '^ok 3 cycle 1: every bus device removed' /tmp/pmtest.out
	expect "$2 fault at $1: fired once" \
		sh -c "pmtest fault --list | grep -q '^${1#rt} $2 error 5 fired=1'"
}
fault_cycle "$first" unplug
fault_cycle "$middle" unplug
fault_cycle "$last" unplug
fault_cycle "$middle" remove
pmtest_ok "the next cycle succeeds" cycle --test devices

# A probe that fails on the way back: the device is there, without its
# driver, and the inventory says which one.
pmtest_ok "pmtest fault arms a probe error at $middle" fault "$middle" probe error=5
pmtest cycle --test devices > /tmp/pmtest.out 2>&1
expect_eq "probe fault at $middle: the cycle fails" 1 $?
expect "probe fault at $middle: not the write" \
	grep -q '^ok 1 cycle 1: write to /sys/power/state' /tmp/pmtest.out
expect "probe fault at $middle: the inventory names it, back without its driver" \
	sh -c "grep -q '^not ok 2 cycle 1: inventory matches' /tmp/pmtest.out &&
	       grep -qE '^# \\+ replug_test \\S+/$middle - replug_test:' /tmp/pmtest.out &&
	       test \$(grep -cE '^# [-+] ' /tmp/pmtest.out) -eq 2"
echo "$middle" > /sys/bus/replug_test/drivers/replug_test/bind
pmtest inventory > /tmp/inventory.now
expect "bound again by hand, the inventory is whole" diff /tmp/inventory.tree /tmp/inventory.now

# A hang: the cycle succeeds, late, and the report shows where the time went.
pmtest_ok "pmtest fault arms a 2 s hang at $middle's unplug" fault "$middle" unplug hang=2000
trace_cycle --test devices
ktap_result "the cycle with the hang succeeds" $? "$(tail -n 20 /tmp/pmtest.out)"
pmtest report --format json > /tmp/report.json
unplug_ms=$(awk -v dev="\"device\": \"$middle\"" 'index($0, dev) {
	s = $0
	while (match(s, /"name": "replug unplug", "start_ms": [0-9.]+, "end_ms": [0-9.]+/)) {
		split(substr(s, RSTART, RLENGTH), w, /[:,] */)
		printf "%d\n", w[6] - w[4]
		s = substr(s, RSTART + RLENGTH)
	}
}' /tmp/report.json)
expect "pmtest report shows $middle's unplug taking the 2 s (${unplug_ms} ms)" \
	test "${unplug_ms:-0}" -ge 2000 -a "${unplug_ms:-0}" -lt 60000

# Hardware changed while asleep: the first device of the walk vanishes, a
# new one appears under the last, the middle one is swapped for another
# identity.  Told what to expect, the cycle finds exactly that.
pmtest_ok "pmtest change: $first vanishes" change vanish "$first"
pmtest_ok "pmtest change: a device appears under $last" change appear "$last"
new=$(sed -n 's/^# \([0-9]*\) [0-9-]* rt-.* present=1 device=-$/\1/p' /tmp/pmtest.out)
pmtest_ok "pmtest change: $middle is swapped" change swap "$middle"
parent=$(grep " \\S*/$last replug_test " /tmp/inventory.tree | awk '{ print $2 }')
{
	grep -v " \\S*/$first replug_test " /tmp/inventory.tree |
		sed "s/:rt-${middle#rt}-0\$/:rt-${middle#rt}-1/"
	echo "replug_test $parent/rt$new replug_test replug_test:rt-$new-0"
} | sort > /tmp/inventory.expected
pmtest_ok "a cycle over the changed hardware ends with the expected inventory" \
	cycle --test devices --expect /tmp/inventory.expected
expect "it checked against the expected one" \
	grep -q '^ok 2 cycle 1: inventory is the expected one' /tmp/pmtest.out
expect "the swapped and the new device were not taken for hardware that went" \
	grep -q '^ok 6 cycle 1: every bus device added again says whether' /tmp/pmtest.out
expect "the report counts them, changed and new" \
	grep -qE '^# devices added again: [0-9]+ the same, [1-9][0-9]* changed, [1-9][0-9]* new$' \
	/tmp/pmtest.out
pmtest inventory --output /tmp/inventory.changed
pmtest_ok "pmtest change: rt$new vanishes" change vanish "rt$new"
pmtest cycle --test devices > /tmp/pmtest.out 2>&1
expect_eq "not told, the cycle fails when a device is lost" 1 $?
grep -qE "^# - replug_test \S+/rt$new replug_test " /tmp/pmtest.out &&
	grep -qE "^# remove \S+/rt$new: no add followed" /tmp/pmtest.out
ktap_result "naming it in the inventory and in the events" $? \
	"$(grep '^#' /tmp/pmtest.out | head -n 20)"
pmtest change melt rt1 > /dev/null 2> /tmp/pmtest.err
expect_eq "a bad change exits 2" 2 $?
expect "with a usage line" grep -q '^usage: pmtest change ' /tmp/pmtest.err
pmtest change vanish rt99999 > /tmp/pmtest.out 2>&1
expect_eq "a change to a device the tree lacks fails" 1 $?

# Real transitions with the default devices and a smaller tree: s2idle
# woken by the power button, hibernation's test_resume (the image written
# and read back), S3 woken by the RTC alarm.
echo 1 > /sys/kernel/debug/replug_test/destroy
pmtest_ok "a 100-device tree for the real transitions" tree count=100 shape=wide fanout=3 links=2
udevadm settle --timeout=30
replug_setup_disks
host_request wake-every-s2idle
pmtest_ok "pmtest cycle: two s2idle cycles" cycle --state freeze --count 2
host_request s2idle-on-request
expect_eq "each checked (14 cases)" 14 "$(grep -c '^ok ' /tmp/pmtest.out)"
echo test_resume > /sys/power/disk
cat "/sys/block/${SWAP_DEV##*/}/dev" > /sys/power/resume
# The tree's cycles fill the kernel log: keep what follows.
dmesg -c > /dev/null
pmtest_ok "pmtest cycle: hibernation, the image written and read back" cycle --state disk
# The log of the restored kernel is the image's: what was logged while it
# was written is gone, the restore is not.
expect "the image was read back and restored" \
	sh -c 'dmesg | grep -q "PM: hibernation: Hibernation image restored successfully"'
expect "the data disk kept its data" sha256sum -c -s /tmp/payload.sum
# Last: after an S3 woken by the RTC, the ACPI power button no longer
# wakes an s2idle under QEMU ("Could not disable RealTimeClock events").
echo deep > /sys/power/mem_sleep
host_request rtc-wakes-s3
pmtest_ok "pmtest cycle: S3, woken by the RTC alarm" cycle --state mem --wake-after 5
host_request host-wakes-s3
expect "the firmware entered ACPI S3" \
	sh -c 'dmesg | grep -q "Preparing to enter system sleep state S3"'
swapoff "$SWAP_DEV"
umount /mnt/data

pmtest_ok "pmtest kunit collects the project's suites" kunit
expect "with every suite and the closing line" \
	sh -c 'grep -q "pm_intent" /tmp/pmtest.out &&
	       grep -q "replug_walk" /tmp/pmtest.out &&
	       grep -qE "^[0-9]+ passed, 0 failed$" /tmp/pmtest.out'

echo 1 > /sys/kernel/debug/replug_test/destroy
echo classic > /sys/power/replug/mode
rmmod replug_testbus
