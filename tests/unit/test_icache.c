/*
 * test_icache.c - fs/inode.c rules: iput_final's I_REFERENCED per
 * policy, inode_add_lru conditions, lazy iget, inode_lru_isolate's
 * verdicts, inode steal (4.11) vs page-cache inodes off the LRU (6.1),
 * eviction, failures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fs_fixture.inc"

static int ext4_411_legacy(void **state)
{
	*state = fsfix_new("ext4", "linux-4.11", CP_POLICY_LEGACY, 100000);
	return 0;
}

static int ext4_411_patched(void **state)
{
	*state = fsfix_new("ext4", "linux-4.11", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int ext4_61_patched(void **state)
{
	*state = fsfix_new("ext4", "linux-6.1", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int teardown(void **state)
{
	fsfix_free(*state);
	return 0;
}

/* An inode numbered from the fs's counter, i_count 1. */
static struct cp_inode *new_inode(struct fsfix *f)
{
	struct cp_inode *inode;

	assert_int_equal(cp_icache_new_inode(&f->fs.ic, f->fs.next_ino++, &f->ctx, &inode), 0);
	return inode;
}

static uint64_t prune(struct fsfix *f, uint64_t nr)
{
	return cp_prune_icache_sb(&f->fs.ic, 0, nr, &f->ctx, false);
}

/* 4.11 iput_final sets I_REFERENCED on every final put: the first
 * shrinker visit rotates, the second evicts (ext4: freed). */
static void legacy_single_use_inode_survives_one_pass(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint64_t ino = inode->i_ino;

	cp_iput(&f->fs.ic, inode);
	assert_true(inode->i_state & CP_I_REFERENCED);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	assert_int_equal(prune(f, 1), 0);
	assert_non_null(cp_icache_find(&f->fs.ic, ino));
	fsfix_check(f);
	assert_int_equal(prune(f, 1), 1);
	assert_null(cp_icache_find(&f->fs.ic, ino));
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 1);
	assert_int_equal(f->vs.v[CP_VM_INODES_FREED], 1);
	fsfix_check(f);
}

/* 4.12+: iput_final adds without I_REFERENCED (list_lru_add returned
 * true), so the first visit evicts. */
static void patched_single_use_inode_evicted_on_first_pass(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint64_t ino = inode->i_ino;

	cp_iput(&f->fs.ic, inode);
	assert_false(inode->i_state & CP_I_REFERENCED);
	assert_int_equal(prune(f, 1), 1);
	assert_null(cp_icache_find(&f->fs.ic, ino));
	fsfix_check(f);
}

/* Released, taken again with iget (a hit: the LRU is not touched),
 * released again: list_lru_add reports "already there", so I_REFERENCED
 * is set under both policies and the inode survives one pass. */
static void reused_inode_survives_one_pass(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f), *again;
	enum cp_iget_result res;
	uint64_t ino = inode->i_ino;

	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_iget(&f->fs.ic, ino, &f->ctx, &again, &res), 0);
	assert_ptr_equal(again, inode);
	assert_int_equal(res, CP_IGET_HIT);
	assert_true(cp_list_linked(&inode->i_lru)); /* lazy LRU */
	cp_iput(&f->fs.ic, inode);
	assert_true(inode->i_state & CP_I_REFERENCED);
	assert_int_equal(prune(f, 1), 0);
	assert_non_null(cp_icache_find(&f->fs.ic, ino));
	assert_int_equal(prune(f, 1), 1);
	assert_null(cp_icache_find(&f->fs.ic, ino));
	fsfix_check(f);
}

/* __iget leaves LRU position and I_REFERENCED alone. */
static void iget_hit_does_not_touch_lru(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *a = new_inode(f), *b = new_inode(f), *got;

	cp_iput(&f->fs.ic, a);
	cp_iput(&f->fs.ic, b);
	assert_int_equal(cp_iget(&f->fs.ic, a->i_ino, &f->ctx, &got, NULL), 0);
	assert_ptr_equal(cp_list_first(&f->fs.ic.lru.lists[0]->list), &a->i_lru);
	assert_false(a->i_state & CP_I_REFERENCED);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 2);
	assert_int_equal(f->fs.ic.nr_iget_hits, 1);
	cp_iput(&f->fs.ic, a);
	fsfix_check(f);
}

/* ilookup finds a cached inode (reference taken, LRU untouched) and
 * nothing for an unknown number; it allocates nothing. */
static void ilookup_takes_reference_without_allocating(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint64_t allocated = f->vs.v[CP_VM_INODES_ALLOCATED];

	cp_iput(&f->fs.ic, inode);
	assert_ptr_equal(cp_ilookup(&f->fs.ic, inode->i_ino), inode);
	assert_int_equal(inode->i_count, 1);
	assert_true(cp_list_linked(&inode->i_lru));
	assert_null(cp_ilookup(&f->fs.ic, 123456));
	assert_int_equal(f->vs.v[CP_VM_INODES_ALLOCATED], allocated);
	cp_iput(&f->fs.ic, inode);
	fsfix_check(f);
}

/* inode_lru_isolate step 2: a referenced (in-use) inode on the LRU is
 * REMOVED from it without eviction. */
static void busy_inode_removed_from_lru_not_evicted(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f), *got;

	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_iget(&f->fs.ic, inode->i_ino, &f->ctx, &got, NULL), 0);
	assert_int_equal(prune(f, 5), 1);
	assert_false(cp_list_linked(&inode->i_lru));
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 0);
	fsfix_check(f);
	cp_iput(&f->fs.ic, inode); /* back on the LRU */
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
}

/* inode_add_lru skips dirty inodes; writeback completion
 * (inode_sync_complete) adds it, without I_REFERENCED. */
static void dirty_inode_stays_off_lru_until_written(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);

	cp_inode_mark_dirty(inode);
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	cp_inode_writeback_done(&f->fs.ic, inode);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	assert_false(inode->i_state & CP_I_REFERENCED);
	fsfix_check(f);
}

/* A dirty inode that is on the LRU (dirtied after it got there) is taken
 * off by the shrinker: "any state other than I_REFERENCED". */
static void dirty_inode_on_lru_is_removed(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);

	cp_iput(&f->fs.ic, inode);
	cp_inode_mark_dirty(inode);
	assert_int_equal(prune(f, 1), 1);
	assert_false(cp_list_linked(&inode->i_lru));
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 0);
	cp_inode_writeback_done(&f->fs.ic, inode);
	fsfix_check(f);
}

/* generic_drop_inode: i_nlink == 0 -> evicted at the final iput, page
 * cache truncated, never on the LRU. */
static void unlinked_inode_evicted_at_final_iput(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, NULL, inode, &id), 0);
	cp_icache_set_mapping(inode, id);
	f->pc.mappings[id].nrpages = 5;
	inode->i_nlink = 0;
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(f->pc.mappings[id].nrpages, 0);
	assert_null(f->pc.mappings[id].host); /* no dangling host */
	assert_int_equal(f->vs.v[CP_VM_INODES_FREED], 1);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	fsfix_check(f);
}

/* 4.11 inode steal: an unused inode with 10 pages on the LRU. Budget 2:
 * visit 1 strips the pages (PGINODESTEAL 10, reclaimed_slab 10) and
 * answers RETRY; its __iget/iput re-ran iput_final, which re-armed
 * I_REFERENCED, so visit 2 rotates. Nothing evicted, 0 REMOVED. The
 * next visit evicts it. */
static void inode_steal_strips_pages_and_retries(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, NULL, inode, &id), 0);
	cp_icache_set_mapping(inode, id);
	f->pc.mappings[id].nrpages = 10;
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1); /* 4.11: on the LRU */
	assert_false(inode->i_state & CP_I_REFERENCED);
	assert_int_equal(prune(f, 2), 0);
	assert_int_equal(f->pc.mappings[id].nrpages, 0);
	assert_int_equal(f->vs.v[CP_VM_PGINODESTEAL], 10);
	assert_int_equal(f->vs.v[CP_VM_KSWAPD_INODESTEAL], 0);
	assert_int_equal(f->fs.ic.reclaimed_slab, 10);
	assert_false(inode->i_state & CP_I_REFERENCED); /* cleared by visit 2 */
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 0);
	assert_int_equal(prune(f, 1), 1);
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 1);
	fsfix_check(f);
}

/* The same steal done by kswapd counts KSWAPD_INODESTEAL. */
static void kswapd_inode_steal_counted_separately(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, NULL, inode, &id), 0);
	cp_icache_set_mapping(inode, id);
	f->pc.mappings[id].nrpages = 7;
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 1, &f->ctx, true), 0);
	assert_int_equal(f->vs.v[CP_VM_KSWAPD_INODESTEAL], 7);
	assert_int_equal(f->vs.v[CP_VM_PGINODESTEAL], 0);
	fsfix_check(f);
}

/* 5.16+/6.1: an inode with page cache is not shrinkable and stays off
 * the LRU; when its last page goes, the page cache's mapping_emptied
 * hook queues it (rotate = false: no I_REFERENCED). */
static void pagecache_inode_kept_off_lru_until_emptied(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, NULL, inode, &id), 0);
	cp_icache_set_mapping(inode, id);
	f->pc.mappings[id].nrpages = 3;
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	assert_int_equal(cp_invalidate_mapping_pages(&f->pc, id), 3);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	assert_false(inode->i_state & CP_I_REFERENCED);
	/* a second emptying while on the LRU does not mark it either */
	cp_icache_mapping_emptied(&f->fs.ic, inode);
	assert_false(inode->i_state & CP_I_REFERENCED);
	fsfix_check(f);
}

/* 6.1 inode_lru_isolate: an inode on the LRU that gained pages again
 * (!mapping_shrinkable) is REMOVED without eviction or steal. */
static void pagecache_inode_on_lru_removed_on_61(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode = new_inode(f);
	uint32_t id;

	assert_int_equal(cp_pagecache_add_mapping(&f->pc, 16, NULL, inode, &id), 0);
	cp_icache_set_mapping(inode, id);
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	f->pc.mappings[id].nrpages = 4;
	assert_int_equal(prune(f, 1), 1);
	assert_int_equal(f->pc.mappings[id].nrpages, 4);
	assert_int_equal(f->vs.v[CP_VM_PGINODESTEAL], 0);
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 0);
	fsfix_check(f);
}

/* An inode charged to memcg 2 goes to memcg 2's inode LRU. */
static void memcg_inode_on_its_own_lru_list(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_inode *inode;

	cp_memcg_init(&cg, 2, UINT64_MAX);
	in_cg.memcg = &cg;
	assert_int_equal(cp_icache_new_inode(&f->fs.ic, f->fs.next_ino++, &in_cg, &inode), 0);
	cp_iput(&f->fs.ic, inode);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 2), 1);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	assert_int_equal(cg.usage_pages, 4); /* one order-2 ext4_inode_cache slab */
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 2, 1, &f->ctx, false), 1);
	assert_int_equal(cg.usage_pages, 0);
	fsfix_check(f);
}

/* iget miss under host allocation failure: -CP_ENOMEM at every point,
 * no inode created, invariants hold; then it succeeds as a miss. */
static void iget_miss_host_failure_changes_nothing(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_inode *inode = NULL;
	enum cp_iget_result res = CP_IGET_HIT;
	uint64_t nr0 = f->fs.ic.nr_inodes;
	long n;
	int rc = -1;

	cp_memcg_init(&cg, 3, UINT64_MAX);
	in_cg.memcg = &cg;
	for (n = 0; rc != 0; n++) {
		cp_alloc_fail_after(n);
		rc = cp_iget(&f->fs.ic, 5000, &in_cg, &inode, &res);
		cp_alloc_fail_after(-1);
		if (rc) {
			assert_int_equal(rc, -CP_ENOMEM);
			assert_int_equal(f->fs.ic.nr_inodes, nr0);
			assert_null(cp_icache_find(&f->fs.ic, 5000));
		}
		fsfix_check(f);
	}
	assert_true(n > 2);
	assert_int_equal(res, CP_IGET_MISS);
	assert_int_equal(f->fs.ic.nr_iget_misses, 1);
	cp_iput(&f->fs.ic, inode);
	fsfix_check(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(legacy_single_use_inode_survives_one_pass,
						ext4_411_legacy, teardown),
		cmocka_unit_test_setup_teardown(patched_single_use_inode_evicted_on_first_pass,
						ext4_411_patched, teardown),
		cmocka_unit_test_setup_teardown(reused_inode_survives_one_pass, ext4_411_legacy,
						teardown),
		cmocka_unit_test_setup_teardown(reused_inode_survives_one_pass, ext4_411_patched,
						teardown),
		cmocka_unit_test_setup_teardown(reused_inode_survives_one_pass, ext4_61_patched,
						teardown),
		cmocka_unit_test_setup_teardown(iget_hit_does_not_touch_lru, ext4_411_patched,
						teardown),
		cmocka_unit_test_setup_teardown(ilookup_takes_reference_without_allocating,
						ext4_411_patched, teardown),
		cmocka_unit_test_setup_teardown(busy_inode_removed_from_lru_not_evicted,
						ext4_411_legacy, teardown),
		cmocka_unit_test_setup_teardown(dirty_inode_stays_off_lru_until_written,
						ext4_411_patched, teardown),
		cmocka_unit_test_setup_teardown(dirty_inode_on_lru_is_removed, ext4_411_patched,
						teardown),
		cmocka_unit_test_setup_teardown(unlinked_inode_evicted_at_final_iput,
						ext4_411_legacy, teardown),
		cmocka_unit_test_setup_teardown(inode_steal_strips_pages_and_retries,
						ext4_411_patched, teardown),
		cmocka_unit_test_setup_teardown(kswapd_inode_steal_counted_separately,
						ext4_411_patched, teardown),
		cmocka_unit_test_setup_teardown(pagecache_inode_kept_off_lru_until_emptied,
						ext4_61_patched, teardown),
		cmocka_unit_test_setup_teardown(pagecache_inode_on_lru_removed_on_61,
						ext4_61_patched, teardown),
		cmocka_unit_test_setup_teardown(memcg_inode_on_its_own_lru_list, ext4_411_patched,
						teardown),
		cmocka_unit_test_setup_teardown(iget_miss_host_failure_changes_nothing,
						ext4_411_patched, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
