#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lay out the kernel tree replug builds: the Debian linux-source-6.12
# tarball as a git repository (tag "base"), the patches/ series committed on
# top with "git am", and the project's own kernel files overlaid.
#
# Only files whose content changed are rewritten, so a one-line edit in the
# project rebuilds one object, and an edit to one patch of the series
# rebuilds what that edit changed.
#
# Usage: prepare-tree.sh TARBALL SRCDIR PROJECTDIR
#        prepare-tree.sh --export SRCDIR PROJECTDIR
#
# --export goes the other way: the commits made on top of "base" in SRCDIR
# become patches/ and patches/series, and SRCDIR is marked as carrying
# them, so that the next build does not re-apply (and rebuild) anything.
set -euo pipefail

export_series=0
if [ "$1" = --export ]; then
	export_series=1
	shift
	set -- "" "$@"
fi
tarball=$1 src=$(realpath -m "$2") project=$(realpath "$3")
git_in() { git -C "$1" -c user.name=replug -c user.email=replug@localhost "${@:2}"; }

# The tarball a tree was unpacked from, by size and mtime: an upgrade of
# linux-source-6.12 gives another, and the tree is unpacked again, so that
# nothing is tested against another kernel than a fresh clone would get.
tarball_id() { stat -c '%s %Y' "$1"; }

# makefile_version: the kernel version a top-level Makefile on stdin names.
makefile_version() {
	awk -F' = ' '$1 == "VERSION" {v = $2} $1 == "PATCHLEVEL" {p = $2}
		     $1 == "SUBLEVEL" {print v "." p "." $2; exit}'
}
tarball_version() {
	tar -xJOf "$1" --wildcards '*/Makefile' --no-wildcards-match-slash |
		makefile_version
}
tree_version() { git -C "$1" show base:Makefile | makefile_version; }

# A tree from before the stamp: kept if its version is the tarball's.
if [ $export_series = 0 ] && [ -d "$src/.git" ] && [ ! -f "$src/.replug-tarball" ]; then
	if [ "$(tarball_version "$tarball")" = "$(tree_version "$src")" ]; then
		tarball_id "$tarball" > "$src/.replug-tarball"
	else
		echo "  UNPACK  $tarball is Linux $(tarball_version "$tarball")," \
		     "the tree Linux $(tree_version "$src"): unpacking again"
		rm -rf "$src"
	fi
fi
if [ $export_series = 0 ] && [ -d "$src/.git" ] &&
   [ "$(cat "$src/.replug-tarball")" != "$(tarball_id "$tarball")" ]; then
	echo "  UNPACK  $tarball changed since the tree was unpacked: unpacking again"
	rm -rf "$src"
fi

if [ ! -d "$src/.git" ]; then
	echo "  UNPACK  $tarball"
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
	git_in "$src.tmp" init -q
	git_in "$src.tmp" add -A -f
	git_in "$src.tmp" commit -q -m "Linux $(make -s -C "$src.tmp" kernelversion) (Debian linux-source-6.12)"
	git_in "$src.tmp" tag base
	tarball_id "$tarball" > "$src.tmp/.replug-tarball"
	mv "$src.tmp" "$src"
fi

patch_list() { grep -v -e '^#' -e '^$' "$project/patches/series" || true; }
series_id=$( (cat "$project/patches/series"; cd "$project/patches" &&
	patch_list | xargs -r cat) | sha1sum | cut -d' ' -f1)
if [ $export_series = 1 ]; then
	rm -f "$project"/patches/*.patch
	git -C "$src" format-patch -q --zero-commit --no-signature \
		-o "$project/patches" base..HEAD
	{
		echo '# replug patch series, applied in order on the 6.12 tree'
		(cd "$project/patches" && ls -- *.patch)
	} > "$project/patches/series"
	series_id=$( (cat "$project/patches/series"; cd "$project/patches" &&
		patch_list | xargs -r cat) | sha1sum | cut -d' ' -f1)
	echo "$series_id" > "$src/.replug-series"
	echo "  EXPORT  $(patch_list | wc -l) patches"
	exit 0
fi

# Re-applying the series rewrites every file a patch touches, the headers
# most of the kernel includes among them, though an edit to one patch
# changes one or two.  Keep a copy of each, with its mtime, and give the
# mtime back to those whose content came out the same, so that make
# rebuilds what the edit changed and no more.
stash=$src.stash
save_patched() {
	rm -rf "$stash"
	mkdir -p "$stash"
	(cd "$src" && git diff --name-only base HEAD -- | while read -r f; do
		[ ! -f "$f" ] || cp -p --parents "$f" "$stash"
	done)
}
restore_mtimes() {
	(cd "$stash" && find . -type f) | while read -r f; do
		! cmp -s "$stash/$f" "$src/$f" || touch -r "$stash/$f" "$src/$f"
	done
	rm -rf "$stash"
}

if [ "$(cat "$src/.replug-series" 2>/dev/null)" != "$series_id" ]; then
	echo "  PATCH   patches/series"
	git_in "$src" am --abort >/dev/null 2>&1 || true
	save_patched
	git_in "$src" reset -q --hard base
	patch_list | while read -r p; do
		git_in "$src" am -q --whitespace=nowarn "$project/patches/$p" ||
			{ echo "patches/$p does not apply" >&2; exit 1; }
	done
	restore_mtimes
	echo "$series_id" > "$src/.replug-series"
fi

# The overlay: new files of the project, copied only when their content
# differs so that make sees a new mtime only on what really changed.
for dir in Documentation drivers include kernel samples; do
	[ ! -d "$project/$dir" ] || rsync -r --checksum "$project/$dir/" "$src/$dir/"
done
