#!/bin/sh
# kernel_patch.sh - patches/linux-6.1-legacy-referenced.patch applies to
# Debian's linux-source-6.1 and makes the two legacy changes: dput sets
# DCACHE_REFERENCED before the LRU add, iput_final sets I_REFERENCED.
# SKIP (77) when the source tarball is not installed.
# Usage: sh kernel_patch.sh path/to/cachepressure SOURCE_DIR
set -u
src=$2
tarball=/usr/src/linux-source-6.1.tar.xz
patchfile=$src/patches/linux-6.1-legacy-referenced.patch
if [ ! -r "$tarball" ]; then
	echo "SKIP: $tarball not installed (apt-get install linux-source-6.1)"
	exit 77
fi
dir=$(mktemp -d /tmp/cachepressure-kpatch.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
tar -xJf "$tarball" -C "$dir" linux-source-6.1/fs/dcache.c linux-source-6.1/fs/inode.c || {
	echo "FAIL: cannot extract fs/dcache.c and fs/inode.c from $tarball"; exit 1; }
cd "$dir/linux-source-6.1" || exit 1
if ! patch -p1 --quiet < "$patchfile"; then
	echo "FAIL: $patchfile does not apply to linux-source-6.1"
	exit 1
fi
# legacy dput: the flag is set unconditionally, before d_lru_add()
if ! awk '/^static inline bool retain_dentry/ { f = 1 }
	  f && /dentry->d_flags \|= DCACHE_REFERENCED/ { ref = NR }
	  f && /d_lru_add\(dentry\)/ { add = NR }
	  f && /^}/ { exit !(ref && add && ref < add) }' fs/dcache.c; then
	echo "FAIL: retain_dentry() does not set DCACHE_REFERENCED before d_lru_add()"
	exit 1
fi
if ! awk '/^static void iput_final/ { f = 1 }
	  f && /i_state \|= I_REFERENCED/ { ref = NR }
	  f && /__inode_add_lru\(inode, true\)/ { add = NR; exit !(ref && ref < add) }' fs/inode.c; then
	echo "FAIL: iput_final() does not set I_REFERENCED before __inode_add_lru()"
	exit 1
fi
echo "kernel_patch: legacy REFERENCED patch applies and sets both flags"
