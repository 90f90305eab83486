# SPDX-License-Identifier: GPL-2.0
# A guest that hangs on purpose, for the harness to name; its boot must
# fail.  A dry run is held in a test device's ->unplug() with replug's
# watchdog off, and a second dry run waits behind it for
# system_transition_mutex, in the kernel, uninterruptibly.  The console
# goes quiet: the host must end the boot long before its timeout, and
# name the blocked writer from the kernel's SysRq-w dump.

. /replug/tests/replug-lib.sh
. /replug/tests/testbus-lib.sh

insmod /lib/modules/replug-testbus.ko
echo 'count=1 shape=flat' > $tb/tree
wait_bound 1
echo replug > /sys/power/replug/mode
echo 0 > /sys/power/replug/watchdog_ms
echo '0 unplug hang=600000' > $tb/fault
echo poweroff > /sys/power/replug/dry_run &
until grep -q '^0 unplug hang 600000 fired=1' $tb/fault; do
	usleep 100000
done
echo "replug guest: hanging on purpose"
echo halt > /sys/power/replug/dry_run &
wait
expect "the host ended the hang before it ended by itself" false
