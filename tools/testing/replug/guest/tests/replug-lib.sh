# SPDX-License-Identifier: GPL-2.0
# replug_cycle STATE: one transition in replug mode, with the data disk
# mounted and the swap disk active, asserting what user space sees: the
# REMOVE and ADD events with the intent as udev handled them, every device
# back (as a new struct device where it was removed), the kept ones kept.
#
# Expects REPLUG_TRANSITION_VARS: the PM_* values the events must carry;
# REPLUG_COMEBACK_VARS, when set, those of the ADD events (a hibernation
# brings devices back in another phase than the one that took them).
# REPLUG_ENTER, when set, is the command that makes the transition instead
# of writing STATE to /sys/power/state (a dry run, for example), and
# REPLUG_SETUP_HOOK one to run once the disks are set up.

. /replug/tests/sleep-lib.sh

# The virtio disks by serial: a replug may hand out vda and vdb the other
# way round, as probing the new devices is asynchronous.
replug_setup_disks() {
	DATA_DEV=$(readlink -f /dev/disk/by-id/virtio-replug-data)
	SWAP_DEV=$(readlink -f /dev/disk/by-id/virtio-replug-swap)
	mkdir -p /mnt/data
	mount -t ext4 "$DATA_DEV" /mnt/data
	dd if=/dev/urandom of=/mnt/data/payload bs=64k count=16 2>/dev/null
	sha256sum /mnt/data/payload > /tmp/payload.sum
	sync
	mkswap "$SWAP_DEV" > /dev/null && swapon "$SWAP_DEV"
}

# The udev event log, one line per event: ACTION DEVPATH and its PM_ keys.
uevent_log() {
	awk '/^ACTION=/ { a = $0 } /^DEVPATH=/ { d = $0 } /^PM_/ { p = p " " $0 }
	     /^SYNTH_ARG_REPLUGMARK=/ { a = "" }
	     /^$/ { if (a != "") print a " " d p; a = ""; d = ""; p = "" }' "$1"
}

# uevent_watch RAW: record the events udev handles, with their properties,
# into RAW until uevent_unwatch RAW EVENTS turns them into a uevent_log.
# The monitor listens once it has named its source.
uevent_watch() {
	local out
	udevadm monitor --udev --property > "$1" &
	UEVENT_MONITOR=$!
	out=$(wait_in_file "$1" '^UDEV - ' 2>&1)
	[ -z "$out" ] || ktap_result "the udev monitor listens" 1 "$out"
}

# Once udev has handled every event, a synthetic one sent after them all
# (which uevent_log leaves out) shows that the monitor has written them
# down too.  Its argument's name is letters and digits only: the kernel
# refuses any other.
uevent_unwatch() {
	local uuid out
	udevadm settle --timeout=60
	uuid=$(cat /proc/sys/kernel/random/uuid)
	out=$( (echo "change $uuid REPLUGMARK=1" > /sys/devices/virtual/mem/null/uevent &&
		wait_in_file "$1" "^SYNTH_UUID=$uuid") 2>&1)
	[ -z "$out" ] || ktap_result "the udev monitor saw the marker event" 1 "$out"
	kill $UEVENT_MONITOR
	uevent_log "$1" > "$2"
}

# pci_devpath BDF: the PCI function's DEVPATH, as its uevents carry it.
pci_devpath() {
	local path
	path=$(readlink -f "/sys/bus/pci/devices/$1")
	echo "${path#/sys}"
}

# wait_for_inventory FILE [BUS]: wait until the inventory is what it was
# (re-enumeration of USB and the devices behind it goes on after the
# transition returns); with BUS, that bus's devices left out.
wait_for_inventory() {
	local tries=0
	while [ $tries -lt 20 ]; do
		udevadm settle --timeout=5
		inventory | grep -v "^${2:-(none)} " > /tmp/inventory.now
		diff -q "$1" /tmp/inventory.now > /dev/null && return 0
		tries=$((tries + 1))
		sleep 1
	done
	diff "$1" /tmp/inventory.now
	return 1
}

# usb_storage_scan_wait_ms: at usb-storage's last probe, the milliseconds
# between its SCSI host's arrival and the scan that found the disk: the
# settle wait (delay_use) and the scan's own time, from the kernel log.
usb_storage_scan_wait_ms() {
	dmesg | awk '
		function stamp(line) {
			sub(/^\[ */, "", line)
			sub(/\].*/, "", line)
			return line + 0
		}
		/ scsi host[0-9]+: usb-storage / {
			host = $0
			sub(/.* scsi host/, "", host)
			sub(/:.*/, "", host)
			start = stamp($0)
			wait = ""
		}
		host != "" && index($0, " scsi " host ":0:0:0: Direct-Access") {
			wait = int((stamp($0) - start) * 1000)
			host = ""
		}
		END { print wait }'
}

# usb_device_of DEVPATH: the DEVPATH of the USB device DEVPATH is part of.
usb_device_of() {
	local path=/sys$1

	while [ "$path" != /sys ] && [ ! -e "$path/idVendor" ]; do
		path=${path%/*}
	done
	[ "$path" != /sys ] && echo "${path#/sys}"
}

replug_cycle() {
	local state=$1 cycle ino_before ino_after nics_before nics_after
	local e1000e transition

	# The e1000e behind the PCIe root port stands for every removed device.
	e1000e=$(pci_devpath 0000:01:00.0)
	transition=$(echo "$REPLUG_TRANSITION_VARS" | sed 's/^PM_TRANSITION=\([^ ]*\).*/\1/')

	echo replug > /sys/power/replug/mode
	expect_eq "replug mode selected" "classic [replug]" \
		"$(cat /sys/power/replug/mode)"
	replug_setup_disks
	[ -z "$REPLUG_SETUP_HOOK" ] || $REPLUG_SETUP_HOOK
	expect "data disk mounted" grep -q ' /mnt/data ext4 ' /proc/mounts
	expect "swap active" grep -q "^$SWAP_DEV " /proc/swaps

	inventory > /tmp/inventory.before
	cycle=$(($(cat /sys/power/replug/cycle) + 1))
	ino_before=$(stat -c %i /sys/bus/pci/devices/0000:01:00.0)
	nics_before=$(ls /sys/class/net | sort | tr '\n' ' ')
	echo > /sys/kernel/tracing/trace
	# What sleepgraph draws a timeline from, and replug's own events.
	for event in replug power/suspend_resume power/device_pm_callback_start \
		     power/device_pm_callback_end; do
		echo 1 > "/sys/kernel/tracing/events/$event/enable"
	done
	uevent_watch /tmp/uevents.raw

	if [ -n "$REPLUG_ENTER" ]; then
		$REPLUG_ENTER
	else
		enter_sleep "$state"
	fi

	expect "every device came back" wait_for_inventory /tmp/inventory.before
	uevent_unwatch /tmp/uevents.raw /tmp/uevents
	{
		echo "replug guest: udev handled $(grep -c PM_REPLUG=1 /tmp/uevents) replug events, among them:"
		grep -E 'DEVPATH=[^ ]*(/0000:01:00.0|/net/[^ /]*|/[0-9]-1) ' /tmp/uevents |
			sed 's/^/replug guest:   /'
	} > /dev/console
	expect_eq "cycle counted" "$cycle" "$(cat /sys/power/replug/cycle)"
	expect "devices were removed ($(cat /sys/power/replug/removed))" \
		test "$(cat /sys/power/replug/removed)" -gt 5
	expect "devices were kept ($(cat /sys/power/replug/kept))" \
		test "$(cat /sys/power/replug/kept)" -gt 0

	echo 0 > /sys/kernel/tracing/events/enable
	cat /sys/kernel/tracing/trace > /tmp/trace
	for action in unplug remove replug; do
		expect "traced: $action e1000e 0000:01:00.0 cycle=$cycle" \
			grep -q "replug_device: $action e1000e 0000:01:00.0 cycle=$cycle transition=$transition" /tmp/trace
	done
	expect "traced: the mounted data disk kept" \
		grep -q "replug_device: keep [^ ]* ${DATA_DEV##*/} cycle=$cycle" /tmp/trace
	expect "traced for sleepgraph: device_pm_callback_start of the removal" \
		grep -q "device_pm_callback_start: e1000e 0000:01:00.0, parent: 0000:00:04.0, replug remove\[" /tmp/trace

	ino_after=$(stat -c %i /sys/bus/pci/devices/0000:01:00.0)
	expect "e1000e came back as a new struct device" \
		test "$ino_before" != "$ino_after"
	nics_after=$(ls /sys/class/net | sort | tr '\n' ' ')
	expect_eq "NICs keep their predictable names" "$nics_before" "$nics_after"

	for want in "ACTION=change DEVPATH=$e1000e PM_REPLUG=1 $REPLUG_TRANSITION_VARS PM_CYCLE=$cycle" \
		    "ACTION=remove DEVPATH=$e1000e PM_REPLUG=1 $REPLUG_TRANSITION_VARS PM_CYCLE=$cycle" \
		    "ACTION=add DEVPATH=$e1000e PM_REPLUG=1 ${REPLUG_COMEBACK_VARS:-$REPLUG_TRANSITION_VARS} PM_CYCLE=$cycle PM_REPLUG_IDENTITY=same"; do
		expect "udev saw: $want" grep -qxF "$want" /tmp/uevents
	done
	expect_eq "udev saw the e1000e announced, removed, added, in that order" \
		"change remove add" \
		"$(grep -E "^ACTION=(change|remove|add) DEVPATH=$e1000e PM_REPLUG=1 " /tmp/uevents |
		   sed 's/^ACTION=\([a-z]*\) .*/\1/' | tr '\n' ' ' | sed 's/ $//')"
	expect "udev saw the USB keyboard removed and added with PM_REPLUG=1" \
		sh -c "grep -q '^ACTION=add DEVPATH=.*/usb[0-9]/[0-9]-1 PM_REPLUG=1' /tmp/uevents &&
		       grep -q '^ACTION=remove DEVPATH=.*/usb[0-9]/[0-9]-1 PM_REPLUG=1' /tmp/uevents"
	# Offered the intent (the trace above), but it loses nothing: no
	# announcement costs udev a run of every rule for it.
	expect "the kept data disk was neither announced, removed nor added" \
		sh -c "! grep -qE '^ACTION=(change|remove|add) DEVPATH=.*/block/${DATA_DEV##*/} PM_REPLUG=1' /tmp/uevents"
	data_fn=$(readlink -f "/sys/class/block/${DATA_DEV##*/}/device/..")
	expect "nor was the PCI function it hangs off (${data_fn#/sys})" \
		sh -c "test -e '$data_fn/vendor' &&
		       ! grep -q '^ACTION=change DEVPATH=${data_fn#/sys} PM_REPLUG=1' /tmp/uevents"
	expect_eq "data disk still mounted" 1 "$(grep -c ' /mnt/data ext4 ' /proc/mounts)"
	expect "data on the mounted ext4 disk intact" sha256sum -c /tmp/payload.sum
	expect "swap still active" grep -q "^$SWAP_DEV " /proc/swaps
	swapoff "$SWAP_DEV"
	umount /mnt/data
	echo classic > /sys/power/replug/mode
}
