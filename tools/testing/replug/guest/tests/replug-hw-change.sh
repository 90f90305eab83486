# SPDX-License-Identifier: GPL-2.0
# Hardware changed while the system slept: the host, over QMP, unplugs the
# USB disk and plugs in another (another serial, another filesystem) while
# the guest is in S3.  After the wake the old disk is gone, the new one
# is probed, and udev saw the old one removed once, at the suspend, and
# the new one added once, never the old one again.  Every PM_ key the
# events carried is a short plain word or number.

. /replug/tests/replug-lib.sh

# usb_disk_events LOG: "ACTION DEVPATH" of each USB disk (not partition)
# udev added or removed, from a uevent_log (the replug announcement is a
# change event of every device).
usb_disk_events() {
	awk '$1 ~ /^ACTION=(add|remove)$/ && $2 ~ /\/usb[0-9]+\/.*\/block\/sd[a-z]+$/ {
		print substr($1, 8), substr($2, 9) }' "$1"
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
old=$(udevadm info -q path -n /dev/disk/by-label/replug-usb)
uevent_watch /tmp/hw.raw
echo "REPLUG-HOST: swap-usb-disk-in-s3" > /dev/console
echo deep > /sys/power/mem_sleep
enter_sleep mem
expect "the disk plugged in while asleep was probed" wait_for_label replug-usb2
new=$(udevadm info -q path -n /dev/disk/by-label/replug-usb2)
udevadm settle --timeout=30
expect "the disk unplugged while asleep is gone" test ! -e /dev/disk/by-label/replug-usb
sleep 1
uevent_unwatch /tmp/hw.raw /tmp/hw.events
usb_disk_events /tmp/hw.events > /tmp/hw.disks
expect_eq "udev saw the old disk removed, then the new one added, nothing else" \
	"remove $old
add $new" "$(cat /tmp/hw.disks)"
# The intent reaches user space as short words and numbers only: nothing
# a rule could misparse, nothing unbounded.
expect "every PM_ key of every event is a short plain word or number" \
	sh -c "! grep '^PM_' /tmp/hw.raw | grep -Ev '^PM_[A-Z_]{1,24}=[a-z0-9_-]{1,24}\$'"
expect "the events carried the intent" grep -q '^PM_TRANSITION=suspend$' /tmp/hw.raw
expect "the new disk's filesystem mounts" sh -c \
	'mkdir -p /mnt/usb2 && mount -t ext4 /dev/disk/by-label/replug-usb2 /mnt/usb2 &&
	 umount /mnt/usb2'
echo classic > /sys/power/replug/mode
