#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fail when an option the fragment asks for did not make it into .config:
# a typo or an unmet dependency would otherwise pass silently.
#
# Usage: check-config.sh FRAGMENT DOTCONFIG
set -euo pipefail

fragment=$1 config=$2 missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qxF -- "$line" "$config" ||
		{ echo "$fragment: '$line' not in $config" >&2; missing=1; } ;;
	esac
done < "$fragment"
exit $missing
