# SPDX-License-Identifier: GPL-2.0
# A suspend-to-idle cycle in replug mode.
. /replug/tests/replug-lib.sh
REPLUG_TRANSITION_VARS="PM_TRANSITION=suspend PM_SUSPEND_STATE=s2idle PM_TEST=none PM_POWER_LOST=0 PM_FIRMWARE_REINIT=0 PM_KERNEL_RESUMES=1 PM_WAKEUP_ARMED=1"
replug_cycle freeze
