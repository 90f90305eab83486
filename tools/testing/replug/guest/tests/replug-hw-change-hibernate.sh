# SPDX-License-Identifier: GPL-2.0
# Hardware changed while the system was hibernated (see
# replug-hw-change-lib.sh): the machine powers off once the image is
# written, the host changes the hardware, and a second boot restores the
# image, whose kernel finds what is there now.

. /replug/tests/replug-hw-change-lib.sh
. /replug/tests/hibernate-lib.sh

replug_setup_disks
hw_before
hibernate shutdown
expect "this kernel was restored from the image" \
	sh -c 'dmesg | grep -q "PM: hibernation: Hibernation image restored successfully"'
hw_after hibernate
expect "the data disk, kept in place, still holds its payload" \
	sha256sum -c /tmp/payload.sum
swapoff "$SWAP_DEV"
umount /mnt/data
