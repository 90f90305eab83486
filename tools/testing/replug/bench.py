# SPDX-License-Identifier: GPL-2.0
"""make bench's host half: the runs of pmtest bench the guest sent, one
JSON object a line, made into a table, one JSON file and a plot of time
against device count, with the critical-path bound of each synthetic
tree and the issue's targets measured against the figures.

Two clocks per cycle: the transition's (suspend: from the write to the
devices all down; resume: from their first phase up to the write's return;
settle: until udev is idle with every device back) and the devices' own
(devices_down: from the first device phase, the replug walk or
dpm_prepare, to the last on the way down; devices_up: from the first on
the way up to dpm_complete, the rescan's end or the last replugged
device's bind, whichever is last) and, in a tree run, the tree's own
(tree_down: from its first device's callback to its last one's end;
tree_up: from its first callback on the way up, the rescan in replug mode,
to the last callback's end or its last device's bind).  The critical-path
bound is set against the tree's clock, the cost per device against the
devices': freezing tasks, syncing and thawing, and the machine's own
devices, kept in place, cost the same in both modes and are no tree
device's doing.

A run's label names what it ran: "devices" (the machine's own devices,
through a real S3) or "SHAPE-COUNT-LATENCYus" (a test-bus tree whose every
device takes LATENCY µs to unplug and as long to probe, and in classic
mode to suspend and to resume).
"""

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

LABEL_RE = re.compile(r'^(flat|deep|wide)-(\d+)-(\d+)us$')
METRICS = ['suspend', 'resume', 'settle', 'total', 'devices_down', 'devices_up',
	   'tree_down', 'tree_up']
# Deep trees are chains of at most this many devices (sysfs path limit).
DEEP_CHAIN = 50
WIDE_FANOUT = 8


@dataclass
class Tree:
	shape: str
	count: int
	latency_us: int

	def depth(self) -> int:
		"""Devices on the longest parent-to-child chain."""
		if self.shape == 'flat':
			return 1
		if self.shape == 'deep':
			return min(self.count, DEEP_CHAIN)
		# wide: node i's parent is i // fanout - 1, the first fanout at the top.
		depth, level_end, width = 1, WIDE_FANOUT, WIDE_FANOUT
		while level_end < self.count:
			width *= WIDE_FANOUT
			level_end += width
			depth += 1
		return depth

	def bound_ms(self) -> float:
		"""The longest chain of device latencies, down and back up."""
		return 2 * self.depth() * self.latency_us / 1000


def parse_runs(text: str) -> list[dict]:
	"""The JSON objects of @text, one a line; other lines are skipped."""
	runs = []
	for line in text.splitlines():
		line = line.strip()
		if not line.startswith('{'):
			continue
		try:
			runs.append(json.loads(line))
		except json.JSONDecodeError:
			continue
	return runs


def tree_of(run: dict) -> Tree | None:
	m = LABEL_RE.match(run.get('label', ''))
	return Tree(m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def median(run: dict, mode: str, metric: str) -> float | None:
	"""None for a figure the run could not give (a tree's, without one)."""
	return run['median'][mode].get(f'{metric}_ms')


def ratio(run: dict, metric: str) -> float | None:
	r, c = median(run, 'replug', metric), median(run, 'classic', metric)
	return r / c if r is not None and c else None


def summarize(runs: list[dict]) -> dict:
	"""Every run with its bound and ratios, and the issue's targets."""
	rows = []
	for run in runs:
		if set(run.get('median', {})) != {'replug', 'classic'}:
			continue
		tree = tree_of(run)
		row = {'label': run['label'], 'devices': run['devices'],
		       'rounds': run['rounds'],
		       'replug': {m: median(run, 'replug', m) for m in METRICS},
		       'classic': {m: median(run, 'classic', m) for m in METRICS},
		       'ratio': {m: ratio(run, m) for m in METRICS}}
		if tree:
			row.update(shape=tree.shape, count=tree.count,
				   latency_us=tree.latency_us, depth=tree.depth(),
				   bound_ms=tree.bound_ms())
			if tree.bound_ms():
				row['of_bound'] = {
					mode: tree_ms(row[mode]) / tree.bound_ms()
					for mode in ('replug', 'classic')
					if tree_ms(row[mode]) is not None}
			if not tree.latency_us:
				row['per_device_ms'] = {
					mode: devices_ms(row[mode]) / tree.count
					for mode in ('replug', 'classic')}
		rows.append(row)
	return {'runs': rows, 'targets': targets(rows)}


def devices_ms(medians: dict) -> float:
	"""The time the device phases took, down and up."""
	return medians['devices_down'] + medians['devices_up']


def tree_ms(medians: dict) -> float | None:
	"""The time the tree's own devices took, down and up."""
	if medians['tree_down'] is None or medians['tree_up'] is None:
		return None
	return medians['tree_down'] + medians['tree_up']


def find(rows: list[dict], **want) -> dict | None:
	for row in rows:
		if all(row.get(k) == v for k, v in want.items()):
			return row
	return None


def target(name: str, value: float | None, limit: float, how: str) -> dict:
	met = value is not None and value <= limit
	return {'target': name, 'limit': limit, 'measured': value, 'how': how,
		'met': met}


def targets(rows: list[dict]) -> list[dict]:
	"""The issue's four targets, from whatever runs there are; the first
	measured twice, over the whole transition and over the tree alone."""
	out = []
	big = find(rows, shape='wide', count=1000, latency_us=1000)
	out.append(target('replug / classic-async, 1,000-device tree, 1 ms, '
			  'suspend + resume',
			  big and (big['replug']['suspend'] + big['replug']['resume']) /
			  (big['classic']['suspend'] + big['classic']['resume']),
			  1.0, 'wide-1000-1000us, the whole transition'))
	trees = big and tree_ms(big['replug']), big and tree_ms(big['classic'])
	out.append(target("the same, the tree's own devices alone",
			  trees[0] / trees[1] if all(trees) else None, 1.0,
			  'wide-1000-1000us: tree down + tree up'))
	out.append(target('replug within 1.2x of the critical-path bound, same tree',
			  big and big.get('of_bound', {}).get('replug'), 1.2,
			  'wide-1000-1000us: (tree down + tree up) / bound'))
	small, large = (find(rows, shape='flat', count=n, latency_us=0)
			for n in (100, 10000))
	out.append(target('time per device at 10,000 within 1.5x of that at 100',
			  small and large and large['per_device_ms']['replug'] /
			  small['per_device_ms']['replug'], 1.5,
			  'flat, latency 0, replug device phases per device'))
	dev = find(rows, label='devices')
	out.append(target('real devices: replug / classic, wake until udev settled',
			  dev and (dev['replug']['resume'] + dev['replug']['settle']) /
			  (dev['classic']['resume'] + dev['classic']['settle']), 1.25,
			  'devices: resume + settle'))
	return out


def fmt(v: float | None) -> str:
	return '-' if v is None else f'{v:.3f}'


def fmt1(v: float | None) -> str:
	return '-' if v is None else f'{v:.1f}'


def table(summary: dict) -> str:
	"""The runs and targets as text, the medians in ms."""
	lines = [f'{"run":<20} {"devs":>6} {"mode":<8} {"suspend":>9} {"resume":>9} '
		 f'{"settle":>9} {"total":>9} {"dev down":>9} {"dev up":>9} '
		 f'{"tree dn":>9} {"tree up":>9} '
		 f'{"bound":>8} {"x bound":>8}']
	for row in summary['runs']:
		for mode in ('replug', 'classic'):
			m = row[mode]
			lines.append(
				f'{row["label"] if mode == "replug" else "":<20} '
				f'{row["devices"] if mode == "replug" else "":>6} {mode:<8} '
				f'{m["suspend"]:9.1f} {m["resume"]:9.1f} {m["settle"]:9.1f} '
				f'{m["total"]:9.1f} {m["devices_down"]:9.1f} '
				f'{m["devices_up"]:9.1f} {fmt1(m["tree_down"]):>9} '
				f'{fmt1(m["tree_up"]):>9} '
				f'{fmt(row.get("bound_ms")) if mode == "replug" else "":>8} '
				f'{fmt(row.get("of_bound", {}).get(mode)):>8}')
		r = row['ratio']
		lines.append(f'{"":<20} {"":>6} {"ratio":<8} {fmt(r["suspend"]):>9} '
			     f'{fmt(r["resume"]):>9} {fmt(r["settle"]):>9} {fmt(r["total"]):>9} '
			     f'{fmt(r["devices_down"]):>9} {fmt(r["devices_up"]):>9} '
			     f'{fmt(r["tree_down"]):>9} {fmt(r["tree_up"]):>9}')
	lines.append('')
	for t in summary['targets']:
		lines.append(f'target {"met" if t["met"] else "MISSED":<6} {t["target"]}: '
			     f'{fmt(t["measured"])} (limit {t["limit"]}; {t["how"]})')
	return '\n'.join(lines) + '\n'


def plot(summary: dict) -> str:
	"""An SVG of total time against device count, log-log, a line per
	shape, latency and mode."""
	series: dict[tuple, list] = {}
	for row in summary['runs']:
		if 'count' not in row:
			continue
		for mode in ('replug', 'classic'):
			key = (row['shape'], row['latency_us'], mode)
			series.setdefault(key, []).append((row['count'], row[mode]['total']))
	w, h, left, top, right, bottom = 760, 480, 70, 30, 230, 50
	pts = [p for s in series.values() for p in s if p[1] > 0]
	if not pts:
		return ('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
			'width="300" height="40"><text x="10" y="25">no tree runs</text></svg>\n')
	x0, x1 = math.log10(min(p[0] for p in pts)), math.log10(max(p[0] for p in pts))
	y0, y1 = math.log10(min(p[1] for p in pts)), math.log10(max(p[1] for p in pts))
	x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)

	def sx(c):
		return left + (math.log10(c) - x0) / (x1 - x0) * (w - left - right)

	def sy(t):
		return h - bottom - (math.log10(t) - y0) / (y1 - y0) * (h - top - bottom)

	colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b']
	out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" '
	       f'height="{h}" font-family="sans-serif" font-size="11">',
	       '<title>replug against classic: total time (suspend + resume + '
	       'udev settled) per device count</title>',
	       f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" '
	       'stroke="#000"/>',
	       f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="#000"/>',
	       f'<text x="{(w - right + left) / 2}" y="{h - 10}" text-anchor="middle">'
	       'devices (log)</text>',
	       f'<text x="15" y="{top - 10}">total ms (log)</text>']
	for e in range(math.floor(x0), math.ceil(x1) + 1):
		out.append(f'<text x="{sx(10 ** e):.1f}" y="{h - bottom + 15}" '
			   f'text-anchor="middle">{10 ** e}</text>')
	for e in range(math.floor(y0), math.ceil(y1) + 1):
		if y0 <= e <= y1:
			out.append(f'<text x="{left - 5}" y="{sy(10 ** e) + 4:.1f}" '
				   f'text-anchor="end">{10 ** e:g}</text>')
	for i, (key, pts) in enumerate(sorted(series.items())):
		colour = colours[(i // 2) % len(colours)]
		dash = '' if key[2] == 'replug' else ' stroke-dasharray="5,3"'
		path = ' '.join(f'{sx(c):.1f},{sy(t):.1f}' for c, t in sorted(pts) if t > 0)
		out.append(f'<polyline class="series" fill="none" stroke="{colour}" '
			   f'stroke-width="2"{dash} points="{path}"><title>{key[2]} '
			   f'{key[0]} {key[1]} us</title></polyline>')
		ly = top + 15 * i
		out.append(f'<line x1="{w - right + 10}" y1="{ly}" x2="{w - right + 40}" '
			   f'y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
		out.append(f'<text x="{w - right + 45}" y="{ly + 4}">{key[2]} {key[0]} '
			   f'{key[1]} µs</text>')
	out.append('</svg>')
	return '\n'.join(out) + '\n'


def report(jsonl: Path, out_dir: Path) -> tuple[dict, str]:
	"""Write results.json, results.txt and plot.svg into @out_dir."""
	summary = summarize(parse_runs(jsonl.read_text(errors='replace')
				       if jsonl.exists() else ''))
	out_dir.mkdir(parents=True, exist_ok=True)
	(out_dir / 'results.json').write_text(json.dumps(summary, indent=1) + '\n')
	text = table(summary)
	(out_dir / 'results.txt').write_text(text)
	(out_dir / 'plot.svg').write_text(plot(summary))
	return summary, text
