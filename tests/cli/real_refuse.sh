#!/bin/sh
# `cachepressure real`: help, bad input, and the refusals that come before
# anything is touched (not root, a work directory on tmpfs or holding
# files it did not create). Runs no experiment.
set -u
CP=$1
T=$(mktemp -d /var/tmp/cp-refusetest.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*"
	[ -f "$T/err" ] && cat "$T/err"
	exit 1
}

# expect STATUS PATTERN ARGS...: exit status and a stderr pattern
expect() {
	st=$1
	pat=$2
	shift 2
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" = "$st" ] || fail "'$*' exited $rc, expected $st"
	grep -q -- "$pat" "$T/err" "$T/out" || fail "'$*' did not say '$pat'"
}

expect 0 "--confine" "$CP" real --help
expect 0 "--workdir" "$CP" calibrate --help
expect 2 "missing --mem" "$CP" real seed
expect 2 "'12Q'" "$CP" real seed --mem 12Q
expect 2 "'cgroup'" "$CP" real seed --mem 1G --confine cgroup
expect 2 "unknown scenario 'bogus'" "$CP" real bogus --mem 1G

if [ "$(id -u)" != 0 ]; then
	expect 2 "needs root" "$CP" real seed --mem 256M
	echo "PASS (not root: refusal checked; tmpfs/foreign-file checks need root)"
	exit 0
fi
if command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$T"
	expect 2 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups "$CP" real seed \
		--mem 256M --workdir "$T/nobody"
	[ ! -e "$T/nobody" ] || fail "a non-root run created its work directory"
fi
if [ ! -x /usr/bin/fs_mark ] || [ ! -e /dev/loop-control ]; then
	echo "PASS (no fs_mark or loop devices: work-directory refusals not reached)"
	exit 0
fi
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	expect 2 "tmpfs" "$CP" real seed --mem 64M --confine memcg --workdir /dev/shm/cp-refuse-$$
	[ ! -e /dev/shm/cp-refuse-$$ ] || fail "created a work directory on tmpfs"
fi
mkdir "$T/foreign"
echo notes >"$T/foreign/notes.txt"
expect 2 "'notes.txt'" "$CP" real seed --mem 64M --confine memcg --workdir "$T/foreign"
[ "$(ls -A "$T/foreign")" = notes.txt ] || fail "the foreign work directory was changed"
ln -s "$T/foreign" "$T/link"
expect 2 "symlink" "$CP" real seed --mem 64M --confine memcg --workdir "$T/link"
echo "PASS"
