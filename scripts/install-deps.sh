#!/bin/sh
# install-deps.sh - install the Debian packages cachepressure needs.
#
# Idempotent and quiet: prints nothing when every package is present.
# Installs missing ones with apt-get (needs root); without root it names
# what is missing and exits 1.
set -eu

# Build and test: compiler, CMake, pkg-config, cmocka (unit tests),
# inih (scenario INI files), cJSON (JSON output), gnuplot (plots).
# Real harness: fsmark (fs_mark), xfsprogs/e2fsprogs (mkfs), util-linux
# (losetup, mount).
# CLI tests and bench: jq (reads the JSON output), groff-base (the man page
# check), time (/usr/bin/time -v for make bench).
PACKAGES="gcc make cmake pkg-config libcmocka-dev libinih-dev libcjson-dev
gnuplot-nox fsmark xfsprogs e2fsprogs util-linux jq groff-base time"

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: missing Debian packages:$missing (run as root to install them)" >&2
	exit 1
fi

echo "install-deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
