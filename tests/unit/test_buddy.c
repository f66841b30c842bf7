/*
 * test_buddy.c - the buddy allocator of one zone: expand() on allocation,
 * __free_one_page() merging, fallback and pageblock stealing
 * (__rmqueue_fallback, steal_suitable_fallback), boost_watermark, the
 * high-order part of __zone_watermark_ok, split_page, bad input, the
 * 4.11 rules, determinism and a randomized run against cp_buddy_check().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "core/rng.h"
#include "model/buddy.h"

#define UNMOV CP_MIGRATE_UNMOVABLE
#define MOV CP_MIGRATE_MOVABLE
#define RECL CP_MIGRATE_RECLAIMABLE

static void zone_init(struct cp_buddy *b, uint32_t nr_pages)
{
	struct cp_buddy_params p = { .nr_pages = nr_pages };

	assert_int_equal(cp_buddy_init(b, &p, NULL), 0);
	assert_true(cp_buddy_check(b));
}

static uint32_t alloc_ok(struct cp_buddy *b, unsigned order, enum cp_migratetype mt,
			 unsigned flags)
{
	uint32_t pfn = CP_BUDDY_NONE;

	assert_int_equal(cp_buddy_alloc(b, order, mt, flags, &pfn), 0);
	assert_true(cp_buddy_check(b));
	return pfn;
}

static void free_ok(struct cp_buddy *b, uint32_t pfn, unsigned order)
{
	assert_int_equal(cp_buddy_free(b, pfn, order, NULL), 0);
	assert_true(cp_buddy_check(b));
}

static uint64_t blocks_of_order(const struct cp_buddy *b, unsigned order)
{
	return b->nr_free[order];
}

/* memblock_free_all: a fresh 1024-page zone is one order-10 block on the
 * MOVABLE list; 1000 pages are 512 + 256 + 128 + 64 + 32 + 8, each
 * aligned to its size (0, 512, 768, 896, 960, 992). */
static void boot_frees_zone_in_max_order_aligned_blocks(void **state)
{
	struct cp_buddy b;
	static const uint32_t pfn[] = { 0, 512, 768, 896, 960, 992 };
	static const int order[] = { 9, 8, 7, 6, 5, 3 };
	unsigned i;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 10, MOV), 1);
	assert_int_equal(b.nr_free_pages, 1024);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 0), MOV);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1023), MOV);
	cp_buddy_release(&b);

	zone_init(&b, 1000);
	assert_int_equal(b.nr_pageblocks, 2);
	for (i = 0; i < 6; i++)
		assert_int_equal(cp_buddy_free_block_order(&b, pfn[i]), order[i]);
	assert_int_equal(b.nr_free_pages, 1000);
	cp_buddy_release(&b);
}

/* Reserved ranges start allocated: reserving pfns 0-2 of 1024 leaves
 * free 3 (order 0), 4 (order 2), 8 (3), ..., 512 (9): 1021 pages; giving
 * pfn 0 back (free_reserved_page) cannot merge with the reserved pfn 1. */
static void boot_keeps_memblock_reserved_ranges_allocated(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_range r = { 0, 3 };
	struct cp_buddy_params p = { .nr_pages = 1024, .reserved = &r, .nr_reserved = 1 };
	unsigned o;

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_true(cp_buddy_check(&b));
	assert_int_equal(b.nr_free_pages, 1021);
	assert_int_equal(b.nr_allocated_pages, 3);
	assert_int_equal(b.managed_pages, 1021);
	assert_int_equal(cp_buddy_free_block_order(&b, 3), 0);
	for (o = 2; o <= 9; o++)
		assert_int_equal(cp_buddy_free_block_order(&b, 1u << o), (int)o);
	free_ok(&b, 0, 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 0), 0);
	assert_int_equal(b.nr_free_pages, 1022);
	cp_buddy_release(&b);
}

/* 6.1 frees boot memory to the list tail (FPI_TO_TAIL), so pfn 0 comes
 * first; 4.11 adds to the head, so the last block freed (1024) does. */
static void boot_free_to_tail_in_6_1_to_head_in_4_11(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params p = { .nr_pages = 2048 };

	(void)state;
	zone_init(&b, 2048);
	assert_int_equal(alloc_ok(&b, 10, MOV, 0), 0);
	cp_buddy_release(&b);

	p.kernel_4_11 = true;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(alloc_ok(&b, 10, MOV, 0), 1024);
	cp_buddy_release(&b);
}

/* __rmqueue_smallest + expand: order 0 from one order-10 block at pfn 0
 * returns pfn 0 and lists the upper halves 512 (order 9), 256 (8), ...,
 * 1 (0): one block of each order 0-9, 1023 pages free. */
static void expand_splits_order10_into_one_block_of_each_lower_order(void **state)
{
	struct cp_buddy b;
	unsigned o;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 0);
	for (o = 0; o <= 9; o++) {
		assert_int_equal(blocks_of_order(&b, o), 1);
		assert_int_equal(cp_buddy_free_block_order(&b, 1u << o), (int)o);
		assert_int_equal(cp_buddy_nr_free_blocks(&b, o, MOV), 1);
	}
	assert_int_equal(blocks_of_order(&b, 10), 0);
	assert_int_equal(b.nr_free_pages, 1023);
	assert_int_equal(b.nr_allocated_pages, 1);
	assert_int_equal(b.nr_extfrag, 0);
	cp_buddy_release(&b);
}

/* __rmqueue_smallest takes the smallest order that has a block: after
 * order 0 at pfn 0 (free: 1/o0, 2/o1, 4/o2, ...) an order-1 request
 * takes pfn 2 as is, not a piece of a larger block. */
static void rmqueue_smallest_uses_smallest_sufficient_order(void **state)
{
	struct cp_buddy b;

	(void)state;
	zone_init(&b, 1024);
	alloc_ok(&b, 0, MOV, 0);
	assert_int_equal(alloc_ok(&b, 1, MOV, 0), 2);
	assert_int_equal(blocks_of_order(&b, 1), 0);
	assert_int_equal(blocks_of_order(&b, 2), 1);
	assert_int_equal(b.nr_free_pages, 1024 - 1 - 2);
	cp_buddy_release(&b);
}

/* __free_one_page: freeing the only allocated page merges 0+1, 0+2,
 * 0+4, ..., 0+512: one order-10 block again, nothing else free. */
static void free_one_page_merges_back_to_order10(void **state)
{
	struct cp_buddy b;
	unsigned o;

	(void)state;
	zone_init(&b, 1024);
	free_ok(&b, alloc_ok(&b, 0, MOV, 0), 0);
	for (o = 0; o < 10; o++)
		assert_int_equal(blocks_of_order(&b, o), 0);
	assert_int_equal(blocks_of_order(&b, 10), 1);
	assert_int_equal(cp_buddy_free_block_order(&b, 0), 10);
	assert_int_equal(b.nr_free_pages, 1024);
	assert_int_equal(b.nr_allocated_pages, 0);
	cp_buddy_release(&b);
}

/* Buddy of pfn at order o is pfn ^ 2^o. Four order-0 allocations take
 * pfns 0, 1, 2, 3 (the 3rd splits 2/o1, leaving 3). Freeing 1 and 2
 * (buddies 0 and 3, both allocated) merges nothing: two order-0 blocks.
 * Freeing 0 merges with 1 into 0/o1, whose buddy 2 is order 0, not 1:
 * stop. Freeing 3 merges 2+3, then 0/o1, then 4/o2 ... up to order 10. */
static void free_one_page_merges_buddies_not_neighbours(void **state)
{
	struct cp_buddy b;
	unsigned i;

	(void)state;
	zone_init(&b, 1024);
	for (i = 0; i < 4; i++)
		assert_int_equal(alloc_ok(&b, 0, MOV, 0), i);
	free_ok(&b, 1, 0);
	free_ok(&b, 2, 0);
	assert_int_equal(blocks_of_order(&b, 0), 2);
	assert_int_equal(cp_buddy_free_block_order(&b, 1), 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 2), 0);

	free_ok(&b, 0, 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 0), 1);
	assert_int_equal(cp_buddy_free_block_order(&b, 2), 0);
	assert_int_equal(blocks_of_order(&b, 0), 1);
	assert_int_equal(blocks_of_order(&b, 1), 1);

	free_ok(&b, 3, 0);
	assert_int_equal(blocks_of_order(&b, 10), 1);
	assert_int_equal(b.nr_free_pages, 1024);
	cp_buddy_release(&b);
}

/* buddy_merge_likely: a merged block whose next-larger block's buddy is
 * free goes to the list tail, so it is used last and can merge further.
 * 16 order-0 allocations take pfns 0..15. Freeing 10, 11 gives 10/o1
 * (buddy 8/o1 allocated; the higher block 8/o2's buddy 12/o2 allocated):
 * head. Freeing 4..7 gives 4/o2 (its buddy 0/o2 allocated). Freeing 0, 1
 * gives 0/o1 (buddy 2/o1 allocated), and the higher block 0/o2 has the
 * free buddy 4/o2: tail. The order-1 list is [10, 0]. */
static void free_one_page_puts_likely_merge_at_list_tail(void **state)
{
	struct cp_buddy b;
	unsigned i;

	(void)state;
	zone_init(&b, 1024);
	for (i = 0; i < 16; i++)
		assert_int_equal(alloc_ok(&b, 0, MOV, 0), i);
	free_ok(&b, 10, 0);
	free_ok(&b, 11, 0);
	assert_int_equal(b.free_area[1][MOV].head, 10);
	for (i = 4; i < 8; i++)
		free_ok(&b, i, 0);
	free_ok(&b, 0, 0);
	free_ok(&b, 1, 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 0), 1);
	assert_int_equal(b.free_area[1][MOV].head, 10);
	assert_int_equal(b.free_area[1][MOV].tail, 0);
	/* So the next order-1 allocation takes 10, keeping 0 to merge. */
	assert_int_equal(alloc_ok(&b, 1, MOV, 0), 10);
	cp_buddy_release(&b);
}

/* Make a 1024-page zone whose free pages are all in UNMOVABLE pageblock 0:
 * UNMOVABLE order 0 steals the order-10 block (order >= pageblock_order:
 * change_pageblock_range makes both pageblocks UNMOVABLE), takes pfn 0;
 * UNMOVABLE order 9 then takes 512. Free: 1..511 (orders 0-8), 511 pages;
 * one fallback so far, at order 10 (not fragmenting). */
static void unmovable_pageblock0(struct cp_buddy *b)
{
	zone_init(b, 1024);
	cp_buddy_set_boost_cap(b, 1000, 15000);
	assert_int_equal(alloc_ok(b, 0, UNMOV, CP_BUDDY_ALLOC_KSWAPD), 0);
	assert_int_equal(cp_buddy_pageblock_migratetype(b, 0), UNMOV);
	assert_int_equal(cp_buddy_pageblock_migratetype(b, 512), UNMOV);
	assert_int_equal(alloc_ok(b, 9, UNMOV, 0), 512);
	assert_int_equal(b->nr_extfrag, 1);
	assert_int_equal(b->nr_extfrag_fragmenting, 0);
	assert_int_equal(b->nr_free_pages, 511);
}

/* find_suitable_fallback from the largest order: a MOVABLE order-4
 * request sees UNMOVABLE 256/o8 first; can_steal_fallback(8): 8 >= 9/2.
 * move_freepages_block moves all 511 free pages of pageblock 0 (movable
 * allocated: 0; pfn 0 is UNMOVABLE), 511 >= 256: the pageblock becomes
 * MOVABLE; __rmqueue_smallest then takes the moved 16/o4. */
static void rmqueue_fallback_movable_claims_pageblock_when_half_free(void **state)
{
	struct cp_buddy b;
	unsigned o;

	(void)state;
	unmovable_pageblock0(&b);
	assert_int_equal(alloc_ok(&b, 4, MOV, 0), 16);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 0), MOV);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 512), UNMOV);
	for (o = 0; o < 9; o++)
		assert_int_equal(cp_buddy_nr_free_blocks(&b, o, UNMOV), 0);
	assert_int_equal(b.nr_extfrag, 2);
	assert_int_equal(b.nr_extfrag_fragmenting, 1); /* o8 < pageblock_order */
	assert_int_equal(b.nr_free_pages, 511 - 16);
	cp_buddy_release(&b);
}

/* boost_watermark skips zones smaller than four pageblocks: the zone
 * above (1024 pages < 4 * 512) fell back below pageblock_order with
 * ALLOC_KSWAPD and a cap of 1500, yet no boost. */
static void boost_watermark_skipped_in_zone_under_four_pageblocks(void **state)
{
	struct cp_buddy b;

	(void)state;
	unmovable_pageblock0(&b);
	alloc_ok(&b, 4, MOV, CP_BUDDY_ALLOC_KSWAPD);
	assert_int_equal(b.nr_extfrag_fragmenting, 1);
	assert_int_equal(b.nr_boost, 0);
	assert_int_equal(b.watermark_boost, 0);
	assert_false(cp_buddy_test_and_clear_boosted(&b));
	cp_buddy_release(&b);
}

/* UNMOVABLE pageblock 0 with only 1/o0, 2/o1, 4/o2, 8/o3 free (orders
 * 4-9 allocated UNMOVABLE at 16, 32, ..., 512, and pfn 0). A MOVABLE
 * order-0 request: largest first is 8/o3, can_steal_fallback(3, MOVABLE)
 * false, so find_smallest takes 1/o0; only that page moves; pageblock 0
 * stays UNMOVABLE; 2/o1, 4/o2, 8/o3 stay UNMOVABLE. */
static void rmqueue_fallback_movable_that_cannot_steal_takes_smallest(void **state)
{
	struct cp_buddy b;
	unsigned o;

	(void)state;
	unmovable_pageblock0(&b);
	for (o = 8; o >= 4; o--)
		assert_int_equal(alloc_ok(&b, o, UNMOV, 0), 1u << o);
	assert_int_equal(b.nr_free_pages, 15);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 0), UNMOV);
	for (o = 1; o <= 3; o++)
		assert_int_equal(cp_buddy_nr_free_blocks(&b, o, UNMOV), 1);
	assert_int_equal(b.nr_extfrag, 2);
	cp_buddy_release(&b);
}

/* The same zone under 4.11: no find_smallest; the largest block, 8/o3,
 * is taken (can_steal false: not moved, pageblock kept) and expand()
 * lists 12/o2, 10/o1, 9/o0 as MOVABLE; 1/o0, 2/o1, 4/o2 stay UNMOVABLE. */
static void rmqueue_fallback_4_11_takes_largest_block(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params p = { .nr_pages = 1024, .kernel_4_11 = true };
	unsigned o;

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	/* 4.11: boot blocks at the head; one order-10 block, same as 6.1 */
	assert_int_equal(alloc_ok(&b, 0, UNMOV, 0), 0);
	for (o = 9; o >= 4; o--)
		assert_int_equal(alloc_ok(&b, o, UNMOV, 0), 1u << o);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 8);
	assert_int_equal(cp_buddy_free_block_order(&b, 12), 2);
	assert_int_equal(cp_buddy_free_block_order(&b, 10), 1);
	assert_int_equal(cp_buddy_free_block_order(&b, 9), 0);
	for (o = 0; o <= 2; o++) {
		assert_int_equal(cp_buddy_nr_free_blocks(&b, o, MOV), 1);
		assert_int_equal(cp_buddy_nr_free_blocks(&b, o, UNMOV), 1);
	}
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 0), UNMOV);
	assert_int_equal(b.nr_extfrag, 2);
	assert_int_equal(b.nr_boost, 0);
	cp_buddy_release(&b);
}

/* 4.11 move_freepages() puts moved blocks at the list head (the tail
 * since 5.10, 293ffa5ebb9c). 4.11 zone of 1024 pages: UNMOVABLE 0/o0
 * (whole zone UNMOVABLE), 512/o9, 1/o0, 2/o0 (splitting 2/o1, 3 left);
 * freeing 1 lists it at the head: UNMOVABLE order 0 = [1, 3]. MOVABLE
 * order 8 steals 256/o8 (can steal: 8 >= 4) and moves pageblock 0's free
 * blocks in pfn order, each to the head: MOVABLE order 0 = [3, 1]; 510
 * free pages >= 256: claimed. The next MOVABLE order 0 takes 3. */
static void move_freepages_4_11_moves_blocks_to_list_head(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params p = { .nr_pages = 1024, .kernel_4_11 = true };

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(alloc_ok(&b, 0, UNMOV, 0), 0);
	assert_int_equal(alloc_ok(&b, 9, UNMOV, 0), 512);
	assert_int_equal(alloc_ok(&b, 0, UNMOV, 0), 1);
	assert_int_equal(alloc_ok(&b, 0, UNMOV, 0), 2);
	free_ok(&b, 1, 0);
	assert_int_equal(b.free_area[0][UNMOV].head, 1);
	assert_int_equal(alloc_ok(&b, 8, MOV, 0), 256);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 0), MOV);
	assert_int_equal(b.free_area[0][MOV].head, 3);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 3);
	cp_buddy_release(&b);
}

/* A 2048-page zone (4 pageblocks) with MOVABLE allocations 0/o10,
 * 1024/o9, 1536/o0: pageblock 3 (1536-2047) has 511 pages free
 * (1537/o0 ... 1792/o8), all MOVABLE. Boost cap mult_frac(1000, 15000,
 * 10000) = 1500. */
static void movable_pageblock3(struct cp_buddy *b)
{
	zone_init(b, 2048);
	cp_buddy_set_boost_cap(b, 1000, 15000);
	assert_int_equal(b->boost_cap_pages, 1500);
	assert_int_equal(alloc_ok(b, 10, MOV, 0), 0);
	assert_int_equal(alloc_ok(b, 9, MOV, 0), 1024);
	assert_int_equal(alloc_ok(b, 0, MOV, 0), 1536);
	assert_int_equal(b->nr_free_pages, 511);
}

/* A RECLAIMABLE order-0 request: no RECLAIMABLE or UNMOVABLE block, so
 * MOVABLE 1792/o8 (largest); can_steal_fallback: RECLAIMABLE always.
 * steal_suitable_fallback: o8 < 9, so boost_watermark: 2048 >= 4 * 512,
 * boost = min(0 + 512, max(512, 1500)) = 512, and ALLOC_KSWAPD sets
 * boosted. move_freepages_block: 511 free, 1 movable (1536);
 * alike = 512 - (511 + 1) = 0; 511 + 0 >= 256: pageblock 3 becomes
 * RECLAIMABLE. __rmqueue_smallest(RECLAIMABLE) takes 1537/o0. */
static void rmqueue_fallback_reclaimable_steals_mostly_free_movable_pageblock(void **state)
{
	struct cp_buddy b;

	(void)state;
	movable_pageblock3(&b);
	assert_int_equal(alloc_ok(&b, 0, RECL, CP_BUDDY_ALLOC_KSWAPD), 1537);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1024), MOV);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 8, RECL), 1);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 8, MOV), 0);
	assert_int_equal(b.nr_extfrag, 1);
	assert_int_equal(b.nr_extfrag_fragmenting, 1);
	assert_int_equal(b.nr_pageblocks_claimed, 1);
	assert_int_equal(b.nr_boost, 1);
	assert_int_equal(b.watermark_boost, 512);
	assert_true(cp_buddy_test_and_clear_boosted(&b));
	assert_false(cp_buddy_test_and_clear_boosted(&b));
	cp_buddy_release(&b);
}

/* The half rule: allocate 1536/o8 and 1792/o0 instead, so pageblock 3
 * has 255 free pages (1793/o0 ... 1920/o7) and 257 movable. RECLAIMABLE
 * order 0: 255 moved, alike = 512 - (255 + 257) = 0, 255 < 256: the
 * free blocks move to the RECLAIMABLE lists but the pageblock stays
 * MOVABLE. Without ALLOC_KSWAPD the boost is raised but not flagged. */
static void steal_suitable_fallback_keeps_pageblock_under_half_free(void **state)
{
	struct cp_buddy b;

	(void)state;
	zone_init(&b, 2048);
	cp_buddy_set_boost_cap(&b, 1000, 15000);
	alloc_ok(&b, 10, MOV, 0);
	alloc_ok(&b, 9, MOV, 0);
	assert_int_equal(alloc_ok(&b, 8, MOV, 0), 1536);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1792);
	assert_int_equal(b.nr_free_pages, 255);
	assert_int_equal(alloc_ok(&b, 0, RECL, 0), 1793);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), MOV);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 7, RECL), 1);
	assert_int_equal(b.nr_pageblocks_claimed, 0);
	assert_int_equal(b.nr_boost, 1);
	assert_false(cp_buddy_test_and_clear_boosted(&b));
	/* Freed later, 1792 goes to its pageblock's list: MOVABLE. */
	free_ok(&b, 1792, 0);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 0, MOV), 1);
	cp_buddy_release(&b);
}

/* The half rule at its edge: with only 1536/o8 allocated, pageblock 3
 * has exactly 256 free pages (1792/o8) and 256 movable. RECLAIMABLE
 * order 0: alike = 512 - (256 + 256) = 0, 256 + 0 >= 256: claimed. */
static void steal_suitable_fallback_claims_pageblock_at_exactly_half_free(void **state)
{
	struct cp_buddy b;

	(void)state;
	zone_init(&b, 2048);
	alloc_ok(&b, 10, MOV, 0);
	alloc_ok(&b, 9, MOV, 0);
	assert_int_equal(alloc_ok(&b, 8, MOV, 0), 1536);
	assert_int_equal(b.nr_free_pages, 256);
	assert_int_equal(alloc_ok(&b, 0, RECL, 0), 1792);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
	assert_int_equal(b.nr_pageblocks_claimed, 1);
	cp_buddy_release(&b);
}

/* A RECLAIMABLE request stealing from a MOVABLE pageblock counts the
 * non-movable allocated pages as alike. Reserving pfns 1536-1835 (300
 * UNMOVABLE pages) leaves pageblock 3 with 212 free pages (1836/o2,
 * 1840/o4, 1856/o6, 1920/o7); after MOVABLE 0/o10 and 1024/o9 those are
 * all that is free. RECLAIMABLE order 0 falls back to 1920/o7: free 212,
 * movable 0, alike = 512 - 212 = 300; 212 + 300 >= 256: claimed (212
 * alone would not be). __rmqueue_smallest takes 1836/o2 split to 1836. */
static void steal_suitable_fallback_counts_unmovable_pages_alike_for_reclaimable(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_range r = { 1536, 300 };
	struct cp_buddy_params p = { .nr_pages = 2048, .reserved = &r, .nr_reserved = 1 };

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 1836), 2);
	assert_int_equal(cp_buddy_free_block_order(&b, 1920), 7);
	assert_int_equal(alloc_ok(&b, 10, MOV, 0), 0);
	assert_int_equal(alloc_ok(&b, 9, MOV, 0), 1024);
	assert_int_equal(b.nr_free_pages, 212);
	assert_int_equal(alloc_ok(&b, 0, RECL, 0), 1836);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 7, RECL), 1);
	cp_buddy_release(&b);
}

/* A MOVABLE request counts the pageblock's MOVABLE allocations as alike,
 * and an order-4 block may be stolen (can_steal_fallback: 4 >= 9 / 2).
 * A 1024-page zone filled with UNMOVABLE order-0 pages (both pageblocks
 * UNMOVABLE); round k frees pfns 16k..16k+15 (merging to 16k/o4, UNMOVABLE
 * list) and a MOVABLE order-4 request takes it: 16 free + 16k movable.
 * Rounds 0-14: at most 16 + 224 = 240 < 256, pageblock 0 stays UNMOVABLE;
 * round 15: 16 + 240 = 256: claimed for MOVABLE. */
static void steal_suitable_fallback_counts_movable_pages_alike_for_movable(void **state)
{
	struct cp_buddy b;
	uint32_t i, k;

	(void)state;
	zone_init(&b, 1024);
	for (i = 0; i < 1024; i++)
		alloc_ok(&b, 0, UNMOV, 0);
	for (k = 0; k < 16; k++) {
		for (i = 16 * k; i < 16 * k + 16; i++)
			free_ok(&b, i, 0);
		assert_int_equal(cp_buddy_nr_free_blocks(&b, 4, UNMOV), 1);
		assert_int_equal(alloc_ok(&b, 4, MOV, 0), 16 * k);
		assert_int_equal(cp_buddy_pageblock_migratetype(&b, 0), k < 15 ? UNMOV : MOV);
	}
	assert_int_equal(b.nr_extfrag, 1 + 16);
	cp_buddy_release(&b);
}

/* fallbacks[]: at the same order, MOVABLE tries RECLAIMABLE before
 * UNMOVABLE, UNMOVABLE tries RECLAIMABLE before MOVABLE, RECLAIMABLE
 * tries UNMOVABLE before MOVABLE. Each case on a fresh 2048-page zone:
 * an order-0 request of type X steals 0/o10 (pageblocks 0-1 become X,
 * free 1..1023 of type X, 512/o9 the largest), an order-9 request of
 * type Y takes 1024 from 1024/o10 (1536/o9 left as Y); then an order-9
 * request of type Z sees X and Y blocks at order 9 and takes 512 if X
 * comes first in fallbacks[Z], 1536 otherwise. */
static void fallbacks_table_order_per_migratetype(void **state)
{
	static const enum cp_migratetype cases[][3] = {
		/* X (first choice of Z), Y, Z */
		{ RECL, UNMOV, MOV },
		{ RECL, MOV, UNMOV },
		{ UNMOV, MOV, RECL },
	};
	unsigned c;

	(void)state;
	for (c = 0; c < 3; c++) {
		struct cp_buddy b;

		zone_init(&b, 2048);
		assert_int_equal(alloc_ok(&b, 0, cases[c][0], 0), 0);
		assert_int_equal(alloc_ok(&b, 9, cases[c][1], 0), 1024);
		assert_int_equal(cp_buddy_nr_free_blocks(&b, 9, cases[c][0]), 1);
		assert_int_equal(cp_buddy_nr_free_blocks(&b, 9, cases[c][1]), 1);
		assert_int_equal(alloc_ok(&b, 9, cases[c][2], 0), 512);
		cp_buddy_release(&b);
	}
}

/* boost_watermark adds a pageblock per fallback, capped at
 * max(512, cap): fill a 2048-page zone with UNMOVABLE order-0 pages (two
 * order-10 fallbacks: no boost), free 0, 2, 4 (not buddies), then three
 * MOVABLE order-0 requests each fall back to one UNMOVABLE page:
 * boost 512, 1024, min(1536, 1500) = 1500. */
static void boost_watermark_adds_pageblock_per_fallback_up_to_cap(void **state)
{
	struct cp_buddy b;
	uint32_t i;

	(void)state;
	zone_init(&b, 2048);
	cp_buddy_set_boost_cap(&b, 1000, 15000);
	for (i = 0; i < 2048; i++)
		alloc_ok(&b, 0, UNMOV, 0);
	assert_int_equal(b.nr_extfrag, 2);
	assert_int_equal(b.nr_boost, 0);
	free_ok(&b, 0, 0);
	free_ok(&b, 2, 0);
	free_ok(&b, 4, 0);
	alloc_ok(&b, 0, MOV, 0);
	assert_int_equal(b.watermark_boost, 512);
	alloc_ok(&b, 0, MOV, 0);
	assert_int_equal(b.watermark_boost, 1024);
	alloc_ok(&b, 0, MOV, 0);
	assert_int_equal(b.watermark_boost, 1500);
	assert_int_equal(b.nr_boost, 3);
	assert_int_equal(b.nr_extfrag, 5);
	cp_buddy_release(&b);
}

/* watermark_boost_factor 0 turns boosting off (boost_watermark returns
 * false), and mult_frac keeps precision: 12345 * 15000 / 10000 =
 * 18517 (18517.5 rounded down). */
static void boost_watermark_off_with_factor_zero(void **state)
{
	struct cp_buddy b;

	(void)state;
	zone_init(&b, 2048);
	cp_buddy_set_boost_cap(&b, 12345, 15000);
	assert_int_equal(b.boost_cap_pages, 18517);
	cp_buddy_set_boost_cap(&b, 1000, 0);
	alloc_ok(&b, 10, MOV, 0);
	alloc_ok(&b, 9, MOV, 0);
	alloc_ok(&b, 0, MOV, 0);
	alloc_ok(&b, 0, RECL, CP_BUDDY_ALLOC_KSWAPD);
	assert_int_equal(b.nr_extfrag_fragmenting, 1);
	assert_int_equal(b.nr_boost, 0);
	assert_int_equal(b.watermark_boost, 0);
	assert_false(cp_buddy_test_and_clear_boosted(&b));
	cp_buddy_release(&b);
}

/* ALLOC_NOFRAGMENT: below pageblock_order the fallback only looks at
 * orders >= 9. In the zone of rmqueue_fallback_movable_that_cannot_...
 * (UNMOVABLE 1/o0 ... 8/o3 free, nothing >= 9), MOVABLE order 0 fails
 * with it and succeeds without it (get_page_from_freelist's retry). */
static void alloc_nofragment_refuses_fallback_below_pageblock_order(void **state)
{
	struct cp_buddy b;
	uint32_t pfn = 7;
	unsigned o;

	(void)state;
	unmovable_pageblock0(&b);
	for (o = 8; o >= 4; o--)
		alloc_ok(&b, o, UNMOV, 0);
	assert_int_equal(cp_buddy_alloc(&b, 0, MOV, CP_BUDDY_ALLOC_NOFRAGMENT, &pfn), -CP_ENOSPC);
	assert_int_equal(pfn, 7);
	assert_int_equal(b.nr_extfrag, 1);
	assert_int_equal(b.nr_free_pages, 15);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1);
	cp_buddy_release(&b);
}

/* No block of the order anywhere: -CP_ENOSPC, nothing changes. After an
 * order-9 allocation a 1024-page zone holds only 512/o9: order 10 fails
 * for MOVABLE and (no fallback block either) for UNMOVABLE. */
static void rmqueue_fails_when_no_block_is_large_enough(void **state)
{
	struct cp_buddy b;
	uint32_t pfn = 7;

	(void)state;
	zone_init(&b, 1024);
	alloc_ok(&b, 9, MOV, 0);
	assert_int_equal(cp_buddy_alloc(&b, 10, MOV, 0, &pfn), -CP_ENOSPC);
	assert_int_equal(cp_buddy_alloc(&b, 10, UNMOV, 0, &pfn), -CP_ENOSPC);
	assert_int_equal(pfn, 7);
	assert_int_equal(b.nr_free_pages, 512);
	assert_int_equal(b.nr_extfrag, 0);
	assert_true(cp_buddy_check(&b));
	cp_buddy_release(&b);
}

/* __zone_watermark_ok for order 9: a 2048-page zone fully allocated as
 * order-0 pages, then the even pfns 0..1198 freed: 600 free pages, all
 * order 0 (each buddy, the odd pfn, allocated). 600 - 511 = 89 > 50 but
 * no block of order >= 9: fails. Freeing the odd pfns 1..511 (256 more)
 * merges 0..511 into one order-9 block: 856 - 511 = 345 > 50, passes. */
static void zone_watermark_ok_high_order_needs_a_free_block(void **state)
{
	struct cp_buddy b;
	uint32_t i;

	(void)state;
	zone_init(&b, 2048);
	for (i = 0; i < 2048; i++)
		alloc_ok(&b, 0, MOV, 0);
	for (i = 0; i < 1200; i += 2)
		free_ok(&b, i, 0);
	assert_int_equal(b.nr_free_pages, 600);
	assert_int_equal(blocks_of_order(&b, 0), 600);
	assert_true(cp_buddy_watermark_ok(&b, 0, 50, (int64_t)b.nr_free_pages));
	assert_false(cp_buddy_has_free_block(&b, 1));
	assert_false(cp_buddy_has_free_block(&b, 9));
	assert_false(cp_buddy_watermark_ok(&b, 9, 50, (int64_t)b.nr_free_pages));

	for (i = 1; i < 512; i += 2)
		free_ok(&b, i, 0);
	assert_int_equal(b.nr_free_pages, 856);
	assert_int_equal(cp_buddy_free_block_order(&b, 0), 9);
	assert_true(cp_buddy_has_free_block(&b, 9));
	assert_false(cp_buddy_has_free_block(&b, 10));
	assert_true(cp_buddy_watermark_ok(&b, 9, 50, (int64_t)b.nr_free_pages));
	assert_false(cp_buddy_watermark_ok(&b, 10, 50, (int64_t)b.nr_free_pages));
	cp_buddy_release(&b);
}

/* The order-0 part: free - (2^order - 1) must be strictly above the mark
 * (the kernel returns false at free_pages <= min). 1024 free: order 0
 * passes at mark 1023, fails at 1024; order 9 subtracts 511: passes at
 * mark 512, fails at 513. */
static void zone_watermark_ok_fails_at_equality(void **state)
{
	struct cp_buddy b;

	(void)state;
	zone_init(&b, 1024);
	assert_true(cp_buddy_watermark_ok(&b, 0, 1023, 1024));
	assert_false(cp_buddy_watermark_ok(&b, 0, 1024, 1024));
	assert_true(cp_buddy_watermark_ok(&b, 9, 512, 1024));
	assert_false(cp_buddy_watermark_ok(&b, 9, 513, 1024));
	assert_false(cp_buddy_watermark_ok(&b, 0, 0, -5)); /* may go negative */
	assert_false(cp_buddy_watermark_ok(&b, 11, 0, 1024));
	cp_buddy_release(&b);
}

/* split_page: an order-2 block at pfn 0 becomes pages 0-3; the block can
 * no longer be freed at order 2, the pages one by one merge back. */
static void split_page_frees_order0_pages_one_by_one(void **state)
{
	struct cp_buddy b;
	uint32_t i;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(alloc_ok(&b, 2, MOV, 0), 0);
	assert_int_equal(cp_buddy_split_page(&b, 0, 2, NULL), 0);
	assert_true(cp_buddy_check(&b));
	assert_int_equal(cp_buddy_free(&b, 0, 2, NULL), -CP_EINVAL);
	for (i = 0; i < 3; i++)
		free_ok(&b, i, 0);
	assert_int_equal(b.nr_free_pages, 1023);
	free_ok(&b, 3, 0);
	assert_int_equal(blocks_of_order(&b, 10), 1);
	cp_buddy_release(&b);
}

/* join_pages, split_page's inverse: the split pages of an order-2 block
 * become one block again, freed whole at order 2 (the kernel frees a
 * folio at its order), and the zone is whole again. */
static void join_pages_makes_a_split_block_freeable_whole(void **state)
{
	struct cp_buddy b;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(alloc_ok(&b, 2, MOV, 0), 0);
	assert_int_equal(cp_buddy_split_page(&b, 0, 2, NULL), 0);
	assert_int_equal(cp_buddy_join_pages(&b, 0, 2, NULL), 0);
	assert_true(cp_buddy_check(&b));
	free_ok(&b, 0, 2);
	assert_int_equal(blocks_of_order(&b, 10), 1);
	cp_buddy_release(&b);
}

/* join_pages refuses a block that is not 2^order allocated order-0
 * pages: misaligned, too large, or with a page already freed; the zone
 * is unchanged. */
static void join_pages_refuses_what_is_not_a_split_block(void **state)
{
	struct cp_buddy b;
	struct cp_diag d;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(alloc_ok(&b, 2, MOV, 0), 0);
	assert_int_equal(cp_buddy_split_page(&b, 0, 2, NULL), 0);
	assert_int_equal(cp_buddy_join_pages(&b, 1, 1, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "pfn 1 does not start a block of order 1"));
	assert_int_equal(cp_buddy_join_pages(&b, 0, 11, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "order 11"));
	free_ok(&b, 3, 0);
	assert_int_equal(cp_buddy_join_pages(&b, 0, 2, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "pfn 3 is not an allocated order-0 page"));
	assert_true(cp_buddy_check(&b));
	assert_int_equal(b.nr_free_pages, 1021);
	cp_buddy_release(&b);
}

/* Bad input is refused with -CP_EINVAL and a message naming it; the zone
 * is unchanged. (Internal invariants - list links, tiling - are
 * CP_BUG_ON, as is cp_buddy_pageblock_migratetype out of range.) */
static void bad_input_is_refused_without_change(void **state)
{
	struct cp_buddy b;
	struct cp_diag d;
	uint32_t pfn = 7;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(cp_buddy_alloc(&b, 11, MOV, 0, &pfn), -CP_EINVAL);
	assert_int_equal(cp_buddy_alloc(&b, 0, CP_MIGRATE_TYPES, 0, &pfn), -CP_EINVAL);
	assert_int_equal(pfn, 7);
	assert_int_equal(alloc_ok(&b, 2, MOV, 0), 0);

	assert_int_equal(cp_buddy_free(&b, 1024, 0, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "pfn 1024 out of range"));
	assert_int_equal(cp_buddy_free(&b, 0, 11, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "order 11"));
	assert_int_equal(cp_buddy_free(&b, 4, 2, &d), -CP_EINVAL); /* free 4/o2 */
	assert_non_null(strstr(d.msg, "pfn 4 is already free"));
	assert_int_equal(cp_buddy_free(&b, 5, 0, &d), -CP_EINVAL); /* inside 4/o2 */
	assert_non_null(strstr(d.msg, "pfn 5 is not the first page"));
	assert_int_equal(cp_buddy_free(&b, 1, 0, &d), -CP_EINVAL); /* inside 0/o2 */
	assert_non_null(strstr(d.msg, "pfn 1"));
	assert_int_equal(cp_buddy_free(&b, 0, 1, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "pfn 0 was allocated at order 2, not 1"));
	assert_int_equal(cp_buddy_split_page(&b, 0, 3, &d), -CP_EINVAL);
	assert_int_equal(b.nr_free_pages, 1020);
	assert_true(cp_buddy_check(&b));

	free_ok(&b, 0, 2);
	assert_int_equal(cp_buddy_free(&b, 0, 10, &d), -CP_EINVAL); /* double free */
	assert_non_null(strstr(d.msg, "pfn 0 is already free"));
	assert_int_equal(b.nr_free_pages, 1024);
	cp_buddy_release(&b);
}

static void init_refuses_bad_zone_and_ranges(void **state)
{
	struct cp_buddy b;
	struct cp_diag d;
	struct cp_buddy_range r[2] = { { 10, 20 }, { 25, 5 } };
	struct cp_buddy_params p = { .nr_pages = 0 };

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "0 pages"));
	p.nr_pages = 1024;
	p.reserved = r;
	p.nr_reserved = 2;
	assert_int_equal(cp_buddy_init(&b, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "overlaps another at pfn 25"));
	r[1].start_pfn = 1020;
	assert_int_equal(cp_buddy_init(&b, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "range 1 (pfn 1020 + 5 pages) outside"));
	r[1].start_pfn = 1019;
	assert_int_equal(cp_buddy_init(&b, &p, &d), 0);
	assert_int_equal(b.nr_free_pages, 1024 - 25);
	assert_true(cp_buddy_check(&b));
	cp_buddy_release(&b);
}

static void init_fails_cleanly_without_host_memory(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params p = { .nr_pages = 1024 };
	long n;

	(void)state;
	for (n = 0; n < 4; n++) {
		cp_alloc_fail_after(n);
		assert_int_equal(cp_buddy_init(&b, &p, NULL), -CP_ENOMEM);
	}
	cp_alloc_fail_after(-1);
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	cp_buddy_release(&b);
}

struct held {
	uint32_t pfn;
	unsigned order;
};

/* One random step: allocate (orders 0-3 mostly, up to 10 rarely), free a
 * held block, or split one. Returns the new number of held blocks. */
static unsigned random_step(struct cp_buddy *b, struct cp_rng *r, struct held *h, unsigned n,
			    unsigned cap)
{
	uint64_t op = cp_rng_below(r, 10);

	if (n > 0 && (op < 4 || n == cap)) {
		unsigned i = (unsigned)cp_rng_below(r, n);

		assert_int_equal(cp_buddy_free(b, h[i].pfn, h[i].order, NULL), 0);
		h[i] = h[--n];
	} else if (n > 0 && op == 4 && h[n - 1].order > 0) {
		/* split the last held block into its order-0 pages */
		struct held last = h[--n];
		uint32_t i;

		assert_int_equal(cp_buddy_split_page(b, last.pfn, last.order, NULL), 0);
		for (i = 0; i < (1u << last.order) && n < cap; i++)
			h[n++] = (struct held){ last.pfn + i, 0 };
		for (; i < (1u << last.order); i++)
			assert_int_equal(cp_buddy_free(b, last.pfn + i, 0, NULL), 0);
	} else {
		unsigned order = cp_rng_below(r, 8) == 0 ? (unsigned)cp_rng_below(r, 11)
							 : (unsigned)cp_rng_below(r, 4);
		enum cp_migratetype mt = (enum cp_migratetype)cp_rng_below(r, CP_MIGRATE_TYPES);
		unsigned flags = (unsigned)cp_rng_below(r, 4);
		uint32_t pfn;
		int rc = cp_buddy_alloc(b, order, mt, flags, &pfn);

		if (rc == 0)
			h[n++] = (struct held){ pfn, order };
		else
			assert_int_equal(rc, -CP_ENOSPC);
	}
	return n;
}

/* Same sequence, same state: two zones driven by the same PRNG stream
 * end with identical page states, links, lists and counters. */
static void same_sequence_gives_same_state(void **state)
{
	struct cp_buddy a, c;
	struct cp_rng ra, rc;
	struct held ha[512], hc[512];
	unsigned na = 0, nc = 0, step;

	(void)state;
	zone_init(&a, 4096);
	zone_init(&c, 4096);
	cp_buddy_set_boost_cap(&a, 700, 15000);
	cp_buddy_set_boost_cap(&c, 700, 15000);
	cp_rng_init(&ra, 42, 7);
	cp_rng_init(&rc, 42, 7);
	for (step = 0; step < 3000; step++) {
		na = random_step(&a, &ra, ha, na, 512);
		nc = random_step(&c, &rc, hc, nc, 512);
	}
	assert_int_equal(na, nc);
	assert_memory_equal(ha, hc, na * sizeof(ha[0]));
	assert_memory_equal(a.state, c.state, a.nr_pages);
	assert_memory_equal(a.next, c.next, a.nr_pages * sizeof(uint32_t));
	assert_memory_equal(a.prev, c.prev, a.nr_pages * sizeof(uint32_t));
	assert_memory_equal(a.pageblock_mt, c.pageblock_mt, a.nr_pageblocks);
	assert_memory_equal(a.free_area, c.free_area, sizeof(a.free_area));
	assert_int_equal(a.nr_extfrag, c.nr_extfrag);
	assert_int_equal(a.watermark_boost, c.watermark_boost);
	assert_true(a.nr_extfrag > 0); /* the run did exercise fallback */
	cp_buddy_release(&a);
	cp_buddy_release(&c);
}

/* Random allocations, frees and splits on a 3000-page zone (a partial
 * last pageblock, a reserved range) keep every invariant after each
 * step; freeing everything but the reserve restores the boot layout:
 * 3000 - 40 free pages. Run for 6.1, 4.11 and 6.15+. */
static void run_random(bool kernel_4_11, bool claim_steal)
{
	struct cp_buddy b;
	struct cp_buddy_range r = { 1000, 40 };
	struct cp_buddy_params p = {
		.nr_pages = 3000, .reserved = &r, .nr_reserved = 1, .kernel_4_11 = kernel_4_11,
		.claim_steal = claim_steal,
	};
	struct cp_rng rng;
	struct held *h = cp_malloc(256 * sizeof(*h));
	unsigned n = 0, step;
	uint64_t held_pages;

	assert_non_null(h);
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	cp_buddy_set_boost_cap(&b, 300, 15000);
	cp_rng_init(&rng, 2026, kernel_4_11);
	for (step = 0; step < 20000; step++) {
		unsigned i;

		n = random_step(&b, &rng, h, n, 256);
		assert_true(cp_buddy_check(&b));
		for (i = 0, held_pages = 0; i < n; i++)
			held_pages += 1u << h[i].order;
		assert_int_equal(b.nr_allocated_pages, held_pages + 40);
	}
	assert_true(b.nr_extfrag > 0);
	while (n > 0) {
		n--;
		assert_int_equal(cp_buddy_free(&b, h[n].pfn, h[n].order, NULL), 0);
	}
	assert_true(cp_buddy_check(&b));
	assert_int_equal(b.nr_free_pages, 2960);
	/* Boot layout: 0/o9, 512/o8, 768/o7, 896/o6, 960/o5, 992/o3 before
	 * the reserve, then 1040/o4, 1056/o5, 1088/o6, 1152/o7, 1280/o8,
	 * 1536/o9, 2048/o9 (2048-2559: 1024-aligned but 2560-3071 is cut),
	 * 2560/o8, 2816/o7, 2944/o5, 2976/o4, 2992/o3. */
	assert_int_equal(cp_buddy_free_block_order(&b, 0), 9);
	assert_int_equal(cp_buddy_free_block_order(&b, 1040), 4);
	assert_int_equal(cp_buddy_free_block_order(&b, 2048), 9);
	assert_int_equal(cp_buddy_free_block_order(&b, 2992), 3);
	assert_int_equal(blocks_of_order(&b, 10), 0);
	assert_int_equal(blocks_of_order(&b, 9), 3);
	cp_buddy_release(&b);
	cp_free(h);
}

static void random_operations_keep_invariants_6_1(void **state)
{
	(void)state;
	run_random(false, false);
}

static void random_operations_keep_invariants_4_11(void **state)
{
	(void)state;
	run_random(true, false);
}

/* The same under the 6.15+ claim/steal rules: cp_buddy_check() then also
 * holds every free block to its pageblock's type (6.10 hygiene). */
static void random_operations_keep_invariants_claim_steal(void **state)
{
	(void)state;
	run_random(false, true);
}

/* set_pageblock_migratetype(): refused while the pageblock has a free
 * block (its pages would sit on the wrong list); once every page is
 * allocated the type changes and pages freed later go on the new type's
 * list. */
static void set_pageblock_migratetype_only_when_nothing_free(void **state)
{
	struct cp_buddy b;
	uint32_t pfn, i;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(cp_buddy_set_pageblock_migratetype(&b, 0, CP_MIGRATE_RECLAIMABLE),
			 -CP_EBUSY);
	pfn = alloc_ok(&b, 9, CP_MIGRATE_MOVABLE, 0);
	assert_int_equal(cp_buddy_split_page(&b, pfn, 9, NULL), 0);
	assert_int_equal(cp_buddy_set_pageblock_migratetype(&b, pfn, CP_MIGRATE_RECLAIMABLE), 0);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, pfn + 511), CP_MIGRATE_RECLAIMABLE);
	for (i = 0; i < 4; i++)
		free_ok(&b, pfn + i, 0);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 2, CP_MIGRATE_RECLAIMABLE), 1);
	assert_int_equal(cp_buddy_set_pageblock_migratetype(&b, 1024, CP_MIGRATE_MOVABLE),
			 -CP_EINVAL);
	cp_buddy_release(&b);
}

/* __isolate_free_page() + split_page(): in a 1024-page zone, allocate
 * pfn 0 at order 0 (expand leaves 1/1, 2/2, 4/4 ... 512/9 free); the
 * order-2 block at pfn 4 isolated becomes pages 4..7 allocated at order
 * 0: free pages 1023 - 4 = 1019, no order-2 block left; freeing all four
 * back merges them into the order-2 block again. */
static void isolate_free_block_takes_block_off_list_as_order0_pages(void **state)
{
	struct cp_buddy b;
	unsigned order;
	uint32_t i;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 4), 2);
	assert_int_equal(cp_buddy_isolate_free_block(&b, 4, NULL), 2);
	assert_true(cp_buddy_check(&b));
	assert_int_equal(b.nr_free_pages, 1019);
	assert_int_equal(blocks_of_order(&b, 2), 0);
	for (i = 4; i < 8; i++) {
		assert_int_equal(cp_buddy_page_kind(&b, i, &order), CP_BUDDY_PAGE_ALLOC);
		assert_int_equal(order, 0);
	}
	for (i = 4; i < 8; i++)
		free_ok(&b, i, 0);
	assert_int_equal(cp_buddy_free_block_order(&b, 4), 2);
	assert_int_equal(b.nr_free_pages, 1023);
	cp_buddy_release(&b);
}

/* Only the head of a free block can be isolated: an allocated page, a
 * page inside a free block and a pfn past the zone are refused and
 * nothing changes. */
static void isolate_free_block_refuses_non_free_head(void **state)
{
	struct cp_buddy b;
	struct cp_diag d = { 0 };
	unsigned order;

	(void)state;
	zone_init(&b, 1024);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 0);
	assert_int_equal(cp_buddy_isolate_free_block(&b, 0, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "pfn 0"));
	assert_int_equal(cp_buddy_isolate_free_block(&b, 5, NULL), -CP_EINVAL);
	assert_int_equal(cp_buddy_isolate_free_block(&b, 1024, NULL), -CP_EINVAL);
	assert_int_equal(cp_buddy_page_kind(&b, 5, &order), CP_BUDDY_PAGE_TAIL);
	assert_int_equal(b.nr_free_pages, 1023);
	assert_true(cp_buddy_check(&b));
	cp_buddy_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boot_frees_zone_in_max_order_aligned_blocks),
		cmocka_unit_test(set_pageblock_migratetype_only_when_nothing_free),
		cmocka_unit_test(isolate_free_block_takes_block_off_list_as_order0_pages),
		cmocka_unit_test(isolate_free_block_refuses_non_free_head),
		cmocka_unit_test(boot_keeps_memblock_reserved_ranges_allocated),
		cmocka_unit_test(boot_free_to_tail_in_6_1_to_head_in_4_11),
		cmocka_unit_test(expand_splits_order10_into_one_block_of_each_lower_order),
		cmocka_unit_test(rmqueue_smallest_uses_smallest_sufficient_order),
		cmocka_unit_test(free_one_page_merges_back_to_order10),
		cmocka_unit_test(free_one_page_merges_buddies_not_neighbours),
		cmocka_unit_test(free_one_page_puts_likely_merge_at_list_tail),
		cmocka_unit_test(rmqueue_fallback_movable_claims_pageblock_when_half_free),
		cmocka_unit_test(boost_watermark_skipped_in_zone_under_four_pageblocks),
		cmocka_unit_test(rmqueue_fallback_movable_that_cannot_steal_takes_smallest),
		cmocka_unit_test(rmqueue_fallback_4_11_takes_largest_block),
		cmocka_unit_test(move_freepages_4_11_moves_blocks_to_list_head),
		cmocka_unit_test(rmqueue_fallback_reclaimable_steals_mostly_free_movable_pageblock),
		cmocka_unit_test(steal_suitable_fallback_keeps_pageblock_under_half_free),
		cmocka_unit_test(steal_suitable_fallback_claims_pageblock_at_exactly_half_free),
		cmocka_unit_test(steal_suitable_fallback_counts_unmovable_pages_alike_for_reclaimable),
		cmocka_unit_test(steal_suitable_fallback_counts_movable_pages_alike_for_movable),
		cmocka_unit_test(fallbacks_table_order_per_migratetype),
		cmocka_unit_test(boost_watermark_adds_pageblock_per_fallback_up_to_cap),
		cmocka_unit_test(boost_watermark_off_with_factor_zero),
		cmocka_unit_test(alloc_nofragment_refuses_fallback_below_pageblock_order),
		cmocka_unit_test(rmqueue_fails_when_no_block_is_large_enough),
		cmocka_unit_test(zone_watermark_ok_high_order_needs_a_free_block),
		cmocka_unit_test(zone_watermark_ok_fails_at_equality),
		cmocka_unit_test(split_page_frees_order0_pages_one_by_one),
		cmocka_unit_test(join_pages_makes_a_split_block_freeable_whole),
		cmocka_unit_test(join_pages_refuses_what_is_not_a_split_block),
		cmocka_unit_test(bad_input_is_refused_without_change),
		cmocka_unit_test(init_refuses_bad_zone_and_ranges),
		cmocka_unit_test(init_fails_cleanly_without_host_memory),
		cmocka_unit_test(same_sequence_gives_same_state),
		cmocka_unit_test(random_operations_keep_invariants_6_1),
		cmocka_unit_test(random_operations_keep_invariants_4_11),
		cmocka_unit_test(random_operations_keep_invariants_claim_steal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
