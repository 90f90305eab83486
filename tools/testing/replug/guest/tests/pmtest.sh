# SPDX-License-Identifier: GPL-2.0
# tools/pmtest in the guest, as a driver author would use it: build a
# test-bus tree, cycle it in replug mode, break one device and see the
# rollback, collect the KUnit results; its inventory agrees with the
# shell's, and bad arguments get a usage line and exit status 2.

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

pmtest_ok "pmtest tree loads the test bus and builds 200 devices" \
	tree count=200 shape=wide fanout=4 links=2 --module $ko
pmtest_ok "pmtest cycle: four replug cycles at pm_test=devices" \
	cycle --test devices --count 4
expect_eq "each cycle checked the events and the inventory (24 cases)" 24 \
	"$(grep -c '^ok ' /tmp/pmtest.out)"

# pmtest report reads the cycle back from the trace.
echo > /sys/kernel/tracing/trace
for event in replug/replug_device power/device_pm_callback_start \
	     power/device_pm_callback_end; do
	echo 1 > /sys/kernel/tracing/events/$event/enable
done
pmtest_ok "a traced cycle" cycle --test devices
echo 0 > /sys/kernel/tracing/events/enable
cycle=$(cat /sys/power/replug/cycle)
pmtest report > /tmp/report.txt
expect "pmtest report names the cycle and its transition" \
	grep -q "^cycle $cycle (suspend): " /tmp/report.txt
expect_eq "every test device is in it, removed" 200 \
	"$(grep -cE ' rt[0-9]+ +replug_test +removed ' /tmp/report.txt)"
expect "in walk order: the last registered first" \
	sh -c "sed -n 2p /tmp/report.txt | grep -qE '^ *1 +[^ ]+ '"
pmtest report --format json > /tmp/report.json
expect "as JSON" sh -c "grep -q '\"cycle\": $cycle' /tmp/report.json &&
			grep -q '\"device\": \"rt0\"' /tmp/report.json"
pmtest report --format svg > /tmp/report.svg
expect "as an SVG timeline with a bar per removal" \
	sh -c "grep -q '<svg' /tmp/report.svg &&
	       test \$(grep -o 'class=\"phase\"' /tmp/report.svg | wc -l) -ge 200"
pmtest report --cycle 999999 > /dev/null 2>&1
expect_eq "a cycle not in the trace is an error" 1 $?
pmtest report --format png > /dev/null 2> /tmp/pmtest.err
expect_eq "a bad format exits 2" 2 $?

pmtest_ok "pmtest fault arms an unplug error on rt150" fault rt150 unplug error=5
pmtest cycle --test devices > /tmp/pmtest.out 2>&1
expect_eq "the cycle with the fault fails" 1 $?
expect "the write is reported failed, with the device's error" \
	grep -q '^not ok 1 cycle 1: write to /sys/power/state' /tmp/pmtest.out
expect "the inventory still matches after the rollback" \
	grep -q '^ok 2 cycle 1: inventory matches' /tmp/pmtest.out
expect "the fault fired once" sh -c 'pmtest fault --list | grep -q "^150 unplug error 5 fired=1"'
pmtest_ok "the next cycle succeeds" cycle --test devices

pmtest_ok "pmtest kunit collects the project's suites" kunit
expect "with every suite and the closing line" \
	sh -c 'grep -q "pm_intent" /tmp/pmtest.out &&
	       grep -q "replug_walk" /tmp/pmtest.out &&
	       grep -qE "^[0-9]+ passed, 0 failed$" /tmp/pmtest.out'

echo 1 > /sys/kernel/debug/replug_test/destroy
echo classic > /sys/power/replug/mode
rmmod replug_testbus
