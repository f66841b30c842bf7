/*
 * test_memory.c - watermarks, allocation slow path, memcg charging.
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
#include "model/memory.h"

/* mm/page_alloc.c init_per_zone_wmark_min: int_sqrt(16 GiB in KiB * 16)
 * = int_sqrt(16777216 * 16) = int_sqrt(268435456) = 16384 KiB. */
static void min_free_kbytes_default_is_sqrt_of_16x_lowmem(void **state)
{
	(void)state;
	assert_int_equal(cp_min_free_kbytes_default(16777216, 65536), 16384);
	/* clamps: tiny memory -> 128, huge memory -> profile maximum */
	assert_int_equal(cp_min_free_kbytes_default(100, 65536), 128);
	assert_int_equal(cp_min_free_kbytes_default(1ULL << 40, 65536), 65536);
	assert_int_equal(cp_min_free_kbytes_default(1ULL << 40, 262144), 262144);
}

/* khugepaged set_recommended_min_free_kbytes: 512 pages x 3 zones x 11
 * = 16896 pages = 67584 KiB (the 6.18 VM shows exactly 67584). */
static void thp_min_free_kbytes_is_pageblocks_times_zones(void **state)
{
	(void)state;
	assert_int_equal(cp_min_free_kbytes_thp(16777216, 3), 67584);
	/* capped at 5 % of lowmem: 256 MiB lowmem = 65536 pages -> 3276 pages */
	assert_int_equal(cp_min_free_kbytes_thp(262144, 3), 3276 * 4);
}

/* __setup_per_zone_wmarks: 4M managed pages, min_free_kbytes 67584:
 * min = 16896; tmp = max(16896/4 = 4224, 4194304*10/10000 = 4194) = 4224;
 * low = 21120, high = 25344. */
static void watermarks_follow_setup_per_zone_wmarks(void **state)
{
	struct cp_watermarks w = cp_watermarks_compute(4194304, 67584, 10);

	(void)state;
	assert_int_equal(w.min, 16896);
	assert_int_equal(w.low, 21120);
	assert_int_equal(w.high, 25344);
	/* scale factor dominates: wsf 100 -> tmp = 41943 */
	w = cp_watermarks_compute(4194304, 67584, 100);
	assert_int_equal(w.low, 16896 + 41943);
	assert_int_equal(w.high, 16896 + 2 * 41943);
}

struct hook_log {
	int kswapd_wakeups;
	unsigned last_wake_order;
	int direct_calls;
	int compact_calls;
	int compact_mode;      /* fake_compact() */
	uint32_t compact_base; /* where mode 2 made its block */
	int memcg_calls;
	uint64_t free_per_call; /* pages the fake reclaim returns to free */
	struct cp_mem *m;
	struct cp_memcg *memcg;
};

/* __alloc_pages_direct_compact()'s hook: compact_mode 0 is skipped or
 * deferred (returns false); 1 ran and freed nothing; 2 ran and freed
 * the held (odd) pages of the first 16-page range of fragment_zone()'s
 * zone whose even pages are free, making a free order-4 block there. */
static bool fake_compact(void *priv, struct cp_alloc_ctx *ctx, unsigned order)
{
	struct hook_log *log = priv;
	const struct cp_buddy *b = &log->m->zones[0].buddy;
	uint32_t base, i;

	(void)ctx;
	(void)order;
	log->compact_calls++;
	if (log->compact_mode == 0)
		return false;
	if (log->compact_mode == 2) {
		for (base = 0; base + 16 <= b->nr_pages; base += 16) {
			for (i = 0; i < 16; i++)
				if ((cp_buddy_free_block_order(b, base + i) >= 0) != (i % 2 == 0))
					break;
			if (i == 16)
				break;
		}
		assert_true(base + 16 <= b->nr_pages);
		for (i = 1; i < 16; i += 2)
			cp_mem_free_block(log->m, CP_OWNER_PAGECACHE, base + i, 0, NULL);
		log->compact_base = base;
	}
	return true;
}

static void fake_wake(void *priv, unsigned order, unsigned highest_zoneidx)
{
	struct hook_log *log = priv;

	(void)highest_zoneidx;
	log->kswapd_wakeups++;
	log->last_wake_order = order;
}

static uint64_t fake_direct(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr)
{
	struct hook_log *log = priv;
	uint64_t n = log->free_per_call;

	(void)ctx;
	(void)nr;
	log->direct_calls++;
	if (n > log->m->nr_owner[CP_OWNER_PAGECACHE])
		n = log->m->nr_owner[CP_OWNER_PAGECACHE];
	cp_mem_free(log->m, CP_OWNER_PAGECACHE, n, NULL);
	return n;
}

static uint64_t fake_memcg(void *priv, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
			   uint64_t nr)
{
	struct hook_log *log = priv;
	uint64_t n = log->free_per_call;

	(void)ctx;
	(void)nr;
	log->memcg_calls++;
	if (n > memcg->nr_owner[CP_OWNER_PAGECACHE])
		n = memcg->nr_owner[CP_OWNER_PAGECACHE];
	cp_mem_free(log->m, CP_OWNER_PAGECACHE, n, memcg);
	return n;
}

/* 10000 pages, 1000 reserved, min_free_kbytes 400 (100 pages); nr_cpus
 * per-CPU lists (0: none). */
static struct cp_mem_params test_params(unsigned nr_cpus)
{
	struct cp_mem_params p = {
		.total_pages = 10000,
		.reserve_pages = 1000,
		.min_free_kbytes = 400,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.max_reclaim_retries = 16,
		.nr_cpus = nr_cpus,
	};

	return p;
}

static void setup_mem(struct cp_mem *m, struct hook_log *log, struct cp_vmstat *vs)
{
	struct cp_mem_params p = test_params(0);
	struct cp_mem_hooks hooks = { .wake_kswapd = fake_wake, .direct_reclaim = fake_direct,
				      .memcg_reclaim = fake_memcg, .priv = log };

	assert_int_equal(cp_mem_init(m, &p, vs, NULL), 0);
	log->m = m;
	cp_mem_set_hooks(m, &hooks);
	/* min 100, tmp = max(25, 9000*10/10000 = 9) = 25: low 125, high 150 */
	assert_int_equal(m->wmark.min, 100);
	assert_int_equal(m->wmark.low, 125);
	assert_int_equal(m->wmark.high, 150);
}

/* get_page_from_freelist(ALLOC_WMARK_LOW): above low nothing is woken. */
static void alloc_above_low_wakes_nobody(void **state)
{
	struct cp_mem m;
	struct hook_log log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };

	(void)state;
	setup_mem(&m, &log, &vs);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 8000, &ctx), 0);
	assert_int_equal(m.free_pages, 1000);
	assert_int_equal(log.kswapd_wakeups, 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* __alloc_pages_slowpath: below low, wake kswapd; still above min: no
 * direct reclaim. */
static void alloc_below_low_wakes_kswapd_only(void **state)
{
	struct cp_mem m;
	struct hook_log log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };

	(void)state;
	setup_mem(&m, &log, &vs);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 8880, &ctx), 0); /* free 120 */
	assert_int_equal(log.kswapd_wakeups, 1);
	assert_int_equal(log.direct_calls, 0);
	assert_int_equal(vs.v[CP_VM_ALLOCSTALL], 0);
	cp_mem_release(&m);
}

/* Below min the task reclaims in place (allocstall) and then succeeds. */
static void alloc_below_min_reclaims_directly(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 32 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS };

	(void)state;
	setup_mem(&m, &log, &vs);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 8900, &ctx), 0); /* free 100 */
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 1, &ctx), 0);
	/* 100 free: min check needs 101; one reclaim of 32 -> 132 >= 101 */
	assert_int_equal(log.direct_calls, 1);
	assert_int_equal(vs.v[CP_VM_ALLOCSTALL], 1);
	assert_int_equal(m.free_pages, 131);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* No progress for max_reclaim_retries rounds: the allocation fails (the
 * kernel would OOM) and nothing is taken. */
static void alloc_fails_when_reclaim_makes_no_progress(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };

	(void)state;
	setup_mem(&m, &log, &vs);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 8900), 0);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 1, &ctx), -CP_ENOSPC);
	assert_int_equal(log.direct_calls, 16);
	assert_int_equal(vs.v[CP_VM_OOM], 1);
	assert_int_equal(m.free_pages, 100);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* An atomic allocation (no __GFP_DIRECT_RECLAIM) never reclaims. */
static void atomic_alloc_does_not_reclaim(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 32 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KSWAPD_RECLAIM };

	(void)state;
	setup_mem(&m, &log, &vs);
	assert_int_equal(cp_mem_take(&m, CP_OWNER_PROCESS, 8900), 0);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 1, &ctx), -CP_ENOSPC);
	assert_int_equal(log.direct_calls, 0);
	assert_int_equal(log.kswapd_wakeups, 1);
	cp_mem_release(&m);
}

/* try_charge: over the limit the memcg reclaims, then the charge fits. */
static void memcg_charge_over_limit_reclaims_memcg(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 64 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_memcg cg;
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL, .memcg = &cg };

	(void)state;
	setup_mem(&m, &log, &vs);
	cp_memcg_init(&cg, 1, 1000);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 1000, &ctx), 0);
	assert_int_equal(cg.usage_pages, 1000);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 10, &ctx), 0);
	assert_int_equal(log.memcg_calls, 1);
	assert_int_equal(cg.usage_pages, 1000 - 64 + 10);
	assert_true(cp_memcg_check(&cg));
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* Retries exhausted (4.11: MEM_CGROUP_RECLAIM_RETRIES = 5): the first
 * attempt plus 5 retries = 6 reclaim calls, then the charge fails. */
static void memcg_charge_fails_after_retries(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_memcg cg;
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL, .memcg = &cg };

	(void)state;
	setup_mem(&m, &log, &vs);
	cp_memcg_init(&cg, 1, 100);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 100, &ctx), 0);
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 1, &ctx), -CP_ENOSPC);
	assert_int_equal(log.memcg_calls, 6);
	assert_int_equal(cg.failcnt, 1);
	assert_int_equal(cg.usage_pages, 100);
	cp_mem_release(&m);
}

/* memcg_stock (MEMCG_CHARGE_BATCH 64, try_charge_memcg): a 1-page charge
 * on CPU 0 with room takes a whole batch from the counter and leaves 63
 * on CPU 0's stock; the next 1-page charge there takes one of those (the
 * counter does not move); one on CPU 1 takes a batch of its own (usage
 * 128, stocks 62 and 63). A 65-page charge is more than a batch: exactly
 * 65 from the counter (193), the stocks untouched. */
static void memcg_charges_go_through_the_per_cpu_stock(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_memcg cg;
	struct cp_alloc_ctx c0 = { .gfp = CP_GFP_KERNEL, .memcg = &cg, .cpu = 0 };
	struct cp_alloc_ctx c1 = { .gfp = CP_GFP_KERNEL, .memcg = &cg, .cpu = 1 };

	(void)state;
	setup_mem(&m, &log, &vs);
	cp_memcg_init(&cg, 1, 1000);
	cp_memcg_set_charge_batch(&cg, 64);
	assert_int_equal(cp_memcg_try_charge(&m, &cg, CP_OWNER_PAGECACHE, 1, &c0), 0);
	assert_int_equal(cg.usage_pages, 64);
	assert_int_equal(cg.stock[0], 63);
	assert_int_equal(cp_memcg_try_charge(&m, &cg, CP_OWNER_PAGECACHE, 1, &c0), 0);
	assert_int_equal(cg.usage_pages, 64);
	assert_int_equal(cg.stock[0], 62);
	assert_int_equal(cp_memcg_try_charge(&m, &cg, CP_OWNER_PAGECACHE, 1, &c1), 0);
	assert_int_equal(cg.usage_pages, 128);
	assert_int_equal(cg.stock[1], 63);
	assert_int_equal(cp_memcg_try_charge(&m, &cg, CP_OWNER_PAGECACHE, 65, &c0), 0);
	assert_int_equal(cg.usage_pages, 193);
	assert_int_equal(cg.stock[0], 62);
	assert_int_equal(cg.nr_owner[CP_OWNER_PAGECACHE], 68);
	assert_int_equal(log.memcg_calls, 0);
	assert_true(cp_memcg_check(&cg));
	cp_mem_release(&m);
}

/* Over the limit with another CPU's stock holding the room
 * (try_charge_memcg's drain_all_stock): limit 100; a 1-page charge on
 * CPU 1 leaves usage 64, 63 of it in CPU 1's stock. A 50-page charge on
 * CPU 0 fits neither a batch (128) nor exactly (114): one reclaim round
 * (which frees nothing here), still short, so every stock goes back
 * (usage 1) and the round starts again: a batch of 64 fits now (usage
 * 65), 14 of it on CPU 0's stock. One reclaim call. */
static void memcg_charge_drains_the_stocks_before_retrying(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .free_per_call = 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_memcg cg;
	struct cp_alloc_ctx c0 = { .gfp = CP_GFP_KERNEL, .memcg = &cg, .cpu = 0 };
	struct cp_alloc_ctx c1 = { .gfp = CP_GFP_KERNEL, .memcg = &cg, .cpu = 1 };

	(void)state;
	setup_mem(&m, &log, &vs);
	cp_memcg_init(&cg, 1, 100);
	cp_memcg_set_charge_batch(&cg, 64);
	assert_int_equal(cp_memcg_try_charge(&m, &cg, CP_OWNER_PAGECACHE, 1, &c1), 0);
	assert_int_equal(cg.stock[1], 63);
	assert_int_equal(cp_memcg_try_charge(&m, &cg, CP_OWNER_PAGECACHE, 50, &c0), 0);
	assert_int_equal(log.memcg_calls, 1);
	assert_int_equal(cg.usage_pages, 65);
	assert_int_equal(cg.stock[0], 14);
	assert_int_equal(cg.stock[1], 0);
	assert_int_equal(cg.nr_owner[CP_OWNER_PAGECACHE], 51);
	assert_true(cp_memcg_check(&cg));
	cp_mem_release(&m);
}

static void init_rejects_reserve_larger_than_memory(void **state)
{
	struct cp_mem m;
	struct cp_diag d;
	struct cp_mem_params p = { .total_pages = 10, .reserve_pages = 10,
				   .min_free_kbytes_max = 65536, .watermark_scale_factor = 10 };

	(void)state;
	assert_int_equal(cp_mem_init(&m, &p, NULL, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "reserve"));
}

/* Fill the zone with order-0 page-cache pages (and a process), then give back every
 * even pfn: half the zone is free, but no two free pages are buddies, so
 * no free block is larger than order 0. */
static void fragment_zone(struct cp_mem *m)
{
	struct cp_alloc_ctx nowait = { .gfp = 0 };
	uint64_t nr = 0, cap = m->free_pages, i;
	uint32_t *pfns = calloc(cap, sizeof(*pfns));
	bool split;

	assert_non_null(pfns);
	/* no reclaim allowed: fills down to the min watermark */
	while (nr < cap && cp_mem_alloc_block(m, CP_OWNER_PAGECACHE, 0, CP_MIGRATE_MOVABLE,
					       &nowait, &pfns[nr], &split) == 0)
		nr++;
	/* the rest, below min, goes to a process */
	assert_int_equal(cp_mem_take(m, CP_OWNER_PROCESS, m->free_pages), 0);
	for (i = 0; i < nr; i++)
		if (pfns[i] % 2 == 0)
			cp_mem_free_block(m, CP_OWNER_PAGECACHE, pfns[i], 0, NULL);
	free(pfns);
	assert_false(cp_buddy_has_free_block(&m->zones[0].buddy, 1));
	assert_true(cp_mem_check(m));
}

/* filemap_alloc_folio() on an unfragmented zone: the fast path gives
 * one aligned block, split into pages that are freed one by one and
 * merge back (__free_one_page). No kswapd. */
static void folio_fast_path_gives_an_aligned_block(void **state)
{
	struct cp_mem m;
	struct hook_log log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint64_t free_before, nr_free_before[CP_BUDDY_MAX_ORDER];
	uint32_t pfn, i;

	(void)state;
	setup_mem(&m, &log, &vs);
	free_before = m.free_pages;
	memcpy(nr_free_before, m.zones[0].buddy.nr_free, sizeof(nr_free_before));
	assert_int_equal(cp_mem_alloc_folio(&m, CP_OWNER_PAGECACHE, 4, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn), 0);
	assert_int_equal(pfn % 16, 0);
	assert_int_equal(m.free_pages, free_before - 16);
	assert_int_equal(m.nr_owner[CP_OWNER_PAGECACHE], 16);
	assert_int_equal(log.kswapd_wakeups, 0);
	for (i = 0; i < 16; i++)
		cp_mem_free_block(&m, CP_OWNER_PAGECACHE, pfn + i, 0, NULL);
	/* merged back: the free blocks are those of before, order by order */
	assert_memory_equal(m.zones[0].buddy.nr_free, nr_free_before, sizeof(nr_free_before));
	assert_int_equal(m.free_pages, free_before);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* setup_mem() with one CPU's per-CPU lists (6.1 rules, no auto-tuning),
 * then a page-cache folio of order: its first pfn in *pfn. Returns the
 * free pages before the folio. */
static uint64_t setup_with_folio(struct cp_mem *m, struct cp_vmstat *vs, unsigned order,
				 uint32_t *pfn)
{
	struct cp_mem_params p = test_params(1);
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint64_t free_before;

	assert_int_equal(cp_mem_init(m, &p, vs, NULL), 0);
	cp_mem_set_cpu(m, 0);
	free_before = m->free_pages;
	assert_int_equal(cp_mem_alloc_folio(m, CP_OWNER_PAGECACHE, order, CP_MIGRATE_MOVABLE, &ctx,
					    pfn), 0);
	assert_int_equal(m->free_pages, free_before - (1u << order));
	return free_before;
}

/* free_unref_folios() (6.x): a folio above PAGE_ALLOC_COSTLY_ORDER is not
 * a pcp order (pcp_allowed_order), so free_one_page() gives its block to
 * the buddy at once: the free count and the free blocks are those of
 * before the allocation, nothing waits on a per-CPU list. */
static void large_folio_is_freed_whole_to_the_buddy(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	uint64_t free_before, nr_free_before[CP_BUDDY_MAX_ORDER];
	struct cp_mem_params p = test_params(1);
	uint32_t pfn;

	(void)state;
	/* the free blocks of an untouched zone of these parameters */
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	memcpy(nr_free_before, m.zones[0].buddy.nr_free, sizeof(nr_free_before));
	cp_mem_release(&m);
	free_before = setup_with_folio(&m, &vs, 5, &pfn);
	cp_mem_free_folio(&m, CP_OWNER_PAGECACHE, pfn, 5, NULL);
	assert_int_equal(m.free_pages, free_before);
	assert_int_equal(cp_mem_pcp_held_pages(&m), 0);
	assert_memory_equal(m.zones[0].buddy.nr_free, nr_free_before, sizeof(nr_free_before));
	assert_int_equal(m.nr_owner[CP_OWNER_PAGECACHE], 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* The same folio freed page by page (what the model did before): each
 * page is an order-0 free, which pcp_allowed_order() takes, so the pages
 * wait on the CPU's list, not free for the watermarks and no block of
 * order 5 for the next folio - the difference the whole free makes. */
static void folio_freed_page_by_page_waits_on_the_pcp_list(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	uint64_t free_before;
	uint32_t pfn, i;

	(void)state;
	free_before = setup_with_folio(&m, &vs, 5, &pfn);
	for (i = 0; i < 32; i++)
		cp_mem_free_block(&m, CP_OWNER_PAGECACHE, pfn + i, 0, NULL);
	assert_true(cp_mem_pcp_held_pages(&m) > 0);
	assert_true(m.free_pages < free_before);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* free_unref_folios(): a folio of order 1-3 goes to the freeing CPU's pcp
 * list of its own order, as one block (free_unref_page_commit). */
static void small_folio_is_freed_whole_to_its_order_pcp_list(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	uint32_t pfn, blocks_before;

	(void)state;
	setup_with_folio(&m, &vs, 2, &pfn);
	blocks_before = cp_pcp_nr_blocks(&m.zones[0].pcp, 0, CP_MIGRATE_MOVABLE, 2);
	cp_mem_free_folio(&m, CP_OWNER_PAGECACHE, pfn, 2, NULL);
	assert_int_equal(cp_pcp_nr_blocks(&m.zones[0].pcp, 0, CP_MIGRATE_MOVABLE, 2),
			 blocks_before + 1);
	assert_int_equal(m.nr_owner[CP_OWNER_PAGECACHE], 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* __alloc_pages_slowpath() for a costly order (> PAGE_ALLOC_COSTLY_ORDER)
 * with __GFP_NORETRY on a zone with plenty of free pages but no block of
 * that order: kswapd is woken at the folio's order, there is no direct
 * reclaim (no direct_compact hook: as if compaction were skipped), the
 * folio fails and nothing is taken. */
static void costly_folio_on_fragmented_zone_wakes_kswapd_at_its_order(void **state)
{
	struct cp_mem m;
	struct hook_log log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint64_t free_before;
	uint32_t pfn;

	(void)state;
	setup_mem(&m, &log, &vs);
	fragment_zone(&m);
	memset(&vs, 0, sizeof(vs)); /* the fill's last failure counted an OOM */
	free_before = m.free_pages;
	assert_true(free_before > m.wmark.high + 16);
	assert_int_equal(cp_mem_alloc_folio(&m, CP_OWNER_PAGECACHE, 4, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn), -CP_ENOSPC);
	assert_int_equal(log.kswapd_wakeups, 1);
	assert_int_equal(log.last_wake_order, 4);
	assert_int_equal(log.direct_calls, 0);
	assert_int_equal(m.free_pages, free_before);
	assert_int_equal(vs.v[CP_VM_OOM], 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* setup_mem() with fake_compact() as the direct-compaction hook in
 * log->compact_mode, then fragment_zone(); the counters start at 0. */
static void setup_fragmented_with_compaction(struct cp_mem *m, struct hook_log *log,
					     struct cp_vmstat *vs)
{
	struct cp_mem_hooks hooks;

	setup_mem(m, log, vs);
	hooks = m->hooks;
	hooks.direct_compact = fake_compact;
	cp_mem_set_hooks(m, &hooks);
	fragment_zone(m);
	memset(vs, 0, sizeof(*vs));
}

/* With direct compaction (the hook), a costly __GFP_NORETRY folio whose
 * compaction was skipped or deferred gives up at once (the slow path's
 * "goto nopage" for COMPACT_SKIPPED / COMPACT_DEFERRED): no compact_stall,
 * no direct reclaim. */
static void costly_noretry_folio_gives_up_when_compaction_is_skipped(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .compact_mode = 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint32_t pfn;

	(void)state;
	setup_fragmented_with_compaction(&m, &log, &vs);
	assert_int_equal(cp_mem_alloc_folio(&m, CP_OWNER_PAGECACHE, 4, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn), -CP_ENOSPC);
	assert_int_equal(log.compact_calls, 1);
	assert_int_equal(vs.v[CP_VM_COMPACT_STALL], 0);
	assert_int_equal(log.direct_calls, 0);
	cp_mem_release(&m);
}

/* Compaction ran but made no block: the costly __GFP_NORETRY folio goes
 * on to direct reclaim once (allocstall), compacts once more after it,
 * then gives up (the __GFP_NORETRY exit): two compact_stall, both
 * compact_fail. */
static void costly_noretry_folio_reclaims_once_when_compaction_fails(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .compact_mode = 1 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint32_t pfn;

	(void)state;
	setup_fragmented_with_compaction(&m, &log, &vs);
	assert_int_equal(cp_mem_alloc_folio(&m, CP_OWNER_PAGECACHE, 4, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn), -CP_ENOSPC);
	assert_int_equal(log.compact_calls, 2);
	assert_int_equal(vs.v[CP_VM_COMPACT_STALL], 2);
	assert_int_equal(vs.v[CP_VM_COMPACT_FAIL], 2);
	assert_int_equal(log.direct_calls, 1);
	assert_int_equal(vs.v[CP_VM_ALLOCSTALL], 1);
	cp_mem_release(&m);
}

/* Compaction that frees a block of the order: the folio comes from it
 * at once (compact_stall and compact_success 1), without reclaim. */
static void costly_folio_comes_from_the_block_direct_compaction_made(void **state)
{
	struct cp_mem m;
	struct hook_log log = { .compact_mode = 2 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint32_t pfn;

	(void)state;
	setup_fragmented_with_compaction(&m, &log, &vs);
	assert_int_equal(cp_mem_alloc_folio(&m, CP_OWNER_PAGECACHE, 4, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn), 0);
	assert_int_equal(pfn, log.compact_base + m.zones[0].start_pfn);
	assert_int_equal(vs.v[CP_VM_COMPACT_STALL], 1);
	assert_int_equal(vs.v[CP_VM_COMPACT_SUCCESS], 1);
	assert_int_equal(log.direct_calls, 0);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* A non-costly order (2) with __GFP_NORETRY reclaims directly once, then
 * gives up (the __GFP_NORETRY exit after direct reclaim/compaction). */
static void small_folio_noretry_reclaims_once_then_fails(void **state)
{
	struct cp_mem m;
	struct hook_log log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_NOFS | CP_GFP_NORETRY };
	uint32_t pfn;

	(void)state;
	setup_mem(&m, &log, &vs);
	fragment_zone(&m);
	memset(&vs, 0, sizeof(vs));
	assert_int_equal(cp_mem_alloc_folio(&m, CP_OWNER_PAGECACHE, 2, CP_MIGRATE_MOVABLE, &ctx,
					    &pfn), -CP_ENOSPC);
	assert_int_equal(log.last_wake_order, 2);
	assert_int_equal(log.direct_calls, 1);
	assert_int_equal(vs.v[CP_VM_ALLOCSTALL], 1);
	cp_mem_release(&m);
}

/* low_wmark_pages() includes zone->watermark_boost (5.0+): a boosted
 * zone sends an allocation that clears the plain low watermark to the
 * slow path, which wakes kswapd. */
static void boost_raises_the_low_watermark(void **state)
{
	struct cp_mem m;
	struct hook_log log = { 0 };
	struct cp_vmstat vs = { { 0 } };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };

	(void)state;
	setup_mem(&m, &log, &vs);
	m.zones[0].buddy.watermark_boost = 50; /* low 125 + 50 */
	assert_int_equal(cp_mem_alloc(&m, CP_OWNER_PAGECACHE, 8840, &ctx), 0); /* free 160 */
	assert_int_equal(log.kswapd_wakeups, 1);
	assert_int_equal(log.last_wake_order, 0);
	assert_int_equal(log.direct_calls, 0);
	cp_mem_release(&m);
}

/* si_mem_available(): free pages less totalreserve_pages (one zone: its
 * high watermark; no lower zone, so no lowmem_reserve). When SIZE is
 * MemAvailable, the zone's free pages are SIZE plus its high mark, and
 * the kernel's own 1000 pages (the reserve) are not taken from SIZE. */
static void size_is_available_adds_the_high_watermark(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem_params p = {
		.total_pages = 10000,
		.reserve_pages = 1000,
		.min_free_kbytes = 400,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.size_is_available = true,
	};

	(void)state;
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	assert_int_equal(m.wmark.high, 150); /* as setup_mem: computed on SIZE */
	assert_int_equal(m.total_pages, 11150);
	assert_int_equal(m.free_pages, 10150);
	/* calculate_totalreserve_pages(): the same high mark, kept */
	assert_int_equal(m.totalreserve_pages, 150);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* The old page of a page compaction at order -1 moved (proactive
 * compaction: no lru_add_drain_cpu_zone) goes to the freeing CPU's
 * per-CPU list (folio_put -> free_unref_folios), not the buddy. The
 * target block left the free lists and the zone's free count when it was
 * isolated (__isolate_free_page: NR_FREE_PAGES drops by its 2^o pages);
 * the old page is free again but sits on the list, which is not in the
 * count: the zone ends 2^o pages poorer, the lists one page richer, and
 * the counts add up. */
static void migrated_page_of_order_minus_1_goes_to_the_pcp_list(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };
	struct cp_mem_params p = test_params(1);
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	uint32_t old_pfn, target;
	uint64_t free_before, pcp_before;
	bool split;
	int o;

	(void)state;
	assert_int_equal(cp_mem_init(&m, &p, &vs, NULL), 0);
	assert_int_equal(cp_mem_alloc_block(&m, CP_OWNER_PAGECACHE, 0, CP_MIGRATE_MOVABLE, &ctx,
					    &old_pfn, &split), 0);
	cp_mem_drain_all_pages(&m);
	free_before = m.free_pages;
	pcp_before = m.nr_owner[CP_OWNER_PCP];
	/* compaction_alloc(): a free page off the buddy's lists */
	target = m.zones[0].buddy.free_area[0][CP_MIGRATE_MOVABLE].head;
	if (target == CP_BUDDY_NONE) {
		unsigned k;

		for (k = 1; target == CP_BUDDY_NONE && k < CP_BUDDY_MAX_ORDER; k++)
			target = m.zones[0].buddy.free_area[k][CP_MIGRATE_MOVABLE].head;
	}
	o = cp_buddy_isolate_free_block(&m.zones[0].buddy, target, NULL);
	assert_true(o >= 0);
	cp_mem_isolated_free_block(&m, 0, (unsigned)o);
	assert_int_equal(m.free_pages, free_before - (1u << o));
	assert_int_equal(m.nr_owner[CP_OWNER_ISOLATED], 1u << o);
	assert_true(cp_mem_check(&m));
	assert_int_equal(cp_mem_migrate_free(&m, old_pfn, 0, 0), 0);
	assert_int_equal(m.nr_owner[CP_OWNER_PCP], pcp_before + 1);
	assert_int_equal(m.free_pages, free_before - (1u << o));
	assert_int_equal(m.nr_owner[CP_OWNER_ISOLATED], (1u << o) - 1);
	assert_int_equal(m.zones[0].pcp.nr_held_pages, 1);
	cp_mem_release(&m);
}

/*
 * Compaction of an order-2 page-cache folio up to the free of its old
 * block. setup_with_folio() (one CPU, 6.1 per-CPU lists): the reserve
 * holds pfns 0..999, so the free memory [1000, 10000) is the blocks at
 * 1000 (order 3), 1008 (4), 1024 .. 8192 (eight of order 10), 9216 (9),
 * 9728 (8) and 9984 (4): 8 + 16 + 8192 + 512 + 256 + 16 = 9000 pages.
 * The smallest block of order >= 2 is the one at 1000; expand() keeps
 * its upper half 1004 free: the folio is at 1000. The per-CPU lists
 * drained (what their refill took merges back): 9000 - 4 = 8996 free.
 * compaction_alloc()'s target: the order-4 block at 9984 isolated
 * (cp_buddy_isolate_free_block), the folio copied into 9984..9987, the
 * other 12 pages given back one by one (release_freepages): 9988..9991
 * merge into an order-2 block (buddy 9984 taken), 9992..9999 into an
 * order-3 one. The buddy then holds 8996 - 4 = 8992 free pages, and so
 * does the zone's count: __isolate_free_page took the 16 off it
 * (8980), the 12 given back returned (8992); the 4 targets are held as
 * isolated.
 */
static void isolate_target_for_folio_at_1000(struct cp_mem *m, struct cp_vmstat *vs)
{
	uint32_t pfn, i;

	setup_with_folio(m, vs, 2, &pfn);
	assert_int_equal(pfn, 1000);
	cp_mem_drain_all_pages(m);
	assert_int_equal(cp_mem_pcp_held_pages(m), 0);
	assert_int_equal(m->free_pages, 8996);
	assert_int_equal(cp_buddy_free_block_order(&m->zones[0].buddy, 1004), 2);
	assert_int_equal(cp_buddy_isolate_free_block(&m->zones[0].buddy, 9984, NULL), 4);
	cp_mem_isolated_free_block(m, 0, 4);
	assert_int_equal(m->free_pages, 8980);
	for (i = 9988; i < 10000; i++) {
		assert_int_equal(cp_buddy_free(&m->zones[0].buddy, i, 0, NULL), 0);
		cp_mem_putback_isolated(m, 0, 0);
	}
	assert_int_equal(cp_buddy_free_block_order(&m->zones[0].buddy, 9988), 2);
	assert_int_equal(cp_buddy_free_block_order(&m->zones[0].buddy, 9992), 3);
	assert_int_equal(m->zones[0].buddy.nr_free_pages, 8992);
	assert_int_equal(m->free_pages, 8992);
	assert_int_equal(m->nr_owner[CP_OWNER_ISOLATED], 4);
	assert_true(cp_mem_check(m));
}

/* free_unref_folios() of the migrated folio's old block, for compaction
 * at an order (cpu -1 here: lru_add_drain_cpu_zone drains the per-CPU
 * lists at each order-aligned block, the model frees to the buddy at
 * once): the 4 order-0 pages at 1000 are joined and freed as ONE
 * order-2 block (__free_one_page): the buddy gains 4 free pages (8992
 * -> 8996, the zone's count again), the block merges with its free
 * buddy 1004 into an order-3 block at 1000 and stops there (its order-3
 * buddy 1008 heads an order-4 block); nothing on a per-CPU list. */
static void migrated_folio_of_order_2_is_freed_whole_to_the_buddy(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };

	(void)state;
	isolate_target_for_folio_at_1000(&m, &vs);
	assert_int_equal(cp_mem_migrate_free(&m, 1000, 2, -1), 0);
	assert_int_equal(m.zones[0].buddy.nr_free_pages, 8996);
	assert_int_equal(m.free_pages, 8996);
	assert_int_equal(cp_buddy_free_block_order(&m.zones[0].buddy, 1000), 3);
	assert_int_equal(cp_buddy_free_block_order(&m.zones[0].buddy, 1008), 4);
	assert_int_equal(cp_mem_pcp_held_pages(&m), 0);
	assert_int_equal(m.nr_owner[CP_OWNER_PAGECACHE], 4);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

/* The same free at order -1 (cpu 0, proactive compaction: no drain):
 * order 2 <= PAGE_ALLOC_COSTLY_ORDER is a pcp order (pcp_allowed_order),
 * so free_unref_page_commit() puts the block whole at the head of the
 * CPU's (MOVABLE, order 2) list: one block there, none on the order-0
 * list, 4 pages held; the buddy's free count stays 8992 and the zone's
 * drops by the 4 pages the lists now hold (8996 -> 8992); the counts add
 * up. */
static void migrated_folio_of_order_2_goes_to_its_order_pcp_list(void **state)
{
	struct cp_mem m;
	struct cp_vmstat vs = { { 0 } };

	(void)state;
	isolate_target_for_folio_at_1000(&m, &vs);
	assert_int_equal(cp_mem_migrate_free(&m, 1000, 2, 0), 0);
	assert_int_equal(cp_pcp_nr_blocks(&m.zones[0].pcp, 0, CP_MIGRATE_MOVABLE, 2), 1);
	assert_int_equal(cp_pcp_nr_blocks(&m.zones[0].pcp, 0, CP_MIGRATE_MOVABLE, 0), 0);
	assert_int_equal(m.zones[0].pcp.nr_held_pages, 4);
	assert_int_equal(m.nr_owner[CP_OWNER_PCP], 4);
	assert_int_equal(m.zones[0].buddy.nr_free_pages, 8992);
	assert_int_equal(m.free_pages, 8992);
	assert_int_equal(cp_buddy_free_block_order(&m.zones[0].buddy, 1000), -1);
	assert_true(cp_mem_check(&m));
	cp_mem_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(migrated_page_of_order_minus_1_goes_to_the_pcp_list),
		cmocka_unit_test(migrated_folio_of_order_2_is_freed_whole_to_the_buddy),
		cmocka_unit_test(migrated_folio_of_order_2_goes_to_its_order_pcp_list),
		cmocka_unit_test(min_free_kbytes_default_is_sqrt_of_16x_lowmem),
		cmocka_unit_test(thp_min_free_kbytes_is_pageblocks_times_zones),
		cmocka_unit_test(watermarks_follow_setup_per_zone_wmarks),
		cmocka_unit_test(alloc_above_low_wakes_nobody),
		cmocka_unit_test(alloc_below_low_wakes_kswapd_only),
		cmocka_unit_test(alloc_below_min_reclaims_directly),
		cmocka_unit_test(alloc_fails_when_reclaim_makes_no_progress),
		cmocka_unit_test(atomic_alloc_does_not_reclaim),
		cmocka_unit_test(memcg_charge_over_limit_reclaims_memcg),
		cmocka_unit_test(memcg_charge_fails_after_retries),
		cmocka_unit_test(memcg_charges_go_through_the_per_cpu_stock),
		cmocka_unit_test(memcg_charge_drains_the_stocks_before_retrying),
		cmocka_unit_test(init_rejects_reserve_larger_than_memory),
		cmocka_unit_test(folio_fast_path_gives_an_aligned_block),
		cmocka_unit_test(large_folio_is_freed_whole_to_the_buddy),
		cmocka_unit_test(folio_freed_page_by_page_waits_on_the_pcp_list),
		cmocka_unit_test(small_folio_is_freed_whole_to_its_order_pcp_list),
		cmocka_unit_test(costly_folio_on_fragmented_zone_wakes_kswapd_at_its_order),
		cmocka_unit_test(costly_noretry_folio_gives_up_when_compaction_is_skipped),
		cmocka_unit_test(costly_noretry_folio_reclaims_once_when_compaction_fails),
		cmocka_unit_test(costly_folio_comes_from_the_block_direct_compaction_made),
		cmocka_unit_test(small_folio_noretry_reclaims_once_then_fails),
		cmocka_unit_test(boost_raises_the_low_watermark),
		cmocka_unit_test(size_is_available_adds_the_high_watermark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
