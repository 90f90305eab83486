# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers shared by the guest init and the guest tests.

# host_say LINE: a line the host acts on (a request, the end of the
# tests), through the kernel log, whose records the console prints whole.
# A line written to /dev/console can be cut by a kernel message printed
# meanwhile ("R[ 42.39] PM: ...\nEPLUG-HOST: wake-from-s2idle"), and the
# host would never see it; the log also keeps it in order with the
# kernel's own messages, so a request comes before the suspend it is for.
host_say() {
	echo "$1" > /dev/kmsg
}

# host_request REQUEST: ask the host for REQUEST (see run.py).
host_request() {
	host_say "REPLUG-HOST: $1"
}

cmdline_value() {
	local word
	for word in $(cat /proc/cmdline); do
		case "$word" in
		"$1"=*) echo "${word#*=}"; return 0 ;;
		esac
	done
	return 1
}

# Hand the machine over to the hibernation image on the swap disk (found
# by its serial: vda and vdb may swap places), in replug mode.  Returns
# only if no image could be restored.
resume_from_swap() {
	local disk tries=0
	while [ $tries -lt 30 ]; do
		for disk in /sys/block/vd*; do
			[ "$(cat "$disk/serial" 2>/dev/null)" = replug-swap ] || continue
			echo replug > /sys/power/replug/mode
			echo "replug guest: resuming from ${disk##*/}"
			cat "$disk/dev" > /sys/power/resume
			return
		done
		tries=$((tries + 1))
		sleep 1
	done
	echo "replug guest: no swap disk to resume from"
}

# wait_until COMMAND...: poll COMMAND every 0.1 s until it succeeds.  The
# waits it serves end within a few seconds even under the debug kernel, so
# after 30 s it fails, saying which command it gave up on.
wait_until() {
	local tries=0
	until "$@"; do
		tries=$((tries + 1))
		if [ $tries -ge 300 ]; then
			echo "still failing after 30 s: $*" >&2
			return 1
		fi
		usleep 100000
	done
}

# wait_in_file FILE REGEX: a line of FILE matches within 30 s.
wait_in_file() {
	wait_until grep -qs -- "$2" "$1"
}

# dmesg_has TEXT: the kernel log holds TEXT.
dmesg_has() {
	dmesg | grep -qF -- "$1"
}

udev_start() {
	/usr/lib/systemd/systemd-udevd --daemon --resolve-names=never
	udevadm trigger --type=subsystems --action=add
	udevadm trigger --type=devices --action=add
	udevadm settle --timeout=60
}

# --- KTAP output: each test prints its own result lines on stdout. ---
ktap_case=0
ktap_failed=0

# ktap_result NAME CONDITION-EXIT-STATUS [DIAGNOSTIC]
ktap_result() {
	ktap_case=$((ktap_case + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $ktap_case $1"
	else
		ktap_failed=$((ktap_failed + 1))
		[ -z "$3" ] || echo "$3" | sed 's/^/# /'
		echo "not ok $ktap_case $1"
	fi
}

# expect NAME COMMAND...: one assertion, the command's exit status.
expect() {
	local name=$1 out
	shift
	out=$("$@" 2>&1)
	ktap_result "$name" $? "$out"
}

# expect_eq NAME WANT GOT
expect_eq() {
	[ "$2" = "$3" ]
	ktap_result "$1" $? "want '$2', got '$3'"
}

# Every device on a bus, one line each, by bus identity: its bus, its
# topology path with the instance numbers that a re-enumeration hands out
# afresh taken out (virtio3, host6, the SCSI host in 6:0:0:0, the HID
# instance in 0003:0627:0001.0002), the driver bound to it ("-" for none:
# a device back without its driver is not back), and its modalias.  The
# workqueue "bus" holds kernel objects, not hardware, and is left out.
inventory() {
	local link bus path driver alias
	for link in /sys/bus/*/devices/*; do
		bus=${link#/sys/bus/}
		bus=${bus%%/*}
		[ "$bus" != workqueue ] || continue
		path=$(readlink -f "$link")
		driver=$(readlink "$path/driver")
		driver=${driver##*/}
		alias=$(cat "$path/modalias" 2>/dev/null)
		echo "$bus ${path#/sys/devices/} ${driver:--} $alias"
	done | sed -E -e 's/(virtio|host|target|ata|input|usb|rtc)[0-9]+/\1N/g' \
		-e 's#/[0-9]+:([0-9]+:[0-9]+:[0-9]+)#/N:\1#g' \
		-e 's/(:[0-9A-F]{4}:[0-9A-F]{4})\.[0-9A-F]{4}/\1.N/g' | sort
}

# Run one test script and report it as a KTAP subtest numbered $2.
run_one_test() {
	local name=$1 number=$2 out=/tmp/ktap.$1 status
	(
		ktap_case=0 ktap_failed=0
		. "/replug/tests/$name.sh" || exit 1
		[ "$ktap_case" -gt 0 ] || { echo "# $name asserted nothing"; exit 1; }
		exit "$ktap_failed"
	) > "$out" 2>&1
	status=$?
	echo "    KTAP version 1"
	echo "    # Subtest: $name"
	echo "    1..$(grep -c '^\(not \)\?ok ' "$out")"
	sed 's/^/    /' "$out"
	if [ $status -eq 0 ]; then
		echo "ok $number $name"
	else
		echo "not ok $number $name"
	fi
}

# Print the KUnit suites that ran at boot, from debugfs, renumbered as
# subtests of the guest's document.
kunit_suites() {
	ls /sys/kernel/debug/kunit 2>/dev/null
}

print_kunit_suite() {
	sed -e '1,2d' -e "\$s/^\(\(not \)\?ok\) 1 /\1 $2 /" \
		"/sys/kernel/debug/kunit/$1/results"
}

run_all_tests() {
	local out=$1 suites n=0 name
	shift
	suites=$(kunit_suites)
	{
		echo "KTAP version 1"
		echo "1..$(($(echo $suites | wc -w) + $#))"
		for name in $suites; do
			n=$((n + 1))
			print_kunit_suite "$name" "$n"
		done
	} > "$out"
	for name in "$@"; do
		n=$((n + 1))
		echo "replug guest: running $name"
		run_one_test "$name" "$n" > "$out"
	done
}
