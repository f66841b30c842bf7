/*
 * resident.h - the real harness's check that a scenario's cached files
 * start wholly in the page cache.
 *
 * The seed's files started cached (dd wrote 13 GB into 16 GB and the
 * readers started at once). Here they may not: with global confinement
 * kswapd can still be reclaiming after the balloon's inflation while the
 * files are written, and the freshly written, clean pages are what it
 * finds (measured on these machines: 100 to 470 MB of the two files
 * missing at the first pass at --mem 1G and 2G, re-read before fs_mark
 * started, and counted as if the metadata had evicted them).
 */
#ifndef CP_RESIDENT_H
#define CP_RESIDENT_H

#include <stdint.h>

/* mincore() over a shared read-only mapping of path says which of its
 * size_bytes are resident; each run of missing pages (up to 1 MiB) is
 * read back once with pread(), which inserts only the missing pages, so
 * the resident ones get no extra access. Returns the bytes read back (0
 * when every page was resident), or -1 with errno set. */
int64_t cp_refetch_missing(const char *path, uint64_t size_bytes);

#endif /* CP_RESIDENT_H */
