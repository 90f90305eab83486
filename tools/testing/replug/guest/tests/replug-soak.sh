# SPDX-License-Identifier: GPL-2.0
# The soak (make soak; a short one in make check), under the debug
# kernel's checkers: cycles of every kind in replug mode over the default
# devices and a test-bus tree, every device back after each; then no
# kmemleak report, and no growth in sysfs, slab or module references
# between the first and the last cycle; the ext4 data disk written by a
# writer that runs through the cycles, every file intact at the end (the
# host runs fsck on the disk image afterwards).  KASAN, lockdep, the
# debug-objects tracker and WARN report on the console, where the host
# counts any report as a failure.  Kexecs come last: each next kernel runs
# replug-soak-kexec.sh.

. /replug/tests/replug-soak-lib.sh

kmemleak=/sys/kernel/debug/kmemleak
tree=$(soak_count tree)

# soak_sysfs: the entries under /sys/devices, with the numbers the kernel
# hands out anew at each registration (SCSI hosts, inputs, HID devices,
# ATA ports, disk letters) left out: a device that comes back may get
# other ones, as probing is asynchronous and HID's never repeat.  A leak
# shows as one entry more, not as another name.
soak_sysfs() {
	find /sys/devices |
		sed -E -e 's/\.[0-9A-F]{4}(\/|$)/.HID\1/' -e 's/[0-9]+/N/g' \
		       -e 's/(^|\/)(sd|vd|sr)[a-z]+/\1\2X/g' | sort
}

# soak_snapshot DIR: what must not grow from one cycle to the next.
soak_snapshot() {
	mkdir -p "$1"
	inventory > "$1/inventory"
	soak_sysfs > "$1/sysfs"
	grep . /sys/module/*/refcnt > "$1/refcnt"
	awk '/^(kmalloc-|kernfs_node_cache)/ { n += $2 } END { print n }' \
		/proc/slabinfo > "$1/slab"
}

# soak_enter KIND: one transition of KIND; the writer's status.
soak_enter() {
	local status
	case $1 in
	devices)
		echo devices > /sys/power/pm_test
		echo mem > /sys/power/state
		status=$?
		echo none > /sys/power/pm_test
		return $status ;;
	s2idle)
		host_request wake-from-s2idle
		echo freeze > /sys/power/state ;;
	s3)
		echo deep > /sys/power/mem_sleep
		echo mem > /sys/power/state ;;
	hibernate)
		echo test_resume > /sys/power/disk
		echo disk > /sys/power/state ;;
	esac
}

# soak_cycle KIND N: the transition succeeded and every device came back.
soak_cycle() {
	local status why
	soak_enter "$1" 2> /tmp/soak.err
	status=$?
	why=$(cat /tmp/soak.err)
	[ $status -ne 0 ] ||
		why=$(wait_bound "$tree" 300 && wait_for_inventory /tmp/soak.before/inventory 2>&1) ||
		status=1
	ktap_result "$1 cycle $2: succeeded, every device back" $status "$why"
}

# The devices level waits there before resuming; nothing to see in that.
echo 0 > /sys/module/suspend/parameters/pm_test_delay
expect_eq "replug mode selected" "classic [replug]" \
	"$(echo replug > /sys/power/replug/mode; cat /sys/power/replug/mode)"
expect "test bus loads" insmod /lib/modules/replug-testbus.ko
expect "a $tree-device tree is built" \
	sh -c "echo 'count=$tree shape=wide fanout=8 links=4' > $tb/tree"
expect "all $tree devices are bound" wait_bound "$tree" 300
replug_setup_disks
soak_mount_data
echo "${SWAP_DEV##*/}" > /tmp/swap.dev
cat "/sys/block/${SWAP_DEV##*/}/dev" > /sys/power/resume

# The writer runs through every cycle (user space is frozen while the
# devices are away, so it writes before and after each) over 32 files,
# which a long soak rewrites many times.
rm -f /tmp/soak.stop
(i=0; while [ ! -e /tmp/soak.stop ]; do
	soak_write "w$((i % 32))" || exit 1
	i=$((i + 1))
	sleep 1
done) &
writer=$!

# One cycle first: what it allocates once (caches, first-use state) is
# not a leak.
soak_snapshot /tmp/soak.before
soak_cycle devices 0
soak_snapshot /tmp/soak.first
echo scan > $kmemleak
echo clear > $kmemleak

cycles=0
for kind in devices s2idle s3 hibernate; do
	n=$(soak_count $kind)
	i=1
	while [ $i -le "$n" ]; do
		soak_cycle $kind $i
		soak_write "$kind$((i % 32))"
		i=$((i + 1))
	done
	cycles=$((cycles + n))
done
echo "replug guest: soak: $cycles cycles done" > /dev/console

expect "the writer ran through every cycle" kill -0 $writer
touch /tmp/soak.stop
wait $writer
ktap_result "the writer never failed to write" $? ""
soak_snapshot /tmp/soak.last
expect "every device is there after $cycles cycles" \
	diff /tmp/soak.first/inventory /tmp/soak.last/inventory
# The entries, not their count: a failure names what came or went.
expect "sysfs holds the same entries as after the first cycle" \
	diff /tmp/soak.first/sysfs /tmp/soak.last/sysfs
expect "no module reference was gained or lost" \
	diff /tmp/soak.first/refcnt /tmp/soak.last/refcnt
# A leak of one object per device per cycle grows by tree x cycles; what
# is allowed is less than one object per test device over the whole soak.
slab_growth=$(($(cat /tmp/soak.last/slab) - $(cat /tmp/soak.first/slab)))
expect "slab objects grew by fewer than $tree ($slab_growth)" \
	test "$slab_growth" -lt "$tree"
# kmemleak reports an object once two scans found it unreferenced, after
# its minimum age.
echo scan > $kmemleak
sleep 6
echo scan > $kmemleak
expect_eq "kmemleak finds no leak" "" "$(cat $kmemleak)"
expect "every file the soak wrote is intact ($(soak_data_intact))" soak_data_intact

echo 1 > $tb/destroy
expect "test bus unloads" rmmod replug_testbus
expect "the data disk unmounts" umount /mnt/data
swapoff "$SWAP_DEV"

kexecs=$(soak_count kexec)
if [ "$kexecs" -gt 0 ]; then
	soak_mount_data
	inventory > $SOAK_DATA/inventory.kexec
	umount /mnt/data
	expect "kexec loaded: $kexecs to go" soak_kexec_load $((kexecs - 1))
fi
