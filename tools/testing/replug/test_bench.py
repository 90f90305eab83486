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
	"""A pmtest bench JSON line: medians suspend, resume, settle per mode."""
	def medians(v):
		return {'suspend_ms': v[0], 'resume_ms': v[1], 'settle_ms': v[2],
			'total_ms': sum(v)}
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

	def test_targets_met_and_missed(self):
		s = self.summary(run('wide-1000-1000us', [4, 4, 2], [5, 5, 0], 1000),
				 run('flat-100-0us', [10, 10, 0], [10, 10, 0], 100),
				 run('flat-10000-0us', [2000, 2000, 0], [900, 900, 0], 10000),
				 run('devices', [10, 20, 30], [10, 20, 10]))
		met = {t['target']: t['met'] for t in s['targets']}
		self.assertEqual(list(met.values()), [True, True, False, False])
		self.assertEqual(s['targets'][2]['measured'], 2.0)

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
