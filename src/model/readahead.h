/*
 * readahead.h - on-demand readahead (mm/readahead.c): the readahead state
 * of an open file, and the 6.17+ page_cache_sync_ra() and
 * page_cache_async_ra() driven by PG_readahead markers.
 */
#ifndef CP_READAHEAD_H
#define CP_READAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/pagecache.h"

/* Order of the largest page cache folio readahead allocates
 * (include/linux/pagemap.h MAX_PAGECACHE_ORDER: HPAGE_PMD_ORDER, 9 on
 * x86-64 with THP). */
#define CP_MAX_PAGECACHE_ORDER 9

/* The readahead state of one open file (struct file_ra_state), as much
 * of it as the model's windows need. Zero-initialised: no window yet. */
struct cp_file_ra_state {
	/* struct file_ra_state's window (markers): the last readahead's
	 * start, size and async_size; its PG_readahead marker sat on the
	 * folio holding index start + size - async_size */
	uint32_t start, size, async_size;
	/* the position rule's window (!markers, filemap.c SIMPLIFIED) */
	uint32_t window_end;   /* index after the last window read */
	uint8_t marker_order;  /* order of that window's first folio */
	bool valid;            /* a window has been read */
	uint8_t order;         /* ra->order (6.17+): the last window's folio order */
	/* Which kernel's readahead, fixed when the file is opened: true,
	 * 6.17+ mm/readahead.c in full (PG_readahead markers, the sync
	 * window's rules, ra->order; readahead.c); false, the position rule
	 * of filemap.c (4.11, 6.1) */
	bool markers;
	/* ra->prev_pos in pages: the index after the last page the previous
	 * read() copied (valid when prev_read; the kernel's -1 otherwise) */
	uint32_t prev_end;
	bool prev_read;
};

/* What one readahead call inserted. */
struct cp_ra_count {
	uint32_t pages;  /* pages inserted (each to be read from the device) */
	uint32_t folios; /* the folios they make */
	uint32_t start, end; /* the window it read, [start, end) (empty: none) */
};

/* PG_readahead (shares its bit with PG_reclaim in the kernel) on the
 * folio whose first page is slot head (cp_folio_head()): the reader
 * reaching it starts the next window. */
static inline bool cp_folio_test_readahead(const struct cp_pagecache *pc, uint32_t head)
{
	return pc->pages[head].pflags & CP_PG_READAHEAD;
}

/*
 * page_cache_sync_ra(): the reader missed at index of mapping id with
 * req_count pages of its read() left. ra_pages is the window's maximum
 * (ra->ra_pages). Inserts the window's pages (allocated with readahead's
 * __GFP_NORETRY: a page that cannot be had ends the window quietly) and
 * counts them in *n. Returns 0 or the error of an insertion.
 */
int cp_page_cache_sync_ra(struct cp_pagecache *pc, uint32_t id, uint32_t index,
			  uint32_t req_count, uint32_t ra_pages, struct cp_file_ra_state *ra,
			  struct cp_alloc_ctx *ctx, struct cp_ra_count *n);

/*
 * page_cache_async_ra(): the reader reached the folio whose first page is
 * slot head, which carries PG_readahead, with req_count pages of its
 * read() left from that page: the marker is cleared and the next window
 * read. As cp_page_cache_sync_ra() otherwise.
 */
int cp_page_cache_async_ra(struct cp_pagecache *pc, uint32_t id, uint32_t head,
			   uint32_t req_count, uint32_t ra_pages, struct cp_file_ra_state *ra,
			   struct cp_alloc_ctx *ctx, struct cp_ra_count *n);

/* A page of readahead (ra_alloc_folio / page_cache_ra_unbounded at
 * order 0): cp_add_to_page_cache_lru() with readahead_gfp_mask(), the
 * mapping's gfp and __GFP_NORETRY. Returns as that. */
int cp_ra_add_page(struct cp_pagecache *pc, uint32_t id, uint32_t index, struct cp_alloc_ctx *ctx);

/* A large folio of readahead: cp_add_folio_to_page_cache_lru() with
 * readahead_gfp_mask(), counted (cp_ra_folio_alloc, cp_ra_folio_pages,
 * ra_pages_order_*; cp_ra_folio_fail when no block of its order could be
 * had). Returns as that. */
int cp_ra_add_folio(struct cp_pagecache *pc, uint32_t id, uint32_t index, unsigned order,
		    struct cp_alloc_ctx *ctx);

/* The order of the folio at index in page_cache_ra_order()'s walk:
 * new_order, or __ffs(index) when index is not aligned to it, made
 * smaller until it does not pass last. With order1 false (before 6.8:
 * no order-1 page cache folios) an order of 1 becomes 0. */
unsigned cp_ra_folio_order(uint32_t index, unsigned new_order, uint32_t last, bool order1);

#endif /* CP_READAHEAD_H */
