# SPDX-License-Identifier: GPL-2.0
# Helpers for the tests on the synthetic test bus (replug-testbus.ko).

tb=/sys/kernel/debug/replug_test

# The test bus's devices by name and identity.
testbus_inventory() {
	local d
	for d in /sys/bus/replug_test/devices/*; do
		echo "${d##*/} $(cat "$d/identity")"
	done
}

testbus_nr_bound() {
	ls /sys/bus/replug_test/drivers/replug_test | grep -c '^rt'
}

# wait_bound N [SECONDS]: every one of N test devices has its driver
# (probing is asynchronous), within SECONDS (60).
wait_bound() {
	local tries=0
	while [ $tries -lt "${2:-60}" ]; do
		[ "$(testbus_nr_bound)" -eq "$1" ] && return 0
		tries=$((tries + 1))
		sleep 1
	done
	echo "$(testbus_nr_bound) of $1 bound"
	return 1
}
