# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/prepare-tree.sh: an edit rebuilds what it changed.

make decides by mtime, so a file the series rewrites with the content it
had must keep its mtime: the headers the patches touch are included by
most of the kernel, and one edited patch must not rebuild all of it.
"""

import os
import subprocess
import tarfile
import tempfile
import unittest
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[3]
PREPARE = PROJECT / 'scripts' / 'prepare-tree.sh'



def makefile(sublevel: int) -> str:
	return (f'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = {sublevel}\n'
		f'kernelversion:\n\t@echo 6.12.{sublevel}\n')


def patch(subject: str, path: str, old: str, new: str) -> str:
	"""A git format-patch of a one-line file changed from @old to @new."""
	return (f'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		f'From: replug developers <replug@localhost>\n'
		f'Date: Mon, 7 Dec 2026 00:00:00 +0000\n'
		f'Subject: [PATCH] {subject}\n\n'
		f'{subject}, for the test.\n\n---\n'
		f'diff --git a/{path} b/{path}\n'
		f'--- a/{path}\n+++ b/{path}\n'
		f'@@ -1 +1 @@\n-{old}\n+{new}\n')


class PrepareTreeTest(unittest.TestCase):
	def setUp(self):
		self.tmp = tempfile.TemporaryDirectory()
		root = Path(self.tmp.name)
		self.tarball = root / 'linux.tar.xz'
		self.write_tarball(117, 'base')
		self.src = root / 'linux'
		self.project = root / 'project'
		(self.project / 'patches').mkdir(parents=True)
		self.write_series('the header', 'the driver', 'driver.c patched')

	def tearDown(self):
		self.tmp.cleanup()

	def write_tarball(self, sublevel: int, content: str) -> None:
		"""The Debian tarball, as an upgrade of the package leaves it:
		another version, another mtime."""
		base = Path(self.tmp.name) / 'linux-source-6.12'
		base.mkdir(exist_ok=True)
		(base / 'Makefile').write_text(makefile(sublevel))
		for name in ('header.h', 'driver.c'):
			(base / name).write_text(f'{name} {content}\n')
		with tarfile.open(self.tarball, 'w:xz') as tar:
			tar.add(base, arcname=base.name)
		stamp = 1_700_000_000 + sublevel * 3600
		os.utime(self.tarball, (stamp, stamp))

	def write_series(self, header_subject: str, driver_subject: str,
			 driver_line: str) -> None:
		patches = self.project / 'patches'
		(patches / '0001-header.patch').write_text(
			patch(header_subject, 'header.h', 'header.h base', 'header.h patched'))
		(patches / '0002-driver.patch').write_text(
			patch(driver_subject, 'driver.c', 'driver.c base', driver_line))
		(patches / 'series').write_text('0001-header.patch\n0002-driver.patch\n')

	def prepare(self) -> str:
		proc = subprocess.run(['bash', str(PREPARE), str(self.tarball),
				       str(self.src), str(self.project)],
				      capture_output=True, text=True)
		self.assertEqual(proc.returncode, 0, proc.stderr)
		return proc.stdout

	def age(self, *names: str) -> None:
		"""Make the files an hour old, as a build long ago left them."""
		for name in names:
			st = (self.src / name).stat()
			os.utime(self.src / name, (st.st_atime - 3600, st.st_mtime - 3600))

	def mtime(self, name: str) -> float:
		return (self.src / name).stat().st_mtime

	def test_first_run_applies_the_series(self):
		self.assertIn('PATCH', self.prepare())
		self.assertEqual((self.src / 'header.h').read_text(), 'header.h patched\n')
		self.assertEqual((self.src / 'driver.c').read_text(), 'driver.c patched\n')

	def test_no_change_touches_nothing(self):
		self.prepare()
		self.age('header.h', 'driver.c')
		before = (self.mtime('header.h'), self.mtime('driver.c'))
		self.assertNotIn('PATCH', self.prepare())
		self.assertEqual((self.mtime('header.h'), self.mtime('driver.c')), before)

	def test_edited_message_keeps_every_mtime(self):
		self.prepare()
		self.age('header.h', 'driver.c')
		before = (self.mtime('header.h'), self.mtime('driver.c'))
		self.write_series('the header, reworded', 'the driver', 'driver.c patched')
		self.assertIn('PATCH', self.prepare())
		self.assertEqual((self.mtime('header.h'), self.mtime('driver.c')), before)

	def test_edited_patch_renews_only_its_file(self):
		self.prepare()
		self.age('header.h', 'driver.c')
		header, driver = self.mtime('header.h'), self.mtime('driver.c')
		self.write_series('the header', 'the driver', 'driver.c patched again')
		self.assertIn('PATCH', self.prepare())
		self.assertEqual((self.src / 'driver.c').read_text(), 'driver.c patched again\n')
		self.assertEqual(self.mtime('header.h'), header)
		self.assertGreater(self.mtime('driver.c'), driver)

	def test_no_stash_is_left_behind(self):
		self.prepare()
		self.write_series('the header', 'the driver', 'driver.c patched again')
		self.prepare()
		self.assertFalse(Path(f'{self.src}.stash').exists())

	def test_another_tarball_is_unpacked_again(self):
		self.prepare()
		self.write_tarball(118, 'base')
		self.assertIn('changed since the tree was unpacked', self.prepare())
		self.assertIn('Linux 6.12.118', self.base_subject())
		self.assertEqual((self.src / 'driver.c').read_text(), 'driver.c patched\n')

	def test_a_tree_from_before_the_stamp_of_the_same_version_is_kept(self):
		self.prepare()
		(self.src / '.replug-tarball').unlink()
		self.assertNotIn('UNPACK', self.prepare())
		self.assertTrue((self.src / '.replug-tarball').exists())

	def test_a_tree_from_before_the_stamp_of_another_version_goes(self):
		self.prepare()
		(self.src / '.replug-tarball').unlink()
		self.write_tarball(118, 'base')
		self.assertIn('is Linux 6.12.118, the tree Linux 6.12.117', self.prepare())
		self.assertIn('Linux 6.12.118', self.base_subject())

	def base_subject(self) -> str:
		return subprocess.run(['git', '-C', str(self.src), 'log', '-1',
				       '--format=%s', 'base'], capture_output=True,
				      text=True, check=True).stdout


if __name__ == '__main__':
	unittest.main()
