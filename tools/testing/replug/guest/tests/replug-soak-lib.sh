# SPDX-License-Identifier: GPL-2.0
# Helpers of the soak (replug-soak.sh) and of the kernels its kexecs start
# (replug-soak-kexec.sh).
#
# replug.soak=KIND:N,... on the kernel command line says how many cycles
# of each kind: devices (pm_test=devices suspends), s2idle, s3, hibernate
# (test_resume: the image written and restored in the same boot), kexec;
# tree:N is the size of the test-bus tree cycled with the default devices.

. /replug/tests/kexec-lib.sh
. /replug/tests/testbus-lib.sh

# soak_count KIND: how many cycles of KIND replug.soak asks for (0).
soak_count() {
	cmdline_value replug.soak | tr ',' '\n' | sed -n "s/^$1:\([0-9]*\)$/\1/p" |
		grep . || echo 0
}

# The data disk holds what the soak wrote, with its checksums, and what
# the next kernel of a kexec must find.
SOAK_DATA=/mnt/data/soak

soak_mount_data() {
	local data
	data=$(readlink -f /dev/disk/by-id/virtio-replug-data)
	mkdir -p /mnt/data
	grep -q ' /mnt/data ext4 ' /proc/mounts || mount -t ext4 "$data" /mnt/data
}

# soak_write NAME: NAME on the data disk rewritten with random data, its
# checksum beside it in NAME.sum, both on the disk before this returns.
soak_write() {
	mkdir -p $SOAK_DATA
	dd if=/dev/urandom of="$SOAK_DATA/$1" bs=64k count=4 2>/dev/null &&
		(cd $SOAK_DATA && sha256sum "$1" > "$1.sum") && sync
}

soak_data_intact() {
	(cd $SOAK_DATA && cat -- *.sum | sha256sum -c > /dev/null) &&
		echo "$(ls $SOAK_DATA/*.sum | wc -l) files intact"
}

# soak_kexec_load LEFT: load this kernel, with this root as its initramfs, to
# run replug-soak-kexec with LEFT more kexecs to go; init runs it at the end.
soak_kexec_load() {
	local next
	pack_root /tmp/initrd.cpio || return 1
	next=$(sed -e 's/replug\.tests=[^ ]*/replug.tests=replug-soak-kexec/' \
		   -e 's/ *replug\.end=[^ ]*//' -e 's/ *replug\.kexec_left=[^ ]*//' \
		   /proc/cmdline)
	next="$next replug.kexec_left=$1"
	[ "$1" -eq 0 ] || next="$next replug.end=kexec"
	kexec -l /boot/bzImage --initrd=/tmp/initrd.cpio --append="$next" &&
		[ "$(cat /sys/kernel/kexec_loaded)" = 1 ]
}
