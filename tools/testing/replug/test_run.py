# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the host runner: a broken guest must turn the run red."""

import contextlib
import io
import os
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import run  # noqa: E402

KERNEL_SRC = Path(os.environ.get('REPLUG_KERNEL_SRC', 'build/linux'))

PASSING = '''KTAP version 1
1..2
    KTAP version 1
    # Subtest: pm_intent
    1..2
    ok 1 pm_intent_suspend_test
    ok 2 pm_intent_names_test
ok 1 pm_intent
    KTAP version 1
    # Subtest: s3
    1..1
    ok 1 every device present before is present after
ok 2 s3
'''


def tally_of(text: str, failure: str = '', tests: list[str] | None = None,
	     console: list[str] | None = None, tally: run.Tally | None = None,
	     kernel: str = 'k', cpus: list[str] | None = None) -> run.Tally:
	parser = run.load_kunit_parser(KERNEL_SRC)
	boot = run.Boot('unit', Path(kernel), Path('i'), Path('/nonexistent'), tests or [])
	boot.ktap_lines = lambda: text.splitlines()
	boot.failure = failure
	boot.console = console or []
	boot.cpus = cpus or []
	tally = tally if tally is not None else run.Tally()
	# The parser prints through a Printer bound to sys.stdout at import;
	# the canned failures are expected and would only confuse the log.
	printer_output = parser.stdout._output
	parser.stdout._output = io.StringIO()
	try:
		with contextlib.redirect_stdout(io.StringIO()):
			run.tally_boot(parser, boot, tally)
	finally:
		parser.stdout._output = printer_output
	return tally


class TallyTest(unittest.TestCase):
	def test_passing_document_counts_leaf_cases(self):
		t = tally_of(PASSING)
		self.assertEqual((t.passed, t.failed), (3, 0))

	def test_failing_kunit_case_is_a_failure(self):
		t = tally_of(PASSING.replace('    ok 2 pm_intent_names_test',
					     '    not ok 2 pm_intent_names_test'))
		self.assertEqual((t.passed, t.failed), (2, 1))

	def test_guest_that_stops_mid_document_fails(self):
		cut = PASSING[:PASSING.index('    # Subtest: s3')]
		t = tally_of(cut, failure='guest stopped before finishing')
		self.assertGreaterEqual(t.failed, 1)

	def test_no_output_at_all_fails(self):
		t = tally_of('')
		self.assertEqual((t.passed, t.failed), (0, 1))

	def test_a_kunit_suite_counts_once_per_kernel(self):
		t = tally_of(PASSING, tests=['s3'])
		self.assertEqual(t.passed, 3)
		# The next boot of the same kernel runs the suite again: only its
		# guest test counts anew.
		tally_of(PASSING, tests=['s3'], tally=t)
		self.assertEqual(t.passed, 4)
		# Another kernel's run of the suite is a check of its own.
		tally_of(PASSING, tests=['s3'], tally=t, kernel='debug')
		self.assertEqual(t.passed, 7)

	def test_a_repeated_suite_still_fails(self):
		t = tally_of(PASSING, tests=['s3'])
		tally_of(PASSING.replace('    ok 2 pm_intent_names_test',
					 '    not ok 2 pm_intent_names_test'),
			 tests=['s3'], tally=t)
		self.assertEqual((t.passed, t.failed), (4, 1))

	def test_closing_line_format(self):
		self.assertEqual(run.Tally(5, 0).line(), '5 passed, 0 failed')
		self.assertEqual(run.Tally(5, 1, 2).line(), '5 passed, 1 failed, 2 skipped')


class SummaryTest(unittest.TestCase):
	"""The closing summary names every failure on the last screen."""

	def test_a_failed_case_is_named_with_its_suite_and_why(self):
		t = tally_of(PASSING.replace('    ok 2 pm_intent_names_test',
					     '    # names: expected "s3", got "mem"\n'
					     '    not ok 2 pm_intent_names_test'))
		self.assertEqual([f.name for f in t.failures],
				 ['unit: pm_intent: pm_intent_names_test'])
		self.assertIn('names: expected "s3", got "mem"', t.failures[0].details)
		summary = '\n'.join(t.summary())
		self.assertIn('# 1 failed check:', summary)
		self.assertIn('unit: pm_intent: pm_intent_names_test', summary)
		self.assertIn('log: /nonexistent/ktap.log', summary)

	def test_results_that_never_came_are_one_failure_not_nameless_ones(self):
		cut = PASSING[:PASSING.index('    # Subtest: s3')]
		t = tally_of(cut, failure='guest stopped before finishing', tests=['s3'])
		names = [f.name for f in t.failures]
		self.assertNotIn('unit: ', names)
		self.assertTrue(any('results missing or unreadable' in n for n in names), names)

	def test_a_boot_that_died_names_its_test_and_those_never_run(self):
		cut = PASSING[:PASSING.index('    # Subtest: s3')]
		console = ['[ 1.0] replug guest: running pm_intent',
			   '[ 2.0] replug guest: running s3',
			   '[ 3.0] BUG: kernel NULL pointer dereference, address: 0',
			   '[ 3.1] RIP: 0010:device_del+0x1/0x2']
		t = tally_of(cut, failure='kernel reported: BUG: kernel NULL',
			     tests=['pm_intent', 's3', 's2idle'], console=console)
		boot = [f for f in t.failures if f.name.startswith('boot unit')]
		self.assertEqual(len(boot), 1)
		details = boot[0].details
		self.assertIn('running when it ended: s3', details)
		self.assertIn('never ran: s2idle', details)
		self.assertIn('console: [ 3.0] BUG: kernel NULL pointer dereference, '
			      'address: 0', details)
		self.assertIn('log: /nonexistent/console.log', details)

	def test_the_summary_fits_the_last_screen(self):
		t = run.Tally()
		for i in range(10):
			t.fail(f'check {i}', [f'reason {i}.{j}' for j in range(10)])
		lines = t.summary()
		self.assertLessEqual(len(lines), run.SUMMARY_LINES)
		# Every failure is named with at least its first reason.
		for i in range(10):
			self.assertIn(f'# - check {i}', lines)
			self.assertIn(f'#     reason {i}.0', lines)

	def test_more_failures_than_lines_still_ends_within_the_screen(self):
		t = run.Tally()
		for i in range(100):
			t.fail(f'check {i}')
		lines = t.summary()
		self.assertEqual(len(lines), run.SUMMARY_LINES)
		self.assertIn('100 failures in all', lines[-1])

	def test_notes_come_before_the_failures_and_alone_without_them(self):
		t = run.Tally()
		t.note('replug-sleep booted twice: QEMU exited with status -6')
		self.assertEqual(t.summary(),
				 ['# note: replug-sleep booted twice: QEMU exited with status -6'])
		t.fail('check 1', ['why'])
		self.assertEqual(t.summary()[:2],
				 ['# note: replug-sleep booted twice: QEMU exited with status -6',
				  '# 1 failed check:'])
		self.assertEqual(t.failed, 1)

	def test_no_failure_no_summary(self):
		t = run.Tally()
		t.record('fine')
		self.assertEqual(t.summary(), [])

	def test_a_static_check_shows_its_first_error_not_its_progress(self):
		out = ('  SPHINX  htmldocs\nreading sources... [ 50%] replug\n'
		       'Documentation/driver-api/pm/replug.rst:12: WARNING: '
		       'Unknown target name\nbuild finished\n')
		self.assertEqual(run.first_errors(out, 2), [
			'Documentation/driver-api/pm/replug.rst:12: WARNING: Unknown target name',
			'exit status 2'])
		self.assertEqual(run.first_errors('all quiet\n', 1),
				 ['all quiet', 'exit status 1'])

	def test_an_exception_in_the_harness_still_prints_the_tally(self):
		def broken(tally):
			tally.record('a check before')
			raise RuntimeError('disk full')
		out = io.StringIO()
		with contextlib.redirect_stdout(out), \
		     contextlib.redirect_stderr(io.StringIO()):
			rc = run.close_run(run.Tally(2, 0), broken)
		self.assertEqual(rc, 1)
		self.assertIn('the harness stopped: RuntimeError: disk full', out.getvalue())
		self.assertTrue(out.getvalue().rstrip().endswith('3 passed, 1 failed'))


CHECKPATCH_OUT = '''CHECK: Alignment should match open parenthesis
#3812: FILE: include/trace/events/replug.h:19:
+TRACE_EVENT(replug_device,

WARNING: Missing a blank line after declarations
#120: FILE: drivers/base/power/replug.c:40:
+	int x;

CHECK: Lines should not end with a '('
#130: FILE: drivers/base/power/replug.c:52:
+	foo(

ERROR: Missing Signed-off-by: line(s)

total: 1 errors, 1 warnings, 2 checks, 3774 lines checked
'''


class CheckpatchTest(unittest.TestCase):
	def test_findings_name_their_file_and_line(self):
		self.assertEqual(run.checkpatch_findings(CHECKPATCH_OUT), [
			'drivers/base/power/replug.c:40: WARNING: Missing a blank '
			'line after declarations',
			"drivers/base/power/replug.c:52: CHECK: Lines should not end with a '('",
			'ERROR: Missing Signed-off-by: line(s)'])

	def test_checks_in_trace_event_headers_do_not_count(self):
		trace_only = CHECKPATCH_OUT.split('\n\n')[0] + '\n\ntotal: 0 errors\n'
		self.assertTrue(run.checkpatch_clean(trace_only, 1))
		warning = trace_only.replace('CHECK:', 'WARNING:')
		self.assertFalse(run.checkpatch_clean(warning, 1))

	def test_a_checkpatch_that_did_not_finish_is_no_pass(self):
		self.assertFalse(run.checkpatch_clean('', 0))
		self.assertFalse(run.checkpatch_clean(
			'total: 0 errors\nTraceback (most recent call last):\n', 0))

	def test_the_explanation_stops_at_three(self):
		out = '\n'.join(f'WARNING: w{i}\n#1: FILE: a.c:{i}:' for i in range(5))
		self.assertEqual(run.checkpatch_explain(out, 1),
				 ['a.c:0: WARNING: w0', 'a.c:1: WARNING: w1',
				  'a.c:2: WARNING: w2', 'and 2 more'])


SYSRQ_DUMP = '''[  120.100000] rt0: unplug fault fires (poweroff): hang 600000
[  150.000000] sysrq: Show Blocked State
[  150.000100] task:sh              state:D stack:0     pid:95    tgid:95    ppid:1      flags:0x00004000
[  150.000200] Call Trace:
[  150.000300]  <TASK>
[  150.000400]  __schedule+0x2a1/0x5f0
[  150.000500]  ? __mutex_lock.constprop.0+0x3a3/0x6b0
[  150.000600]  schedule+0x27/0xa0
[  150.000700]  schedule_preempt_disabled+0x15/0x30
[  150.000800]  __mutex_lock.constprop.0+0x3a3/0x6b0
[  150.000900]  lock_system_sleep+0x1c/0x30
[  150.001000]  dry_run_store+0x5b/0x120
[  150.001100]  kernfs_fop_write_iter+0x13a/0x1d0
[  150.001200]  vfs_write+0x2b4/0x470
[  150.001300]  ksys_write+0x6d/0xf0
[  150.001400]  </TASK>
[  150.001500] task:kworker/u8:1    state:D stack:0     pid:40    tgid:40    ppid:2      flags:0x00004000
[  150.001600]  __schedule+0x2a1/0x5f0
[  150.001700]  async_synchronize_cookie_domain+0x90/0x140
'''.splitlines()


class BlockedTasksTest(unittest.TestCase):
	def test_each_task_with_its_own_frames(self):
		self.assertEqual(run.blocked_tasks(SYSRQ_DUMP), [
			'blocked: sh in lock_system_sleep < dry_run_store < '
			'kernfs_fop_write_iter < vfs_write < ksys_write',
			'blocked: kworker/u8:1 in async_synchronize_cookie_domain'])

	def test_a_guessing_unwinder_frames_are_taken_when_there_are_no_others(self):
		guessed = [l.replace('  __', '  ? __').replace('  lock_', '  ? lock_')
			   .replace("  dry_", "  ? dry_") for l in SYSRQ_DUMP[:12]]
		self.assertEqual(run.blocked_tasks(guessed), [
			'blocked: sh in lock_system_sleep < dry_run_store'])

	def test_the_last_dump_counts(self):
		again = SYSRQ_DUMP + ['[  160.000000] sysrq: Show Blocked State']
		self.assertEqual(run.blocked_tasks(again),
				 ['blocked: no task in D state (SysRq-w)'])

	def test_the_console_excerpt_is_what_came_before_the_dump(self):
		self.assertEqual(run.console_excerpt(SYSRQ_DUMP),
				 [SYSRQ_DUMP[0].strip()])

	def test_no_dump_no_lines(self):
		self.assertEqual(run.blocked_tasks(SYSRQ_DUMP[:1]), [])

	def test_a_failure_report_names_them(self):
		self.assertIn('blocked: kworker/u8:1 in async_synchronize_cookie_domain',
			      run.failure_context([], SYSRQ_DUMP))


class FakeProc:
	"""A QEMU that runs until killed."""
	def __init__(self):
		self.killed = False

	def poll(self):
		return 0 if self.killed else None

	def kill(self):
		self.killed = True


class QuietConsoleTest(unittest.TestCase):
	def boot(self, quiet_s):
		b = run.Boot('hung', Path('k'), Path('i'), Path('/nonexistent'), [],
			     quiet_s=quiet_s)
		b.console = ['replug guest: running harness-hang', 'hanging on purpose']
		b.last_output = time.monotonic()
		return b

	def test_a_quiet_console_ends_the_boot_and_says_after_what(self):
		b, proc = self.boot(1), FakeProc()
		b._watch_quiet(proc)
		self.assertTrue(proc.killed)
		self.assertRegex(b.failure, r'^console quiet for 1 s \(the limit\) '
				 r'after: hanging on purpose$')

	def test_a_failure_already_known_is_kept(self):
		b, proc = self.boot(1), FakeProc()
		b.failure = 'kernel reported: BUG: x'
		b._watch_quiet(proc)
		self.assertEqual(b.failure, 'kernel reported: BUG: x')

	def test_output_keeps_it_running(self):
		b, proc = self.boot(2), FakeProc()
		def talk():
			for _ in range(4):
				time.sleep(0.5)
				b.last_output = time.monotonic()
			proc.kill()
		t = threading.Thread(target=talk)
		t.start()
		b._watch_quiet(proc)
		t.join()
		self.assertEqual(b.failure, '')

	def test_broken_shows_reads_the_failure_and_its_context(self):
		b = self.boot(1)
		b.failure = 'console quiet for 20 s (the limit) after: x'
		b.console = SYSRQ_DUMP
		self.assertEqual(run.broken_shows_failure(b, r'^console quiet for \d+ s'), '')
		self.assertEqual(run.broken_shows_failure(b, r'^blocked: \S+ in .*dry_run_store'), '')
		self.assertIn('not in', run.broken_shows_failure(b, r'^blocked: rmmod'))


class TierTest(unittest.TestCase):
	def test_make_check_boots_no_debug_kernel(self):
		self.assertFalse([b.name for b in run.tier_boots('check') if b.debug])

	def test_check_full_runs_every_boot(self):
		self.assertEqual(run.tier_boots('full'), run.CHECK_BOOTS)

	def test_make_check_keeps_every_guest_test(self):
		"""Only the soak and the races are the full tier's own: every
		other test runs in make check too, if not under the debug kernel."""
		def tests(boots):
			return {t for b in boots for t in b.tests}
		missing = tests(run.tier_boots('full')) - tests(run.tier_boots('check'))
		self.assertEqual(missing, {'replug-soak', 'replug-races'})

	def test_boot_names_are_unique(self):
		names = [b.name for b in run.CHECK_BOOTS]
		self.assertEqual(len(names), len(set(names)))


class StaticCheckTest(unittest.TestCase):
	def check(self, cmd, clean):
		tally = run.Tally()
		with contextlib.redirect_stdout(io.StringIO()):
			run.static_check('probe', cmd, Path('.'), clean, tally)
		return tally

	def test_findings_fail_the_check(self):
		t = self.check(['echo', 'x.c:1: WARNING: y'],
			       lambda t, rc: 'WARNING' not in t)
		self.assertEqual((t.passed, t.failed), (0, 1))

	def test_clean_output_passes(self):
		t = self.check(['true'], lambda t, rc: rc == 0 and not t)
		self.assertEqual((t.passed, t.failed), (1, 0))

	def test_a_failure_is_explained_by_its_own_function(self):
		tally = run.Tally()
		with contextlib.redirect_stdout(io.StringIO()):
			run.static_check('probe', ['false'], Path('.'),
					 lambda t, rc: rc == 0, tally,
					 lambda t, rc: [f'status was {rc}'])
		self.assertEqual(tally.failures[0].details, ['status was 1'])

	def test_exit_status_counts(self):
		t = self.check(['false'], lambda t, rc: rc == 0)
		self.assertEqual((t.passed, t.failed), (0, 1))


class HostRequestTest(unittest.TestCase):
	def test_request_cut_by_a_kernel_message_is_understood(self):
		line = 'REPLUG-HOST: wake-from-s2idle[   42.8] PM: suspend entry (s2idle)'
		self.assertEqual(run.HOST_REQUEST_RE.search(line).group(1),
				 'wake-from-s2idle')


class PanicPatternTest(unittest.TestCase):
	def test_kernel_reports_are_caught(self):
		for line in ['[    2.1] Kernel panic - not syncing: VFS: Unable to mount root',
			     '[    3.0] BUG: kernel NULL pointer dereference, address: 0',
			     '[    4.0] WARNING: CPU: 1 PID: 1 at drivers/base/core.c:1 x+0x1/0x2']:
			self.assertRegex(line, run.PANIC_RE)

	def test_debug_checkers_are_caught(self):
		for line in ['[    5.0] BUG: KASAN: slab-use-after-free in device_del+0x1/0x2',
			     '[    5.1] WARNING: possible circular locking dependency detected',
			     '[    5.2] WARNING: inconsistent lock state',
			     '[    5.3] WARNING: suspicious RCU usage',
			     '[    5.4] BUG: sleeping function called from invalid context at x.c:1',
			     '[  245.0] INFO: task sh:123 blocked for more than 120 seconds.']:
			self.assertRegex(line, run.PANIC_RE)

	def test_ordinary_lines_pass(self):
		for line in ['[    1.0] PM: suspend entry (s2idle)',
			     '[    1.1] ACPI: PM: Waking up from system sleep state S3',
			     # An injected hang, named by replug's watchdog, is expected.
			     '[    9.0] replug_test rt5: replug: unplug() has not returned after 500 ms',
			     '[    9.1] kmemleak: Kernel memory leak detector initialized',
			     # The tracker's pool empty while a hibernation holds
			     # the memory: its own limit, not a report.
			     '[   63.0] ODEBUG: Out of memory. ODEBUG disabled']:
			self.assertNotRegex(line, run.PANIC_RE)

	def test_the_tracker_turning_itself_off_is_recognised(self):
		self.assertRegex('[   63.0] ODEBUG: Out of memory. ODEBUG disabled',
				 run.CHECKER_OFF_RE)


class FailureContextTest(unittest.TestCase):
	def test_a_hang_names_the_last_result_and_the_first_stall(self):
		ktap = ['KTAP version 1', '1..2', '    ok 1 devices cycle 1: succeeded',
			'    not ok 2 s3 cycle 1: succeeded']
		console = ['[ 900.0] PM: suspend entry (deep)',
			   '[1000.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:',
			   '[1100.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:']
		self.assertEqual(run.failure_context(ktap, console), [
			'last result: not ok 2 s3 cycle 1: succeeded',
			'first stall report (2 in all): '
			'[1000.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:'])

	def test_a_boot_without_results_or_stalls_says_so(self):
		self.assertEqual(run.failure_context([], ['[ 1.0] Linux version']),
				 ['last result: none'])


class SoakSpecTest(unittest.TestCase):
	def test_counts_default_to_zero(self):
		counts = run.soak_counts('devices:5,tree:100')
		self.assertEqual(counts['devices'], 5)
		self.assertEqual(counts['s3'], 0)
		self.assertEqual(counts['tree'], 100)

	def test_one_document_per_kernel(self):
		self.assertEqual(run.soak_boot('s', 'kexec:3,tree:10').documents, 4)
		self.assertTrue(run.soak_boot('s', run.SOAK_CHECK).debug)

	def test_time_grows_with_cycles_and_tree(self):
		short = run.soak_boot('s', 'devices:10,tree:100').timeout
		self.assertGreater(run.soak_boot('s', 'devices:100,tree:100').timeout, short)
		self.assertGreater(run.soak_boot('s', 'devices:10,tree:1000').timeout, short)

	def test_bad_specs_are_refused(self):
		for spec in ['devices', 'devices:x,tree:1', 'reboot:3,tree:1', 'devices:-1,tree:1',
			     'devices:1', 'tree:0', 'tree:10001', '']:
			with self.assertRaises(ValueError, msg=spec):
				run.soak_counts(spec)


class KtapDocumentsTest(unittest.TestCase):
	def test_two_kernels_two_documents(self):
		docs = run.ktap_documents(PASSING.splitlines() + PASSING.splitlines())
		self.assertEqual(len(docs), 2)
		self.assertEqual(docs[1], PASSING.splitlines())

	def test_nested_headers_do_not_split(self):
		self.assertEqual(len(run.ktap_documents(PASSING.splitlines())), 1)

	def test_a_missing_second_kernel_fails(self):
		parser = run.load_kunit_parser(KERNEL_SRC)
		boot = run.Boot('unit', Path('k'), Path('i'), Path('/nonexistent'), [])
		boot.ktap_lines = lambda: PASSING.splitlines()
		tally = run.Tally()
		printer_output = parser.stdout._output
		parser.stdout._output = io.StringIO()
		try:
			with contextlib.redirect_stdout(io.StringIO()):
				run.tally_boot(parser, boot, tally, documents=2)
		finally:
			parser.stdout._output = printer_output
		self.assertEqual(tally.failed, 1)
		self.assertIn('1 kernels reported', boot.failure)


class QemuCmdTest(unittest.TestCase):
	def boot(self) -> run.Boot:
		return run.Boot('unit', Path('k'), Path('i'), Path('/out'), ['a', 'b'],
				resume_append='replug.resume=1')

	def append_of(self, cmd: list[str]) -> str:
		return cmd[cmd.index('-append') + 1]

	def test_the_resume_run_restores_instead_of_testing(self):
		first, second = self.boot().qemu_cmd(), self.boot().qemu_cmd(resume=True)
		self.assertIn('replug.tests=a,b', self.append_of(first))
		self.assertNotIn('replug.resume=1', self.append_of(first))
		self.assertIn('replug.resume=1', self.append_of(second))
		self.assertNotIn('replug.tests', self.append_of(second))

	def test_reports_continue_in_the_same_files(self):
		cmd = self.boot().qemu_cmd(resume=True)
		self.assertIn('file,id=ktap,path=/out/ktap.log,append=on', cmd)
		# ttyS0 is the console, ttyS1 the KTAP channel, ttyS2 the trace.
		serials = [cmd[i + 1] for i, a in enumerate(cmd) if a == '-serial']
		self.assertEqual(serials, ['stdio', 'chardev:ktap', 'chardev:port3'])
		self.assertIn(f'file,id=port3,path=/out/{run.SLEEPGRAPH_TRACE},append=on', cmd)


class HostWakeTest(unittest.TestCase):
	"""The guest's requests that change how the host wakes it."""

	class FakeQmp:
		def __init__(self):
			self.wakes_s3 = True
			self.presses = 0

		def press_power_button_until(self, asleep, awake):
			self.presses += 1

	def boot(self) -> run.Boot:
		boot = run.Boot('unit', Path('k'), Path('i'), Path('/out'), [])
		boot.qmp = self.FakeQmp()
		return boot

	def test_every_s2idle_gets_the_button_while_asked(self):
		boot = self.boot()
		boot._host_request('REPLUG-HOST: wake-every-s2idle')
		for _ in range(3):
			boot._host_request('[ 1.0] PM: suspend-to-idle')
			boot._host_request('[ 2.0] PM: resume from suspend-to-idle')
		time.sleep(0.1)
		self.assertEqual(boot.qmp.presses, 3)
		self.assertTrue(boot.awake.is_set())
		boot._host_request('REPLUG-HOST: s2idle-on-request')
		boot._host_request('[ 3.0] PM: suspend-to-idle')
		time.sleep(0.1)
		self.assertEqual(boot.qmp.presses, 3)

	def test_s3_wake_left_to_the_rtc_and_back(self):
		boot = self.boot()
		boot._host_request('REPLUG-HOST: rtc-wakes-s3')
		self.assertFalse(boot.qmp.wakes_s3)
		boot._host_request('REPLUG-HOST: host-wakes-s3')
		self.assertTrue(boot.qmp.wakes_s3)


class PowerButtonTest(unittest.TestCase):
	"""The presses that end a guest's s2idle."""

	def qmp(self, awake_after: int) -> run.Qmp:
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		qmp = run.Qmp(Path(tmp.name) / 'qmp.sock', Path(tmp.name) / 'qmp.log')
		qmp.presses = 0

		def command(name, **args):
			self.assertEqual(name, 'system_powerdown')
			qmp.presses += 1
			if qmp.presses == awake_after:
				self.awake.set()
		qmp.command = command
		return qmp

	def setUp(self):
		self.asleep = threading.Event()
		self.awake = threading.Event()
		self.asleep.set()

	def test_presses_go_on_until_the_guest_is_awake(self):
		# Five presses were the limit once: a sixth was never made and
		# the guest slept until the boot's timeout.
		qmp = self.qmp(awake_after=8)
		qmp.press_power_button_until(self.asleep, self.awake, interval=0.01)
		self.assertEqual(qmp.presses, 8)

	def test_no_press_once_awake(self):
		qmp = self.qmp(awake_after=0)
		self.awake.set()
		qmp.press_power_button_until(self.asleep, self.awake, interval=0.01)
		self.assertEqual(qmp.presses, 0)

	def test_qemu_gone_ends_the_presses(self):
		qmp = self.qmp(awake_after=0)

		def gone(name, **args):
			raise BrokenPipeError('QEMU exited')
		qmp.command = gone
		qmp.press_power_button_until(self.asleep, self.awake, interval=0.01)
		self.assertFalse(self.awake.is_set())


class RtcFallbackTest(unittest.TestCase):
	"""A guest its RTC alarm left in S3 is woken by the host."""

	def run_events(self, events: list[str]) -> tuple[run.Qmp, list[str]]:
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		qmp = run.Qmp(Path(tmp.name) / 'qmp.sock', Path(tmp.name) / 'qmp.log')
		qmp.reader = io.StringIO(''.join(e + '\n' for e in events))
		sent = []
		qmp.command = lambda name, **args: sent.append(name)
		qmp.wakes_s3 = False
		saved, run.RTC_WAKE_MAX_S = run.RTC_WAKE_MAX_S, 0.05
		try:
			qmp.read_events()
			time.sleep(0.3)
		finally:
			run.RTC_WAKE_MAX_S = saved
		return qmp, sent

	def test_an_alarm_that_never_came_is_replaced_and_counted(self):
		qmp, sent = self.run_events(['{"event": "SUSPEND"}'])
		self.assertEqual((qmp.rtc_missed, sent), (1, ['system_wakeup']))

	def test_an_alarm_that_came_leaves_the_host_out(self):
		qmp, sent = self.run_events(['{"event": "SUSPEND"}', '{"event": "WAKEUP"}'])
		self.assertEqual((qmp.rtc_missed, sent), (0, []))


class QemuFailureTest(unittest.TestCase):
	def test_qemu_aborting_is_named_in_its_words(self):
		console = ['[   52.37] e1000e 0000:01:00.0: enabling device (0000 -> 0002)',
			   "qemu-system-x86_64: ../../hw/pci/msix.c:218: msix_table_mmio_write: "
			   "Assertion `addr + size <= dev->msix_entries_nr * PCI_MSIX_ENTRY_SIZE' failed."]
		self.assertEqual(run.qemu_failure(-6, console),
				 f'QEMU exited with status -6: {console[1]}')

	def test_a_clean_exit_is_no_failure(self):
		self.assertEqual(run.qemu_failure(0, ['qemu-system-x86_64: terminating on signal 15']), '')

	def test_an_exit_without_words_still_fails(self):
		self.assertEqual(run.qemu_failure(1, []), 'QEMU exited with status 1')


class MonitorTest(unittest.TestCase):
	"""What QEMU's monitor says of the vCPUs of a guest that timed out."""

	def qmp(self, replies: list[str]) -> run.Qmp:
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		qmp = run.Qmp(Path(tmp.name) / 'qmp.sock', Path(tmp.name) / 'qmp.log')
		qmp.reader = io.StringIO(''.join(l + '\n' for l in replies))
		return qmp

	def test_a_monitor_reply_is_taken_and_events_are_not(self):
		qmp = self.qmp(['{"return": {}}',
				'{"event": "RESET", "data": {}}',
				'{"return": "* CPU #0: pc=0xffffffff81a0b2c4 (halted) thread_id=7\\r\\n"}'])
		sent = []
		qmp.command = lambda name, **args: sent.append((name, args))
		qmp.read_events()
		self.assertEqual(qmp.monitor('info cpus'),
				 '* CPU #0: pc=0xffffffff81a0b2c4 (halted) thread_id=7\r\n')
		# QMP spells it with a dash: command_line was refused once.
		self.assertEqual(sent, [('human-monitor-command',
					 {'command-line': 'info cpus'})])

	def test_sysrq_is_one_chord(self):
		qmp = self.qmp([])
		sent = []
		qmp.command = lambda name, **args: sent.append((name, args))
		qmp.sysrq('w')
		self.assertEqual(sent, [('send-key', {'keys': [
			{'type': 'qcode', 'data': 'alt'}, {'type': 'qcode', 'data': 'sysrq'},
			{'type': 'qcode', 'data': 'w'}]})])

	def test_no_reply_is_an_empty_answer(self):
		qmp = self.qmp([])
		qmp.command = lambda name, **args: None
		self.assertEqual(qmp.monitor('info cpus', timeout=0.01), '')

	def test_qemu_gone_is_an_empty_answer(self):
		qmp = self.qmp([])

		def gone(name, **args):
			raise BrokenPipeError('QEMU exited')
		qmp.command = gone
		self.assertEqual(qmp.monitor('info cpus'), '')

	def test_a_timed_out_boot_names_its_vcpus(self):
		console = ['[ 1.0] replug guest: running s3']
		cpus = ['* CPU #0: pc=0xffffffff81a0b2c4 (halted) thread_id=7',
			'CPU #1: pc=0xffffffff81a0b2c4 (halted) thread_id=8']
		t = tally_of('', failure='guest did not finish within 600 s', tests=['s3'],
			     console=console, cpus=cpus)
		details = t.failures[-1].details
		self.assertIn('running when it ended: s3', details)
		for cpu in cpus:
			self.assertIn(f'vCPU when it was ended: {cpu}', details)


class SvgTest(unittest.TestCase):
	def write(self, text: str) -> Path:
		path = Path(self.tmp.name) / 'r.svg'
		path.write_text(text)
		return path

	def setUp(self):
		self.tmp = tempfile.TemporaryDirectory()

	def tearDown(self):
		self.tmp.cleanup()

	def svg(self, bars: int) -> str:
		return ('<svg xmlns="http://www.w3.org/2000/svg" version="1.1">' +
			'<rect class="row"/>' + '<rect class="phase"/>' * bars + '</svg>')

	def test_enough_bars_pass(self):
		self.assertEqual(run.svg_failure(self.write(self.svg(3)), 3), '')

	def test_too_few_bars_fail(self):
		self.assertIn('2 phase bars', run.svg_failure(self.write(self.svg(2)), 3))

	def test_broken_xml_fails(self):
		self.assertIn('well-formed', run.svg_failure(self.write(self.svg(3)[:-3]), 1))

	def test_not_svg_fails(self):
		self.assertIn('not svg', run.svg_failure(self.write('<html/>'), 0))

	def test_nothing_sent_fails(self):
		self.assertIn('no SVG', run.svg_failure(Path(self.tmp.name) / 'none', 1))


class CompilerFindingsTest(unittest.TestCase):
	def test_findings_in_project_files_count(self):
		out = ('/k/drivers/base/power/replug.c:12:5: warning: symbol x was not declared\n'
		       '/k/drivers/pci/pci-driver.c:546:20: warning: restricted pci_power_t\n'
		       'drivers/base/power/intent.c:3: warning: Function parameter not described\n')
		found = run.compiler_findings(out)
		self.assertEqual(len(found), 2)
		self.assertNotIn('pci-driver', ' '.join(found))

	def test_clean_build_has_none(self):
		self.assertEqual(run.compiler_findings('  CC      drivers/base/power/replug.o\n'), [])


SHUTDOWN_CONSOLE = [
	'[    1.0] sd 0:0:0:0: shutdown for reboot',
	'REPLUG-GUEST-DONE',
	'[    9.0] sd 0:0:0:0: shutdown for poweroff',
	'[    9.1] sd 0:0:0:0: [sda] Stopping disk',
	'[    9.2] ahci 0000:00:1f.2: shutdown for poweroff',
]


class AfterDoneTest(unittest.TestCase):
	def failure(self, check: run.AfterDone, console=SHUTDOWN_CONSOLE) -> str:
		return run.after_done_failure(console, check)

	def test_only_lines_after_the_tests_count(self):
		self.assertTrue(self.failure(run.AfterDone('x', 'for reboot$')))
		self.assertFalse(self.failure(run.AfterDone('x', 'for poweroff$')))

	def test_absent_pattern_fails_when_seen(self):
		self.assertFalse(self.failure(run.AfterDone('x', 'for reboot', False)))
		self.assertIn('Stopping disk', self.failure(
			run.AfterDone('x', 'Stopping disk', present=False)))

	def test_order_is_checked(self):
		self.assertFalse(self.failure(run.AfterDone(
			'x', 'sd .*shutdown', before='ahci .*shutdown')))
		self.assertIn('comes after', self.failure(run.AfterDone(
			'x', 'ahci .*shutdown', before='sd .*shutdown')))

	def test_first_match_only_when_asked(self):
		console = SHUTDOWN_CONSOLE + ['[   10.0] sd 0:0:0:0: shutdown for poweroff']
		check = run.AfterDone('x', 'sd .*shutdown', before='ahci .*shutdown')
		self.assertIn('comes after', self.failure(check, console))
		check.first = True
		self.assertFalse(self.failure(check, console))

	def test_guest_that_never_finished_fails(self):
		self.assertTrue(self.failure(run.AfterDone('x', 'sd', present=False),
					     SHUTDOWN_CONSOLE[:1]))

	def test_a_kexecd_kernel_ends_the_window(self):
		console = SHUTDOWN_CONSOLE + ['[    0.0] Linux version 6.12',
					      'REPLUG-GUEST-DONE',
					      '[   20.0] sd 0:0:0:0: shutdown for reboot']
		self.assertFalse(self.failure(run.AfterDone('x', 'for reboot', False),
					      console))
		self.assertFalse(self.failure(run.AfterDone('x', 'Linux version'),
					      console))

	def test_shutdown_checks_hold_on_a_real_shape(self):
		console = ['REPLUG-GUEST-DONE',
			   '[    9.0] sd 6:0:0:0: shutdown for reboot',
			   '[    9.0] sd 6:0:0:0: [sdb] Synchronizing SCSI cache',
			   '[    9.1] e1000 0000:00:03.0: shutdown for reboot',
			   '[    9.2] sd 0:0:0:0: shutdown for reboot',
			   '[    9.3] ahci 0000:00:1f.2: shutdown for reboot']
		for check in run.shutdown_checks('reboot'):
			self.assertEqual(self.failure(check, console), '', check.desc)
		wrong = console + ['[    9.4] pcieport 0000:00:1c.0: shutdown for kexec']
		self.assertTrue(any(self.failure(c, wrong)
				    for c in run.shutdown_checks('reboot')))


if __name__ == '__main__':
	unittest.main()
