#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of make bench's host half (bench.py)."""

import json
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402


def run(label: str, replug: list[float], classic: list[float], devices: int = 10) -> str:
	"""A pmtest bench JSON line: medians suspend, resume, settle per mode,
	then the device phases down and up, by default as long as suspend and
	resume, and the tree's own, by default as long as the device phases
	(None for a run without a tree)."""
	def medians(v):
		down, up = v[3:5] if len(v) >= 5 else v[0:2]
		tree = v[5:7] if len(v) == 7 else (None, None) if label == 'devices' else (down, up)
		return {'suspend_ms': v[0], 'resume_ms': v[1], 'settle_ms': v[2],
			'total_ms': sum(v[:3]), 'devices_down_ms': down,
			'devices_up_ms': up, 'tree_down_ms': tree[0], 'tree_up_ms': tree[1]}
	return json.dumps({'label': label, 'devices': devices, 'state': 'mem',
			   'test': 'devices', 'rounds': 3, 'cycles': [],
			   'median': {'replug': medians(replug),
				      'classic': medians(classic)}})


class TreeTest(unittest.TestCase):
	def test_depths(self):
		self.assertEqual(bench.Tree('flat', 1000, 0).depth(), 1)
		self.assertEqual(bench.Tree('deep', 10, 0).depth(), 10)
		self.assertEqual(bench.Tree('deep', 10000, 0).depth(), 50)
		# 8 at the top, then 64, 512, 4096: 1,000 devices are 4 deep.
		self.assertEqual(bench.Tree('wide', 8, 0).depth(), 1)
		self.assertEqual(bench.Tree('wide', 72, 0).depth(), 2)
		self.assertEqual(bench.Tree('wide', 73, 0).depth(), 3)
		self.assertEqual(bench.Tree('wide', 1000, 0).depth(), 4)

	def test_bound_is_the_chain_down_and_up(self):
		self.assertEqual(bench.Tree('deep', 20, 1000).bound_ms(), 40.0)
		self.assertEqual(bench.Tree('flat', 1000, 0).bound_ms(), 0.0)


class SummaryTest(unittest.TestCase):
	def summary(self, *lines: str) -> dict:
		return bench.summarize(bench.parse_runs('\n'.join(lines)))

	def test_other_lines_are_skipped(self):
		runs = bench.parse_runs('noise\n{"broken\n' + run('devices', [1, 1, 1], [1, 1, 1]))
		self.assertEqual(len(runs), 1)

	def test_ratios_and_bound(self):
		s = self.summary(run('wide-1000-1000us', [4, 4, 2], [5, 5, 0], 1000))
		row = s['runs'][0]
		self.assertEqual(row['ratio']['suspend'], 0.8)
		self.assertEqual(row['depth'], 4)
		self.assertEqual(row['bound_ms'], 8.0)
		self.assertEqual(row['of_bound']['replug'], 1.0)
		self.assertIsNone(row['ratio']['settle'])

	def test_bound_and_cost_count_the_device_phases_only(self):
		s = self.summary(run('deep-20-1000us', [100, 100, 0, 300, 500, 30, 50],
				     [100, 100, 0, 400, 400, 40, 40], 20),
				 run('flat-100-0us', [70, 70, 0, 3, 7], [70, 70, 0, 1, 1], 100))
		self.assertEqual(s['runs'][0]['of_bound'], {'replug': 2.0, 'classic': 2.0})
		self.assertEqual(s['runs'][1]['per_device_ms'],
				 {'replug': 0.1, 'classic': 0.02})
		self.assertEqual(s['runs'][1]['ratio']['devices_up'], 7.0)

	def test_a_run_without_a_tree_has_no_tree_figures(self):
		s = self.summary(run('devices', [10, 20, 30], [10, 20, 10]))
		self.assertIsNone(s['runs'][0]['ratio']['tree_up'])
		self.assertIn('devices', bench.table(s))

	def test_targets_met_and_missed(self):
		s = self.summary(run('wide-1000-1000us', [4, 4, 2], [5, 5, 0], 1000),
				 run('flat-100-0us', [10, 10, 0], [10, 10, 0], 100),
				 run('flat-10000-0us', [2000, 2000, 0], [900, 900, 0], 10000),
				 run('devices', [10, 20, 30], [10, 20, 10]))
		met = {t['target']: t['met'] for t in s['targets']}
		self.assertEqual(list(met.values()), [True, True, True, False, False])
		self.assertEqual(s['targets'][3]['measured'], 2.0)

	def test_missing_runs_miss_their_targets(self):
		s = self.summary()
		self.assertTrue(all(not t['met'] and t['measured'] is None
				    for t in s['targets']))

	def test_one_mode_runs_are_left_out(self):
		line = json.loads(run('devices', [1, 1, 1], [1, 1, 1]))
		del line['median']['classic']
		self.assertEqual(self.summary(json.dumps(line))['runs'], [])


class OutputTest(unittest.TestCase):
	def test_files(self):
		with tempfile.TemporaryDirectory() as tmp:
			jsonl = Path(tmp) / 'in.jsonl'
			jsonl.write_text(run('flat-10-0us', [1, 2, 3], [1, 1, 1]) + '\n' +
					 run('flat-100-0us', [5, 6, 7], [4, 4, 4], 100) + '\n')
			summary, text = bench.report(jsonl, Path(tmp) / 'out')
			self.assertIn('flat-100-0us', text)
			self.assertIn('target MISSED', text)
			loaded = json.loads((Path(tmp) / 'out' / 'results.json').read_text())
			self.assertEqual(len(loaded['runs']), 2)
			svg = ET.parse(Path(tmp) / 'out' / 'plot.svg').getroot()
			lines = [e for e in svg.iter('{http://www.w3.org/2000/svg}polyline')]
			self.assertEqual(len(lines), 2)

	def test_no_runs_still_draws(self):
		with tempfile.TemporaryDirectory() as tmp:
			bench.report(Path(tmp) / 'missing', Path(tmp))
			ET.parse(Path(tmp) / 'plot.svg')


if __name__ == '__main__':
	unittest.main()
