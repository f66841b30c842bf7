/*
 * test_pagecache.c - page insertion, two-touch activation, eviction with
 * shadows and refault activation, invalidation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memory.h"
#include "model/pagecache.h"
#include "model/workingset.h"

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_pagecache pc;
	struct cp_alloc_ctx ctx;
};

static struct fixture *fixture_new(unsigned batch, bool ws_flag)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = 1 << 20, .min_free_kbytes = 1024, .watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536, .memcg_reclaim_retries = 5,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 2, .lru_add_batch = batch,
					  .workingset_flag = ws_flag };

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
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

static uint8_t flags(struct fixture *f, uint32_t id, uint32_t index)
{
	return f->pc.pages[cp_mapping_slot(&f->pc, id, index)].flags;
}

/* lru_cache_add (4.11 PAGEVEC_SIZE = 14): pages reach the LRU only when
 * the per-CPU vector fills; then all 14 go to the inactive head in order,
 * so the last one added is the head and the first the tail. */
static void insertion_waits_for_a_full_per_cpu_batch(void **state)
{
	struct fixture *f = fixture_new(14, false);
	uint32_t id, i;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 64, NULL, NULL, &id), 0);
	for (i = 0; i < 13; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 0);
	assert_int_equal(f->pc.mappings[id].nrpages, 13);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 13, &f->ctx), 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 14);
	assert_int_equal(f->pc.lruvec.lists[CP_LRU_INACTIVE_FILE].tail, cp_mapping_slot(&f->pc, id, 0));
	assert_int_equal(f->pc.lruvec.lists[CP_LRU_INACTIVE_FILE].head, cp_mapping_slot(&f->pc, id, 13));
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 14);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* mark_page_accessed two-touch rule (ref §7.2): inactive unreferenced ->
 * referenced; inactive referenced -> active (pgactivate, referenced
 * cleared, workingset clock +1); active unreferenced -> referenced;
 * active referenced -> nothing. */
static void mark_accessed_promotes_on_second_touch(void **state)
{
	struct fixture *f = fixture_new(1, false);
	uint32_t id, slot;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 4, NULL, NULL, &id), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 0, &f->ctx), 0);
	slot = cp_mapping_slot(&f->pc, id, 0);
	assert_int_equal(flags(f, id, 0) & (CP_PG_ACTIVE | CP_PG_REFERENCED), 0);
	cp_mark_page_accessed(&f->pc, slot, 0);
	assert_int_equal(flags(f, id, 0) & (CP_PG_ACTIVE | CP_PG_REFERENCED), CP_PG_REFERENCED);
	cp_mark_page_accessed(&f->pc, slot, 0);
	assert_int_equal(flags(f, id, 0) & (CP_PG_ACTIVE | CP_PG_REFERENCED), CP_PG_ACTIVE);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 1);
	assert_int_equal(f->vs.v[CP_VM_PGACTIVATE], 1);
	assert_int_equal(f->pc.lruvec.nonresident_age, 1);
	cp_mark_page_accessed(&f->pc, slot, 0);
	assert_int_equal(flags(f, id, 0) & (CP_PG_ACTIVE | CP_PG_REFERENCED),
			 CP_PG_ACTIVE | CP_PG_REFERENCED);
	cp_mark_page_accessed(&f->pc, slot, 0);
	assert_int_equal(f->vs.v[CP_VM_PGACTIVATE], 1);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* __lru_cache_activate_page: a page activated while still in the per-CPU
 * vector is only marked active, and lands on the active list at drain. */
static void activation_in_batch_lands_on_active_list(void **state)
{
	struct fixture *f = fixture_new(14, false);
	uint32_t id, slot;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 4, NULL, NULL, &id), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 0, &f->ctx), 0);
	slot = cp_mapping_slot(&f->pc, id, 0);
	cp_mark_page_accessed(&f->pc, slot, 0);
	cp_mark_page_accessed(&f->pc, slot, 0);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 0);
	cp_lru_add_drain_all(&f->pc);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_ACTIVE_FILE), 1);
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 0);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* Take the inactive tail off the LRU and evict it, as reclaim does. */
static uint32_t evict_tail(struct fixture *f)
{
	uint32_t slot = cp_lru_tail(&f->pc, CP_LRU_INACTIVE_FILE);

	cp_lru_del(&f->pc, slot);
	cp_pagecache_evict(&f->pc, slot);
	return slot;
}

/* workingset 4.11: eviction stamps inactive_age after incrementing it;
 * a refault with distance <= active file pages is activated (ref §8.1).
 * Setup: pages 0 and 1 activated (clock 2), pages 2..11 inactive.
 * Evict pages 2, 3, 4: stamps 3, 4, 5, clock 5.
 * Refault page 2: distance 5 - 3 = 2 <= 2 active -> active; the refault
 * activation ages the clock to 6. Refault page 4: 6 - 5 = 1 <= 3 ->
 * active, clock 7. Evict page 5 (stamp 8) and five more: clock 13;
 * refault page 5: 13 - 8 = 5 > 4 active pages -> inactive. */
static void refault_activates_within_active_list_distance(void **state)
{
	struct fixture *f = fixture_new(1, false);
	uint32_t id, i;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, NULL, NULL, &id), 0);
	for (i = 0; i < 2; i++) {
		uint32_t s = cp_mapping_slot(&f->pc, id, i);

		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
		cp_mark_page_accessed(&f->pc, s, 0);
		cp_mark_page_accessed(&f->pc, s, 0);
	}
	assert_int_equal(f->pc.lruvec.nonresident_age, 2);
	for (i = 2; i < 12; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
	/* inactive tail is page 2 (first added after the active ones) */
	assert_int_equal(evict_tail(f), cp_mapping_slot(&f->pc, id, 2));
	assert_int_equal(f->pc.pages[cp_mapping_slot(&f->pc, id, 2)].shadow, 3);
	evict_tail(f); /* page 3, stamp 4 */
	evict_tail(f); /* page 4, stamp 5 */
	assert_int_equal(f->pc.mappings[id].nrshadows, 3);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 2, &f->ctx), 0);
	assert_true(flags(f, id, 2) & CP_PG_ACTIVE);
	assert_int_equal(f->pc.lruvec.nonresident_age, 6);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 4, &f->ctx), 0);
	assert_true(flags(f, id, 4) & CP_PG_ACTIVE); /* distance 6-5 = 1 <= 3 */
	assert_int_equal(f->pc.lruvec.nonresident_age, 7);
	/* evict page 5: stamp 8; five more evictions (6..10): clock 13;
	 * distance 5 > 4 active pages -> stays inactive */
	assert_int_equal(evict_tail(f), cp_mapping_slot(&f->pc, id, 5));
	for (i = 0; i < 5; i++)
		evict_tail(f);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 5, &f->ctx), 0);
	assert_false(flags(f, id, 5) & CP_PG_ACTIVE);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_REFAULT], 3);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_ACTIVATE], 2);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* 6.1 workingset_eviction stamps before aging: first eviction at clock 0
 * stores 0 and leaves the clock at 1. A shadow of a PG_workingset page
 * refaulting within distance is a restore. */
static void v61_stamp_precedes_aging_and_restores_workingset(void **state)
{
	struct fixture *f = fixture_new(1, true);
	uint32_t id, slot;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 4, NULL, NULL, &id), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 0, &f->ctx), 0);
	slot = cp_mapping_slot(&f->pc, id, 0);
	f->pc.pages[slot].flags |= CP_PG_WORKINGSET; /* as if deactivated once */
	evict_tail(f);
	assert_int_equal(f->pc.pages[slot].shadow, 0);
	assert_int_equal(f->pc.lruvec.nonresident_age, 1);
	/* distance 1 > 0 active pages: not activated, no restore */
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 0, &f->ctx), 0);
	assert_false(flags(f, id, 0) & CP_PG_ACTIVE);
	assert_int_equal(f->vs.v[CP_VM_WORKINGSET_RESTORE], 0);
	fixture_free(f);
}

/* invalidate_mapping_pages leaves no shadows; truncate drops shadows. */
static void invalidate_drops_pages_without_shadows(void **state)
{
	struct fixture *f = fixture_new(14, false);
	uint32_t id, i;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 32, NULL, NULL, &id), 0);
	for (i = 0; i < 20; i++)
		assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, i, &f->ctx), 0);
	evict_tail(f);
	assert_int_equal(cp_invalidate_mapping_pages(&f->pc, id), 19);
	assert_int_equal(f->pc.mappings[id].nrpages, 0);
	assert_int_equal(f->pc.mappings[id].nrshadows, 1);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 0);
	assert_false(cp_mapping_shrinkable(&f->pc, id));
	assert_int_equal(cp_truncate_inode_pages_final(&f->pc, id), 0);
	assert_true(cp_mapping_shrinkable(&f->pc, id));
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* A failed allocation (memcg limit with nothing to reclaim) changes
 * nothing. */
static void failed_allocation_leaves_cache_unchanged(void **state)
{
	struct fixture *f = fixture_new(1, false);
	struct cp_memcg cg;
	uint32_t id;

	(void)state;
	cp_memcg_init(&cg, 1, 2);
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 4, &cg, NULL, &id), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 0, &f->ctx), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 1, &f->ctx), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 2, &f->ctx), -CP_ENOSPC);
	assert_int_equal(f->pc.mappings[id].nrpages, 2);
	assert_int_equal(flags(f, id, 2), 0);
	assert_int_equal(cg.usage_pages, 2);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

static void add_mapping_survives_allocation_failure(void **state)
{
	struct fixture *f = fixture_new(1, false);
	uint32_t id = 77;

	(void)state;
	cp_alloc_fail_after(0);
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 4, NULL, NULL, &id), -CP_ENOMEM);
	cp_alloc_fail_after(-1);
	assert_int_equal(id, 77);
	assert_int_equal(f->pc.nr_mappings, 0);
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 4, NULL, NULL, &id), 0);
	fixture_free(f);
}

/* The slots of an LRU list from its head (at most max). */
static unsigned lru_slots(struct fixture *f, enum cp_lru_kind kind, uint32_t *slots, unsigned max)
{
	uint32_t s = f->pc.lruvec.lists[kind].head;
	unsigned n = 0;

	for (; s != CP_NIL && n < max; s = f->pc.pages[s].next)
		slots[n++] = s;
	return n;
}

/*
 * split_folio() -> __split_huge_page() of a resident order-2 folio on
 * the inactive list, referenced (one folio_mark_accessed: PG_referenced
 * on the folio, every page of it in the model): each page becomes an
 * order-0 folio (order 0, its own head) with the folio's flags
 * (RESIDENT, LRU, REFERENCED) and pfn, and stays where it was on the
 * list (lru_add_page_tail() puts the tails next to the head): page 1,
 * the folio's four pages, page 0 from the head, as before; 6 pages on
 * the list, 6 resident. The split returns the folio's 4 pages; splitting
 * one of them again (already order 0) returns 1 and changes nothing.
 */
static void split_folio_keeps_flags_and_lru_place(void **state)
{
	struct fixture *f = fixture_new(1, false);
	uint32_t id, head, i, before[8], after[8], pfn;
	unsigned n;

	(void)state;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 8, NULL, NULL, &id), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 0, &f->ctx), 0);
	assert_int_equal(cp_add_folio_to_page_cache_lru(&f->pc, id, 4, 2, &f->ctx), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, id, 1, &f->ctx), 0);
	head = cp_mapping_slot(&f->pc, id, 4);
	pfn = f->pc.pages[head].pfn;
	cp_mark_page_accessed(&f->pc, head + 2, 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(f->pc.pages[head + i].order, 2);
		assert_int_equal(flags(f, id, 4 + i), CP_PG_RESIDENT | CP_PG_LRU | CP_PG_REFERENCED);
	}
	n = lru_slots(f, CP_LRU_INACTIVE_FILE, before, 8);
	assert_int_equal(n, 6);
	assert_int_equal(before[0], cp_mapping_slot(&f->pc, id, 1));
	assert_int_equal(before[5], cp_mapping_slot(&f->pc, id, 0));

	assert_int_equal(cp_pagecache_split_folio(&f->pc, head + 1), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(f->pc.pages[head + i].order, 0);
		assert_int_equal(cp_folio_head(&f->pc, head + i), head + i);
		assert_int_equal(cp_folio_nr_pages(&f->pc, head + i), 1);
		assert_int_equal(flags(f, id, 4 + i), CP_PG_RESIDENT | CP_PG_LRU | CP_PG_REFERENCED);
		assert_int_equal(f->pc.pages[head + i].pfn, pfn + i);
		assert_int_equal(cp_pagecache_pfn_slot(&f->pc, pfn + i), head + i);
	}
	assert_int_equal(lru_slots(f, CP_LRU_INACTIVE_FILE, after, 8), 6);
	assert_memory_equal(after, before, 6 * sizeof(before[0]));
	assert_int_equal(cp_lru_size(&f->pc, CP_LRU_INACTIVE_FILE), 6);
	assert_int_equal(f->pc.mappings[id].nrpages, 6);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 6);
	assert_int_equal(cp_pagecache_split_folio(&f->pc, head + 1), 1);
	assert_int_equal(f->pc.pages[head + 1].order, 0);
	assert_true(cp_pagecache_check(&f->pc));
	assert_true(cp_mem_check(&f->mem));
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(insertion_waits_for_a_full_per_cpu_batch),
		cmocka_unit_test(mark_accessed_promotes_on_second_touch),
		cmocka_unit_test(activation_in_batch_lands_on_active_list),
		cmocka_unit_test(refault_activates_within_active_list_distance),
		cmocka_unit_test(v61_stamp_precedes_aging_and_restores_workingset),
		cmocka_unit_test(invalidate_drops_pages_without_shadows),
		cmocka_unit_test(failed_allocation_leaves_cache_unchanged),
		cmocka_unit_test(add_mapping_survives_allocation_failure),
		cmocka_unit_test(split_folio_keeps_flags_and_lru_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
