#!/bin/sh
# measure_device_refuse.sh - scripts/measure-device-beside-cpus.sh
# refuses bad options before it makes anything (exit 2, naming the
# option): an unknown option, a count that is not positive, a directory
# on tmpfs (as root: the disk would not be in the measurement). --help
# prints its header.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
S="$SRC/scripts/measure-device-beside-cpus.sh"
expect 2 "unknown option '-x'" bash "$S" -x
expect 2 "-r needs a positive count" bash "$S" -r 0
expect 2 "-s needs a positive count of seconds" bash "$S" -s soon
expect 2 "-d needs a directory" bash "$S" -d
expect 0 "share_beside_busy_cpus" bash "$S" --help
if [ "$(id -u)" = 0 ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	expect 2 "is on tmpfs" bash "$S" -d /dev/shm
	ls /dev/shm | grep -q cachepressure-devcpu && fail "left a directory in /dev/shm"
fi
exit 0
