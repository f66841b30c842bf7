/*
 * test_placement.c - the model's pages placed in the buddy allocator
 * (memory.c cp_mem_alloc_block and friends): page-cache pages, slabs and
 * their migratetypes, fallbacks (claiming and fragmenting, with the
 * watermark boost), allocations the count allows but no free block fits,
 * SLUB's two tries at a new slab, and count-only callers.
 *
 * Every test uses one zone of 2048 pages and no reserve: at boot
 * (memblock_free_all) it is two free order-10 MOVABLE blocks, pfns 0 and
 * 1024, on free_area[10][MOVABLE] in that order (6.1: to the tail), and
 * four MOVABLE pageblocks of 512 pages. Watermarks: min_free_kbytes 128
 * = 32 pages; tmp = max(32 / 4, 2048 * 10 / 10000) = 8: min 32, low 40,
 * high 48.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "model/buddy.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memory.h"
#include "model/pagecache.h"
#include "model/slab.h"

#define ZONE_PAGES 2048u

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_alloc_ctx ctx;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = ZONE_PAGES,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.watermark_boost_factor = 15000,
	};

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(f->mem.wmark.low, 40);
	assert_int_equal(cp_buddy_nr_free_blocks(&f->mem.zones[0].buddy, 10, CP_MIGRATE_MOVABLE), 2);
	f->ctx.gfp = CP_GFP_NOFS;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	cp_mem_release(&f->mem);
	free(f);
	return 0;
}

static uint64_t nr_free_blocks(const struct cp_buddy *b)
{
	uint64_t n = 0;
	unsigned o;

	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
		n += b->nr_free[o];
	return n;
}

/*
 * add_to_page_cache_lru(): the mapping's gfp is GFP_HIGHUSER_MOVABLE, so
 * the page is an order-0 block from the MOVABLE lists; eviction
 * (__remove_mapping -> free) gives it back and it merges again.
 * Allocation: __rmqueue_smallest takes the head of free_area[10][MOVABLE]
 * (pfn 0) and expand() lists one block of each order 9..0 (512@512 ...
 * 1@1): 1 + 10 = 11 free blocks, no fallback. Eviction: pfn 0 merges
 * with 1, 2, 4, ..., 512 back to order 10: 2 free blocks.
 */
static void page_cache_page_is_an_order0_movable_block_freed_on_eviction(void **state)
{
	struct fixture *f = *state;
	struct cp_pagecache pc;
	struct cp_pagecache_params pp = { .nr_cpus = 1, .lru_add_batch = 14 };
	uint32_t id, slot;

	assert_int_equal(cp_pagecache_init(&pc, &pp, &f->mem, &f->vs), 0);
	assert_int_equal(cp_pagecache_add_mapping(&pc, 1, NULL, NULL, &id), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&pc, id, 0, &f->ctx), 0);
	slot = cp_mapping_slot(&pc, id, 0);
	assert_int_equal(pc.pages[slot].pfn, 0);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), -1); /* allocated */
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->mem.zones[0].buddy, 0), CP_MIGRATE_MOVABLE);
	assert_int_equal(nr_free_blocks(&f->mem.zones[0].buddy), 11);
	assert_int_equal(cp_buddy_nr_free_blocks(&f->mem.zones[0].buddy, 0, CP_MIGRATE_MOVABLE), 1);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG], 0);
	assert_true(cp_mem_check(&f->mem));

	cp_lru_add_drain_all(&pc);
	cp_lru_del(&pc, slot);
	cp_pagecache_evict(&pc, slot);
	assert_int_equal(pc.pages[slot].pfn, CP_NIL);
	assert_int_equal(nr_free_blocks(&f->mem.zones[0].buddy), 2);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 10);
	assert_int_equal(f->mem.zones[0].buddy.nr_allocated_pages, 0);
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_pagecache_check(&pc));
	cp_pagecache_release(&pc);
}

/* A SLAB_RECLAIM_ACCOUNT cache of order-2 slabs, one object per slab. */
static const struct cp_slab_geometry rcl_order2 = { "rcl_order2", 16384, 1, 2, false,
						    CP_MIGRATE_RECLAIMABLE };

/*
 * __rmqueue_fallback(): the zone has no RECLAIMABLE block, so the first
 * RECLAIMABLE slab steals from MOVABLE, largest block first: the order-10
 * block at pfn 0 (order >= pageblock_order: change_pageblock_range makes
 * both its pageblocks, 0 and 1, RECLAIMABLE; not a fragmenting fallback,
 * so no boost_watermark). One mm_page_alloc_extfrag, 2 pageblocks
 * claimed; pageblock 2 (pfn 1024) stays MOVABLE.
 */
static void first_reclaimable_slab_falls_back_and_claims_free_pageblocks(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_cache c;
	struct cp_slab_obj o;

	assert_int_equal(cp_slab_cache_init(&c, &f->mem, &rcl_order2), 0);
	assert_int_equal(cp_slab_alloc(&c, &f->ctx, &o), 0);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG], 1);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG_FRAGMENTING], 0);
	assert_int_equal(f->vs.v[CP_VM_PAGEBLOCKS_CLAIMED], 2);
	assert_int_equal(f->vs.v[CP_VM_WATERMARK_BOOST], 0);
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->mem.zones[0].buddy, 0),
			 CP_MIGRATE_RECLAIMABLE);
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->mem.zones[0].buddy, 512),
			 CP_MIGRATE_RECLAIMABLE);
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->mem.zones[0].buddy, 1024),
			 CP_MIGRATE_MOVABLE);
	assert_true(cp_mem_check(&f->mem));
	cp_slab_free(&c, o);
	cp_slab_cache_release(&c);
}

/*
 * allocate_slab(): a slab is one block of 2^order pages, naturally
 * aligned. After the first slab (pfn 0, the fallback above) expand() left
 * 4@4 on the RECLAIMABLE order-2 list, so the second slab is pfn 4, from
 * its own migratetype's list: no second fallback. Its pages are 4..7.
 * Freed, pfn 4 cannot merge (its buddy, pfn 0, is the first slab): a
 * free order-2 block at 4.
 */
static void order2_slab_is_an_aligned_order2_block_of_its_migratetype(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_cache c;
	struct cp_slab_obj o1, o2;

	assert_int_equal(cp_slab_cache_init(&c, &f->mem, &rcl_order2), 0);
	assert_int_equal(cp_slab_alloc(&c, &f->ctx, &o1), 0);
	assert_int_equal(cp_slab_alloc(&c, &f->ctx, &o2), 0);
	assert_int_equal(cp_slab_page_pfn(&c, o1.slab, 0), 0);
	assert_int_equal(cp_slab_page_pfn(&c, o2.slab, 0), 4);
	assert_int_equal(cp_slab_page_pfn(&c, o2.slab, 3), 7);
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->mem.zones[0].buddy, 4),
			 CP_MIGRATE_RECLAIMABLE);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG], 1);
	assert_int_equal(f->mem.nr_owner[c.owner], 8);
	assert_int_equal(f->mem.zones[0].buddy.nr_allocated_pages, 8);
	assert_true(cp_slab_check(&c));

	cp_slab_free(&c, o2);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 4), 2);
	assert_int_equal(cp_buddy_nr_free_blocks(&f->mem.zones[0].buddy, 2, CP_MIGRATE_RECLAIMABLE), 1);
	assert_true(cp_mem_check(&f->mem));
	cp_slab_free(&c, o1);
	cp_slab_cache_release(&c);
}

/* Fill the zone: pfns 0..1999 as order-0 MOVABLE page-cache blocks,
 * taken one by one (ascending: each comes from the smallest block
 * expand() left), and 2000..2047 as process memory (MOVABLE). */
static void fill_zone(struct fixture *f)
{
	struct cp_alloc_ctx ctx = { .gfp = 0 };
	uint32_t pfn, i;
	bool split;

	for (i = 0; i < 2000; i++) {
		assert_int_equal(cp_mem_alloc_block(&f->mem, CP_OWNER_PAGECACHE, 0,
						    CP_MIGRATE_MOVABLE, &ctx, &pfn, &split), 0);
		assert_int_equal(pfn, i);
		assert_false(split);
	}
	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS, 48), 0);
	assert_int_equal(f->mem.free_pages, 0);
}

/*
 * The decision is the page count's; the buddy only places. The zone is
 * filled (fill_zone), then every even pfn below 2000 is freed: 1000 free
 * order-0 pages, no two of them buddies. An order-1 MOVABLE block: free 1000 >= low 40 + 2, so the
 * count allows it, but no free block of order >= 1 exists on any list:
 * cp_highorder_nofit 1, and the two pages are order-0 blocks (the two
 * freed last, 1998 then 1996: frees go to the list head).
 */
static void highorder_allocation_the_count_allows_is_kept_when_no_block_fits(void **state)
{
	struct fixture *f = *state;
	struct cp_alloc_ctx ctx = { .gfp = 0 };
	uint32_t pfns[2], i;
	bool split;

	fill_zone(f);
	for (i = 0; i < 2000; i += 2)
		cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, i, 0, NULL);
	assert_int_equal(f->mem.free_pages, 1000);
	assert_false(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 1));

	assert_int_equal(cp_mem_alloc_block(&f->mem, CP_OWNER_PAGECACHE, 1, CP_MIGRATE_MOVABLE,
					    &ctx, pfns, &split), 0);
	assert_true(split);
	assert_int_equal(f->vs.v[CP_VM_HIGHORDER_NOFIT], 1);
	assert_int_equal(pfns[0], 1998);
	assert_int_equal(pfns[1], 1996);
	assert_int_equal(f->mem.free_pages, 998);
	assert_true(cp_mem_check(&f->mem));
	cp_mem_free_pages(&f->mem, CP_OWNER_PAGECACHE, pfns, 2, NULL);
	assert_int_equal(f->mem.free_pages, 1000);
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_buddy_check(&f->mem.zones[0].buddy));
}

/* kswapd wake-ups an allocation asked for, by order */
struct wake_log {
	unsigned nr;
	unsigned order[8];
};

static void log_wake(void *priv, unsigned order, unsigned highest_zoneidx)
{
	struct wake_log *log = priv;

	(void)highest_zoneidx;
	if (log->nr < 8)
		log->order[log->nr] = order;
	log->nr++;
}

/* kmalloc-8k's geometry on 6.18 (/sys/kernel/slab/kmalloc-8k: order 3,
 * 4 objects; s->min = get_order(8192) = 1, one object), MOVABLE here so
 * that its blocks come from their own type's lists (no fallback, no
 * boost, whose wake-up would join the log). */
static const struct cp_slab_geometry k8k = { "k8k", 8192, 4, 3, false, CP_MIGRATE_MOVABLE };

/* The zone filled (fill_zone), then every even pfn below 200 freed (100
 * order-0 blocks, no two buddies) and, when order1, pfns 1000 and 1001
 * (which merge into one order-1 block): free 100 or 102 pages, above the
 * low watermark (40), no free block of order 3. */
static void fragment_zone(struct fixture *f, bool order1, struct wake_log *log)
{
	struct cp_mem_hooks hooks = { .wake_kswapd = log_wake, .priv = log };
	uint32_t i;

	fill_zone(f);
	for (i = 0; i < 200; i += 2)
		cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, i, 0, NULL);
	if (order1) {
		cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, 1000, 0, NULL);
		cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, 1001, 0, NULL);
		assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 1000), 1);
	}
	assert_false(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 2));
	cp_mem_set_hooks(&f->mem, &hooks);
}

/*
 * allocate_slab() for a caller without __GFP_DIRECT_RECLAIM (the XFS
 * CIL's xlog_kvmalloc: GFP_NOWAIT|__GFP_IO|__GFP_NORETRY): SLUB strips
 * the reclaim flags from the first try only when the caller may reclaim
 * directly, so this first try, at order 3, keeps __GFP_KSWAPD_RECLAIM:
 * no free block of order >= 3 fails its watermark test at the low mark
 * (__zone_watermark_ok checks the free lists of order 3 and up), the
 * slow path wakes kswapd at order 3, the min mark fails as well, and
 * without direct reclaim that try ends. The second, at s->min (order
 * 1), finds the order-1 block at 1000: a slab of two pages holding one
 * object, so the next allocation needs a slab of its own (again order 3
 * failing, waking kswapd at 3, then the zone's order-0 pages too small
 * for order 1: woken at 1, and no slab).
 */
static void slab_without_direct_reclaim_wakes_kswapd_at_its_order_then_takes_min_order(
	void **state)
{
	struct fixture *f = *state;
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KSWAPD_RECLAIM | CP_GFP_IO | CP_GFP_NORETRY };
	struct wake_log log = { 0 };
	struct cp_slab_cache c;
	struct cp_slab_obj o1, o2;

	assert_int_equal(cp_slab_cache_init(&c, &f->mem, &k8k), 0);
	assert_int_equal(c.min_order, 1);
	assert_int_equal(c.min_objects, 1);
	fragment_zone(f, true, &log);
	assert_int_equal(f->mem.free_pages, 102);

	assert_int_equal(cp_slab_alloc(&c, &ctx, &o1), 0);
	assert_int_equal(log.nr, 1);
	assert_int_equal(log.order[0], 3);
	assert_int_equal(cp_slab_page_pfn(&c, o1.slab, 0), 1000);
	assert_int_equal(f->mem.nr_owner[c.owner], 2);
	assert_int_equal(f->mem.free_pages, 100);
	assert_int_equal(f->vs.v[CP_VM_HIGHORDER_NOFIT], 0);
	assert_true(cp_slab_check(&c));

	assert_int_equal(cp_slab_alloc(&c, &ctx, &o2), -CP_ENOSPC);
	assert_int_equal(log.nr, 3);
	assert_int_equal(log.order[1], 3);
	assert_int_equal(log.order[2], 1);
	assert_int_equal(f->mem.nr_owner[c.owner], 2);
	assert_int_equal(f->mem.free_pages, 100);
	assert_true(cp_slab_check(&c));

	cp_slab_free(&c, o1);
	assert_int_equal(f->mem.nr_owner[c.owner], 0);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 1000), 1);
	assert_true(cp_mem_check(&f->mem));
	cp_slab_cache_release(&c);
}

/*
 * The same zone, a caller that may reclaim directly (GFP_NOFS): SLUB's
 * first try at order 3 goes without any reclaim flag (no wake-up), its
 * second at order 1 with the caller's flags - the zone is above its low
 * watermark at order 0, so nobody is woken. The model keeps the slab's
 * geometry: eight order-0 pages (cp_highorder_nofit), four objects.
 */
static void slab_with_direct_reclaim_wakes_nobody_above_the_low_watermark(void **state)
{
	struct fixture *f = *state;
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS };
	struct wake_log log = { 0 };
	struct cp_slab_cache c;
	struct cp_slab_obj o[4];
	unsigned i;

	assert_int_equal(cp_slab_cache_init(&c, &f->mem, &k8k), 0);
	fragment_zone(f, false, &log);
	for (i = 0; i < 4; i++)
		assert_int_equal(cp_slab_alloc(&c, &ctx, &o[i]), 0);
	assert_int_equal(log.nr, 0);
	assert_int_equal(f->vs.v[CP_VM_HIGHORDER_NOFIT], 1);
	assert_int_equal(c.nr_slabs, 1);
	assert_int_equal(f->mem.nr_owner[c.owner], 8);
	assert_true(cp_slab_check(&c));
	for (i = 0; i < 4; i++)
		cp_slab_free(&c, o[i]);
	assert_int_equal(f->mem.nr_owner[c.owner], 0);
	assert_true(cp_mem_check(&f->mem));
	cp_slab_cache_release(&c);
}

/*
 * steal_suitable_fallback() below pageblock_order: the zone is filled
 * (fill_zone) and pages 1024..1087 freed, an order-6 MOVABLE block, free
 * 64 >= low 40 + 1. An order-0 RECLAIMABLE request finds no block of its
 * type; the fallback takes the order-6 block (can_steal: 6 >= 9 / 2), a
 * fragmenting fallback, so boost_watermark() raises the boost by a
 * pageblock: min(512, max(512, high 48 x 15000 / 10000 = 72)) = 512
 * (the zone has 2048 >= 4 x 512 pages). move_freepages_block() moves the
 * 64 free pages of pageblock 2 (1024..1535); the other 448 are MOVABLE
 * page cache, so alike = 512 - (64 + 448) = 0 and 64 + 0 < 256: the
 * pageblock stays MOVABLE. The page is 1024, the head of the moved block.
 */
static void fragmenting_fallback_boosts_watermark_and_leaves_a_used_pageblock(void **state)
{
	struct fixture *f = *state;
	struct cp_alloc_ctx ctx = { .gfp = 0 };
	uint32_t pfn, i;
	int owner = cp_mem_register_owner(&f->mem, "reclaimable");
	bool split;

	assert_true(owner >= 0);
	fill_zone(f);
	for (i = 1024; i < 1088; i++)
		cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, i, 0, NULL);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 1024), 6);
	assert_int_equal(cp_mem_alloc_block(&f->mem, (unsigned)owner, 0, CP_MIGRATE_RECLAIMABLE,
					    &ctx, &pfn, &split), 0);
	assert_int_equal(pfn, 1024);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG], 1);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG_FRAGMENTING], 1);
	assert_int_equal(f->vs.v[CP_VM_WATERMARK_BOOST], 1);
	assert_int_equal(f->mem.zones[0].buddy.watermark_boost, 512);
	assert_int_equal(f->vs.v[CP_VM_PAGEBLOCKS_CLAIMED], 0);
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->mem.zones[0].buddy, 1024),
			 CP_MIGRATE_MOVABLE);
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_buddy_check(&f->mem.zones[0].buddy));
}

/*
 * A RECLAIMABLE order-2 block taken from the free order-6 block of a
 * MOVABLE pageblock (the only free memory: 64 pages at 1024) by a
 * GFP_NOFS caller, placed as alloc_pages() places it (cp_mem_alloc_block)
 * or as SLUB's first try at a cache's order (cp_mem_alloc_slab_block).
 * Both fall back fragmenting and boost the watermark by a pageblock
 * (try_to_claim_block -> boost_watermark). Free 64 >= low 40 + 4: no
 * wake-up for the watermark. Returns the kswapd wake-ups: rmqueue()'s
 * for a zone flagged ZONE_BOOSTED_WATERMARK, at order 0.
 */
static unsigned wakes_of_order2_fallback(struct fixture *f, bool slab_first_try)
{
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS };
	struct wake_log log = { 0 };
	struct cp_mem_hooks hooks = { .wake_kswapd = log_wake, .priv = &log };
	uint32_t pfn[4], i;
	int owner = cp_mem_register_owner(&f->mem, "reclaimable");
	bool split;

	assert_true(owner >= 0);
	fill_zone(f);
	cp_mem_set_hooks(&f->mem, &hooks);
	for (i = 1024; i < 1088; i++)
		cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, i, 0, NULL);
	if (slab_first_try)
		assert_int_equal(cp_mem_alloc_slab_block(&f->mem, (unsigned)owner, 2,
							 CP_MIGRATE_RECLAIMABLE, &ctx, pfn, &split),
				 0);
	else
		assert_int_equal(cp_mem_alloc_block(&f->mem, (unsigned)owner, 2,
						    CP_MIGRATE_RECLAIMABLE, &ctx, pfn, &split),
				 0);
	assert_false(split);
	assert_int_equal(pfn[0], 1024);
	assert_int_equal(f->vs.v[CP_VM_EXTFRAG_FRAGMENTING], 1);
	assert_int_equal(f->mem.zones[0].buddy.watermark_boost, 512);
	assert_true(cp_mem_check(&f->mem));
	if (log.nr)
		assert_int_equal(log.order[0], 0);
	return log.nr;
}

/* try_to_claim_block(): with ALLOC_KSWAPD (GFP_NOFS carries
 * __GFP_KSWAPD_RECLAIM) the boost flags the zone, and rmqueue() wakes
 * kswapd for it at order 0. */
static void fallback_boost_with_kswapd_reclaim_flags_the_zone(void **state)
{
	assert_int_equal(wakes_of_order2_fallback(*state, false), 1);
}

/* allocate_slab(): a caller that may reclaim directly gets a first try
 * at the cache's order without __GFP_RECLAIM, so no ALLOC_KSWAPD: the
 * boost stands, the zone is not flagged, nobody wakes kswapd. */
static void slab_first_try_boosts_without_flagging_the_zone(void **state)
{
	assert_int_equal(wakes_of_order2_fallback(*state, true), 0);
}

/*
 * Count-only callers (process memory) are placed too, and a free that
 * ends inside a block splits it (split_page): take 1000 pages = blocks
 * of 512, 256, 128, 64, 32, 8 (1000 = 0b1111101000), free 10: the last
 * block (8 pages) goes whole, then the 32-page block is split and its
 * last 2 pages go. 990 pages held, and the buddy agrees.
 */
static void count_only_pages_are_placed_and_freed_last_first(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS, 1000), 0);
	assert_int_equal(f->mem.anon[CP_OWNER_PROCESS].nr, 6);
	assert_int_equal(f->mem.zones[0].buddy.nr_allocated_pages, 1000);
	cp_mem_free(&f->mem, CP_OWNER_PROCESS, 10, NULL);
	assert_int_equal(f->mem.anon[CP_OWNER_PROCESS].nr, 5);
	assert_int_equal(f->mem.anon[CP_OWNER_PROCESS].blocks[4].nr_split, 30);
	assert_int_equal(f->mem.zones[0].buddy.nr_allocated_pages, 990);
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_buddy_check(&f->mem.zones[0].buddy));
	cp_mem_free(&f->mem, CP_OWNER_PROCESS, 990, NULL);
	assert_int_equal(f->mem.zones[0].buddy.nr_allocated_pages, 0);
	assert_int_equal(nr_free_blocks(&f->mem.zones[0].buddy), 2);
}

/* A measured start layout: each fragment below pageblock_order is a free
 * block of its type's list that cannot merge (its buddy is held), in a
 * pageblock of that type; the pageblocks' other pages are added to the
 * zone as reserve, so the free memory is still the zone's. By hand:
 * unmovable 1 x order 2 + 3 x order 0 (pairs of 8 + 3 x 2 = 14 pages: one
 * pageblock), reclaimable 1 x order 8 (a 512-page pair: one pageblock),
 * movable 2 x order 1 (8 pages: one pageblock): 3 pageblocks, 1536 pages,
 * 267 of them free, 1269 added. */
static void start_layout_places_measured_fragments(void **state)
{
	static const struct cp_mem_start_free sf = {
		.blocks = {
			[CP_MIGRATE_UNMOVABLE] = { 3, 0, 1 },
			[CP_MIGRATE_MOVABLE] = { 0, 2 },
			[CP_MIGRATE_RECLAIMABLE] = { [8] = 1 },
		},
	};
	struct cp_mem_params mp = {
		.total_pages = ZONE_PAGES,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.watermark_boost_factor = 15000,
		.start_free = &sf,
	};
	static const uint32_t movable[CP_BUDDY_MAX_ORDER] = { 1, 2, 1, 0, 1, 1, 1, 1, 0, 1, 1 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem m;
	unsigned t, o;

	(void)state;
	assert_int_equal(cp_mem_init(&m, &mp, &vs, NULL), 0);
	assert_int_equal(m.total_pages, ZONE_PAGES + 1269);
	assert_int_equal(m.free_pages, ZONE_PAGES);
	assert_int_equal(m.nr_owner[CP_OWNER_RESERVE], 1269);
	for (t = 0; t < CP_MIGRATE_TYPES; t++) {
		if (t == CP_MIGRATE_MOVABLE)
			continue;
		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[0].buddy, o, (enum cp_migratetype)t),
					 sf.blocks[t][o]);
	}
	/* MOVABLE: the zone of 3317 pages boots as 3 x 1024 + 128 + 64 + 32 +
	 * 16 + 4 + 1; the three pageblocks split two order-10 blocks, leaving
	 * one order 9; plus the two order-1 fragments */
	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
		assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[0].buddy, o, CP_MIGRATE_MOVABLE),
				 movable[o]);
	/* no other type has a free pageblock of its own */
	assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[0].buddy, 9, CP_MIGRATE_UNMOVABLE) +
				 cp_buddy_nr_free_blocks(&m.zones[0].buddy, 10, CP_MIGRATE_UNMOVABLE) +
				 cp_buddy_nr_free_blocks(&m.zones[0].buddy, 9, CP_MIGRATE_RECLAIMABLE) +
				 cp_buddy_nr_free_blocks(&m.zones[0].buddy, 10, CP_MIGRATE_RECLAIMABLE),
			 0);
	assert_int_equal(m.zones[0].buddy.nr_extfrag, 0);
	assert_true(cp_buddy_check(&m.zones[0].buddy));
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* 4000 order-0 UNMOVABLE fragments measured, more than the free memory
 * of a ZONE_PAGES zone with reserve pages reserved: cp_mem_init boots
 * it with want of them on the free lists and the rest of the free
 * memory as it was. */
static void boot_with_4000_fragments(uint64_t reserve, uint64_t want)
{
	static const struct cp_mem_start_free sf = {
		.blocks = { [CP_MIGRATE_UNMOVABLE] = { 4000 } },
	};
	struct cp_mem_params mp = {
		.total_pages = ZONE_PAGES,
		.reserve_pages = reserve,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.start_free = &sf,
	};
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem m;

	assert_int_equal(cp_mem_init(&m, &mp, &vs, NULL), 0);
	assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[0].buddy, 0, CP_MIGRATE_UNMOVABLE), want);
	assert_int_equal(m.free_pages, ZONE_PAGES - reserve);
	assert_true(cp_buddy_check(&m.zones[0].buddy));
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* More measured fragments than free memory: scaled down in proportion
 * to the free memory less the two pageblocks alignment may cost (4000
 * order-0 unmovable into 2048 free pages -> 2048 - 1024 = 1024). */
static void start_layout_scales_to_the_free_memory(void **state)
{
	(void)state;
	boot_with_4000_fragments(0, 1024);
}

/* The start layout takes whole pageblocks from the zone's free memory,
 * which starts where the boot reserve ends, not on a pageblock boundary:
 * fragments scaled to fill the free memory to the page would need up to
 * two pageblocks the alignment cost (the model crashed on such a layout).
 * They are scaled to the free memory less two pageblocks, and the zone
 * boots. By hand: 2048 pages, 300 reserved, 1748 free; 4000 order-0
 * fragments scaled to 1748 - 1024 = 724. */
static void start_layout_fits_a_zone_whose_reserve_is_not_pageblock_aligned(void **state)
{
	(void)state;
	boot_with_4000_fragments(300, 724);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(start_layout_places_measured_fragments),
		cmocka_unit_test(start_layout_scales_to_the_free_memory),
		cmocka_unit_test(start_layout_fits_a_zone_whose_reserve_is_not_pageblock_aligned),
		cmocka_unit_test_setup_teardown(
			page_cache_page_is_an_order0_movable_block_freed_on_eviction, setup, teardown),
		cmocka_unit_test_setup_teardown(
			first_reclaimable_slab_falls_back_and_claims_free_pageblocks, setup, teardown),
		cmocka_unit_test_setup_teardown(
			order2_slab_is_an_aligned_order2_block_of_its_migratetype, setup, teardown),
		cmocka_unit_test_setup_teardown(
			highorder_allocation_the_count_allows_is_kept_when_no_block_fits, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			fragmenting_fallback_boosts_watermark_and_leaves_a_used_pageblock, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			slab_without_direct_reclaim_wakes_kswapd_at_its_order_then_takes_min_order,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			slab_with_direct_reclaim_wakes_nobody_above_the_low_watermark, setup,
			teardown),
		cmocka_unit_test_setup_teardown(count_only_pages_are_placed_and_freed_last_first,
						setup, teardown),
		cmocka_unit_test_setup_teardown(fallback_boost_with_kswapd_reclaim_flags_the_zone,
						setup, teardown),
		cmocka_unit_test_setup_teardown(slab_first_try_boosts_without_flagging_the_zone,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
