# SPDX-License-Identifier: GPL-2.0
# The first kernel of a kexec: leave a payload and the device inventory on
# the data disk for the next kernel to check, then load this same kernel
# with its own root as the initramfs.  init runs `kexec -e` once every
# test is reported (replug.end=kexec); kexec-after.sh runs in the next
# kernel.
. /replug/tests/kexec-lib.sh

data=$(readlink -f /dev/disk/by-id/virtio-replug-data)
mkdir -p /mnt/data
expect "data disk mounted" mount -t ext4 "$data" /mnt/data
dd if=/dev/urandom of=/mnt/data/payload bs=64k count=16 2>/dev/null
(cd /mnt/data && sha256sum payload > payload.sum)
inventory > /mnt/data/inventory.before
expect "NICs pass traffic before the kexec" nic_pair_ping
expect "data disk unmounted" umount /mnt/data

expect "own root packed as the next kernel's initramfs" pack_root /tmp/initrd.cpio
next=$(sed -e 's/replug\.tests=[^ ]*/replug.tests=kexec-after/' \
	   -e 's/replug\.end=kexec/replug.kexec=1/' /proc/cmdline)
expect "kernel and initramfs loaded for kexec" \
	kexec -l /boot/bzImage --initrd=/tmp/initrd.cpio --append="$next"
expect_eq "kexec image loaded" 1 "$(cat /sys/kernel/kexec_loaded)"
