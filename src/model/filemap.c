/*
 * filemap.c - read() of a file through the page cache.
 *
 * Models 4.11 do_generic_file_read() (6.1 filemap_read()) for a reader
 * doing large sequential read() calls: for each page of the request,
 * find it in the page cache (find_get_page); a hit is copied and marked
 * accessed (mark_page_accessed, the two-touch rule of pagecache.c); a
 * miss starts readahead (page_cache_sync_readahead), which allocates and
 * inserts the missing pages of a window (__do_page_cache_readahead
 * skips pages already cached) and submits them as one read; the copy then
 * marks them accessed. Bytes read from the device are what
 * /proc/self/io read_bytes counts for the task (accounted at
 * submission), so they are exactly the missing pages x 4 KiB.
 *
 * SIMPLIFIED: the readahead window is the full ra_pages from the first
 * miss (for 1 MiB reads with max_sectors no larger than the window,
 * get_init_ra_size() returns the maximum at once) and is read
 * synchronously; a window may reach past the request (up to ra_pages - 1
 * pages, never past end of file) and those pages count toward this
 * read()'s device bytes, as the kernel's readahead does; asynchronous
 * readahead of the next window is not separate (readahead changes I/O
 * size and timing, not which pages miss: ref §10); no large folios.
 */
#include "model/filemap.h"

#include <cachepressure/error.h>
#include <string.h>

#include "model/gfp.h"

/* page_cache_alloc with readahead_gfp_mask (NORETRY), then the plain
 * mapping mask for the page the reader itself needs. */
static int insert_page(struct cp_pagecache *pc, uint32_t id, uint32_t index,
		       struct cp_alloc_ctx *ctx)
{
	unsigned gfp = ctx->gfp;
	int rc;

	ctx->gfp = gfp | CP_GFP_NORETRY;
	rc = cp_add_to_page_cache_lru(pc, id, index, ctx);
	ctx->gfp = gfp;
	if (rc == -CP_ENOSPC)
		rc = cp_add_to_page_cache_lru(pc, id, index, ctx);
	return rc;
}

static void note_io(struct cp_read_result *res, uint64_t bytes)
{
	if (!bytes)
		return;
	if (res->nr_io_requests < sizeof(res->io_bytes) / sizeof(res->io_bytes[0]))
		res->io_bytes[res->nr_io_requests] = bytes;
	res->nr_io_requests++;
	res->nr_io_bytes += bytes;
}

int cp_filemap_read(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t nr,
		    uint32_t ra_pages, int sparse, struct cp_alloc_ctx *ctx,
		    struct cp_read_result *res)
{
	uint32_t end = index + nr, i = index;
	const struct cp_mapping *m = &pc->mappings[id];

	memset(res, 0, sizeof(*res));
	if (end > m->nr_index)
		end = m->nr_index;
	if (ra_pages == 0)
		ra_pages = 1;
	while (i < end) {
		uint32_t slot = m->base + i;

		if (pc->pages[slot].flags & CP_PG_RESIDENT) {
			cp_mark_page_accessed(pc, slot, ctx->cpu);
			res->nr_cached_pages++;
			i++;
			continue;
		}
		{
			/* a readahead window of missing pages */
			uint32_t wend = i + ra_pages < m->nr_index ? i + ra_pages : m->nr_index;
			uint32_t j, inserted = 0;
			int rc = 0;

			for (j = i; j < wend; j++) {
				if (pc->pages[m->base + j].flags & CP_PG_RESIDENT)
					continue;
				rc = insert_page(pc, id, j, ctx);
				if (rc)
					break;
				inserted++;
			}
			res->nr_inserted_pages += inserted;
			if (!sparse)
				note_io(res, (uint64_t)inserted * 4096);
			if (rc)
				return rc;
			/* copy out the part of the window this read() wants */
			for (j = i; j < wend && j < end; j++) {
				uint32_t s = m->base + j;

				if (pc->pages[s].flags & CP_PG_RESIDENT)
					cp_mark_page_accessed(pc, s, ctx->cpu);
			}
			i = wend < end ? wend : end;
		}
	}
	return 0;
}
