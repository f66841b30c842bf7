/*
 * test_start_layout.c - a measured start layout laid into a zone
 * (start_layout.c): the free blocks exactly as measured, none of them
 * able to merge with its buddy (__free_one_page stops at an allocated
 * page), in as many pageblocks of their type as /proc/pagetypeinfo
 * counted, or each beside an allocated buddy when the count is unknown.
 *
 * Every test lays out into one zone of 4096 pages and no reserve (eight
 * MOVABLE pageblocks, four free order-10 blocks at boot).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/alloc.h"
#include "model/buddy.h"
#include "model/memory.h"
#include "model/start_layout.h"

#define ZONE_PAGES 4096u

struct zone {
	struct cp_buddy b;
	struct cp_mem m; /* only for the movable fillers */
};

static void zone_init(struct zone *z)
{
	struct cp_buddy_params bp = { .nr_pages = ZONE_PAGES };

	memset(z, 0, sizeof(*z));
	assert_int_equal(cp_buddy_init(&z->b, &bp, NULL), 0);
	z->m.total_pages = ZONE_PAGES;
}

static void zone_release(struct zone *z)
{
	cp_buddy_release(&z->b);
	cp_free(z->m.movable_filler);
}

/* Free pages in pageblock pb (heads of free blocks, by their order). */
static unsigned pageblock_free_pages(const struct cp_buddy *b, uint32_t pb)
{
	uint32_t pfn = pb * CP_BUDDY_PAGEBLOCK_PAGES, end = pfn + CP_BUDDY_PAGEBLOCK_PAGES;
	unsigned order, free = 0;

	for (; pfn < end; pfn++)
		if (cp_buddy_page_kind(b, pfn, &order) == CP_BUDDY_PAGE_FREE)
			free += 1u << order;
	return free;
}

/* Pageblocks of type mt, and the free pages in them. */
static unsigned pageblocks_of(const struct cp_buddy *b, enum cp_migratetype mt, unsigned *free)
{
	uint32_t pb;
	unsigned n = 0;

	*free = 0;
	for (pb = 0; pb < b->nr_pageblocks; pb++)
		if (b->pageblock_mt[pb] == mt) {
			n++;
			*free += pageblock_free_pages(b, pb);
		}
	return n;
}

/* A chain of one free block of each order 8, 7, ..., 0 (511 pages) fits
 * one pageblock with one page allocated: each block's buddy holds that
 * page (rule: a free block stays of its order while some page of its
 * buddy is allocated). Measured as one RECLAIMABLE pageblock, it is
 * laid out so: 1 page added to the zone. Unmeasured, each block beside
 * an allocated buddy of its order: order 8 fills one pageblock (512),
 * orders 7..0 (2 x 255 = 510) a second: 1024 - 511 = 513 pages added. */
static void measured_pageblock_holds_a_chain_of_fragments(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = { { 0 } };
	uint64_t pageblocks[CP_MIGRATE_TYPES] = { [CP_MIGRATE_RECLAIMABLE] = 1 };
	struct cp_start_layout l;
	struct zone z;
	uint64_t extra;
	unsigned o, free;

	(void)state;
	for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
		blocks[CP_MIGRATE_RECLAIMABLE][o] = 1;
	cp_start_layout_plan(blocks, NULL, ZONE_PAGES, &l);
	assert_int_equal(cp_start_layout_extra_pages(&l, &extra), 0);
	assert_int_equal(extra, 513);
	cp_start_layout_plan(blocks, pageblocks, ZONE_PAGES, &l);
	assert_int_equal(cp_start_layout_extra_pages(&l, &extra), 0);
	assert_int_equal(extra, 1);
	zone_init(&z);
	assert_int_equal(cp_start_layout_apply(&z.m, &z.b, 0, &l), 0);
	for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
		assert_int_equal(cp_buddy_nr_free_blocks(&z.b, o, CP_MIGRATE_RECLAIMABLE), 1);
	assert_int_equal(pageblocks_of(&z.b, CP_MIGRATE_RECLAIMABLE, &free), 1);
	assert_int_equal(free, 511);
	assert_int_equal(z.b.nr_extfrag, 0);
	assert_true(cp_buddy_check(&z.b));
	zone_release(&z);
}

/* Two order-8 and two order-7 UNMOVABLE fragments in the 2 measured
 * pageblocks: at most one order-8 block per pageblock (two would be
 * buddies and merge), each order-7 block into the pageblock with the
 * most pages still allocated: 256 + 128 free in each, 256 pages added. */
static void fragments_spread_over_the_measured_pageblocks(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = {
		[CP_MIGRATE_UNMOVABLE] = { [7] = 2, [8] = 2 },
	};
	uint64_t pageblocks[CP_MIGRATE_TYPES] = { [CP_MIGRATE_UNMOVABLE] = 2 };
	struct cp_start_layout l;
	struct zone z;
	uint64_t extra;
	uint32_t pb;
	unsigned free, n = 0;

	(void)state;
	cp_start_layout_plan(blocks, pageblocks, ZONE_PAGES, &l);
	assert_int_equal(cp_start_layout_extra_pages(&l, &extra), 0);
	assert_int_equal(extra, 256);
	zone_init(&z);
	assert_int_equal(cp_start_layout_apply(&z.m, &z.b, 0, &l), 0);
	for (pb = 0; pb < z.b.nr_pageblocks; pb++)
		if (z.b.pageblock_mt[pb] == CP_MIGRATE_UNMOVABLE) {
			assert_int_equal(pageblock_free_pages(&z.b, pb), 384);
			n++;
		}
	assert_int_equal(n, 2);
	assert_int_equal(pageblocks_of(&z.b, CP_MIGRATE_UNMOVABLE, &free), 2);
	assert_int_equal(free, 768);
	assert_true(cp_buddy_check(&z.b));
	zone_release(&z);
}

/* What stays allocated in a measured UNMOVABLE pageblock is memory of
 * that type (slab, page tables): allocations of UNMOVABLE, not MOVABLE,
 * so a page-cache fallback counting the pageblock
 * (prep_move_freepages_block: PageLRU || __PageMovable) finds no
 * movable page there and claims it only when half of it is free. The
 * layout of fragments_spread_over_the_measured_pageblocks: 128 pages
 * allocated in each of the two pageblocks, all UNMOVABLE; the MOVABLE
 * pageblocks' fillers stay MOVABLE. */
static void reserve_pages_are_of_the_pageblocks_type(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = {
		[CP_MIGRATE_UNMOVABLE] = { [7] = 2, [8] = 2 },
		[CP_MIGRATE_MOVABLE] = { [0] = 1 },
	};
	uint64_t pageblocks[CP_MIGRATE_TYPES] = { [CP_MIGRATE_UNMOVABLE] = 2,
						  [CP_MIGRATE_MOVABLE] = 1 };
	struct cp_start_layout l;
	struct zone z;
	uint32_t pfn;
	unsigned order, unmovable = 0, movable = 0;

	(void)state;
	cp_start_layout_plan(blocks, pageblocks, ZONE_PAGES, &l);
	zone_init(&z);
	assert_int_equal(cp_start_layout_apply(&z.m, &z.b, 0, &l), 0);
	for (pfn = 0; pfn < ZONE_PAGES; pfn++) {
		enum cp_migratetype pb = cp_buddy_pageblock_migratetype(&z.b, pfn);

		if (cp_buddy_page_kind(&z.b, pfn, &order) != CP_BUDDY_PAGE_ALLOC)
			continue;
		assert_int_equal(cp_buddy_alloc_migratetype(&z.b, pfn), pb);
		if (pb == CP_MIGRATE_UNMOVABLE)
			unmovable++;
		else
			movable++;
	}
	assert_int_equal(unmovable, 256);
	assert_int_equal(movable, 511);
	assert_true(cp_buddy_check(&z.b));
	zone_release(&z);
}

/* Three order-0 fragments in one pageblock: pages 0, 2 and 4, each with
 * its buddy page allocated; no two of them merge. */
static void order0_fragments_keep_their_buddies_allocated(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = {
		[CP_MIGRATE_RECLAIMABLE] = { 3 },
	};
	uint64_t pageblocks[CP_MIGRATE_TYPES] = { [CP_MIGRATE_RECLAIMABLE] = 1 };
	struct cp_start_layout l;
	struct zone z;
	uint32_t pb, base = UINT32_MAX;
	unsigned order;

	(void)state;
	cp_start_layout_plan(blocks, pageblocks, ZONE_PAGES, &l);
	zone_init(&z);
	assert_int_equal(cp_start_layout_apply(&z.m, &z.b, 0, &l), 0);
	for (pb = 0; pb < z.b.nr_pageblocks; pb++)
		if (z.b.pageblock_mt[pb] == CP_MIGRATE_RECLAIMABLE)
			base = pb * CP_BUDDY_PAGEBLOCK_PAGES;
	assert_int_not_equal(base, UINT32_MAX);
	assert_int_equal(cp_buddy_nr_free_blocks(&z.b, 0, CP_MIGRATE_RECLAIMABLE), 3);
	assert_int_equal(cp_buddy_page_kind(&z.b, base + 0, &order), CP_BUDDY_PAGE_FREE);
	assert_int_equal(cp_buddy_page_kind(&z.b, base + 1, &order), CP_BUDDY_PAGE_ALLOC);
	assert_int_equal(cp_buddy_page_kind(&z.b, base + 2, &order), CP_BUDDY_PAGE_FREE);
	assert_int_equal(cp_buddy_page_kind(&z.b, base + 4, &order), CP_BUDDY_PAGE_FREE);
	assert_true(cp_buddy_check(&z.b));
	zone_release(&z);
}

/* Fewer pageblocks measured than the fragments need (3 order-8 blocks,
 * one per pageblock, in a count of 1): as many more as they take. */
static void too_few_measured_pageblocks_take_more(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = {
		[CP_MIGRATE_RECLAIMABLE] = { [8] = 3 },
	};
	uint64_t pageblocks[CP_MIGRATE_TYPES] = { [CP_MIGRATE_RECLAIMABLE] = 1 };
	struct cp_start_layout l;
	uint64_t extra;

	(void)state;
	cp_start_layout_plan(blocks, pageblocks, ZONE_PAGES, &l);
	assert_int_equal(cp_start_layout_extra_pages(&l, &extra), 0);
	assert_int_equal(extra, 3 * 512 - 3 * 256);
}

/* MOVABLE: the real count is mostly the balloon's pageblocks; the model
 * lays the fragments into no more pageblocks than pairing them takes
 * (one order-3 fragment, 100 measured: one pageblock, 504 pages added),
 * and the pages left allocated there are movable fillers. */
static void movable_pageblocks_no_more_than_pairing_takes(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = {
		[CP_MIGRATE_MOVABLE] = { [3] = 1 },
	};
	uint64_t pageblocks[CP_MIGRATE_TYPES] = { [CP_MIGRATE_MOVABLE] = 100 };
	struct cp_start_layout l;
	struct zone z;
	uint64_t extra;
	uint32_t pfn, fillers = 0;

	(void)state;
	cp_start_layout_plan(blocks, pageblocks, ZONE_PAGES, &l);
	assert_int_equal(cp_start_layout_extra_pages(&l, &extra), 0);
	assert_int_equal(extra, 504);
	zone_init(&z);
	assert_int_equal(cp_start_layout_apply(&z.m, &z.b, 0, &l), 0);
	for (pfn = 0; pfn < ZONE_PAGES; pfn++)
		fillers += cp_mem_movable_filler(&z.m, pfn);
	assert_int_equal(fillers, 504);
	zone_release(&z);
}

/* A type's pageblocks free whole (blocks of order 9 and 10) hold no
 * fragments: 5 measured, two order-10 blocks (4 pageblocks) -> the
 * fragments get 1. Scaled: fragments and pageblocks alike (8 order-8
 * blocks, 2048 pages, 8 pageblocks into room for 1024: 4 and 4). */
static void plan_counts_only_the_pageblocks_of_fragments(void **state)
{
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = {
		[CP_MIGRATE_UNMOVABLE] = { [0] = 1, [10] = 2 },
		[CP_MIGRATE_RECLAIMABLE] = { [8] = 8 },
	};
	uint64_t pageblocks[CP_MIGRATE_TYPES] = {
		[CP_MIGRATE_UNMOVABLE] = 5,
		[CP_MIGRATE_RECLAIMABLE] = 8,
	};
	struct cp_start_layout l;

	(void)state;
	cp_start_layout_plan(blocks, pageblocks, 1 << 20, &l);
	assert_int_equal(l.pageblocks[CP_MIGRATE_UNMOVABLE], 1);
	assert_int_equal(l.pageblocks[CP_MIGRATE_RECLAIMABLE], 8);
	assert_int_equal(l.pageblocks[CP_MIGRATE_MOVABLE], 0);
	blocks[CP_MIGRATE_UNMOVABLE][0] = 0;
	cp_start_layout_plan(blocks, pageblocks, 1024, &l);
	assert_int_equal(l.frag[CP_MIGRATE_RECLAIMABLE][8], 4);
	assert_int_equal(l.pageblocks[CP_MIGRATE_RECLAIMABLE], 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(measured_pageblock_holds_a_chain_of_fragments),
		cmocka_unit_test(fragments_spread_over_the_measured_pageblocks),
		cmocka_unit_test(reserve_pages_are_of_the_pageblocks_type),
		cmocka_unit_test(order0_fragments_keep_their_buddies_allocated),
		cmocka_unit_test(too_few_measured_pageblocks_take_more),
		cmocka_unit_test(movable_pageblocks_no_more_than_pairing_takes),
		cmocka_unit_test(plan_counts_only_the_pageblocks_of_fragments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
