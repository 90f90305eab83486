# SPDX-License-Identifier: GPL-2.0
# Hardware changed while the system slept: the host, over QMP, unplugs the
# USB disk and plugs in another (another serial, another filesystem) while
# the guest is in S3.  After the wake the old disk is gone, the new one
# is probed, and udev saw the old one removed once, at the suspend, and
# the new one added once, never the old one again.

. /replug/tests/replug-lib.sh

# disk_events RAW: "ACTION serial" of each USB disk udev added or removed
# (the replug announcement is a change event of every device).
disk_events() {
	awk '/^ACTION=/ { a = substr($0, 8) } /^DEVTYPE=disk$/ { d = 1 }
	     /^ID_BUS=usb$/ { u = 1 } /^ID_SERIAL_SHORT=/ { s = substr($0, 17) }
	     /^$/ { if (d && u && (a == "add" || a == "remove")) print a, s
		    a = ""; d = 0; u = 0; s = "" }' "$1"
}

# wait_for_label LABEL: the disk with that filesystem label shows up.
wait_for_label() {
	local tries=0
	while [ $tries -lt 30 ]; do
		[ -e "/dev/disk/by-label/$1" ] && return 0
		tries=$((tries + 1))
		sleep 1
	done
	return 1
}

echo replug > /sys/power/replug/mode
expect "the first USB disk is there" wait_for_label replug-usb
uevent_watch /tmp/hw.raw
echo "REPLUG-HOST: swap-usb-disk-in-s3" > /dev/console
echo deep > /sys/power/mem_sleep
enter_sleep mem
expect "the disk plugged in while asleep was probed" wait_for_label replug-usb2
udevadm settle --timeout=30
expect "the disk unplugged while asleep is gone" test ! -e /dev/disk/by-label/replug-usb
sleep 1
uevent_unwatch /tmp/hw.raw /tmp/hw.events
disk_events /tmp/hw.raw > /tmp/hw.disks
expect_eq "udev saw the old disk removed, then the new one added" \
	"remove replug-usb
add replug-usb2" "$(cat /tmp/hw.disks)"
expect "the new disk's filesystem mounts" sh -c \
	'mkdir -p /mnt/usb2 && mount -t ext4 /dev/disk/by-label/replug-usb2 /mnt/usb2 &&
	 umount /mnt/usb2'
echo classic > /sys/power/replug/mode
