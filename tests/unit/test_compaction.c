/*
 * test_compaction.c - mm/compaction.c rules (6.1): the fragmentation
 * index, compaction_suitable, deferral, compact_zone on a hand-made
 * zone, wakeup_kcompactd.
 *
 * The zone: 2048 pages (4 pageblocks), min_free_kbytes 16: min = 4,
 * tmp = max(4 / 4, 2048 * 10 / 10000) = 2, low = 6, high = 8. Page-cache
 * pages inserted one by one into a fresh zone get pfn = index (expand()
 * lists the halves of the order-10 block at pfn 0 at the list heads, so
 * the lowest free pfn comes next; test asserts it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "model/compaction.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memory.h"
#include "model/pagecache.h"

#define ZONE_PAGES 2048u
#define CACHED_PAGES 2040u

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_pagecache pc;
	struct cp_compaction c;
	struct cp_alloc_ctx ctx;
	uint32_t id;
	unsigned nr_wakes;
};

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = ZONE_PAGES, .min_free_kbytes = 16, .watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536, .memcg_reclaim_retries = 5,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 2, .lru_add_batch = 15 };

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(f->mem.wmark.min, 4);
	assert_int_equal(f->mem.wmark.low, 6);
	assert_int_equal(cp_pagecache_init(&f->pc, &pp, &f->mem, &f->vs), 0);
	cp_compaction_init(&f->c, &f->mem, &f->pc, &f->vs);
	f->ctx.gfp = CP_GFP_NOFS;
	return f;
}

static void fixture_free(struct fixture *f)
{
	cp_pagecache_release(&f->pc);
	cp_mem_release(&f->mem);
	free(f);
}

static struct cp_page *page(struct fixture *f, uint32_t index)
{
	return &f->pc.pages[cp_mapping_slot(&f->pc, f->id, index)];
}

/* Pages 0 .. CACHED_PAGES - 1 of one mapping, at pfn = index. The last
 * 8 pfns (2040..2047) stay free: one order-3 block. */
static void fill(struct fixture *f)
{
	uint32_t i;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, CACHED_PAGES, NULL, NULL, &f->id), 0);
	for (i = 0; i < CACHED_PAGES; i++) {
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, f->id, i, &f->ctx), 0);
		assert_int_equal(page(f, i)->pfn, i);
	}
	cp_lru_add_drain_all(&f->pc);
}

/* Reclaim of one page: off the LRU (isolated), then __remove_mapping. */
static void evict(struct fixture *f, uint32_t index)
{
	uint32_t slot = cp_mapping_slot(&f->pc, f->id, index);

	cp_lru_del(&f->pc, slot);
	cp_pagecache_evict(&f->pc, slot);
}

/* fill(), then every odd index evicted: 1020 free order-0 pages between
 * cached ones plus the order-3 block at 2040: 1028 free, no free block
 * of order 1 .. 2 or 4 and more. */
static void fill_interleaved(struct fixture *f)
{
	uint32_t i;

	fill(f);
	for (i = 1; i < CACHED_PAGES; i += 2)
		evict(f, i);
	assert_int_equal(f->mem.free_pages, 1028);
	assert_int_equal(f->mem.zones[0].buddy.nr_free[0], 1020);
	assert_int_equal(f->mem.zones[0].buddy.nr_free[3], 1);
}

/* __fragmentation_index by hand. A 1024-page zone with pfn 0 allocated
 * holds one free block of each order 0..9: 10 blocks, 1023 pages. Order
 * 10: no suitable block, 1000 - (1000 + 1023 * 1000 / 1024) / 10 =
 * 1000 - (1000 + 999) / 10 = 1000 - 199 = 801. Order 5: a block of
 * order >= 5 exists: -1000. Nothing free: 0. */
static void fragmentation_index_arithmetic(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params p = { .nr_pages = 1024 };
	uint32_t pfn;

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(cp_buddy_alloc(&b, 0, CP_MIGRATE_MOVABLE, 0, &pfn), 0);
	assert_int_equal(cp_fragmentation_index(&b, 10), 801);
	assert_int_equal(cp_fragmentation_index(&b, 5), -1000);
	cp_buddy_release(&b);

	p.nr_pages = 1;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(cp_buddy_alloc(&b, 0, CP_MIGRATE_MOVABLE, 0, &pfn), 0);
	assert_int_equal(cp_fragmentation_index(&b, 3), 0);
	cp_buddy_release(&b);
}

/* fragmentation_score_zone() = extfrag_for_order(zone, 9): the share
 * of free pages outside free blocks of order 9 or more. A 1024-page
 * zone: fresh, one order-10 block: 0; pfn 0 allocated, one free block of
 * each order 0..9 (1023 pages, 512 in the order-9 block): (1023 - 512)
 * * 100 / 1023 = 49; nothing free: 0. */
static void fragmentation_score_is_free_memory_outside_pageblocks(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params p = { .nr_pages = 1024 };
	uint32_t pfn;

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(cp_fragmentation_score_zone(&b), 0);
	assert_int_equal(cp_buddy_alloc(&b, 0, CP_MIGRATE_MOVABLE, 0, &pfn), 0);
	assert_int_equal(cp_fragmentation_score_zone(&b), 49);
	cp_buddy_release(&b);
	p.nr_pages = 1;
	assert_int_equal(cp_buddy_init(&b, &p, NULL), 0);
	assert_int_equal(cp_buddy_alloc(&b, 0, CP_MIGRATE_MOVABLE, 0, &pfn), 0);
	assert_int_equal(cp_fragmentation_score_zone(&b), 0);
	cp_buddy_release(&b);
}

/* fragmentation_score_wmark(): low max(100 - proactiveness, 5), high
 * min(low + 10, 100). */
static void fragmentation_score_wmarks_follow_proactiveness(void **state)
{
	(void)state;
	assert_int_equal(cp_fragmentation_score_wmark(20, true), 80);
	assert_int_equal(cp_fragmentation_score_wmark(20, false), 90);
	assert_int_equal(cp_fragmentation_score_wmark(100, true), 5);
	assert_int_equal(cp_fragmentation_score_wmark(100, false), 15);
	assert_int_equal(cp_fragmentation_score_wmark(0, false), 100);
}

static bool never_running(void *priv)
{
	(void)priv;
	return false;
}

/*
 * Proactive compaction (proactiveness 20): the interleaved zone's free
 * pages are all in blocks below order 9, so the node's score is
 * 2048 * 100 / 2049 = 99 > 90 and kcompactd compacts it - not while
 * kswapd runs. compact_node(proactive) moves the 256 cached pages of
 * the first pageblock (its free pages merge into an order-9 block:
 * (1028 - 512) * 100 / 1028 = 50 <= the low mark 80: SUCCESS), and
 * stops there; a second check finds 50 <= 90: nothing to do.
 */
static void proactive_compaction_runs_above_the_high_mark_to_the_low(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	fill_interleaved(f);
	f->c.proactiveness = 20;
	assert_int_equal(cp_fragmentation_score_node(&f->c), 99);
	assert_false(cp_should_proactive_compact_node(&f->c, true));
	assert_true(cp_should_proactive_compact_node(&f->c, false));
	assert_int_equal(cp_proactive_compact_node(&f->c, 0, never_running, NULL), 256);
	assert_int_equal(cp_fragmentation_score_zone(&f->mem.zones[0].buddy), 50);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	assert_false(cp_should_proactive_compact_node(&f->c, false));
	assert_true(cp_compaction_check(&f->c));
	assert_true(cp_mem_check(&f->mem));
	fixture_free(f);
}

/* Without proactiveness (4.11, or the sysctl at 0) there is no pass. */
static void no_proactive_compaction_at_proactiveness_0(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	fill_interleaved(f);
	assert_int_equal(f->c.proactiveness, 0);
	assert_false(cp_should_proactive_compact_node(&f->c, false));
	fixture_free(f);
}

/* compaction_suitable(): a fresh zone meets min at order 4 (SUCCESS).
 * Interleaved (1028 free, largest block order 3): order 3 meets min
 * (SUCCESS); order 4 does not, 1028 > low 6 + compact_gap 32, fragindex
 * 1000 - (1000 + 1028 * 1000 / 16) / 1021 = 1000 - 65250 / 1021 = 937 >
 * 500: CONTINUE; order 10 needs low + 2048 > 1028: SKIPPED. */
static void compaction_suitable_by_watermark_and_fragindex(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	assert_int_equal(cp_compaction_suitable(&f->mem, 0, 4, true), CP_COMPACT_SUCCESS);
	fill_interleaved(f);
	assert_int_equal(cp_compaction_suitable(&f->mem, 0, 3, true), CP_COMPACT_SUCCESS);
	assert_int_equal(cp_fragmentation_index(&f->mem.zones[0].buddy, 4), 937);
	assert_int_equal(cp_compaction_suitable(&f->mem, 0, 4, true), CP_COMPACT_CONTINUE);
	assert_int_equal(cp_compaction_suitable(&f->mem, 0, 10, true), CP_COMPACT_SKIPPED);
	fixture_free(f);
}

/* sysctl_extfrag_threshold 500: free memory only in order-3 blocks (8
 * pages cached, 8 evicted, ...: 127 blocks + the one at 2040 = 128
 * blocks, 1024 pages). Order 4: 1000 - (1000 + 1024 * 1000 / 16) / 128
 * = 1000 - 65000 / 128 = 1000 - 507 = 493 <= 500: NOT_SUITABLE_ZONE
 * (lack of memory, not fragmentation). Order 3 (not costly, no index):
 * SUCCESS anyway. */
static void compaction_suitable_fragindex_at_most_500_is_not_suitable(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t i;

	(void)state;
	fill(f);
	for (i = 0; i < CACHED_PAGES; i++)
		if ((i / 8) % 2 == 1)
			evict(f, i);
	assert_int_equal(f->mem.zones[0].buddy.nr_free[3], 128);
	assert_int_equal(f->mem.free_pages, 1024);
	assert_int_equal(cp_fragmentation_index(&f->mem.zones[0].buddy, 4), 493);
	assert_int_equal(cp_compaction_suitable(&f->mem, 0, 4, true), CP_COMPACT_NOT_SUITABLE_ZONE);
	fixture_free(f);
}

/* defer_compaction / compaction_deferred: compact_order_failed starts
 * at 0 (struct zone zeroed), so every order is subject to deferral.
 * After the first failure one attempt is skipped (limit 1 << 1 = 2:
 * considered 1 < 2), after the second three (considered 1, 2, 3 < 4),
 * then the next is allowed; the shift stops at 6.
 * compaction_defer_reset(3, false) raises order_failed to 4: order 3 is
 * no longer deferred, order 4 still is. */
static void defer_compaction_skips_1_then_3_attempts(void **state)
{
	struct fixture *f = fixture_new();
	int i;

	(void)state;
	assert_int_equal(f->c.zone[0].compact_order_failed, 0);
	assert_false(cp_compaction_deferred(&f->c, 0, 4));
	cp_defer_compaction(&f->c, 0, 4);
	assert_int_equal(f->c.zone[0].compact_defer_shift, 1);
	assert_int_equal(f->c.zone[0].compact_considered, 0);
	assert_int_equal(f->c.zone[0].compact_order_failed, 0);
	assert_true(cp_compaction_deferred(&f->c, 0, 4));
	assert_false(cp_compaction_deferred(&f->c, 0, 4));
	cp_defer_compaction(&f->c, 0, 4);
	for (i = 0; i < 3; i++)
		assert_true(cp_compaction_deferred(&f->c, 0, 4));
	assert_false(cp_compaction_deferred(&f->c, 0, 4));
	for (i = 0; i < 10; i++)
		cp_defer_compaction(&f->c, 0, 4);
	assert_int_equal(f->c.zone[0].compact_defer_shift, CP_COMPACT_MAX_DEFER_SHIFT);
	cp_compaction_defer_reset(&f->c, 0, 3, false);
	assert_int_equal(f->c.zone[0].compact_order_failed, 4);
	assert_false(cp_compaction_deferred(&f->c, 0, 3));
	assert_true(cp_compaction_deferred(&f->c, 0, 4));
	assert_true(cp_compaction_check(&f->c));
	fixture_free(f);
}

/*
 * compact_zone(order 4) on the interleaved zone: the migration scanner
 * takes pageblock 0's 256 cached pages (even pfns 0..510), the free
 * scanner finds free pages in pageblock 3 (odd pfns 1537..2039: 252,
 * and the order-3 block at 2040) and the pages move there. At the end of
 * pageblock 0 (__compact_finished checks only at pageblock boundaries)
 * pfns 0..511 are one free order-9 block: SUCCESS. Pages keep their
 * slots, get pfns >= 1536, the reverse map follows; counts unchanged.
 */
static void compact_zone_moves_pages_and_frees_a_block_of_the_order(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	page(f, 2)->flags |= CP_PG_REFERENCED;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	assert_int_equal(st.migrated, 256);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 256);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_MIGRATE_SCANNED], st.migrate_scanned);
	for (i = 0; i < CACHED_PAGES; i += 2) {
		struct cp_page *p = page(f, i);

		assert_true(p->flags & CP_PG_RESIDENT);
		if (i < 512)
			assert_true(p->pfn >= 1536);
		else
			assert_int_equal(p->pfn, i);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, p->pfn),
				 cp_mapping_slot(&f->pc, f->id, i));
	}
	assert_true(page(f, 2)->flags & CP_PG_REFERENCED);
	assert_int_equal(f->pc.mappings[f->id].nrpages, 1020);
	assert_int_equal(f->mem.free_pages, 1028);
	assert_int_equal(f->mem.zones[0].buddy.nr_free_pages, 1028);
	assert_true(cp_pagecache_check(&f->pc));
	assert_true(cp_buddy_check(&f->mem.zones[0].buddy));
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_compaction_check(&f->c));
	fixture_free(f);
}

/* suitable_migration_target(): free pages come only from MOVABLE
 * pageblocks. With pageblock 3 (1536..2047) UNMOVABLE the free scanner
 * passes it and takes pageblock 2's free pages (odd pfns 1025..1535:
 * 256, exactly pageblock 0's 256 pages), every moved page in
 * 1024..1535, pageblock 3 untouched. The last batch empties pageblock
 * 2, so isolate_freepages() leaves free_pfn at the pageblock below it
 * (512), the migration scanner's: __compact_finished tests the scanners
 * before the free lists, and the result is COMPLETE although pfns
 * 0..511 are a free order-9 block. */
static void compact_zone_takes_free_pages_only_from_movable_pageblocks(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	f->mem.zones[0].buddy.pageblock_mt[3] = CP_MIGRATE_UNMOVABLE;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 256);
	for (i = 0; i < 512; i += 2)
		assert_true(page(f, i)->pfn >= 1024 && page(f, i)->pfn < 1536);
	for (i = 1537; i < 2040; i += 2)
		assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, i), 0);
	assert_true(cp_pagecache_check(&f->pc));
	assert_true(cp_buddy_check(&f->mem.zones[0].buddy));
	fixture_free(f);
}

/* isolate_migratepages_block() takes only LRU pages it can migrate: 64
 * pages of another owner (XFS buffers) placed among the cached ones
 * never move, while cached pages around them do. */
static void compact_zone_never_moves_other_owners_pages(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t pfns[64];
	unsigned i, order;

	(void)state;
	fill_interleaved(f);
	assert_int_equal(cp_mem_alloc_pages(&f->mem, CP_OWNER_FSBUF, 64, CP_MIGRATE_MOVABLE,
					    &f->ctx, pfns),
			 0);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_SUCCESS);
	assert_true(f->vs.v[CP_VM_PGMIGRATE_SUCCESS] > 0);
	for (i = 0; i < 64; i++) {
		assert_int_equal(cp_buddy_page_kind(&f->mem.zones[0].buddy, pfns[i], &order),
				 CP_BUDDY_PAGE_ALLOC);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, pfns[i]), CP_NIL);
	}
	assert_int_equal(f->mem.nr_owner[CP_OWNER_FSBUF], 64);
	assert_true(cp_pagecache_check(&f->pc));
	assert_true(cp_mem_check(&f->mem));
	fixture_free(f);
}

/* __compact_finished: nothing can move (every cached page isolated by
 * reclaim), so the migration scanner walks pageblocks 0..2 (1536 pfns,
 * each a page or a free order-0 block) and meets the free scanner in
 * pageblock 3: COMPLETE (it began at the zone start), the free scanner
 * never ran, the cached pfns back at the zone's ends. */
static void compact_zone_complete_when_scanners_meet(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	for (i = 0; i < CACHED_PAGES; i += 2) {
		cp_lru_del(&f->pc, cp_mapping_slot(&f->pc, f->id, i));
		page(f, i)->flags |= CP_PG_ISOLATED;
	}
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 0);
	assert_int_equal(st.migrate_scanned, 1536);
	assert_int_equal(st.free_scanned, 0);
	assert_int_equal(f->c.zone[0].cached_migrate_pfn, 0);
	assert_int_equal(f->c.zone[0].cached_free_pfn, 1536);
	assert_int_equal(f->mem.zones[0].buddy.nr_free_pages, 1028);
	fixture_free(f);
}

static void count_wake(void *priv)
{
	((struct fixture *)priv)->nr_wakes++;
}

/* wakeup_kcompactd(): order 0 never wakes it; an order > 0 does when it
 * sleeps and the node is suitable (interleaved zone, order 4: CONTINUE);
 * not when awake (the order is remembered) or when the zone already
 * meets the order (fresh zone, order 4: SUCCESS). */
static void wakeup_kcompactd_not_for_order_0(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	f->c.wake = count_wake;
	f->c.wake_priv = f;
	cp_wakeup_kcompactd(&f->c, 4);
	assert_int_equal(f->nr_wakes, 0); /* fresh zone: SUCCESS */
	fill_interleaved(f);
	f->c.kcompactd_max_order = 0;
	cp_wakeup_kcompactd(&f->c, 0);
	assert_int_equal(f->nr_wakes, 0);
	assert_int_equal(f->c.kcompactd_max_order, 0);
	cp_wakeup_kcompactd(&f->c, 4);
	assert_int_equal(f->nr_wakes, 1);
	assert_false(f->c.kcompactd_sleeping);
	cp_wakeup_kcompactd(&f->c, 5);
	assert_int_equal(f->nr_wakes, 1);
	assert_int_equal(f->c.kcompactd_max_order, 5);
	fixture_free(f);
}

/* kcompactd_do_work() at order 4 on the interleaved zone: counts
 * compact_daemon_wake, compacts (SUCCESS, 256 pages migrated as in
 * compact_zone_moves_pages...), compaction_defer_reset(4, false) raises
 * order_failed to 5, the order is forgotten. Asked for order 10 then:
 * 1028 free < low 6 + compact_gap 2048, not suitable, no compact_zone. */
static void kcompactd_do_work_resets_deferral_on_success(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	fill_interleaved(f);
	f->c.kcompactd_max_order = 4;
	assert_int_equal(cp_kcompactd_do_work(&f->c, 0), 256);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_DAEMON_WAKE], 1);
	assert_int_equal(f->vs.v[CP_VM_KCOMPACTD_SUCCESS], 1);
	assert_int_equal(f->c.zone[0].compact_order_failed, 5);
	assert_int_equal(f->c.kcompactd_max_order, 0);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_DAEMON_MIGRATE_SCANNED],
			 f->vs.v[CP_VM_COMPACT_MIGRATE_SCANNED]);
	f->c.kcompactd_max_order = 10;
	assert_int_equal(cp_kcompactd_do_work(&f->c, 0), 0);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_DAEMON_WAKE], 2);
	assert_int_equal(f->c.nr_compact_zone, 1);
	fixture_free(f);
}

/* kcompactd_do_work(): a COMPLETE run (nothing movable) defers
 * compaction: shift 1, cp_compact_daemon_fail counted; the next
 * wake-up at that order is deferred (no second compact_zone). */
static void kcompactd_do_work_defers_on_complete(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	for (i = 0; i < CACHED_PAGES; i += 2) {
		cp_lru_del(&f->pc, cp_mapping_slot(&f->pc, f->id, i));
		page(f, i)->flags |= CP_PG_ISOLATED;
	}
	f->c.kcompactd_max_order = 4;
	assert_int_equal(cp_kcompactd_do_work(&f->c, 0), 0);
	assert_int_equal(f->vs.v[CP_VM_KCOMPACTD_FAIL], 1);
	assert_int_equal(f->c.zone[0].compact_defer_shift, 1);
	assert_int_equal(f->c.nr_compact_zone, 1);
	f->c.kcompactd_max_order = 4;
	assert_int_equal(cp_kcompactd_do_work(&f->c, 0), 0);
	assert_int_equal(f->c.nr_compact_zone, 1);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_DAEMON_WAKE], 2);
	fixture_free(f);
}

/* try_to_compact_pages() at the async priority: the interleaved zone
 * compacts to a free order-4 block (SUCCESS, 256 pages moved as in the
 * kcompactd test above) and the deferral is reset (order_failed 5). */
static void try_to_compact_pages_async_frees_a_block_and_resets_deferral(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;

	(void)state;
	fill_interleaved(f);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_KERNEL, 0, &migrated), CP_COMPACT_SUCCESS);
	assert_int_equal(migrated, 256);
	assert_int_equal(f->c.zone[0].compact_order_failed, 5);
	assert_true(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 4));
	assert_true(cp_compaction_check(&f->c));
	fixture_free(f);
}

/* GFP_NOFS (an XFS mapping's folio, 6.x readahead): "Only allow to
 * migrate anonymous pages in GFP_NOFS context because those do not
 * depend on fs locks" (isolate_migratepages_block) - the interleaved
 * zone's page cache stays where it is: nothing moves, no order-4 block,
 * the scanners meet (COMPLETE). */
static void try_to_compact_pages_nofs_moves_no_page_cache(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated = 1;

	(void)state;
	fill_interleaved(f);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_NOFS, 0, &migrated),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(migrated, 0);
	assert_false(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 4));
	fixture_free(f);
}

/* A page under writeback does not move (migrate_folio_unmap: -EBUSY
 * unless MIGRATE_SYNC): the interleaved zone with every cached page
 * under writeback gives kcompactd (SYNC_LIGHT) nothing to move, the
 * scanners meet (COMPLETE); once the writes complete, 256 pages move and
 * the order-4 block appears, as in
 * compact_zone_moves_pages_and_frees_a_block_of_the_order. */
static void pages_under_writeback_do_not_move(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;

	(void)state;
	fill_interleaved(f);
	cp_pagecache_set_writeback(&f->pc, f->id, 0, CACHED_PAGES, true);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 0);
	cp_pagecache_set_writeback(&f->pc, f->id, 0, CACHED_PAGES, false);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(st.migrated, 256);
	fixture_free(f);
}

/* A zone deferred at the order (defer_compaction, shift 1: the next
 * attempt is skipped) is not compacted: the result is COMPACT_DEFERRED,
 * nothing moves. */
static void try_to_compact_pages_skips_a_deferred_zone(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated = 1;

	(void)state;
	fill_interleaved(f);
	cp_defer_compaction(&f->c, 0, 4);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_KERNEL, 0, &migrated), CP_COMPACT_DEFERRED);
	assert_int_equal(migrated, 0);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_MIGRATE_SCANNED], 0);
	fixture_free(f);
}

/* The start layout's movable fillers (on the real machine mostly the
 * balloon's mlocked pages, which compaction migrates) move like page
 * cache: the interleaved zone of
 * compact_zone_moves_pages_and_frees_a_block_of_the_order, with the
 * held even pfns fillers instead of page cache, gives the same 256 moves
 * and the free order-9 block at pfn 0; the moved fillers are at pfns
 * 1536 and up and are still fillers, their old pfns are free. */
/* The interleaved zone with fillers: process pages at pfns 0 .. 2039,
 * the odd ones freed, the even ones fillers (anonymous pages). */
static void fill_interleaved_fillers(struct fixture *f)
{
	uint32_t *pfns = calloc(CACHED_PAGES, sizeof(*pfns)), i;

	assert_non_null(pfns);
	assert_int_equal(cp_mem_alloc_pages(&f->mem, CP_OWNER_PROCESS, CACHED_PAGES,
					    CP_MIGRATE_MOVABLE, &f->ctx, pfns), 0);
	for (i = 0; i < CACHED_PAGES; i++) {
		assert_int_equal(pfns[i], i);
		if (i % 2)
			cp_mem_free_block(&f->mem, CP_OWNER_PROCESS, i, 0, NULL);
		else
			assert_int_equal(cp_mem_mark_movable_filler(&f->mem, i), 0);
	}
	free(pfns);
	assert_int_equal(cp_mem_mark_movable_filler(&f->mem, 1), -CP_EINVAL); /* free */
	assert_int_equal(f->mem.zones[0].buddy.nr_free[0], 1020);
}

/* GFP_NOFS direct compaction still moves anonymous pages: the fillers'
 * zone compacts to an order-4 block as kcompactd's does (256 moves). */
static void try_to_compact_pages_nofs_moves_fillers(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;

	(void)state;
	fill_interleaved_fillers(f);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_NOFS, 0, &migrated),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(migrated, 256);
	assert_true(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 4));
	fixture_free(f);
}

static void compact_zone_moves_movable_fillers_like_page_cache(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i, fillers = 0;

	(void)state;
	fill_interleaved_fillers(f);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(st.migrated, 256);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	for (i = 0; i < ZONE_PAGES; i++) {
		if (!cp_mem_movable_filler(&f->mem, i))
			continue;
		fillers++;
		assert_true(i >= 512);
		assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, i), -1);
		if (i < 1536)
			assert_int_equal(i % 2, 0);
	}
	assert_int_equal(fillers, CACHED_PAGES / 2);
	assert_int_equal(f->mem.free_pages, 1028);
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_compaction_check(&f->c));
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fragmentation_index_arithmetic),
		cmocka_unit_test(fragmentation_score_is_free_memory_outside_pageblocks),
		cmocka_unit_test(fragmentation_score_wmarks_follow_proactiveness),
		cmocka_unit_test(proactive_compaction_runs_above_the_high_mark_to_the_low),
		cmocka_unit_test(no_proactive_compaction_at_proactiveness_0),
		cmocka_unit_test(compaction_suitable_by_watermark_and_fragindex),
		cmocka_unit_test(compaction_suitable_fragindex_at_most_500_is_not_suitable),
		cmocka_unit_test(defer_compaction_skips_1_then_3_attempts),
		cmocka_unit_test(compact_zone_moves_pages_and_frees_a_block_of_the_order),
		cmocka_unit_test(compact_zone_moves_movable_fillers_like_page_cache),
		cmocka_unit_test(compact_zone_takes_free_pages_only_from_movable_pageblocks),
		cmocka_unit_test(compact_zone_never_moves_other_owners_pages),
		cmocka_unit_test(compact_zone_complete_when_scanners_meet),
		cmocka_unit_test(wakeup_kcompactd_not_for_order_0),
		cmocka_unit_test(kcompactd_do_work_resets_deferral_on_success),
		cmocka_unit_test(kcompactd_do_work_defers_on_complete),
		cmocka_unit_test(try_to_compact_pages_async_frees_a_block_and_resets_deferral),
		cmocka_unit_test(try_to_compact_pages_nofs_moves_no_page_cache),
		cmocka_unit_test(try_to_compact_pages_nofs_moves_fillers),
		cmocka_unit_test(pages_under_writeback_do_not_move),
		cmocka_unit_test(try_to_compact_pages_skips_a_deferred_zone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
