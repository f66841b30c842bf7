/*
 * test_pcp_autotune.c - the 6.7+ per-CPU list auto-tuning (pcp.c with
 * auto_tune; mm/page_alloc.c nr_pcp_alloc, nr_pcp_high, nr_pcp_free,
 * free_unref_page_commit, decay_pcp_high of Debian's 6.12.117, with
 * 6.16's free_high threshold), and memory.c's ZONE_BELOW_HIGH.
 *
 * pcp tests: one CPU, a 65536-page zone (managed 65536), low watermark
 * 100. zone_batchsize(): 65536 >> 10 = 64 (under the cap 256), / 4 = 16,
 * rounddown_pow_of_two(16 + 8) - 1 = 15 = batch.
 * high_min = zone_highsize(fraction 0) = max(100 / 1, 4 * 15 = 60) = 100;
 * high_max = zone_highsize(fraction 8) = max(65536 / 8 / 1, 60) = 8192.
 * batch << CONFIG_PCP_BATCH_SCALE_MAX = 15 << 5 = 480.
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
#include "model/profile.h"
#include "model/vmstat.h"

#define NR_PAGES 65536u
#define BATCH 15u
#define HIGH_MIN 100u
#define HIGH_MAX 8192u

struct pf {
	struct cp_buddy b;
	struct cp_pcp p;
	uint32_t pfns[1024];
};

static int pf_setup(void **state)
{
	struct pf *f = calloc(1, sizeof(*f));
	struct cp_buddy_params bp = { .nr_pages = NR_PAGES };
	struct cp_pcp_params pp = {
		.nr_pages = NR_PAGES, .nr_cpus = 1, .managed_pages = NR_PAGES,
		.low_wmark_pages = 100, .auto_tune = true,
	};

	assert_non_null(f);
	assert_int_equal(cp_buddy_init(&f->b, &bp, NULL), 0);
	assert_int_equal(cp_pcp_init(&f->p, &pp, NULL), 0);
	*state = f;
	return 0;
}

static int pf_teardown(void **state)
{
	struct pf *f = *state;

	cp_pcp_release(&f->p);
	cp_buddy_release(&f->b);
	free(f);
	return 0;
}

/* n order-0 MOVABLE pages straight from the buddy (to free onto pcp). */
static void buddy_pages(struct pf *f, uint32_t n)
{
	uint32_t i;

	assert_true(n <= 1024);
	for (i = 0; i < n; i++)
		assert_int_equal(cp_buddy_alloc(&f->b, 0, CP_MIGRATE_MOVABLE, 0, &f->pfns[i]), 0);
}

static void free_pages(struct pf *f, uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		cp_pcp_free(&f->p, &f->b, 0, f->pfns[i], 0);
	assert_true(cp_pcp_check(&f->p, &f->b));
}

/* One order-0 MOVABLE allocation through the pcp; returns the pages
 * the refill (if any) took from the buddy. */
static uint64_t alloc1(struct pf *f)
{
	uint64_t before = f->p.nr_refill_pages;
	uint32_t pfn;

	assert_int_equal(cp_pcp_alloc(&f->p, &f->b, 0, 0, CP_MIGRATE_MOVABLE, 0, 0, &pfn), 0);
	return f->p.nr_refill_pages - before;
}

/* zone_set_pageset_high_and_batch() with percpu_pagelist_high_fraction
 * 0: high_min = zone_highsize(0) = 100, high_max = zone_highsize(8) =
 * 8192; pcp->high = BOOT_PAGESET_HIGH (0) clamped = 100. */
static void pageset_high_min_is_low_split_and_high_max_an_eighth_of_managed(void **state)
{
	struct pf *f = *state;

	assert_int_equal(f->p.batch, BATCH);
	assert_int_equal(f->p.high_min, HIGH_MIN);
	assert_int_equal(f->p.high_max, HIGH_MAX);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
	assert_int_equal(cp_pcp_zone_highsize_max(15, 1000, 4), 60); /* 1000/8/4 = 31 < 60 */
}

/*
 * nr_pcp_alloc(): with no free between them, order-0 refills are batch
 * << alloc_factor and alloc_factor rises while the refill fits
 * max(high - count - batch, batch) (up to 5); high grows by each refill.
 * Every refill finds count 0 (the list was used up):
 *   af 0: b 15,  high 100 + 15 = 115,  max(115 - 15, 15) = 100 >= 15: af 1
 *   af 1: b 30,  high 145,  130 >= 30: af 2
 *   af 2: b 60,  high 205,  190: af 3
 *   af 3: b 120, high 325,  310: af 4
 *   af 4: b 240, high 565,  550: af 5
 *   af 5: b 480, high 1045, 1030: af stays 5 (CONFIG_PCP_BATCH_SCALE_MAX)
 *   af 5: b 480, high 1525.
 */
static void nr_pcp_alloc_doubles_refill_and_grows_high_without_frees(void **state)
{
	struct pf *f = *state;
	static const uint64_t refill[] = { 15, 30, 60, 120, 240, 480, 480 };
	static const uint32_t high[] = { 115, 145, 205, 325, 565, 1045, 1525 };
	unsigned r, i;

	for (r = 0; r < 7; r++) {
		assert_int_equal(alloc1(f), refill[r]);
		assert_int_equal(cp_pcp_high(&f->p, 0), high[r]);
		for (i = 1; i < refill[r]; i++)
			assert_int_equal(alloc1(f), 0);
		assert_int_equal(cp_pcp_count(&f->p, 0), 0);
	}
	assert_int_equal(f->p.cpus[0].alloc_factor, 5);
	assert_true(cp_pcp_check(&f->p, &f->b));
}

/* free_unref_page_commit() halves alloc_factor: after refills of 15, 30,
 * 60 (af 3) and 10 of those 60 pages used, one free: af 3 >> 1 = 1; the
 * list still holds 50 + 1 pages; used up, the next refill is 15 << 1 =
 * 30 (high 205 + 30 = 235, max(235 - 0 - 15, 15) = 220 >= 30: af 2). */
static void free_halves_alloc_factor(void **state)
{
	struct pf *f = *state;
	unsigned i;

	buddy_pages(f, 1);
	for (i = 0; i < 15 + 30 + 10; i++)
		alloc1(f);
	assert_int_equal(f->p.cpus[0].alloc_factor, 3);
	free_pages(f, 0, 1);
	assert_int_equal(f->p.cpus[0].alloc_factor, 1);
	assert_int_equal(cp_pcp_count(&f->p, 0), 51);
	for (i = 0; i < 51; i++)
		assert_int_equal(alloc1(f), 0);
	assert_int_equal(alloc1(f), 30);
	assert_int_equal(cp_pcp_high(&f->p, 0), 235);
	assert_int_equal(f->p.cpus[0].alloc_factor, 2);
}

/*
 * ZONE_BELOW_HIGH stops high growing, and the refill is capped at
 * max(high - count - batch, batch) counting the pages of the other
 * lists. 80 UNMOVABLE pages on the pcp (their pageblock claimed for
 * UNMOVABLE), high_min 100, count 80:
 *   refill 1: af 0, b 15, high stays 100, max(100 - 80 - 15, 15) = 15,
 *             15 <= 15: af 1; 15 pages;
 *   refill 2: b 30 > 15: af stays 1, b = 15.
 */
static void zone_below_high_stops_growth_and_refill_capped_at_high_less_count(void **state)
{
	struct pf *f = *state;
	uint32_t pfn, i;

	assert_int_equal(cp_buddy_alloc(&f->b, 7, CP_MIGRATE_UNMOVABLE, 0, &pfn), 0);
	assert_int_equal(cp_buddy_pageblock_migratetype(&f->b, pfn), CP_MIGRATE_UNMOVABLE);
	assert_int_equal(cp_buddy_split_page(&f->b, pfn, 7, NULL), 0);
	f->p.below_high = true;
	for (i = 0; i < 80; i++)
		cp_pcp_free(&f->p, &f->b, 0, pfn + i, 0);
	/* below high the free threshold is max(count, high_min) = 100: no spill */
	assert_int_equal(cp_pcp_count(&f->p, 0), 80);
	assert_int_equal(f->p.cpus[0].alloc_factor, 0);
	assert_int_equal(alloc1(f), 15);
	assert_int_equal(f->p.cpus[0].alloc_factor, 1);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
	for (i = 1; i < 15; i++)
		alloc1(f);
	assert_int_equal(alloc1(f), 15);
	assert_int_equal(f->p.cpus[0].alloc_factor, 1);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
}

/*
 * nr_pcp_high() with ZONE_RECLAIM_ACTIVE: every free lowers the stored
 * high by max(free_count, batch) (not below high_min) and the spill
 * threshold is min(4 * batch, high) = 60. From high 1000: free 1 (fc 1):
 * 1000 - 15 = 985; free 2: 970; free 3: 955. The 60th free (count 60,
 * free_count 60) spills nr_pcp_free(60) = clamp(60, 15, 60 - 15) = 45,
 * leaving 15; high has long reached high_min 100.
 */
static void reclaim_active_lowers_high_by_free_count_and_spills_at_4_batch(void **state)
{
	struct pf *f = *state;

	buddy_pages(f, 60);
	f->p.cpus[0].high = 1000;
	f->p.reclaim_active = true;
	free_pages(f, 0, 3);
	assert_int_equal(cp_pcp_high(&f->p, 0), 955);
	free_pages(f, 3, 59);
	assert_int_equal(cp_pcp_count(&f->p, 0), 59);
	assert_int_equal(f->p.nr_bulk_frees, 0);
	free_pages(f, 59, 60);
	assert_int_equal(f->p.nr_bulk_free_pages, 45);
	assert_int_equal(cp_pcp_count(&f->p, 0), 15);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
}

/*
 * nr_pcp_high() with ZONE_BELOW_HIGH: the stored high drops by
 * max(free_count, batch) per free (1000 -> 985 -> 970) and the spill
 * threshold is max(count, high_min): the 100th free spills
 * nr_pcp_free(high 100) = clamp(free_count 100, 15, 85) = 85.
 */
static void zone_below_high_lowers_high_and_spills_at_high_min(void **state)
{
	struct pf *f = *state;

	buddy_pages(f, 100);
	f->p.cpus[0].high = 1000;
	f->p.below_high = true;
	free_pages(f, 0, 2);
	assert_int_equal(cp_pcp_high(&f->p, 0), 970);
	free_pages(f, 2, 99);
	assert_int_equal(f->p.nr_bulk_frees, 0);
	free_pages(f, 99, 100);
	assert_int_equal(f->p.nr_bulk_free_pages, 85);
	assert_int_equal(cp_pcp_count(&f->p, 0), 15);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
}

/*
 * nr_pcp_high() above the high watermark: at count >= high the stored
 * high rises to free_count + batch (need_high) and this free still
 * spills at the old high. high 100, 100 frees: the 100th has count 100,
 * need 100 + 15 = 115 > 100: high 115; spill clamp(100, 15, 85) = 85.
 */
static void count_at_high_raises_high_to_free_count_plus_batch(void **state)
{
	struct pf *f = *state;

	buddy_pages(f, 100);
	free_pages(f, 0, 100);
	assert_int_equal(f->p.nr_bulk_free_pages, 85);
	assert_int_equal(cp_pcp_count(&f->p, 0), 15);
	assert_int_equal(cp_pcp_high(&f->p, 0), 115);
}

/*
 * nr_pcp_free() follows free_count, which an allocation halves
 * (rmqueue_pcplist): high 200 (not below the watermark); 60 frees (fc
 * 60), one allocation from the list (fc 30, count 59), 141 frees: the
 * last makes count 200 >= 200 with fc 30 + 141 = 171; need 186 < 200
 * leaves high; the spill is clamp(171, 15, 185) = 171, leaving 29.
 */
static void spill_size_is_free_count_halved_by_allocations(void **state)
{
	struct pf *f = *state;

	buddy_pages(f, 201);
	f->p.cpus[0].high = 200;
	free_pages(f, 0, 60);
	assert_int_equal(alloc1(f), 0);
	assert_int_equal(f->p.cpus[0].free_count, 30);
	free_pages(f, 60, 200);
	assert_int_equal(f->p.nr_bulk_frees, 0);
	free_pages(f, 200, 201);
	assert_int_equal(f->p.nr_bulk_free_pages, 171);
	assert_int_equal(cp_pcp_count(&f->p, 0), 29);
	assert_int_equal(cp_pcp_high(&f->p, 0), 200);
}

/*
 * free_high for orders 1-3 (6.16 threshold batch + high_min / 2 = 15 +
 * 50 = 65): consecutive order-1 frees; the i-th sees free_count 2(i-1)
 * and the previous free was high-order from the 2nd on. The 33rd sees
 * 64 < 65 (count 66 < high 100: no spill); the 34th sees 66: free_high,
 * nr_pcp_high 0, spill min(count 68, 480) = 68; high max(100 - 480,
 * 100) = 100. (The 6.7-6.15 threshold, batch, would fire at the 9th.)
 */
static void free_high_after_consecutive_high_order_frees_above_6_16_threshold(void **state)
{
	struct pf *f = *state;
	uint32_t i;

	for (i = 0; i < 34; i++)
		assert_int_equal(cp_buddy_alloc(&f->b, 1, CP_MIGRATE_MOVABLE, 0, &f->pfns[i]), 0);
	for (i = 0; i < 33; i++)
		cp_pcp_free(&f->p, &f->b, 0, f->pfns[i], 1);
	assert_int_equal(cp_pcp_count(&f->p, 0), 66);
	assert_int_equal(f->p.nr_bulk_frees, 0);
	cp_pcp_free(&f->p, &f->b, 0, f->pfns[33], 1);
	assert_int_equal(f->p.nr_bulk_free_pages, 68);
	assert_int_equal(cp_pcp_count(&f->p, 0), 0);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
	assert_true(cp_pcp_check(&f->p, &f->b));
}

/* An order-0 free clears PCPF_PREV_FREE_HIGH_ORDER: 32 order-1 frees
 * (the 32nd sees fc 62 < 65; count 64), an order-0 free (fc 65, count
 * 65), an order-1 free: fc 65 >= 65 but the previous free was order 0,
 * so no free_high (count 67 < high 100: no spill). */
static void order_0_free_clears_prev_free_high_order(void **state)
{
	struct pf *f = *state;
	uint32_t i, pfn0;

	for (i = 0; i < 40; i++)
		assert_int_equal(cp_buddy_alloc(&f->b, 1, CP_MIGRATE_MOVABLE, 0, &f->pfns[i]), 0);
	assert_int_equal(cp_buddy_alloc(&f->b, 0, CP_MIGRATE_MOVABLE, 0, &pfn0), 0);
	/* 32 order-1 frees: fc before the 32nd is 62 < 65 */
	for (i = 0; i < 32; i++)
		cp_pcp_free(&f->p, &f->b, 0, f->pfns[i], 1);
	cp_pcp_free(&f->p, &f->b, 0, pfn0, 0);
	assert_false(f->p.cpus[0].prev_free_high_order);
	cp_pcp_free(&f->p, &f->b, 0, f->pfns[32], 1);
	assert_int_equal(f->p.nr_bulk_frees, 0);
	assert_true(f->p.cpus[0].prev_free_high_order);
}

/*
 * decay_pcp_high(): high = max3(count - 480, high - high / 8, high_min)
 * per tick, then count - high pages go back batch (15) at a time. high
 * 1000, count 300 (300 frees below high: no spill): 875, 766, 671, 588,
 * 515, 451, 395, 346, 303 (count 300 stays), then 266: 34 pages go
 * (15 + 15 + 4), count 266. Many more ticks: high_min 100, count 100.
 */
static void decay_pcp_high_takes_an_eighth_per_tick_and_frees_the_excess(void **state)
{
	struct pf *f = *state;
	static const uint32_t high[] = { 875, 766, 671, 588, 515, 451, 395, 346, 303 };
	unsigned t;

	buddy_pages(f, 300);
	f->p.cpus[0].high = 1000;
	free_pages(f, 0, 300);
	assert_int_equal(f->p.nr_bulk_frees, 0);
	for (t = 0; t < 9; t++) {
		assert_int_equal(cp_pcp_decay_high(&f->p, &f->b), 0);
		assert_int_equal(cp_pcp_high(&f->p, 0), high[t]);
	}
	assert_int_equal(cp_pcp_decay_high(&f->p, &f->b), 34);
	assert_int_equal(cp_pcp_high(&f->p, 0), 266);
	assert_int_equal(cp_pcp_count(&f->p, 0), 266);
	for (t = 0; t < 100; t++)
		cp_pcp_decay_high(&f->p, &f->b);
	assert_int_equal(cp_pcp_high(&f->p, 0), HIGH_MIN);
	assert_int_equal(cp_pcp_count(&f->p, 0), HIGH_MIN);
	assert_int_equal(f->p.nr_decay_pages, 200);
	assert_true(cp_pcp_check(&f->p, &f->b));
}

/* decay_pcp_high() with a count above batch << 5 beyond high: high 1000,
 * count 900 (after the first tick's max3(900 - 480, 875, 100) = 875:
 * 25 pages go, 15 + 10). */
static void decay_pcp_high_frees_count_above_high_in_batches(void **state)
{
	struct pf *f = *state;

	buddy_pages(f, 900);
	f->p.cpus[0].high = 1000;
	free_pages(f, 0, 900);
	assert_int_equal(cp_pcp_decay_high(&f->p, &f->b), 25);
	assert_int_equal(cp_pcp_count(&f->p, 0), 875);
}

/* Without auto_tune (6.1) and with 4.11 nothing is tuned: high_min ==
 * high_max == high, decay does nothing. */
static void no_auto_tune_for_6_1_and_4_11(void **state)
{
	struct cp_pcp p;
	struct cp_pcp_params pp = {
		.nr_pages = 16, .nr_cpus = 1, .managed_pages = NR_PAGES, .low_wmark_pages = 100,
	};

	(void)state;
	assert_int_equal(cp_pcp_init(&p, &pp, NULL), 0);
	assert_false(p.auto_tune);
	assert_int_equal(p.high_min, p.high);
	assert_int_equal(p.high_max, p.high);
	assert_int_equal(cp_pcp_decay_high(&p, NULL), 0);
	cp_pcp_release(&p);
	pp.auto_tune = true;
	pp.kernel_4_11 = true;
	assert_int_equal(cp_pcp_init(&p, &pp, NULL), 0);
	assert_false(p.auto_tune);
	cp_pcp_release(&p);
}

/* The kernel profiles: only linux-6.x (6.16+) auto-tunes. */
static void only_linux_6_x_profile_auto_tunes(void **state)
{
	(void)state;
	assert_true(cp_kernel_profile_find("linux-6.x")->pcp_auto_tune);
	assert_false(cp_kernel_profile_find("linux-6.1")->pcp_auto_tune);
	assert_false(cp_kernel_profile_find("linux-4.11")->pcp_auto_tune);
}

/*
 * memory.c: get_page_from_freelist() sets ZONE_BELOW_HIGH when the zone
 * fails its high watermark, and a bulk free that leaves it above high
 * clears it. One zone of 32768 pages, 1 CPU, min_free_kbytes 128: min
 * 32, low 64, high 96; batch 7, high_min max(64, 28) = 64. Process
 * memory takes 32768 - 250 = 32518 pages = 512 + 256 + 4 + 2 after 31
 * blocks of 1024; the order-2 and order-1 blocks come through pcp
 * refills of max(7 >> 2, 2) = 2 and max(7 >> 1, 2) = 3 blocks, which
 * keep 4 + 4 pages: 242 free. One page passes the high mark (242 >= 96
 * + 1); its refill of 7 keeps 6 and the page comes back to the pcp:
 * 235. 150 pages fail it (235 < 96 + 150) and pass the low mark (235 >=
 * 64 + 150). The pcp then holds what the refills took beyond the 150
 * (checked below only as the precondition: fewer than 64 - 10), so
 * freeing 10 cannot reach the spill threshold max(count, high_min 64)
 * and the flag stays; freeing all 150 spills,
 * and with at most 64 pages held the zone ends above high (250 - 64 >
 * 96), which the spill that got it there saw.
 */
static void zone_below_high_set_by_allocation_cleared_by_bulk_free(void **state)
{
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem m;
	struct cp_mem_params mp = {
		.total_pages = 32768, .min_free_kbytes = 128, .watermark_scale_factor = 10,
		.min_free_kbytes_max = 262144, .memcg_reclaim_retries = 5,
		.watermark_boost_factor = 15000, .nr_cpus = 1, .pcp_auto_tune = true,
	};
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t pfns[150], i;

	(void)state;
	assert_int_equal(cp_mem_init(&m, &mp, &vs, NULL), 0);
	assert_int_equal(m.zones[0].wmark.high, 96);
	assert_true(cp_mem_pcp_auto_tune(&m));
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, m.free_pages - 250), 0);
	assert_int_equal(m.free_pages, 242);
	assert_int_equal(cp_mem_alloc_pages(&m, CP_OWNER_PAGECACHE, 1, CP_MIGRATE_MOVABLE, &ctx,
					    pfns),
			 0);
	assert_false(m.zones[0].pcp.below_high);
	cp_mem_free_pages(&m, CP_OWNER_PAGECACHE, pfns, 1, NULL);
	assert_int_equal(m.free_pages, 235);
	assert_int_equal(cp_mem_alloc_pages(&m, CP_OWNER_PAGECACHE, 150, CP_MIGRATE_MOVABLE, &ctx,
					    pfns),
			 0);
	assert_int_equal(vs.v[CP_VM_ALLOCSTALL], 0);
	assert_true(m.zones[0].pcp.below_high);
	assert_true(cp_mem_pcp_held_pages(&m) + 10 < 64);
	cp_mem_free_pages(&m, CP_OWNER_PAGECACHE, pfns, 10, NULL);
	assert_int_equal(m.zones[0].pcp.nr_bulk_frees, 0);
	assert_true(m.zones[0].pcp.below_high);
	cp_mem_free_pages(&m, CP_OWNER_PAGECACHE, pfns + 10, 140, NULL);
	assert_false(m.zones[0].pcp.below_high);
	assert_true(m.free_pages > 96);
	/* vmstat_update: decay gives back what is above high (here high_min) */
	for (i = 0; i < 50; i++)
		cp_mem_vmstat_update(&m);
	assert_true(cp_mem_check(&m));
	assert_true(cp_mem_pcp_held_pages(&m) <= 64);
	cp_mem_release(&m);
}

int main(void)
{
#define PT(t) cmocka_unit_test_setup_teardown(t, pf_setup, pf_teardown)
	const struct CMUnitTest tests[] = {
		PT(pageset_high_min_is_low_split_and_high_max_an_eighth_of_managed),
		PT(nr_pcp_alloc_doubles_refill_and_grows_high_without_frees),
		PT(free_halves_alloc_factor),
		PT(zone_below_high_stops_growth_and_refill_capped_at_high_less_count),
		PT(reclaim_active_lowers_high_by_free_count_and_spills_at_4_batch),
		PT(zone_below_high_lowers_high_and_spills_at_high_min),
		PT(count_at_high_raises_high_to_free_count_plus_batch),
		PT(spill_size_is_free_count_halved_by_allocations),
		PT(free_high_after_consecutive_high_order_frees_above_6_16_threshold),
		PT(order_0_free_clears_prev_free_high_order),
		PT(decay_pcp_high_takes_an_eighth_per_tick_and_frees_the_excess),
		PT(decay_pcp_high_frees_count_above_high_in_batches),
		cmocka_unit_test(no_auto_tune_for_6_1_and_4_11),
		cmocka_unit_test(only_linux_6_x_profile_auto_tunes),
		cmocka_unit_test(zone_below_high_set_by_allocation_cleared_by_bulk_free),
	};
#undef PT

	return cmocka_run_group_tests(tests, NULL, NULL);
}
