/*
 * test_pcp.c - per-CPU page lists (pcp.c) and their use by memory.c:
 * batch and high, frees that stay on the freeing CPU's list, bulk frees
 * at high with free_factor doubling, refills of batch pages that can
 * fall back, one CPU's list unused by another, drain_all_pages, and the
 * 4.11 rules.
 *
 * Memory tests use one zone of 32768 pages (128 MiB), no reserve, 4
 * CPUs, min_free_kbytes 128: min = 128 / 4 = 32 pages, tmp = max(32 / 4,
 * 32768 * 10 / 10000 = 32) = 32, low 64, high 96.
 * zone_batchsize(): 32768 >> 10 = 32, under both caps (256 in 6.1, 128
 * in 4.11); 32 / 4 = 8; rounddown_pow_of_two(8 + 4) - 1 = 7.
 * 6.1 high: max(low / nr_cpus = 64 / 4 = 16, 4 * 7 = 28) = 28.
 * 4.11 high: 6 * 7 = 42.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "model/buddy.h"
#include "model/gfp.h"
#include "model/memory.h"
#include "model/pcp.h"
#include "model/vmstat.h"

#define ZONE_PAGES 32768u
#define NR_CPUS 4u

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_alloc_ctx ctx;
	uint32_t pfns[256];
};

static struct fixture *fixture_new(bool kernel_4_11)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = ZONE_PAGES,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.buddy_4_11 = kernel_4_11,
		.watermark_boost_factor = kernel_4_11 ? 0 : 15000,
		.nr_cpus = NR_CPUS,
	};

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(f->mem.wmark.low, 64);
	f->ctx.gfp = CP_GFP_KERNEL;
	return f;
}

static int setup_6_1(void **state)
{
	*state = fixture_new(false);
	return 0;
}

static int setup_4_11(void **state)
{
	*state = fixture_new(true);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	cp_mem_release(&f->mem);
	free(f);
	return 0;
}

/* nr order-0 MOVABLE page-cache pages allocated on cpu into f->pfns. */
static void alloc_on(struct fixture *f, int cpu, uint64_t nr)
{
	f->ctx.cpu = cpu;
	assert_int_equal(cp_mem_alloc_pages(&f->mem, CP_OWNER_PAGECACHE, nr, CP_MIGRATE_MOVABLE,
					    &f->ctx, f->pfns),
			 0);
	assert_true(cp_mem_check(&f->mem));
}

static void free_on(struct fixture *f, int cpu, uint32_t pfn)
{
	cp_mem_set_cpu(&f->mem, cpu);
	cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, pfn, 0, NULL);
	assert_true(cp_mem_check(&f->mem));
}

/* ---- batch and high --------------------------------------------------- */

/* zone_batchsize() for a 2 GiB zone (524288 managed pages): 6.1
 * min(512, 256) / 4 = 64, rounddown_pow_of_two(96) - 1 = 63; 4.11
 * min(512, 128) / 4 = 32, rounddown_pow_of_two(48) - 1 = 31. A zone of
 * 2048 pages: 2 / 4 = 0 -> 1, rounddown_pow_of_two(1) - 1 = 0. */
static void zone_batchsize_is_63_in_6_1_and_31_in_4_11(void **state)
{
	(void)state;
	assert_int_equal(cp_pcp_zone_batchsize(524288, false), 63);
	assert_int_equal(cp_pcp_zone_batchsize(524288, true), 31);
	assert_int_equal(cp_pcp_zone_batchsize(ZONE_PAGES, false), 7);
	assert_int_equal(cp_pcp_zone_batchsize(2048, false), 0);
}

/* high: 4.11 6 * 31 = 186; 6.1 max(low / nr_cpus, 4 * batch): low 2000
 * on 4 CPUs: max(500, 252) = 500; on 16: max(125, 252) = 252. */
static void zone_highsize_is_low_per_cpu_at_least_4_batch_in_6_1_6_batch_in_4_11(void **state)
{
	(void)state;
	assert_int_equal(cp_pcp_zone_highsize(31, 2000, 4, true), 186);
	assert_int_equal(cp_pcp_zone_highsize(63, 2000, 4, false), 500);
	assert_int_equal(cp_pcp_zone_highsize(63, 2000, 16, false), 252);
}

/* The model's zone (see the top): batch 7, high 28 (6.1) or 42 (4.11). */
static void mem_init_sets_pageset_batch_and_high_of_its_zone(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->mem.zones[0].pcp.batch, 7);
	assert_int_equal(f->mem.zones[0].pcp.high, f->mem.zones[0].buddy.kernel_4_11 ? 42 : 28);
	assert_int_equal(f->mem.zones[0].pcp.max_order, f->mem.zones[0].buddy.kernel_4_11 ? 0 : 3);
}

/* ---- free ------------------------------------------------------------- */

/* free_unref_page(): the page goes to the freeing CPU's list, stays out
 * of NR_FREE_PAGES (free_pages) and is counted under owner "pcp". */
static void free_unref_page_goes_to_freeing_cpu_and_free_pages_does_not_rise(void **state)
{
	struct fixture *f = *state;
	uint64_t free_before, cpu1_before;

	alloc_on(f, 1, 1);
	free_before = f->mem.free_pages;
	cpu1_before = cp_pcp_count(&f->mem.zones[0].pcp, 1);
	free_on(f, 2, f->pfns[0]);
	assert_int_equal(f->mem.free_pages, free_before);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 2), 1);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 1), cpu1_before);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PCP], cpu1_before + 1);
	assert_int_equal(cp_pcp_nr_blocks(&f->mem.zones[0].pcp, 2, CP_MIGRATE_MOVABLE, 0), 1);
	assert_string_equal(f->mem.owner_name[CP_OWNER_PCP], "pcp");
}

/*
 * free_unref_page_commit() at count >= high (28) frees nr_pcp_free():
 * batch << free_factor clamped to [batch 7, high - batch 21], and
 * free_factor grows while batch << free_factor < 21.
 *  free 28: ff 0 -> 7 pages (ff 1), count 21
 *  free 35: ff 1 -> 14 pages (ff 2), count 14
 *  free 49: ff 2 -> 28 clamped to 21 (ff stays 2), count 7
 * An allocation then halves free_factor (rmqueue_pcplist): 2 -> 1, and
 * the next bulk free is 14 pages again.
 */
static void free_pcppages_bulk_at_high_frees_nr_pcp_free_doubling(void **state)
{
	struct fixture *f = *state;
	uint64_t free0;
	unsigned i;

	alloc_on(f, 3, 100);
	free0 = f->mem.free_pages;
	for (i = 0; i < 27; i++)
		free_on(f, 0, f->pfns[i]);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 27);
	assert_int_equal(f->mem.free_pages, free0);
	free_on(f, 0, f->pfns[i++]); /* 28th */
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 21);
	assert_int_equal(f->mem.free_pages, free0 + 7);
	for (; i < 35; i++)
		free_on(f, 0, f->pfns[i]);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 14);
	assert_int_equal(f->mem.free_pages, free0 + 7 + 14);
	for (; i < 49; i++)
		free_on(f, 0, f->pfns[i]);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 7);
	assert_int_equal(f->mem.free_pages, free0 + 7 + 14 + 21);
	assert_int_equal(f->vs.v[CP_VM_PCP_BULK_FREE_PAGES], 7 + 14 + 21);
	assert_int_equal(f->mem.zones[0].pcp.cpus[0].free_factor, 2);
	alloc_on(f, 0, 1); /* from cpu 0's list: count 6, ff 1 */
	assert_int_equal(f->mem.zones[0].pcp.cpus[0].free_factor, 1);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 6);
	for (; i < 49 + 22; i++)
		free_on(f, 0, f->pfns[i]);
	/* 6 + 22 = 28: 7 << 1 = 14 go, 14 stay */
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 14);
}

/* 4.11 free_hot_cold_page(): at count >= high (42) exactly batch (7)
 * pages go back, whatever came before. */
static void free_hot_cold_page_4_11_frees_batch_at_high(void **state)
{
	struct fixture *f = *state;
	uint64_t free0;
	unsigned i;

	alloc_on(f, 3, 100);
	free0 = f->mem.free_pages;
	for (i = 0; i < 42; i++)
		free_on(f, 0, f->pfns[i]);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 35);
	assert_int_equal(f->mem.free_pages, free0 + 7);
	for (; i < 49; i++)
		free_on(f, 0, f->pfns[i]);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 35);
	assert_int_equal(f->mem.free_pages, free0 + 14);
}

/* nr_pcp_high() while ZONE_RECLAIM_ACTIVE: high at most 4 * batch. One
 * CPU, batch 7, low 64: high max(64 / 1, 28) = 64, capped to 28 while
 * kswapd reclaims: the 28th free bulk-frees nr_pcp_free(high 28) =
 * clamp(7, 7, 21) = 7 pages. Without the cap 28 frees stay. */
static void nr_pcp_high_capped_at_4_batch_while_reclaim_active(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params bp = { .nr_pages = 2048 };
	struct cp_pcp p;
	struct cp_pcp_params pp = {
		.nr_pages = 2048, .nr_cpus = 1, .managed_pages = ZONE_PAGES, .low_wmark_pages = 64,
	};
	uint32_t pfn, i;

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &bp, NULL), 0);
	assert_int_equal(cp_pcp_init(&p, &pp, NULL), 0);
	assert_int_equal(p.high, 64);
	assert_int_equal(cp_buddy_alloc(&b, 6, CP_MIGRATE_MOVABLE, 0, &pfn), 0);
	assert_int_equal(cp_buddy_split_page(&b, pfn, 6, NULL), 0);
	for (i = 0; i < 28; i++)
		cp_pcp_free(&p, &b, 0, pfn + i, 0);
	assert_int_equal(cp_pcp_count(&p, 0), 28);
	p.reclaim_active = true;
	for (; i < 56; i++)
		cp_pcp_free(&p, &b, 0, pfn + i, 0);
	/* 29th free: count 29 >= 28: 7 go (22), ff 1; the 35th: 14 go (14), ff 2;
	 * 14 more (the 49th) reach 28: 21 go (7); 7 more: 14 stay */
	assert_int_equal(cp_pcp_count(&p, 0), 14);
	assert_true(cp_pcp_check(&p, &b));
	cp_pcp_release(&p);
	cp_buddy_release(&b);
}

/* ---- allocation -------------------------------------------------------- */

/* rmqueue_pcplist() on an empty list: rmqueue_bulk() of batch (7)
 * pages, one returned, 6 left on the list; free_pages drops by 7; the
 * next 6 allocations come from the list and free_pages stays. */
static void rmqueue_bulk_refills_batch_pages_on_empty_list(void **state)
{
	struct fixture *f = *state;
	uint64_t free0 = f->mem.free_pages;

	alloc_on(f, 1, 1);
	assert_int_equal(f->mem.free_pages, free0 - 7);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 1), 6);
	assert_int_equal(f->mem.zones[0].pcp.nr_refills, 1);
	assert_int_equal(f->vs.v[CP_VM_PCP_REFILL_PAGES], 7);
	alloc_on(f, 1, 6);
	assert_int_equal(f->mem.free_pages, free0 - 7);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 1), 0);
	assert_int_equal(f->mem.zones[0].pcp.nr_refills, 1);
}

/* 6.1 order 2: the refill is max(batch >> 2, 2) = max(1, 2) = 2 blocks
 * of 4 pages: one returned, one (4 pages) stays on the order-2 list. */
static void rmqueue_bulk_refills_batch_shifted_by_order_at_least_two(void **state)
{
	struct fixture *f = *state;
	uint64_t free0 = f->mem.free_pages;
	uint32_t pfns[4];
	bool split;

	f->ctx.cpu = 1;
	assert_int_equal(cp_mem_alloc_block(&f->mem, CP_OWNER_PAGECACHE, 2, CP_MIGRATE_MOVABLE,
					    &f->ctx, pfns, &split),
			 0);
	assert_false(split);
	assert_int_equal(cp_pcp_nr_blocks(&f->mem.zones[0].pcp, 1, CP_MIGRATE_MOVABLE, 2), 1);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 1), 4);
	assert_int_equal(f->mem.free_pages, free0 - 8);
	assert_true(cp_mem_check(&f->mem));
}

/* A CPU whose list is empty refills from the buddy even when another
 * CPU's list holds pages of the same type and order. */
static void rmqueue_pcplist_does_not_use_another_cpus_list(void **state)
{
	struct fixture *f = *state;
	uint64_t free0;

	alloc_on(f, 0, 1); /* cpu 0: 6 pages left on its list */
	free0 = f->mem.free_pages;
	alloc_on(f, 2, 1);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 0), 6);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 2), 6);
	assert_int_equal(f->mem.free_pages, free0 - 7);
}

/*
 * rmqueue_bulk() calls __rmqueue() per page, so a refill can run the
 * requested type's lists dry and fall back for the rest. A zone of 2048
 * pages (four pageblocks), batch 7 (zone_batchsize of 32768 managed
 * pages, as the memory tests), every page allocated, pageblock 0 made
 * RECLAIMABLE; pfns 0..99 freed there (order-6, -5 and -2 blocks on the
 * RECLAIMABLE lists) and three lone MOVABLE pages 1024, 1026, 1028 in
 * pageblock 2. A MOVABLE order-0 refill of 7 takes the 3 MOVABLE pages,
 * then __rmqueue_fallback steals from the RECLAIMABLE pageblock (one
 * mm_page_alloc_extfrag, fragmenting: order 6 < pageblock_order), moving
 * its free blocks to MOVABLE, where the last 3 come from. The page
 * returned is the first of the refill: a MOVABLE-pageblock page.
 */
static void rmqueue_bulk_refill_falls_back_when_movable_lists_run_dry(void **state)
{
	struct cp_buddy b;
	struct cp_buddy_params bp = { .nr_pages = 2048 };
	struct cp_pcp p;
	struct cp_pcp_params pp = {
		.nr_pages = 2048, .nr_cpus = 2, .managed_pages = ZONE_PAGES, .low_wmark_pages = 64,
	};
	uint32_t pfn, i;

	(void)state;
	assert_int_equal(cp_buddy_init(&b, &bp, NULL), 0);
	assert_int_equal(cp_pcp_init(&p, &pp, NULL), 0);
	assert_int_equal(p.batch, 7);
	for (i = 0; i < 2; i++) {
		assert_int_equal(cp_buddy_alloc(&b, 10, CP_MIGRATE_MOVABLE, 0, &pfn), 0);
		assert_int_equal(cp_buddy_split_page(&b, pfn, 10, NULL), 0);
	}
	assert_int_equal(b.nr_free_pages, 0);
	assert_int_equal(cp_buddy_set_pageblock_migratetype(&b, 0, CP_MIGRATE_RECLAIMABLE), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(cp_buddy_free(&b, i, 0, NULL), 0);
	for (i = 1024; i <= 1028; i += 2)
		assert_int_equal(cp_buddy_free(&b, i, 0, NULL), 0);
	assert_int_equal(cp_buddy_nr_free_blocks(&b, 0, CP_MIGRATE_MOVABLE), 3);
	b.nr_extfrag = b.nr_extfrag_fragmenting = 0;

	assert_int_equal(cp_pcp_alloc(&p, &b, 1, 0, CP_MIGRATE_MOVABLE, 0, 0, &pfn), 0);
	assert_true(pfn == 1024 || pfn == 1026 || pfn == 1028);
	assert_int_equal(p.nr_refill_pages, 7);
	assert_int_equal(cp_pcp_count(&p, 1), 6);
	assert_int_equal(b.nr_free_pages, 103 - 7);
	assert_int_equal(b.nr_extfrag, 1);
	assert_int_equal(b.nr_extfrag_fragmenting, 1);
	assert_true(cp_pcp_check(&p, &b));
	assert_true(cp_buddy_check(&b));
	cp_pcp_release(&p);
	cp_buddy_release(&b);
}

/* ---- drain -------------------------------------------------------------- */

/* drain_all_pages(): every CPU's pages go back; with all pages freed the
 * zone is again 32 free order-10 blocks (32768 / 1024). */
static void drain_all_pages_returns_every_cpus_pages(void **state)
{
	struct fixture *f = *state;
	uint64_t held;
	unsigned i;

	alloc_on(f, 1, 40);
	for (i = 0; i < 20; i++)
		free_on(f, (int)(i % NR_CPUS), f->pfns[i]);
	for (; i < 40; i++)
		free_on(f, 2, f->pfns[i]);
	held = f->mem.nr_owner[CP_OWNER_PCP];
	assert_true(held > 0);
	assert_int_equal(cp_mem_drain_all_pages(&f->mem), held);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PCP], 0);
	for (i = 0; i < NR_CPUS; i++)
		assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, (int)i), 0);
	assert_int_equal(f->mem.free_pages, ZONE_PAGES);
	assert_int_equal(f->mem.zones[0].buddy.nr_free[10], 32);
	assert_true(cp_mem_check(&f->mem));
}

/* The slow path drains before it fails for good: with free pages below
 * min + nr but free + pcp pages above it and no reclaim hooks, the
 * allocation succeeds, no OOM is counted. Set-up: 20 pages freed to
 * cpu 2's list (20 < high 28: no bulk free), process memory taking the
 * rest but 40 free + pcp pages. nr 25: min 32 + 25 = 57 > 40 >= free
 * pages, and 40 + 20 = 60 >= 57 after the drain. */
static void alloc_slowpath_drains_pcp_before_failing(void **state)
{
	struct fixture *f = *state;
	unsigned i;

	alloc_on(f, 1, 20);
	for (i = 0; i < 20; i++)
		free_on(f, 2, f->pfns[i]);
	cp_mem_set_cpu(&f->mem, 1);
	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS,
				     f->mem.free_pages + f->mem.nr_owner[CP_OWNER_PCP] - 20 - 40),
			 0);
	assert_true(cp_mem_check(&f->mem));
	assert_int_equal(f->mem.free_pages + f->mem.nr_owner[CP_OWNER_PCP], 60);
	assert_true(f->mem.free_pages <= 40);
	alloc_on(f, 3, 25);
	assert_int_equal(f->mem.zones[0].pcp.nr_drains, 1);
	assert_int_equal(f->vs.v[CP_VM_PCP_DRAIN], 1);
	assert_int_equal(f->vs.v[CP_VM_OOM], 0);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PCP], cp_pcp_count(&f->mem.zones[0].pcp, 3));
}

/* ---- 4.11 ---------------------------------------------------------------- */

/* 4.11 buffered_rmqueue() uses pcp for order 0 only: an order-1
 * allocation and its free go straight to the buddy. */
static void pcp_4_11_orders_above_0_bypass_pcp(void **state)
{
	struct fixture *f = *state;
	uint64_t free0 = f->mem.free_pages;
	uint32_t pfns[2];
	bool split;

	f->ctx.cpu = 1;
	assert_int_equal(cp_mem_alloc_block(&f->mem, CP_OWNER_PAGECACHE, 1, CP_MIGRATE_MOVABLE,
					    &f->ctx, pfns, &split),
			 0);
	assert_int_equal(f->mem.free_pages, free0 - 2);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PCP], 0);
	cp_mem_set_cpu(&f->mem, 1);
	cp_mem_free_block(&f->mem, CP_OWNER_PAGECACHE, pfns[0], 1, NULL);
	assert_int_equal(f->mem.free_pages, free0);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PCP], 0);
	/* order 0 does go through pcp: batch 7 refilled, 6 stay */
	alloc_on(f, 1, 1);
	assert_int_equal(cp_pcp_count(&f->mem.zones[0].pcp, 1), 6);
	assert_true(cp_mem_check(&f->mem));
}

/* Without nr_cpus there are no pcp lists: frees go to the buddy. */
static void no_cpus_means_no_pcp_lists(void **state)
{
	struct cp_vmstat vs = { 0 };
	struct cp_mem m;
	struct cp_mem_params mp = {
		.total_pages = ZONE_PAGES, .min_free_kbytes = 128, .watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536, .memcg_reclaim_retries = 5,
	};
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t pfn;

	(void)state;
	assert_int_equal(cp_mem_init(&m, &mp, &vs, NULL), 0);
	assert_int_equal(cp_mem_alloc_pages(&m, CP_OWNER_PAGECACHE, 1, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn),
			 0);
	assert_int_equal(m.free_pages, ZONE_PAGES - 1);
	cp_mem_free_block(&m, CP_OWNER_PAGECACHE, pfn, 0, NULL);
	assert_int_equal(m.free_pages, ZONE_PAGES);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

static void pcp_init_rejects_zero_cpus(void **state)
{
	struct cp_pcp p;
	struct cp_pcp_params pp = { .nr_pages = 16, .nr_cpus = 0 };
	struct cp_diag d = { 0 };

	(void)state;
	assert_int_equal(cp_pcp_init(&p, &pp, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "nr_cpus"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zone_batchsize_is_63_in_6_1_and_31_in_4_11),
		cmocka_unit_test(zone_highsize_is_low_per_cpu_at_least_4_batch_in_6_1_6_batch_in_4_11),
		cmocka_unit_test_setup_teardown(mem_init_sets_pageset_batch_and_high_of_its_zone,
						setup_6_1, teardown),
		cmocka_unit_test_setup_teardown(mem_init_sets_pageset_batch_and_high_of_its_zone,
						setup_4_11, teardown),
		cmocka_unit_test_setup_teardown(
			free_unref_page_goes_to_freeing_cpu_and_free_pages_does_not_rise, setup_6_1,
			teardown),
		cmocka_unit_test_setup_teardown(free_pcppages_bulk_at_high_frees_nr_pcp_free_doubling,
						setup_6_1, teardown),
		cmocka_unit_test_setup_teardown(free_hot_cold_page_4_11_frees_batch_at_high,
						setup_4_11, teardown),
		cmocka_unit_test(nr_pcp_high_capped_at_4_batch_while_reclaim_active),
		cmocka_unit_test_setup_teardown(rmqueue_bulk_refills_batch_pages_on_empty_list,
						setup_6_1, teardown),
		cmocka_unit_test_setup_teardown(
			rmqueue_bulk_refills_batch_shifted_by_order_at_least_two, setup_6_1, teardown),
		cmocka_unit_test_setup_teardown(rmqueue_pcplist_does_not_use_another_cpus_list,
						setup_6_1, teardown),
		cmocka_unit_test(rmqueue_bulk_refill_falls_back_when_movable_lists_run_dry),
		cmocka_unit_test_setup_teardown(drain_all_pages_returns_every_cpus_pages, setup_6_1,
						teardown),
		cmocka_unit_test_setup_teardown(alloc_slowpath_drains_pcp_before_failing, setup_6_1,
						teardown),
		cmocka_unit_test_setup_teardown(pcp_4_11_orders_above_0_bypass_pcp, setup_4_11,
						teardown),
		cmocka_unit_test(no_cpus_means_no_pcp_lists),
		cmocka_unit_test(pcp_init_rejects_zero_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
