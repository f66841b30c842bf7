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
 * (cp_file_ra_state.markers, readahead.c): mm/readahead.c's own windows
 * - page_cache_sync_ra() sized from the request and the cached history,
 * PG_readahead at start + size - async_size, page_cache_async_ra() when
 * the reader reaches it, ra->order 0 after a sync miss and + 2 per
 * continuing window, whose end is trimmed to that order's alignment.
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
#include "model/readahead.h"
#include "model/vmscan.h"

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

/* PG_readahead on the folio holding index (readahead.c). */
static bool marked(const struct fixture *f, uint32_t id, uint32_t index)
{
	uint32_t slot = cp_mapping_slot(&f->pc, id, index);

	return cp_folio_test_readahead(&f->pc, cp_folio_head(&f->pc, slot));
}

static bool resident(const struct fixture *f, uint32_t id, uint32_t index)
{
	return f->pc.pages[cp_mapping_slot(&f->pc, id, index)].flags & CP_PG_RESIDENT;
}

static void add_pages(struct fixture *f, uint32_t id, uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
}

/*
 * 6.17+ page_cache_sync_ra() at the file's start (index 0), a 256-page
 * read() and ra_pages 640: get_init_ra_size(256, 640) is 640 (256 >
 * 640 / 4), async_size 640 - 256 = 384, ra->order 0: [0, 640) in
 * order-0 pages, PG_readahead on the page at 0 + 640 - 384 = 256, which
 * this read() does not reach. Every page copied is the window's.
 */
static void markers_sync_window_at_the_start_marks_the_page_after_the_request(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true };
	uint32_t id = new_file(f, 2000, true);
	struct cp_read_result res;

	(void)state;
	res = do_read(f, id, 0, 256, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 640);
	assert_int_equal(res.nr_cached_pages, 0);
	assert_int_equal(f->vs.v[CP_VM_RA_SYNC_CALLS], 1);
	assert_int_equal(f->vs.v[CP_VM_RA_ASYNC_CALLS], 0);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 0);
	assert_int_equal(ra.start, 0);
	assert_int_equal(ra.size, 640);
	assert_int_equal(ra.async_size, 384);
	assert_int_equal(ra.order, 0);
	assert_true(marked(f, id, 256));
	assert_false(marked(f, id, 0));
	assert_false(marked(f, id, 255));
	assert_false(marked(f, id, 639));
	fixture_free(f);
}

/*
 * Continuing the read above in 256-page read() calls (page_cache_async_ra
 * when the reader reaches the marked folio, before copying it):
 *  [256, 512): the mark at 256 is the expected round_down(0 + 640 - 384,
 *    1): start 640, size max(640, get_next_ra_size(640) = 640), order
 *    0 + 2, end 1280 already a multiple of 2^min(2, __ffs(640) = 7),
 *    async_size 640: [640, 1280) in 160 folios of 4, the mark on the
 *    window's first folio (640 + 640 - 640); pages 256..511 were cached
 *    before this read(), so they are cached reads.
 *  [512, 768): the mark at 640 is round_down(640, 4): [1280, 1920) at
 *    order 4, 40 folios of 16, marked at 1280.
 *  [768, 1280): no mark on the way, nothing read.
 *  [1280, 1536): order 6, [1920, 2560) cut at EOF (2000 pages): 64 @1920,
 *    then at 1984 orders 6 and 5 pass index 1999: 16 @1984.
 * Readahead stays one window ahead of the reader.
 */
static void markers_keep_readahead_a_window_ahead_and_ramp_the_order(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true };
	uint32_t id = new_file(f, 2000, true);
	struct cp_read_result res;

	(void)state;
	do_read(f, id, 0, 256, 640, &ra);
	res = do_read(f, id, 256, 256, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 640);
	assert_int_equal(res.nr_cached_pages, 256);
	assert_int_equal(f->vs.v[CP_VM_RA_ASYNC_CALLS], 1);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 160);
	assert_int_equal(ra.start, 640);
	assert_int_equal(ra.size, 640);
	assert_int_equal(ra.async_size, 640);
	assert_int_equal(ra.order, 2);
	assert_false(marked(f, id, 256));
	assert_true(marked(f, id, 640));
	assert_folio(f, id, 640, 2);
	assert_folio(f, id, 1276, 2);

	res = do_read(f, id, 512, 256, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 640);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 200);
	assert_int_equal(ra.order, 4);
	assert_false(marked(f, id, 640));
	assert_true(marked(f, id, 1280));
	assert_folio(f, id, 1280, 4);
	assert_false(resident(f, id, 1920));

	res = do_read(f, id, 768, 512, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 0);
	assert_int_equal(f->vs.v[CP_VM_RA_ASYNC_CALLS], 2);

	res = do_read(f, id, 1280, 256, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 80);
	assert_int_equal(ra.order, 6);
	assert_folio(f, id, 1920, 6);
	assert_folio(f, id, 1984, 4);
	assert_true(marked(f, id, 1920));
	assert_int_equal(f->vs.v[CP_VM_RA_SYNC_CALLS], 1);
	fixture_free(f);
}

/* The set-up of the next two tests: a 4000-page file with markers,
 * pages [60, 302) cached, the previous read() ended at 100; then a
 * read() of [100, 359), whose result is returned. */
static struct cp_read_result mid_read_miss(struct fixture *f, struct cp_file_ra_state *ra,
					   uint32_t *id)
{
	*ra = (struct cp_file_ra_state){ .markers = true, .prev_end = 100, .prev_read = true };
	*id = new_file(f, 4000, true);
	add_pages(f, *id, 60, 302);
	return do_read(f, *id, 100, 259, 640, ra);
}

/*
 * A miss in the middle of a read() (not next to where the previous one
 * ended) goes by the cached history: pages [60, 302) cached, the
 * previous read() ended at 100, a read() of [100, 359). The miss at 302
 * has 57 pages of the request left; page_cache_prev_miss() finds 59
 * missing: contig_count 242 > 57, so the window is [302, 302 +
 * min(242 + 57, 640)) = [302, 601) with async_size 1: the mark on its
 * last page, 600. ra->order 0: order-0 pages.
 */
static void markers_sync_miss_mid_read_sizes_the_window_from_the_cached_history(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra;
	uint32_t id;
	struct cp_read_result res;

	(void)state;
	res = mid_read_miss(f, &ra, &id);
	assert_int_equal(res.nr_cached_pages, 202);
	assert_int_equal(res.nr_inserted_pages, 299);
	assert_int_equal(ra.start, 302);
	assert_int_equal(ra.size, 299);
	assert_int_equal(ra.async_size, 1);
	assert_true(marked(f, id, 600));
	assert_false(marked(f, id, 302));
	assert_false(resident(f, id, 601));
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 0);
	fixture_free(f);
}

/*
 * The window above, then the reader reaches its mark (read() of [359,
 * 601)): expected round_down(302 + 299 - 1, 1) = 600, so start 601, size
 * max(299, get_next_ra_size(299) = 598), ra->order 2; the end 1199 is
 * trimmed to a multiple of 4: 1196, size 595, async_size 595. The walk
 * at order 2: 601 is odd (__ffs 0): an order-0 page, marked (601 + 595 -
 * 595); 602: __ffs 1, an order-1 folio (6.8+ has them); 148 folios of 4
 * from 604. A read() of [601, 602) reaches that mark: start 1196, size
 * max(595, 640) = 640, order 4, end 1836 trimmed to 1824 (size 628):
 * 1196 has __ffs 2, a folio of 4 (marked), then 39 of 16 from 1200.
 */
static void markers_async_window_end_is_trimmed_to_its_order(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra;
	uint32_t id;
	struct cp_read_result res;

	(void)state;
	mid_read_miss(f, &ra, &id);
	res = do_read(f, id, 359, 242, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 595);
	assert_int_equal(ra.start, 601);
	assert_int_equal(ra.size, 595);
	assert_int_equal(ra.async_size, 595);
	assert_int_equal(ra.order, 2);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 149);
	assert_false(marked(f, id, 600));
	assert_true(marked(f, id, 601));
	assert_int_equal(f->pc.pages[cp_mapping_slot(&f->pc, id, 601)].order, 0);
	assert_folio(f, id, 602, 1);
	assert_folio(f, id, 604, 2);
	assert_false(resident(f, id, 1196));

	res = do_read(f, id, 601, 1, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 628);
	assert_int_equal(ra.start, 1196);
	assert_int_equal(ra.size, 628);
	assert_int_equal(ra.order, 4);
	assert_true(marked(f, id, 1196));
	assert_folio(f, id, 1196, 2);
	assert_folio(f, id, 1200, 4);
	assert_folio(f, id, 1808, 4);
	assert_false(resident(f, id, 1824));
	fixture_free(f);
}

/*
 * page_cache_prev_miss() running past index 0 (the file cached from its
 * first page) doubles contig_count: [0, 100) cached, the previous read()
 * ended at 10, a read() of [10, 130) misses at 100 with 30 pages left:
 * contig 100, doubled 200 > 30, window min(200 + 30, 640) = 230 pages,
 * [100, 330), marked at 329.
 */
static void markers_file_cached_from_its_start_doubles_the_history(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true, .prev_end = 10, .prev_read = true };
	uint32_t id = new_file(f, 1000, true);
	struct cp_read_result res;

	(void)state;
	add_pages(f, id, 0, 100);
	res = do_read(f, id, 10, 120, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 230);
	assert_int_equal(ra.size, 230);
	assert_true(marked(f, id, 329));
	assert_false(resident(f, id, 330));
	fixture_free(f);
}

/*
 * A standalone small random read: [280, 300) cached, the previous read()
 * ended at 10, a read() of [280, 336) misses at 300 with 36 pages left
 * and only 20 cached before it (279 missing): contig_count 20 <= 36, so
 * do_page_cache_ra(36, 0) reads [300, 336) alone - no mark, and the
 * readahead state is not touched.
 */
static void markers_small_random_read_reads_the_request_alone(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true, .prev_end = 10, .prev_read = true };
	uint32_t id = new_file(f, 1000, true);
	struct cp_read_result res;
	uint32_t i;

	(void)state;
	add_pages(f, id, 280, 300);
	res = do_read(f, id, 280, 56, 640, &ra);
	assert_int_equal(res.nr_inserted_pages, 36);
	assert_int_equal(f->vs.v[CP_VM_RA_SYNC_CALLS], 1);
	assert_false(resident(f, id, 336));
	for (i = 280; i < 336; i++)
		assert_false(marked(f, id, i));
	assert_int_equal(ra.start, 0);
	assert_int_equal(ra.size, 0);
	fixture_free(f);
}

/*
 * A marked folio the state does not expect (another stream moved the
 * window): ra_pages 64, a read() of [0, 16) at the file's start:
 * get_init_ra_size(16, 64) = 32 (16 <= 64 / 4), async_size 16: [0, 32)
 * marked at 16. The state then points elsewhere (start 1000). A read()
 * of [16, 24) reaches the mark: round_down(1000 + 32 - 16, 1) is not 16,
 * so page_cache_next_miss(17) finds 32: start 32, size
 * get_next_ra_size(32 - 16 + 8 = 24, 64) = 48, order 2, end 80 a
 * multiple of 4: [32, 80) in 12 folios of 4, marked at 32.
 */
static void markers_marked_folio_without_valid_state_reads_from_the_next_hole(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true };
	uint32_t id = new_file(f, 400, true);
	struct cp_read_result res;

	(void)state;
	res = do_read(f, id, 0, 16, 64, &ra);
	assert_int_equal(res.nr_inserted_pages, 32);
	assert_true(marked(f, id, 16));
	ra.start = 1000;
	res = do_read(f, id, 16, 8, 64, &ra);
	assert_int_equal(res.nr_inserted_pages, 48);
	assert_int_equal(ra.start, 32);
	assert_int_equal(ra.size, 48);
	assert_int_equal(f->vs.v[CP_VM_RA_FOLIO_ALLOC], 12);
	assert_false(marked(f, id, 16));
	assert_true(marked(f, id, 32));
	assert_false(resident(f, id, 80));
	fixture_free(f);
}

/* A freed page's flags go with it: the marked page evicted and read
 * again by a plain insertion carries no PG_readahead. */
static void markers_leave_with_the_evicted_page(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true };
	uint32_t id = new_file(f, 2000, true);

	(void)state;
	do_read(f, id, 0, 256, 640, &ra);
	assert_true(marked(f, id, 256));
	evict_range(f, id, 256, 1);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 256, &f->ctx), 0);
	assert_false(marked(f, id, 256));
	fixture_free(f);
}

/* Direct reclaim that goes over the whole inactive list (try_to_free_pages
 * at its deepest), for the test below; then the process that squeezed
 * memory exits, so the rest of the read has room. */
struct reclaim_all {
	struct fixture *f;
	struct cp_vmscan vm;
	unsigned nr_calls;
	uint64_t taken; /* process pages that squeezed memory, given back */
};

static uint64_t reclaim_all_inactive(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr_pages)
{
	struct reclaim_all *r = priv;
	struct cp_scan_control sc = { .priority = 0, .nr_to_reclaim = UINT64_MAX, .ctx = ctx };
	uint64_t size = cp_lru_size(&r->f->pc, CP_LRU_INACTIVE_FILE), done = 0;

	(void)nr_pages;
	r->nr_calls++;
	/* the list once over: held folios come back to its head */
	while (sc.nr_scanned < size)
		done += cp_shrink_inactive_list(&r->vm, CP_SWAP_CLUSTER_MAX, &sc);
	if (r->taken) {
		cp_mem_free(&r->f->mem, CP_OWNER_PROCESS, r->taken, NULL);
		r->taken = 0;
	}
	return done;
}

/*
 * filemap_get_pages(): the read batch holds a reference on the folio
 * marked PG_readahead while page_cache_async_ra() allocates the next
 * window, and readahead's folios stay locked until the read is done, so
 * reclaim that allocation enters cannot take them (shrink_folio_list():
 * keep). A read of 0 - 255 leaves the marker on page 256; with free
 * memory under the min watermark, the read of 256 - 511 reaches it and
 * the async window's allocation reclaims directly - the whole inactive
 * list here: the marked folio stays and is copied, the read completes.
 */
static void markers_async_readahead_reclaim_keeps_the_folio_being_read(void **state)
{
	struct fixture *f = fixture_new(16384, 128);
	struct cp_file_ra_state ra = { .markers = true };
	struct reclaim_all r = { .f = f };
	struct cp_mem_hooks hooks = { .wake_kswapd = fake_wake_kswapd, .priv = f };
	uint32_t id = new_file(f, 2000, true);

	(void)state;
	r.vm.pc = &f->pc;
	r.vm.vmstat = &f->vs;
	r.vm.profile = cp_kernel_profile_find("linux-6.x");
	assert_non_null(r.vm.profile);
	do_read(f, id, 0, 256, 640, &ra);
	assert_true(marked(f, id, 256));
	cp_lru_add_drain_all(&f->pc);
	/* free pages 20, under min (32): the next allocation reclaims */
	r.taken = f->mem.free_pages - 20;
	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS, r.taken), 0);
	hooks.direct_reclaim = reclaim_all_inactive;
	hooks.priv = &r;
	cp_mem_set_hooks(&f->mem, &hooks);
	do_read(f, id, 256, 256, 640, &ra);
	assert_int_equal(r.nr_calls, 1);
	assert_true(resident(f, id, 256));
	assert_false(cp_folio_held(&f->pc, cp_folio_head(&f->pc, cp_mapping_slot(&f->pc, id, 256))));
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* The 6.17+ readahead came with 6.17: linux-6.x (6.18) has it,
 * linux-6.1 and linux-4.11 keep the position rule. */
static void profiles_follow_readahead_markers_from_6_17(void **state)
{
	(void)state;
	assert_false(cp_kernel_profile_find("linux-4.11")->readahead_markers);
	assert_false(cp_kernel_profile_find("linux-6.1")->readahead_markers);
	assert_true(cp_kernel_profile_find("linux-6.x")->readahead_markers);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ra_order_ramps_from_the_marker_folio_over_consecutive_windows),
		cmocka_unit_test(markers_sync_window_at_the_start_marks_the_page_after_the_request),
		cmocka_unit_test(markers_keep_readahead_a_window_ahead_and_ramp_the_order),
		cmocka_unit_test(markers_sync_miss_mid_read_sizes_the_window_from_the_cached_history),
		cmocka_unit_test(markers_async_window_end_is_trimmed_to_its_order),
		cmocka_unit_test(markers_file_cached_from_its_start_doubles_the_history),
		cmocka_unit_test(markers_small_random_read_reads_the_request_alone),
		cmocka_unit_test(markers_marked_folio_without_valid_state_reads_from_the_next_hole),
		cmocka_unit_test(markers_leave_with_the_evicted_page),
		cmocka_unit_test(markers_async_readahead_reclaim_keeps_the_folio_being_read),
		cmocka_unit_test(profiles_follow_readahead_markers_from_6_17),
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
