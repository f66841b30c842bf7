#!/bin/sh
# `cachepressure validate`: help, bad input (exit 2, the message names the
# input), and the refusal without root, all before any run starts.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

expect 0 "--repeat N" "$CP" validate --help
expect 0 "--repeat N" "$CP" help validate
expect 2 "missing SCENARIO" "$CP" validate
expect 2 "--mem SIZE is required" "$CP" validate seed
expect 2 "'12Q'" "$CP" validate seed --mem 12Q
expect 2 "'cgroup'" "$CP" validate seed --mem 1G --confine cgroup
expect 2 "unknown scenario 'bogus'" "$CP" validate bogus --mem 1G
expect 2 "--kernel linux-9.9: unknown kernel profile" "$CP" validate seed --mem 1G --kernel linux-9.9
expect 2 "unknown option '--policy'" "$CP" validate seed --mem 1G --policy legacy
expect 2 "repeat" "$CP" validate seed --mem 1G --repeat 0
"$CP" validate --help | grep -q 'linux-6.x' || fail "help does not name the linux-6.x profile"

if [ "$(id -u)" != 0 ]; then
	expect 2 "needs root" "$CP" validate seed --mem 256M
elif command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$T"
	expect 2 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups "$CP" validate \
		seed --mem 256M --workdir "$T/nobody"
	[ ! -e "$T/nobody" ] || fail "a non-root run created its work directory"
fi
echo PASS
