# SPDX-License-Identifier: GPL-2.0
# A suspend-to-RAM (ACPI S3) cycle in replug mode.
. /replug/tests/replug-lib.sh
echo deep > /sys/power/mem_sleep
REPLUG_TRANSITION_VARS="PM_TRANSITION=suspend PM_SUSPEND_STATE=deep PM_TEST=none PM_POWER_LOST=1 PM_FIRMWARE_REINIT=1 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=1"
# usb-storage lets a device it has not seen settle for delay_use before it
# scans it; the USB disk replug finds again behind its port is the same
# one, scanned at once as after a classic reset-resume.
usb_delay=/sys/module/usb_storage/parameters/delay_use
old_delay=$(cat $usb_delay)
echo 2 > $usb_delay
replug_cycle mem
expect "firmware entered ACPI S3" \
	sh -c 'dmesg | grep -q "Preparing to enter system sleep state S3"'
usb_disk=$(usb_device_of "$(udevadm info -q path -n /dev/disk/by-label/replug-usb)")
expect "udev saw the USB disk's device come back the same ($usb_disk)" \
	grep -q "^ACTION=add DEVPATH=$usb_disk PM_REPLUG=1 .* PM_REPLUG_IDENTITY=same\$" /tmp/uevents
expect "and its interface" \
	grep -q "^ACTION=add DEVPATH=$usb_disk/[^ /]*:1.0 PM_REPLUG=1 .* PM_REPLUG_IDENTITY=same\$" /tmp/uevents
scan_wait=$(usb_storage_scan_wait_ms)
expect "usb-storage scanned the same USB disk without the 2 s settle wait (${scan_wait:-no scan} ms)" \
	test "${scan_wait:-99999}" -lt 1000
echo "$old_delay" > $usb_delay

# The host draws this cycle's timeline with pm-graph's sleepgraph: the
# trace goes out on the third serial port with the stamp line it expects.
if [ -c /dev/ttyS2 ]; then
	{
		echo "# suspend-$(date +%m%d%y-%H%M%S) replug-guest mem $(uname -r)"
		cat /tmp/trace
	} > /dev/ttyS2
fi
