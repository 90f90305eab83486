# SPDX-License-Identifier: GPL-2.0
# The guest's udev: the real systemd-udevd handled the coldplug events, and
# network interfaces got their predictable names from 80-net-setup-link.

expect "systemd-udevd runs" pidof systemd-udevd
expect "udev queue settles" udevadm settle --timeout=30
expect "virtio-blk data disk has a udev database entry" \
	udevadm info --query=property --name=/dev/vda
nics=$(for n in /sys/class/net/*; do
	[ -e "$n/device" ] && echo "${n##*/}"; done | tr '\n' ' ')
expect_eq "three NICs present" 3 "$(echo $nics | wc -w)"
expect "NICs carry predictable names ($nics)" \
	sh -c "! echo '$nics' | grep -qw 'eth[0-9]*'"
