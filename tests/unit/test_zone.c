/*
 * test_zone.c - per-zone watermarks, lowmem reserve and the zone split,
 * on the numbers /proc/zoneinfo shows on the measured 24 GiB machine
 * (6.18, x86-64): managed DMA 3840, DMA32 772915, Normal 5394266;
 * min_free_kbytes 67584, watermark_scale_factor 10.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "model/zone.h"

static const uint64_t measured[CP_NR_ZONE_TYPES] = { 3840, 772915, 5394266 };

/* __setup_per_zone_wmarks(): pages_min = 67584 / 4 = 16896, lowmem =
 * 3840 + 772915 + 5394266 = 6171021.
 * DMA32: min = 16896 * 772915 / 6171021 = 2116 (2116.2);
 *   tmp = max(2116 / 4 = 529, 772915 * 10 / 10000 = 772) = 772;
 *   low = 2888, high = 3660.
 * Normal: min = 16896 * 5394266 / 6171021 = 14769 (14769.3);
 *   tmp = max(3692, 5394) = 5394; low = 20163, high = 25557.
 * DMA: min = 16896 * 3840 / 6171021 = 10; tmp = max(2, 3) = 3: 10/13/16.
 * All as /proc/zoneinfo prints them. */
static void setup_per_zone_wmarks_splits_min_by_managed_share(void **state)
{
	struct cp_watermarks w[CP_NR_ZONE_TYPES];

	(void)state;
	cp_zone_watermarks_setup(measured, 67584, 10, w);
	assert_int_equal(w[CP_ZONE_DMA32].min, 2116);
	assert_int_equal(w[CP_ZONE_DMA32].low, 2888);
	assert_int_equal(w[CP_ZONE_DMA32].high, 3660);
	assert_int_equal(w[CP_ZONE_NORMAL].min, 14769);
	assert_int_equal(w[CP_ZONE_NORMAL].low, 20163);
	assert_int_equal(w[CP_ZONE_NORMAL].high, 25557);
	assert_int_equal(w[CP_ZONE_DMA].min, 10);
	assert_int_equal(w[CP_ZONE_DMA].high, 16);
}

/* A zone without managed pages gets no watermarks and no share: one
 * zone of 4194304 pages alone takes all of min (16896), tmp = max(4224,
 * 4194) = 4224, as cp_watermarks_compute() of the one-zone model. */
static void empty_zone_takes_no_share_of_min_free_kbytes(void **state)
{
	const uint64_t one[CP_NR_ZONE_TYPES] = { 0, 0, 4194304 };
	struct cp_watermarks w[CP_NR_ZONE_TYPES], single;

	(void)state;
	cp_zone_watermarks_setup(one, 67584, 10, w);
	single = cp_watermarks_compute(4194304, 67584, 10);
	assert_int_equal(w[CP_ZONE_DMA].high, 0);
	assert_int_equal(w[CP_ZONE_DMA32].high, 0);
	assert_int_equal(w[CP_ZONE_NORMAL].min, 16896);
	assert_int_equal(w[CP_ZONE_NORMAL].low, single.low);
	assert_int_equal(w[CP_ZONE_NORMAL].high, single.high);
}

/* setup_per_zone_lowmem_reserve(): DMA32's protection for Normal-index
 * allocations = 5394266 / 256 = 21071 (21071.35); DMA's = (772915 +
 * 5394266) / 256 = 24090 (> its 3840 managed pages); DMA's for
 * DMA32-index allocations = 772915 / 256 = 3019. */
static void lowmem_reserve_is_upper_managed_over_ratio(void **state)
{
	(void)state;
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA32, CP_ZONE_NORMAL,
						CP_LOWMEM_RESERVE_RATIO_DMA32),
			 21071);
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA, CP_ZONE_NORMAL,
						CP_LOWMEM_RESERVE_RATIO_DMA),
			 24090);
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA, CP_ZONE_DMA32,
						CP_LOWMEM_RESERVE_RATIO_DMA),
			 3019);
	/* a zone never protects itself; ratio 0 or an empty lower zone: none */
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_NORMAL, CP_ZONE_NORMAL, 32), 0);
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA32, CP_ZONE_NORMAL, 0), 0);
}

/* calculate_totalreserve_pages() per zone: high watermark + largest
 * lowmem_reserve, at most the managed pages. The measured machine:
 * DMA32 3660 + 21071 = 24731; Normal 25557 + 0; DMA's 24090 protection
 * is more than its 3840 managed pages: 3840. Their sum, 54128 pages
 * (211 MiB), is what the balloon's MemAvailable leaves free above SIZE;
 * /proc/pagetypeinfo showed 204 MiB after a 2 GiB balloon (2026-11-30,
 * seed-global-2G, the page cache left after drop_caches counting
 * toward MemAvailable). */
static void totalreserve_is_high_plus_lowmem_reserve_capped(void **state)
{
	(void)state;
	assert_int_equal(cp_zone_totalreserve(772915, 3660, 21071), 24731);
	assert_int_equal(cp_zone_totalreserve(5394266, 25557, 0), 25557);
	assert_int_equal(cp_zone_totalreserve(3840, 10, 24090), 3840);
}

/* The global regime: 16 GiB = 4194304 pages with DMA32 772915 pages:
 * DMA32 772915, Normal 3421389; 2 GiB = 524288 pages fits in DMA32:
 * one zone, no Normal; dma32 unknown (0): one zone as before. */
static void zone_split_gives_dma32_first_then_normal(void **state)
{
	uint64_t d, n;

	(void)state;
	cp_zone_split(4194304, 772915, &d, &n);
	assert_int_equal(d, 772915);
	assert_int_equal(n, 4194304 - 772915);
	cp_zone_split(524288, 772915, &d, &n);
	assert_int_equal(d, 524288);
	assert_int_equal(n, 0);
	cp_zone_split(524288, 0, &d, &n);
	assert_int_equal(d, 0);
	assert_int_equal(n, 524288);
}

/* ---- the zones of cp_mem ---------------------------------------------- */

#include <cachepressure/error.h>

#include "model/gfp.h"
#include "model/compaction.h"
#include "model/reclaim.h"
#include "model/vmstat.h"

struct zlog {
	int wakeups;
	unsigned last_zoneidx;
	int direct;
};

static void zfake_wake(void *priv, unsigned order, unsigned highest_zoneidx)
{
	(void)order;
	((struct zlog *)priv)->last_zoneidx = highest_zoneidx;
	((struct zlog *)priv)->wakeups++;
}

static uint64_t zfake_direct(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr)
{
	(void)ctx;
	(void)nr;
	((struct zlog *)priv)->direct++;
	return 0;
}

/*
 * Two zones of 2048 pages (4 pageblocks each): DMA32 pfns 0..2047,
 * Normal 2048..4095; no reserve, no pcp lists, no boosting.
 * min_free_kbytes 128 -> pages_min 32, split 2048/4096: min 16 each;
 * tmp = max(16 / 4 = 4, 2048 * 10 / 10000 = 2) = 4: low 20, high 24.
 * DMA32's lowmem_reserve for Normal-index allocations = 2048 / 256 = 8.
 */
static void setup_zones(struct cp_mem *m, struct zlog *log, struct cp_vmstat *vs, bool k411)
{
	struct cp_mem_params p = {
		.total_pages = 4096,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.max_reclaim_retries = 1,
		.buddy_4_11 = k411,
		.dma32_pages = 2048,
	};
	struct cp_mem_hooks hooks = { .wake_kswapd = zfake_wake, .direct_reclaim = zfake_direct,
				      .priv = log };

	assert_int_equal(cp_mem_init(m, &p, vs, NULL), 0);
	cp_mem_set_hooks(m, &hooks);
	assert_int_equal(m->nr_zones, 2);
	assert_int_equal(m->zones[0].type, CP_ZONE_DMA32);
	assert_int_equal(m->zones[1].type, CP_ZONE_NORMAL);
	assert_int_equal(m->zones[1].start_pfn, 2048);
	assert_int_equal(m->zones[0].wmark.min, 16);
	assert_int_equal(m->zones[0].wmark.low, 20);
	assert_int_equal(m->zones[1].wmark.high, 24);
	assert_int_equal(m->zones[0].lowmem_reserve, 8);
	assert_int_equal(m->zones[1].lowmem_reserve, 0);
	assert_true(cp_mem_check(m));
}

/* One order-0 MOVABLE page-cache page (a readahead page): the block
 * allocation the tests below make, its first pfn in *pfn. */
static int alloc_movable_page(struct cp_mem *m, struct cp_alloc_ctx *ctx, uint32_t *pfn)
{
	bool split;

	return cp_mem_alloc_block(m, CP_OWNER_PAGECACHE, 0, CP_MIGRATE_MOVABLE, ctx, pfn, &split);
}

/* get_page_from_freelist() walks Normal, then DMA32: the first order-0
 * page comes from Normal; when Normal fails its low watermark (free 20
 * < 20 + 1) the next comes from DMA32 (2048 >= 20 + 8 + 1) on the fast
 * path: kswapd is not woken. */
static void zonelist_takes_normal_first_then_dma32(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t pfn;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
	assert_true(pfn >= 2048);
	assert_int_equal(m.zones[1].free_pages, 2047);
	/* Normal down to 20 free: 2047 - 2027 */
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 2027, &ctx), 0);
	assert_int_equal(m.zones[1].free_pages, 20);
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
	assert_true(pfn < 2048);
	assert_int_equal(m.zones[0].free_pages, 2047);
	assert_int_equal(log.wakeups, 0);
	/* rmqueue() counts PGALLOC in the zone that gave the pages */
	assert_int_equal(vs.v[CP_VM_PGALLOC_NORMAL], 2028);
	assert_int_equal(vs.v[CP_VM_PGALLOC_DMA32], 1);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* __zone_watermark_ok() adds DMA32's lowmem_reserve (8) for a
 * Normal-index allocation: with Normal empty and DMA32 at 24 free, an
 * order-0 page at the min watermark needs 24 > 16 + 8 (it would fit at
 * 17 without the reserve): refused; at 25 free it fits. No direct
 * reclaim (gfp without __GFP_DIRECT_RECLAIM). */
static void dma32_lowmem_reserve_refuses_normal_index_allocation(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KSWAPD_RECLAIM };
	uint32_t pfn;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	/* Normal's 2048 pages, then 2048 - 24 of DMA32's */
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 2048 + 2024), 0);
	assert_int_equal(m.zones[1].free_pages, 0);
	assert_int_equal(m.zones[0].free_pages, 24);
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), -CP_ENOSPC);
	assert_int_equal(log.wakeups, 1);
	cp_mem_free(&m, CP_OWNER_PROCESS, 1, NULL); /* the last page placed: DMA32 */
	assert_int_equal(m.zones[0].free_pages, 25);
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
	assert_true(pfn < 2048);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* boost_watermark() raised Normal's boost: wmark_pages() of Normal is
 * low 20 + boost 1000, so with 1000 free an order-0 page fails there
 * and get_page_from_freelist() moves on to DMA32 (its own, unboosted
 * 20 + reserve 8): no slow path, no kswapd wake-up, no direct reclaim. */
static void boosted_normal_sends_order0_to_dma32_without_reclaim(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t pfn;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 1048), 0);
	m.zones[1].buddy.watermark_boost = 1000;
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
	assert_true(pfn < 2048);
	assert_int_equal(m.zones[1].free_pages, 1000);
	assert_int_equal(log.wakeups, 0);
	assert_int_equal(log.direct, 0);
	assert_int_equal(vs.v[CP_VM_ALLOCSTALL], 0);
	cp_mem_release(&m);
}

/*
 * Normal's free memory only in UNMOVABLE pageblocks, below
 * pageblock_order: cp_mem_take() fills Normal with UNMOVABLE fs buffers
 * (two order-10 blocks), cp_mem_free() gives back the last 500 pages of
 * the second, as blocks of order 2..8. A MOVABLE order-0 page:
 * 6.1 (ALLOC_NOFRAGMENT, Normal preferred with DMA32 below): the first
 * pass refuses the fallback below pageblock_order in Normal and takes
 * DMA32's own MOVABLE page, no extfrag event; 4.11 (no
 * ALLOC_NOFRAGMENT): __rmqueue_fallback in Normal, one extfrag event.
 */
static void nofragment_uses_dma32_before_fragmenting_normal(void **state)
{
	bool k411;

	(void)state;
	for (k411 = false;; k411 = true) {
		struct cp_mem m;
		struct zlog log = { 0 };
		struct cp_vmstat vs = { { 0 } };
		struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
		uint32_t pfn;
	
		setup_zones(&m, &log, &vs, k411);
		assert_int_equal(cp_mem_take(&m, CP_OWNER_FSBUF, 2048), 0);
		cp_mem_free(&m, CP_OWNER_FSBUF, 500, NULL);
		assert_int_equal(m.zones[1].free_pages, 500);
		assert_false(cp_buddy_has_free_block(&m.zones[1].buddy, CP_BUDDY_PAGEBLOCK_ORDER));
		vs.v[CP_VM_EXTFRAG] = 0;
		assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
		if (!k411) {
			assert_true(pfn < 2048);
			assert_int_equal(vs.v[CP_VM_EXTFRAG], 0);
		} else {
			assert_true(pfn >= 2048);
			assert_int_equal(vs.v[CP_VM_EXTFRAG], 1);
		}
		assert_true(cp_mem_check(&m));
		cp_mem_release(&m);
		if (k411)
			break;
	}
}

/*
 * A page fault's page (cp_mem_alloc of one page: do_anonymous_page ->
 * vma_alloc_folio(GFP_HIGHUSER_MOVABLE)) takes the same zonelist walk:
 * with Normal's 500 free pages all in UNMOVABLE pageblocks below
 * pageblock_order, the ALLOC_NOFRAGMENT pass passes over Normal and
 * takes one of DMA32's MOVABLE pages - Normal keeps its 500, no
 * extfrag event. (Counting the page in Normal first and placing it
 * there would fall back to an UNMOVABLE block.)
 */
static void page_fault_uses_dma32_before_fragmenting_normal(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_HIGHUSER_MOVABLE };
	uint64_t dma32_free;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_FSBUF, 2048), 0);
	cp_mem_free(&m, CP_OWNER_FSBUF, 500, NULL);
	assert_int_equal(m.zones[1].free_pages, 500);
	dma32_free = m.zones[0].free_pages;
	vs.v[CP_VM_EXTFRAG] = 0;
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PROCESS, 1, &ctx), 0);
	assert_int_equal(m.zones[1].free_pages, 500);
	assert_int_equal(m.zones[0].free_pages, dma32_free - 1);
	assert_int_equal(vs.v[CP_VM_EXTFRAG], 0);
	cp_mem_free(&m, CP_OWNER_PROCESS, 1, NULL);
	assert_int_equal(m.zones[0].free_pages, dma32_free);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/*
 * The slow path does not avoid fragmenting: gfp_to_alloc_flags() builds
 * its flags without alloc_flags_nofragment(). Normal holds 18 free pages,
 * all in UNMOVABLE pageblocks (fs buffers given back), DMA32 26 MOVABLE
 * ones. A MOVABLE order-0 page fails the fast path in both zones (Normal
 * 18 < 20 + 1, DMA32 26 < 20 + 8 + 1), wakes kswapd, and at min Normal
 * passes first (18 >= 16 + 1): it falls back to an UNMOVABLE page there
 * (one extfrag event) instead of taking DMA32's MOVABLE page as the fast
 * path's ALLOC_NOFRAGMENT pass would.
 */
static void slow_path_falls_back_in_normal_without_nofragment(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t pfn;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_FSBUF, 2048), 0);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 2048 - 26), 0);
	cp_mem_free(&m, CP_OWNER_FSBUF, 18, NULL);
	assert_int_equal(m.zones[1].free_pages, 18);
	assert_int_equal(m.zones[0].free_pages, 26);
	vs.v[CP_VM_EXTFRAG] = 0;
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
	assert_true(pfn >= 2048);
	assert_int_equal(vs.v[CP_VM_EXTFRAG], 1);
	assert_int_equal(log.wakeups, 1);
	assert_int_equal(log.direct, 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* rmqueue(): a boost flagged in a zone wakes kswapd for that zone,
 * wakeup_kswapd(zone, 0, 0, zone_idx(zone)): with Normal full the page
 * comes from DMA32, whose flag was set, so kswapd is asked for DMA32
 * (index 0). The slow path's wake_all_kswapds() asks for the
 * allocation's highest zone, Normal (index 1): DMA32 at 24 free fails
 * low (24 < 20 + 8 + 1) and min (24 < 16 + 8 + 1). */
static void boost_wakes_kswapd_for_its_zone_slow_path_for_normal(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KSWAPD_RECLAIM };
	uint32_t pfn;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 2048), 0);
	m.zones[0].buddy.boosted = true;
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), 0);
	assert_true(pfn < 2048);
	assert_int_equal(log.wakeups, 1);
	assert_int_equal(log.last_zoneidx, 0);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 2047 - 24), 0);
	assert_int_equal(m.zones[0].free_pages, 24);
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn), -CP_ENOSPC);
	assert_int_equal(log.wakeups, 2);
	assert_int_equal(log.last_zoneidx, 1);
	cp_mem_release(&m);
}

/* pgdat_balanced() (6.1) and balance_pgdat()'s zone loop (4.8+, so
 * 4.11): any zone balanced at high (+ boost) for highest_zoneidx Normal
 * balances the node. Normal at 0 free (< high 24) and DMA32 at 33 >
 * 24 + reserve 8: balanced; DMA32 at 32: not (its reserve counts). */
static void pgdat_balanced_when_only_dma32_is_at_high(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_reclaim r;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	cp_reclaim_init(&r, &m, NULL, NULL, NULL, NULL);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 2048 + 2015), 0);
	assert_int_equal(m.zones[1].free_pages, 0);
	assert_int_equal(m.zones[0].free_pages, 33);
	assert_true(cp_pgdat_balanced(&r, 0, 1));
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 1), 0);
	assert_false(cp_pgdat_balanced(&r, 0, 1));
	/* a boost on Normal alone: pgdat_watermark_boosted() */
	assert_false(cp_pgdat_watermark_boosted(&r, 1));
	m.zones[1].buddy.watermark_boost = 5;
	assert_true(cp_pgdat_watermark_boosted(&r, 1));
	cp_mem_release(&m);
}

/* __free_pages() gives a page back to the zone its pfn is in. */
static void free_returns_page_to_its_zone(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t pfn_normal, pfn_dma32;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn_normal), 0);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 2047), 0); /* Normal full */
	assert_int_equal(alloc_movable_page(&m, &ctx, &pfn_dma32), 0);
	assert_true(pfn_normal >= 2048 && pfn_dma32 < 2048);
	assert_int_equal(cp_mem_pfn_zone(&m, pfn_normal), 1);
	assert_int_equal(cp_mem_pfn_zone(&m, pfn_dma32), 0);
	cp_mem_free_block(&m, CP_OWNER_PAGECACHE, pfn_dma32, 0, NULL);
	assert_int_equal(m.zones[0].free_pages, 2048);
	assert_int_equal(m.zones[1].free_pages, 0);
	cp_mem_free_block(&m, CP_OWNER_PAGECACHE, pfn_normal, 0, NULL);
	assert_int_equal(m.zones[1].free_pages, 1);
	assert_int_equal(cp_mem_free_block_order(&m, pfn_normal), 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* A lower zone ends on a whole MAX_ORDER block (ZONE_DMA32 ends at
 * 4 GiB): DMA32 of 2050 pages (as a measured 772 798 is no multiple of
 * 1024) spans 3072, its 1022 extra pages held from boot like the
 * reserve, so Normal starts at pfn 3072 and a block the Normal buddy
 * aligns (zone-relative pfns) is aligned in the page cache's absolute
 * pfns too; the managed pages, and so the watermarks, stay as given. */
static void lower_zone_span_ends_on_a_max_order_block(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	struct cp_mem_params p = {
		.total_pages = 4098,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.max_reclaim_retries = 1,
		.dma32_pages = 2050,
	};
	uint32_t pfn;
	bool split;

	(void)state;
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	assert_int_equal(m.nr_zones, 2);
	assert_int_equal(m.zones[1].start_pfn, 3072);
	assert_int_equal(m.zones[0].buddy.nr_pages, 3072);
	assert_int_equal(m.zones[0].free_pages, 2050);
	assert_int_equal(m.zones[0].managed_pages, 2050);
	assert_int_equal(m.nr_owner[CP_OWNER_RESERVE], 1022);
	assert_int_equal(m.total_pages, 4098 + 1022);
	assert_int_equal(cp_mem_alloc_block(&m, CP_OWNER_PAGECACHE, 4, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn, &split), 0);
	assert_true(pfn >= 3072);
	assert_int_equal(pfn % 16, 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* cp_mem_check() looks at each zone: a page counted free in the wrong
 * zone (node sum unchanged) is caught. */
static void mem_check_catches_zone_count_mismatch(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };

	(void)state;
	setup_zones(&m, &log, &vs, false);
	m.zones[0].free_pages++;
	m.zones[1].free_pages--;
	assert_false(cp_mem_check(&m));
	m.zones[0].free_pages--;
	m.zones[1].free_pages++;
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* compaction_deferred() / defer_compaction() keep their state in struct
 * zone: a failure deferring Normal leaves DMA32's compaction alone
 * (kcompactd_do_work() still tries it). */
static void compaction_deferral_is_per_zone(void **state)
{
	struct cp_mem m;
	struct zlog log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_compaction c;

	(void)state;
	setup_zones(&m, &log, &vs, false);
	cp_compaction_init(&c, &m, NULL, NULL);
	cp_defer_compaction(&c, 1, 4);
	/* shift 1: the next attempt at order >= 4 on Normal is skipped */
	assert_true(cp_compaction_deferred(&c, 1, 4));
	assert_false(cp_compaction_deferred(&c, 0, 4));
	assert_int_equal(c.zone[0].compact_defer_shift, 0);
	assert_int_equal(c.zone[1].cached_free_pfn, 2048 - 512); /* zone-local */
	assert_true(cp_compaction_check(&c));
	cp_mem_release(&m);
}

/* The measured layout both start-layout tests use: the real machine's
 * managed pages; DMA32 one free order-10 block and three order-0
 * fragments, MOVABLE; Normal five order-3 UNMOVABLE fragments. */
static void small_start_layout(struct cp_mem_start_free *sf)
{
	memset(sf, 0, sizeof(*sf));
	sf->has_zones = true;
	sf->zone_managed_pages[CP_ZONE_DMA] = 3840;
	sf->zone_managed_pages[CP_ZONE_DMA32] = 772915;
	sf->zone_managed_pages[CP_ZONE_NORMAL] = 5394266;
	sf->zone_blocks[CP_ZONE_DMA32][CP_MIGRATE_MOVABLE][10] = 1;
	sf->zone_blocks[CP_ZONE_DMA32][CP_MIGRATE_MOVABLE][0] = 3;
	sf->zone_blocks[CP_ZONE_NORMAL][CP_MIGRATE_UNMOVABLE][3] = 5;
	sf->blocks[CP_MIGRATE_UNMOVABLE][3] = 5;
}

/*
 * A per-zone start layout (--start-free with per-zone counters): each
 * zone's watermarks from the REAL machine's managed pages (zone.c
 * arithmetic: min_free_kbytes 67584, managed 3840 / 772915 / 5394266
 * -> DMA32 high 3660, Normal high 25557, reserve 21071), not from the
 * model's smaller zones; DMA32 holds its measured free pages: one free
 * order-10 block (1024 pages) and 3 order-0 MOVABLE pages -> 1027 free;
 * Normal only fragments below pageblock_order (5 order-3 UNMOVABLE),
 * the rest of the memory Normal's big blocks. size_is_available:
 * calculate_totalreserve_pages() of both zones - DMA32's high 3660 and
 * its lowmem_reserve 21071, Normal's high 25557 - on top of the 262144
 * pages, in Normal: DMA32 keeps exactly its measured 1027 free pages.
 */
static void per_zone_start_layout_uses_real_managed_pages(void **state)
{
	static struct cp_mem_start_free sf;
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem_params p = {
		.total_pages = 262144, /* 1 GiB */
		.min_free_kbytes = 67584,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 262144,
		.start_free = &sf,
		.size_is_available = true,
	};

	(void)state;
	small_start_layout(&sf);
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	assert_int_equal(m.nr_zones, 2);
	assert_int_equal(m.zones[0].wmark.high, 3660);
	assert_int_equal(m.zones[1].wmark.high, 25557);
	assert_int_equal(m.zones[0].lowmem_reserve, 21071);
	assert_int_equal(m.zones[0].managed_pages, 772915);
	/* DMA32: 1027 measured free pages, all free (no reserve there); the
	 * 3 order-0 pages laid out as fragments in their own pageblock */
	assert_int_equal(m.zones[0].free_pages, 1027);
	assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[0].buddy, 0, CP_MIGRATE_MOVABLE), 3);
	assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[1].buddy, 3, CP_MIGRATE_UNMOVABLE), 5);
	assert_int_equal(m.free_pages, 262144 + 3660 + 21071 + 25557);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/*
 * A start the harness recorded whole (zone_free_measured): the model's
 * zones hold exactly the free memory the real run had after its balloon,
 * whatever SIZE says (the balloon can lock more than it meant to).
 * DMA32 its 1027 measured pages; Normal its 5 order-3 fragments (40
 * pages) and 100 order-10 blocks (102400 pages) plus the per-CPU lists'
 * 300 (Normal) + 20 (DMA32) pages: 102760 - not 262144 + 50288 less
 * DMA32's 1027, as SIZE plus totalreserve would give. The watermarks
 * still come from the real managed pages.
 */
static void measured_start_sizes_the_zones_as_measured(void **state)
{
	static struct cp_mem_start_free sf;
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem_params p = {
		.total_pages = 262144, /* 1 GiB: not what sizes the zones */
		.min_free_kbytes = 67584,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 262144,
		.start_free = &sf,
		.size_is_available = true,
	};

	(void)state;
	small_start_layout(&sf);
	sf.zone_blocks[CP_ZONE_NORMAL][CP_MIGRATE_MOVABLE][10] = 100;
	sf.zone_free_measured = true;
	sf.zone_pcp_pages[CP_ZONE_NORMAL] = 300;
	sf.zone_pcp_pages[CP_ZONE_DMA32] = 20;
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	assert_int_equal(m.zones[0].wmark.high, 3660);
	assert_int_equal(m.zones[1].wmark.high, 25557);
	assert_int_equal(m.zones[0].free_pages, 1027);
	assert_int_equal(m.zones[1].free_pages, 40 + 102400 + 300 + 20);
	assert_int_equal(cp_buddy_nr_free_blocks(&m.zones[1].buddy, 3, CP_MIGRATE_UNMOVABLE), 5);
	assert_int_equal(m.free_pages, 1027 + 102760);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* The start layout's fillers: DMA32's 3 order-0 MOVABLE fragments sit in
 * one MOVABLE pageblock, each beside an allocated partner, the rest of
 * the block allocated too: 512 - 3 = 509 allocated pages there, all
 * movable fillers (the real machine's balloon pages, which compaction
 * migrates). Normal's UNMOVABLE pageblock of five order-3 fragments
 * keeps its allocated pages immovable: no filler in Normal. */
static void start_layout_marks_movable_pageblock_pages_as_fillers(void **state)
{
	static struct cp_mem_start_free sf;
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem_params p = {
		.total_pages = 262144,
		.min_free_kbytes = 67584,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 262144,
		.start_free = &sf,
	};
	uint32_t pfn, in_dma32 = 0, in_normal = 0;

	(void)state;
	small_start_layout(&sf);
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	for (pfn = 0; pfn < m.total_pages; pfn++) {
		if (!cp_mem_movable_filler(&m, pfn))
			continue;
		if (pfn < m.zones[1].start_pfn)
			in_dma32++;
		else
			in_normal++;
	}
	assert_int_equal(in_dma32, 509);
	assert_int_equal(in_normal, 0);
	cp_mem_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(setup_per_zone_wmarks_splits_min_by_managed_share),
		cmocka_unit_test(empty_zone_takes_no_share_of_min_free_kbytes),
		cmocka_unit_test(lowmem_reserve_is_upper_managed_over_ratio),
		cmocka_unit_test(totalreserve_is_high_plus_lowmem_reserve_capped),
		cmocka_unit_test(zone_split_gives_dma32_first_then_normal),
		cmocka_unit_test(zonelist_takes_normal_first_then_dma32),
		cmocka_unit_test(dma32_lowmem_reserve_refuses_normal_index_allocation),
		cmocka_unit_test(boosted_normal_sends_order0_to_dma32_without_reclaim),
		cmocka_unit_test(nofragment_uses_dma32_before_fragmenting_normal),
		cmocka_unit_test(page_fault_uses_dma32_before_fragmenting_normal),
		cmocka_unit_test(slow_path_falls_back_in_normal_without_nofragment),
		cmocka_unit_test(boost_wakes_kswapd_for_its_zone_slow_path_for_normal),
		cmocka_unit_test(pgdat_balanced_when_only_dma32_is_at_high),
		cmocka_unit_test(free_returns_page_to_its_zone),
		cmocka_unit_test(lower_zone_span_ends_on_a_max_order_block),
		cmocka_unit_test(mem_check_catches_zone_count_mismatch),
		cmocka_unit_test(compaction_deferral_is_per_zone),
		cmocka_unit_test(per_zone_start_layout_uses_real_managed_pages),
		cmocka_unit_test(measured_start_sizes_the_zones_as_measured),
		cmocka_unit_test(start_layout_marks_movable_pageblock_pages_as_fillers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
