#!/bin/sh
# build-kernel.sh - build a bzImage for the cachepressure kernel lab.
#
# Usage: scripts/build-kernel.sh OUTDIR [--source DIR|TARBALL] [--patch FILE]
#
# Takes Debian's linux-source-6.1 tarball (/usr/src/linux-source-6.1.tar.xz,
# `apt-get install linux-source-6.1`) or a source tree the user names,
# copies it into OUTDIR/src (never building inside the repository or the
# user's tree), optionally applies a patch (e.g.
# patches/linux-6.1-legacy-referenced.patch), configures `make tinyconfig`
# plus configs/lab.config, and builds OUTDIR/bzImage. About 13 minutes on
# two cores; an incremental rebuild after a patch is much faster.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	echo "usage: $0 OUTDIR [--source DIR|TARBALL] [--patch FILE]" >&2
	exit 2
}
[ $# -ge 1 ] || usage
out=$1
shift
source=/usr/src/linux-source-6.1.tar.xz
patchfile=
while [ $# -gt 0 ]; do
	case "$1" in
	--source) [ $# -ge 2 ] || usage; source=$2; shift 2 ;;
	--patch) [ $# -ge 2 ] || usage; patchfile=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "$0: unknown argument '$1'" >&2; usage ;;
	esac
done
case "$out" in
"$repo"|"$repo"/*) echo "$0: OUTDIR must be outside the repository" >&2; exit 2 ;;
esac
if [ -n "$patchfile" ] && [ ! -r "$patchfile" ]; then
	echo "$0: --patch $patchfile: no such file" >&2
	exit 2
fi
mkdir -p "$out"
src=$out/src
if [ ! -d "$src" ]; then
	if [ -d "$source" ]; then
		cp -a "$source" "$src"
	elif [ -r "$source" ]; then
		mkdir -p "$out/extract"
		tar -xJf "$source" -C "$out/extract"
		mv "$out"/extract/* "$src"
		rmdir "$out/extract"
	else
		echo "$0: --source $source: no such file or directory" \
			"(apt-get install linux-source-6.1)" >&2
		exit 2
	fi
	if [ -n "$patchfile" ]; then
		patch -d "$src" -p1 < "$patchfile"
	fi
fi
jobs=$(nproc 2>/dev/null || echo 2)
make -C "$src" -s tinyconfig
"$src"/scripts/kconfig/merge_config.sh -m -O "$src" "$src"/.config "$repo"/configs/lab.config >/dev/null
make -C "$src" -s olddefconfig
# every option of the fragment must have survived olddefconfig
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qx "$line" "$src"/.config || { echo "$0: $line did not stick" >&2; missing=1; } ;;
	esac
done < "$repo"/configs/lab.config
[ "$missing" -eq 0 ] || exit 1
make -C "$src" -s -j"$jobs" bzImage
cp "$src"/arch/x86/boot/bzImage "$out"/bzImage
echo "$out/bzImage"
