#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write replug's entry into a kernel MAINTAINERS file, listing the files
given (make-series.sh calls it for each patch that adds files, so that
the patch names them there too, as checkpatch asks).

Usage: maintainers-entry.py MAINTAINERS FILE...

The entry replaces the one already there, or goes where the alphabetical
order of entry names puts it; its F: lines are sorted, as checkpatch
wants them.
"""

import sys
from pathlib import Path

NAME = 'REPLUG (SYSTEM SLEEP AS HOT-REMOVE AND RE-ENUMERATION)'
HEAD = [NAME,
	'M:\treplug developers <replug@localhost>',
	'L:\tlinux-pm@vger.kernel.org',
	'S:\tMaintained']
# The first entry: the text above it is the file's preamble.
FIRST = '3C59X NETWORK DRIVER'


def is_header(lines: list[str], i: int) -> bool:
	"""An entry's name: a line of its own after a blank one, no colon field."""
	line = lines[i]
	return (i > 0 and not lines[i - 1].strip() and line.strip() != '' and
		not line[0].isspace() and not (len(line) > 1 and line[1] == ':'))


def rewrite(text: str, files: list[str]) -> str:
	lines = text.split('\n')
	if NAME in lines:
		start = lines.index(NAME)
		end = start
		while end < len(lines) and lines[end].strip():
			end += 1
		del lines[start:end + 1]
	first = lines.index(FIRST)
	at = next((i for i in range(first, len(lines))
		   if is_header(lines, i) and lines[i].upper() > NAME), len(lines))
	entry = HEAD + [f'F:\t{f}' for f in sorted(set(files))] + ['']
	lines[at:at] = entry
	return '\n'.join(lines)


def main(argv: list[str]) -> int:
	if len(argv) < 3:
		print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
		return 2
	path = Path(argv[1])
	path.write_text(rewrite(path.read_text(), argv[2:]))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv))
