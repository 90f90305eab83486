# SPDX-License-Identifier: GPL-2.0
# kexec-load.sh with replug mode on: the old kernel hot-removes every PCI
# function it can, with the kexec intent, before device_shutdown() shuts
# down what stays.
echo replug > /sys/power/replug/mode
expect_eq "replug mode selected" "classic [replug]" "$(cat /sys/power/replug/mode)"
. /replug/tests/kexec-load.sh
