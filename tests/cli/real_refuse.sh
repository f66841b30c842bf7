#!/bin/sh
# `cachepressure real`: help, bad input, and the refusals that come before
# anything is touched (not root, a work directory on tmpfs or holding
# files it did not create). Runs no experiment.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

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
