# SPDX-License-Identifier: GPL-2.0
# Hardware changed while the system slept or was hibernated.  The host,
# over QMP while the guest is in S3 or between the two boots of a
# hibernation, unplugs the USB disk and plugs in another (another serial,
# another filesystem), unplugs the e1000e from its PCIe slot and plugs an
# e1000 into a slot of a PCI bridge, and puts another filesystem of twice
# the size on the medium of a virtio disk (run.py's hardware_changes()).
# After the wake the old devices are gone, the new ones probed, the
# virtio disk read again as new hardware, and udev saw each old device
# removed once, as the system went down, each new one added once, and
# nothing else of them.  Every PM_ key the events carried is a short plain
# word or number.  Run under the debug kernel, KASAN would name any use
# of a device freed with the hardware that went away.

. /replug/tests/replug-lib.sh

# wait_for PATH: PATH shows up within 30 s.
wait_for() {
	wait_until test -e "$1"
}

# nic_with_mac MAC: the DEVPATH of the network interface with that address.
nic_with_mac() {
	local nic
	for nic in /sys/class/net/*; do
		[ "$(cat "$nic/address")" = "$1" ] || continue
		nic=$(readlink -f "$nic")
		echo "${nic#/sys}"
		return 0
	done
	return 1
}

# wait_for_nic MAC: a network interface with that address shows up.
wait_for_nic() {
	wait_until nic_with_mac "$1" > /dev/null
}

# devpath_of NODE: the DEVPATH of the device behind a /dev node.
devpath_of() {
	udevadm info -q path -n "$1"
}

# actions_on EVENTS DEVPATH: the adds and removes udev saw of that device,
# on one line (the replug announcement is a change event of every device,
# binding and unbinding come with the driver).
actions_on() {
	awk -v d="DEVPATH=$2" '$2 == d && $1 ~ /^ACTION=(add|remove)$/ {
		printf "%s%s", sep, substr($1, 8); sep = " " }
		END { print "" }' "$1"
}

# hw_before: note the hardware that is to change, and watch udev.
hw_before() {
	echo replug > /sys/power/replug/mode
	expect "the first USB disk is there" wait_for /dev/disk/by-label/replug-usb
	expect "the virtio disk holds its first filesystem" \
		wait_for /dev/disk/by-label/replug-vdisk-a
	expect "the e1000e is there" wait_for_nic 52:54:00:00:00:12
	usb_old=$(devpath_of /dev/disk/by-label/replug-usb)
	usb_old_device=$(usb_device_of "$usb_old")
	# A settle wait long enough to tell from a scan's own time.
	echo 2 > /sys/module/usb_storage/parameters/delay_use
	vdisk_old=$(devpath_of /dev/disk/by-id/virtio-replug-vdisk)
	vdisk_old_sectors=$(cat "/sys$vdisk_old/size")
	nic_old=$(nic_with_mac 52:54:00:00:00:12)
	nic_old_pci=${nic_old%/net/*}
	uevent_watch /tmp/hw.raw
}

# hw_after TRANSITION: the system is back from TRANSITION (suspend or
# hibernate) on changed hardware.
hw_after() {
	expect "the USB disk plugged in while asleep was probed" \
		wait_for /dev/disk/by-label/replug-usb2
	expect "the NIC plugged in while asleep was probed" wait_for_nic 52:54:00:00:00:13
	expect "the virtio disk's new filesystem was found" \
		wait_for /dev/disk/by-label/replug-vdisk-b
	uevent_unwatch /tmp/hw.raw /tmp/hw.events

	usb_new=$(devpath_of /dev/disk/by-label/replug-usb2)
	vdisk_new=$(devpath_of /dev/disk/by-id/virtio-replug-vdisk)
	nic_new=$(nic_with_mac 52:54:00:00:00:13)
	nic_new_pci=${nic_new%/net/*}

	expect "the USB disk unplugged while asleep is gone" \
		test ! -e /dev/disk/by-label/replug-usb
	expect "the NIC unplugged while asleep is gone" \
		sh -c "! grep -qx 52:54:00:00:00:12 /sys/class/net/*/address &&
		       test ! -e /sys$nic_old_pci"
	expect_eq "the new NIC is driven by e1000" e1000 \
		"$(basename "$(readlink "/sys$nic_new_pci/driver")")"
	expect "the virtio disk's first filesystem is gone" \
		test ! -e /dev/disk/by-label/replug-vdisk-a
	expect_eq "the virtio disk was read again: twice its size" \
		$((vdisk_old_sectors * 2)) "$(cat "/sys$vdisk_new/size")"

	expect_eq "udev saw the old USB disk removed, nothing else" \
		remove "$(actions_on /tmp/hw.events "$usb_old")"
	expect_eq "udev saw the new USB disk added, nothing else" \
		add "$(actions_on /tmp/hw.events "$usb_new")"
	expect_eq "udev saw the old NIC's PCI function removed, nothing else" \
		remove "$(actions_on /tmp/hw.events "$nic_old_pci")"
	expect_eq "udev saw the old NIC's interface removed, nothing else" \
		remove "$(actions_on /tmp/hw.events "$nic_old")"
	expect_eq "udev saw the new NIC's PCI function added, nothing else" \
		add "$(actions_on /tmp/hw.events "$nic_new_pci")"
	expect_eq "udev saw the new NIC's interface added, nothing else" \
		add "$(actions_on /tmp/hw.events "$nic_new")"
	# The bridge slot held nothing replug took away, so the rescan finds
	# the NIC as plain hotplug, outside the cycle: it must not be taken
	# for the e1000e that went from its root port.
	expect "the NIC in a slot that held none is not taken for hardware that went" \
		sh -c "! grep -qE '^ACTION=add DEVPATH=$nic_new_pci .*PM_REPLUG_IDENTITY=(same|changed)\$' /tmp/hw.events"
	expect "nor is its interface" \
		sh -c "! grep -qE '^ACTION=add DEVPATH=$nic_new .*PM_REPLUG_IDENTITY=(same|changed)\$' /tmp/hw.events"
	usb_new_device=$(usb_device_of "$usb_new")
	# Behind the port the old one left (the same chain of ports below the
	# same root hub) it is changed hardware, behind another new.
	if [ "${usb_new_device#*/usb[0-9]*/[0-9]*-}" = "${usb_old_device#*/usb[0-9]*/[0-9]*-}" ]; then
		usb_answer=changed
	else
		usb_answer=new
	fi
	expect "the other USB disk is $usb_answer hardware (${usb_new_device##*/} for ${usb_old_device##*/})" \
		grep -q "^ACTION=add DEVPATH=$usb_new_device PM_REPLUG=1 .* PM_REPLUG_IDENTITY=$usb_answer\$" /tmp/hw.events
	expect "and so is the disk on it" \
		sh -c "grep -q '^ACTION=add DEVPATH=$usb_new PM_REPLUG=1 .* PM_REPLUG_IDENTITY=[a-z]*\$' /tmp/hw.events &&
		       ! grep -q '^ACTION=add DEVPATH=$usb_new .* PM_REPLUG_IDENTITY=same\$' /tmp/hw.events"
	scan_wait=$(usb_storage_scan_wait_ms)
	expect "usb-storage let the other USB disk settle for 2 s (${scan_wait:-no scan} ms)" \
		test "${scan_wait:-0}" -ge 2000
	echo 1 > /sys/module/usb_storage/parameters/delay_use
	if [ "$vdisk_old" = "$vdisk_new" ]; then
		expect_eq "udev saw the virtio disk removed and added once" \
			"remove add" "$(actions_on /tmp/hw.events "$vdisk_old")"
	else
		expect_eq "udev saw the virtio disk removed once" \
			remove "$(actions_on /tmp/hw.events "$vdisk_old")"
		expect_eq "udev saw the virtio disk added again once" \
			add "$(actions_on /tmp/hw.events "$vdisk_new")"
	fi

	# The intent reaches user space as short words and numbers only: nothing
	# a rule could misparse, nothing unbounded.
	expect "every PM_ key of every event is a short plain word or number" \
		sh -c "! grep '^PM_' /tmp/hw.raw | grep -Ev '^PM_[A-Z_]{1,24}=[a-z0-9_-]{1,24}\$'"
	expect "the events carried the intent" grep -q "^PM_TRANSITION=$1\$" /tmp/hw.raw
	expect "the new USB disk's filesystem mounts" sh -c \
		'mkdir -p /mnt/usb2 && mount -t ext4 /dev/disk/by-label/replug-usb2 /mnt/usb2 &&
		 umount /mnt/usb2'
	expect "the virtio disk's new filesystem mounts, all of it" sh -c \
		'mkdir -p /mnt/vdisk && mount -t ext4 /dev/disk/by-label/replug-vdisk-b /mnt/vdisk &&
		 test "$(df -kP /mnt/vdisk | awk "NR == 2 { print \$2 }")" -gt 24000 &&
		 umount /mnt/vdisk'
	echo classic > /sys/power/replug/mode
}
