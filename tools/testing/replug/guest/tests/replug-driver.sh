# SPDX-License-Identifier: GPL-2.0
# A driver implementing ->unplug() and ->replugged() (samples/replug) is
# given the intent both ways, and its refusal rolls the transition back:
# the writer of /sys/power/state gets the error and every device that had
# already been removed comes back.

. /replug/tests/replug-lib.sh

vga=/sys/bus/pci/devices/0000:00:01.0
params=/sys/module/replug_sample/parameters

expect "sample driver loads" insmod /lib/modules/replug-sample.ko
expect "sample driver bound to the VGA function" \
	test "$(basename "$(readlink $vga/driver)")" = replug_sample
echo replug > /sys/power/replug/mode
echo deep > /sys/power/mem_sleep

pci_inodes() {
	local d
	for d in /sys/bus/pci/devices/*; do
		echo "${d##*/} $(stat -c %i "$d")"
	done
}

# The refusal.  Where the VGA function stands in dpm_list depends on
# earlier cycles, so the trace says which units went before it.
echo 16 > $params/refuse_unplug
inventory > /tmp/inventory.before
pci_inodes > /tmp/inodes.before
cycle=$(($(cat /sys/power/replug/cycle) + 1))
dmesg -c > /dev/null
echo > /sys/kernel/tracing/trace
echo 1 > /sys/kernel/tracing/events/replug/replug_device/enable
echo mem > /sys/power/state 2>/tmp/state.err
status=$?
echo 0 > /sys/kernel/tracing/events/replug/replug_device/enable
removed_units=$(sed -n "s/.*replug_device: remove [^ ]* \([^ ]*\) cycle=$cycle .*/\1/p" \
	/sys/kernel/tracing/trace)
expect "refused transition fails for the writer" test $status -ne 0
expect "with EBUSY" grep -q 'Device or resource busy' /tmp/state.err
expect "the refusal is logged with the device" \
	sh -c 'dmesg | grep -q "replug_sample 0000:00:01.0: refused to unplug for suspend: -EBUSY"'
expect "units removed before the refusal ($(cat /sys/power/replug/removed))" \
	test "$(cat /sys/power/replug/removed)" -gt 3
expect "every device came back" wait_for_inventory /tmp/inventory.before
expect_eq "the trace names every unit removed before the refusal" \
	"$(cat /sys/power/replug/removed)" "$(echo $removed_units | wc -w)"
pci_inodes > /tmp/inodes.after
for unit in $removed_units; do
	expect "$unit was removed and came back as a new device" \
		sh -c "! grep -qx '$(grep "^$unit " /tmp/inodes.before)' /tmp/inodes.after &&
		       grep -q '^$unit ' /tmp/inodes.after"
done
expect_eq "no S3 was entered" 0 \
	"$(dmesg | grep -c 'Preparing to enter system sleep state S3')"
expect "the refusing driver was told the transition is over" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: replugged: transition=suspend state=deep .* cycle=$cycle'"

# An accepted cycle: the driver sees the intent going down, and its new
# device sees it again at bind.
echo 0 > $params/refuse_unplug
echo devices > /sys/power/pm_test
cycle=$(($(cat /sys/power/replug/cycle) + 1))
dmesg -c > /dev/null
echo mem > /sys/power/state
ktap_result "pm_test=devices cycle succeeded" $?
echo none > /sys/power/pm_test
want="transition=suspend state=deep phase=none test=devices power_lost=0 firmware_reinit=0 kernel_resumes=1 wakeup_armed=0 cycle=$cycle"
expect "->unplug() got: $want" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: unplug: $want'"
expect "the old device was removed" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: removed'"
expect "->replugged() got the same intent on the new device" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: replugged: $want'"
expect "every device came back" wait_for_inventory /tmp/inventory.before
echo classic > /sys/power/replug/mode

# A driver armed for wakeup asks to stay: pm_test=platform arms wakeup
# without sleeping.  The device keeps its struct device and is told the
# transition is over; the other units still go and come back.
echo replug > /sys/power/replug/mode
echo enabled > $vga/power/wakeup
ino_before=$(stat -c %i $vga)
cycle=$(($(cat /sys/power/replug/cycle) + 1))
dmesg -c > /dev/null
echo > /sys/kernel/tracing/trace
echo 1 > /sys/kernel/tracing/events/replug/replug_device/enable
echo platform > /sys/power/pm_test
echo freeze > /sys/power/state
ktap_result "pm_test=platform s2idle cycle succeeded" $?
echo none > /sys/power/pm_test
echo 0 > /sys/kernel/tracing/events/replug/replug_device/enable
echo disabled > $vga/power/wakeup
expect "the armed driver asked to stay" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: stays in place for suspend'"
expect "traced: the VGA function kept" \
	grep -q "replug_device: keep replug_sample 0000:00:01.0 cycle=$cycle " /sys/kernel/tracing/trace
expect "the VGA function is the same struct device" \
	test "$ino_before" = "$(stat -c %i $vga)"
expect "->replugged() told the kept device, with wakeup armed" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: replugged: transition=suspend state=s2idle phase=none test=platform .* wakeup_armed=1 cycle=$cycle'"
expect "other units were removed ($(cat /sys/power/replug/removed))" \
	test "$(cat /sys/power/replug/removed)" -gt 3
expect "every device came back" wait_for_inventory /tmp/inventory.before
echo classic > /sys/power/replug/mode

# Dry runs: the driver sees the kexec intent on the way down and on its new
# device, and a refusal fails the write instead of a real kexec.
echo replug > /sys/power/replug/mode
cycle=$(($(cat /sys/power/replug/cycle) + 1))
dmesg -c > /dev/null
echo kexec > /sys/power/replug/dry_run
ktap_result "kexec dry run succeeded" $?
want="transition=kexec state=on phase=none test=devices power_lost=0 firmware_reinit=0 kernel_resumes=1 wakeup_armed=0 cycle=$cycle"
expect "->unplug() got: $want" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: unplug: $want'"
expect "->replugged() got the same intent on the new device" \
	sh -c "dmesg | grep -q 'replug_sample 0000:00:01.0: replugged: $want'"
expect "every device came back" wait_for_inventory /tmp/inventory.before

echo 16 > $params/refuse_unplug
echo reboot > /sys/power/replug/dry_run 2>/tmp/dry_run.err
status=$?
echo 0 > $params/refuse_unplug
expect "refused dry run fails for the writer" test $status -ne 0
expect "with EBUSY" grep -q 'Device or resource busy' /tmp/dry_run.err
expect "the refusal is logged with the transition" \
	sh -c 'dmesg | grep -q "replug_sample 0000:00:01.0: refused to unplug for reboot: -EBUSY"'
expect "every device came back" wait_for_inventory /tmp/inventory.before
echo classic > /sys/power/replug/mode
