/*
 * test_reclaim.c - kswapd, direct and memcg reclaim over the page LRU and
 * a shrinker; the cyclic-reader behaviour of the two-list LRU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "model/gfp.h"
#include "model/lru.h"
#include "model/memcg_stats.h"
#include "model/reclaim.h"
#include "model/shrinker.h"
#include "model/workingset.h"

struct fake_slab {
	uint64_t freeable;
	uint64_t scanned;
	int counted_for[4]; /* the memcg ids of the first count calls */
	unsigned nr_counts;
};

static uint64_t slab_count(void *priv, struct cp_shrink_control *sc)
{
	struct fake_slab *f = priv;

	if (f->nr_counts < 4)
		f->counted_for[f->nr_counts] = sc->memcg_id;
	f->nr_counts++;
	return f->freeable;
}

static uint64_t slab_scan(void *priv, struct cp_shrink_control *sc)
{
	struct fake_slab *f = priv;

	if (!(sc->gfp & CP_GFP_FS))
		return CP_SHRINK_STOP;
	f->scanned += sc->nr_to_scan;
	return 0;
}

static const struct cp_shrinker_ops slab_ops = { "fake_sb", slab_count, slab_scan };

struct rig {
	const struct cp_kernel_profile *profile;
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_pagecache pc;
	struct cp_shrinker_registry reg;
	struct cp_shrinker sb;
	struct fake_slab slab;
	struct cp_reclaim r;
	struct cp_reclaim_work kswapd_work;
	struct cp_alloc_ctx kswapd_ctx;
	struct cp_alloc_ctx reader;
};

/* total pages of RAM (the first dma32_pages of them ZONE_DMA32; 0: one
 * zone), min_free_kbytes fixed so watermarks are round: min = 256 split
 * by zone size, tmp = max(min / 4, zone pages * 10 / 10000). */
static struct rig *rig_new_zones(const char *profile, uint64_t total_pages, uint64_t dma32_pages)
{
	struct rig *g = calloc(1, sizeof(*g));
	struct cp_mem_params mp = {
		.total_pages = total_pages, .min_free_kbytes = 1024, .watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536, .memcg_reclaim_retries = 5, .max_reclaim_retries = 16,
		.dma32_pages = dma32_pages,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 2 };

	assert_non_null(g);
	g->profile = cp_kernel_profile_find(profile);
	pp.lru_add_batch = g->profile->lru_add_batch;
	pp.workingset_flag = g->profile->workingset_flag;
	assert_int_equal(cp_mem_init(&g->mem, &mp, &g->vs, NULL), 0);
	assert_int_equal(cp_pagecache_init(&g->pc, &pp, &g->mem, &g->vs), 0);
	cp_shrinker_registry_init(&g->reg, g->profile, &g->vs);
	g->sb.ops = &slab_ops;
	g->sb.priv = &g->slab;
	g->sb.batch = 1024;
	g->sb.memcg_aware = true;
	assert_int_equal(cp_register_shrinker(&g->reg, &g->sb), 0);
	cp_reclaim_init(&g->r, &g->mem, &g->pc, &g->reg, &g->vs, g->profile);
	cp_reclaim_install(&g->r);
	g->kswapd_ctx = (struct cp_alloc_ctx){ .gfp = CP_GFP_KERNEL, .cpu = 1,
					       .work = &g->kswapd_work };
	g->reader = (struct cp_alloc_ctx){ .gfp = CP_GFP_NOFS, .cpu = 0 };
	return g;
}

static struct rig *rig_new(const char *profile, uint64_t total_pages)
{
	return rig_new_zones(profile, total_pages, 0);
}

static void rig_free(struct rig *g)
{
	cp_pagecache_release(&g->pc);
	cp_mem_release(&g->mem);
	free(g);
}

/* Fill a new mapping of n pages charged to cg (NULL: none), touching
 * each once: all inactive. */
static uint32_t fill_memcg(struct rig *g, struct cp_memcg *cg, uint32_t n)
{
	uint32_t id, i;

	assert_int_equal(cp_pagecache_add_mapping(&g->pc, n, cg, NULL, &id), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&g->pc, id, i, &g->reader), 0);
	cp_lru_add_drain_all(&g->pc);
	return id;
}

static uint32_t fill(struct rig *g, uint32_t n)
{
	return fill_memcg(g, NULL, n);
}

static bool resident(struct rig *g, uint32_t id, uint32_t index)
{
	return g->pc.pages[cp_mapping_slot(&g->pc, id, index)].flags & CP_PG_RESIDENT;
}

/* kswapd a batch at a time (cp_balance_pgdat_step): one turn of
 * shrink_lruvec()'s loop scans at most SWAP_CLUSTER_MAX pages of the
 * inactive list, so each step evicts the 32 oldest pages. 1 000 000
 * pages, 999 000 filled: priority 12 scans 999 000 >> 12 = 243 inactive
 * pages in 8 turns; the high watermark (2 256 - 1 000 free) is not met
 * after two. */
static void kswapd_step_evicts_one_swap_cluster_batch(void **state)
{
	struct rig *g = rig_new("linux-4.11", 1000000);
	struct cp_balance_pgdat bp;
	uint32_t id = fill(g, 999000);

	(void)state;
	cp_balance_pgdat_begin(&g->r, &bp, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx);
	assert_true(cp_balance_pgdat_step(&g->r, &bp));
	assert_int_equal(g->vs.v[CP_VM_PGSTEAL_KSWAPD], 32);
	assert_false(resident(g, id, 31));
	assert_true(resident(g, id, 32));
	assert_true(cp_balance_pgdat_step(&g->r, &bp));
	assert_int_equal(g->vs.v[CP_VM_PGSTEAL_KSWAPD], 64);
	assert_int_equal(bp.sc.priority, CP_DEF_PRIORITY);
	rig_free(g);
}

/* What the batches are for: pages the reader activates between two of
 * kswapd's steps (a second mark_page_accessed() of an inactive page
 * moves it to the active list) are no longer on the inactive tail the
 * next batch takes. The batch after them is evicted instead. */
static void pages_activated_between_kswapd_steps_escape_eviction(void **state)
{
	struct rig *g = rig_new("linux-4.11", 1000000);
	struct cp_balance_pgdat bp;
	uint32_t id = fill(g, 999000), i;

	(void)state;
	cp_balance_pgdat_begin(&g->r, &bp, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx);
	assert_true(cp_balance_pgdat_step(&g->r, &bp));
	for (i = 32; i < 64; i++) {
		cp_mark_page_accessed(&g->pc, cp_mapping_slot(&g->pc, id, i), 0);
		cp_mark_page_accessed(&g->pc, cp_mapping_slot(&g->pc, id, i), 0);
	}
	cp_lru_add_drain_all(&g->pc);
	assert_true(cp_balance_pgdat_step(&g->r, &bp));
	for (i = 32; i < 64; i++)
		assert_true(resident(g, id, i));
	assert_false(resident(g, id, 64));
	assert_false(resident(g, id, 95));
	assert_true(resident(g, id, 96));
	rig_free(g);
}

/* A run taken in steps ends where cp_balance_pgdat() ends: balanced,
 * the same pages reclaimed, and a step after the end does nothing. */
static void kswapd_steps_to_the_end_are_balance_pgdat(void **state)
{
	struct rig *a = rig_new("linux-6.1", 100000), *b = rig_new("linux-6.1", 100000);
	struct cp_balance_pgdat bp;
	uint64_t whole;
	unsigned steps = 0;

	(void)state;
	fill(a, 99700);
	fill(b, 99700);
	whole = cp_balance_pgdat(&a->r, 0, cp_reclaim_top_zone(&a->r), &a->kswapd_ctx, NULL);
	cp_balance_pgdat_begin(&b->r, &bp, 0, cp_reclaim_top_zone(&b->r), &b->kswapd_ctx);
	while (cp_balance_pgdat_step(&b->r, &bp))
		steps++;
	assert_true(steps > 1);
	assert_int_equal(bp.sc.nr_reclaimed, whole);
	assert_int_equal(b->mem.free_pages, a->mem.free_pages);
	assert_true(cp_pgdat_balanced(&b->r, 0, cp_reclaim_top_zone(&b->r)));
	assert_false(cp_balance_pgdat_step(&b->r, &bp));
	assert_int_equal(bp.sc.nr_reclaimed, whole);
	rig_free(a);
	rig_free(b);
}

/* Reclaim's heuristics read the memcg statistics as the last flush left
 * them (6.x, memcg_stats.c): 50 000 pages are flushed as inactive, then
 * all activated (a second access each), so the copy says "inactive not
 * low, no activations" while the lists say "inactive empty". */
static uint32_t flushed_inactive_then_activated(struct rig *g)
{
	uint32_t id, i;

	cp_lruvec_stats_init(&g->pc, true);
	id = fill(g, 50000);
	cp_lruvec_stats_flush(&g->pc);
	g->pc.lruvec.refaults_at_last_cycle = 0;
	for (i = 0; i < 50000; i++) {
		cp_mark_page_accessed(&g->pc, cp_mapping_slot(&g->pc, id, i), 0);
		cp_mark_page_accessed(&g->pc, cp_mapping_slot(&g->pc, id, i), 0);
	}
	cp_lru_add_drain_all(&g->pc);
	assert_int_equal(cp_lru_size(&g->pc, CP_LRU_INACTIVE_FILE), 0);
	assert_int_equal(cp_lruvec_page_state(&g->pc, CP_LRUVEC_INACTIVE_FILE), 50000);
	assert_int_equal(cp_lruvec_page_state(&g->pc, CP_LRUVEC_ACTIVE_FILE), 0);
	return id;
}

static uint64_t kswapd_pass(struct rig *g, struct cp_scan_control *sc)
{
	uint64_t before = g->vs.v[CP_VM_PGDEACTIVATE];

	*sc = (struct cp_scan_control){ .nr_to_reclaim = CP_SWAP_CLUSTER_MAX,
					.priority = CP_DEF_PRIORITY, .gfp = CP_GFP_KERNEL,
					.is_kswapd = true, .ctx = &g->kswapd_ctx };
	cp_shrink_node(&g->r.vm, sc);
	return g->vs.v[CP_VM_PGDEACTIVATE] - before;
}

/* prepare_scan_control() with mem_cgroup_flush_stats_ratelimited():
 * refault activations after the last flush are not seen, so with the
 * flushed inactive list not low a pass leaves the active list alone
 * (and says so: skipped_deactivate); after the flush they are, and the
 * pass deactivates 50 000 >> 12 = 12 pages. */
static void refaults_after_the_flush_do_not_deactivate_until_flushed(void **state)
{
	struct rig *g = rig_new("linux-6.x", 100000);
	struct cp_scan_control sc;

	(void)state;
	flushed_inactive_then_activated(g);
	g->vs.v[CP_VM_WORKINGSET_ACTIVATE] += 64;
	assert_int_equal(kswapd_pass(g, &sc), 0);
	assert_true(sc.skipped_deactivate);
	cp_lruvec_stats_flush(&g->pc);
	assert_int_equal(kswapd_pass(g, &sc), 12);
	rig_free(g);
}

/* 6.1's prepare_scan_count() flushes the statistics itself: the same
 * state deactivates at once (the live inactive list is empty: low). */
static void exact_counters_deactivate_at_once_on_6_1(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	struct cp_scan_control sc;

	(void)state;
	flushed_inactive_then_activated(g);
	cp_lruvec_stats_init(&g->pc, false);
	assert_int_equal(kswapd_pass(g, &sc), 12);
	rig_free(g);
}

/* do_try_to_free_pages() (5.9+): a priority loop that reclaimed nothing
 * because it left the active list alone runs again with
 * force_deactivate, so reclaim finds the pages the stale counters hid
 * instead of failing (and a memcg charge OOMing). */
static void reclaim_that_skipped_deactivation_retries_forced(void **state)
{
	struct rig *g = rig_new("linux-6.x", 100000);
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL, .cpu = 1, .work = &g->kswapd_work };

	(void)state;
	flushed_inactive_then_activated(g);
	assert_true(cp_try_to_free_pages(&g->r, &ctx) >= CP_SWAP_CLUSTER_MAX);
	assert_true(g->vs.v[CP_VM_PGDEACTIVATE] > 0);
	rig_free(g);
}

/* do_try_to_free_pages(): with the inactive list empty and the stale
 * counters keeping the active list alone, the priority loop runs 12 -> 0
 * reclaiming nothing; 6.10+ runs it again as a full cgroup walk
 * (memcg_full_walk: nothing again), then once more with
 * force_deactivate, which finds pages: three loops, two restarts, as the
 * real 6.18.44 trace showed. 6.1 has the force_deactivate retry only:
 * two loops, one restart. Either way the reclaim reached priority 0
 * (deep) and was not done at 12. */
static void memcg_reclaim_walks_again_full_then_forced_on_6_x(void **state)
{
	static const char *const kernels[] = { "linux-6.x", "linux-6.1" };
	static const uint64_t restarts[] = { 2, 1 };
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct rig *g = rig_new(kernels[k], 100000);
		struct cp_memcg cg;

		cp_memcg_init(&cg, 1, 100000);
		flushed_inactive_then_activated(g);
		assert_true(cp_try_to_free_mem_cgroup_pages(&g->r, &cg, &g->reader, 32) >=
			    CP_SWAP_CLUSTER_MAX);
		assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIM_RESTARTS], restarts[k]);
		assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS_DEEP], 1);
		assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS_PRIO12], 0);
		rig_free(g);
	}
}

/* A stepped task (cp_memcg_stepped): its __GFP_FS charge's reclaim goes
 * a priority level a call. 1 000 inactive pages fill a 1 000-page memcg
 * (6.1: exact counters, no deactivation needed); a GFP_KERNEL charge of
 * one page reclaims max(1, 32) = 32, each level scanning what is left
 * >> priority: 12-10 none (1 000 >> 10 = 0), 9 one (1 000 >> 9), 8
 * three (999 >> 8), 7 seven (996 >> 7), 6 fifteen (989 >> 6; 26 so
 * far), 5 thirty (974 >> 5): 56 >= 32, done at 5. So the charge runs
 * level 12 and fails with -CP_EAGAIN, charging nothing; six more levels
 * (11-6) leave levels to go, the seventh (5) ends it; the charge then
 * fits: 1 000 - 56 + 1 = 945 pages. One memcg reclaim, 56 pages stolen. */
static void stepped_fs_charge_reclaims_a_level_a_call(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	struct cp_scan_control sc;
	struct cp_memcg_stepped st = { .sc = &sc };
	struct cp_alloc_ctx fs = { .gfp = CP_GFP_KERNEL, .cpu = 0, .stepped = &st };
	struct cp_memcg cg;
	unsigned more = 0;

	(void)state;
	cp_memcg_init(&cg, 1, 1000);
	fill_memcg(g, &cg, 1000);
	assert_int_equal(cg.usage_pages, 1000);
	assert_int_equal(cp_memcg_try_charge(&g->mem, &cg, CP_OWNER_PROCESS, 1, &fs), -CP_EAGAIN);
	assert_int_equal(cg.usage_pages, 1000);
	assert_true(st.in_reclaim);
	while (cp_memcg_reclaim_continue(&g->mem, &fs))
		more++;
	assert_int_equal(more, 6);
	assert_int_equal(g->vs.v[CP_VM_PGSTEAL_MEMCG], 56);
	assert_int_equal(cp_memcg_try_charge(&g->mem, &cg, CP_OWNER_PROCESS, 1, &fs), 0);
	assert_int_equal(cg.usage_pages, 945);
	assert_false(st.charging);
	assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS], 1);
	rig_free(g);
}

/* The same task's charge without __GFP_FS (GFP_NOFS: the superblock
 * shrinker stops at once, so the kernel's walk is quick) reclaims whole:
 * 0 at once, the same 56 pages gone, nothing left in progress. */
static void stepped_task_nofs_charge_reclaims_whole(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	struct cp_scan_control sc;
	struct cp_memcg_stepped st = { .sc = &sc };
	struct cp_alloc_ctx nofs = { .gfp = CP_GFP_NOFS, .cpu = 0, .stepped = &st };
	struct cp_memcg cg;

	(void)state;
	cp_memcg_init(&cg, 1, 1000);
	fill_memcg(g, &cg, 1000);
	assert_int_equal(cp_memcg_try_charge(&g->mem, &cg, CP_OWNER_PROCESS, 1, &nofs), 0);
	assert_false(st.in_reclaim);
	assert_int_equal(g->vs.v[CP_VM_PGSTEAL_MEMCG], 56);
	assert_int_equal(cg.usage_pages, 945);
	rig_free(g);
}

/* workingset_test_recent(): the refault distance is compared with the
 * active list as flushed - here 0 pages, so a refault 10 pages after its
 * eviction is not activated although 50 000 pages are active now. */
static void refault_distance_is_measured_against_the_flushed_active_list(void **state)
{
	struct rig *g = rig_new("linux-6.x", 100000);
	uint32_t stamp;
	bool restore;

	(void)state;
	flushed_inactive_then_activated(g);
	stamp = g->pc.lruvec.nonresident_age - 10;
	assert_false(cp_workingset_refault(&g->pc, stamp, false, 1, &restore));
	cp_lruvec_stats_flush(&g->pc);
	assert_true(cp_workingset_refault(&g->pc, stamp, false, 1, &restore));
	rig_free(g);
}

/* balance_pgdat(): kswapd reclaims until free > high, then stops. */
static void kswapd_stops_at_high_watermark(void **state)
{
	struct rig *g = rig_new("linux-4.11", 100000);
	uint64_t high = g->mem.wmark.high;

	(void)state;
	/* min 256, tmp = max(64, 100) = 100: low 356, high 456 */
	assert_int_equal(high, 456);
	fill(g, 99700); /* leaves 300 free: below low */
	assert_true(g->r.kswapd_wanted);
	assert_true(cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL) > 0);
	assert_true(cp_pgdat_balanced(&g->r, 0, cp_reclaim_top_zone(&g->r)));
	/* it stops early: no more than one kswapd_shrink_node target
	 * (max(high, 32) = 456) beyond what was needed */
	assert_true(g->mem.free_pages <= high + 456 + 32);
	assert_int_equal(g->vs.v[CP_VM_PGSTEAL_KSWAPD], g->mem.free_pages - 300);
	assert_int_equal(g->vs.v[CP_VM_PGSCAN_DIRECT], 0);
	assert_true(cp_pagecache_check(&g->pc));
	rig_free(g);
}

/* do_try_to_free_pages(): at DEF_PRIORITY with a big inactive list the
 * full size>>12 target is scanned (scan_adjusted): 2^20 inactive pages
 * -> 256 pages, >= SWAP_CLUSTER_MAX. */
static void direct_reclaim_frees_at_least_32_pages(void **state)
{
	struct rig *g = rig_new("linux-4.11", 1100000);
	uint64_t got;

	(void)state;
	fill(g, 1 << 20);
	got = cp_try_to_free_pages(&g->r, &g->reader);
	assert_true(got >= 32);
	assert_int_equal(got, (1 << 20) >> 12);
	assert_int_equal(g->vs.v[CP_VM_PGSCAN_DIRECT], 256);
	rig_free(g);
}

/* Nothing reclaimable: the priority loop runs to 0 and reports 0. */
static void direct_reclaim_reports_failure_cleanly(void **state)
{
	struct rig *g = rig_new("linux-4.11", 10000);

	(void)state;
	assert_int_equal(cp_try_to_free_pages(&g->r, &g->reader), 0);
	assert_true(cp_pagecache_check(&g->pc));
	rig_free(g);
}

/* try_to_free_mem_cgroup_pages(): charging over the limit reclaims the
 * memcg's pages so the charge fits. */
static void memcg_reclaim_brings_usage_under_limit(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	struct cp_memcg cg;

	(void)state;
	cp_memcg_init(&cg, 1, 5000);
	fill_memcg(g, &cg, 20000);
	assert_true(cg.usage_pages <= cg.limit_pages);
	assert_true(g->vs.v[CP_VM_PGSCAN_MEMCG] >= 15000);
	assert_int_equal(g->vs.v[CP_VM_PGSCAN_DIRECT], 0);
	assert_int_equal(cg.failcnt, 0);
	assert_true(cp_memcg_check(&cg));
	rig_free(g);
}

/* get_scan_count() on a memcg whose inactive list (3000 pages) is
 * smaller than 1 << DEF_PRIORITY: 4.11's force_scan scans
 * min(3000, SWAP_CLUSTER_MAX) = 32 at priority 12 and stops there; 6.1
 * (force_scan gone in 4.13) scans size >> priority and drops the
 * priority: 0 at 12, then 3000 >> 11 = 1, 2999 >> 10 = 2, 2997 >> 9 = 5,
 * 2992 >> 8 = 11, 2981 >> 7 = 23: 42 pages, the first total >= 32. */
static void memcg_reclaim_of_a_small_list_force_scans_only_on_4_11(void **state)
{
	static const struct { const char *profile; uint64_t scanned; } c[] = {
		{ "linux-4.11", 32 },
		{ "linux-6.1", 42 },
		{ "linux-6.x", 42 },
	};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct rig *g = rig_new(c[k].profile, 100000);
		struct cp_memcg cg;
		uint32_t id, i;

		cp_memcg_init(&cg, 1, 50000);
		assert_int_equal(cp_pagecache_add_mapping(&g->pc, 3000, &cg, NULL, &id), 0);
		for (i = 0; i < 3000; i++)
			assert_int_equal(cp_add_to_page_cache_lru(&g->pc, id, i, &g->reader), 0);
		cp_lru_add_drain_all(&g->pc);
		assert_int_equal(cp_try_to_free_mem_cgroup_pages(&g->r, &cg, &g->reader, 32),
				 c[k].scanned);
		assert_int_equal(g->vs.v[CP_VM_PGSCAN_MEMCG], c[k].scanned);
		rig_free(g);
	}
}

/* trace_mm_vmscan_memcg_reclaim_begin()'s count: every entry of
 * try_to_free_mem_cgroup_pages(), and apart those for a charge that may
 * enter the filesystem: the reader's GFP_NOFS charge one and none; a
 * GFP_KERNEL charge (fs_mark's dentry) two and one. */
static void memcg_reclaim_entries_counted_with_and_without_fs(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	struct cp_alloc_ctx kernel = { .gfp = CP_GFP_KERNEL, .cpu = 0 };
	struct cp_memcg cg;

	(void)state;
	cp_memcg_init(&cg, 1, 50000);
	fill_memcg(g, &cg, 3000);
	cp_try_to_free_mem_cgroup_pages(&g->r, &cg, &g->reader, 32);
	assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS], 1);
	assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS_FS], 0);
	cp_try_to_free_mem_cgroup_pages(&g->r, &cg, &kernel, 32);
	assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS], 2);
	assert_int_equal(g->vs.v[CP_VM_MEMCG_RECLAIMS_FS], 1);
	rig_free(g);
}

/* Read a file cyclically; kswapd runs whenever the allocator woke it.
 * Returns the hits of the given pass (1-based). */
static uint64_t cyclic_read(struct rig *g, uint32_t id, uint32_t nr_pages, int passes,
			    uint64_t *hits_per_pass)
{
	int pass;

	for (pass = 0; pass < passes; pass++) {
		uint64_t hits = 0;
		uint32_t i;

		for (i = 0; i < nr_pages; i++) {
			uint32_t slot = cp_mapping_slot(&g->pc, id, i);

			if (g->pc.pages[slot].flags & CP_PG_RESIDENT) {
				hits++;
			} else {
				assert_int_equal(cp_add_to_page_cache_lru(&g->pc, id, i, &g->reader), 0);
			}
			cp_mark_page_accessed(&g->pc, slot, 0);
			if (g->r.kswapd_wanted)
				cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL);
		}
		hits_per_pass[pass] = hits;
	}
	return hits_per_pass[passes - 1];
}

/* A cyclic scan larger than memory: LRU evicts each page shortly before
 * its reuse, so later passes hit almost nothing (ref §14). Under 4.11 the
 * refault distance (about the file size) exceeds the active list; under
 * 6.1 likewise. "Almost": below 5 % of the pages. */
static void cyclic_reader_larger_than_memory_misses(void **state)
{
	const char *profiles[] = { "linux-4.11", "linux-6.1" };
	unsigned p;

	(void)state;
	for (p = 0; p < 2; p++) {
		struct rig *g = rig_new(profiles[p], 50000);
		uint64_t hits[6];
		uint32_t id;

		assert_int_equal(cp_pagecache_add_mapping(&g->pc, 60000, NULL, NULL, &id), 0);
		cyclic_read(g, id, 60000, 6, hits);
		assert_int_equal(hits[0], 0);
		assert_true(hits[4] < 60000 / 20);
		assert_true(hits[5] < 60000 / 20);
		assert_true(cp_pagecache_check(&g->pc));
		rig_free(g);
	}
}

/* A file that fits: pass 1 misses everything, pass 2 hits everything
 * (nothing was evicted) and activates it, pass 3 on: all hits. */
static void cyclic_reader_that_fits_hits_from_third_pass(void **state)
{
	const char *profiles[] = { "linux-4.11", "linux-6.1" };
	unsigned p;

	(void)state;
	for (p = 0; p < 2; p++) {
		struct rig *g = rig_new(profiles[p], 50000);
		uint64_t hits[5];
		uint32_t id;
		int i;

		assert_int_equal(cp_pagecache_add_mapping(&g->pc, 30000, NULL, NULL, &id), 0);
		cyclic_read(g, id, 30000, 5, hits);
		assert_int_equal(hits[0], 0);
		for (i = 2; i < 5; i++)
			assert_int_equal(hits[i], 30000);
		rig_free(g);
	}
}

/* ref §9.4: a GFP_NOFS reclaimer (XFS readahead) defers the superblock
 * shrinker's share; kswapd (GFP_KERNEL) executes the backlog. */
static void nofs_reclaim_defers_and_kswapd_executes(void **state)
{
	struct rig *g = rig_new("linux-4.11", 1100000);
	int i;

	(void)state;
	fill(g, 1 << 20);
	g->slab.freeable = 100000;
	for (i = 0; i < 25; i++)
		cp_try_to_free_pages(&g->r, &g->reader);
	assert_int_equal(g->slab.scanned, 0);
	/* each call: nr_scanned 256 of ~2^20 eligible: delta = 512 * 100000 /
	 * (eligible + 1) = 48 or 49 -> at least 25 * 48 = 1200 deferred */
	assert_true(g->sb.nr_deferred[0] >= 25 * 48);
	{
		struct cp_alloc_ctx kctx = { .gfp = CP_GFP_KERNEL, .cpu = 1 };
		uint64_t backlog = g->sb.nr_deferred[0];

		cp_try_to_free_pages(&g->r, &kctx);
		/* backlog + ~48 >= 1024: a batch runs now */
		assert_true(backlog + 48 >= 1024);
		assert_true(g->slab.scanned >= 1024);
	}
	rig_free(g);
}

/* shrink_node_memcgs() walks the root memcg before its children: with
 * the run's tasks in a child memcg, a global reclaim pass asks a
 * memcg-aware superblock shrinker for the root (CP_MEMCG_EMPTY_ROOT)
 * first, then for the child, where the model keeps the objects (0), each
 * with its own deferred work; with the tasks in the root, once. Priority
 * 12, 40 960 freeable: delta (40960 >> 12) * 4 / 2 = 20 a call, less
 * than a batch: all deferred. */
static void global_pass_shrinks_root_then_the_tasks_memcg(void **state)
{
	struct rig *g = rig_new("linux-6.1", 1100000);
	struct cp_scan_control sc;

	(void)state;
	fill(g, 1000);
	g->slab.freeable = 40960;
	kswapd_pass(g, &sc);
	assert_int_equal(g->slab.nr_counts, 1);
	assert_int_equal(g->slab.counted_for[0], 0);
	assert_int_equal(g->sb.nr_deferred[0], 20);
	g->r.vm.tasks_in_child_memcg = true;
	kswapd_pass(g, &sc);
	assert_int_equal(g->slab.nr_counts, 3);
	assert_int_equal(g->slab.counted_for[1], CP_MEMCG_EMPTY_ROOT);
	assert_int_equal(g->slab.counted_for[2], 0);
	assert_int_equal(g->sb.nr_deferred[CP_MEMCG_EMPTY_ROOT], 20);
	assert_int_equal(g->sb.nr_deferred[0], 40);
	rig_free(g);
}

/* inactive_list_is_low: < 1 GiB ratio 1 (low when inactive < active);
 * 12 GiB: ratio int_sqrt(120) = 10. */
static void inactive_ratio_follows_sqrt_of_size(void **state)
{
	struct cp_pagecache pc;

	(void)state;
	memset(&pc, 0, sizeof(pc));
	pc.lruvec.lists[CP_LRU_INACTIVE_FILE].nr_pages = 100;
	pc.lruvec.lists[CP_LRU_ACTIVE_FILE].nr_pages = 101;
	assert_true(cp_inactive_file_is_low(&pc));
	pc.lruvec.lists[CP_LRU_ACTIVE_FILE].nr_pages = 100;
	assert_false(cp_inactive_file_is_low(&pc));
	/* 12 GiB = 3145728 pages: inactive 286000 * 10 = 2860000 < 2859728? no */
	pc.lruvec.lists[CP_LRU_INACTIVE_FILE].nr_pages = 286000;
	pc.lruvec.lists[CP_LRU_ACTIVE_FILE].nr_pages = 3145728 - 286000;
	assert_false(cp_inactive_file_is_low(&pc));
	pc.lruvec.lists[CP_LRU_INACTIVE_FILE].nr_pages = 285000;
	pc.lruvec.lists[CP_LRU_ACTIVE_FILE].nr_pages = 3145728 - 285000;
	assert_true(cp_inactive_file_is_low(&pc)); /* 2850000 < 2860728 */
}

/* A zone whose free pages are all single: page-cache pages of one
 * mapping at pfns 4k, process pages at 4k+1 and 4k+3 and everything past
 * the pattern, and 4k+2 free (a second mapping, truncated). Reclaiming
 * the page cache frees pages whose buddies stay allocated: no free block
 * can ever grow past order 0. Returns the page-cache pages. */
static uint64_t fragment(struct rig *g, uint32_t nr_patterns)
{
	uint32_t a, c, i;

	assert_int_equal(cp_pagecache_add_mapping(&g->pc, nr_patterns, NULL, NULL, &a), 0);
	assert_int_equal(cp_pagecache_add_mapping(&g->pc, nr_patterns, NULL, NULL, &c), 0);
	for (i = 0; i < nr_patterns; i++) {
		assert_int_equal(cp_add_to_page_cache_lru(&g->pc, a, i, &g->reader), 0);
		assert_int_equal(cp_mem_take(&g->mem, CP_OWNER_PROCESS, 1), 0);
		assert_int_equal(cp_add_to_page_cache_lru(&g->pc, c, i, &g->reader), 0);
		assert_int_equal(cp_mem_take(&g->mem, CP_OWNER_PROCESS, 1), 0);
	}
	assert_int_equal(cp_mem_take(&g->mem, CP_OWNER_PROCESS, g->mem.free_pages), 0);
	cp_lru_add_drain_all(&g->pc);
	cp_truncate_inode_pages_final(&g->pc, c);
	assert_false(cp_buddy_has_free_block(&g->mem.zones[0].buddy, 1));
	return nr_patterns;
}

/* kswapd_shrink_node(): woken for order 9 in a zone balanced at order 0
 * but holding no order-9 block, kswapd reclaims until compact_gap(9) =
 * 1024 pages are freed, then checks order 0 only and stops. The same
 * zone asked at order 0 needs no reclaim. */
static void kswapd_high_order_reclaims_compact_gap_then_stops(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	unsigned order = 9;
	uint64_t reclaimed;

	(void)state;
	fragment(g, 24000);
	assert_true(cp_pgdat_balanced(&g->r, 0, cp_reclaim_top_zone(&g->r)));
	assert_false(cp_pgdat_balanced(&g->r, 9, cp_reclaim_top_zone(&g->r)));
	assert_int_equal(cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL), 0);
	reclaimed = cp_balance_pgdat(&g->r, 9, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, &order);
	assert_int_equal(order, 0);
	assert_true(reclaimed >= 1024);
	/* it stopped at the first check after the gap: less than twice it */
	assert_true(reclaimed < 2048);
	assert_false(cp_pgdat_balanced(&g->r, 9, cp_reclaim_top_zone(&g->r)));
	assert_true(cp_pagecache_check(&g->pc));
	rig_free(g);
}

/* should_continue_reclaim() (5.4+, 6.1): kswapd woken at order 9 in a
 * zone short of memory - 100 000 pages, all but about 300 page cache,
 * low watermark 356 - finds compaction skipped there (free below low +
 * compact_gap(9) = 1 380, no free order-9 block), so shrink_node() goes
 * round again at priority 12 while rounds reclaim and the inactive list
 * is larger than 1 024 pages: more than one round, each with its
 * shrink_slab() call. */
static void kswapd_high_order_goes_round_again_while_compaction_is_skipped(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	unsigned order = 9;

	(void)state;
	fill(g, (uint32_t)(g->mem.free_pages - 300));
	assert_false(cp_pgdat_balanced(&g->r, 9, cp_reclaim_top_zone(&g->r)));
	cp_balance_pgdat(&g->r, 9, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, &order);
	assert_true(g->vs.v[CP_VM_KSWAPD_SHRINK_NODE_AGAIN] > 0);
	assert_true(g->slab.nr_counts > g->vs.v[CP_VM_KSWAPD_SHRINK_NODE_AGAIN]);
	assert_true(cp_pagecache_check(&g->pc));
	rig_free(g);
}

/* The same zone, kswapd woken at order 0: not reclaim/compaction mode
 * (in_reclaim_compaction() needs an order), one round a priority. */
static void kswapd_order_0_never_goes_round_again(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);

	(void)state;
	fill(g, (uint32_t)(g->mem.free_pages - 300));
	assert_false(cp_pgdat_balanced(&g->r, 0, cp_reclaim_top_zone(&g->r)));
	assert_true(cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL) > 0);
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_SHRINK_NODE_AGAIN], 0);
	rig_free(g);
}

/* The order of should_continue_reclaim()'s tests: in a zone with plenty
 * of free memory, all of it in order-0 fragments (fragmentation index
 * for order 9 about 998 > 500: compaction suitable), 6.1 stops after the
 * first round (a zone is ready for compaction), while 4.11 first goes
 * round until the run has reclaimed compact_gap(9) = 1 024 pages. */
static void kswapd_4_11_goes_round_to_compact_gap_before_asking_compaction(void **state)
{
	struct rig *old = rig_new("linux-4.11", 100000), *new = rig_new("linux-6.1", 100000);
	unsigned order = 9;
	uint64_t reclaimed;

	(void)state;
	fragment(old, 24000);
	fragment(new, 24000);
	reclaimed = cp_balance_pgdat(&old->r, 9, cp_reclaim_top_zone(&old->r), &old->kswapd_ctx,
				     &order);
	assert_true(old->vs.v[CP_VM_KSWAPD_SHRINK_NODE_AGAIN] > 0);
	assert_true(reclaimed >= 1024);
	cp_balance_pgdat(&new->r, 9, cp_reclaim_top_zone(&new->r), &new->kswapd_ctx, &order);
	assert_int_equal(new->vs.v[CP_VM_KSWAPD_SHRINK_NODE_AGAIN], 0);
	rig_free(old);
	rig_free(new);
}

/* wakeup_kswapd(): the order is always recorded; a sleeping kswapd is
 * woken unless the zone is balanced at that order and not boosted; an
 * awake kswapd is not woken again. */
static void wakeup_kswapd_skips_a_balanced_unboosted_zone(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	struct cp_mem_hooks *h = &g->mem.hooks;

	(void)state;
	h->wake_kswapd(h->priv, 9, 0); /* all free: order-10 blocks */
	assert_false(g->r.kswapd_wanted);
	assert_int_equal(g->r.kswapd_order, 9);
	g->mem.zones[0].buddy.watermark_boost = 512;
	h->wake_kswapd(h->priv, 0, 0);
	assert_true(g->r.kswapd_wanted);
	assert_int_equal(g->r.kswapd_order, 9);
	g->r.kswapd_wanted = false;
	g->r.kswapd_sleeping = false;
	h->wake_kswapd(h->priv, 3, 0);
	assert_false(g->r.kswapd_wanted);
	assert_int_equal(g->r.kswapd_order, 9);
	rig_free(g);
}

/* balance_pgdat() of a boosted zone (5.0+): balanced even with the
 * boost, kswapd still reclaims the boost's worth of pages, without
 * going below priority DEF_PRIORITY - 2, then clears the boost. 99000
 * inactive pages: priority 12, 11, 10 scan 24, 48, 96 pages (size >>
 * priority), all reclaimed; 168 < 200, so once more at 10: 264. */
static void boosted_kswapd_reclaims_the_boost_at_priority_10_or_above(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);

	(void)state;
	fill(g, 99000); /* 1000 free: above high 456 */
	g->mem.zones[0].buddy.watermark_boost = 200;
	assert_true(cp_pgdat_balanced(&g->r, 0, cp_reclaim_top_zone(&g->r))); /* 1000 > 456 + 200 */
	assert_int_equal(cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL), 264);
	assert_int_equal(g->mem.zones[0].buddy.watermark_boost, 0);
	rig_free(g);
}

/*
 * kswapd woken for DMA32 (a boost there: highest_zoneidx 0) reclaims
 * DMA32's pages only: sc.reclaim_idx = DMA32, isolate_lru_folios skips
 * the Normal folios (counted in pgscan_kswapd and pgskip_normal, moved
 * to the list head) and lruvec_lru_size(.., DMA32) counts DMA32's pages.
 * 100000 pages, 50000 DMA32: each zone min 128, low 178, high 228,
 * DMA32's reserve 50000 / 256 = 195. 99000 pages filled: Normal's
 * 49822 first (to low 178), then 49178 in DMA32 (822 free), oldest
 * (Normal) at the inactive tail. DMA32 boost 100: balanced for DMA32
 * (822 > 228 + 100), the boost is reclaimed: priority 12 scans 49178 >>
 * 12 = 12 DMA32 pages after skipping all 49822 Normal ones; 11: 49166 >>
 * 11 = 24; 10: 49142 >> 10 = 47, boost left 17; the floor keeps 10:
 * 49095 >> 10 = 47. 130 reclaimed, all DMA32; Normal's boost stays.
 */
static void kswapd_for_dma32_skips_normal_pages_and_counts_them(void **state)
{
	struct rig *g = rig_new_zones("linux-6.1", 100000, 50000);

	(void)state;
	assert_int_equal(g->mem.nr_zones, 2);
	assert_int_equal(g->mem.zones[0].wmark.high, 228);
	assert_int_equal(g->mem.zones[0].lowmem_reserve, 195);
	fill(g, 99000);
	assert_int_equal(g->mem.zones[1].free_pages, 178);
	assert_int_equal(g->mem.zones[0].free_pages, 822);
	g->mem.zones[0].buddy.watermark_boost = 100;
	g->mem.zones[1].buddy.watermark_boost = 300;
	assert_int_equal(cp_balance_pgdat(&g->r, 0, 0, &g->kswapd_ctx, NULL), 130);
	assert_int_equal(g->mem.zones[0].free_pages, 822 + 130);
	assert_int_equal(g->mem.zones[1].free_pages, 178);
	assert_int_equal(g->vs.v[CP_VM_PGSKIP_NORMAL], 49822);
	assert_int_equal(g->vs.v[CP_VM_PGSCAN_KSWAPD], 49822 + 130);
	assert_int_equal(g->vs.v[CP_VM_PGSTEAL_KSWAPD], 130);
	assert_int_equal(g->mem.zones[0].buddy.watermark_boost, 0);
	assert_int_equal(g->mem.zones[1].buddy.watermark_boost, 300);
	assert_true(cp_pagecache_check(&g->pc));
	rig_free(g);
}

static unsigned kcompactd_orders[4];
static unsigned nr_kcompactd_wakes;

static void record_kcompactd(void *priv, unsigned order)
{
	(void)priv;
	if (nr_kcompactd_wakes < 4)
		kcompactd_orders[nr_kcompactd_wakes] = order;
	nr_kcompactd_wakes++;
}

/* balance_pgdat(): a boosted run ends with wakeup_kcompactd(pgdat,
 * pageblock_order) ("there is likely space now"); an unboosted run does
 * not wake it (kswapd_try_to_sleep does, in the kswapd actor). */
static void boosted_balance_pgdat_wakes_kcompactd_at_pageblock_order(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);

	(void)state;
	nr_kcompactd_wakes = 0;
	g->r.wake_kcompactd = record_kcompactd;
	fill(g, 99000);
	cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL);
	assert_int_equal(nr_kcompactd_wakes, 0);
	g->mem.zones[0].buddy.watermark_boost = 200;
	cp_balance_pgdat(&g->r, 0, cp_reclaim_top_zone(&g->r), &g->kswapd_ctx, NULL);
	assert_int_equal(nr_kcompactd_wakes, 1);
	assert_int_equal(kcompactd_orders[0], 9);
	rig_free(g);
}

/* kswapd_try_to_sleep(): woken during the HZ/10 nap (remaining != 0) it
 * counts KSWAPD_LOW_WMARK_HIT_QUICKLY and reclaims again, kswapd_order
 * raised to the order its last reclaim ended at (3 here). */
static void kswapd_woken_in_its_nap_reclaims_again_at_least_at_its_last_order(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);

	(void)state;
	g->r.kswapd_order = 0;
	assert_false(cp_kswapd_nap_end(&g->r, true, false, 3, cp_reclaim_top_zone(&g->r)));
	assert_int_equal(g->r.kswapd_order, 3);
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_LOW_WMARK_HIT_QUICKLY], 1);
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_HIGH_WMARK_HIT_QUICKLY], 0);
	rig_free(g);
}

/* Not woken, and prepare_kswapd_sleep() still true (all memory free:
 * balanced): sleep until woken, no event counted. */
static void kswapd_balanced_after_its_nap_sleeps_until_woken(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);

	(void)state;
	assert_true(cp_kswapd_nap_end(&g->r, false, false, 0, cp_reclaim_top_zone(&g->r)));
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_LOW_WMARK_HIT_QUICKLY], 0);
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_HIGH_WMARK_HIT_QUICKLY], 0);
	rig_free(g);
}

/* Not woken, but free memory fell below the high watermark during the
 * nap (300 free, high 456): KSWAPD_HIGH_WMARK_HIT_QUICKLY and reclaim
 * again unasked - unless the node is hopeless, which sleeps. */
static void kswapd_unbalanced_after_its_nap_reclaims_unless_hopeless(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);

	(void)state;
	assert_int_equal(g->mem.wmark.high, 456);
	fill(g, 99700);
	assert_false(cp_kswapd_nap_end(&g->r, false, false, 0, cp_reclaim_top_zone(&g->r)));
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_HIGH_WMARK_HIT_QUICKLY], 1);
	assert_true(cp_kswapd_nap_end(&g->r, false, true, 0, cp_reclaim_top_zone(&g->r)));
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_HIGH_WMARK_HIT_QUICKLY], 1);
	assert_int_equal(g->vs.v[CP_VM_KSWAPD_LOW_WMARK_HIT_QUICKLY], 0);
	rig_free(g);
}

/* kswapd(): a run asked at order 0 ends at order 0 while a readahead
 * folio of order 9 found kswapd running (wakeup_kswapd() raises
 * pgdat->kswapd_order and returns: no waiter). The loop's top reads
 * order 9 into alloc_order and reclaim_order alike, so
 * prepare_kswapd_sleep() tests order 9: 600 free pages less the 2^9 - 1
 * an order-9 block leaves unusable (__zone_watermark_ok) are not above
 * the high watermark 456 - no nap, where the order-0 test (600 > 456)
 * would nap; kswapd_order stays 9 for the next run to read. */
static void kswapd_after_a_run_tests_sleep_at_the_order_asked_meanwhile(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	unsigned top = cp_reclaim_top_zone(&g->r);
	struct cp_kswapd_orders o = { .alloc_order = 0, .reclaim_order = 0, .highest_zoneidx = top };

	(void)state;
	assert_int_equal(g->mem.wmark.high, 456);
	fill(g, 99400);
	g->r.kswapd_sleeping = false;
	g->mem.hooks.wake_kswapd(g->mem.hooks.priv, 9, top);
	assert_true(cp_prepare_kswapd_sleep(&g->r, false, 0, top));
	cp_kswapd_loop_top(&g->r, &o);
	assert_int_equal(o.alloc_order, 9);
	assert_int_equal(o.reclaim_order, 9);
	assert_int_equal(g->r.kswapd_order, 9);
	assert_false(cp_prepare_kswapd_sleep(&g->r, false, o.reclaim_order, top));
	rig_free(g);
}

/* kswapd(): a run asked at order 9 that reclaimed compact_gap(9) and
 * dropped to order 0 goes to kswapd_try_sleep with its own orders (the
 * goto skips the loop's top): sleep tested at 0, kcompactd woken for 9,
 * whatever was asked meanwhile (order 2 here). */
static void kswapd_after_a_fallen_back_run_keeps_its_orders(void **state)
{
	struct rig *g = rig_new("linux-6.1", 100000);
	unsigned top = cp_reclaim_top_zone(&g->r);
	struct cp_kswapd_orders o = { .alloc_order = 9, .reclaim_order = 0, .highest_zoneidx = top };

	(void)state;
	g->r.kswapd_order = 2;
	cp_kswapd_loop_top(&g->r, &o);
	assert_int_equal(o.alloc_order, 9);
	assert_int_equal(o.reclaim_order, 0);
	assert_int_equal(g->r.kswapd_order, 2);
	rig_free(g);
}

/* kswapd_highest_zoneidx(pgdat, prev) at the loop's top: the zone index
 * of the previous run (DMA32, 0) while no wake-up asked for one; the one
 * asked (Normal, 1) once a wake-up did - not cleared either. */
static void kswapd_after_a_run_takes_the_zone_asked_meanwhile(void **state)
{
	struct rig *g = rig_new_zones("linux-6.1", 200000, 100000);
	struct cp_kswapd_orders o = { .alloc_order = 0, .reclaim_order = 0, .highest_zoneidx = 0 };

	(void)state;
	assert_int_equal(cp_reclaim_top_zone(&g->r), 1);
	cp_kswapd_loop_top(&g->r, &o);
	assert_int_equal(o.highest_zoneidx, 0);
	g->r.kswapd_sleeping = false;
	g->mem.hooks.wake_kswapd(g->mem.hooks.priv, 0, 1);
	cp_kswapd_loop_top(&g->r, &o);
	assert_int_equal(o.highest_zoneidx, 1);
	assert_int_equal(g->r.kswapd_highest_zoneidx, 1);
	rig_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kswapd_for_dma32_skips_normal_pages_and_counts_them),
		cmocka_unit_test(kswapd_stops_at_high_watermark),
		cmocka_unit_test(kswapd_after_a_run_tests_sleep_at_the_order_asked_meanwhile),
		cmocka_unit_test(kswapd_after_a_fallen_back_run_keeps_its_orders),
		cmocka_unit_test(kswapd_after_a_run_takes_the_zone_asked_meanwhile),
		cmocka_unit_test(kswapd_step_evicts_one_swap_cluster_batch),
		cmocka_unit_test(pages_activated_between_kswapd_steps_escape_eviction),
		cmocka_unit_test(kswapd_steps_to_the_end_are_balance_pgdat),
		cmocka_unit_test(refaults_after_the_flush_do_not_deactivate_until_flushed),
		cmocka_unit_test(exact_counters_deactivate_at_once_on_6_1),
		cmocka_unit_test(reclaim_that_skipped_deactivation_retries_forced),
		cmocka_unit_test(memcg_reclaim_walks_again_full_then_forced_on_6_x),
		cmocka_unit_test(stepped_fs_charge_reclaims_a_level_a_call),
		cmocka_unit_test(stepped_task_nofs_charge_reclaims_whole),
		cmocka_unit_test(refault_distance_is_measured_against_the_flushed_active_list),
		cmocka_unit_test(direct_reclaim_frees_at_least_32_pages),
		cmocka_unit_test(direct_reclaim_reports_failure_cleanly),
		cmocka_unit_test(memcg_reclaim_brings_usage_under_limit),
		cmocka_unit_test(memcg_reclaim_of_a_small_list_force_scans_only_on_4_11),
		cmocka_unit_test(memcg_reclaim_entries_counted_with_and_without_fs),
		cmocka_unit_test(cyclic_reader_larger_than_memory_misses),
		cmocka_unit_test(cyclic_reader_that_fits_hits_from_third_pass),
		cmocka_unit_test(nofs_reclaim_defers_and_kswapd_executes),
		cmocka_unit_test(global_pass_shrinks_root_then_the_tasks_memcg),
		cmocka_unit_test(inactive_ratio_follows_sqrt_of_size),
		cmocka_unit_test(kswapd_high_order_reclaims_compact_gap_then_stops),
		cmocka_unit_test(kswapd_high_order_goes_round_again_while_compaction_is_skipped),
		cmocka_unit_test(kswapd_order_0_never_goes_round_again),
		cmocka_unit_test(kswapd_4_11_goes_round_to_compact_gap_before_asking_compaction),
		cmocka_unit_test(wakeup_kswapd_skips_a_balanced_unboosted_zone),
		cmocka_unit_test(boosted_kswapd_reclaims_the_boost_at_priority_10_or_above),
		cmocka_unit_test(boosted_balance_pgdat_wakes_kcompactd_at_pageblock_order),
		cmocka_unit_test(kswapd_woken_in_its_nap_reclaims_again_at_least_at_its_last_order),
		cmocka_unit_test(kswapd_balanced_after_its_nap_sleeps_until_woken),
		cmocka_unit_test(kswapd_unbalanced_after_its_nap_reclaims_unless_hopeless),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
