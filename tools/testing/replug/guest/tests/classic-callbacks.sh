# SPDX-License-Identifier: GPL-2.0
# The classic callbacks find the intent of each phase with dev_pm_intent():
# every device's in classic mode, and those of a device that replug keeps
# in place.  samples/replug logs what its ->suspend(), ->resume(),
# ->freeze(), ->thaw(), ->poweroff() and ->restore() find.
#
# What a kernel prints after it has made its image is lost when the image
# is restored: the thaw and the restore handoff of test_resume are checked
# by the host on the console.
. /replug/tests/hibernate-lib.sh

vga=/sys/bus/pci/devices/0000:00:01.0
sample="replug_sample 0000:00:01.0"
quiet="power_lost=0 firmware_reinit=0 kernel_resumes=1 wakeup_armed=0"

# in_order TEXT...: the kernel log has a line containing each TEXT, in
# this order.
in_order() {
	dmesg | awk 'BEGIN { for (i = 1; i < ARGC; i++) want[i] = ARGV[i]
			     n = ARGC - 1; ARGC = 1; i = 1 }
		     i <= n && index($0, want[i]) { i++ }
		     END { if (i <= n) { print "missing: " want[i]; exit 1 } }' "$@"
}

# A full-size swap area, whatever the tests before left.
fresh_swap() {
	SWAP_DEV=$(readlink -f /dev/disk/by-id/virtio-replug-swap)
	swapoff "$SWAP_DEV" 2> /dev/null
	mkswap "$SWAP_DEV" > /dev/null && swapon "$SWAP_DEV"
}

grep -q '^replug_sample ' /proc/modules ||
	expect "sample driver loads" insmod /lib/modules/replug-sample.ko
expect "sample driver bound to the VGA function" \
	test "$(basename "$(readlink $vga/driver)")" = replug_sample
# The last test's replug may still be in udev's hands, its rules giving
# the new VGA function its settings back: let them finish before this
# test sets its own.
udevadm settle --timeout=60
fresh_swap
echo deep > /sys/power/mem_sleep

# Classic mode: no device is removed, every one sleeps the classic way.
echo classic > /sys/power/replug/mode
echo devices > /sys/power/pm_test
dmesg -c > /dev/null
echo mem > /sys/power/state
ktap_result "classic suspend (pm_test=devices) succeeded" $?
want="transition=suspend state=deep phase=none test=devices $quiet cycle=0 mode=none"
expect "classic mode: ->suspend() and ->resume() find the suspend intent" \
	in_order "$sample: suspend: $want" "$sample: resume: $want"

# pm_test=devices makes no image, and the PM core brings the devices back
# with ->restore() as if one had been restored; the intent says what
# really happens: the same kernel goes on (thaw).
dmesg -c > /dev/null
hibernate shutdown
hib="transition=hibernate state=on"
expect "classic mode: ->freeze() finds the freeze phase, ->restore() the thaw phase" \
	in_order "$sample: freeze: $hib phase=freeze test=devices $quiet cycle=0 mode=shutdown" \
		 "$sample: restore: $hib phase=thaw test=devices $quiet cycle=0 mode=shutdown"
echo none > /sys/power/pm_test

# Replug mode, the VGA function kept in place: it is offered the
# transition, then goes through the classic callbacks with each phase's
# intent, and is told with the intent of the way back that it is over.
echo replug > /sys/power/replug/mode
echo keep > $vga/power/replug
cycle=$(($(cat /sys/power/replug/cycle) + 1))
dmesg -c > /dev/null
hibernate suspend
slept="power_lost=1 firmware_reinit=1 kernel_resumes=1"
expect "suspend mode: freeze, thaw, the sleep in RAM as the power-off phase, then wake" \
	in_order "$sample: unplug: $hib phase=freeze test=none $quiet cycle=$cycle mode=suspend" \
		 "$sample: freeze: $hib phase=freeze test=none $quiet cycle=$cycle mode=suspend" \
		 "$sample: thaw: $hib phase=thaw test=none $quiet cycle=$cycle mode=suspend" \
		 "$sample: suspend: $hib phase=poweroff test=none $slept wakeup_armed=1 cycle=$cycle mode=suspend" \
		 "$sample: resume: $hib phase=poweroff test=none $slept wakeup_armed=1 cycle=$cycle mode=suspend" \
		 "$sample: replugged: $hib phase=wake test=none $slept wakeup_armed=0 cycle=$cycle mode=suspend"
expect "the kept function was not removed" \
	sh -c "! dmesg | grep -q '$sample: removed'"

# test_resume: the image is written and read back at once, so this log
# holds the freeze from before the image and the restore after it.
fresh_swap
cycle=$(($(cat /sys/power/replug/cycle) + 1))
dmesg -c > /dev/null
hibernate test_resume
expect "test_resume: freeze before the image, restore after it" \
	in_order "$sample: freeze: $hib phase=freeze test=none $quiet cycle=$cycle mode=test_resume" \
		 "$sample: restore: $hib phase=restore test=none $quiet cycle=$cycle mode=test_resume" \
		 "$sample: replugged: $hib phase=restore test=none $quiet cycle=$cycle mode=test_resume"
echo auto > $vga/power/replug
swapoff "$SWAP_DEV"
