/*
 * test_buddy_claim_steal.c - the 6.15+ fallback of buddy.c (claim_steal):
 * __rmqueue_claim / try_to_claim_block, __rmqueue_steal, the rmqueue
 * mode rmqueue_bulk keeps across a batch, and 6.10's merge fix-up, each
 * next to what the 6.1 rules do on the same zone. Arithmetic by hand
 * from mm/page_alloc.c as read in Debian's 6.12.117 (which carries the
 * 6.15 patches c2f6ea38fc1b and 90abee6d7895 as stable backports).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "model/buddy.h"

#define UNMOV CP_MIGRATE_UNMOVABLE
#define MOV CP_MIGRATE_MOVABLE
#define RECL CP_MIGRATE_RECLAIMABLE

static void zone_init(struct cp_buddy *b, uint32_t nr_pages, bool claim_steal)
{
	struct cp_buddy_params p = { .nr_pages = nr_pages, .claim_steal = claim_steal };

	assert_int_equal(cp_buddy_init(b, &p, NULL), 0);
	cp_buddy_set_boost_cap(b, 1000, 15000); /* cap 1500 */
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

/*
 * A 2048-page zone (4 pageblocks): MOVABLE 0/o10 and 1024/o9 leave
 * pageblock 3 as one free MOVABLE o9 block. A RECLAIMABLE order-0
 * request has no own block; the claim stage starts at order 10, finds
 * MOVABLE 1536/o9 (>= pageblock_order: always claimed, no boost),
 * retypes pageblock 3 and expands onto the RECLAIMABLE lists: 1536 is
 * taken, 1537/o0 1538/o1 1540/o2 1544/o3 1552/o4 1568/o5 1600/o6
 * 1664/o7 1792/o8 are free RECLAIMABLE. One extfrag event, not
 * fragmenting. (6.1 takes the same path: steal_suitable_fallback.)
 */
static void reclaimable_pageblock3(struct cp_buddy *b, bool claim_steal)
{
	zone_init(b, 2048, claim_steal);
	assert_int_equal(alloc_ok(b, 10, MOV, 0), 0);
	assert_int_equal(alloc_ok(b, 9, MOV, 0), 1024);
	assert_int_equal(alloc_ok(b, 0, RECL, 0), 1536);
	assert_int_equal(cp_buddy_pageblock_migratetype(b, 1536), RECL);
	assert_int_equal(b->nr_extfrag, 1);
	assert_int_equal(b->nr_extfrag_fragmenting, 0);
	assert_int_equal(b->nr_boost, 0);
	assert_int_equal(b->nr_free_pages, 511);
}

/* ... then RECLAIMABLE o8, o7, o6, o5 (1792, 1664, 1600, 1568) come from
 * their own lists, leaving 1537/o0 1538/o1 1540/o2 1544/o3 1552/o4 free:
 * 31 pages, no MOVABLE page allocated in the pageblock. */
static void reclaimable_fragments(struct cp_buddy *b, bool claim_steal)
{
	unsigned o;

	reclaimable_pageblock3(b, claim_steal);
	for (o = 8; o >= 5; o--)
		alloc_ok(b, o, RECL, 0);
	assert_int_equal(b->nr_free_pages, 31);
	assert_int_equal(b->nr_extfrag, 1);
}

/* __rmqueue_steal: with only RECLAIMABLE 1537/o0 1538/o1 1540/o2 1544/o3
 * free (1552/o4 taken too), MOVABLE order 0: claim finds nothing at
 * orders 10..4 and stops at order 3 (can_steal_fallback(3, MOVABLE) is
 * false); steal takes the smallest block, 1537/o0. The next request
 * takes 1538 out of 1538/o1 and 1539/o0 goes back to the RECLAIMABLE
 * list; the third takes 1539 from there. Three requests, three events,
 * no boost, the pageblock stays RECLAIMABLE. */
static void steal_takes_smallest_block_and_leaves_the_rest_its_type(void **state)
{
	struct cp_buddy b;

	(void)state;
	reclaimable_fragments(&b, true);
	alloc_ok(&b, 4, RECL, 0);
	assert_int_equal(alloc_ok(&b, 0, MOV, CP_BUDDY_ALLOC_KSWAPD), 1537);
	assert_int_equal(alloc_ok(&b, 0, MOV, CP_BUDDY_ALLOC_KSWAPD), 1538);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 0, RECL), 1); /* 1539 */
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 0, MOV), 0);
	assert_int_equal(alloc_ok(&b, 0, MOV, CP_BUDDY_ALLOC_KSWAPD), 1539);
	assert_int_equal(b.nr_extfrag, 1 + 3);
	assert_int_equal(b.nr_extfrag_fragmenting, 3);
	assert_int_equal(b.nr_steal, 3);
	assert_int_equal(b.nr_boost, 0);
	assert_int_equal(b.watermark_boost, 0);
	assert_false(cp_buddy_test_and_clear_boosted(&b));
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
	cp_buddy_release(&b);
}

/* The same three requests under 6.1: the first falls back to 1537/o0
 * (find_smallest) and moves that block to the MOVABLE list, boosting
 * the watermark; the second moves 1538/o1 and expand() lists 1539 as
 * MOVABLE, boosting again; the third is served from the MOVABLE list
 * with no event. Two events, two boosts. */
static void fallback_6_1_moves_the_block_and_serves_the_rest_natively(void **state)
{
	struct cp_buddy b;

	(void)state;
	reclaimable_fragments(&b, false);
	alloc_ok(&b, 4, RECL, 0);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1537);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1538);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 0, MOV), 1); /* 1539 */
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1539);
	assert_int_equal(b.nr_extfrag, 1 + 2);
	assert_int_equal(b.nr_boost, 2);
	assert_int_equal(b.nr_steal, 0);
	cp_buddy_release(&b);
}

/* try_to_claim_block boosts before it decides: with 1552/o4 still free,
 * MOVABLE order 0 tries it (order 4 >= pageblock_order / 2): boost 512,
 * and ZONE_BOOSTED_WATERMARK with ALLOC_KSWAPD; the pageblock has 31
 * free pages and no movable one, 31 < 256: no claim, nothing moves. The
 * claim stage stops at order 3; the steal takes 1537/o0. One boost, one
 * event for the request, 1552/o4 still on the RECLAIMABLE list. */
static void failed_claim_still_boosts_then_steals(void **state)
{
	struct cp_buddy b;

	(void)state;
	reclaimable_fragments(&b, true);
	assert_int_equal(alloc_ok(&b, 0, MOV, CP_BUDDY_ALLOC_KSWAPD), 1537);
	assert_int_equal(b.nr_boost, 1);
	assert_int_equal(b.watermark_boost, 512);
	assert_true(cp_buddy_test_and_clear_boosted(&b));
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 4, RECL), 1);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
	assert_int_equal(b.nr_pageblocks_claimed, 1); /* the set-up's o9 claim only */
	assert_int_equal(b.nr_extfrag, 2);
	assert_int_equal(b.nr_steal, 1);
	cp_buddy_release(&b);
}

/* A claim that succeeds: in reclaimable_pageblock3's zone (511 free
 * RECLAIMABLE pages in pageblock 3), MOVABLE order 0 tries the largest
 * fallback block, 1792/o8: boost 512; 511 free + 0 alike >= 256: every
 * free block moves to the MOVABLE lists and the pageblock becomes
 * MOVABLE; __rmqueue_smallest(MOVABLE) takes 1537. The mode returns to
 * NORMAL (the own lists were refilled). */
static void claim_retypes_a_half_free_pageblock_and_mode_returns_to_normal(void **state)
{
	struct cp_buddy b;
	enum cp_buddy_rmqueue_mode mode = CP_RMQUEUE_CLAIM;
	uint32_t pfn = 0;

	(void)state;
	reclaimable_pageblock3(&b, true);
	assert_int_equal(cp_buddy_alloc_mode(&b, 0, MOV, 0, &mode, &pfn), 0);
	assert_int_equal(pfn, 1537);
	assert_int_equal(mode, CP_RMQUEUE_NORMAL);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), MOV);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 8, MOV), 1);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 8, RECL), 0);
	assert_int_equal(b.nr_pageblocks_claimed, 2);
	assert_int_equal(b.nr_boost, 1);
	assert_int_equal(b.nr_extfrag, 2);
	assert_int_equal(b.nr_extfrag_fragmenting, 1);
	assert_int_equal(b.nr_steal, 0);
	assert_true(cp_buddy_check(&b));
	cp_buddy_release(&b);
}

/* The tracepoint's change_ownership (the page's pageblock is of the
 * request's type after the fallback): the RECLAIMABLE claim of MOVABLE
 * 1536/o9 counts one claim, not movable; the MOVABLE claim of that
 * pageblock back (claim_retypes_a_half_free_pageblock...) a second, a
 * movable one; a steal (steal_takes_smallest_block...) none: its
 * pageblock stays RECLAIMABLE. Under 6.1, the MOVABLE fallbacks that move
 * 1537/o0 and 1538/o1 to the MOVABLE lists leave the pageblock
 * RECLAIMABLE (31 free < 256): no claim either. */
static void claims_are_fallbacks_that_leave_the_request_type(void **state)
{
	struct cp_buddy b;
	enum cp_buddy_rmqueue_mode mode = CP_RMQUEUE_CLAIM;
	uint32_t pfn = 0;

	(void)state;
	reclaimable_pageblock3(&b, true);
	assert_int_equal(b.nr_claim, 1);
	assert_int_equal(b.nr_claim_movable, 0);
	assert_int_equal(cp_buddy_alloc_mode(&b, 0, MOV, 0, &mode, &pfn), 0);
	assert_int_equal(b.nr_claim, 2);
	assert_int_equal(b.nr_claim_movable, 1);
	cp_buddy_release(&b);

	reclaimable_fragments(&b, true);
	alloc_ok(&b, 4, RECL, 0);
	alloc_ok(&b, 0, MOV, CP_BUDDY_ALLOC_KSWAPD);
	assert_int_equal(b.nr_steal, 1);
	assert_int_equal(b.nr_claim, 1);
	assert_int_equal(b.nr_claim_movable, 0);
	cp_buddy_release(&b);

	reclaimable_fragments(&b, false);
	alloc_ok(&b, 4, RECL, 0);
	alloc_ok(&b, 0, MOV, 0);
	alloc_ok(&b, 0, MOV, 0);
	assert_int_equal(b.nr_extfrag, 3);
	assert_int_equal(b.nr_claim, 1);
	assert_int_equal(b.nr_claim_movable, 0);
	cp_buddy_release(&b);
}

/* rmqueue_bulk's sticky mode: once a batch has stolen it goes on
 * stealing. In the same zone, starting in STEAL mode the request skips
 * the own lists and the claim and steals 1537 from the smallest block,
 * 1537/o0: no boost, the pageblock stays RECLAIMABLE, mode stays STEAL.
 * A fresh NORMAL request whose steal succeeds ends in STEAL mode. */
static void steal_mode_skips_the_claim_for_the_rest_of_the_batch(void **state)
{
	struct cp_buddy b;
	enum cp_buddy_rmqueue_mode mode = CP_RMQUEUE_STEAL;
	uint32_t pfn = 0;

	(void)state;
	reclaimable_pageblock3(&b, true);
	assert_int_equal(cp_buddy_alloc_mode(&b, 0, MOV, CP_BUDDY_ALLOC_KSWAPD, &mode, &pfn), 0);
	assert_int_equal(pfn, 1537);
	assert_int_equal(mode, CP_RMQUEUE_STEAL);
	assert_int_equal(b.nr_boost, 0);
	assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
	assert_int_equal(b.nr_steal, 1);
	cp_buddy_release(&b);

	reclaimable_fragments(&b, true);
	alloc_ok(&b, 4, RECL, 0);
	mode = CP_RMQUEUE_NORMAL;
	assert_int_equal(cp_buddy_alloc_mode(&b, 0, MOV, 0, &mode, &pfn), 0);
	assert_int_equal(mode, CP_RMQUEUE_STEAL);
	cp_buddy_release(&b);
}

/* ALLOC_NOFRAGMENT: the claim looks only at orders >= pageblock_order and
 * the steal stage is skipped, so with RECLAIMABLE fragments only the
 * request fails and nothing changes (get_page_from_freelist then tries
 * the next zone, and drops the flag only when every zone failed). */
static void nofragment_neither_claims_small_blocks_nor_steals(void **state)
{
	struct cp_buddy b;
	enum cp_buddy_rmqueue_mode mode = CP_RMQUEUE_NORMAL;
	uint32_t pfn = 7;

	(void)state;
	reclaimable_fragments(&b, true);
	assert_int_equal(cp_buddy_alloc_mode(&b, 0, MOV, CP_BUDDY_ALLOC_NOFRAGMENT, &mode, &pfn),
			 -CP_ENOSPC);
	assert_int_equal(pfn, 7);
	assert_int_equal(mode, CP_RMQUEUE_NORMAL);
	assert_int_equal(b.nr_free_pages, 31);
	assert_int_equal(b.nr_extfrag, 1);
	assert_int_equal(b.nr_boost, 0);
	assert_int_equal(alloc_ok(&b, 0, MOV, 0), 1537);
	cp_buddy_release(&b);
}

/* 6.10's merge fix-up: MOVABLE 0/o10, then RECLAIMABLE o9 claims the
 * other order-10 block whole (pageblocks 2 and 3 RECLAIMABLE) and takes
 * 1024, leaving 1536/o9 free. Pageblock 2 is retyped MOVABLE while fully
 * allocated; freeing 1024/o9 (MOVABLE, its pageblock's type) merges with
 * 1536/o9 and __free_one_page retypes pageblock 3 to MOVABLE, so the
 * order-10 block on the MOVABLE list lies in MOVABLE pageblocks only.
 * The 6.1 rules merge too but leave pageblock 3 RECLAIMABLE. */
static void merge_at_pageblock_order_retypes_the_buddy(void **state)
{
	struct cp_buddy b;
	int claim_steal;

	(void)state;
	for (claim_steal = 0; claim_steal <= 1; claim_steal++) {
		zone_init(&b, 2048, claim_steal);
		alloc_ok(&b, 10, MOV, 0);
		assert_int_equal(alloc_ok(&b, 9, RECL, 0), 1024);
		assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), RECL);
		assert_int_equal(cp_buddy_set_pageblock_migratetype(&b, 1024, MOV), 0);
		assert_int_equal(cp_buddy_free(&b, 1024, 9, NULL), 0);
		assert_int_equal(cp_buddy_free_block_order(&b, 1024), 10);
		assert_int_equal(cp_buddy_nr_free_blocks(&b, 10, MOV), 1);
		assert_int_equal(cp_buddy_pageblock_migratetype(&b, 1536), claim_steal ? MOV : RECL);
		assert_int_equal(b.nr_pageblocks_claimed, 2); /* the fix-up is no fallback */
		cp_buddy_release(&b);
	}
}

/* A mode that is not one of the enum's values is refused, unchanged. */
static void bad_rmqueue_mode_is_refused(void **state)
{
	struct cp_buddy b;
	enum cp_buddy_rmqueue_mode mode = (enum cp_buddy_rmqueue_mode)7;
	uint32_t pfn = 3;

	(void)state;
	zone_init(&b, 1024, true);
	assert_int_equal(cp_buddy_alloc_mode(&b, 0, MOV, 0, &mode, &pfn), -CP_EINVAL);
	assert_int_equal(pfn, 3);
	assert_int_equal(b.nr_free_pages, 1024);
	cp_buddy_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steal_takes_smallest_block_and_leaves_the_rest_its_type),
		cmocka_unit_test(fallback_6_1_moves_the_block_and_serves_the_rest_natively),
		cmocka_unit_test(failed_claim_still_boosts_then_steals),
		cmocka_unit_test(claim_retypes_a_half_free_pageblock_and_mode_returns_to_normal),
		cmocka_unit_test(claims_are_fallbacks_that_leave_the_request_type),
		cmocka_unit_test(steal_mode_skips_the_claim_for_the_rest_of_the_batch),
		cmocka_unit_test(nofragment_neither_claims_small_blocks_nor_steals),
		cmocka_unit_test(merge_at_pageblock_order_retypes_the_buddy),
		cmocka_unit_test(bad_rmqueue_mode_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
