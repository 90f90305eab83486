#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox-static, the real systemd-udevd and
# udevadm with the distribution's rules plus udev-rules/, kexec, the guest
# test scripts, and whatever extra programs are named (pmtest).  The kernel
# named with --boot goes into /boot, for the guest to kexec into.
#
# Usage: mkinitramfs.sh PROJECTDIR STAGEDIR OUTPUT [PROGRAM...] [--modules KO...]
#        [--boot BZIMAGE]
set -euo pipefail

project=$(realpath "$1") stage=$2 out=$3
shift 3

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,run,tmp,mnt,etc/udev/rules.d,usr/lib/udev,usr/lib/systemd/network,lib64,var}

copy_with_libs() {
	local bin=$1 dest=$2 lib
	install -D -m 0755 "$bin" "$stage$dest"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$stage$lib" ] || install -D -m 0755 "$lib" "$stage$lib"
	done
}

install -m 0755 /bin/busybox "$stage/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done

copy_with_libs /usr/lib/systemd/systemd-udevd /usr/lib/systemd/systemd-udevd
copy_with_libs /usr/bin/udevadm /usr/bin/udevadm
copy_with_libs /usr/sbin/kexec /usr/sbin/kexec
# busybox's ip cannot move a link into another network namespace.
copy_with_libs /usr/sbin/ip /usr/sbin/ip
cp -a /usr/lib/udev/rules.d "$stage/usr/lib/udev/"
cp -a /usr/lib/udev/hwdb.bin "$stage/usr/lib/udev/" 2>/dev/null || true
cp /usr/lib/systemd/network/99-default.link "$stage/usr/lib/systemd/network/"
for helper in ata_id scsi_id cdrom_id; do
	[ ! -x "/usr/lib/udev/$helper" ] ||
		copy_with_libs "/usr/lib/udev/$helper" "/usr/lib/udev/$helper"
done
# Debian's udev looks for RUN helpers in /lib/udev, which merged /usr makes
# /usr/lib/udev.
mkdir -p "$stage/lib"
ln -sfn ../usr/lib/udev "$stage/lib/udev"
# replug's rules and their helpers, where a distribution installs them.
for file in "$project"/udev-rules/*; do
	case $file in
	*.rules) cp "$file" "$stage/usr/lib/udev/rules.d/" ;;
	*) [ ! -x "$file" ] || cp "$file" "$stage/usr/lib/udev/" ;;
	esac
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$stage/etc/passwd"
printf 'root:x:0:\ndisk:x:6:\ninput:x:101:\nkvm:x:102:\n' > "$stage/etc/group"

mkdir -p "$stage/lib/modules" "$stage/boot"
what=binaries
for arg in "$@"; do
	case $arg in
	--modules) what=modules ;;
	--boot) what=boot ;;
	*)
		case $what in
		modules) install -m 0644 "$arg" "$stage/lib/modules/" ;;
		boot) install -m 0644 "$arg" "$stage/boot/" ;;
		*) copy_with_libs "$arg" "/usr/bin/$(basename "$arg")" ;;
		esac ;;
	esac
done

cp -a "$project/tools/testing/replug/guest" "$stage/replug"
install -m 0755 "$project/tools/testing/replug/guest/init" "$stage/init"

(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
