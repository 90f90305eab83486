#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: the whole of replug as a git format-patch series on the
# pristine kernel tree (tag "base" of the tree prepare-tree.sh lays out).
#
# patches/upstream gives the order and, for each hook patch of patches/,
# the new files it brings in.  Each patch is applied with git am and its
# new files, at their current content, are folded into the same commit,
# so that the code arrives together with the Makefile and Kconfig lines
# that build it and the hooks that call it, and is listed under replug's
# entry in MAINTAINERS (scripts/maintainers-entry.py) by the same patch.
#
# Usage: make-series.sh SRCDIR PROJECTDIR OUTDIR [--build]
#
# --build also builds after every patch (the project's config fragment on
# tinyconfig, as the test kernel is built): the directories the patch
# compiles in and those of the code that uses the headers the series
# changes (drivers/base, kernel/power), and after the last patch the whole
# kernel and its modules.  A full build at every step would take hours
# here: several patches touch headers that most of the tree includes.
set -euo pipefail

src=$(realpath "$1") project=$(realpath "$2") out=$(realpath -m "$3")
build=${4:-}
plan=$project/patches/upstream
tree=$out/tree
git_in() { git -C "$1" -c user.name="replug developers" \
	-c user.email=replug@localhost "${@:2}"; }
die() { echo "make-series: $*" >&2; exit 1; }

plan_lines() { grep -v -e '^#' -e '^[[:space:]]*$' "$plan"; }

# Every hook patch once, every new file of the project once.
check_plan() {
	local listed files
	listed=$(plan_lines | awk '$1 != "-" {print $1}' | sort)
	[ -z "$(echo "$listed" | uniq -d)" ] ||
		die "$plan names a patch twice: $(echo "$listed" | uniq -d | tr '\n' ' ')"
	for p in $listed; do
		[ -f "$project/patches/$p" ] ||
			die "$plan: no patches/$p"
	done
	diff <(grep -v -e '^#' -e '^$' "$project/patches/series" | sort) \
		<(echo "$listed") >/dev/null ||
		die "$plan and patches/series list different patches"
	files=$(plan_lines | cut -s -d' ' -f2- | tr ' ' '\n' | grep . | sort)
	[ -z "$(echo "$files" | uniq -d)" ] ||
		die "$plan names a file twice: $(echo "$files" | uniq -d | tr '\n' ' ')"
	diff <(cd "$project" && find drivers include kernel samples Documentation \
		-type f | sort) <(echo "$files") >&2 ||
		die "the files above are new files of the project missing from" \
		    "$plan (<) or named there but absent (>)"
}

# A commit of its own for new files that no hook patch brings in: the
# subject and body are the plan's comment lines just above it.
commit_new() {
	local subject=$1 body=$2
	git_in "$tree" commit -q -s -m "$subject" -m "$body"
}

# The directories a patch's compiled files are in, and those of the code
# that uses the headers the series changes (drivers/base, kernel/power).
step_dirs() {
	local f
	printf "%s\n" drivers/base/ drivers/base/power/ kernel/power/
	git -C "$tree" diff --name-only HEAD~1 HEAD | while read -r f; do
		case $f in
		*.c|*/Makefile|*/Kconfig) [ ! -f "$tree/$(dirname "$f")/Makefile" ] ||
			echo "$(dirname "$f")/" ;;
		esac
	done
}

# After each patch, what it touches; after the last, the whole kernel.
build_step() {
	local n=$1 last=$2 obj=$out/obj targets
	local kmake=(make -s -C "$tree" O="$obj" ARCH=x86_64 CC="ccache gcc"
		     -j"$(($(nproc) + 1))")

	mkdir -p "$obj"
	if [ "$last" = 1 ]; then
		targets="bzImage modules"
	else
		targets=$(step_dirs | sort -u | tr '\n' ' ')
	fi
	echo "  BUILD   $n: $(git -C "$tree" log -1 --format=%s): $targets"
	{
		"${kmake[@]}" tinyconfig &&
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
			"$project/kernel/configs/replug.config" &&
		"${kmake[@]}" olddefconfig &&
		# shellcheck disable=SC2086 # one target each
		"${kmake[@]}" $targets
	} >"$out/build-$n.log" 2>&1 ||
		die "patch $n does not build, see $out/build-$n.log"
}

[ -d "$src/.git" ] || die "$src is no kernel tree; run make tree first"
[ -f "$plan" ] || die "no $plan"
check_plan

git -C "$src" worktree remove --force "$tree" 2>/dev/null || true
rm -rf "$out"
mkdir -p "$out"
git -C "$src" worktree prune
git_in "$src" worktree add -q --detach "$tree" base

n=0 pending_subject= pending_body= added=
total=$(plan_lines | grep -vc '^#')
while IFS= read -r line; do
	case "$line" in
	'#: '*) pending_subject=${line#\#: }; pending_body=; continue ;;
	'#  '*|'#') [ -z "$pending_subject" ] ||
		pending_body="$pending_body${line#\#  }"$'\n'; continue ;;
	'#'*|'') continue ;;
	esac
	read -r patch files <<<"$line"
	if [ "$patch" != - ]; then
		git_in "$tree" am -q --whitespace=nowarn "$project/patches/$patch" ||
			die "patches/$patch does not apply in this order"
	fi
	for f in $files; do
		mkdir -p "$tree/$(dirname "$f")"
		cp "$project/$f" "$tree/$f"
		git -C "$tree" add -f "$f"
		added="$added $f"
	done
	if [ -n "$files" ]; then
		# shellcheck disable=SC2086 # one argument per file
		"$project/scripts/maintainers-entry.py" "$tree/MAINTAINERS" $added
		git -C "$tree" add MAINTAINERS
	fi
	if [ "$patch" = - ]; then
		[ -n "$pending_subject" ] || die "$plan: a '-' line needs a '#: ' subject above it"
		commit_new "$pending_subject" "$pending_body"
	elif [ -n "$files" ]; then
		git_in "$tree" commit -q --amend --no-edit
	fi
	pending_subject=
	n=$((n + 1))
	[ "$build" != --build ] || build_step "$n" "$([ "$n" = "$total" ] && echo 1)"
done < "$plan"

git -C "$tree" format-patch -q --zero-commit --no-signature -o "$out" base..HEAD

# What reviewers get must apply with git am and give the same tree.
made=$(git -C "$tree" rev-parse 'HEAD^{tree}')
git -C "$tree" reset -q --hard base
git_in "$tree" am -q --whitespace=error-all "$out"/*.patch ||
	die "the series in $out does not apply with git am"
[ "$(git -C "$tree" rev-parse 'HEAD^{tree}')" = "$made" ] ||
	die "the series applied with git am gives another tree"
echo "  SERIES  $n patches in $out, applied with git am"
