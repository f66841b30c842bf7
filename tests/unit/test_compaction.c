/*
 * test_compaction.c - mm/compaction.c rules (6.1): the fragmentation
 * index, compaction_suitable, deferral, compact_zone on a hand-made
 * zone, wakeup_kcompactd; 6.9+ large-folio compaction (c->large_folios).
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
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[0], 0);
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[1], 0);
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

/* kcompactd's work a batch per step (the kernel's kcompactd reschedules
 * between compact_zone()'s batches): on the interleaved zone at order 4
 * each batch isolates COMPACT_CLUSTER_MAX = 32 pages of pageblock 0
 * (pfns 0, 2, ..), leaving the order-4 block it began in, so check_drain
 * forgets the block and no batch finishes the pageblock at once; after
 * 8 batches (256 pages, as kcompactd_do_work_resets_deferral_on_success)
 * the ninth step reaches the pageblock's end and __compact_finished
 * finds the free order-4 block (SUCCESS). The free scanner takes block
 * 3's 252 free odd pages upwards, 32 a batch; the eighth batch takes
 * the last 28 and, needing 4 more, the order-3 block at 2040 whole: 4
 * pages stay isolated until the run ends and gives them back.
 * pgmigrate_success counts as the batches go. */
static void kcompactd_work_goes_a_batch_per_step(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated, free_before_end;
	unsigned i;

	(void)state;
	fill_interleaved(f);
	f->c.kcompactd_max_order = 4;
	cp_kcompactd_begin(&f->c, false, NULL, NULL);
	for (i = 1; i <= 8; i++) {
		assert_true(cp_kcompactd_work_step(&f->c, 0, &migrated));
		assert_int_equal(migrated, 32);
		assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 32 * i);
		assert_int_equal(f->c.kcd.cc.nr_freepages, i < 8 ? 0 : 4);
		assert_true(cp_compaction_check(&f->c));
	}
	free_before_end = f->mem.zones[0].buddy.nr_free_pages;
	assert_false(cp_kcompactd_work_step(&f->c, 0, &migrated));
	assert_int_equal(migrated, 0);
	assert_int_equal(f->mem.zones[0].buddy.nr_free_pages, free_before_end + 4);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 256);
	assert_int_equal(f->vs.v[CP_VM_KCOMPACTD_SUCCESS], 1);
	assert_int_equal(f->c.kcompactd_max_order, 0);
	assert_false(f->c.kcd.active);
	assert_true(cp_compaction_check(&f->c));
	fixture_free(f);
}

/* kcompactd_do_work() forgets the order it ran at only when no larger
 * one was asked meanwhile ("if (pgdat->kcompactd_max_order <=
 * cc.order) pgdat->kcompactd_max_order = 0"): a wake-up at order 6
 * between two batches of an order-4 run (kcompactd awake: the order is
 * only raised) survives the run. */
static void kcompactd_keeps_a_larger_order_asked_during_its_work(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;

	(void)state;
	fill_interleaved(f);
	f->c.kcompactd_max_order = 4;
	f->c.kcompactd_sleeping = false;
	cp_kcompactd_begin(&f->c, false, NULL, NULL);
	assert_true(cp_kcompactd_work_step(&f->c, 0, &migrated));
	cp_wakeup_kcompactd(&f->c, 6);
	assert_int_equal(f->c.nr_wakeups, 0);
	while (cp_kcompactd_work_step(&f->c, 0, &migrated))
		;
	assert_int_equal(f->c.kcd.order, 4);
	assert_int_equal(f->c.kcompactd_max_order, 6);
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
 * scanners meet (COMPLETE) and every pageblock the migration scanner
 * scanned whole without isolating is marked skip (5.1+). Once the
 * writes complete, kcompactd passes the marked blocks: COMPLETE again,
 * nothing moves. After the reset kswapd does when it sleeps (here asked
 * as a direct compaction's meeting scanners ask: every mark cleared, the
 * cached free pfn at the last page of the zone, 2047, as
 * __reset_isolation_suitable leaves it) block 0's 256 pages move: the
 * free scanner scans pfn 2047 alone (inside the free order-3 block at
 * 2040), so pageblock 3 counts as scanned whole, then takes pageblock
 * 2's 256 free odd pfns (513 scanned) and leaves its pfn at pageblock 1,
 * the migration scanner's next: COMPLETE with pfns 0..511 free as an
 * order-9 block (the scanners are tested before the free lists). */
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
	assert_true(cp_buddy_pageblock_skip(&f->mem.zones[0].buddy, 0));
	cp_pagecache_set_writeback(&f->pc, f->id, 0, CACHED_PAGES, false);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 0);
	f->c.zone[0].blockskip_flush = true;
	cp_reset_isolation_suitable(&f->c);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	assert_int_equal(st.free_scanned, 1 + 512);
	assert_int_equal(st.migrated, 256);
	fixture_free(f);
}

/*
 * PB_migrate_skip, the compaction hints (5.1+ unless said: Mel Gorman's
 * 2019 series; 4.11 as c->skip_4_11). The interleaved zone throughout:
 * cached pages at even pfns 0..2038, free odd pfns and the order-3
 * block at 2040.
 */

static bool marked(struct fixture *f, uint32_t pfn)
{
	return cp_buddy_pageblock_skip(&f->mem.zones[0].buddy, pfn);
}

/* Every cached page isolated by reclaim: nothing can move. */
static void isolate_all_cached(struct fixture *f)
{
	uint32_t i;

	for (i = 0; i < CACHED_PAGES; i += 2) {
		cp_lru_del(&f->pc, cp_mapping_slot(&f->pc, f->id, i));
		page(f, i)->flags |= CP_PG_ISOLATED;
	}
}

/* test_and_set_skip(): the migration scanner marks pageblock 0 when it
 * first isolates from it (the scan began at the block's start); the run
 * ends at SUCCESS after block 0 (as in
 * compact_zone_moves_pages_and_frees_a_block_of_the_order), so block 1,
 * never reached, stays clear. */
static void skip_hint_set_at_a_blocks_first_isolation(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	fill_interleaved(f);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_SUCCESS);
	assert_true(marked(f, 0));
	assert_false(marked(f, 512));
	fixture_free(f);
}

/* isolation_suitable() in isolate_migratepages(): pageblock 0 marked,
 * the migration scanner passes it unscanned and empties pageblock 1
 * (512..1023) instead: an order-9 block at 512, block 0's pages where
 * they were, 512 pfns scanned. The last batch of free pages ends
 * pageblock 3, so the free scanner's pfn drops to pageblock 2, where
 * the migration scanner now is: COMPLETE (the scanners are tested
 * before the free lists). */
static void skip_hint_migration_scanner_passes_a_marked_block(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;

	(void)state;
	fill_interleaved(f);
	cp_buddy_set_pageblock_skip(&f->mem.zones[0].buddy, 0, true);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 512), 9);
	assert_int_equal(page(f, 2)->pfn, 2);
	assert_int_equal(st.migrate_scanned, 512);
	assert_int_equal(st.migrated, 256);
	fixture_free(f);
}

/* update_pageblock_skip() for the free scanner: block 0's 256 pages
 * want 256 targets; pageblock 3 holds 252 free odd pfns and the order-3
 * block at 2040, so the last batch scans it to its end (2048): marked.
 * Pageblock 2, never scanned, stays clear. */
static void skip_hint_free_scanner_marks_a_block_it_scans_whole(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	fill_interleaved(f);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_SUCCESS);
	assert_true(marked(f, 1536));
	assert_false(marked(f, 1024));
	fixture_free(f);
}

/* isolation_suitable() in isolate_freepages(): pageblock 3 marked, the
 * free scanner takes pageblock 2's 256 free odd pfns instead (as when
 * block 3 is UNMOVABLE in
 * compact_zone_takes_free_pages_only_from_movable_pageblocks): every
 * moved page in 1024..1535, block 3's free pages untouched. */
static void skip_hint_free_scanner_passes_a_marked_block(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	cp_buddy_set_pageblock_skip(&f->mem.zones[0].buddy, 1536, true);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 256);
	for (i = 0; i < 512; i += 2)
		assert_true(page(f, i)->pfn >= 1024 && page(f, i)->pfn < 1536);
	for (i = 1537; i < 2040; i += 2)
		assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, i), 0);
	fixture_free(f);
}

/* __compact_finished(): the scanners of a direct compaction meet
 * (nothing movable) - compact_blockskip_flush is set for kswapd; when
 * kcompactd's meet, it is not ("the decision to be clear should be
 * directly based on an allocation request"). */
static void skip_hint_flush_asked_by_direct_compaction_only(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;

	(void)state;
	fill_interleaved(f);
	isolate_all_cached(f);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_COMPLETE);
	assert_false(f->c.zone[0].blockskip_flush);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_KERNEL, 0, &migrated),
			 CP_COMPACT_COMPLETE);
	assert_true(f->c.zone[0].blockskip_flush);
	fixture_free(f);
}

/*
 * __reset_isolation_suitable() / __reset_isolation_pfn() by hand, every
 * pageblock marked and block 1's cached pages isolated (neither LRU nor
 * free at any sampled pfn). The walk: pfn 0 (source: an LRU page at 0)
 * cleared, the cached migrate pfns 0; pfn 2047 (target: MOVABLE, the
 * free order-3 head at 2040 = 1536 + 63 * 8 sampled) cleared, the cached
 * free pfn 2047; pfn 512 (both sides now: no LRU, no free head) keeps
 * its mark; pfn 1535 (both: LRU at 1024) cleared; 1024 < 1023 fails.
 * The flush is consumed.
 */
static void skip_hint_reset_clears_blocks_with_a_source_or_target(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	for (i = 512; i < 1024; i += 2) {
		cp_lru_del(&f->pc, cp_mapping_slot(&f->pc, f->id, i));
		page(f, i)->flags |= CP_PG_ISOLATED;
	}
	for (i = 0; i < ZONE_PAGES; i += 512)
		cp_buddy_set_pageblock_skip(&f->mem.zones[0].buddy, i, true);
	f->c.zone[0].cached_migrate_pfn[0] = f->c.zone[0].cached_migrate_pfn[1] = 1024;
	f->c.zone[0].blockskip_flush = true;
	cp_reset_isolation_suitable(&f->c);
	assert_false(marked(f, 0));
	assert_true(marked(f, 512));
	assert_false(marked(f, 1024));
	assert_false(marked(f, 1536));
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[0], 0);
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[1], 0);
	assert_int_equal(f->c.zone[0].cached_free_pfn, 2047);
	assert_false(f->c.zone[0].blockskip_flush);
	fixture_free(f);
}

/* compaction_restarting(): deferred the longest (shift 6) and the 64
 * attempts considered, a run clears the marks first (the flush asked):
 * marked block 0 is compacted again - 256 pages move, pfns 0..511 a free
 * order-9 block. (The reset leaves the cached free pfn at 2047, the
 * zone's last page: pageblock 3 counts as scanned from there, the pages
 * go to pageblock 2, the scanners meet: COMPLETE, as in
 * pages_under_writeback_do_not_move.) */
static void skip_hint_reset_when_compaction_restarts(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;

	(void)state;
	fill_interleaved(f);
	cp_buddy_set_pageblock_skip(&f->mem.zones[0].buddy, 0, true);
	f->c.zone[0].compact_defer_shift = CP_COMPACT_MAX_DEFER_SHIFT;
	f->c.zone[0].compact_considered = 64;
	f->c.zone[0].blockskip_flush = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	assert_int_equal(st.migrated, 256);
	fixture_free(f);
}

/* The interleaved zone, but pfn 511 (pageblock 0's last) stays cached
 * and four more pages of pageblock 2 are evicted (1024, 1026, 1028,
 * 1030): 257 cached pages in block 0, 1031 free pages, none in a block
 * of order 4 or more but the order-3 one at 2040 - enough for
 * compaction at order 9 (low 6 + compact_gap 1024 < 1031). */
static void fill_last_cached(struct fixture *f)
{
	uint32_t i;

	fill(f);
	for (i = 1; i < CACHED_PAGES; i += 2)
		if (i != 511)
			evict(f, i);
	for (i = 1024; i <= 1030; i += 2)
		evict(f, i);
	assert_int_equal(f->mem.free_pages, 1031);
}

/* cc->finish_pageblock (5.1+; 6.1 cc->rescan) on fill_last_cached():
 * at order 9 the scanner, 64 pfns into block 0 after the first 32 pages,
 * is still in the order-aligned block it migrated from (check_drain
 * does not forget it), so the next batch takes the rest of block 0,
 * through pfn 511, and at the block's end update_cached_migrate() moves
 * the cached pfns to pageblock_end_pfn(512) = 1024. At order 4 the
 * drain forgets the block after each batch: the last batch ends at 511
 * with its 32nd page, isolations and no finish - the cached pfns stay 0.
 * Both runs empty block 0: SUCCESS. */
static void skip_hint_finished_block_moves_the_cached_pfn(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	fill_last_cached(f);
	assert_int_equal(cp_compact_zone(&f->c, 0, 9, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[1], 1024);
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[0], 1024);
	fixture_free(f);

	f = fixture_new();
	fill_last_cached(f);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, NULL),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(f->c.zone[0].cached_migrate_pfn[1], 0);
	fixture_free(f);
}

/* 4.11 update_pageblock_skip(nr_isolated): a scan that isolated pages
 * leaves the block unmarked. On fill_last_cached() the async direct
 * compaction's last batch in block 0 (pfn 511 alone) ends the block with
 * an isolation: block 0 stays clear (SUCCESS, 257 pages moved), where
 * 5.1+ marks it at its first isolation. */
static void skip_hint_4_11_marks_no_block_that_isolated(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;

	(void)state;
	fill_last_cached(f);
	f->c.skip_4_11 = true;
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_KERNEL, 0, &migrated),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(migrated, 257);
	assert_false(marked(f, 0));
	fixture_free(f);
}

/* 4.11 kcompactd_do_work(): .ignore_skip_hint = true - marked block 0
 * is compacted anyway (256 pages move), where 5.1+'s kcompactd passes
 * it (skip_hint_migration_scanner_passes_a_marked_block). */
static void skip_hint_4_11_kcompactd_ignores_the_marks(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;

	(void)state;
	fill_interleaved(f);
	f->c.skip_4_11 = true;
	cp_buddy_set_pageblock_skip(&f->mem.zones[0].buddy, 0, true);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 9);
	assert_int_equal(st.migrated, 256);
	fixture_free(f);
}

/* skip_on_failure (isolate_migratepages_block, 4.6+): async direct
 * compaction gives up an order-aligned block at its first failure. Page
 * 2 under writeback: at order 4 the first 16-pfn block [0, 16) has
 * isolated page 0 when page 2 fails - page 0 is put back and the scan
 * goes on at 16; pages 0..14 stay, the rest of pageblock 0 moves (248
 * pages), [16, 512) frees: SUCCESS at the block's end. */
static void skip_on_failure_gives_up_the_order_block(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	cp_pagecache_set_writeback(&f->pc, f->id, 2, 1, true);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_KERNEL, 0, &migrated),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(migrated, 248);
	for (i = 0; i < 16; i += 2)
		assert_int_equal(page(f, i)->pfn, i);
	assert_true(page(f, 16)->pfn >= 1536);
	fixture_free(f);
}

/* skip_on_failure: a page under writeback at every index 2 mod 16 -
 * each 16-pfn block isolates its first page, fails at its third pfn and
 * puts the page back: nothing migrates, nothing counts as isolated
 * (compact_isolated 0), 3 pfns scanned in each of the 96 blocks below
 * the free scanner's pageblock 3, COMPLETE. */
static void skip_on_failure_counts_no_put_back_page(void **state)
{
	struct fixture *f = fixture_new();
	uint64_t migrated;
	uint32_t i;

	(void)state;
	fill_interleaved(f);
	for (i = 2; i < CACHED_PAGES; i += 16)
		cp_pagecache_set_writeback(&f->pc, f->id, i, 1, true);
	assert_int_equal(cp_try_to_compact_pages(&f->c, 4, CP_GFP_KERNEL, 0, &migrated),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(migrated, 0);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_ISOLATED], 0);
	assert_int_equal(f->vs.v[CP_VM_COMPACT_MIGRATE_SCANNED], 3 * 96);
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

/* ---- 6.9+ large-folio compaction (linux-6.x profile) -------------------
 *
 * The zones below: fill_folios() places indexes 0 .. CACHED_PAGES - 1 at
 * pfn = index as fill() does, some of them as one large folio; then
 * every cached page is pinned under writeback (migrate_folio_unmap()
 * gives -EBUSY below MIGRATE_SYNC: compaction passes it, as
 * pages_under_writeback_do_not_move shows) except the few each test
 * lets move, and holes are evicted in pageblock 3 where the free
 * scanner looks first (it walks each pageblock upwards from 1536). The
 * pad, 36 order-0 holes at the odd pfns 1969 .. 2039, plus the order-3
 * block at 2040 give 44 free pages and no block of order >= 4, so
 * compaction_suitable(order 4) says CONTINUE (44 and more > low 6 +
 * compact_gap(4) 32 = 38, fragindex > 500: computed in each test). With
 * pageblocks 1 and 2 all pinned, the migration scanner walks 0 .. 1535
 * (migrate_scanned 1536) and meets the free scanner in pageblock 3
 * (COMPLETE) unless an order-4 block appears at the end of pageblock 0.
 */

/* A folio inserted whole: its index (aligned to the order) and order. */
struct folio_at {
	uint32_t index;
	unsigned order;
};

/* fill() with the folios given (increasing indexes) inserted whole. A
 * folio at an index aligned to its order comes from the smallest free
 * block of at least its order; [index, 2048) is then free as blocks of
 * increasing order from index (the first one of order ctz(index) >= the
 * folio's), so that block is at index and expand() hands out its start:
 * the folio's pfns are its indexes too (asserted). */
static void fill_folios(struct fixture *f, const struct folio_at *folios, unsigned nr)
{
	uint32_t i = 0, j;
	unsigned k = 0;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, CACHED_PAGES, NULL, NULL, &f->id), 0);
	while (i < CACHED_PAGES) {
		if (k < nr && folios[k].index == i) {
			uint32_t n = 1u << folios[k].order;

			assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, f->id, i,
									folios[k].order, &f->ctx),
					 0);
			for (j = 0; j < n; j++) {
				assert_int_equal(page(f, i + j)->pfn, i + j);
				assert_int_equal(page(f, i + j)->order, folios[k].order);
			}
			i += n;
			k++;
			continue;
		}
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, f->id, i, &f->ctx), 0);
		assert_int_equal(page(f, i)->pfn, i);
		i++;
	}
	assert_int_equal(k, nr);
	cp_lru_add_drain_all(&f->pc);
}

/* Every cached page under writeback (evicting a page clears it). */
static void pin_all(struct fixture *f)
{
	cp_pagecache_set_writeback(&f->pc, f->id, 0, CACHED_PAGES, true);
}

/* Indexes first .. first + nr - 1 movable again (writeback cleared). */
static void unpin(struct fixture *f, uint32_t first, uint32_t nr)
{
	cp_pagecache_set_writeback(&f->pc, f->id, first, nr, false);
}

/* Order-0 pages first .. first + nr - 1 evicted: their pfns freed. */
static void free_range(struct fixture *f, uint32_t first, uint32_t nr)
{
	uint32_t i;

	for (i = first; i < first + nr; i++)
		evict(f, i);
}

/* The pad: the odd indexes 1969 .. 2039 evicted, (2039 - 1969) / 2 + 1
 * = 36 free order-0 pages (their even neighbours stay). */
static void free_pad(struct fixture *f)
{
	uint32_t i;

	for (i = 1969; i <= 2039; i += 2)
		evict(f, i);
}

static void check_all(struct fixture *f)
{
	assert_true(cp_pagecache_check(&f->pc));
	assert_true(cp_buddy_check(&f->mem.zones[0].buddy));
	assert_true(cp_mem_check(&f->mem));
	assert_true(cp_compaction_check(&f->c));
}

/*
 * The zone of the next two tests: an order-2 folio at index 8 (pfns
 * 8..11) between movable order-0 pages 0..7 and 12..15, every other
 * cached page pinned; free: four order-2 blocks at 1536, 1544, 1552 and
 * 1560 (indexes evicted; their buddies 1540, 1548, 1556, 1564 pinned,
 * so no merging), the pad and the block at 2040: 16 + 36 + 8 = 60 free
 * pages in 4 + 36 + 1 = 41 blocks, none of order >= 4.
 * compaction_suitable(4): 60 > 38; fragindex 1000 - (1000 + 60 * 1000 /
 * 16) / 41 = 1000 - 4750 / 41 = 1000 - 115 = 885 > 500: CONTINUE.
 */
static void fill_folio_between_movable_pages(struct fixture *f)
{
	const struct folio_at folio = { 8, 2 };
	uint32_t b;

	fill_folios(f, &folio, 1);
	pin_all(f);
	unpin(f, 0, 16);
	for (b = 1536; b <= 1560; b += 8)
		free_range(f, b, 4);
	free_pad(f);
	assert_int_equal(f->mem.free_pages, 60);
	assert_int_equal(f->mem.zones[0].buddy.nr_free[2], 4);
	assert_int_equal(cp_fragmentation_index(&f->mem.zones[0].buddy, 4), 885);
}

/*
 * 6.9+ isolate_migratepages_block(): the order-2 folio is below the
 * target order 4 and pageblock_order 9 (skip_isolation_on_order false),
 * so it is isolated whole with its neighbours: one batch of 8 + 4 + 4 =
 * 16 pages (< COMPACT_CLUSTER_MAX 32; the pageblock's end stops the
 * scanner: migrate_scanned 512 there, 1536 in all). The first
 * compaction_alloc() runs the free scanner from 1536: it keeps the
 * order-2 blocks whole on freepages[2] (list_add_tail) and stops at 16
 * pages, 1536 .. 1563 scanned (28). migrate_pages() (the model walks
 * the isolated folios in pfn order) gives page 0 the block at 1536
 * (1538 to the front of list 1, 1537 to list 0), page 1 1537, page 2
 * 1538 (1539 to list 0), page 3 1539; pages 4..7 1544..1547 the same
 * way; the folio asks for order 2 and takes the next order-2 block
 * whole: 1552..1555, consecutive, aligned to 4; pages 12..15 1560..1563.
 * The old pages merge: 0..7 an order-3 block, then the folio's block
 * (freed whole at order 2) and 12..15: an order-4 block at 0 (buddy 16
 * pinned), which __compact_finished() finds at the end of pageblock 0:
 * SUCCESS. pgmigrate_success 16 = 12 pages + the folio's 4;
 * compact_isolated 16 + 16 = 32.
 */
static void large_folios_compact_zone_moves_a_small_folio_whole(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i, head;

	(void)state;
	fill_folio_between_movable_pages(f);
	head = cp_mapping_slot(&f->pc, f->id, 8);
	f->c.large_folios = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_SUCCESS);
	assert_int_equal(st.migrated, 16);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 16);
	assert_int_equal(st.migrate_scanned, 512);
	assert_int_equal(st.free_scanned, 28);
	assert_int_equal(st.isolated, 32);
	assert_int_equal(page(f, 8)->pfn % 4, 0);
	for (i = 0; i < 4; i++) {
		struct cp_page *p = page(f, 8 + i);

		assert_int_equal(p->pfn, 1552 + i);
		assert_int_equal(p->order, 2);
		assert_int_equal(cp_folio_head(&f->pc, head + i), head);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, 1552 + i), head + i);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, 8 + i), CP_NIL);
	}
	assert_int_equal(page(f, 0)->pfn, 1536);
	assert_int_equal(page(f, 3)->pfn, 1539);
	assert_int_equal(page(f, 4)->pfn, 1544);
	assert_int_equal(page(f, 12)->pfn, 1560);
	assert_int_equal(page(f, 15)->pfn, 1563);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 4);
	assert_int_equal(f->mem.free_pages, 60);
	assert_int_equal(f->mem.zones[0].buddy.nr_free_pages, 60);
	check_all(f);
	fixture_free(f);
}

/*
 * 6.1 isolate_migratepages_block(): a PageCompound page is skipped whole
 * (low_pfn += 2^order - 1) unless cc->alloc_contig; large_folios is off
 * after cp_compaction_init(). The same zone: pages 0..7 and 12..15 are
 * isolated (12 pages), the folio is not. The free scanner splits each
 * block it takes into order-0 pages (split_map_pages) and stops at 12:
 * the blocks at 1536, 1544, 1552 (1536 .. 1555 scanned: 20), used in
 * order: 0..3 -> 1536..1539, 4..7 -> 1544..1547, 12..15 -> 1552..1555.
 * The old pages free as an order-3 block at 0 and an order-2 block at 12
 * (its buddy 8 is the folio): no order-4 block, pageblocks 1 and 2
 * pinned, the scanners meet: COMPLETE. pgmigrate_success 12; the folio
 * keeps pfns 8..11 and order 2.
 */
static void without_large_folios_compact_zone_never_moves_a_folio(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i, head;

	(void)state;
	assert_false(f->c.large_folios);
	fill_folio_between_movable_pages(f);
	head = cp_mapping_slot(&f->pc, f->id, 8);
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 12);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 12);
	assert_int_equal(st.migrate_scanned, 1536);
	assert_int_equal(st.free_scanned, 20);
	assert_int_equal(st.isolated, 24);
	for (i = 0; i < 4; i++) {
		assert_int_equal(page(f, 8 + i)->pfn, 8 + i);
		assert_int_equal(page(f, 8 + i)->order, 2);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, 8 + i), head + i);
		assert_int_equal(page(f, i)->pfn, 1536 + i);
		assert_int_equal(page(f, 4 + i)->pfn, 1544 + i);
		assert_int_equal(page(f, 12 + i)->pfn, 1552 + i);
	}
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 3);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 12), 2);
	assert_false(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 4));
	assert_int_equal(f->mem.free_pages, 60);
	check_all(f);
	fixture_free(f);
}

/*
 * The zone of the next two tests: the folios given, the only movable
 * pages; free: an order-3 block at 1536 (indexes 1536..1543 evicted, its
 * buddy 1544 pinned), the pad and the block at 2040: 8 + 36 + 8 = 52
 * free pages in 38 blocks, none of order >= 4.
 */
static void fill_movable_folios(struct fixture *f, const struct folio_at *folios, unsigned nr)
{
	unsigned k;

	fill_folios(f, folios, nr);
	pin_all(f);
	for (k = 0; k < nr; k++)
		unpin(f, folios[k].index, 1u << folios[k].order);
	free_range(f, 1536, 8);
	free_pad(f);
	assert_int_equal(f->mem.free_pages, 52);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 1536), 3);
}

/*
 * skip_isolation_on_order(): "skip any folio that is larger than the
 * target order" (order >= target_order) unless the order is -1. A
 * request at order 4 (compaction_suitable: 52 > 38, fragindex 1000 -
 * (1000 + 52 * 1000 / 16) / 38 = 1000 - 4250 / 38 = 1000 - 111 = 889 >
 * 500: CONTINUE) with an order-4 folio at 16 (pfns 16..31) and an
 * order-3 folio at 32 (pfns 32..39): the order-4 one is passed whole
 * (16 pfns scanned, nothing isolated) and keeps its pfns and order; the
 * order-3 one is isolated (8 pages) and takes the order-3 block at 1536
 * whole (free scanner: 1536 isolated, 8 >= 8 pages, 8 scanned). Its old
 * block frees at order 3 (buddy 40 pinned): no order-4 block, the
 * scanners meet: COMPLETE. migrated 8, isolated 8 + 8.
 */
static void large_folios_skip_a_folio_of_the_target_order(void **state)
{
	const struct folio_at folios[] = { { 16, 4 }, { 32, 3 } };
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_movable_folios(f, folios, 2);
	assert_int_equal(cp_fragmentation_index(&f->mem.zones[0].buddy, 4), 889);
	f->c.large_folios = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 8);
	assert_int_equal(st.isolated, 16);
	assert_int_equal(st.free_scanned, 8);
	assert_int_equal(st.migrate_scanned, 1536);
	for (i = 0; i < 16; i++) {
		assert_int_equal(page(f, 16 + i)->pfn, 16 + i);
		assert_int_equal(page(f, 16 + i)->order, 4);
	}
	for (i = 0; i < 8; i++) {
		assert_int_equal(page(f, 32 + i)->pfn, 1536 + i);
		assert_int_equal(page(f, 32 + i)->order, 3);
	}
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 32), 3);
	check_all(f);
	fixture_free(f);
}

/*
 * skip_isolation_on_order(), second rule: "we won't try creating free
 * blocks of memory that are larger than" a pageblock: a folio of
 * pageblock_order (9) or more is skipped even by compaction of the whole
 * zone (order -1, which otherwise isolates any folio). An order-9 folio
 * fills pageblock 0 (index 0: the order-10 block at 0 split, pfns
 * 0..511) - the fixture holds it; an order-3 folio at 512 (pfns
 * 512..519). At CP_COMPACT_ORDER_ALL (no suitability test, no success
 * test: the run ends when the scanners meet, COMPLETE) pageblock 0,
 * under the order-9 folio, is no migration source at all
 * (pageblock_skip_persistent, 5.1+: not scanned) and the folio stays;
 * the order-3 one moves whole into the order-3 block at 1536. migrated
 * 8; scanned pageblocks 1 and 2 only.
 */
static void large_folios_never_isolate_a_pageblock_order_folio(void **state)
{
	const struct folio_at folios[] = { { 0, 9 }, { 512, 3 } };
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_movable_folios(f, folios, 2);
	f->c.large_folios = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, CP_COMPACT_ORDER_ALL,
					 CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 8);
	assert_int_equal(st.isolated, 16);
	assert_int_equal(st.migrate_scanned, 1024);
	for (i = 0; i < 512; i++) {
		assert_int_equal(page(f, i)->pfn, i);
		assert_int_equal(page(f, i)->order, 9);
	}
	for (i = 0; i < 8; i++)
		assert_int_equal(page(f, 512 + i)->pfn, 1536 + i);
	check_all(f);
	fixture_free(f);
}

/*
 * 6.9+ compaction_alloc(): the first block on the list of the smallest
 * order >= the folio's that has one; "list_add(&freepage[size].lru,
 * &cc->freepages[start_order])" puts each upper half back. The zone of
 * fill_movable_folios() with one order-2 folio at 8 (pfns 8..11) the
 * only movable page: the free scanner takes the order-3 block at 1536
 * (8 pages >= the 4 to migrate: it stops, 8 scanned) and keeps it on
 * freepages[3]; the folio's order-2 request finds list 2 empty, pops
 * 1536 from list 3, puts the upper half 1540 on list 2 and takes the
 * lower half: pfns 1536..1539. release_freepages() gives 1540 back at
 * order 2 (its buddy 1536 is the folio now: no merge); the old folio
 * frees as an order-2 block at 8 (buddy 12 pinned). COMPLETE (no
 * order-4 block), migrated 4, isolated 4 + 8 = 12, free pages 52 as
 * before.
 */
static void large_folios_split_a_larger_free_block_for_a_folio(void **state)
{
	const struct folio_at folio = { 8, 2 };
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_movable_folios(f, &folio, 1);
	f->c.large_folios = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 4);
	assert_int_equal(st.isolated, 12);
	assert_int_equal(st.free_scanned, 8);
	for (i = 0; i < 4; i++) {
		assert_int_equal(page(f, 8 + i)->pfn, 1536 + i);
		assert_int_equal(page(f, 8 + i)->order, 2);
	}
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 1540), 2);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 8), 2);
	assert_int_equal(f->mem.free_pages, 52);
	assert_int_equal(f->mem.zones[0].buddy.nr_free_pages, 52);
	check_all(f);
	fixture_free(f);
}

/*
 * compaction_alloc(): "for (start_order = order; ...) if
 * (!list_empty(&cc->freepages[start_order])) break" - the smallest
 * order that has a block, not the block isolated first. Movable: an
 * order-2 folio at 0 (pfns 0..3) and pages 4..11; free: an order-3
 * block at 1536 and an order-2 block at 1552 (1544..1551 and 1556
 * pinned), the pad and the block at 2040: 8 + 4 + 36 + 8 = 56 pages in
 * 39 blocks (fragindex(4) 1000 - (1000 + 3500) / 39 = 1000 - 115 = 885:
 * CONTINUE). One batch of 4 + 8 = 12 pages; the free scanner isolates
 * 1536 (8 pages) and 1552 (12 >= 12), 1536 .. 1555 scanned (20). The
 * folio, first on the list, takes list 2's 1552 although 1536 came
 * first; pages 4..11 then split 1536: 1536..1543 in order. The old
 * pages: the folio's block at 0 (order 2), 4..7 merge with it into an
 * order-3 block at 0, 8..11 an order-2 block at 8 (buddy 12 pinned; 0's
 * order-3 buddy 8 is not an order-3 block). COMPLETE, migrated 12.
 */
static void large_folios_take_the_smallest_free_block_that_fits(void **state)
{
	const struct folio_at folio = { 0, 2 };
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_folios(f, &folio, 1);
	pin_all(f);
	unpin(f, 0, 12);
	free_range(f, 1536, 8);
	free_range(f, 1552, 4);
	free_pad(f);
	assert_int_equal(f->mem.free_pages, 56);
	assert_int_equal(cp_fragmentation_index(&f->mem.zones[0].buddy, 4), 885);
	f->c.large_folios = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 12);
	assert_int_equal(st.isolated, 24);
	assert_int_equal(st.free_scanned, 20);
	for (i = 0; i < 4; i++) {
		assert_int_equal(page(f, i)->pfn, 1552 + i);
		assert_int_equal(page(f, i)->order, 2);
	}
	for (i = 4; i < 12; i++)
		assert_int_equal(page(f, i)->pfn, 1536 + (i - 4));
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 0), 3);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 8), 2);
	check_all(f);
	fixture_free(f);
}

/*
 * migrate_pages_batch(): -ENOMEM for a large folio (compaction_alloc()
 * found no block of its order even after running the free scanner once
 * more) -> try_split_folio(): its pages become order-0 folios, migrated
 * after the rest of the list. An order-2 folio at 8 (pfns 8..11) the
 * only movable page; free only the pad and the block at 2040: 44 free
 * pages in 37 blocks (compaction_suitable(4): 44 > 38, fragindex 1000 -
 * (1000 + 2750) / 37 = 1000 - 101 = 899: CONTINUE). The free scanner
 * walks 1536 .. 1975 (440 pfns) for 4 free pages, all order 0: 1969,
 * 1971, 1973, 1975; no list of order >= 2 has a block, the scanner has
 * run: no target, the folio is split and its pages take those four, one
 * by one (8 -> 1969, 9 -> 1971, 10 -> 1973, 11 -> 1975). Each old page
 * frees alone and they merge into an order-2 block at 8 (buddy 12
 * pinned). COMPLETE, migrated 4, isolated 4 + 4.
 */
static void large_folios_split_a_folio_without_a_target_of_its_order(void **state)
{
	const struct folio_at folio = { 8, 2 };
	struct fixture *f = fixture_new();
	struct cp_compact_stats st;
	uint32_t i;

	(void)state;
	fill_folios(f, &folio, 1);
	pin_all(f);
	unpin(f, 8, 4);
	free_pad(f);
	assert_int_equal(f->mem.free_pages, 44);
	assert_int_equal(cp_fragmentation_index(&f->mem.zones[0].buddy, 4), 899);
	f->c.large_folios = true;
	assert_int_equal(cp_compact_zone(&f->c, 0, 4, CP_MIGRATE_MODE_SYNC_LIGHT, 0, &st),
			 CP_COMPACT_COMPLETE);
	assert_int_equal(st.migrated, 4);
	assert_int_equal(f->vs.v[CP_VM_PGMIGRATE_SUCCESS], 4);
	assert_int_equal(st.isolated, 8);
	assert_int_equal(st.free_scanned, 440);
	for (i = 0; i < 4; i++) {
		uint32_t slot = cp_mapping_slot(&f->pc, f->id, 8 + i);

		assert_int_equal(page(f, 8 + i)->order, 0);
		assert_int_equal(cp_folio_head(&f->pc, slot), slot);
		assert_int_equal(page(f, 8 + i)->pfn, 1969 + 2 * i);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, 1969 + 2 * i), slot);
	}
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, 8), 2);
	assert_int_equal(f->mem.free_pages, 44);
	check_all(f);
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
		cmocka_unit_test(large_folios_compact_zone_moves_a_small_folio_whole),
		cmocka_unit_test(without_large_folios_compact_zone_never_moves_a_folio),
		cmocka_unit_test(large_folios_skip_a_folio_of_the_target_order),
		cmocka_unit_test(large_folios_never_isolate_a_pageblock_order_folio),
		cmocka_unit_test(large_folios_split_a_larger_free_block_for_a_folio),
		cmocka_unit_test(large_folios_take_the_smallest_free_block_that_fits),
		cmocka_unit_test(large_folios_split_a_folio_without_a_target_of_its_order),
		cmocka_unit_test(skip_hint_set_at_a_blocks_first_isolation),
		cmocka_unit_test(skip_hint_migration_scanner_passes_a_marked_block),
		cmocka_unit_test(skip_hint_free_scanner_marks_a_block_it_scans_whole),
		cmocka_unit_test(skip_hint_free_scanner_passes_a_marked_block),
		cmocka_unit_test(skip_hint_flush_asked_by_direct_compaction_only),
		cmocka_unit_test(skip_hint_reset_clears_blocks_with_a_source_or_target),
		cmocka_unit_test(skip_hint_reset_when_compaction_restarts),
		cmocka_unit_test(skip_hint_finished_block_moves_the_cached_pfn),
		cmocka_unit_test(skip_hint_4_11_marks_no_block_that_isolated),
		cmocka_unit_test(skip_hint_4_11_kcompactd_ignores_the_marks),
		cmocka_unit_test(skip_on_failure_gives_up_the_order_block),
		cmocka_unit_test(skip_on_failure_counts_no_put_back_page),
		cmocka_unit_test(kcompactd_work_goes_a_batch_per_step),
		cmocka_unit_test(kcompactd_keeps_a_larger_order_asked_during_its_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
