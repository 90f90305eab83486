# SPDX-License-Identifier: GPL-2.0
# The kernel a kexec started: every device the old kernel had is here and
# works.  The old kernel left its inventory and a payload on the data disk.
. /replug/tests/kexec-lib.sh

expect "started by kexec" grep -q 'replug\.kexec=1' /proc/cmdline
data=$(readlink -f /dev/disk/by-id/virtio-replug-data)
mkdir -p /mnt/data
expect "data disk mounted" mount -t ext4 "$data" /mnt/data
expect "every device the old kernel had is here" \
	wait_for_inventory /mnt/data/inventory.before
expect "data on the ext4 disk intact" sh -c 'cd /mnt/data && sha256sum -c payload.sum'
umount /mnt/data
for mac in 52:54:00:00:00:11 52:54:00:00:00:12; do
	nic=$(nic_by_mac $mac)
	/usr/sbin/ip link set dev "$nic" up
done
# carrier_up NIC: the link comes up within 30 s.
carrier_up() {
	wait_until grep -qsx 1 "/sys/class/net/$1/carrier"
}
for mac in 52:54:00:00:00:11 52:54:00:00:00:12; do
	nic=$(nic_by_mac $mac)
	expect "$nic ($mac) links up" carrier_up "$nic"
done
expect "NICs pass traffic after the kexec" nic_pair_ping
