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
 * size and timing, not which pages miss: ref §10).
 *
 * Large folios (6.1 mm/readahead.c page_cache_ra_order(),
 * ra_alloc_folio(); ondemand_readahead() chooses the starting order): on
 * a mapping with large folio support (XFS on 6.1/6.x) and a window of at
 * least 4 pages, readahead fills the window with folios. The order
 * starts from the PG_readahead marker folio's order when the window
 * continues the previous one (the async readahead a marker hit starts)
 * and from 0 on a sync miss; page_cache_ra_order() adds 2, caps it at
 * MAX_PAGECACHE_ORDER and at the window size. Each folio takes that
 * order unless its index is not aligned to it (then __ffs(index)) or it
 * would pass the window's end or EOF (then smaller); order 1 becomes 0.
 * Folios are allocated with readahead's gfp (__GFP_NORETRY) through
 * cp_mem_alloc_folio(), which wakes kswapd at the folio's order; the
 * first failure (no block of that order, or a page already cached) ends
 * the folio walk, and the rest of the window is read with order-0 pages
 * as before (do_page_cache_ra(); the 6.18 reading, which reads only what
 * is left of the window, not the whole window again).
 *
 * SIMPLIFIED (large folios): the kernel's marker sits at window start +
 * size - async_size; the model's windows are the full ra_pages with
 * async_size == size, so the marker is the window's first folio and its
 * order is what the next window ramps from. A window "continues" the
 * previous one when it starts exactly where that one ended (the marker
 * itself is not looked up, nor the hit on it). I/O bytes and requests
 * count pages as for order 0; accessed marking is per folio (mark_read). 4.11, ext4, or a window
 * under 4 pages: exactly the order-0 path.
 *
 * 6.17+ (ra->markers; the linux-6.x profile's readahead_markers): the
 * windows are mm/readahead.c's own, PG_readahead markers and all
 * (readahead.c), as filemap_read() -> filemap_get_pages() drives them: a
 * missing page calls page_cache_sync_ra() with what is left of the
 * read(); when readahead did not give the reader that page,
 * filemap_create_folio() allocates it alone with the mapping's gfp (no
 * __GFP_NORETRY) and reads it; a cached folio carrying PG_readahead (the
 * read batch stops at it) calls page_cache_async_ra() before it is
 * copied. The position rule and its SIMPLIFIED notes above are the 4.11
 * and 6.1 profiles' only.
 *
 * Held folios (every profile): while a read() runs, the folios it
 * inserts are locked (readahead's folio lock, until the read completes)
 * and the marked folio it starts async readahead from is referenced by
 * its read batch (filemap_get_read_batch()'s folio_try_get()), so the
 * reclaim its own allocations enter cannot free them (CP_PG_HELD,
 * vmscan.c) and it copies what it read. SIMPLIFIED: the hold lasts until
 * the read() returns, where the kernel's folio lock ends at I/O
 * completion; other cached folios of the request are not held (the
 * kernel's batch holds up to a folio_batch of them at a time).
 */
#include "model/filemap.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/bug.h"
#include "core/intmath.h"
#include "model/gfp.h"

/* page_cache_alloc with readahead_gfp_mask (NORETRY), then the plain
 * mapping mask for the page the reader itself needs. */
static int insert_page(struct cp_pagecache *pc, uint32_t id, uint32_t index,
		       struct cp_alloc_ctx *ctx)
{
	int rc = cp_ra_add_page(pc, id, index, ctx);

	if (rc == -CP_ENOSPC)
		rc = cp_add_to_page_cache_lru(pc, id, index, ctx);
	return rc;
}

/* page_cache_ra_order(): the order readahead aims for in a window of
 * size pages whose previous folio order was `order`. */
static unsigned ra_new_order(unsigned order, uint32_t size)
{
	if (order < CP_MAX_PAGECACHE_ORDER) {
		order += 2;
		if (order > CP_MAX_PAGECACHE_ORDER)
			order = CP_MAX_PAGECACHE_ORDER;
		while ((1u << order) > size)
			order--;
	}
	return order;
}

/*
 * Read the window [start, wend) of mapping id (start is a missing page):
 * large folios first when the mapping has them, then order-0 pages for
 * what is left. *inserted counts pages inserted, *folios the folios they
 * make. Returns 0 or the error of an order-0 insertion (the pages before
 * it stay).
 */
static int read_window(struct cp_pagecache *pc, uint32_t id, uint32_t start, uint32_t wend,
		       uint32_t ra_pages, struct cp_file_ra_state *ra, struct cp_alloc_ctx *ctx,
		       uint32_t *inserted, uint32_t *folios)
{
	const struct cp_mapping *m = &pc->mappings[id];
	unsigned marker_order = 0;
	uint32_t j = start;
	int rc = 0;

	/* page_cache_async_ra() or page_cache_sync_ra(): the model's window
	 * continues the previous one when it starts where that one ended
	 * (the kernel's PG_readahead hit; see the SIMPLIFIED note above) */
	bool async = ra && ra->valid && ra->window_end == start;

	cp_count(pc->vmstat, async ? CP_VM_RA_ASYNC_CALLS : CP_VM_RA_SYNC_CALLS, 1);
	if (m->large_folios && ra_pages >= 4) {
		unsigned new_order = ra_new_order(async ? ra->marker_order : 0, ra_pages);

		while (j < wend) {
			unsigned order = cp_ra_folio_order(j, new_order, wend - 1, false);

			if (order == 0) {
				if (pc->pages[m->base + j].flags & CP_PG_RESIDENT)
					break; /* -EEXIST */
				rc = insert_page(pc, id, j, ctx);
				if (rc)
					goto out;
			} else {
				rc = cp_ra_add_folio(pc, id, j, order, ctx);
				if (rc == -CP_ENOSPC || rc == -CP_EBUSY) {
					rc = 0;
					break;
				}
				if (rc)
					goto out;
			}
			if (j == start)
				marker_order = order;
			*inserted += 1u << order;
			(*folios)++;
			j += 1u << order;
		}
	}
	/* do_page_cache_ra(): the rest of the window in order-0 pages,
	 * skipping those already cached */
	for (; j < wend; j++) {
		if (pc->pages[m->base + j].flags & CP_PG_RESIDENT)
			continue;
		rc = insert_page(pc, id, j, ctx);
		if (rc)
			goto out;
		(*inserted)++;
		(*folios)++;
	}
out:
	if (ra) {
		ra->valid = true;
		ra->window_end = wend;
		ra->marker_order = (uint8_t)marker_order;
	}
	return rc;
}

/*
 * What filemap_read() marks accessed (6.1 mm/filemap.c): each folio the
 * read() copies from is marked once (folio_mark_accessed), not once per
 * page; the first folio of the read() is not marked when the previous
 * read() of the file ended in it (pos_same_folio(ki_pos, prev_pos - 1):
 * a sequential reader touching one folio twice marks it once). 4.11
 * marked each page, with the same rule for a page (prev_index and
 * prev_offset). SIMPLIFIED: the rule is applied to large folios only;
 * order-0 pages are marked as before (for the model's page-aligned
 * sequential reads a read never starts in the page the previous one
 * ended in, so only a re-read of the same single page would differ).
 */
/* cp_folio_head() of page index of mapping m, which the caller knows:
 * no lookup of the mapping (the read path's per-page step). */
static uint32_t folio_head(const struct cp_pagecache *pc, const struct cp_mapping *m,
			   uint32_t index)
{
	return m->base + (index & ~((1u << pc->pages[m->base + index].order) - 1));
}

struct read_marks {
	uint32_t first;     /* the read()'s first index */
	uint32_t last_head; /* head slot of the folio marked last, CP_NIL */
	const struct cp_file_ra_state *ra;
};

static void mark_read(struct cp_pagecache *pc, const struct cp_mapping *m, uint32_t index,
		      struct read_marks *rm, int cpu)
{
	uint32_t slot = m->base + index, head = folio_head(pc, m, index);
	unsigned order = pc->pages[slot].order;

	if (head == rm->last_head)
		return;
	rm->last_head = head;
	if (order && rm->ra && rm->ra->prev_read && rm->ra->prev_end &&
	    head - m->base == (rm->first & ~((1u << order) - 1)) &&
	    (rm->first >> order) == ((rm->ra->prev_end - 1) >> order))
		return;
	cp_mark_page_accessed(pc, slot, cpu);
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

/* The readahead of one call counted in the read()'s result: its pages
 * are one request to the device unless the file is sparse. */
static void note_ra(struct cp_read_result *res, const struct cp_ra_count *n, int sparse)
{
	res->nr_inserted_pages += n->pages;
	res->nr_inserted_folios += n->folios;
	if (!sparse)
		note_io(res, (uint64_t)n->pages * 4096);
}

/* The copy of the cached page at index (slot): filemap_get_read_batch()
 * makes one lookup per folio, counted at its first page (folios are
 * aligned to their order in index space) or where the copying enters
 * it; then the copy marks it accessed. */
static void copy_cached_page(struct cp_pagecache *pc, const struct cp_mapping *m, uint32_t i,
			     uint32_t *next_cached, struct read_marks *rm, int cpu,
			     struct cp_read_result *res)
{
	uint32_t slot = m->base + i;

	if (!(i & ((1u << pc->pages[slot].order) - 1)) || i != *next_cached)
		res->nr_cached_folios++;
	*next_cached = i + 1;
	mark_read(pc, m, i, rm, cpu);
	res->nr_cached_pages++;
}

/* The pages of the windows this read() has read so far, [start, end):
 * their copy is part of the miss (nr_inserted_*), not a cached read, as
 * the position rule counts a window's pages. */
struct read_windows {
	uint32_t start, end;
};

static void note_window(struct read_windows *w, const struct cp_ra_count *n)
{
	if (n->start == n->end)
		return;
	if (w->start == w->end || n->start > w->end || n->end < w->start) {
		w->start = n->start;
		w->end = n->end;
		return;
	}
	if (n->start < w->start)
		w->start = n->start;
	if (n->end > w->end)
		w->end = n->end;
}

/*
 * 6.17+ filemap_read() -> filemap_get_pages() over [index, end) with
 * readahead.c's windows: a missing page calls page_cache_sync_ra() with
 * the rest of the read() (last_index - index), then, if the page is
 * still missing, filemap_create_folio() reads it alone (the mapping's
 * gfp); a folio marked PG_readahead calls page_cache_async_ra() before
 * it is copied. Returns 0 or the error that ended the read at *endp.
 */
static int filemap_read_markers(struct cp_pagecache *pc, uint32_t id, uint32_t index,
				uint32_t *endp, uint32_t ra_pages, int sparse,
				struct cp_file_ra_state *ra, struct cp_alloc_ctx *ctx,
				struct cp_read_result *res)
{
	const struct cp_mapping *m = &pc->mappings[id];
	struct read_marks rm = { .first = index, .last_head = CP_NIL, .ra = ra };
	struct read_windows win = { 0, 0 };
	uint32_t next_cached = CP_NIL, end = *endp, i = index;
	int rc = 0;

	while (i < end) {
		uint32_t slot = m->base + i;
		struct cp_ra_count n = { 0, 0, 0, 0 };

		if (!(pc->pages[slot].flags & CP_PG_RESIDENT)) {
			rc = cp_page_cache_sync_ra(pc, id, i, end - i, ra_pages, ra, ctx, &n);
			note_ra(res, &n, sparse);
			note_window(&win, &n);
			if (!rc && !(pc->pages[slot].flags & CP_PG_RESIDENT)) {
				struct cp_ra_count one = { 1, 1, i, i + 1 };

				rc = cp_add_to_page_cache_lru(pc, id, i, ctx);
				if (!rc) {
					note_ra(res, &one, sparse);
					note_window(&win, &one);
				}
			}
		} else {
			uint32_t head = folio_head(pc, m, i);

			if (cp_folio_test_readahead(pc, head)) {
				/* the read batch holds the marked folio while
				 * readahead allocates (and may reclaim) */
				cp_pagecache_hold_folio(pc, head);
				rc = cp_page_cache_async_ra(pc, id, head, end - (head - m->base),
							    ra_pages, ra, ctx, &n);
				note_ra(res, &n, sparse);
				note_window(&win, &n);
			}
		}
		if (rc) {
			*endp = i;
			return rc;
		}
		if (i >= win.start && i < win.end)
			mark_read(pc, m, i, &rm, ctx->cpu);
		else
			copy_cached_page(pc, m, i, &next_cached, &rm, ctx->cpu, res);
		i++;
	}
	return 0;
}

int cp_filemap_read(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t nr,
		    uint32_t ra_pages, int sparse, struct cp_file_ra_state *ra,
		    struct cp_alloc_ctx *ctx, struct cp_read_result *res)
{
	uint32_t end = index + nr, i = index;
	const struct cp_mapping *m = &pc->mappings[id];
	struct read_marks rm = { .first = index, .last_head = CP_NIL, .ra = ra };
	uint32_t next_cached = CP_NIL; /* the index after the last cached page copied */
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (end > m->nr_index)
		end = m->nr_index;
	if (ra_pages == 0)
		ra_pages = 1;
	/* the folios this read() inserts are locked until it has read them */
	cp_pagecache_read_begin(pc, id);
	if (ra && ra->markers) {
		rc = filemap_read_markers(pc, id, index, &end, ra_pages, sparse, ra, ctx, res);
		i = end;
	}
	while (i < end) {
		uint32_t slot = m->base + i;

		if (pc->pages[slot].flags & CP_PG_RESIDENT) {
			copy_cached_page(pc, m, i, &next_cached, &rm, ctx->cpu, res);
			i++;
			continue;
		}
		{
			/* a readahead window of missing pages */
			uint32_t wend = i + ra_pages < m->nr_index ? i + ra_pages : m->nr_index;
			uint32_t j, inserted = 0, folios = 0;

			rc = read_window(pc, id, i, wend, ra_pages, ra, ctx, &inserted, &folios);
			res->nr_inserted_pages += inserted;
			res->nr_inserted_folios += folios;
			if (!sparse)
				note_io(res, (uint64_t)inserted * 4096);
			if (rc) {
				end = i;
				break;
			}
			/* copy out the part of the window this read() wants */
			for (j = i; j < wend && j < end; j++) {
				uint32_t s = m->base + j;

				if (pc->pages[s].flags & CP_PG_RESIDENT)
					mark_read(pc, m, j, &rm, ctx->cpu);
			}
			i = wend < end ? wend : end;
		}
	}
	cp_pagecache_read_end(pc);
	/* ra->prev_pos: where this read() stopped copying */
	if (ra && end > index) {
		ra->prev_end = end;
		ra->prev_read = true;
	}
	return rc;
}

int cp_filemap_write_folios(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t nr,
			    struct cp_alloc_ctx *ctx, uint32_t *folios)
{
	uint32_t end = index + nr;
	unsigned gfp = ctx->gfp;
	int rc = 0;

	CP_BUG_ON(end > pc->mappings[id].nr_index);
	while (index < end) {
		unsigned order = cp_ilog2(end - index);

		if (pc->pages[pc->mappings[id].base + index].flags & CP_PG_RESIDENT) {
			index++;
			continue;
		}
		if (order > CP_MAX_PAGECACHE_ORDER)
			order = CP_MAX_PAGECACHE_ORDER;
		if (index && cp_ffs(index) < order)
			order = cp_ffs(index);
		/* larger orders may fail quietly (__GFP_NORETRY | __GFP_NOWARN) */
		ctx->gfp = gfp | CP_GFP_NORETRY;
		for (; order > 0; order--) {
			rc = cp_add_folio_to_page_cache_lru(pc, id, index, order, ctx);
			if (rc == 0)
				break;
		}
		ctx->gfp = gfp;
		if (order == 0) {
			rc = cp_add_to_page_cache_lru(pc, id, index, ctx);
			if (rc)
				return rc;
		}
		(*folios)++;
		index += 1u << order;
	}
	return 0;
}
