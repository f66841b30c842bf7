/*
 * test_readahead_folio.c - large-folio readahead (6.1 mm/readahead.c
 * page_cache_ra_order(), ra_alloc_folio(), ondemand_readahead()) and
 * filemap_add_folio() of a folio (pagecache.c
 * cp_add_folio_to_page_cache_lru).
 *
 * The rules, as filemap.c models them: a window continuing the previous
 * one ramps from that window's marker (first) folio order, a sync miss
 * from 0; page_cache_ra_order() adds 2, caps at MAX_PAGECACHE_ORDER (9)
 * and at the window size; a folio at an index not aligned to the order
 * takes order __ffs(index); a folio passing the window's last index is
 * made smaller; order 1 is never used (0). No large folios below a
 * 4-page window or without mapping_large_folio_support(). 6.17+
 * (cp_file_ra_state.order_in_state): the order is ra->order, 0 after a
 * sync miss and + 2 per continuing window, whose end is trimmed to that
 * order's alignment.
 *
 * Zone: 16384 pages (16 free order-10 blocks), min_free_kbytes 128:
 * min 32, tmp = max(32 / 4, 16384 * 10 / 10000) = 16, low 48, high 64.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "model/buddy.h"
#include "model/filemap.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memory.h"
#include "model/pagecache.h"
#include "model/profile.h"

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_pagecache pc;
	struct cp_alloc_ctx ctx;
	unsigned nr_wakes;
	unsigned last_wake_order;
};

static void fake_wake_kswapd(void *priv, unsigned order, unsigned highest_zoneidx)
{
	struct fixture *f = priv;

	(void)highest_zoneidx;
	f->nr_wakes++;
	f->last_wake_order = order;
}

static struct fixture *fixture_new(uint64_t total_pages, uint64_t min_free_kbytes)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = total_pages,
		.min_free_kbytes = min_free_kbytes,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 262144,
		.memcg_reclaim_retries = 16,
		.max_reclaim_retries = 16,
		.watermark_boost_factor = 15000,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 1, .lru_add_batch = 15,
					  .workingset_flag = true };
	struct cp_mem_hooks hooks = { .wake_kswapd = fake_wake_kswapd };

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	hooks.priv = f;
	cp_mem_set_hooks(&f->mem, &hooks);
	assert_int_equal(cp_pagecache_init(&f->pc, &pp, &f->mem, &f->vs), 0);
	f->ctx.gfp = CP_GFP_NOFS;
	return f;
}

static void fixture_free(struct fixture *f)
{
	cp_pagecache_release(&f->pc);
	cp_mem_release(&f->mem);
	free(f);
}

/* A file of nr pages whose mapping has large folios when `large`. */
static uint32_t new_file(struct fixture *f, uint32_t nr, bool large)
{
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, nr, NULL, NULL, &id), 0);
	if (large)
		cp_mapping_set_large_folios(&f->pc, id);
	return id;
}

static struct cp_read_result do_read(struct fixture *f, uint32_t id, uint32_t index, uint32_t nr,
				     uint32_t ra_pages, struct cp_file_ra_state *ra)
{
	struct cp_read_result res;

	assert_int_equal(cp_filemap_read(&f->pc, id, index, nr, ra_pages, 0, ra, &f->ctx, &res), 0);
	return res;
}

static uint32_t pfn_of(const struct fixture *f, uint32_t id, uint32_t index)
{
	return f->pc.pages[cp_mapping_slot(&f->pc, id, index)].pfn;
}

/* The pages [index, index + 2^order) are one folio: consecutive pfns
 * from a block aligned to its order. */
static void assert_folio(const struct fixture *f, uint32_t id, uint32_t index, unsigned order)
{
	uint32_t first = pfn_of(f, id, index), i;

	assert_int_equal(first & ((1u << order) - 1), 0);
	for (i = 1; i < (1u << order); i++)
		assert_int_equal(pfn_of(f, id, index + i), first + i);
}

/* The zone of fixture_new(4096, 4) (min 1) taken page by page, then
 * every even pfn whose odd buddy is still held given back: about 2048
 * free pages, none in a block of order 1 or more. */
static void fragment_to_order_0(struct fixture *f)
{
	uint32_t *pfns = calloc(4096, sizeof(*pfns));
	uint32_t n = 0, i;

	assert_non_null(pfns);
	assert_int_equal(f->mem.wmark.min, 1);
	while (cp_mem_alloc_pages(&f->mem, CP_OWNER_PROCESS, 1, CP_MIGRATE_MOVABLE, &f->ctx,
				  &pfns[n]) == 0)
		n++;
	assert_int_equal(f->mem.free_pages, 1);
	for (i = 0; i < n; i++)
		if (pfns[i] % 2 == 0 && cp_buddy_free_block_order(&f->mem.zones[0].buddy, pfns[i] + 1) < 0)
			cp_mem_free_block(&f->mem, CP_OWNER_PROCESS, pfns[i], 0, NULL);
	free(pfns);
}

/* Evict the resident pages [index, index + nr) (as reclaim would: off
 * the LRU, then __remove_mapping). */
static void evict_range(struct fixture *f, uint32_t id, uint32_t index, uint32_t nr)
{
	uint32_t i;

	cp_lru_add_drain_all(&f->pc);
	for (i = index; i < index + nr; i++) {
		uint32_t slot = cp_mapping_slot(&f->pc, id, i);

		cp_lru_del(&f->pc, slot);
		cp_pagecache_evict(&f->pc, slot);
	}
}

/*
 * ondemand_readahead + page_cache_ra_order over consecutive 640-page
 * windows from index 0 (each window continues the last: the marker
 * folio's order is the next window's starting order):
 *  w0 [0, 640):     sync, 0 + 2 = 2; all aligned: 160 folios of 4; marker 2
 *  w1 [640, 1280):  2 + 2 = 4; 640 = 40 * 16: 40 folios of 16; marker 4
 *  w2 [1280, 1920): 4 + 2 = 6; 1280 = 20 * 64: 10 folios of 64; marker 6
 *  w3 [1920, 2560): 6 + 2 = 8; 1920 % 256 = 128, __ffs(1920) = 7:
 *                   128 @1920, then 256 @2048, 256 @2304 (ends 2559); marker 7
 *  w4 [2560, 3200): 7 + 2 = 9; 2560 = 5 * 512: 512 @2560; at 3072 order 9
 *                   and 8 pass 3199, order 7 ends there: 128 @3072; marker 9
 *  w5 [3200, 3840): 9 is MAX_PAGECACHE_ORDER: stays 9; __ffs(3200) = 7:
 *                   128 @3200, __ffs(3328) = 8: 256 @3328, 3584 order 9
 *                   passes 3839: 256 @3584; marker 7
 *  w6 [3840, 4480): 7 + 2 = 9; __ffs(3840) = 8: 256 @3840; 4096 order 9
 *                   passes 4479: 256 @4096; 4352 = 17 * 256 order 8 passes:
 *                   128 @4352; marker 8
 * Every window is 640 pages of large folios.
 */
static void ra_order_ramps_from_the_marker_folio_over_consecutive_windows(void **state)
{
	static const struct {
		uint64_t nr_folios;
		unsigned marker_order;
	} want[7] = { { 160, 2 }, { 40, 4 }, { 10, 6 }, { 3, 7 }, { 2, 9 }, { 3, 7 }, { 3, 8 } };
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { 0 };
	uint32_t id = new_file(f, 4480, true);
	unsigned w;

	(void)state;
	for (w = 0; w < 7; w++) {
		uint64_t folios = f->vs.v[CP_VM_RA_FOLIO_ALLOC];
		uint64_t pages = f->vs.v[CP_VM_RA_FOLIO_PAGES];
		struct cp_read_result res = do_read(f, id, w * 640, 640, 640, &ra);

		assert_int_equal(res.nr_inserted_pages, 640);
		assert_int_equal(res.nr_io_bytes, 640 * 4096);
		assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC] - folios, want[w].nr_folios);
		assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_PAGES] - pages, 640);
		assert_int_equal(ra.marker_order, want[w].marker_order);
		assert_int_equal(ra.window_end, (w + 1) * 640);
	}
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_FAIL], 0);
	/* w3 and w4 as derived above: the folios are buddy blocks */
	assert_folio(f, id, 1920, 7);
	assert_folio(f, id, 2048, 8);
	assert_folio(f, id, 2560, 9);
	assert_folio(f, id, 3072, 7);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * ondemand_readahead: a miss that does not start where the last window
 * ended is a sync readahead (no marker folio: order 0), so
 * page_cache_ra_order starts again at 0 + 2 = 2. Pages 640..659 are
 * cached (order 0) before: the read of [640, 1300) hits them and misses
 * at 660 (not 640, where w0 ended): window [660, 1300), 660 = 165 * 4,
 * 160 folios of order 2 (a continuation would have used order 4: 40).
 */
static void sync_miss_after_hits_restarts_at_order_2(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t id = new_file(f, 2000, true), i;
	uint64_t folios;

	(void)state;
	for (i = 640; i < 660; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
	do_read(f, id, 0, 640, 640, &ra);
	assert_int_equal(ra.marker_order, 2);
	folios = f->vs.v[CP_VM_RA_FOLIO_ALLOC];
	res = do_read(f, id, 640, 660, 640, &ra);
	assert_int_equal(res.nr_cached_pages, 20);
	assert_int_equal(res.nr_cached_folios, 20);
	assert_int_equal(res.nr_inserted_pages, 640);
	assert_int_equal(res.nr_inserted_folios, 160);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC] - folios, 160);
	assert_int_equal(ra.marker_order, 2);
	assert_int_equal(ra.window_end, 1300);
	fixture_free(f);
}

/*
 * page_cache_ra_order never makes an order-1 folio: window [2, 10) of 8
 * pages, sync: new_order 2. Index 2: not aligned to 4, __ffs(2) = 1 ->
 * 0; index 3: __ffs(3) = 0; index 4: order 2 (4..7); index 8: order 2
 * would end at 11 > 9, decremented to 1 -> 0; index 9: order 0. One
 * folio of 4 pages, four order-0 pages; the marker (at 2) is order 0.
 */
static void order_1_becomes_order_0(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t id = new_file(f, 64, true);

	(void)state;
	res = do_read(f, id, 2, 8, 8, &ra);
	assert_int_equal(res.nr_inserted_pages, 8);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 1);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_PAGES], 4);
	assert_folio(f, id, 4, 2);
	assert_int_equal(ra.marker_order, 0);
	assert_int_equal(ra.window_end, 10);
	fixture_free(f);
}

/*
 * page_cache_ra_order: ra->size < 4 -> do_page_cache_ra, order 0 only.
 * 9 pages in windows of 3: no folio. At the boundary, windows of 4 pages
 * (sync, then continuing: order 2 each time, capped by the size) hold
 * one order-2 folio each: 3 folios for 12 pages.
 */
static void window_under_4_pages_uses_order_0_only(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra3 = { 0 }, ra4 = { 0 };
	struct cp_read_result res;
	uint32_t small = new_file(f, 9, true), four = new_file(f, 12, true);

	(void)state;
	res = do_read(f, small, 0, 9, 3, &ra3);
	assert_int_equal(res.nr_inserted_pages, 9);
	assert_int_equal(res.nr_io_requests, 3);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 0);
	res = do_read(f, four, 0, 12, 4, &ra4);
	assert_int_equal(res.nr_inserted_pages, 12);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 3);
	fixture_free(f);
}

/*
 * A fragmented zone: 4096 pages, min_free_kbytes 4: min 1, tmp =
 * max(0, 4096 * 10 / 10000) = 4, low 5. Every page is taken one at a
 * time (down to the min watermark: the last page stays free), then every
 * even pfn whose odd buddy is still allocated is freed: about 2048 free
 * pages, none in a block of order >= 2. A sync window of 8 pages asks
 * for an order-2 folio: zone_watermark_ok at order 2 fails, kswapd is
 * woken at order 2, readahead's __GFP_NORETRY folio gives up (no direct
 * reclaim hook: nothing to reclaim) -> cp_ra_folio_fail; the whole
 * window is then read with order-0 pages and the marker is order 0.
 */
static void fragmented_zone_fails_the_folio_and_fills_the_window_with_order_0(void **state)
{
	struct fixture *f = fixture_new(4096, 4);
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t id = new_file(f, 8, true);
	unsigned o;

	(void)state;
	fragment_to_order_0(f);
	assert_true(f->mem.free_pages > 2000);
	for (o = 2; o < CP_BUDDY_MAX_ORDER; o++)
		assert_int_equal(f->mem.zones[0].buddy.nr_free[o], 0);
	f->nr_wakes = 0;

	res = do_read(f, id, 0, 8, 8, &ra);
	assert_int_equal(res.nr_inserted_pages, 8);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_FAIL], 1);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 0);
	assert_true(f->nr_wakes >= 1);
	assert_int_equal(f->last_wake_order, 2);
	assert_int_equal(f->pc.mappings[id].nrpages, 8);
	assert_int_equal(ra.marker_order, 0);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * filemap_add_folio of an order-4 folio: 16 pages at consecutive pfns of
 * one order-4 block. A first folio A takes pfn 0 (__rmqueue_smallest
 * splits an order-10 block, expand() leaves 16@16 free), a second B the
 * block 16 whose buddy is A. Reclaim frees B page by page: the block is
 * not whole until the 16th page is back; then it is one free order-4
 * block (it cannot merge further: A is allocated).
 */
static void folio_pages_are_one_block_and_merge_back_when_all_are_evicted(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	uint32_t a = new_file(f, 16, true), b = new_file(f, 16, true), pfn_b;

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 4, &f->ctx), 0);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, b, 0, 4, &f->ctx), 0);
	assert_folio(f, a, 0, 4);
	assert_folio(f, b, 0, 4);
	pfn_b = pfn_of(f, b, 0);
	assert_int_equal(pfn_b ^ 16u, pfn_of(f, a, 0));
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 32);
	evict_range(f, b, 0, 15);
	assert_true(cp_buddy_free_block_order(&f->mem.zones[0].buddy, pfn_b) < 4);
	evict_range(f, b, 15, 1);
	assert_int_equal(cp_buddy_free_block_order(&f->mem.zones[0].buddy, pfn_b), 4);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 16);
	assert_int_equal(f->pc.mappings[b].nrshadows, 16);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* mem_cgroup_charge() of a folio charges folio_nr_pages(): an order-3
 * folio of a mapping in a memcg charges 8 pages at once. */
static void folio_charges_2_to_the_order_pages_to_the_mappings_memcg(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_memcg memcg;
	uint32_t id;

	(void)state;
	cp_memcg_init(&memcg, 1, 1000);
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, &memcg, NULL, &id), 0);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, id, 8, 3, &f->ctx), 0);
	assert_int_equal(memcg.usage_pages, 8);
	assert_int_equal(memcg.nr_owner[CP_OWNER_PAGECACHE], 8);
	assert_null(f->ctx.memcg); /* the caller's context is left as it was */
	evict_range(f, id, 8, 8);
	assert_int_equal(memcg.usage_pages, 0);
	assert_true(cp_memcg_check(&memcg));
	fixture_free(f);
}

/* filemap_add_folio: a page already in the range is -EEXIST (here
 * -CP_EBUSY) and nothing changes: no memory taken, no slot touched. */
static void folio_over_a_cached_page_is_refused_and_changes_nothing(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	uint32_t id = new_file(f, 8, true);
	uint64_t free_before;

	(void)state;
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 5, &f->ctx), 0);
	free_before = f->mem.free_pages;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, id, 4, 2, &f->ctx), -CP_EBUSY);
	assert_int_equal(f->mem.free_pages, free_before);
	assert_int_equal(f->pc.mappings[id].nrpages, 1);
	assert_false(f->pc.pages[cp_mapping_slot(&f->pc, id, 4)].flags & CP_PG_RESIDENT);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * page_cache_ra_order stops at the first folio that cannot be added and
 * do_page_cache_ra reads the rest of the window in order-0 pages: window
 * [0, 16), sync, order 2; page 5 is cached: folio 0..3 is added, folio
 * 4..7 hits page 5 (-EEXIST), so 4 and 6..15 come as order-0 pages (no
 * folio at 8 or 12). 15 pages inserted, one folio.
 */
static void ra_order_falls_back_to_order_0_after_a_cached_page(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t id = new_file(f, 16, true);

	(void)state;
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 5, &f->ctx), 0);
	res = do_read(f, id, 0, 16, 16, &ra);
	assert_int_equal(res.nr_inserted_pages, 15);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 1);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_FAIL], 0);
	assert_int_equal(f->pc.mappings[id].nrpages, 16);
	assert_int_equal(ra.marker_order, 2);
	fixture_free(f);
}

/* filemap_add_folio -> workingset_refault per page: a folio added over
 * 4 shadow entries is 4 refaults (6.1 counts folio_nr_pages). */
static void folio_over_shadows_refaults_each_page(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	uint32_t id = new_file(f, 4, true);

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, id, 0, 2, &f->ctx), 0);
	evict_range(f, id, 0, 4);
	assert_int_equal(f->pc.mappings[id].nrshadows, 4);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_REFAULT], 0);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, id, 0, 2, &f->ctx), 0);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_REFAULT], 4);
	assert_int_equal(f->pc.mappings[id].nrshadows, 0);
	assert_int_equal(f->pc.mappings[id].nrpages, 4);
	fixture_free(f);
}

/* Without mapping_large_folio_support() (ext4, 4.11) readahead is
 * do_page_cache_ra: the same 640-page window is 640 order-0 pages. */
static void mapping_without_large_folios_reads_order_0_pages(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t id = new_file(f, 1280, false);

	(void)state;
	res = do_read(f, id, 0, 1280, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 1280);
	assert_int_equal(res.nr_inserted_folios, 1280); /* each page its own folio */
	assert_int_equal(res.nr_io_requests, 2);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 0);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_FAIL], 0);
	assert_int_equal(f->nr_wakes, 0);
	fixture_free(f);
}

/* XFS sets mapping_set_large_folios since 5.18 (6.1 fs/xfs/xfs_icache.c
 * xfs_inode_alloc); 4.11 has no large folios in the page cache. */
static void profiles_give_xfs_large_folios_from_6_1(void **state)
{
	(void)state;
	assert_false(cp_kernel_profile_find("linux-4.11")->xfs_large_folios);
	assert_true(cp_kernel_profile_find("linux-6.1")->xfs_large_folios);
	assert_true(cp_kernel_profile_find("linux-6.x")->xfs_large_folios);
}

/*
 * filemap_get_read_batch(): a read() of cached data looks each folio up
 * once, whatever its size (the cost model prices a cached folio, not a
 * page). After the sync miss at 0 (window [0, 640) in order-2 folios, as
 * above), a read of [0, 640) touches 160 folios, and a read of [2, 10)
 * three: [0, 4), [4, 8), [8, 12).
 */
static void cached_read_counts_each_folio_once(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t id = new_file(f, 2000, true);

	(void)state;
	res = do_read(f, id, 0, 640, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 640);
	assert_int_equal(res.nr_inserted_folios, 160);
	assert_int_equal(res.nr_cached_folios, 0);
	res = do_read(f, id, 0, 640, 640, &ra);
	assert_int_equal(res.nr_cached_pages, 640);
	assert_int_equal(res.nr_cached_folios, 160);
	assert_int_equal(res.nr_inserted_folios, 0);
	res = do_read(f, id, 2, 8, 640, &ra);
	assert_int_equal(res.nr_cached_pages, 8);
	assert_int_equal(res.nr_cached_folios, 3);
	fixture_free(f);
}

/* 6.6+ iomap_write_begin -> __filemap_get_folio(fgf_set_order(len)): a
 * 1 MiB write at index 0 of a fresh zone is one order-8 folio; a write of
 * 10 pages at index 6 is order 1 (__ffs(6)) then order 3 for the 8 left. */
static void write_folio_order_follows_the_write_length_and_alignment(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	uint32_t id = new_file(f, 512, true), folios = 0;

	(void)state;
	assert_int_equal(cp_filemap_write_folios(&f->pc, id, 0, 256, &f->ctx, &folios), 0);
	assert_folio(f, id, 0, 8);
	assert_int_equal(folios, 1);
	assert_int_equal(f->pc.mappings[id].nrpages, 256);
	assert_int_equal(cp_filemap_write_folios(&f->pc, id, 262, 10, &f->ctx, &folios), 0);
	assert_folio(f, id, 262, 1);
	assert_folio(f, id, 264, 3);
	assert_int_equal(folios, 3);
	assert_int_equal(f->pc.mappings[id].nrpages, 266);
	assert_int_equal(f->nr_wakes, 0);
	fixture_free(f);
}

/* __filemap_get_folio's loop: each failing order (with __GFP_NORETRY)
 * gives way to the next smaller one, order 0 last; on a zone with no
 * free block above order 0 an 8-page write ends as 8 order-0 pages, and
 * each write_begin asks again for what is left: index 0 tries orders
 * 3, 2, 1; index 2 (6 left, aligned to 2) order 1; index 4 (4 left)
 * orders 2, 1; index 6 (2 left) order 1: 7 wake-ups, the last at 1. */
static void write_folio_falls_back_one_order_at_a_time(void **state)
{
	struct fixture *f = fixture_new(4096, 4);
	uint32_t id = new_file(f, 8, true), folios = 0;

	(void)state;
	fragment_to_order_0(f);
	assert_false(cp_buddy_has_free_block(&f->mem.zones[0].buddy, 1));
	f->nr_wakes = 0;
	assert_int_equal(cp_filemap_write_folios(&f->pc, id, 0, 8, &f->ctx, &folios), 0);
	assert_int_equal(folios, 8);
	assert_int_equal(f->nr_wakes, 7);
	assert_int_equal(f->last_wake_order, 1);
	assert_int_equal(f->pc.mappings[id].nrpages, 8);
	fixture_free(f);
}

static void profiles_give_xfs_large_folio_writes_from_6_6(void **state)
{
	(void)state;
	assert_false(cp_kernel_profile_find("linux-4.11")->xfs_large_folio_writes);
	assert_false(cp_kernel_profile_find("linux-6.1")->xfs_large_folio_writes);
	assert_true(cp_kernel_profile_find("linux-6.x")->xfs_large_folio_writes);
}

/* Read windows of ra_pages from index 0 with a 6.17+ file_ra_state:
 * each window inserts ra_pages pages in want_folios[w] large folios and
 * leaves ra->order at want_order[w]. */
static void assert_ra_order_ramp(struct fixture *f, uint32_t id, uint32_t ra_pages, unsigned nwin,
				 const uint64_t *want_folios, const unsigned *want_order)
{
	struct cp_file_ra_state ra = { .order_in_state = true };
	unsigned w;

	for (w = 0; w < nwin; w++) {
		uint64_t folios = f->vs.v[CP_VM_RA_FOLIO_ALLOC];
		struct cp_read_result res = do_read(f, id, w * ra_pages, ra_pages, ra_pages, &ra);

		assert_int_equal(res.nr_inserted_pages, ra_pages);
		assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC] - folios, want_folios[w]);
		assert_int_equal(ra.order, want_order[w]);
		assert_int_equal(ra.window_end, (w + 1) * ra_pages);
	}
}

/*
 * 6.17+ (ra->order in file_ra_state), 64-page windows from index 0 as
 * the readers' 256 KiB window on this machine's loop device gives them:
 *  w0 [0, 64):    page_cache_sync_ra sets ra->order 0: 64 order-0 pages
 *  w1 [64, 128):  page_cache_async_ra: 0 + 2 = 2; 16 folios of 4
 *  w2:            2 + 2 = 4; 4 folios of 16
 *  w3:            4 + 2 = 6 = ilog2(64); 1 folio of 64
 *  w4:            6 + 2 = 8, capped at ilog2(64) = 6 and stored: 1 of 64
 * The ramp the readahead tracepoints showed on 6.18.44 (docs/fidelity.md).
 */
static void ra_order_6_17_ramps_0_2_4_6_6_in_64_page_windows(void **state)
{
	static const uint64_t folios[5] = { 0, 16, 4, 1, 1 };
	static const unsigned order[5] = { 0, 2, 4, 6, 6 };
	struct fixture *f = fixture_new(16384, 128);
	uint32_t id = new_file(f, 320, true);

	(void)state;
	assert_ra_order_ramp(f, id, 64, 5, folios, order);
	assert_folio(f, id, 192, 6);
	assert_folio(f, id, 256, 6);
	fixture_free(f);
}

/*
 * 6.17+ with 640-page windows (read_ahead_kb 2560): ra->order climbs
 * 0, 2, 4, 6, 8, then 9 (MAX_PAGECACHE_ORDER; ilog2(640) = 9); each
 * window's end is trimmed to 2^min(order, __ffs(640) = 7), which these
 * windows (multiples of 640 from 0, so of 128) already are:
 *  w3 [1920, 2560): order 6: 10 folios of 64
 *  w4 [2560, 3200): order 8: 256 @2560, 256 @2816, at 3072 order 8
 *                   passes 3199: 128 @3072
 *  w5 [3200, 3840): order 9: __ffs(3200) = 7: 128 @3200; 256 @3328;
 *                   at 3584 order 9 passes 3839: 256 @3584
 * (6.1 ramps these windows from the marker folio instead: w4 was order 7
 * there, ra_order_ramps_from_the_marker_folio_over_consecutive_windows.)
 */
static void ra_order_6_17_ramps_from_ra_order_not_the_marker_folio(void **state)
{
	static const uint64_t folios[6] = { 0, 160, 40, 10, 3, 3 };
	static const unsigned order[6] = { 0, 2, 4, 6, 8, 9 };
	struct fixture *f = fixture_new(16384, 128);
	uint32_t id = new_file(f, 3840, true);

	(void)state;
	assert_ra_order_ramp(f, id, 640, 6, folios, order);
	assert_folio(f, id, 2560, 8);
	assert_folio(f, id, 3072, 7);
	assert_folio(f, id, 3328, 8);
	assert_folio(f, id, 3584, 8);
	fixture_free(f);
}

/*
 * 6.17+: a sync miss sets ra->order to 0 (6.1 restarted at 2), and a
 * continuing window's end is trimmed to its order's alignment. 640-page
 * windows: [0, 640) order 0, [640, 1280) order 2; pages 1280..1299 are
 * cached, so a read of [1280, 1940) misses at 1300, not at 1280 where
 * the last window ended: sync, [1300, 1940) in 640 order-0 pages. The
 * next window continues: [1940, 2580) at order 2 (2580 is a multiple of
 * 4). The one after: order 4, end 3220 trimmed to 3216 (201 x 16):
 * [2580, 3216), 636 pages: __ffs(2580) = 2: 4 @2580, __ffs(2584) = 3:
 * 8 @2584, then 39 folios of 16 from 2592: 41 folios.
 */
static void ra_order_6_17_sync_miss_restarts_at_0_and_async_end_is_aligned(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .order_in_state = true };
	struct cp_read_result res;
	uint32_t id = new_file(f, 4000, true), i;
	uint64_t folios;

	(void)state;
	for (i = 1280; i < 1300; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
	do_read(f, id, 0, 1280, 640, &ra);
	assert_int_equal(ra.order, 2);
	folios = f->vs.v[CP_VM_RA_FOLIO_ALLOC];
	res = do_read(f, id, 1280, 660, 640, &ra);
	assert_int_equal(res.nr_cached_pages, 20);
	assert_int_equal(res.nr_inserted_pages, 640);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC] - folios, 0);
	assert_int_equal(ra.order, 0);
	assert_int_equal(ra.window_end, 1940);
	do_read(f, id, 1940, 640, 640, &ra);
	assert_int_equal(ra.order, 2);
	assert_int_equal(ra.window_end, 2580);
	folios = f->vs.v[CP_VM_RA_FOLIO_ALLOC];
	res = do_read(f, id, 2580, 1, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 636);
	assert_int_equal(ra.window_end, 3216);
	assert_int_equal(ra.order, 4);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC] - folios, 41);
	assert_folio(f, id, 2580, 2);
	assert_folio(f, id, 2584, 3);
	assert_folio(f, id, 2592, 4);
	assert_false(f->pc.pages[cp_mapping_slot(&f->pc, id, 3216)].flags & CP_PG_RESIDENT);
	fixture_free(f);
}

/* ra->order in file_ra_state came with 6.17: linux-6.x (6.18) has it,
 * linux-6.1 and linux-4.11 do not. */
static void profiles_keep_ra_order_in_state_from_6_17(void **state)
{
	(void)state;
	assert_false(cp_kernel_profile_find("linux-4.11")->readahead_order_in_state);
	assert_false(cp_kernel_profile_find("linux-6.1")->readahead_order_in_state);
	assert_true(cp_kernel_profile_find("linux-6.x")->readahead_order_in_state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ra_order_ramps_from_the_marker_folio_over_consecutive_windows),
		cmocka_unit_test(ra_order_6_17_ramps_0_2_4_6_6_in_64_page_windows),
		cmocka_unit_test(ra_order_6_17_ramps_from_ra_order_not_the_marker_folio),
		cmocka_unit_test(ra_order_6_17_sync_miss_restarts_at_0_and_async_end_is_aligned),
		cmocka_unit_test(profiles_keep_ra_order_in_state_from_6_17),
		cmocka_unit_test(cached_read_counts_each_folio_once),
		cmocka_unit_test(write_folio_order_follows_the_write_length_and_alignment),
		cmocka_unit_test(write_folio_falls_back_one_order_at_a_time),
		cmocka_unit_test(profiles_give_xfs_large_folio_writes_from_6_6),
		cmocka_unit_test(sync_miss_after_hits_restarts_at_order_2),
		cmocka_unit_test(order_1_becomes_order_0),
		cmocka_unit_test(window_under_4_pages_uses_order_0_only),
		cmocka_unit_test(fragmented_zone_fails_the_folio_and_fills_the_window_with_order_0),
		cmocka_unit_test(folio_pages_are_one_block_and_merge_back_when_all_are_evicted),
		cmocka_unit_test(folio_charges_2_to_the_order_pages_to_the_mappings_memcg),
		cmocka_unit_test(folio_over_a_cached_page_is_refused_and_changes_nothing),
		cmocka_unit_test(ra_order_falls_back_to_order_0_after_a_cached_page),
		cmocka_unit_test(folio_over_shadows_refaults_each_page),
		cmocka_unit_test(mapping_without_large_folios_reads_order_0_pages),
		cmocka_unit_test(profiles_give_xfs_large_folios_from_6_1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
