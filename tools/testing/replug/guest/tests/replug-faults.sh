# SPDX-License-Identifier: GPL-2.0
# The fault matrix of the walk, on the test bus: an error and a hang in
# each of its phases (a device's ->unplug(), the removal of its unit) at
# the first, a middle and the last device the walk reaches, in a flat, a
# deep and a wide tree.  Each transition fails for the writer, with the
# device's error or, once replug's watchdog has named the device that
# hung, with ETIMEDOUT; the system runs on and every device is back.
# After the walk nothing can fail the transition any more: a probe that
# fails is named by the driver core, and a new probe brings the device
# back.  (An image that cannot be written is replug-hibernate's.)

. /replug/tests/replug-lib.sh
. /replug/tests/testbus-lib.sh

devices=60
watchdog_ms=500
hang_ms=1500

# fault_cycle NAME ID PHASE FAULT: the transition with FAULT armed.
fault_cycle() {
	local name=$1 id=$2 phase=$3 fault=$4 status
	dmesg -c > /dev/null
	echo "$id $phase $fault" > $tb/fault
	echo mem > /sys/power/state 2> /tmp/state.err
	status=$?
	expect "$name: the transition fails for the writer" test $status -ne 0
	expect "$name: the fault fired" grep -q "^$id $phase ${fault%=*} ${fault#*=} fired=1" $tb/fault
	case $fault in
	error=*)
		expect "$name: the writer gets the device's error (EIO)" \
			grep -q 'Input/output error' /tmp/state.err ;;
	hang=*)
		expect "$name: the writer gets ETIMEDOUT" grep -q 'timed out' /tmp/state.err
		expect "$name: the watchdog named rt$id" sh -c \
			"dmesg | grep -Eq 'rt$id: replug: (unplug\(\)|removal) has not returned after $watchdog_ms ms'" ;;
	esac
	expect "$name: every device is back" wait_for_inventory /tmp/inventory.tree
	echo "$id $phase off" > $tb/fault
}

watchdog_before=$(cat /sys/power/replug/watchdog_ms)
delay=/sys/module/suspend/parameters/pm_test_delay
delay_before=$(cat $delay)
# The devices level waits there before resuming; nothing to see in that.
echo 0 > $delay
echo replug > /sys/power/replug/mode
echo devices > /sys/power/pm_test
echo $watchdog_ms > /sys/power/replug/watchdog_ms
expect "test bus is loaded" sh -c \
	"[ -d $tb ] || insmod /lib/modules/replug-testbus.ko"

for shape in flat deep wide; do
	expect "a $shape tree of $devices devices" \
		sh -c "echo 'count=$devices shape=$shape' > $tb/tree"
	expect "$shape: all $devices bound" wait_bound $devices
	udevadm settle --timeout=30
	inventory > /tmp/inventory.tree
	# The walk reaches the last registered device first, rt0 last.
	for id in $((devices - 1)) $((devices / 2)) 0; do
		for phase in unplug remove; do
			for fault in error=5 hang=$hang_ms; do
				fault_cycle "$shape rt$id $phase $fault" $id $phase $fault
			done
		done
	done
done

# After the walk: the system is up again when a probe fails.
id=$((devices / 2))
dmesg -c > /dev/null
echo "$id probe error=5" > $tb/fault
echo mem > /sys/power/state
ktap_result "probe error at rt$id: the transition itself succeeds" $? ""
# Probing is asynchronous: the failure is logged when it is done.
expect "probe error at rt$id: the driver core names it" wait_until \
	dmesg_has "rt$id: probe with driver replug_test failed with error -5"
echo "rt$id" > /sys/bus/replug_test/drivers_probe
expect "probe error at rt$id: a new probe brings it back" wait_for_inventory /tmp/inventory.tree

echo 1 > $tb/destroy
expect "test bus unloads" rmmod replug_testbus
echo "$watchdog_before" > /sys/power/replug/watchdog_ms
echo "$delay_before" > $delay
echo none > /sys/power/pm_test
echo classic > /sys/power/replug/mode
