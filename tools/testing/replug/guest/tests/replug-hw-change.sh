# SPDX-License-Identifier: GPL-2.0
# Hardware changed while the system was in S3 (see replug-hw-change-lib.sh).

. /replug/tests/replug-hw-change-lib.sh

hw_before
host_request change-hardware-in-s3
echo deep > /sys/power/mem_sleep
enter_sleep mem
hw_after suspend
