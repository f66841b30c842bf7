#!/bin/sh
# install-deps.sh - install the Debian packages cachepressure needs.
#
# Usage: scripts/install-deps.sh [--lab]
#
# Idempotent and quiet: prints nothing when every package is present.
# Installs missing ones with apt-get (needs root); without root it names
# what is missing and exits 1. --lab adds what scripts/build-kernel.sh
# needs to build the lab's kernels (used by `make test-lab`, not by
# `make test`).
set -eu
lab=0
case "${1:-}" in
--lab) lab=1 ;;
"") ;;
*) echo "usage: $0 [--lab]" >&2; exit 2 ;;
esac

# Build and test: compiler, CMake, pkg-config, cmocka (unit tests),
# inih (scenario INI files), cJSON (JSON output), gnuplot (plots).
# Real harness: fsmark (fs_mark), xfsprogs/e2fsprogs (mkfs), util-linux
# (losetup, mount).
# CLI tests and bench: jq (reads the JSON output), groff-base (the man page
# check), time (/usr/bin/time -v for make bench).
# Kernel lab runtime (real --kernel): qemu-system-x86 (qemu-system-x86_64),
# busybox-static (the guest's shell and /init), cpio (writes the initramfs).
PACKAGES="gcc make cmake pkg-config libcmocka-dev libinih-dev libcjson-dev
gnuplot-nox fsmark xfsprogs e2fsprogs util-linux jq groff-base time
qemu-system-x86 busybox-static cpio"
# Kernel builds (scripts/build-kernel.sh): Debian's 6.1 source tarball,
# xz to unpack it, patch for the legacy patch, and the kernel's own build
# tools (bc, flex, bison, libelf-dev for objtool, libssl-dev, perl).
if [ "$lab" = 1 ]; then
	PACKAGES="$PACKAGES linux-source-6.1 xz-utils patch bc flex bison libelf-dev
libssl-dev perl"
fi

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
