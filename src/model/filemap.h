/*
 * filemap.h - the read() path through the page cache with readahead
 * (mm/filemap.c do_generic_file_read / filemap_read, mm/readahead.c).
 */
#ifndef CP_FILEMAP_H
#define CP_FILEMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/pagecache.h"
#include "model/readahead.h"

/* What one read() call did. */
struct cp_read_result {
	uint64_t nr_cached_pages;   /* found resident */
	uint64_t nr_cached_folios;  /* the folios they are in */
	uint64_t nr_inserted_pages; /* missing: allocated, inserted, read */
	uint64_t nr_inserted_folios; /* the folios they were inserted as */
	uint64_t nr_io_requests;    /* device reads submitted (readahead windows) */
	uint64_t io_bytes[64];      /* size of each request, in order (first 64) */
	uint64_t nr_io_bytes;       /* bytes read from the device: /proc/self/io read_bytes */
};

/*
 * read() of pages [index, index + nr) of mapping id (a file that is not
 * sparse): each resident page is marked accessed; each run of missing
 * pages is read by readahead in windows of ra_pages (mm/readahead.c:
 * a sequential 1 MiB read() on a device whose max request is no larger
 * than the window reaches the full window at once), allocated in ctx
 * with __GFP_NORETRY first and without it on failure (the no_cached_page
 * fallback), inserted, read, then marked accessed by the copy.
 * If `sparse`, missing pages are filled without device I/O.
 * When the mapping has large folios (cp_mapping_set_large_folios) each
 * window is first filled with folios as page_cache_ra_order() chooses
 * them, ramping up from ra's last window (ra may be NULL: every window
 * starts as a sync miss); see filemap.c. With ra->markers (6.17+) the
 * windows are readahead.c's instead: a miss calls page_cache_sync_ra(),
 * a folio marked PG_readahead page_cache_async_ra(), and a page the
 * window could not give the reader is allocated without __GFP_NORETRY
 * (filemap_create_folio).
 * Returns 0, or -CP_ENOSPC when memory could not be found (the pages
 * before the failure stay inserted; *res counts them).
 */
int cp_filemap_read(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t nr,
		    uint32_t ra_pages, int sparse, struct cp_file_ra_state *ra,
		    struct cp_alloc_ctx *ctx, struct cp_read_result *res);

/*
 * A buffered write of pages [index, index + nr) of mapping id, which has
 * large folios (6.6+ XFS): iomap_write_begin -> __filemap_get_folio with
 * FGP_CREAT and fgf_set_order(len) for what is left of the write: the
 * order of that length (at most MAX_PAGECACHE_ORDER), no larger than
 * index's alignment, tried with __GFP_NORETRY and one order less each
 * time it fails, order 0 last without NORETRY; each folio covers the
 * next part of the range. Pages already cached are skipped. *folios
 * counts the folios inserted. Returns 0 or the error of an order-0
 * insertion (the pages before it stay).
 */
int cp_filemap_write_folios(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t nr,
			    struct cp_alloc_ctx *ctx, uint32_t *folios);

#endif /* CP_FILEMAP_H */
