# SPDX-License-Identifier: GPL-2.0
# User space announces the transition itself, waits for udev, then starts
# it: the rules in udev-rules/ save the NIC's MTU, addresses and link
# state, and its PCI function's power settings, while the old device is
# still there, keyed by its bus identity, and give them back to the new
# one.  The transition takes the
# announced cycle and sends no second announcement.

. /replug/tests/replug-lib.sh

announce=/sys/power/replug/announce
nic=enp1s0	# the e1000e behind the PCIe root port
nic_path=$(pci_devpath 0000:01:00.0)

. /replug/tests/replug-knobs-lib.sh

expect_eq "nothing announced yet" none "$(cat $announce)"
expect "announce refused in classic mode" knob_rejects $announce s2idle
echo replug > /sys/power/replug/mode
for bad in "mem" "freeze" "deep s2idle" " " "S2IDLE"; do
	expect "announce rejects '$bad'" knob_rejects $announce "$bad"
done
echo freezer > /sys/power/pm_test
expect "announce refused when pm_test stops at the freezer" \
	knob_rejects $announce s2idle
echo none > /sys/power/pm_test

key=$(udevadm info --query=property --property=ID_PATH --value /sys/class/net/$nic)
fn=/sys/bus/pci/devices/0000:01:00.0
expect_eq "the function's runtime PM starts forbidden, the PCI default" on \
	"$(cat $fn/power/control)"
echo auto > $fn/power/control
echo 0 > $fn/d3cold_allowed
ip link set dev $nic mtu 1400
ip addr add 10.99.0.1/24 dev $nic
ip link set dev $nic up
expect_eq "administrator set the MTU" 1400 "$(cat /sys/class/net/$nic/mtu)"
cycle=$(($(cat /sys/power/replug/cycle) + 1))
uevent_watch /tmp/announce.raw
echo deep > /sys/power/mem_sleep
echo deep > $announce
expect_eq "announced for the next suspend to RAM" "deep $cycle" "$(cat $announce)"
udevadm settle --timeout=30
expect_eq "the NIC's bus identity" pci-0000:01:00.0 "$key"
expect_eq "the rule saved MTU, addresses and link state, by bus identity" \
	"mtu 1400 addr 10.99.0.1/24 up" \
	"$(cat /run/replug/net/$key 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
logged=$(dmesg | grep -c "replug-sysfs: $key:")
grep -qx 'power/control auto' /run/replug/sysfs/pci/$key &&
	grep -qx 'd3cold_allowed 0' /run/replug/sysfs/pci/$key
ktap_result "the sysfs rule saved the function's settings, by bus identity" $? \
	"saved: $(cat /run/replug/sysfs/pci/$key 2>&1 | tr '\n' ';')"

# nobody (65534) must not read what was saved, nor start a transition.
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
expect "an unprivileged user cannot read the saved settings" \
	sh -c "! $nobody cat /run/replug/sysfs/pci/$key 2>/dev/null &&
	       ! $nobody cat /run/replug/net/$key 2>/dev/null &&
	       cat /run/replug/sysfs/pci/$key /run/replug/net/$key >/dev/null"
expect "nor list them" sh -c "! $nobody ls /run/replug/sysfs/pci 2>/dev/null"
expect "nor announce a transition" \
	sh -c "! $nobody sh -c 'echo s2idle > $announce' 2>/dev/null"
expect "nor rehearse one" \
	sh -c "! $nobody sh -c 'echo reboot > /sys/power/replug/dry_run' 2>/dev/null"
expect "nor set a device's policy" \
	sh -c "! $nobody sh -c 'echo keep > $fn/power/replug' 2>/dev/null"
expect_eq "and the announcement stands" "deep $cycle" "$(cat $announce)"

inventory > /tmp/inventory.before
enter_sleep mem
expect "every device came back" wait_for_inventory /tmp/inventory.before
uevent_unwatch /tmp/announce.raw /tmp/announce.events
expect_eq "the transition took the announced cycle" $cycle \
	"$(cat /sys/power/replug/cycle)"
expect_eq "the announcement is used up" none "$(cat $announce)"
expect_eq "announced once: one change event for the NIC" 1 \
	"$(grep -c "^ACTION=change DEVPATH=$nic_path PM_REPLUG=1 .* PM_CYCLE=$cycle\$" /tmp/announce.events)"
expect "the NIC came back as a new device, added with the cycle, the same NIC" \
	grep -q "^ACTION=add DEVPATH=$nic_path PM_REPLUG=1 .* PM_CYCLE=$cycle PM_REPLUG_IDENTITY=same\$" /tmp/announce.events
expect_eq "the rule gave the new NIC its MTU back" 1400 \
	"$(cat /sys/class/net/$nic/mtu)"
expect "and its IPv4 address" \
	sh -c "ip -o addr show dev $nic | grep -q ' inet 10.99.0.1/24 '"
expect "and its link is up again" \
	sh -c "ip -o link show dev $nic | grep -q '[<,]UP[,>]'"
expect "the saved state is used up" test ! -e /run/replug/net/$key
expect_eq "the new function has its runtime PM setting back" auto \
	"$(cat $fn/power/control)"
expect_eq "and d3cold_allowed" 0 "$(cat $fn/d3cold_allowed)"
expect "the kernel log names each setting given back" \
	sh -c "dmesg | grep 'replug-sysfs: $key:' | tail -n +$((logged + 1)) |
	       tr '\n' ';' | grep -q 'power/control restored to auto;.*d3cold_allowed restored to 0;'"
expect "the saved settings are used up once the driver bound" \
	sh -c "! ls /run/replug/sysfs/pci/$key* 2> /dev/null"
for bad in "save /devices/../../etc $key" "save /tmp/x $key" "save $(pci_devpath 0000:01:00.0) ../x" \
	   "restore" "stash $(pci_devpath 0000:01:00.0) $key"; do
	/usr/lib/udev/replug-sysfs $bad > /dev/null 2>&1
	expect_eq "replug-sysfs refuses '$bad' with a usage error" 2 $?
done
for bad in "save ../etc/passwd" "save $nic ../../etc" "save" "stash $nic" "save $nic a/b"; do
	/usr/lib/udev/replug-net $bad > /dev/null 2>&1
	expect_eq "replug-net refuses '$bad' with a usage error" 2 $?
done

# An announcement for another state does not hold: the kernel announces
# the transition that really happens, as a cycle of its own.
echo s2idle > $announce
stale=$(cat /sys/power/replug/cycle)
echo devices > /sys/power/pm_test
echo mem > /sys/power/state
ktap_result "pm_test=devices deep suspend after an s2idle announcement" $?
echo none > /sys/power/pm_test
expect_eq "a new cycle, announced by the kernel" $((stale + 1)) \
	"$(cat /sys/power/replug/cycle)"
expect_eq "the stale announcement is gone" none "$(cat $announce)"
expect "every device came back" wait_for_inventory /tmp/inventory.before
ip addr flush dev $nic
ip link set dev $nic down mtu 1500
echo on > $fn/power/control
echo 1 > $fn/d3cold_allowed
echo classic > /sys/power/replug/mode
