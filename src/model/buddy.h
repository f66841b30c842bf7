/*
 * buddy.h - the buddy page allocator of one zone: free lists by order and
 * migratetype, pageblock migratetypes, fallback and stealing, merging on
 * free, and the high-order part of the watermark test (mm/page_alloc.c;
 * the mechanism and what is SIMPLIFIED are described in buddy.c).
 *
 * Host memory: 9 bytes per page frame (next and prev links of the free
 * lists, one state byte) plus one byte per pageblock, so a 16 GiB zone
 * (4M pages) costs about 36 MiB.
 */
#ifndef CP_BUDDY_H
#define CP_BUDDY_H

#include <stdbool.h>
#include <stdint.h>

struct cp_diag;

/* include/linux/mmzone.h enum migratetype, same values (the ones on the
 * per-CPU lists; no HIGHATOMIC, CMA or ISOLATE). */
enum cp_migratetype {
	CP_MIGRATE_UNMOVABLE,
	CP_MIGRATE_MOVABLE,
	CP_MIGRATE_RECLAIMABLE,
	CP_MIGRATE_TYPES
};

#define CP_BUDDY_MAX_ORDER 11        /* 6.1 and 4.11 MAX_ORDER: orders 0..10 */
#define CP_BUDDY_PAGEBLOCK_ORDER 9   /* x86-64: HUGETLB_PAGE_ORDER */
#define CP_BUDDY_PAGEBLOCK_PAGES (1u << CP_BUDDY_PAGEBLOCK_ORDER)
#define CP_BUDDY_MAX_PAGES (1u << 31) /* zone size limit (8 TiB) */
#define CP_BUDDY_NONE UINT32_MAX      /* no pfn: end of a free list */

/* Allocation flags (mm/internal.h ALLOC_*), 6.1 only. */
#define CP_BUDDY_ALLOC_NOFRAGMENT 0x1u /* do not fall back below pageblock_order */
#define CP_BUDDY_ALLOC_KSWAPD 0x2u     /* a watermark boost sets ->boosted */

/* A pfn range allocated from the start (memblock reservations). */
struct cp_buddy_range {
	uint32_t start_pfn;
	uint32_t nr_pages;
};

struct cp_buddy_params {
	uint32_t nr_pages;                     /* zone size: 1 .. CP_BUDDY_MAX_PAGES */
	const struct cp_buddy_range *reserved; /* may be NULL when nr_reserved is 0 */
	unsigned nr_reserved;
	bool kernel_4_11;                      /* false: 6.1 rules (see buddy.c) */
	bool claim_steal;                      /* 6.15+ claim/steal fallback (not with 4.11) */
};

/* __rmqueue()'s enum rmqueue_mode (6.15+; no CMA): where the last page of
 * a rmqueue_bulk() batch came from, so the next one starts there. */
enum cp_buddy_rmqueue_mode {
	CP_RMQUEUE_NORMAL, /* the request's own lists first */
	CP_RMQUEUE_CLAIM,  /* claim a block of another type first */
	CP_RMQUEUE_STEAL,  /* steal pages of another type straight away */
};

/* One free list: free_area[order].free_list[migratetype]. */
struct cp_buddy_list {
	uint32_t head, tail; /* pfns of block heads, CP_BUDDY_NONE when empty */
	uint32_t nr;         /* blocks on the list */
};

struct cp_buddy {
	uint32_t nr_pages;
	uint32_t nr_pageblocks;     /* the last one may be partial */
	uint32_t managed_pages;     /* nr_pages minus the reserved ranges */
	bool kernel_4_11;
	bool claim_steal;

	uint32_t *next, *prev;      /* per pfn: free list links of a free block head */
	uint8_t *state;             /* per pfn: head or tail, order, migratetype */
	uint8_t *pageblock_mt;      /* per pageblock: enum cp_migratetype */
	/* per pageblock: PB_migrate_skip, compaction's hint (compaction.c);
	 * the buddy allocator never reads it */
	uint8_t *pageblock_skip;

	struct cp_buddy_list free_area[CP_BUDDY_MAX_ORDER][CP_MIGRATE_TYPES];
	uint64_t nr_free[CP_BUDDY_MAX_ORDER]; /* free_area[order].nr_free: blocks */
	uint64_t nr_free_pages;     /* NR_FREE_PAGES; invariant: sum of free blocks */
	uint64_t nr_allocated_pages; /* invariant: nr_pages - nr_free_pages */

	/* boost_watermark(): the caller sets the cap, kswapd resets the boost. */
	uint64_t boost_cap_pages;   /* mult_frac(high, watermark_boost_factor, 10000) */
	uint64_t watermark_boost;   /* zone->watermark_boost, pages */
	bool boosted;               /* ZONE_BOOSTED_WATERMARK: wake kswapd */

	/* Events. */
	uint64_t nr_extfrag;        /* trace mm_page_alloc_extfrag: every fallback */
	uint64_t nr_extfrag_fragmenting; /* ... of a block below pageblock_order */
	uint64_t nr_boost;          /* boost_watermark() calls that boosted */
	uint64_t nr_pageblocks_claimed; /* pageblocks whose migratetype a fallback changed */
	uint64_t nr_steal;          /* 6.15+ __rmqueue_steal(): requests taken singly */
	uint64_t nr_claim;          /* fallbacks that left the block's pageblock of the
				     * request's type: the tracepoint's change_ownership */
	uint64_t nr_claim_movable;  /* ... for a MOVABLE request */
};

/*
 * Initialise the zone: every page free (as blocks of order up to 10,
 * freed in ascending pfn order the way memblock_free_all() does), every
 * pageblock MOVABLE (memmap_init), except the reserved ranges, which
 * start allocated as order-0 UNMOVABLE pages (cp_buddy_free(pfn, 0)
 * gives one back, as free_reserved_page() would). Returns 0, -CP_EINVAL
 * (nr_pages 0 or too large, a range outside the zone or overlapping
 * another; diag says which) or -CP_ENOMEM. On failure b needs no release.
 */
int cp_buddy_init(struct cp_buddy *b, const struct cp_buddy_params *p, struct cp_diag *diag);

void cp_buddy_release(struct cp_buddy *b);

/*
 * __rmqueue(): allocate 2^order pages of migratetype mt, with
 * CP_BUDDY_ALLOC_* flags. Tries the lists of mt (__rmqueue_smallest),
 * then steals from another migratetype (__rmqueue_fallback). Returns 0
 * and the first pfn in *pfn, -CP_EINVAL (order > 10 or mt not a type),
 * or -CP_ENOSPC (no free block large enough; with
 * CP_BUDDY_ALLOC_NOFRAGMENT the caller retries without it, as
 * get_page_from_freelist() does). The watermark test is the caller's
 * (cp_buddy_watermark_ok). On failure nothing changed.
 */
int cp_buddy_alloc(struct cp_buddy *b, unsigned order, enum cp_migratetype mt,
		   unsigned alloc_flags, uint32_t *pfn);

/* The same, starting at the stage *mode names and updating it (6.15+
 * rmqueue_bulk keeps one mode for its batch; a single allocation starts
 * at CP_RMQUEUE_NORMAL, which is cp_buddy_alloc). Without claim_steal the
 * mode is ignored. -CP_EINVAL also for a mode out of range. */
int cp_buddy_alloc_mode(struct cp_buddy *b, unsigned order, enum cp_migratetype mt,
			unsigned alloc_flags, enum cp_buddy_rmqueue_mode *mode, uint32_t *pfn);

/*
 * __free_pages_ok() -> __free_one_page(): give back the block of 2^order
 * pages at pfn, merging it with free buddies; it goes on the free list of
 * its pageblock's migratetype. Returns 0 or -CP_EINVAL (pfn out of
 * range, order > 10, pfn not the head of an allocated block, or
 * allocated at another order; diag names the pfn). On failure nothing
 * changed.
 */
int cp_buddy_free(struct cp_buddy *b, uint32_t pfn, unsigned order, struct cp_diag *diag);

/*
 * split_page(): turn the allocated block of 2^order pages at pfn into
 * 2^order order-0 pages, each freed on its own later. Returns 0 or
 * -CP_EINVAL (as cp_buddy_free). O(2^order).
 */
int cp_buddy_split_page(struct cp_buddy *b, uint32_t pfn, unsigned order, struct cp_diag *diag);

/*
 * The inverse of split_page(): the 2^order allocated order-0 pages at pfn
 * (aligned, one migratetype) become one allocated block of that order
 * again, so that it can be freed whole, as the kernel frees a folio
 * (free_unref_folios / __free_pages_ok at folio_order). Returns 0 or
 * -CP_EINVAL (misaligned, out of the zone, or a page that is not an
 * allocated order-0 page of the block), the zone unchanged. O(2^order).
 */
int cp_buddy_join_pages(struct cp_buddy *b, uint32_t pfn, unsigned order, struct cp_diag *diag);

/* A free block of order >= order on one of the three migratetype lists
 * (the loop at the end of __zone_watermark_ok()). False for order > 10. */
bool cp_buddy_has_free_block(const struct cp_buddy *b, unsigned order);

/*
 * __zone_watermark_ok() without reserves (no ALLOC_HIGH/OOM/HARDER, no
 * highatomic or CMA pages): free_pages - (2^order - 1) must be above
 * mark (strictly: the kernel fails at <=), and for order > 0 a free block
 * of order >= order must exist. mark includes any lowmem_reserve and
 * watermark boost the caller wants counted. free_pages is the caller's
 * count (zone_watermark_ok passes NR_FREE_PAGES: b->nr_free_pages).
 */
bool cp_buddy_watermark_ok(const struct cp_buddy *b, unsigned order, uint64_t mark,
			   int64_t free_pages);

/* The cap boost_watermark() uses: mult_frac(high_wmark_pages,
 * watermark_boost_factor, 10000) (default factor 15000 = 150 %; 0 turns
 * boosting off). Call again when the watermarks change. */
void cp_buddy_set_boost_cap(struct cp_buddy *b, uint64_t high_wmark_pages,
			    unsigned watermark_boost_factor);

/* rmqueue(): ZONE_BOOSTED_WATERMARK was set; clear it (the caller then
 * wakes kswapd at order 0). */
bool cp_buddy_test_and_clear_boosted(struct cp_buddy *b);

/* get_pageblock_migratetype() of the pageblock holding pfn (< nr_pages). */
enum cp_migratetype cp_buddy_pageblock_migratetype(const struct cp_buddy *b, uint32_t pfn);

/* set_pageblock_migratetype() of the pageblock holding pfn, allowed only
 * while no page of it is free (so no free list changes): 0, -CP_EINVAL
 * (pfn or mt out of range) or -CP_EBUSY (a free block in it). */
int cp_buddy_set_pageblock_migratetype(struct cp_buddy *b, uint32_t pfn, enum cp_migratetype mt);

/* The migratetype the allocated order-0 page at pfn was asked with
 * (what a fallback counts as movable in its pageblock,
 * prep_move_freepages_block); set: relabel it, for pages allocated on
 * behalf of another type's memory (start_layout.c). The setter returns
 * 0 or -CP_EINVAL (pfn not an allocated order-0 page, mt out of range). */
enum cp_migratetype cp_buddy_alloc_migratetype(const struct cp_buddy *b, uint32_t pfn);
int cp_buddy_set_alloc_migratetype(struct cp_buddy *b, uint32_t pfn, enum cp_migratetype mt);

/* get_pageblock_skip() / set_pageblock_skip() / clear_pageblock_skip()
 * of the pageblock holding pfn (< nr_pages): compaction's PB_migrate_skip
 * hint, kept beside the migratetype in the pageblock's flags. */
bool cp_buddy_pageblock_skip(const struct cp_buddy *b, uint32_t pfn);
void cp_buddy_set_pageblock_skip(struct cp_buddy *b, uint32_t pfn, bool skip);

/* PageBuddy(pfn) ? buddy_order(pfn) : -1: the order of the free block
 * whose head is pfn, or -1 (allocated, inside a block, or out of range). */
int cp_buddy_free_block_order(const struct cp_buddy *b, uint32_t pfn);

/* Blocks on free_area[order].free_list[mt] (0 for bad arguments). */
uint32_t cp_buddy_nr_free_blocks(const struct cp_buddy *b, unsigned order,
				 enum cp_migratetype mt);

/* Free pages on mt's lists, every order (/proc/pagetypeinfo's line of
 * the type, in pages; 0 for a bad type). */
uint64_t cp_buddy_free_pages_of_type(const struct cp_buddy *b, enum cp_migratetype mt);

/* Adds the zone's pageblocks of each type to out[] (/proc/pagetypeinfo's
 * "Number of blocks type"). */
void cp_buddy_count_pageblocks(const struct cp_buddy *b, uint64_t out[CP_MIGRATE_TYPES]);

/* What the page at pfn is (the PageBuddy / compound-head tests the
 * compaction scanners make): the head of a free block, the head of an
 * allocated block, or a page inside a block (order not set). */
enum cp_buddy_page_kind { CP_BUDDY_PAGE_TAIL, CP_BUDDY_PAGE_FREE, CP_BUDDY_PAGE_ALLOC };
enum cp_buddy_page_kind cp_buddy_page_kind(const struct cp_buddy *b, uint32_t pfn,
					   unsigned *order);

/*
 * __isolate_free_page() + split_page() for compaction's free scanner
 * (isolate_freepages_block): the free block whose head is pfn leaves its
 * free list and becomes 2^order allocated order-0 MOVABLE pages (the
 * pages migration will copy into). Each is given back with
 * cp_buddy_free(pfn, 0). Returns the block's order, or -CP_EINVAL (pfn
 * out of range or not the head of a free block; diag names the pfn).
 * SIMPLIFIED: the kernel's __isolate_free_page() also refuses when the
 * order-0 min watermark would fail and may change the pageblock's
 * migratetype for a block >= pageblock_order/2; compaction never
 * isolates blocks >= pageblock_order (suitable_migration_target).
 */
int cp_buddy_isolate_free_block(struct cp_buddy *b, uint32_t pfn, struct cp_diag *diag);

/*
 * Invariants: the blocks tile the zone (every block aligned to its order
 * and inside the zone); every free block is on exactly the list of its
 * order and migratetype, links consistent; no two free buddies of the
 * same order left unmerged; list counts, nr_free[] and nr_free_pages
 * equal what the lists hold; allocated + free = nr_pages. O(nr_pages).
 */
bool cp_buddy_check(const struct cp_buddy *b);

#endif /* CP_BUDDY_H */
