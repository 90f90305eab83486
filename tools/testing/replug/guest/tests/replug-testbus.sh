# SPDX-License-Identifier: GPL-2.0
# replug on the synthetic test bus (CONFIG_PM_REPLUG_TEST_BUS): a tree of
# 1,000 devices with links between its branches goes away and comes back
# as new devices; a fault at the first, a middle and the last test device
# of the walk rolls the transition back with every device there; and
# hardware that changed while the system slept is simply found as it is:
# a device that vanished stays gone, one that appeared is probed, one
# swapped for another comes back with the other's identity.

. /replug/tests/replug-lib.sh
. /replug/tests/testbus-lib.sh

# cycle: one pm_test=devices suspend in replug mode; prints the status.
cycle() {
	echo mem > /sys/power/state 2> /tmp/state.err
}

expect "test bus loads" insmod /lib/modules/replug-testbus.ko
expect "a 1,000-device tree with links between branches is built" \
	sh -c "echo 'count=1000 shape=wide fanout=8 links=4' > $tb/tree"
expect "all 1,000 devices are bound" wait_bound 1000
expect_eq "the links between branches exist" 4 \
	"$(ls -d /sys/class/devlink/replug_test:rt* 2> /dev/null | wc -l)"

echo replug > /sys/power/replug/mode
echo devices > /sys/power/pm_test
udevadm settle --timeout=30
testbus_inventory > /tmp/testbus.before
inventory > /tmp/inventory.before
ino_before=$(stat -c %i /sys/bus/replug_test/devices/rt0)
removed_before=$(cat /sys/power/replug/removed)

# The whole tree goes and comes back.
cycle
ktap_result "replug cycle over the tree succeeded" $? "$(cat /tmp/state.err)"
expect "the test devices were removed ($(cat /sys/power/replug/removed))" \
	test "$(cat /sys/power/replug/removed)" -ge 1000
expect "all 1,000 devices are bound again" wait_bound 1000
expect "every device came back" wait_for_inventory /tmp/inventory.before
expect "rt0 came back as a new struct device" \
	test "$ino_before" != "$(stat -c %i /sys/bus/replug_test/devices/rt0)"
expect_eq "the links came back" 4 \
	"$(ls -d /sys/class/devlink/replug_test:rt* 2> /dev/null | wc -l)"

# A fault at the first test device the walk reaches (the last registered),
# at one in the middle, and at the last it reaches: the writer gets the
# error, every device is there again.
for id in 999 500 0; do
	echo "$id unplug error=5" > $tb/fault
	cycle
	status=$?
	expect "fault at rt$id: the transition fails for the writer" test $status -ne 0
	expect "fault at rt$id: with the device's error (EIO)" \
		grep -q 'Input/output error' /tmp/state.err
	expect "fault at rt$id: the fault fired once" \
		grep -q "^$id unplug error 5 fired=1" $tb/fault
	expect "fault at rt$id: every device is there again" \
		wait_for_inventory /tmp/inventory.before
	echo "$id unplug off" > $tb/fault
done

# Hardware changed while asleep: rt998 vanishes, a new device appears
# under rt0, and rt997 is swapped for a device with another identity.
echo "vanish 998" > $tb/change
echo "appear 0" > $tb/change
echo "swap 997" > $tb/change
uevent_watch /tmp/testbus.raw
cycle
ktap_result "replug cycle over the changed hardware succeeded" $? "$(cat /tmp/state.err)"
expect "every device but the vanished one is bound" wait_bound 1000
udevadm settle --timeout=60
uevent_unwatch /tmp/testbus.raw /tmp/testbus.events
# identity_of rtN: the identity its ADD event carried.
identity_of() {
	sed -n "s|^ACTION=add DEVPATH=[^ ]*/$1 PM_REPLUG=1 .* PM_REPLUG_IDENTITY=\([a-z]*\)\$|\1|p" \
		/tmp/testbus.events
}
expect_eq "rt997, swapped while asleep, came back changed" changed "$(identity_of rt997)"
expect_eq "rt1000, which appeared while asleep, is new" new "$(identity_of rt1000)"
expect_eq "rt0, untouched, came back the same" same "$(identity_of rt0)"
expect_eq "every untouched device came back the same, each once" 998 \
	"$(grep -c '^ACTION=add DEVPATH=[^ ]*/rt[0-9]* PM_REPLUG=1 .* PM_REPLUG_IDENTITY=same$' /tmp/testbus.events)"
testbus_inventory > /tmp/testbus.after
expect "rt998 is gone" sh -c '! grep -q "^rt998 " /tmp/testbus.after'
new=$(grep -v -F -x -f /tmp/testbus.before /tmp/testbus.after | grep -v '^rt997 ')
expect "one new device appeared ($new)" test "$(echo "$new" | grep -c '^rt1000 ')" -eq 1
expect "rt997 is there with another identity" \
	sh -c "grep -q '^rt997 ' /tmp/testbus.after &&
	       ! grep -qx '$(grep '^rt997 ' /tmp/testbus.before)' /tmp/testbus.after"
expect_eq "nothing else changed" \
	"$(grep -v -e '^rt99[78] ' /tmp/testbus.before)" \
	"$(grep -v -e '^rt99[78] ' -e '^rt1000 ' /tmp/testbus.after)"

echo none > /sys/power/pm_test
echo classic > /sys/power/replug/mode

# Bad writes to the test bus's files change nothing.
. /replug/tests/replug-knobs-lib.sh
for bad in "count=0 shape=flat" "count=10001 shape=flat" "count=5 shape=round" \
	   "count=5" "shape=flat" "count=5 shape=flat fanout=2" \
	   "count=5 shape=wide depth=2" "count=5 shape=deep depth=0" \
	   "count=5 shape=flat count=6" "count=-1 shape=flat" "count=5 shape=flat links" \
	   "count=5 shape=flat unplug_us=1000001" "count=5 shape=flat colour=red"; do
	expect "tree rejects '$bad'" knob_rejects $tb/tree "$bad"
done
for bad in "0 unplug" "0 shutdown error=5" "0 unplug error=0" "0 unplug error=4096" \
	   "0 replugged error=5" "99999 unplug error=5" "x unplug error=5"; do
	expect "fault rejects '$bad'" knob_rejects $tb/fault "$bad"
done

# A deep tree in chains: the benchmark's deep trees of 1,000 and 10,000
# devices, as a single chain would outgrow sysfs paths.
echo "count=30 shape=deep depth=10" > $tb/tree
expect "a deep tree of three chains of ten" wait_bound 30
expect_eq "three chains start at the root" "0 10 20" \
	"$(awk '$2 == "-" { printf "%s%s", sep, $1; sep = " " }' $tb/nodes)"
expect "each chain ten deep: rt29 under rt20" \
	test -d /sys/bus/replug_test/devices/rt20/rt21/rt22/rt23/rt24/rt25/rt26/rt27/rt28/rt29
echo 1 > $tb/destroy
expect "test bus unloads" rmmod replug_testbus
