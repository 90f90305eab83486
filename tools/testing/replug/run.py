#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot the replug test guest in QEMU and collect its KTAP results.

Each boot gets fresh disk images, a console log, a KTAP channel on the
second serial port and a QMP socket.  The host wakes the guest from S3
when QMP reports SUSPEND, and acts on requests the guest writes to its
kernel log, which the console prints whole ("REPLUG-HOST: REQUEST"): wake-from-s2idle (press the power
button once the guest is in its s2idle loop), wake-every-s2idle and
s2idle-on-request (do so for every s2idle, or only on request),
rtc-wakes-s3 and host-wakes-s3 (leave the wake from S3 to the guest's
RTC alarm, or not), change-hardware-in-s3 (at the next S3, before the
wake, swap the USB disk and the e1000e for others and put another
filesystem of another size on a virtio disk; a hibernating hw-change
test finds the same changes when its image is restored),
stall-swap-writes (throttle the swap disk's writes to a trickle until
the kernel's watchdog names it).  Results are parsed with the kernel's
own kunit_parser (tools/testing/kunit), and a hung, panicked or silent
guest is a failure with its console shown, never a stuck run.
"""

import argparse
import json
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import bench

# Printed by s2idle_loop() once every device is suspended.
S2IDLE_LOOP_MARK = 'PM: suspend-to-idle'
# Printed once it has left the loop.
S2IDLE_RESUME_MARK = 'PM: resume from suspend-to-idle'
# How long the host waits for the guest to reach its s2idle loop before it
# presses the power button anyway (a debug kernel under TCG on a loaded
# host has taken minutes to suspend a large tree).
S2IDLE_ENTRY_MAX_S = 300
HOST_REQUEST_RE = re.compile(r'REPLUG-HOST: ([a-z0-9-]+)')
# What the kernel prints when it crashes, or when one of the debug kernel's
# checkers finds something: KASAN and the sleep-in-atomic check ("BUG:"),
# WARN() with refcount_t's and the debug-objects tracker's among them
# ("WARNING: CPU:"), lockdep and RCU-lockdep ("WARNING: possible circular
# locking dependency", "inconsistent lock state", "suspicious RCU usage"),
# and the hung-task detector.  "ODEBUG: " is not "BUG: ": see CHECKER_OFF_RE.
HUNG_TASK_PATTERN = r'INFO: task \S+ blocked for more than'
PANIC_RE = re.compile(r'Kernel panic - not syncing|\bBUG: |Oops:|'
		      r'WARNING: (CPU:|possible |inconsistent |suspicious )|' +
		      HUNG_TASK_PATTERN)
# The debug-objects tracker turning itself off when its pool cannot be
# refilled: it refills with atomic allocations, which fail while a
# hibernation holds nearly all free memory preallocated for the image.
# Not a report about the kernel, but the boot says so: the tracker checks
# nothing after it.
CHECKER_OFF_RE = re.compile(r'ODEBUG: Out of memory\. ODEBUG disabled')
DONE_MARK = 'REPLUG-GUEST-DONE'
# The watchdog naming a swap disk that holds up the hibernation image.
SWAP_STALL_NAMED_RE = re.compile(r'replug: swsusp_write\(\) has not returned after')
# How long the host stalls the swap disk when the watchdog stays silent.
SWAP_STALL_MAX_S = 120
# A console that says nothing for this long is a hung guest: the longest
# silence of a passing boot was 25 s (replug-testbus's 1,000-device walk,
# 2026-12-07); the debug kernel runs about five times slower.  The host
# then asks the kernel for its blocked tasks (SysRq-w) and ends the boot,
# instead of waiting out the boot's whole timeout.
QUIET_S = 300
QUIET_S_DEBUG = 900
# How long the blocked tasks' dump may take to reach the console.
SYSRQ_DUMP_S = 15
SYSRQ_BLOCKED_MARK = 'sysrq: Show Blocked State'
# A task in the dump, and a frame of its stack.
BLOCKED_TASK_RE = re.compile(r'task:(\S+)\s+state:D\b')
STACK_FRAME_RE = re.compile(r'^\s*(?:\[\s*\d+\.\d+\]\s*)?(\? )?([a-z_]\w*)[\w.]*\+0x')
# The scheduler's own frames say nothing of why a task waits.
SCHED_FRAME_RE = re.compile(r'^(__schedule|schedule\w*|io_schedule\w*|'
			    r'__mutex_lock\w*|mutex_lock\w*|__wait_for_common|'
			    r'wait_for_completion\w*|rwsem_down_\w+|__down\w*|'
			    r'__switch_to\w*|ret_from_fork\w*)$')
# The guest's RTC alarm of pmtest's S3 is 5 s away; after this long in S3
# the host wakes it and fails the boot, instead of waiting out the timeout.
RTC_WAKE_MAX_S = 60
# A halted guest stays on; the host ends QEMU when it says so.
HALTED_MARK = 'reboot: System halted'
# The trace of one replug cycle, written by the guest on its third serial port.
SLEEPGRAPH_TRACE = 'suspend_ftrace.txt'


@dataclass
class Disk:
	"""A guest disk image, made fresh for each boot."""
	name: str
	size_mib: int
	ext4_label: str = ''


DISKS = [
	Disk('data', 64, 'replug-data'),
	# Room for a debug kernel's hibernation image (KASAN, kmemleak).
	Disk('swap', 512),
	Disk('sata', 32, 'replug-sata'),
	Disk('usb', 16, 'replug-usb'),
	# Not attached at boot: the USB disk the host swaps in while the
	# guest sleeps (change-hardware-in-s3).
	Disk('usb2', 16, 'replug-usb2'),
	# A virtio disk of the hw-change test, and what the host writes over
	# it while the guest sleeps: another filesystem, twice the size.
	Disk('vdisk', 16, 'replug-vdisk-a'),
	Disk('vdisk2', 32, 'replug-vdisk-b'),
]


# What the hw-change tests plug in, while the guest sleeps (QMP device_add)
# or before the restore of its image (-device, which takes the same JSON).
NEW_USB_DISK = {'driver': 'usb-storage', 'drive': 'usbdisk2', 'bus': 'xhci.0',
		'serial': 'replug-usb2', 'id': 'usbstore2'}
NEW_NIC = {'driver': 'e1000', 'netdev': 'n3', 'bus': 'br1', 'addr': '1',
	   'mac': '52:54:00:00:00:13', 'id': 'nic13'}


def qemu_devices(disk_dir: Path, changed: bool = False) -> list[str]:
	"""The default devices: real hardware models driven by in-tree drivers.

	The NICs share one QEMU hub with no host backend, so no frame leaves
	QEMU.  @changed: the hardware as the hw-change tests leave it (see
	hardware_changes()): the e1000e's slot empty, the other USB disk in.
	"""
	img = {d.name: disk_dir / f'{d.name}.img' for d in DISKS}
	e1000e = [] if changed else [
		'-netdev', 'hubport,id=n2,hubid=0',
		'-device', 'e1000e,netdev=n2,bus=rp1,mac=52:54:00:00:00:12,id=nic12',
	]
	usb_disk = (json.dumps(NEW_USB_DISK) if changed else
		    'usb-storage,drive=usbdisk,bus=xhci.0,serial=replug-usb,id=usbstore')
	return [
		'-netdev', 'hubport,id=n0,hubid=0',
		'-device', 'virtio-net-pci,netdev=n0,mac=52:54:00:00:00:10',
		'-netdev', 'hubport,id=n1,hubid=0',
		'-device', 'e1000,netdev=n1,mac=52:54:00:00:00:11',
		'-device', 'pcie-root-port,id=rp1,chassis=1,slot=1',
	] + e1000e + [
		'-drive', f'if=none,id=data,format=raw,file={img["data"]}',
		'-device', 'virtio-blk-pci,drive=data,serial=replug-data',
		'-drive', f'if=none,id=swap,format=raw,file={img["swap"]}',
		'-device', 'virtio-blk-pci,drive=swap,serial=replug-swap',
		'-drive', f'if=none,id=sata,format=raw,file={img["sata"]}',
		'-device', 'ide-hd,drive=sata,bus=ide.0,serial=replug-sata',
		'-device', 'qemu-xhci,id=xhci',
		'-device', 'usb-kbd,bus=xhci.0',
		'-drive', f'if=none,id=usbdisk,format=raw,file={img["usb"]}',
		'-drive', f'if=none,id=usbdisk2,format=raw,file={img["usb2"]}',
		'-device', usb_disk,
		'-device', 'virtio-rng-pci',
	]


def hw_change_devices(disk_dir: Path, changed: bool = False) -> list[str]:
	"""What the hw-change tests add to the default devices: a PCI bridge
	with empty slots for the NIC plugged in while the guest sleeps, and a
	virtio disk whose medium changes meanwhile.  @changed: with that NIC.
	"""
	nic = [
		'-netdev', f'hubport,id={NEW_NIC["netdev"]},hubid=0',
		'-device', json.dumps(NEW_NIC),
	] if changed else []
	return [
		'-device', 'pci-bridge,id=br1,chassis_nr=3,shpc=off',
		'-drive', f'if=none,id=vdisk,format=raw,file={disk_dir / "vdisk.img"}',
		'-device', 'virtio-blk-pci,drive=vdisk,serial=replug-vdisk',
	] + nic


def change_vdisk_medium(disk_dir: Path) -> int:
	"""Put the other filesystem on the hw-change tests' virtio disk; its
	new size."""
	shutil.copyfile(disk_dir / 'vdisk2.img', disk_dir / 'vdisk.img')
	return (disk_dir / 'vdisk.img').stat().st_size


def make_disks(disk_dir: Path) -> None:
	disk_dir.mkdir(parents=True, exist_ok=True)
	for disk in DISKS:
		path = disk_dir / f'{disk.name}.img'
		path.unlink(missing_ok=True)
		with open(path, 'wb') as f:
			f.truncate(disk.size_mib << 20)
		if disk.ext4_label:
			subprocess.run(['mkfs.ext4', '-q', '-F', '-L', disk.ext4_label,
					str(path)], check=True)


class Qmp(threading.Thread):
	"""Listens to QMP events and wakes the guest when it suspends."""

	def __init__(self, path: Path, log: Path):
		super().__init__(daemon=True)
		self.path = path
		self.log = open(log, 'a')
		self.sock = None
		self.suspends = 0
		# Cleared while the guest has its RTC alarm wake it from S3.
		self.wakes_s3 = True
		# What changes the hardware at the next S3, before the wake.
		self.while_asleep: list = []
		# The replies of human-monitor-command, in order.
		self.monitor_replies: queue.Queue[str] = queue.Queue()
		# Wakes the guest when its RTC alarm did not; how often it had to.
		self.rtc_fallback: threading.Timer | None = None
		self.rtc_missed = 0

	def connect(self, deadline: float) -> None:
		while time.monotonic() < deadline:
			try:
				s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
				s.connect(str(self.path))
				self.sock = s
				self.reader = s.makefile('r')
				self.reader.readline()
				self.command('qmp_capabilities')
				return
			except (FileNotFoundError, ConnectionRefusedError):
				time.sleep(0.1)
		raise TimeoutError(f'QMP socket {self.path} never came up')

	def command(self, name: str, **args) -> None:
		msg = {'execute': name}
		if args:
			msg['arguments'] = args
		self.log.write(f'-> {json.dumps(msg)}\n')
		self.log.flush()
		self.sock.sendall(json.dumps(msg).encode() + b'\n')

	def monitor(self, command: str, timeout: float = 5) -> str:
		"""What the QEMU monitor answers @command, '' if it does not."""
		try:
			self.command('human-monitor-command', **{'command-line': command})
			return self.monitor_replies.get(timeout=timeout)
		except (OSError, queue.Empty):
			return ''

	def sysrq(self, key: str) -> None:
		"""Press Alt-SysRq-@key on the guest's PS/2 keyboard: the kernel
		answers on its console whatever its user space is doing."""
		self.command('send-key', keys=[{'type': 'qcode', 'data': k}
					       for k in ('alt', 'sysrq', key)])

	def throttle_swap_writes(self, bytes_per_s: int) -> None:
		"""Limit the swap disk's writes to @bytes_per_s, 0 for none."""
		self.command('block_set_io_throttle', device='swap', bps=0, bps_rd=0,
			     bps_wr=bytes_per_s, iops=0, iops_rd=0, iops_wr=0)

	def press_power_button_until(self, asleep: threading.Event,
				     awake: threading.Event,
				     interval: float = 3) -> None:
		"""Wake a guest from suspend-to-idle with the ACPI power button.

		QEMU raises the ACPI RTC wake event only from S3, so the RTC alarm
		cannot end an s2idle under QEMU; the power button's fixed event
		can.  A press before the guest is in its s2idle loop would abort
		the suspend, and one before the suspend has begun is lost, so the
		first press waits for the kernel's "PM: suspend-to-idle"
		(pm_debug_messages, no_console_suspend), however long a loaded host
		takes to get there.  Presses go on until the guest says it is
		awake: a guest left in s2idle is a boot that hangs until its
		timeout, a stray press after the wake only an unused input event.
		"""
		asleep.wait(S2IDLE_ENTRY_MAX_S)
		try:
			while not awake.wait(interval / 6):
				self.command('system_powerdown')
				if awake.wait(interval):
					return
		except OSError:
			# QEMU has gone, and with it the guest to wake.
			return

	def run(self) -> None:
		try:
			self.read_events()
		except OSError:
			# QEMU closed the socket as the guest powered off.
			pass

	def read_events(self) -> None:
		for line in self.reader:
			self.log.write(f'<- {line}')
			self.log.flush()
			try:
				msg = json.loads(line)
			except json.JSONDecodeError:
				continue
			if isinstance(msg.get('return'), str) and msg['return']:
				self.monitor_replies.put(msg['return'])
			if msg.get('event') == 'WAKEUP' and self.rtc_fallback:
				self.rtc_fallback.cancel()
				self.rtc_fallback = None
			if msg.get('event') == 'SUSPEND' and not self.wakes_s3:
				self.rtc_fallback = threading.Timer(RTC_WAKE_MAX_S,
								    self._rtc_missed)
				self.rtc_fallback.start()
			if msg.get('event') == 'SUSPEND' and self.wakes_s3:
				self.suspends += 1
				# Give the guest time to finish entering S3.
				time.sleep(2)
				for change in self.while_asleep:
					change()
				self.while_asleep = []
				self.command('system_wakeup')


	def _rtc_missed(self) -> None:
		self.rtc_missed += 1
		self.rtc_fallback = None
		try:
			self.command('system_wakeup')
		except OSError:
			pass


def hardware_changes(qmp: Qmp, disk_dir: Path) -> list:
	"""What the host changes while the guest is in S3.

	The USB disk is unplugged and another one, with another serial and
	filesystem, plugged into the same controller.  The e1000e is unplugged
	from its PCIe slot and an e1000, with another MAC address, plugged
	into a slot of the PCI bridge: QEMU's ACPI PCI hotplug completes a
	pending unplug when the machine is reset, which waking from S3 does,
	so the guest never sees the old NIC again.  (Not into an empty PCIe
	root port: the kernel's resume of the port, which stays, writes back
	the Slot Control it saved, power off, and no hotplug driver of this
	guest turns it on again.)  The virtio disk's medium changes under the
	same device: another filesystem, twice as large, as a hypervisor or
	a storage array may do to a sleeping machine.
	"""
	return [
		lambda: qmp.command('device_del', id='usbstore'),
		lambda: qmp.command('device_add', **NEW_USB_DISK),
		lambda: qmp.command('device_del', id='nic12'),
		lambda: qmp.command('netdev_add', type='hubport',
				    id=NEW_NIC['netdev'], hubid=0),
		lambda: qmp.command('device_add', **NEW_NIC),
		lambda: qmp.command('block_resize', device='vdisk',
				    size=change_vdisk_medium(disk_dir)),
	]


def qemu_failure(returncode: int, console: list[str]) -> str:
	"""Why QEMU itself failed, in its own words, or '' when it exited
	cleanly: the guest resets, powers off or is quit when it is done, and
	a hung or crashed guest is killed with its failure already known.
	An assertion of QEMU 7.2's MSI-X emulation ended one boot so."""
	if not returncode:
		return ''
	said = [l.strip() for l in console if l.startswith('qemu-system')]
	return f'{QEMU_FAILED} {returncode}' + (f': {said[-1]}' if said else '')


QEMU_FAILED = 'QEMU exited with status'


@dataclass
class Boot:
	"""One guest boot: what to run and where its logs go."""
	name: str
	kernel: Path
	initrd: Path
	out_dir: Path
	tests: list[str]
	timeout: int = 600
	append: str = ''
	echo_console: bool = False
	console: list[str] = field(default_factory=list)
	failure: str = ''
	qmp: Qmp | None = None
	awake: threading.Event = field(default_factory=threading.Event)
	asleep: threading.Event = field(default_factory=threading.Event)
	# Set while the guest runs s2idle cycles it cannot announce one by
	# one (pmtest cycle --count N): every s2idle gets the power button.
	wakes_every_s2idle: bool = False
	# Where the guest's third serial port goes, in out_dir.
	port3: str = SLEEPGRAPH_TRACE
	# For a boot that hibernates: the kernel arguments of a second QEMU
	# run on the same disks, whose kernel restores the image, so that the
	# first kernel's tests and report go on where they stopped.
	resume_append: str = ''
	# Lifts the swap disk's stall when the watchdog stays silent.
	swap_stall: threading.Timer | None = None
	# What QEMU said of each vCPU when the boot timed out.
	cpus: list[str] = field(default_factory=list)
	# Seconds of console silence that end the boot as hung, 0 for none.
	quiet_s: int = QUIET_S
	# When the console last said something (time.monotonic()).
	last_output: float = 0.0

	def hw_change(self) -> bool:
		"""Whether the boot runs a test that changes the hardware."""
		return any(t.startswith('replug-hw-change') for t in self.tests)

	def qemu_cmd(self, resume: bool = False) -> list[str]:
		append = ' '.join(filter(None, [
			'console=ttyS0 panic=-1 loglevel=8',
			# The console shows when the guest is in s2idle.
			'no_console_suspend pm_debug_messages',
			# No test looks at a suspend held at its pm_test level:
			# the 5 s pause would only add up, boot after boot.
			'suspend.pm_test_delay=0',
			self.resume_append if resume else
			f'replug.tests={",".join(self.tests)}' if self.tests else '',
			self.append]))
		# The serial files are appended to, so that a resumed kernel's
		# report continues the one it started before hibernating.
		channels = []
		for name, path in [('ktap', 'ktap.log'), ('port3', self.port3)]:
			channels += ['-chardev',
				     f'file,id={name},path={self.out_dir / path},append=on',
				     '-serial', f'chardev:{name}']
		return [
			'qemu-system-x86_64', '-accel', 'tcg', '-M', 'q35',
			'-global', 'ICH9-LPC.disable_s3=0', '-smp', '2', '-m', '1G',
			'-kernel', str(self.kernel), '-initrd', str(self.initrd),
			'-append', append, '-display', 'none', '-no-reboot',
			'-serial', 'stdio',
		] + channels + [
			'-qmp', f'unix:{self.out_dir / "qmp.sock"},server=on,wait=off',
		] + qemu_devices(self.out_dir, changed=resume and self.hw_change()) + (
			hw_change_devices(self.out_dir, changed=resume)
			if self.hw_change() else [])

	def run(self) -> None:
		if self.out_dir.exists():
			shutil.rmtree(self.out_dir)
		make_disks(self.out_dir)
		deadline = time.monotonic() + self.timeout
		self._run_qemu(self.qemu_cmd(), 'qemu.cmd', deadline)
		if self.qmp and self.qmp.rtc_missed and not self.failure:
			self.failure = (f'the RTC alarm did not wake S3 within {RTC_WAKE_MAX_S} s '
					f'({self.qmp.rtc_missed} times): the host woke the guest')
		if self.resume_append and not self.failure:
			# The machine is off: what the guest finds when the image
			# is restored need not be what it had.
			if self.hw_change():
				change_vdisk_medium(self.out_dir)
			self._run_qemu(self.qemu_cmd(resume=True), 'qemu-resume.cmd',
				       deadline)
		if not self.failure and not any(DONE_MARK in l for l in self.console):
			self.failure = 'guest stopped before finishing'

	def _run_qemu(self, cmd: list[str], cmd_file: str, deadline: float) -> None:
		(self.out_dir / cmd_file).write_text(' '.join(cmd) + '\n')
		(self.out_dir / 'qmp.sock').unlink(missing_ok=True)
		proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
					stdout=subprocess.PIPE,
					stderr=subprocess.STDOUT, text=True,
					errors='replace')
		qmp = Qmp(self.out_dir / 'qmp.sock', self.out_dir / 'qmp.log')
		try:
			qmp.connect(deadline)
			qmp.start()
			self.qmp = qmp
		except (TimeoutError, OSError) as e:
			self.failure = f'QMP: {e}'
		timer = threading.Timer(max(deadline - time.monotonic(), 1),
					self._timed_out, [proc])
		timer.start()
		self.last_output = time.monotonic()
		if self.quiet_s:
			threading.Thread(target=self._watch_quiet, args=(proc,),
					 daemon=True).start()
		self._read_console(proc)
		proc.wait()
		timer.cancel()
		if not self.failure:
			self.failure = qemu_failure(proc.returncode, self.console)

	def _host_request(self, line: str) -> None:
		"""Act on a request the guest printed on its console."""
		if S2IDLE_LOOP_MARK in line:
			self.asleep.set()
			if self.wakes_every_s2idle and self.qmp:
				self._wake_from_s2idle()
		if S2IDLE_RESUME_MARK in line and self.wakes_every_s2idle:
			self.awake.set()
		if HALTED_MARK in line and self.qmp:
			self.qmp.command('quit')
		if SWAP_STALL_NAMED_RE.search(line):
			self._end_swap_stall()
		m = HOST_REQUEST_RE.search(line)
		if not m or not self.qmp:
			return
		request = m.group(1)
		if request == 'wake-from-s2idle':
			self.asleep.clear()
			self._wake_from_s2idle()
		elif request == 'awake':
			self.awake.set()
		elif request in ('wake-every-s2idle', 's2idle-on-request'):
			self.wakes_every_s2idle = request == 'wake-every-s2idle'
		elif request in ('rtc-wakes-s3', 'host-wakes-s3'):
			self.qmp.wakes_s3 = request == 'host-wakes-s3'
		elif request == 'stall-swap-writes':
			# A trickle, not a stop: QEMU keeps throttled requests
			# queued and lets them go when the limit is lifted.
			self.qmp.throttle_swap_writes(4096)
			self.swap_stall = threading.Timer(SWAP_STALL_MAX_S,
							  self._end_swap_stall)
			self.swap_stall.start()
		elif request == 'change-hardware-in-s3':
			self.qmp.while_asleep = hardware_changes(self.qmp, self.out_dir)

	def _end_swap_stall(self) -> None:
		if self.swap_stall and self.qmp:
			self.swap_stall.cancel()
			self.swap_stall = None
			self.qmp.throttle_swap_writes(0)

	def _wake_from_s2idle(self) -> None:
		self.awake.clear()
		threading.Thread(target=self.qmp.press_power_button_until,
				 args=(self.asleep, self.awake), daemon=True).start()

	def _watch_quiet(self, proc: subprocess.Popen) -> None:
		"""End the boot once its console has been quiet for quiet_s: a
		hung guest costs minutes, not its whole timeout.  Before, the
		kernel is asked for its blocked tasks, which the failure names."""
		while proc.poll() is None:
			quiet = time.monotonic() - self.last_output
			if quiet < self.quiet_s:
				time.sleep(min(self.quiet_s - quiet, 5) + 0.1)
				continue
			if self.failure:
				return
			last = next((l.strip() for l in reversed(self.console)
				     if l.strip()), '(nothing)')
			self.failure = (f'console quiet for {quiet:.0f} s (the limit) '
					f'after: {last}')
			self._note_cpus()
			if self.qmp:
				self._dump_blocked_tasks()
			proc.kill()
			return

	def _dump_blocked_tasks(self) -> None:
		"""SysRq-w, then wait for the dump: until it has begun and the
		console is quiet again for a moment, at most SYSRQ_DUMP_S."""
		seen = len(self.console)
		self.qmp.sysrq('w')
		sent = time.monotonic()
		while time.monotonic() - sent < SYSRQ_DUMP_S:
			time.sleep(0.5)
			begun = any(SYSRQ_BLOCKED_MARK in l for l in self.console[seen:])
			if begun and time.monotonic() - self.last_output > 2:
				return

	def _note_cpus(self) -> None:
		if self.qmp:
			# Idle (halted) vCPUs with nothing to run, or one spinning:
			# the first thing to know of a hang.
			self.cpus = [l.strip() for l in self.qmp.monitor('info cpus').splitlines()
				     if l.strip()]

	def _timed_out(self, proc: subprocess.Popen) -> None:
		if not self.failure:
			self.failure = f'guest did not finish within {self.timeout} s'
			self._note_cpus()
		proc.kill()

	def _read_console(self, proc: subprocess.Popen) -> None:
		with open(self.out_dir / 'console.log', 'a') as log:
			for line in proc.stdout:
				log.write(line)
				log.flush()
				self.last_output = time.monotonic()
				self.console.append(line.rstrip('\n'))
				if self.echo_console:
					sys.stdout.write(line)
					sys.stdout.flush()
				self._host_request(line)
				if CHECKER_OFF_RE.search(line):
					print(f'# {self.name}: the debug-objects tracker ran out '
					      'of memory and checks nothing after: '
					      f'{line.strip()}')
				if PANIC_RE.search(line) and not self.failure:
					self.failure = f'kernel reported: {line.strip()}'
					# Let the rest of the report reach the log.
					threading.Timer(3, proc.kill).start()

	def ktap_lines(self) -> list[str]:
		path = self.out_dir / 'ktap.log'
		return path.read_text(errors='replace').splitlines() if path.exists() else []


@dataclass
class Failure:
	"""A failed check as the closing summary names it: what failed, then
	why and where to look, most telling line first."""
	name: str
	details: list[str] = field(default_factory=list)


# The closing summary's size: the last screen of a CI log is all CI keeps.
SUMMARY_LINES = 40
SUMMARY_LINE_WIDTH = 160


@dataclass
class Tally:
	passed: int = 0
	failed: int = 0
	skipped: int = 0
	failures: list[Failure] = field(default_factory=list)
	notes: list[str] = field(default_factory=list)
	# The KUnit suites already counted, by kernel: every boot runs them
	# again, and a pass counts once per kernel, a failure every time.
	suites_counted: set[tuple[str, str]] = field(default_factory=set)

	def repeated_passes(self, boot: 'Boot', test) -> int:
		"""The passes of @test's KUnit suites (its top-level tests that are
		not the boot's guest tests) that an earlier boot of the same
		kernel counted already."""
		repeated = 0
		for suite in test.subtests:
			if suite.name in boot.tests:
				continue
			key = (str(boot.kernel), suite.name)
			if key in self.suites_counted:
				repeated += suite.counts.passed
			self.suites_counted.add(key)
		return repeated

	def note(self, line: str) -> None:
		"""Something the run did that a reader of its end must know."""
		print(f'# note: {line}', flush=True)
		self.notes.append(line)

	def fail(self, name: str, details: list[str] | None = None, count: int = 1) -> None:
		"""@count failed checks, named once in the closing summary."""
		self.failed += count
		self.failures.append(Failure(name, details or []))

	def record(self, name: str, why: str = '') -> None:
		"""One host-side check: ok, or not ok with why."""
		print(f'{"not ok" if why else "ok"} - {name}' + (f' # {why}' if why else ''))
		if why:
			self.fail(name, [why])
		else:
			self.passed += 1

	def summary(self) -> list[str]:
		"""Every failure again, at most SUMMARY_LINES lines: each one's name,
		then as many of its details as the lines left allow, the first
		ones of every failure before the later ones of any."""
		notes = [f'# note: {n}' for n in self.notes]
		if not self.failures:
			return self.shorten(notes)
		head = f'# {len(self.failures)} failed ' + \
			('check' if len(self.failures) == 1 else 'checks') + ':'
		budget = SUMMARY_LINES - 1 - len(self.failures) - len(notes)
		shown = [0] * len(self.failures)
		for depth in range(max(len(f.details) for f in self.failures)):
			for i, f in enumerate(self.failures):
				if budget > 0 and depth < len(f.details):
					shown[i] += 1
					budget -= 1
		lines = [head]
		for f, n in zip(self.failures, shown):
			lines.append(f'# - {f.name}')
			lines += [f'#     {d}' for d in f.details[:n]]
		lines = notes + lines
		if len(lines) > SUMMARY_LINES:
			lines = lines[:SUMMARY_LINES - 1] + \
				[f'# ... {len(self.failures)} failures in all, each above as "not ok"']
		return self.shorten(lines)

	@staticmethod
	def shorten(lines: list[str]) -> list[str]:
		return [l if len(l) <= SUMMARY_LINE_WIDTH else l[:SUMMARY_LINE_WIDTH - 3] + '...'
			for l in lines]

	def line(self) -> str:
		tail = f', {self.skipped} skipped' if self.skipped else ''
		return f'{self.passed} passed, {self.failed} failed{tail}'


def load_kunit_parser(kernel_src: Path):
	sys.path.insert(0, str(kernel_src / 'tools' / 'testing' / 'kunit'))
	import kunit_parser
	return kunit_parser


def count_ktap(parser, lines: list[str]):
	"""Parse one KTAP document with the kernel's parser; return its Test."""
	return parser.parse_run_tests(lines)


def ktap_documents(lines: list[str]) -> list[list[str]]:
	"""Split the KTAP channel into one document per kernel that wrote to it
	(a kexec'd kernel writes its own after the first)."""
	docs: list[list[str]] = []
	for line in lines:
		if line.strip() == 'KTAP version 1' and not line.startswith(' '):
			docs.append([])
		if docs:
			docs[-1].append(line)
	return docs


# What the kernel prints first when CPUs or tasks stop making progress;
# a hang's console tail shows only the last of its repeated reports.
STALL_RE = re.compile(r'rcu: INFO: |watchdog: BUG: soft lockup|' + HUNG_TASK_PATTERN)
# A KTAP result line, unindented: "not ok" or "ok", its number, its name.
KTAP_RESULT_RE = re.compile(r'(not )?ok \d+ (.*)')


def failure_context(ktap: list[str], console: list[str]) -> list[str]:
	"""Where a failed boot's tests had got to, the first stall report,
	and the tasks the kernel found blocked."""
	results = [l.strip() for l in ktap if KTAP_RESULT_RE.match(l.strip())]
	context = [f'last result: {results[-1] if results else "none"}']
	stalls = [l.strip() for l in console if STALL_RE.search(l)]
	if stalls:
		context.append(f'first stall report ({len(stalls)} in all): {stalls[0]}')
	return context + blocked_tasks(console)


def blocked_tasks(console: list[str], most: int = 3) -> list[str]:
	"""The tasks of the last SysRq-w dump, each with the first frames of
	its stack that are not the scheduler's: 'blocked: rmmod in
	pm_replug_unregister_bus < rt_exit < ...'."""
	marks = [i for i, l in enumerate(console) if SYSRQ_BLOCKED_MARK in l]
	if not marks:
		return []
	# Per task: its reliable frames, and the frames the unwinder marks
	# '?' (every frame, with tinyconfig's guessing unwinder).
	tasks: list[tuple[str, list[str], list[str]]] = []
	for line in console[marks[-1] + 1:]:
		m = BLOCKED_TASK_RE.search(line)
		if m:
			tasks.append((m.group(1), [], []))
			continue
		frame = STACK_FRAME_RE.match(line)
		if tasks and frame and not SCHED_FRAME_RE.match(frame.group(2)):
			tasks[-1][2 if frame.group(1) else 1].append(frame.group(2))
	if not tasks:
		return ['blocked: no task in D state (SysRq-w)']
	return [f'blocked: {name} in {" < ".join((sure or guessed)[:5]) or "?"}'
		for name, sure, guessed in tasks[:most]] + \
		([f'blocked: and {len(tasks) - most} more'] if len(tasks) > most else [])


# The guest's init names each test on the console as it starts it.
RUNNING_RE = re.compile(r'replug guest: running (\S+)')


def unfinished_tests(tests: list[str], ktap: list[str], console: list[str]) -> list[str]:
	"""The test a boot that ended early was running, and those after it
	that never ran, as lines for its failure report."""
	done = {m.group(2) for m in map(KTAP_RESULT_RE.match, ktap) if m}
	started = [m.group(1) for m in map(RUNNING_RE.search, console) if m]
	lines = []
	if started and started[-1] not in done:
		lines.append(f'running when it ended: {started[-1]}')
	never = [t for t in tests if t not in done and t not in started]
	if never:
		lines.append(f'never ran: {", ".join(never)}')
	return lines


def failed_cases(parser, test, path: tuple[str, ...] | None = None):
	"""(suite path, case, its diagnostic lines) of every failed or crashed
	case of a parsed KTAP document @test (whose own name the parser
	makes up), leaves only.  The nameless cases the parser adds for the
	results a plan promised and never got are left to the caller."""
	here = () if path is None else path + (test.name,)
	if test.subtests:
		for sub in test.subtests:
			yield from failed_cases(parser, sub, here)
	elif test.name and test.status in (parser.TestStatus.FAILURE,
					   parser.TestStatus.TEST_CRASHED):
		diag = [l.strip().lstrip('#').strip() for l in test.log
			if l.strip().startswith('#') and not l.strip().startswith('# Subtest')]
		yield here[:-1], test.name, diag


# The console lines a failed boot's summary shows around its first report.
CONSOLE_EXCERPT = 4


def console_excerpt(console: list[str]) -> list[str]:
	"""The lines around the first kernel report, or the last lines (before
	the host asked for the blocked tasks, whose dump the report names)."""
	hits = [i for i, l in enumerate(console) if PANIC_RE.search(l) or STALL_RE.search(l)]
	dumps = [i for i, l in enumerate(console) if SYSRQ_BLOCKED_MARK in l]
	if hits:
		return [l.strip() for l in console[hits[0]:hits[0] + CONSOLE_EXCERPT]]
	end = dumps[-1] if dumps else len(console)
	return [l.strip() for l in console[max(end - CONSOLE_EXCERPT, 0):end]]


def tally_boot(parser, boot: Boot, tally: Tally, documents: int = 1) -> None:
	ktap = boot.ktap_lines()
	docs = ktap_documents(ktap)
	log = boot.out_dir / 'ktap.log'
	for doc in docs or [[]]:
		test = count_ktap(parser, doc)
		counts = test.counts
		failed = counts.failed + counts.crashed + counts.errors
		tally.passed += counts.passed - tally.repeated_passes(boot, test)
		tally.skipped += counts.skipped
		named = 0
		for suites, case, diag in failed_cases(parser, test):
			tally.fail(f'{boot.name}: {": ".join(suites + (case,))}',
				   diag[-3:] + [f'log: {log}'])
			named += 1
		if failed > named:
			# KTAP the parser could not read, or results a plan
			# promised that never came (a boot that ended early).
			what = (f'{failed - named} results missing or unreadable in its '
				'KTAP report' if doc else 'no KTAP report')
			tally.fail(f'{boot.name}: {what}', [f'log: {log}'], count=failed - named)
		if counts.passed + failed + counts.skipped == 0 and not boot.failure:
			boot.failure = 'guest reported no results'
	if docs and len(docs) != documents and not boot.failure:
		boot.failure = (f'{len(docs)} kernels reported results, '
				f'{documents} expected')
	if boot.failure:
		context = failure_context(ktap, boot.console) + \
			unfinished_tests(boot.tests, ktap, boot.console) + \
			[f'vCPU when it was ended: {c}' for c in boot.cpus]
		console = boot.out_dir / 'console.log'
		tally.fail(f'boot {boot.name}: {boot.failure}',
			   context + [f'console: {l}' for l in console_excerpt(boot.console)] +
			   [f'log: {console}'])
		print(f'not ok - boot {boot.name}: {boot.failure}')
		for line in context:
			print(f'# {line}')
		print(f'# last console lines ({console}):')
		for line in boot.console[-40:]:
			print(f'#   {line}')


@dataclass
class AfterDone:
	"""What the console must show once the guest's tests are done.

	The guest cannot watch itself go down, so what its last moments print
	(device_shutdown() with initcall_debug) is checked here: @pattern must
	match a line, or none when @present is false; with @before, every
	match of @pattern must come before the first match of @before.
	"""
	desc: str
	pattern: str
	present: bool = True
	before: str = ''
	# Look at the whole console, not only what follows the tests.
	whole: bool = False
	# With @before: only the first match of @pattern must come before it.
	first: bool = False


def after_done_failure(console: list[str], check: AfterDone) -> str:
	"""Why @check does not hold on @console, or '' when it does."""
	done = [i for i, line in enumerate(console) if DONE_MARK in line]
	if not done:
		return 'the guest never finished its tests'
	# Up to the end, or to the next kernel's report after a kexec.
	tail = console if check.whole else \
		console[done[0] + 1:done[1] if len(done) > 1 else None]
	hits = [i for i, line in enumerate(tail) if re.search(check.pattern, line)]
	if not check.present:
		return f'seen: {tail[hits[0]].strip()}' if hits else ''
	if not hits:
		return f'no line matches {check.pattern!r}'
	if check.before:
		later = [i for i, line in enumerate(tail)
			 if re.search(check.before, line)]
		if not later:
			return f'no line matches {check.before!r}'
		hit = hits[0] if check.first else hits[-1]
		if hit > later[0]:
			return (f'{tail[hit].strip()!r} comes after '
				f'{tail[later[0]].strip()!r}')
	return ''


def timeline_failure(out_dir: Path, kernel_src: Path, expect: list[str]) -> str:
	"""Why pm-graph's sleepgraph could not draw the guest's trace with a
	match for every pattern of @expect in its timeline, or '' when it could."""
	trace = out_dir / SLEEPGRAPH_TRACE
	html = out_dir / SLEEPGRAPH_TRACE.replace('_ftrace.txt', '.html')
	if not trace.exists() or not trace.stat().st_size:
		return 'the guest sent no trace'
	if html.exists():
		html.unlink()
	out = subprocess.run([sys.executable, 'sleepgraph.py', '-ftrace',
			      str(trace.resolve())],
			     cwd=kernel_src / 'tools' / 'power' / 'pm-graph',
			     capture_output=True, text=True)
	(out_dir / 'sleepgraph.log').write_text(out.stdout + out.stderr)
	if out.returncode or not html.exists():
		return f'sleepgraph failed (exit {out.returncode}), see sleepgraph.log'
	text = html.read_text(errors='replace')
	missing = [p for p in expect if not re.search(p, text)]
	return f'not in the timeline: {", ".join(missing)}' if missing else ''


@dataclass
class CheckBoot:
	"""One boot of "make check": guest tests in guest/tests/, kernel
	arguments, whether the harness must report it as broken, and what its
	console must show after the tests (see AfterDone)."""
	name: str
	tests: list[str]
	append: str = ''
	must_fail: bool = False
	after_done: list[AfterDone] = field(default_factory=list)
	# How many kernels report: two when the first kexecs into the second.
	documents: int = 1
	# Kernel arguments of a second QEMU run that restores a hibernation.
	resume_append: str = ''
	# Patterns sleepgraph's timeline of the guest's trace must match.
	timeline: list[str] = field(default_factory=list)
	# Instead of a trace, the guest sends pmtest report's SVG timeline on
	# its third serial port: it must be an SVG with this many bars or more.
	svg_bars: int = 0
	# Seconds this boot may take, when more than --timeout.
	timeout: int = 0
	# Boots the debug kernel (--debug-kernel, --debug-initrd).
	debug: bool = False
	# The host runs fsck on the data disk once the guest is done.
	fsck: bool = False
	# The tier it belongs to: 'check' boots run in make check and make
	# check-full, 'full' ones (the debug kernel's) in make check-full only.
	tier: str = 'check'
	# Where the guest's third serial port goes, when not the trace.
	port3: str = ''
	# Seconds of console silence that end it as hung, when not the
	# kernel's default (QUIET_S, QUIET_S_DEBUG).
	quiet: int = 0
	# With must_fail: (what, pattern) the harness's report of the broken
	# boot (its failure and the context it gives) must show.
	broken_shows: list[tuple[str, str]] = field(default_factory=list)


TIERS = ('check', 'full')


def tier_boots(tier: str) -> list['CheckBoot']:
	"""The boots a tier runs: make check's, or every boot for check-full."""
	return [b for b in CHECK_BOOTS if tier == 'full' or b.tier == tier]


def shutdown_checks(transition: str) -> list[AfterDone]:
	"""device_shutdown() names the intent of every device it shuts down."""
	told = rf': shutdown(_pre)? for {transition}$'
	return [
		AfterDone(f'devices are shut down for {transition}', told),
		AfterDone(f'no device is told anything but {transition}',
			  rf': shutdown(_pre)? for (?!{transition}$)', present=False),
		AfterDone('the SATA disk is shut down before its AHCI controller',
			  rf'^(\[[ 0-9.]+\] )?sd \S+: shutdown for {transition}$',
			  before=rf'ahci 0000:00:1f\.2: shutdown for {transition}$'),
		AfterDone('e1000 gets the intent at shutdown',
			  rf'e1000 \S+: shutdown for {transition}$'),
		AfterDone('disks flush their write cache', 'Synchronizing SCSI cache'),
	]


SAMPLE = r'replug_sample 0000:00:01\.0: '
RESTORED = 'Hibernation image restored'


def hibernation_checks(gone: str, mode: str, power_off: str,
		       shuts_down: bool = True) -> list[AfterDone]:
	"""The first QEMU run of a hibernation in @mode ends as @gone says, and
	the second one's boot kernel hands over in replug mode.

	The VGA function the guest keeps in place finds the thaw phase while
	the image is written, then the power-off phase in its last callback:
	@power_off is that callback and what the intent says.  When the end
	goes through device_shutdown() (@shuts_down), replug does not walk the
	devices a second time: those that could go went at the freeze.
	"""
	checks = [
		AfterDone('the image was written before it was restored',
			  r'PM: hibernation: Wrote \d+ kbytes', whole=True,
			  before=RESTORED),
		AfterDone('then the first kernel went down',
			  gone, whole=True, first=True, before=RESTORED),
		AfterDone('the boot kernel handed over in replug mode',
			  r'PM: replug: cycle \d+: unplugging for restore-handoff$',
			  whole=True),
		AfterDone('the kept function thawed to write the image',
			  SAMPLE + r'thaw: transition=hibernate state=on phase=thaw '
			  rf'test=none .* mode={mode}$', whole=True, before=RESTORED),
		AfterDone(f'then its ->{power_off.split(":")[0]}() found the power-off phase',
			  SAMPLE + power_off + rf' cycle=\d+ mode={mode}$',
			  whole=True, before=RESTORED),
	]
	if shuts_down:
		checks.append(AfterDone(
			'the power-off walks no device a second time',
			r'PM: replug: cycle \d+: hibernate with the devices of the cycle still away$',
			whole=True, before=RESTORED))
	return checks


def power_off_phase(callback: str, lost: int, armed: int) -> str:
	"""A kept device's @callback finding a hibernation's power-off phase."""
	return (f'{callback}: transition=hibernate state=on phase=poweroff test=none '
		f'power_lost={lost} firmware_reinit=1 kernel_resumes=1 wakeup_armed={armed}')


# test_resume reads its own image back: the kept function is thawed to
# write it, quiesced for the handoff, then restored in the image.
TEST_RESUME_CHECKS = [
	AfterDone('test_resume: the kept function thawed, then was handed over',
		  SAMPLE + r'thaw: transition=hibernate state=on phase=thaw test=none .* mode=test_resume$',
		  whole=True,
		  before=SAMPLE + r'freeze: transition=restore-handoff '),
	AfterDone('test_resume: the handoff, with its intent, came before the restore',
		  SAMPLE + r'freeze: transition=restore-handoff state=on phase=none test=none '
		  r'power_lost=0 firmware_reinit=0 kernel_resumes=0 wakeup_armed=0 cycle=0 mode=none$',
		  whole=True,
		  before=SAMPLE + r'restore: transition=hibernate .* mode=test_resume$'),
]


# replug-hibernate stalls the swap disk while the image is written: the
# watchdog names the disk, with the writer's stack, and the hibernation
# goes on once the write returns.  The console has it; the restored
# kernel's log, the image's, does not.
SWAP_STALL_CHECKS = [
	AfterDone('the watchdog names the swap disk that stalls the image write',
		  r'block vd[a-z]+: replug: swsusp_write\(\) has not returned after 3000 ms$',
		  whole=True),
	AfterDone('with the stack of the writer',
		  r'(swsusp_write|save_compressed_image|hib_wait_io)\+', whole=True),
	AfterDone('and the hibernation goes on once the write returns',
		  r'block vd[a-z]+: replug: swsusp_write\(\) returned, the transition goes on$',
		  whole=True),
]


# make soak: cycles of each kind, and the test-bus tree cycled with the
# default devices (guest/tests/replug-soak-lib.sh); make check's short one.
SOAK_DEFAULT = 'devices:1000,s2idle:100,s3:100,hibernate:20,kexec:20,tree:1000'
SOAK_CHECK = 'devices:5,s2idle:1,s3:1,hibernate:1,kexec:1,tree:100'
# Under TCG a debug kernel's cycle over a 100-device tree takes about a
# minute, most of it waiting for udev; a kexec about as long.
SOAK_SECONDS_PER_CYCLE = 120


def soak_counts(spec: str) -> dict[str, int]:
	"""KIND:N,... as a dict; ValueError for anything else."""
	kinds = ('devices', 's2idle', 's3', 'hibernate', 'kexec', 'tree')
	counts = dict.fromkeys(kinds, 0)
	for item in spec.split(','):
		kind, _, n = item.partition(':')
		if kind not in kinds or not n.isdigit():
			raise ValueError(f'{item!r}: want KIND:N, KIND one of {", ".join(kinds)}')
		counts[kind] = int(n)
	if not 1 <= counts['tree'] <= 10000:
		raise ValueError('tree: 1 to 10000 devices')
	return counts


def soak_boot(name: str, spec: str) -> 'CheckBoot':
	"""The soak as a boot of the debug kernel: one KTAP document from the
	first kernel and one from each kernel a kexec starts; its time grows
	with the cycles and with the tree."""
	counts = soak_counts(spec)
	cycles = sum(n for kind, n in counts.items() if kind != 'tree')
	timeout = 1800 + cycles * SOAK_SECONDS_PER_CYCLE * max(1, counts['tree'] // 100)
	end = ' replug.end=kexec' if counts['kexec'] else ''
	return CheckBoot(name, ['replug-races', 'replug-soak'], f'replug.soak={spec}{end}',
			 documents=counts['kexec'] + 1, timeout=timeout,
			 debug=True, fsck=True, tier='full')


# What "make check" boots.
CHECK_BOOTS = [
	CheckBoot('stock-sleep', ['udev', 's2idle', 's3']),
	CheckBoot('replug-sleep', ['replug-knobs', 'replug-pm-test',
				   'replug-s2idle', 'replug-s3', 'replug-announce',
				   'replug-dry-run',
				   'replug-driver'],
		  # sleepgraph shows a device's callbacks by phase: the removal
		  # of the e1000e before dpm_prepare, the rescan after resume.
		  timeline=[r'0000:01:00\.0 \{e1000e\} \([0-9.]+ ms\) suspend_prepare',
			    r'pci0000:00 \([0-9.]+ ms\) resume_complete']),
	# Hardware changed while asleep, in a boot of its own: a wakeup left
	# armed or pending by another test would end the S3 before the host
	# could change anything.
	CheckBoot('hw-change', ['replug-hw-change']),
	# The same changes while the machine is off between the two boots of
	# a hibernation: the restored kernel finds what is there now.
	CheckBoot('hw-change-hibernate', ['replug-hw-change-hibernate'],
		  resume_append='replug.resume=1'),
	# Both again under the debug kernel, whose KASAN names any use of a
	# device freed with the hardware that went away.
	CheckBoot('hw-change-debug', ['replug-hw-change'], debug=True, tier='full'),
	CheckBoot('hw-change-hibernate-debug', ['replug-hw-change-hibernate'],
		  resume_append='replug.resume=1', debug=True, tier='full'),
	CheckBoot('replug-hibernate', ['replug-hibernate', 'classic-callbacks'],
		  after_done=TEST_RESUME_CHECKS + SWAP_STALL_CHECKS),
	# Uevents, rescans and devices arriving while a dry run's walk is held,
	# as the debug kernel's soak runs them first.  Not in make check: one
	# run in three hung here on 2026-12-07 (every vCPU halted, no kernel
	# report), a hang still to be found, like the debug soak's of stop 25.
	CheckBoot('races', ['replug-races'], tier='full'),
	# A 1,000-device tree of the synthetic test bus: cycled, faults at the
	# first, a middle and the last test device rolled back, hardware
	# changed while asleep.
	# About 400 s on 2026-12-07: its timeout is three times that.
	CheckBoot('replug-testbus', ['replug-testbus', 'replug-fuzz', 'replug-faults'],
		  timeout=1200),
	# tools/pmtest as a driver author runs it: a 1,000-device test-bus
	# tree cycled, faults at the first, a middle and the last device of
	# the walk, hardware changed while asleep, real S3, s2idle and
	# hibernation, the KUnit results collected; the report's SVG of the
	# tree's cycle comes to the host (a bar for each of 500 rows).
	CheckBoot('pmtest', ['udev', 'pmtest'], svg_bars=500, timeout=1200),
	# A real hibernation: the first QEMU powers off once the image is on
	# the swap disk; the second boots from the same disks, hands over to
	# the image with the restore-handoff intent, and the first kernel's
	# test goes on in the restored image.
	CheckBoot('hibernate-shutdown', ['replug-hibernate-shutdown'],
		  resume_append='replug.resume=1',
		  after_done=hibernation_checks('reboot: Power down', 'shutdown',
						 power_off_phase('shutdown', 1, 0))),
	CheckBoot('hibernate-reboot', ['replug-hibernate-reboot'],
		  resume_append='replug.resume=1',
		  after_done=hibernation_checks('reboot: Restarting system', 'reboot',
						 power_off_phase('shutdown', 0, 0))),
	CheckBoot('hibernate-platform', ['replug-hibernate-platform'],
		  resume_append='replug.resume=1',
		  after_done=hibernation_checks(
			  'ACPI: PM: Preparing to enter system sleep state S4', 'platform',
			  power_off_phase('poweroff', 1, 1), shuts_down=False)),
	# The converted drivers act on the intent device_shutdown() passes:
	# sd stops the SATA disk (libata manages its start/stop) for a
	# power-off but not for a reboot, which would only spin it up again.
	CheckBoot('shutdown-poweroff', ['udev'], 'initcall_debug replug.end=poweroff',
		  after_done=shutdown_checks('poweroff') + [
			  AfterDone('the SATA disk is stopped for a power-off',
				    r'sd \S+: \[sd[a-z]+\] Stopping disk')]),
	# libata lets sd stop its disks at power-off only (manage_shutdown),
	# not at a halt, which leaves the power on.
	CheckBoot('shutdown-halt', ['udev'], 'initcall_debug replug.end=halt',
		  after_done=shutdown_checks('halt') + [
			  AfterDone('no disk is stopped for a halt',
				    'Stopping disk', present=False),
			  AfterDone('the machine halts', HALTED_MARK)]),
	CheckBoot('shutdown-reboot', ['udev'], 'initcall_debug',
		  after_done=shutdown_checks('reboot') + [
			  AfterDone('no disk is stopped for a reboot',
				    'Stopping disk', present=False)]),
	# A kexec into the same kernel: the old one shuts every device down
	# with the kexec intent, the new one finds them all working.
	CheckBoot('kexec', ['udev', 'kexec-load'], 'initcall_debug replug.end=kexec',
		  documents=2,
		  after_done=shutdown_checks('kexec') + [
			  AfterDone('no disk is stopped for a kexec',
				    'Stopping disk', present=False),
			  AfterDone('the new kernel starts', 'Linux version')]),
	# The same in replug mode: PCI functions are hot-removed with the kexec
	# intent first, so they are not among the devices shut down.
	CheckBoot('kexec-replug', ['udev', 'kexec-replug'],
		  'initcall_debug replug.end=kexec', documents=2,
		  after_done=[
			  AfterDone('replug unplugs for the kexec',
				    r'PM: replug: cycle \d+: unplugging for kexec$'),
			  AfterDone('PCI functions are removed',
				    r'PM: replug: cycle \d+: [1-9]\d* devices removed$'),
			  AfterDone('the e1000e goes by removal, not shutdown',
				    r'e1000e \S+: shutdown for', present=False),
			  AfterDone('what stays is shut down for kexec',
				    r'rtc_cmos \S+: shutdown for kexec$'),
			  AfterDone('no device is told anything but kexec',
				    r': shutdown(_pre)? for (?!kexec$)', present=False),
			  AfterDone('the removed disks flush their write cache',
				    'Synchronizing SCSI cache'),
			  AfterDone('no disk is stopped for a kexec',
				    'Stopping disk', present=False),
			  AfterDone('the new kernel starts', 'Linux version')]),
	# A guest whose init is missing panics: the harness must say so.
	CheckBoot('harness-catches-panic', [], 'rdinit=/does-not-exist',
		  must_fail=True),
	# A guest hung in the kernel: the harness ends it once its console
	# has been quiet a while and names the blocked task.
	CheckBoot('harness-names-a-hang', ['harness-hang'], must_fail=True,
		  quiet=20, broken_shows=[
			  ('the quiet console ended it', r'^console quiet for \d+ s'),
			  ('SysRq-w named the writer blocked behind the walk',
			   r'^blocked: \S+ in .*dry_run_store')]),
	# The soak, short, under KASAN, lockdep, kmemleak and friends.
	soak_boot('soak', SOAK_CHECK),
]


def tally_after_done(boot: Boot, checks: list[AfterDone], tally: Tally) -> None:
	for check in checks:
		tally.record(f'{boot.name}: {check.desc}',
			     after_done_failure(boot.console, check))


def tally_timeline(boot: Boot, kernel_src: Path, expect: list[str],
		   tally: Tally) -> None:
	tally.record(f'{boot.name}: sleepgraph draws the replug cycle',
		     timeline_failure(boot.out_dir, kernel_src, expect))


PMTEST_SVG = 'pmtest-report.svg'
# make bench: what it runs by default, for how long at most, and where the
# guest's runs arrive.
BENCH_DEFAULT = '10,100,1000:flat,deep,wide:0,1000:3;10000:flat,deep,wide:0,1000:1'
BENCH_TIMEOUT = 3 * 3600
BENCH_RUNS = 'bench.jsonl'
SVG_NS = '{http://www.w3.org/2000/svg}'


def svg_failure(path: Path, bars: int) -> str:
	"""Why @path is not an SVG timeline with at least @bars phase bars, or ''."""
	if not path.exists() or not path.stat().st_size:
		return 'the guest sent no SVG'
	try:
		root = ET.parse(path).getroot()
	except ET.ParseError as e:
		return f'not well-formed XML: {e}'
	if root.tag != SVG_NS + 'svg':
		return f'the root element is {root.tag}, not svg'
	got = sum(1 for r in root.iter(SVG_NS + 'rect') if r.get('class') == 'phase')
	return '' if got >= bars else f'{got} phase bars, want {bars} or more'


def fsck_failure(image: Path) -> str:
	"""Why e2fsck finds @image's filesystem damaged, or ''."""
	out = subprocess.run(['e2fsck', '-f', '-n', str(image)], capture_output=True,
			     text=True)
	return '' if out.returncode == 0 else \
		f'e2fsck exit status {out.returncode}: {(out.stdout + out.stderr).strip()[-400:]}'


def run_boot(args, parser, b: 'CheckBoot', tally: Tally) -> Boot | None:
	"""Boot @b, then count what it reports and check what it must show."""
	kernel, initrd = ((args.debug_kernel, args.debug_initrd) if b.debug else
			  (args.kernel, args.initrd))
	if not (kernel and kernel.exists() and initrd and initrd.exists()):
		tally.record(f'{b.name}: boots the {"debug " if b.debug else ""}kernel',
			     f'no kernel or initramfs: {kernel}, {initrd}')
		return None
	def new_boot() -> Boot:
		return Boot(b.name, kernel, initrd, args.out / b.name, b.tests,
			    max(args.timeout, b.timeout), b.append, args.console,
			    resume_append=b.resume_append,
			    port3=b.port3 or (PMTEST_SVG if b.svg_bars else SLEEPGRAPH_TRACE),
			    quiet_s=b.quiet or (QUIET_S_DEBUG if b.debug else QUIET_S))
	boot = new_boot()
	print(f'# booting {b.name}: tests {",".join(b.tests) or "(none)"}, '
	      f'logs in {boot.out_dir}', flush=True)
	start = time.monotonic()
	boot.run()
	if boot.failure.startswith(QEMU_FAILED):
		# The emulator broke, not the guest: once, the boot is run
		# again, and the closing summary says so.
		kept = boot.out_dir.with_name(f'{b.name}.qemu-failed')
		shutil.rmtree(kept, ignore_errors=True)
		boot.out_dir.rename(kept)
		tally.note(f'{b.name} booted twice: {boot.failure} (logs in {kept})')
		boot = new_boot()
		boot.run()
	print(f'# {b.name}: {time.monotonic() - start:.0f} s of its {boot.timeout} s',
	      flush=True)
	if b.fsck:
		tally.record(f'{b.name}: the ext4 data disk is clean (e2fsck -fn)',
			     fsck_failure(boot.out_dir / 'data.img'))
	if not b.must_fail:
		tally_boot(parser, boot, tally, b.documents)
		tally_after_done(boot, b.after_done, tally)
		if b.timeline:
			tally_timeline(boot, args.kernel_src, b.timeline, tally)
		if b.svg_bars:
			tally.record(f'{b.name}: pmtest report\'s SVG reached the host, '
				     f'{b.svg_bars} bars or more ({boot.out_dir / PMTEST_SVG})',
				     svg_failure(boot.out_dir / PMTEST_SVG, b.svg_bars))
		return boot
	tally.record(f'harness reports the broken guest {b.name} '
		     f'({boot.failure or "no failure seen"})',
		     '' if boot.failure else 'the broken guest passed')
	for desc, pattern in b.broken_shows:
		tally.record(f'{b.name}: {desc}', broken_shows_failure(boot, pattern))
	return boot


def broken_shows_failure(boot: Boot, pattern: str) -> str:
	"""Why what a broken boot must show is not there: @pattern matches
	neither its failure nor a line of what the harness would report."""
	report = [boot.failure] + failure_context([], boot.console)
	if any(re.search(pattern, l) for l in report):
		return ''
	return f'/{pattern}/ not in: {" | ".join(report)[:300]}'


PROJECT = Path(__file__).resolve().parents[3]
# A checkpatch finding, and the line after it that says where it is.
CHECKPATCH_FINDING_RE = re.compile(r'^(ERROR|WARNING|CHECK): (.*)$')
CHECKPATCH_WHERE_RE = re.compile(r'^#\d+: FILE: (\S+?:\d+):')
# TRACE_EVENT() has its own layout, which checkpatch's CHECKs (alignment,
# lines ending in '(') do not know; its errors and warnings still count.
CHECKPATCH_CHECKS_EXEMPT = 'include/trace/events/'
KERNEL_DIRS = ['drivers', 'include', 'kernel', 'samples']


def project_sources() -> list[Path]:
	return sorted(p for d in KERNEL_DIRS for p in (PROJECT / d).rglob('*.[ch]'))


# checkpatch runs scripts/spdxcheck.py with the python3 it finds first,
# which must be Debian's, where python3-ply and python3-git are.
CHECK_ENV = dict(os.environ, PATH='/usr/bin:' + os.environ.get('PATH', ''))


def static_check(name: str, cmd: list[str], cwd: Path, clean, tally: Tally,
		 explain=None) -> None:
	"""One static check as one test: ok when clean(output, status) holds;
	explain(output, status) says why not (default: its first errors)."""
	out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=CHECK_ENV)
	text = out.stdout + out.stderr
	if clean(text, out.returncode):
		tally.passed += 1
		print(f'ok - {name}')
		return
	print(f'not ok - {name}')
	for line in text.splitlines()[:20]:
		print(f'#   {line}')
	tally.fail(name, (explain or first_errors)(text, out.returncode))


def checkpatch_findings(text: str) -> list[str]:
	"""What counts in checkpatch --strict's output, each as 'FILE:LINE:
	LEVEL: message': every error, warning and check, but the checks in
	trace event headers."""
	findings = []
	lines = text.splitlines()
	for i, line in enumerate(lines):
		m = CHECKPATCH_FINDING_RE.match(line)
		if not m:
			continue
		where = CHECKPATCH_WHERE_RE.match(lines[i + 1]) if i + 1 < len(lines) else None
		if (m.group(1) == 'CHECK' and where and
		    where.group(1).startswith(CHECKPATCH_CHECKS_EXEMPT)):
			continue
		findings.append(f'{where.group(1) + ": " if where else ""}{line}')
	return findings


def checkpatch_clean(text: str, returncode: int) -> bool:
	"""checkpatch ran to its end (a missing spdxcheck module is no pass)
	and found nothing that counts."""
	return ('total: ' in text and 'Traceback' not in text and
		not checkpatch_findings(text))


def checkpatch_explain(text: str, returncode: int) -> list[str]:
	findings = checkpatch_findings(text)
	return (findings[:3] + ([f'and {len(findings) - 3} more'] if len(findings) > 3 else [])
		if findings else first_errors(text, returncode))


# A line that says what went wrong, in the output of a compiler, checkpatch,
# kernel-doc, Sphinx or make, rather than what was being done.
ERROR_LINE_RE = re.compile(r'\b(error|ERROR|WARNING|warning|CHECK|CRITICAL|'
			   r'Error \d+|No such file|not found|does not apply)\b')


def first_errors(text: str, returncode: int, count: int = 2) -> list[str]:
	"""The first @count lines of @text that name a problem, else its last
	line, and the exit status."""
	lines = [l.strip() for l in text.splitlines() if l.strip()]
	errors = [l for l in lines if ERROR_LINE_RE.search(l)][:count]
	return (errors or lines[-1:]) + [f'exit status {returncode}']


def run_static_checks(kernel_src: Path, tally: Tally) -> None:
	"""kernel-doc on every project file; checkpatch reads the same code
	in the series (run_series_checks())."""
	for src in project_sources():
		rel = src.relative_to(PROJECT)
		static_check(f'kernel-doc {rel}',
			     ['scripts/kernel-doc', '-Wall', '-none', str(src)],
			     kernel_src, lambda t, rc: rc == 0 and not t.strip(), tally)


def run_series_checks(kernel_src: Path, tally: Tally) -> None:
	"""make series: the plan covers every patch and new file, the series
	applies with git am and gives the tree the build uses; then
	checkpatch --strict once on each of its patches, which together hold
	every hook and every new file of the project."""
	out_dir = kernel_src.resolve().parent / 'series'
	static_check('make series: every patch and new file, applied with git am',
		     [str(PROJECT / 'scripts' / 'make-series.sh'), str(kernel_src),
		      str(PROJECT), str(out_dir)], PROJECT,
		     lambda t, rc: rc == 0, tally)
	for patch in sorted(out_dir.glob('*.patch')):
		static_check(f'checkpatch --strict series/{patch.name}',
			     ['perl', 'scripts/checkpatch.pl', '--strict', str(patch)],
			     kernel_src, checkpatch_clean, tally, checkpatch_explain)


# The guides Sphinx builds, and what each must show once built: the
# driver author's guide pulls struct pm_intent's kernel-doc and the sample.
DOCS_SPHINXDIRS = 'driver-api/pm admin-guide/pm'
DOCS_PAGES = {
	'driver-api/pm/replug.html': ['struct pm_intent', 'replug_sample_unplug',
				      'dev_pm_replug_identity'],
	'admin-guide/pm/replug-pm-test.html': ['pm_test'],
	'admin-guide/pm/replug-udev.html': ['PM_TRANSITION', 'PM_REPLUG_IDENTITY'],
}


def docs_findings(output: str) -> list[str]:
	"""Sphinx's warnings and errors but those about other pages of the same
	directories, which have findings of their own upstream, and the
	notice that graphviz is not installed."""
	findings = []
	for line in output.splitlines():
		if not re.search(r'\b(WARNING|ERROR|CRITICAL)\b|^Error:', line):
			continue
		page = re.search(r'Documentation/(\S+?\.rst)', line)
		if 'dot(1) not found' in line or (page and 'replug' not in page.group(1)):
			continue
		findings.append(line)
	return findings


def run_docs_checks(kernel_src: Path, tally: Tally) -> None:
	"""The guides built by the kernel's own Sphinx setup, and the ABI files
	held to the kernel's ABI syntax."""
	out_dir = kernel_src.resolve().parent / 'docs'
	static_check('make htmldocs: the replug guides build without a warning',
		     ['make', '-s', f'O={out_dir}', f'SPHINXDIRS={DOCS_SPHINXDIRS}',
		      # a fresh environment: Sphinx repeats no warning of a page it
		      # does not read again
		      'SPHINXOPTS=-E',
		      'htmldocs'], kernel_src,
		     lambda t, rc: rc == 0 and not docs_findings(t), tally)
	for page, words in DOCS_PAGES.items():
		html = out_dir / 'Documentation' / 'output' / page
		text = html.read_text(errors='replace') if html.exists() else ''
		missing = [w for w in words if w not in text]
		tally.record(f'htmldocs: {page} shows {", ".join(words)}',
			     f'{html} lacks {missing}' if missing else '')
	static_check('get_abi.pl validate: the ABI files',
		     ['perl', 'scripts/get_abi.pl', 'validate', '--dir',
		      str(PROJECT / 'Documentation' / 'ABI')], kernel_src,
		     lambda t, rc: rc == 0 and not t.strip(), tally)


def compiler_findings(output: str) -> list[str]:
	"""Warnings and errors that sparse or W=1 report in the project's own
	files (upstream code the patches touch has findings of its own)."""
	own = tuple(str(p.relative_to(PROJECT)) for p in project_sources())
	return [line for line in output.splitlines()
		if re.search(r': (warning|error):', line) and
		any(f'/{path}:' in line or line.startswith(f'{path}:') for path in own)]


def check_tree(kernel_src: Path, kernel_obj: Path) -> tuple[list[str], Path, str]:
	"""The make command of a build tree of its own for the compiler checks,
	its directory, and why it could not be prepared ('' when it was).

	Built with other flags in the kernel's own tree, the checked objects
	would be built again by the next make, and the kernel relinked; here
	they stay apart.  The tree takes the kernel's .config, and make
	prepare does again only what that changed.
	"""
	out = kernel_obj.resolve().parent / 'obj-check'
	kmake = ['make', '-s', '-C', str(kernel_src.resolve()), f'O={out}',
		 'ARCH=x86_64', 'CC=ccache gcc', 'HOSTCC=ccache gcc',
		 f'-j{(os.cpu_count() or 1) + 1}']
	out.mkdir(parents=True, exist_ok=True)
	config = (kernel_obj / '.config').read_bytes()
	if not (out / '.config').exists() or (out / '.config').read_bytes() != config:
		(out / '.config').write_bytes(config)
	prep = subprocess.run(kmake + ['olddefconfig', 'prepare'], capture_output=True,
			      text=True, env=CHECK_ENV)
	why = '' if prep.returncode == 0 else \
		' / '.join(first_errors(prep.stdout + prep.stderr, prep.returncode))
	return kmake, out, why


def run_compiler_checks(kernel_src: Path, kernel_obj: Path, tally: Tally) -> None:
	"""sparse (C=2) and W=1 on every in-tree object the project adds, each
	compiled afresh so that its warnings show."""
	kmake, out, why = check_tree(kernel_src, kernel_obj)
	if why:
		tally.record(f'a build tree for sparse and W=1 ({out})', why)
		return
	for src in project_sources():
		rel = src.relative_to(PROJECT)
		if src.suffix != '.c' or rel.parts[0] not in ('drivers', 'kernel', 'samples'):
			continue
		obj = rel.with_suffix('.o')
		(out / obj).unlink(missing_ok=True)
		static_check(f'sparse and W=1 {rel}', kmake + ['C=2', 'W=1', str(obj)],
			     kernel_src, lambda t, rc: rc == 0 and not compiler_findings(t),
			     tally)


def run_unit_tests(kernel_src: Path, tally: Tally) -> None:
	"""The harness's own unit tests (test_*.py beside this file)."""
	import unittest
	os.environ['REPLUG_KERNEL_SRC'] = str(kernel_src)
	suite = unittest.defaultTestLoader.discover(str(Path(__file__).parent),
						    pattern='test_*.py')
	result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
	failed = result.failures + result.errors
	tally.passed += result.testsRun - len(failed)
	for test, trace in failed:
		tally.fail(f'harness unit test {test.id()}', trace.strip().splitlines()[-1:])


def run_pmtest_unit_tests(binary: Path, tally: Tally) -> None:
	"""tools/pmtest's own unit tests: a KTAP document, one line a case."""
	if not binary.exists():
		tally.record('pmtest unit tests are built', f'{binary} is missing')
		return
	proc = subprocess.run([str(binary)], capture_output=True, text=True)
	cases = 0
	for line in proc.stdout.splitlines():
		m = KTAP_RESULT_RE.match(line)
		if m:
			cases += 1
			tally.record(f'pmtest: {m.group(2)}', 'failed' if m.group(1) else '')
	if proc.returncode and not any(l.startswith('not ok') for l in proc.stdout.splitlines()):
		tally.record('pmtest unit tests exit cleanly',
			     f'exit status {proc.returncode}: {proc.stderr.strip()}')
	if not cases:
		tally.record('pmtest unit tests report their cases', 'no KTAP case line')


def main() -> int:
	ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	ap.add_argument('command', choices=['boot', 'check', 'list', 'bench', 'soak'],
			help='boot: one guest with --tests; check: the static checks and '
			'every boot of --tier; list: the boots of each tier; '
			'bench: replug against classic, results in OUT/bench; '
			'soak: cycles under the debug kernel, logs in OUT/soak')
	ap.add_argument('--kernel', type=Path, required=True, help='bzImage')
	ap.add_argument('--initrd', type=Path, required=True, help='initramfs')
	ap.add_argument('--kernel-src', type=Path, required=True,
			help='kernel tree holding tools/testing/kunit')
	ap.add_argument('--kernel-obj', type=Path, default=None,
			help='its build directory (default: four levels above --kernel)')
	ap.add_argument('--debug-kernel', type=Path, default=None,
			help='bzImage of the debug kernel, for the soak')
	ap.add_argument('--debug-initrd', type=Path, default=None,
			help="the debug kernel's initramfs")
	ap.add_argument('--out', type=Path, required=True, help='log directory')
	ap.add_argument('--pmtest-tests', type=Path, default=None,
			help="check: tools/pmtest's unit test program")
	ap.add_argument('--tests', default='', help='guest tests, comma separated')
	ap.add_argument('--append', default='', help='extra kernel arguments')
	ap.add_argument('--timeout', type=int, default=600, help='seconds per boot')
	ap.add_argument('--only', default='',
			help='check: run only these boots (comma separated, any tier), '
			'without the static checks')
	ap.add_argument('--tier', choices=TIERS, default='check',
			help="check: make check's boots, or every boot (full)")
	ap.add_argument('--bench', default=BENCH_DEFAULT,
			help='bench: SIZES:SHAPES:LATENCIES_US:ROUNDS '
			f'(default {BENCH_DEFAULT})')
	ap.add_argument('--soak', default=SOAK_DEFAULT,
			help='soak: KIND:N,... for devices, s2idle, s3, hibernate, '
			f'kexec and tree (default {SOAK_DEFAULT})')
	ap.add_argument('--console', action='store_true',
			help='show the guest console while it runs')
	args = ap.parse_args()

	only = [b for b in args.only.split(',') if b]
	unknown = sorted(set(only) - {b.name for b in CHECK_BOOTS})
	if unknown:
		ap.error(f'--only: no boot named {", ".join(unknown)} '
			 f'(make check LIST=1 lists them)')
	if args.command == 'list':
		print_boots()
		return 0
	if args.kernel_obj is None:
		args.kernel_obj = args.kernel.resolve().parents[3]
	try:
		soak = soak_boot('soak', args.soak)
	except ValueError as e:
		ap.error(f'--soak: {e}')
	parser = load_kunit_parser(args.kernel_src)
	return close_run(Tally(), lambda tally: run_command(args, parser, soak, only, tally))


def close_run(tally: Tally, body) -> int:
	"""Run @body(@tally), then name every failure and print the closing
	line, even when the harness itself broke: the checks that ran still
	count, and the last screen says where it stopped."""
	try:
		body(tally)
	except Exception as e:
		traceback.print_exc()
		tally.fail(f'the harness stopped: {type(e).__name__}: {e}',
			   traceback.format_exc().strip().splitlines()[-3:-1])
	except KeyboardInterrupt:
		tally.fail('the harness was interrupted')
	for line in tally.summary():
		print(line)
	print(tally.line())
	return 1 if tally.failed else 0


def print_boots() -> None:
	"""Each boot of make check and check-full: its tier, kernel and tests."""
	for tier in TIERS:
		print(f'# make {"check" if tier == "check" else "check-full"}'
		      f'{"" if tier == "check" else " (also runs every boot above)"}:')
		for b in CHECK_BOOTS:
			if b.tier == tier:
				kernel = 'debug kernel' if b.debug else 'kernel'
				hib = ', restores a hibernation' if b.resume_append else ''
				print(f'{b.name:26} {kernel}{hib}: {", ".join(b.tests) or "(none)"}'
				      f'{" " + b.append if b.append else ""}')


def run_command(args, parser, soak: 'CheckBoot', only: list[str], tally: Tally) -> None:
	if args.command == 'boot':
		run_boot(args, parser, CheckBoot(
			'guest', [t for t in args.tests.split(',') if t], args.append),
			 tally)
	elif args.command == 'soak':
		run_boot(args, parser, soak, tally)
	elif args.command == 'bench':
		boot = run_boot(args, parser, CheckBoot(
			'bench', ['udev', 'bench'],
			f'replug.bench={args.bench} {args.append}'.strip(),
			timeout=BENCH_TIMEOUT, port3=BENCH_RUNS), tally)
		if not boot:
			print(tally.line())
			return 1
		summary, text = bench.report(boot.out_dir / BENCH_RUNS, boot.out_dir)
		print(text, end='')
		tally.record(f'bench: every run came back ({len(summary["runs"])})',
			     '' if summary['runs'] else 'no run came back')
	else:
		if not only:
			run_unit_tests(args.kernel_src, tally)
			if args.pmtest_tests:
				run_pmtest_unit_tests(args.pmtest_tests, tally)
			run_static_checks(args.kernel_src, tally)
			run_series_checks(args.kernel_src, tally)
			run_docs_checks(args.kernel_src, tally)
			run_compiler_checks(args.kernel_src, args.kernel_obj, tally)
		boots = ([b for b in CHECK_BOOTS if b.name in only] if only else
			 tier_boots(args.tier))
		for b in boots:
			run_boot(args, parser, b, tally)


if __name__ == '__main__':
	sys.exit(main())
