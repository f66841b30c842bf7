/*
 * readahead.c - on-demand readahead with PG_readahead markers, as
 * mm/readahead.c does it from 6.17 (read in a 6.18-era tree:
 * page_cache_sync_ra, page_cache_async_ra, page_cache_ra_order,
 * ra_alloc_folio, do_page_cache_ra / page_cache_ra_unbounded).
 *
 * A window is struct file_ra_state's [start, start + size); the folio
 * holding index start + size - async_size is marked PG_readahead when
 * readahead inserts it (never a folio that was already cached). The
 * reader that reaches a marked folio (filemap_get_pages(): the read
 * batch stops at it) clears the mark and reads the next window:
 *
 * - page_cache_sync_ra(), on a miss. At the start of the file, for a
 *   read() larger than the window, or when the miss is at or next to
 *   where the previous read() ended (index - prev_index <= 1): a new
 *   window of get_init_ra_size(req_count) pages, its async_size what the
 *   window holds past the request (half the window when the request
 *   fills it). Otherwise the cached history decides
 *   (page_cache_prev_miss()): contig_count, the cached pages right
 *   before index (at most ra_pages - 1 when no gap is found within
 *   ra_pages; doubled when the file is cached from its first page); no
 *   more than req_count: a small random read, just the request, no
 *   marker, the state untouched; else a window of min(contig_count +
 *   req_count, ra_pages) pages with async_size 1 (the marker on its last
 *   page). ra->order is 0.
 * - page_cache_async_ra(), on a marked folio. If the folio holds the
 *   index the last window marked (rounded down to the folio), the next
 *   window follows it: start + size, size ramped by get_next_ra_size()
 *   (never smaller). Otherwise ("marked folio without valid state") the
 *   window starts at the first page missing after the folio
 *   (page_cache_next_miss(), nothing if none within ra_pages) and is
 *   sized from the distance to it plus req_count, ramped. Then ra->order
 *   + 2, the window's end trimmed to a multiple of 2^min(ra->order,
 *   __ffs(ra_pages)) when that leaves it non-empty, and async_size the
 *   whole window: the marker is on its first folio, so readahead stays
 *   one window ahead of the reader.
 * - page_cache_ra_order() fills a window with folios of ra->order
 *   (capped at MAX_PAGECACHE_ORDER and ilog2(size), stored back; 0
 *   without large folio support), each smaller where its index is not
 *   aligned or it would pass the window's end or EOF (order 1 allowed
 *   since 6.8), allocated with readahead's __GFP_NORETRY; the first
 *   failure (a page already cached, no memory) ends the walk and
 *   do_page_cache_ra() reads the rest in order-0 pages, skipping cached
 *   ones, until an allocation fails. Either marks the folio holding the
 *   window's mark index.
 *
 * SIMPLIFIED: the maximum is always ra->ra_pages (ractl_max_pages()
 * raises it to the device's io_pages for a read() larger than the
 * window; the grid's read_ahead_kb 2560 is larger than the readers' 1 MiB
 * read() calls, so it never does there); no blk-cgroup congestion, no
 * PG_writeback test (the readers' files are not written), no
 * mapping_min_folio_order (0 for XFS on 4 KiB blocks).
 */
#include "model/readahead.h"

#include <cachepressure/error.h>

#include "core/intmath.h"
#include "model/gfp.h"

unsigned cp_ra_folio_order(uint32_t index, unsigned new_order, uint32_t last, bool order1)
{
	unsigned order = new_order;

	if (index & ((1u << order) - 1))
		order = cp_ffs(index);
	if (order == 1 && !order1)
		order = 0;
	while (order > 0 && index + (1u << order) - 1 > last) {
		if (--order == 1 && !order1)
			order = 0;
	}
	return order;
}

/* get_init_ra_size(): the first window for a request of size pages. */
static uint32_t get_init_ra_size(uint32_t size, uint32_t max)
{
	uint32_t newsize = (uint32_t)cp_roundup_pow_of_two(size);

	if (newsize <= max / 32)
		return newsize * 4;
	if (newsize <= max / 4)
		return newsize * 2;
	return max;
}

/* get_next_ra_size(): the window after one of cur pages. */
static uint32_t get_next_ra_size(uint32_t cur, uint32_t max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

static bool resident(const struct cp_pagecache *pc, uint32_t id, uint32_t index)
{
	return pc->pages[cp_mapping_slot(pc, id, index)].flags & CP_PG_RESIDENT;
}

static void folio_set_readahead(struct cp_pagecache *pc, uint32_t head)
{
	pc->pages[head].pflags |= CP_PG_READAHEAD;
}

int cp_ra_add_page(struct cp_pagecache *pc, uint32_t id, uint32_t index, struct cp_alloc_ctx *ctx)
{
	unsigned gfp = ctx->gfp;
	int rc;

	ctx->gfp = gfp | CP_GFP_NORETRY;
	rc = cp_add_to_page_cache_lru(pc, id, index, ctx);
	ctx->gfp = gfp;
	return rc;
}

int cp_ra_add_folio(struct cp_pagecache *pc, uint32_t id, uint32_t index, unsigned order,
		    struct cp_alloc_ctx *ctx)
{
	unsigned gfp = ctx->gfp;
	int rc;

	ctx->gfp = gfp | CP_GFP_NORETRY;
	rc = cp_add_folio_to_page_cache_lru(pc, id, index, order, ctx);
	ctx->gfp = gfp;
	if (rc == -CP_ENOSPC)
		cp_count(pc->vmstat, CP_VM_RA_FOLIO_FAIL, 1);
	if (rc)
		return rc;
	cp_count(pc->vmstat, CP_VM_RA_FOLIO_ALLOC, 1);
	cp_count(pc->vmstat, CP_VM_RA_FOLIO_PAGES, 1ull << order);
	cp_count(pc->vmstat, order >= 6 ? CP_VM_RA_PAGES_ORDER_6TO9 : CP_VM_RA_PAGES_ORDER_2TO5,
		 1ull << order);
	return 0;
}

/*
 * page_cache_ra_unbounded() as do_page_cache_ra() calls it: nr pages
 * from index (no further than EOF), order 0, cached pages skipped, the
 * page at nr - lookahead from index marked; an allocation that fails
 * ends it quietly.
 */
static int do_page_cache_ra(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t nr,
			    uint32_t lookahead, struct cp_alloc_ctx *ctx, struct cp_ra_count *n)
{
	uint32_t eof = pc->mappings[id].nr_index, mark = CP_NIL, i;
	int rc;

	if (index >= eof)
		return 0;
	if (nr > eof - index)
		nr = eof - index;
	if (lookahead <= nr)
		mark = index + nr - lookahead;
	if (n->start == n->end)
		n->start = index;
	n->end = index + nr;
	for (i = index; i < index + nr; i++) {
		if (resident(pc, id, i))
			continue;
		rc = cp_ra_add_page(pc, id, i, ctx);
		if (rc == -CP_ENOSPC)
			return 0;
		if (rc)
			return rc;
		if (i == mark)
			folio_set_readahead(pc, cp_mapping_slot(pc, id, i));
		n->pages++;
		n->folios++;
	}
	return 0;
}

/* ra_alloc_folio(): one folio of the walk, marked when it holds mark.
 * Returns 0, or -CP_EBUSY / -CP_ENOSPC (the walk ends) or -CP_ENOMEM. */
static int ra_alloc_folio(struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t mark,
			  unsigned order, struct cp_alloc_ctx *ctx, struct cp_ra_count *n)
{
	int rc;

	if (order == 0) {
		if (resident(pc, id, index))
			return -CP_EBUSY;
		rc = cp_ra_add_page(pc, id, index, ctx);
	} else {
		rc = cp_ra_add_folio(pc, id, index, order, ctx);
	}
	if (rc)
		return rc;
	if (index == (mark & ~((1u << order) - 1)))
		folio_set_readahead(pc, cp_mapping_slot(pc, id, index));
	n->pages += 1u << order;
	n->folios++;
	return 0;
}

/* page_cache_ra_order(): read the window ra describes. */
static int page_cache_ra_order(struct cp_pagecache *pc, uint32_t id, struct cp_file_ra_state *ra,
			       struct cp_alloc_ctx *ctx, struct cp_ra_count *n)
{
	const struct cp_mapping *m = &pc->mappings[id];
	uint32_t start = ra->start, index = start, mark = start + ra->size - ra->async_size;
	uint32_t limit = ra->start + ra->size - 1;
	unsigned new_order = ra->order;
	int rc = 0;

	if (!m->large_folios) {
		ra->order = 0;
		return do_page_cache_ra(pc, id, start, ra->size, ra->async_size, ctx, n);
	}
	if (start >= m->nr_index)
		return 0;
	if (limit > m->nr_index - 1)
		limit = m->nr_index - 1;
	if (new_order > CP_MAX_PAGECACHE_ORDER)
		new_order = CP_MAX_PAGECACHE_ORDER;
	if (new_order > cp_ilog2(ra->size))
		new_order = cp_ilog2(ra->size);
	ra->order = (uint8_t)new_order;
	n->start = start;
	n->end = limit + 1;
	while (index <= limit) {
		unsigned order = cp_ra_folio_order(index, new_order, limit, true);

		rc = ra_alloc_folio(pc, id, index, mark, order, ctx, n);
		if (rc)
			break;
		index += 1u << order;
	}
	if (!rc)
		return 0;
	if (rc != -CP_EBUSY && rc != -CP_ENOSPC)
		return rc;
	/* the fallback: what is left of the window, from where the walk
	 * stopped (its mark the same index) */
	if (ra->size > index - start)
		return do_page_cache_ra(pc, id, index, ra->size - (index - start), ra->async_size,
					ctx, n);
	return 0;
}

/* page_cache_prev_miss(index - 1, max) as page_cache_sync_ra() reads it:
 * the cached pages right before index, and whether they reach back to
 * the file's first page. */
static uint32_t contig_count(const struct cp_pagecache *pc, uint32_t id, uint32_t index,
			     uint32_t max, bool *from_start)
{
	uint32_t k;

	*from_start = false;
	for (k = 1; k <= max; k++) {
		if (k > index) {
			*from_start = true; /* past index 0: ULONG_MAX */
			return index;
		}
		if (!resident(pc, id, index - k))
			return k - 1;
	}
	return max - 1; /* no gap within max: the last index scanned */
}

int cp_page_cache_sync_ra(struct cp_pagecache *pc, uint32_t id, uint32_t index,
			  uint32_t req_count, uint32_t ra_pages, struct cp_file_ra_state *ra,
			  struct cp_alloc_ctx *ctx, struct cp_ra_count *n)
{
	uint32_t max = ra_pages ? ra_pages : 1;
	bool sequential = ra->prev_read && index >= ra->prev_end && index - ra->prev_end <= 1;

	cp_count(pc->vmstat, CP_VM_RA_SYNC_CALLS, 1);
	if (!index || req_count > max || sequential) {
		ra->start = index;
		ra->size = get_init_ra_size(req_count, max);
		ra->async_size = ra->size > req_count ? ra->size - req_count : ra->size >> 1;
	} else {
		bool from_start;
		uint32_t contig = contig_count(pc, id, index, max, &from_start);

		/* a standalone small random read: the request alone */
		if (contig <= req_count)
			return do_page_cache_ra(pc, id, index, req_count, 0, ctx, n);
		if (from_start)
			contig *= 2;
		ra->start = index;
		ra->size = contig + req_count < max ? contig + req_count : max;
		ra->async_size = 1;
	}
	ra->order = 0;
	return page_cache_ra_order(pc, id, ra, ctx, n);
}

/* page_cache_next_miss(index, max): the first index from index on that
 * is not cached (EOF counts as not cached), index + max if none. */
static uint32_t next_miss(const struct cp_pagecache *pc, uint32_t id, uint32_t index, uint32_t max)
{
	uint32_t i;

	for (i = index; i < index + max; i++)
		if (i >= pc->mappings[id].nr_index || !resident(pc, id, i))
			return i;
	return index + max;
}

int cp_page_cache_async_ra(struct cp_pagecache *pc, uint32_t id, uint32_t head,
			   uint32_t req_count, uint32_t ra_pages, struct cp_file_ra_state *ra,
			   struct cp_alloc_ctx *ctx, struct cp_ra_count *n)
{
	uint32_t nr = cp_folio_nr_pages(pc, head);
	uint32_t index = head - pc->mappings[id].base;
	uint32_t max = ra_pages ? ra_pages : 1, expected, end, aligned_end, align;
	unsigned align_order;

	cp_count(pc->vmstat, CP_VM_RA_ASYNC_CALLS, 1);
	pc->pages[head].pflags &= (uint8_t)~CP_PG_READAHEAD;
	expected = (ra->start + ra->size - ra->async_size) & ~(nr - 1);
	if (index == expected) {
		uint32_t next = get_next_ra_size(ra->size, max);

		ra->start += ra->size;
		ra->size = next > ra->size ? next : ra->size;
	} else {
		/* a marked folio without valid state (another stream's
		 * window): start at the next hole */
		uint32_t start = next_miss(pc, id, index + 1, max);

		if (start - index > max)
			return 0;
		ra->start = start;
		ra->size = get_next_ra_size(start - index + req_count, max);
	}
	ra->order += 2; /* page_cache_ra_order() caps it and stores it back */
	align_order = cp_ffs(max) < ra->order ? cp_ffs(max) : ra->order;
	align = 1u << align_order;
	end = ra->start + ra->size;
	aligned_end = end & ~(align - 1);
	if (aligned_end > ra->start)
		ra->size -= end - aligned_end;
	ra->async_size = ra->size;
	return page_cache_ra_order(pc, id, ra, ctx, n);
}
