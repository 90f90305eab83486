# SPDX-License-Identifier: GPL-2.0
# Helpers for the tests on both sides of a kexec.

. /replug/tests/replug-lib.sh

KEXEC_NS_ADDR=10.99.0.2
KEXEC_INIT_ADDR=10.99.0.1

# nic_by_mac MAC: the name of the NIC with that address.
nic_by_mac() {
	local nic
	for nic in /sys/class/net/*; do
		[ "$(cat "$nic/address")" = "$1" ] && { echo "${nic##*/}"; return 0; }
	done
	return 1
}

# netns_of_own PID: PID has left this network namespace for one of its own.
netns_of_own() {
	[ "$(readlink "/proc/$1/ns/net")" != "$(readlink /proc/self/ns/net)" ]
}

# nic_pair_ping: the e1000 in this network namespace and the e1000e in a
# namespace of its own, both on QEMU's hub, must reach each other.  The
# e1000e goes back to this namespace when its namespace dies.
nic_pair_ping() {
	local e1000 e1000e holder status
	e1000=$(nic_by_mac 52:54:00:00:00:11) || { echo "no e1000"; return 1; }
	e1000e=$(nic_by_mac 52:54:00:00:00:12) || { echo "no e1000e"; return 1; }
	unshare -n sleep 600 &
	holder=$!
	# The holder has its own namespace once unshare has exec'd sleep.
	wait_until netns_of_own "$holder" &&
	/usr/sbin/ip link set dev "$e1000e" netns "$holder" &&
	nsenter -t "$holder" -n /usr/sbin/ip addr add "$KEXEC_NS_ADDR/24" dev "$e1000e" &&
	nsenter -t "$holder" -n /usr/sbin/ip link set dev "$e1000e" up &&
	/usr/sbin/ip addr add "$KEXEC_INIT_ADDR/24" dev "$e1000" &&
	/usr/sbin/ip link set dev "$e1000" up &&
	ping -c 3 -W 5 "$KEXEC_NS_ADDR"
	status=$?
	/usr/sbin/ip addr del "$KEXEC_INIT_ADDR/24" dev "$e1000" 2>/dev/null
	kill "$holder"
	wait "$holder" 2>/dev/null
	# The namespace is gone once its last process is; so is the link in it.
	wait_until test -e "/sys/class/net/$e1000e" || status=1
	return $status
}

# pack_root FILE: this root filesystem as an initramfs for the next kernel
# (the mounts on top of it, /tmp among them, are left out).
pack_root() {
	(cd / && find . -xdev | cpio -o -H newc > "$1" 2>/dev/null) &&
		test -s "$1"
}
