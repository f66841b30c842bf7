/*
 * test_folio_lru.c - a large folio is one LRU entry (6.1 mm/vmscan.c
 * isolate_lru_folios(), shrink_active_list(); mm/swap.c
 * folio_mark_accessed(), folio_activate(); mm/filemap.c filemap_read()'s
 * pos_same_folio() and __filemap_add_folio()'s shadow; mm/workingset.c
 * workingset_refault(), workingset_eviction()).
 *
 * Zone: 16384 pages (16 free order-10 blocks), min_free_kbytes 128: min
 * 32, low 48, high 64, so every insertion below is served from free
 * pages without reclaim. Profile linux-6.1: workingset_flag (the
 * eviction stamp is the clock before aging; deactivation sets
 * PG_workingset). One CPU, add batch of 15 entries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "model/filemap.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memory.h"
#include "model/pagecache.h"
#include "model/profile.h"
#include "model/vmscan.h"

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_pagecache pc;
	struct cp_alloc_ctx ctx;
	struct cp_vmscan vm;
	struct cp_scan_control sc;
};

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = 16384,
		.min_free_kbytes = 128,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 262144,
		.memcg_reclaim_retries = 16,
		.max_reclaim_retries = 16,
		.watermark_boost_factor = 15000,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 1, .lru_add_batch = 15,
					  .workingset_flag = true };

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(cp_pagecache_init(&f->pc, &pp, &f->mem, &f->vs), 0);
	f->ctx.gfp = CP_GFP_NOFS;
	f->vm.pc = &f->pc;
	f->vm.vmstat = &f->vs;
	f->vm.profile = cp_kernel_profile_find("linux-6.1");
	assert_non_null(f->vm.profile);
	assert_true(f->vm.profile->workingset_flag);
	f->sc.priority = CP_DEF_PRIORITY;
	f->sc.nr_to_reclaim = CP_SWAP_CLUSTER_MAX;
	f->sc.ctx = &f->ctx;
	return f;
}

static void fixture_free(struct fixture *f)
{
	cp_pagecache_release(&f->pc);
	cp_mem_release(&f->mem);
	free(f);
}

static uint32_t new_file(struct fixture *f, uint32_t nr)
{
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, nr, NULL, NULL, &id), 0);
	return id;
}

/* Order-0 pages [index, index + nr) of id. */
static void add_pages(struct fixture *f, uint32_t id, uint32_t index, uint32_t nr)
{
	uint32_t i;

	for (i = index; i < index + nr; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
}

static uint32_t slot_of(struct fixture *f, uint32_t id, uint32_t index)
{
	return cp_mapping_slot(&f->pc, id, index);
}

/* Every page of [index, index + nr) has all of `set` in its flags. */
static void assert_pages_have(struct fixture *f, uint32_t id, uint32_t index, uint32_t nr,
			      uint8_t set)
{
	uint32_t i;

	for (i = index; i < index + nr; i++)
		assert_int_equal(f->pc.pages[slot_of(f, id, i)].flags & set, set);
}

static void assert_pages_lack(struct fixture *f, uint32_t id, uint32_t index, uint32_t nr,
			      uint8_t clear)
{
	uint32_t i;

	for (i = index; i < index + nr; i++)
		assert_int_equal(f->pc.pages[slot_of(f, id, i)].flags & clear, 0);
}

/*
 * isolate_lru_folios(): a 512-page folio at the inactive tail, then one
 * order-0 page at the head. A 32-page batch takes the folio whole
 * (scan 0 < 32: take it, scan = 512 >= 32: stop) and counts 512
 * scanned; the order-0 page stays. Eviction: one stamp for the folio
 * (clock 0 before aging, 6.1), the clock ages by 512; 512 shadows.
 */
static void test_isolate_lru_folios_takes_whole_folio_counts_nr_pages(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 1024), i;
	uint64_t n;

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 9, &f->ctx), 0);
	add_pages(f, a, 512, 1);
	cp_lru_add_drain_all(&f->pc);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 513);
	n = cp_shrink_inactive_list(&f->vm, CP_SWAP_CLUSTER_MAX, &f->sc);
	assert_int_equal(n, 512);
	assert_int_equal(f->sc.nr_scanned, 512);
	assert_int_equal(f->vs.v[CP_VM_PGSCAN_DIRECT], 512);
	assert_int_equal(f->vs.v[CP_VM_PGSTEAL_DIRECT], 512);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 1);
	assert_true(f->pc.pages[slot_of(f, a, 512)].flags & CP_PG_RESIDENT);
	assert_int_equal(f->pc.mappings[a].nrpages, 1);
	assert_int_equal(f->pc.mappings[a].nrshadows, 512);
	for (i = 0; i < 512; i++) {
		const struct cp_page *p = &f->pc.pages[slot_of(f, a, i)];

		assert_int_equal(p->flags & CP_PG_SHADOW, CP_PG_SHADOW);
		assert_int_equal(p->shadow, 0);
		assert_int_equal(p->order, 0);
	}
	assert_int_equal(f->pc.lruvec.nonresident_age, 512);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * shrink_folio_list() cannot free a folio the read() in progress holds
 * (folio_trylock() fails on readahead's lock, or __remove_mapping()
 * cannot freeze the reference filemap_get_read_batch() took): keep, and
 * move_folios_to_lru() puts it back at the head of the inactive list.
 * Pages 0 - 63 inactive, page 0 at the tail, held: a 32-page batch
 * isolates pages 0 - 31, frees 1 - 31 (pgscan 32, pgsteal 31, reclaimed
 * 31) and page 0 stays resident, on the inactive head. Once the read()
 * returns the hold is gone and page 0 is reclaimable again.
 */
static void test_shrink_inactive_list_keeps_a_folio_the_read_holds(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 64);
	uint32_t held = slot_of(f, a, 0);
	uint64_t n;

	(void)state;
	add_pages(f, a, 0, 64);
	cp_lru_add_drain_all(&f->pc);
	assert_int_equal(cp_lru_tail(&f->pc, CP_LRU_INACTIVE_FILE), held);
	cp_pagecache_read_begin(&f->pc, a);
	cp_pagecache_hold_folio(&f->pc, held);
	n = cp_shrink_inactive_list(&f->vm, CP_SWAP_CLUSTER_MAX, &f->sc);
	assert_int_equal(n, 31);
	assert_int_equal(f->sc.nr_scanned, 32);
	assert_int_equal(f->vs.v[CP_VM_PGSCAN_DIRECT], 32);
	assert_int_equal(f->vs.v[CP_VM_PGSTEAL_DIRECT], 31);
	assert_pages_have(f, a, 0, 1, CP_PG_RESIDENT | CP_PG_LRU);
	assert_pages_lack(f, a, 0, 1, CP_PG_ISOLATED | CP_PG_ACTIVE);
	assert_pages_have(f, a, 1, 31, CP_PG_SHADOW);
	assert_int_equal(f->pc.lruvec.lists[CP_LRU_INACTIVE_FILE].head, held);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 33);
	cp_pagecache_read_end(&f->pc);
	assert_false(cp_folio_held(&f->pc, held));
	f->sc.nr_scanned = 0;
	n = cp_shrink_inactive_list(&f->vm, 64, &f->sc);
	assert_int_equal(n, 32);
	n = cp_shrink_inactive_list(&f->vm, 64, &f->sc);
	assert_int_equal(n, 1);
	assert_pages_have(f, a, 0, 1, CP_PG_SHADOW);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * A folio inserted while a read() of its mapping runs is held
 * (readahead's folio lock) until the read() returns; one of another
 * mapping is not. A held folio is not compaction's to move
 * (migrate_folio() fails on the extra reference):
 * cp_pagecache_pfn_folio_migratable() refuses it while held, takes it
 * after.
 */
static void test_read_holds_the_folios_it_inserts_until_it_returns(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 8), b = new_file(f, 8);
	unsigned order;

	(void)state;
	cp_pagecache_read_begin(&f->pc, a);
	add_pages(f, a, 3, 1);
	add_pages(f, b, 3, 1);
	cp_lru_add_drain_all(&f->pc);
	assert_true(cp_folio_held(&f->pc, slot_of(f, a, 3)));
	assert_false(cp_folio_held(&f->pc, slot_of(f, b, 3)));
	assert_false(cp_pagecache_pfn_folio_migratable(&f->pc, f->pc.pages[slot_of(f, a, 3)].pfn,
							&order));
	assert_true(cp_pagecache_pfn_folio_migratable(&f->pc, f->pc.pages[slot_of(f, b, 3)].pfn,
						       &order));
	cp_pagecache_read_end(&f->pc);
	assert_false(cp_folio_held(&f->pc, slot_of(f, a, 3)));
	assert_true(cp_pagecache_pfn_folio_migratable(&f->pc, f->pc.pages[slot_of(f, a, 3)].pfn,
						       &order));
	fixture_free(f);
}

/*
 * folio_mark_accessed() twice on one page of a 512-page folio: the
 * first sets PG_referenced on the folio, the second activates it: all
 * 512 pages move to the active list together (pgactivate 512, the
 * workingset clock +512) and stay neighbours (cp_pagecache_check walks
 * the lists: each folio a run of exactly its pages). The order-0 page
 * added after it stays inactive.
 */
static void test_folio_activate_moves_whole_folio_contiguous(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 1024);

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 9, &f->ctx), 0);
	add_pages(f, a, 512, 1);
	cp_lru_add_drain_all(&f->pc);
	cp_mark_page_accessed(&f->pc, slot_of(f, a, 100), 0);
	assert_pages_have(f, a, 0, 512, CP_PG_REFERENCED);
	assert_pages_lack(f, a, 0, 512, CP_PG_ACTIVE);
	cp_mark_page_accessed(&f->pc, slot_of(f, a, 300), 0);
	assert_pages_have(f, a, 0, 512, CP_PG_ACTIVE | CP_PG_LRU);
	assert_pages_lack(f, a, 0, 512, CP_PG_REFERENCED);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 512);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 1);
	assert_int_equal(f->vs.v[CP_VM_PGACTIVATE], 512);
	assert_int_equal(f->pc.lruvec.nonresident_age, 512);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * shrink_active_list(): a 512-page active folio is isolated whole by a
 * 32-page request and deactivated as a unit: 512 pages to the inactive
 * head with PG_workingset (6.1), pgdeactivate and pgrefill 512.
 */
static void test_shrink_active_list_deactivates_whole_folio(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 512);
	uint64_t n;

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 9, &f->ctx), 0);
	cp_lru_add_drain_all(&f->pc);
	cp_mark_page_accessed(&f->pc, slot_of(f, a, 0), 0);
	cp_mark_page_accessed(&f->pc, slot_of(f, a, 0), 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 512);
	n = cp_shrink_active_list(&f->vm, CP_SWAP_CLUSTER_MAX, &f->sc);
	assert_int_equal(n, 512);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 512);
	assert_pages_have(f, a, 0, 512, CP_PG_WORKINGSET | CP_PG_LRU);
	assert_pages_lack(f, a, 0, 512, CP_PG_ACTIVE | CP_PG_ISOLATED);
	assert_int_equal(f->vs.v[CP_VM_PGDEACTIVATE], 512);
	assert_int_equal(f->vs.v[CP_VM_PGREFILL], 512);
	assert_int_equal(f->pc.pages[slot_of(f, a, 511)].order, 9);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * filemap_read(): folio_mark_accessed() once per read() per folio, and
 * not for a read() whose first folio is the one the previous read()
 * ended in (pos_same_folio(ki_pos, prev_pos - 1)). File of 1024 pages,
 * two 512-page folios F0 [0, 512) and F1 [512, 1024), all cached.
 * Pass 1, four 256-page (1 MiB) reads: read 0-255 marks F0 (referenced);
 * 256-511 starts in F0, where the last read ended (255): not marked;
 * 512-767 marks F1; 768-1023 starts in F1: not marked. Nothing is
 * activated in one pass (marking per page would activate both folios
 * on their second read).
 */
static void test_filemap_read_pos_same_folio_marks_once_per_pass(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t a = new_file(f, 1024), i;

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 9, &f->ctx), 0);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 512, 9, &f->ctx), 0);
	cp_lru_add_drain_all(&f->pc);
	for (i = 0; i < 1024; i += 256) {
		assert_int_equal(cp_filemap_read(&f->pc, a, i, 256, 256, 1, &ra, &f->ctx, &res), 0);
		assert_int_equal(res.nr_cached_pages, 256);
	}
	assert_int_equal(f->vs.v[CP_VM_PGACTIVATE], 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 0);
	assert_pages_have(f, a, 0, 1024, CP_PG_REFERENCED);
	fixture_free(f);
}

/*
 * The next pass: the read at 0 starts in F0 while the previous read()
 * ended in F1 (prev_pos - 1 = page 1023): F0 is marked again, and being
 * referenced it is activated whole (pgactivate 512); the read at 256
 * starts in F0 again: no second marking.
 */
static void test_filemap_read_next_pass_activates_folio(void **state)
{
	struct fixture *f = fixture_new();
	struct cp_file_ra_state ra = { 0 };
	struct cp_read_result res;
	uint32_t a = new_file(f, 1024), i;

	(void)state;
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 9, &f->ctx), 0);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 512, 9, &f->ctx), 0);
	cp_lru_add_drain_all(&f->pc);
	for (i = 0; i < 1024; i += 256)
		assert_int_equal(cp_filemap_read(&f->pc, a, i, 256, 256, 1, &ra, &f->ctx, &res), 0);
	assert_int_equal(cp_filemap_read(&f->pc, a, 0, 256, 256, 1, &ra, &f->ctx, &res), 0);
	assert_int_equal(f->vs.v[CP_VM_PGACTIVATE], 512);
	assert_pages_have(f, a, 0, 512, CP_PG_ACTIVE);
	assert_pages_lack(f, a, 0, 512, CP_PG_REFERENCED);
	assert_int_equal(cp_filemap_read(&f->pc, a, 256, 256, 256, 1, &ra, &f->ctx, &res), 0);
	/* marked again, it would be active+referenced */
	assert_pages_lack(f, a, 0, 512, CP_PG_REFERENCED);
	assert_pages_lack(f, a, 512, 512, CP_PG_ACTIVE);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * workingset_refault() once per folio, with the shadow
 * __filemap_add_folio() finds last in the folio's range (the highest
 * index that has one). B: 100 order-0 pages, activated (clock 100,
 * active 100). A: 512 order-0 pages at [0, 512), all evicted oldest
 * first: index i stamped 100 + i (6.1: the clock before aging), clock
 * 612. A's range is read back as one 512-page folio: the shadow of
 * index 511 (stamp 611) gives distance 612 - 611 = 1 <= 100 active:
 * the whole folio is activated (per page, only indexes 412..511, with
 * distance <= 100, would be). vmstat counts folio pages: refault 512,
 * activate 512; clock 612 + 512 = 1124.
 */
static void test_workingset_refault_one_decision_per_folio(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t b = new_file(f, 100), a = new_file(f, 512), i;
	uint64_t n = 0;

	(void)state;
	add_pages(f, b, 0, 100);
	cp_lru_add_drain_all(&f->pc);
	for (i = 0; i < 100; i++) {
		cp_mark_page_accessed(&f->pc, slot_of(f, b, i), 0);
		cp_mark_page_accessed(&f->pc, slot_of(f, b, i), 0);
	}
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 100);
	assert_int_equal(f->pc.lruvec.nonresident_age, 100);
	add_pages(f, a, 0, 512);
	cp_lru_add_drain_all(&f->pc);
	while (n < 512)
		n += cp_shrink_inactive_list(&f->vm, CP_SWAP_CLUSTER_MAX, &f->sc);
	assert_int_equal(n, 512);
	assert_int_equal(f->pc.pages[slot_of(f, a, 0)].shadow, 100);
	assert_int_equal(f->pc.pages[slot_of(f, a, 511)].shadow, 611);
	assert_int_equal(f->pc.lruvec.nonresident_age, 612);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 0, 9, &f->ctx), 0);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_REFAULT], 512);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_ACTIVATE], 512);
	assert_int_equal(f->pc.lruvec.nonresident_age, 1124);
	assert_pages_have(f, a, 0, 512, CP_PG_ACTIVE | CP_PG_RESIDENT);
	assert_int_equal(f->pc.mappings[a].nrshadows, 0);
	cp_lru_add_drain_all(&f->pc);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 612);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * folio_add_lru(): an order-0 page is one entry of the per-CPU batch
 * (6.1 folio_batch of 15 folios): 14 pages stay in the batch, the 15th
 * fills it and all 15 reach the LRU.
 */
static void test_folio_add_lru_small_pages_wait_for_a_full_batch(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 64), i;

	(void)state;
	for (i = 0; i < 14; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, a, i, &f->ctx), 0);
	assert_int_equal(f->pc.batches[0].nr, 14);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, a, 14, &f->ctx), 0);
	assert_int_equal(f->pc.batches[0].nr, 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 15);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/*
 * folio_batch_add_and_move(): a large folio is never left in the batch
 * (6.1 `!folio_test_large(folio)`, 6.17+ folio_may_be_lru_cached()): 3
 * order-0 pages wait in the batch; an order-2 folio then moves the whole
 * batch, so all 7 pages are on the LRU, the folio nearest the head.
 */
static void test_folio_add_lru_large_folio_moves_the_batch(void **state)
{
	struct fixture *f = fixture_new();
	uint32_t a = new_file(f, 64), i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, a, i, &f->ctx), 0);
	assert_int_equal(f->pc.batches[0].nr, 3);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, a, 4, 2, &f->ctx), 0);
	assert_int_equal(f->pc.batches[0].nr, 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 7);
	/* the batch moved in order: page 0 deepest, the folio at the head */
	assert_int_equal(cp_lru_tail(&f->pc, CP_LRU_INACTIVE_FILE), f->pc.mappings[a].base + 0);
	assert_int_equal(cp_folio_head(&f->pc, f->pc.lruvec.lists[CP_LRU_INACTIVE_FILE].head),
			 f->pc.mappings[a].base + 4);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isolate_lru_folios_takes_whole_folio_counts_nr_pages),
		cmocka_unit_test(test_shrink_inactive_list_keeps_a_folio_the_read_holds),
		cmocka_unit_test(test_read_holds_the_folios_it_inserts_until_it_returns),
		cmocka_unit_test(test_folio_activate_moves_whole_folio_contiguous),
		cmocka_unit_test(test_shrink_active_list_deactivates_whole_folio),
		cmocka_unit_test(test_filemap_read_pos_same_folio_marks_once_per_pass),
		cmocka_unit_test(test_filemap_read_next_pass_activates_folio),
		cmocka_unit_test(test_workingset_refault_one_decision_per_folio),
		cmocka_unit_test(test_folio_add_lru_small_pages_wait_for_a_full_batch),
		cmocka_unit_test(test_folio_add_lru_large_folio_moves_the_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
