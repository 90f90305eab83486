# SPDX-License-Identifier: GPL-2.0
# Races with the walk.  A dry run leaves user space running while the
# devices go, so a hang at one test device holds the walk open while
# others come in, until the test releases it: a second transition is
# refused with EBUSY; a mode write blocks until the walk ends; a policy
# write to a device the walk is about to remove returns while the walk
# is still held (it used to wait for the walk, which waited for it to
# leave the file it was removing), and so does a uevent written to such
# a device; a uevent written to every device (udevadm trigger)
# succeeds; hardware arriving
# mid-walk (a rescan of every PCI bus, as a hotplug driver's is, and a
# device added to the test bus) is found, every device ends up back
# exactly once and bound; and unloading the test bus's
# module mid-walk ends with the module and its devices gone, every other
# device back, and nothing reported by the kernel.

. /replug/tests/replug-lib.sh
. /replug/tests/testbus-lib.sh

devices=50
# Long enough never to end by itself: the test releases the walk when it
# has seen what it wanted (expect_walk_ended), so nothing depends on how
# long anything takes.
hang_ms=600000
held=$((devices / 2))

# hold_walk: a dry run in the background whose walk hangs at rt$held; its
# exit status lands in /tmp/dry.status when it ends.  Run in this shell,
# not in a command substitution, which would wait for the dry run too.
hold_walk() {
	rm -f /tmp/dry.status
	dmesg -c > /dev/null
	echo "$held unplug hang=$hang_ms" > $tb/fault
	(echo poweroff > /sys/power/replug/dry_run 2> /tmp/dry.err
	 echo $? > /tmp/dry.status) > /dev/null 2>&1 &
	dry=$!
	wait_until dmesg_has "rt$held: unplug fault fires (poweroff): hang"
}

expect_walk_held() {
	hold_walk
	ktap_result "a dry run's walk is held at rt$held" $? \
		"rt$held's fault never fired: $(cat $tb/fault)"
}

uptime_cs() {
	tr -d . < /proc/uptime | cut -d' ' -f1
}

# blocked PID: the task sleeps uninterruptibly, as one waiting for a mutex.
blocked() {
	[ "$(cut -d' ' -f3 "/proc/$1/stat" 2> /dev/null)" = D ]
}

# expect_walk_ended: the hang is released and the dry run ends, and well
# (in this shell: the dry run is its child).
expect_walk_ended() {
	echo "$held unplug off" > $tb/fault
	wait $dry
	test "$(cat /tmp/dry.status)" = 0
	ktap_result "the dry run ends well" $? "$(cat /tmp/dry.err)"
}

tainted=$(cat /proc/sys/kernel/tainted)
# The walks are held on purpose, for as long as each check takes (29 s
# for udevadm trigger under the debug kernel): no watchdog calls them off.
watchdog_before=$(cat /sys/power/replug/watchdog_ms)
echo 0 > /sys/power/replug/watchdog_ms
echo replug > /sys/power/replug/mode
echo devices > /sys/power/pm_test
expect "test bus loads" insmod /lib/modules/replug-testbus.ko
echo "count=$devices shape=wide" > $tb/tree
expect "all $devices bound" wait_bound $devices
udevadm settle --timeout=30
inventory > /tmp/races.before

expect_walk_held
! echo mem > /sys/power/state 2> /tmp/second.err
ktap_result "a second transition during the walk is refused" $? "it ran"
expect "with EBUSY" grep -q 'Device or resource busy' /tmp/second.err
expect_walk_ended
expect "every device is back" wait_for_inventory /tmp/races.before

expect_walk_held
rm -f /tmp/mode.status
(echo classic > /sys/power/replug/mode; echo $? > /tmp/mode.status) &
mode=$!
expect "a mode write waits for the walk to end" wait_until blocked $mode
expect "and has not returned, the walk still held" test ! -e /tmp/mode.status
expect_walk_ended
wait $mode
expect_eq "then returns, and takes effect" "0 [classic] replug" \
	"$(cat /tmp/mode.status) $(cat /sys/power/replug/mode)"
echo replug > /sys/power/replug/mode
expect "every device is back" wait_for_inventory /tmp/races.before

# rt$held's parent waits for it in the walk, to be removed after it.
parent=$(awk -v id=$held '$1 == id { print $2 }' $tb/nodes)
expect_walk_held
echo auto > /sys/bus/replug_test/devices/rt$parent/power/replug
ktap_result "a policy write to rt$parent, still to be removed, succeeds" $? ""
expect "and returns, the walk still held" test ! -e /tmp/dry.status
expect_walk_ended
expect "every device is back" wait_for_inventory /tmp/races.before

expect_walk_held
echo add > /sys/bus/replug_test/devices/rt$parent/uevent
ktap_result "a uevent written to rt$parent, still to be removed, is taken" $? ""
expect "and returns, the walk still held" test ! -e /tmp/dry.status
start=$(uptime_cs)
udevadm trigger --action=change
ktap_result "udevadm trigger of every device, started mid-walk, succeeds ($(($(uptime_cs) - start)) cs)" $? ""
expect_walk_ended
expect "every device is back" wait_for_inventory /tmp/races.before

# Hardware arriving while the walk is held: the PCI functions it has
# removed already are found again by a rescan of every PCI bus (as a
# hotplug driver would, on a presence change), and a new device appears
# on the test bus.  Neither may be lost, doubled or left unbound.
expect_walk_held
pci_gone=$(($(grep -c '^pci ' /tmp/races.before) - $(ls /sys/bus/pci/devices | wc -l)))
echo 1 > /sys/bus/pci/rescan
ktap_result "a rescan of every PCI bus mid-walk ($pci_gone functions removed by then) succeeds" $? ""
echo "appear $parent" > $tb/change
ktap_result "a device appearing on the test bus mid-walk is taken" $? ""
expect "and both return, the walk still held" test ! -e /tmp/dry.status
expect_walk_ended
expect "every test device is back, and the new one bound" wait_bound $((devices + 1))
grep -v '^replug_test ' /tmp/races.before > /tmp/races.others
expect "every PCI function and every other device is back, bound as before" \
	wait_for_inventory /tmp/races.others replug_test

# Unloading the module releases the hang, as writing "off" would.
expect_walk_held
rmmod replug_testbus 2> /tmp/rmmod.err &
rmmod=$!
wait $dry
test "$(cat /tmp/dry.status)" = 0
ktap_result "the dry run ends well" $? "$(cat /tmp/dry.err)"
wait $rmmod
ktap_result "the test bus's module unloads mid-walk" $? "$(cat /tmp/rmmod.err)"
expect "none of its devices is left" test ! -e /sys/bus/replug_test
expect "every other device is back" wait_for_inventory /tmp/races.others replug_test
expect_eq "no WARN, oops or other taint" "$tainted" "$(cat /proc/sys/kernel/tainted)"
echo "$watchdog_before" > /sys/power/replug/watchdog_ms
echo none > /sys/power/pm_test
echo classic > /sys/power/replug/mode
