# SPDX-License-Identifier: GPL-2.0
#
# replug: build the test kernel and guest, boot it, run every test.
#
#   make run     build everything, boot the guest, show a transition
#   make check   the tests to run before every commit; ends with
#                "N passed, N failed" (ONLY=boot,... reruns some boots,
#                LIST=1 lists them)
#   make check-full   make check's tests and the debug kernel's boots
#                (KASAN, lockdep, kmemleak) with a short soak
#   make bench   replug against classic, side by side; build/test/bench/
#   make soak    long cycles under KASAN, lockdep and kmemleak; build/test/soak/
#   make series  the whole of replug as a format-patch series; build/series/
#   make deps    install the Debian packages the build and tests need

BUILD      := $(CURDIR)/build
KSRC       := $(BUILD)/linux
KOBJ       := $(BUILD)/obj
TARBALL    := /usr/src/linux-source-6.12.tar.xz
BZIMAGE    := $(KOBJ)/arch/x86/boot/bzImage
INITRAMFS  := $(BUILD)/initramfs.cpio.gz
# The same kernel with the debug checkers the soak runs under.
KOBJ_DEBUG := $(BUILD)/obj-debug
BZIMAGE_DEBUG := $(KOBJ_DEBUG)/arch/x86/boot/bzImage
INITRAMFS_DEBUG := $(BUILD)/initramfs-debug.cpio.gz
JOBS       ?= $(shell echo $$(( $$(nproc) + 1 )))
export CCACHE_BASEDIR := $(CURDIR)
KMAKE_ARGS := -C $(KSRC) ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j$(JOBS)
KMAKE      := $(MAKE) $(KMAKE_ARGS) O=$(KOBJ)
KMAKE_DEBUG := $(MAKE) $(KMAKE_ARGS) O=$(KOBJ_DEBUG)
RUNNER     := python3 -u tools/testing/replug/run.py --kernel $(BZIMAGE) \
		--initrd $(INITRAMFS) --kernel-src $(KSRC) --kernel-obj $(KOBJ) \
		--debug-kernel $(BZIMAGE_DEBUG) --debug-initrd $(INITRAMFS_DEBUG) \
		--out $(BUILD)/test --pmtest-tests $(BUILD)/pmtest/test-pmtest

DEB_PACKAGES := linux-source-6.12 qemu-system-x86 busybox-static udev \
	libkmod-dev libudev-dev kexec-tools e2fsprogs ccache sparse \
	build-essential flex bison bc libelf-dev libssl-dev dwarves cpio \
	rsync kmod python3 pkg-config git iproute2 python3-ply python3-git \
	python3-sphinx

SAMPLE_KO  := samples/replug/replug-sample.ko
TESTBUS_KO := drivers/base/power/replug-testbus.ko
PMTEST     := $(BUILD)/pmtest/pmtest

.PHONY: all deps tree export-patches series series-build kernel pmtest FORCE \
	initramfs debug-kernel debug-initramfs run check check-full bench soak clean

all: kernel initramfs

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "  APT     $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing; \
	fi

tree: deps
	@scripts/prepare-tree.sh $(TARBALL) $(KSRC) $(CURDIR)

# After committing a change to an existing kernel file in build/linux.
export-patches:
	@scripts/prepare-tree.sh --export $(KSRC) $(CURDIR)

# The whole of replug, hooks and new files, as a git format-patch series
# on the pristine tree, in build/series (order: patches/upstream).
series: tree
	@scripts/make-series.sh $(KSRC) $(CURDIR) $(BUILD)/series

# The same, compiling what each patch touches after it, and the whole
# kernel after the last (bisectable); long.
series-build: tree
	@scripts/make-series.sh $(KSRC) $(CURDIR) $(BUILD)/series --build

# tinyconfig plus kernel/configs/replug.config, redone when either the
# fragment or the Kconfig files the series touches change.
$(KOBJ)/.config: kernel/configs/replug.config patches/series $(wildcard patches/*.patch) | tree
	@mkdir -p $(KOBJ)
	$(KMAKE) -s tinyconfig
	$(KMAKE) -s replug.config
	@scripts/check-config.sh kernel/configs/replug.config $@

# kbuild decides what to rebuild, so its targets are always asked for;
# make then sees a new mtime, and repacks the initramfs, only when kbuild
# (or pmtest's make) really wrote a file.
FORCE:

KERNEL_OUT := $(BZIMAGE) $(addprefix $(KOBJ)/,$(SAMPLE_KO) $(TESTBUS_KO))
kernel: $(KERNEL_OUT)
$(KERNEL_OUT) &: $(KOBJ)/.config FORCE | tree
	$(KMAKE) bzImage modules

# The debug kernel: replug.config plus replug-debug.config.
$(KOBJ_DEBUG)/.config: kernel/configs/replug.config kernel/configs/replug-debug.config \
		patches/series $(wildcard patches/*.patch) | tree
	@mkdir -p $(KOBJ_DEBUG)
	$(KMAKE_DEBUG) -s tinyconfig
	$(KMAKE_DEBUG) -s replug.config replug-debug.config
	@scripts/check-config.sh kernel/configs/replug.config $@
	@scripts/check-config.sh kernel/configs/replug-debug.config $@

KERNEL_DEBUG_OUT := $(BZIMAGE_DEBUG) $(addprefix $(KOBJ_DEBUG)/,$(SAMPLE_KO) $(TESTBUS_KO))
debug-kernel: $(KERNEL_DEBUG_OUT)
$(KERNEL_DEBUG_OUT) &: $(KOBJ_DEBUG)/.config FORCE | tree
	$(KMAKE_DEBUG) bzImage modules

# The userspace tool, and its unit tests, which make check runs.
PMTEST_OUT := $(PMTEST) $(BUILD)/pmtest/test-pmtest
pmtest: $(PMTEST_OUT)
$(PMTEST_OUT) &: FORCE | deps
	$(MAKE) -C tools/pmtest O=$(BUILD)/pmtest all $(BUILD)/pmtest/test-pmtest

# What mkinitramfs.sh copies besides the kernel and pmtest: the guest's
# scripts, the rules, and the host's programs (a directory's mtime says a
# file in it came or went, as a package upgrade does).
INITRAMFS_IN := Makefile scripts/mkinitramfs.sh $(PMTEST) \
	$(shell find tools/testing/replug/guest udev-rules) \
	$(wildcard /bin/busybox /usr/lib/systemd/systemd-udevd /usr/bin/udevadm \
		/usr/sbin/kexec /usr/sbin/ip /usr/lib/udev /usr/lib/udev/rules.d \
		/usr/lib/udev/hwdb.bin /usr/lib/systemd/network/99-default.link \
		/usr/lib/x86_64-linux-gnu)

initramfs: $(INITRAMFS)
$(INITRAMFS): $(KERNEL_OUT) $(INITRAMFS_IN)
	@echo "  GEN     $@"
	@scripts/mkinitramfs.sh $(CURDIR) $(BUILD)/initramfs $@ $(PMTEST) \
		--modules $(addprefix $(KOBJ)/,$(SAMPLE_KO) $(TESTBUS_KO)) --boot $(BZIMAGE)

debug-initramfs: $(INITRAMFS_DEBUG)
$(INITRAMFS_DEBUG): $(KERNEL_DEBUG_OUT) $(INITRAMFS_IN)
	@echo "  GEN     $@"
	@scripts/mkinitramfs.sh $(CURDIR) $(BUILD)/initramfs-debug $@ $(PMTEST) \
		--modules $(addprefix $(KOBJ_DEBUG)/,$(SAMPLE_KO) $(TESTBUS_KO)) \
		--boot $(BZIMAGE_DEBUG)

run: deps kernel initramfs
	$(RUNNER) boot --console --tests udev,replug-s3

# The harness's own unit tests, the static checks, then the guest boots
# of a tier (tools/testing/replug).  ONLY=boot,... runs those boots alone
# (the debug kernel's too, when it is built); LIST=1 names every boot.
CHECK_ARGS = $(if $(ONLY),--only '$(ONLY)')
ifneq ($(LIST),)
check check-full:
	@$(RUNNER) list
else
check: deps kernel initramfs
	$(RUNNER) check --tier check $(CHECK_ARGS)

check-full: deps kernel initramfs debug-initramfs
	$(RUNNER) check --tier full $(CHECK_ARGS)
endif

# replug against the classic dpm path, side by side in one boot; results
# in build/test/bench/ (results.txt, results.json, plot.svg).
# BENCH='SIZES:SHAPES:LATENCIES_US:ROUNDS[;...]' picks the runs, for
# example BENCH=100,1000:wide:1000:3.
bench: deps kernel initramfs
	$(RUNNER) bench $(if $(BENCH),--bench '$(BENCH)')

# Cycles of every kind under the debug kernel; SOAK='devices:N,s2idle:N,
# s3:N,hibernate:N,kexec:N,tree:N' sizes it (default: the issue's figures,
# hours under TCG).  make check-full runs a short one.
soak: deps debug-initramfs
	$(RUNNER) soak $(if $(SOAK),--soak '$(SOAK)')

clean:
	rm -rf $(BUILD)
