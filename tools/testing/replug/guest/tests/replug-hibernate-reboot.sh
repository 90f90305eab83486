# SPDX-License-Identifier: GPL-2.0
# A real hibernation in replug mode, in reboot mode: the machine reboots once
# the image is written, and a second boot restores it (see
# hibernate_across_boots).
. /replug/tests/hibernate-lib.sh

hibernate_across_boots reboot
