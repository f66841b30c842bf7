/*
 * test_xfs_icache.c - fs/xfs/xfs_icache.c rules: VFS-evicted inodes are
 * XFS reclaimable (the superblock's cached objects) until XFS reclaim
 * frees them; 4.11 reclaim writes dirty clusters and waits, 6.1 skips
 * them; the worker frees only clean ones; lookups recycle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fs_fixture.inc"

#define NAME40 40

static int xfs_411(void **state)
{
	*state = fsfix_new("xfs", "linux-4.11", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int xfs_61(void **state)
{
	*state = fsfix_new("xfs", "linux-6.1", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int teardown(void **state)
{
	fsfix_free(*state);
	return 0;
}

/* fs_mark-style creates of n files in the root (inode numbers 2..n+1;
 * the root is inode 1), then one dcache and one icache pass (patched:
 * one visit each) so that all n are XFS reclaimable. */
static void make_reclaimable(struct fsfix *f, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 1000 + i, NAME40, &f->ctx, NULL),
				 0);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, n, &f->ctx), n);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, n, &f->ctx, false), n);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), n);
	fsfix_check(f);
}

/* Eviction hands the inode to XFS: it still exists (slab object, log
 * item, hash entry), counted by xfs_reclaim_inodes_count; reclaim_nr
 * frees it and returns 0 whatever it freed. */
static void evicted_inode_is_reclaimable_until_xfs_reclaim(void **state)
{
	struct fsfix *f = *state;
	uint64_t inodes0;

	make_reclaimable(f, 3);
	inodes0 = f->fs.ic.nr_inodes;
	assert_int_equal(inodes0, 4); /* root + 3 */
	assert_int_equal(f->fs.ili_cache.nr_objects, 4);
	assert_int_equal(cp_fs_nr_cached_objects(&f->fs), 3);
	assert_int_equal(f->vs.v[CP_VM_INODES_EVICTED], 3);
	assert_int_equal(f->vs.v[CP_VM_INODES_FREED], 0);
	/* the VFS's nr_inodes (inode_init_always - __destroy_inode) no
	 * longer counts them: root + 3 created, 3 evicted */
	assert_int_equal(f->vs.v[CP_VM_INODES_INIT] - f->vs.v[CP_VM_INODES_EVICTED], 1);
	cp_xfs_ail_push(&f->fs.xfs, UINT64_MAX); /* clean them first */
	assert_int_equal(cp_xfs_reclaim_inodes_nr(&f->fs.xfs, 3, &f->ctx), 0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 0);
	assert_int_equal(f->fs.ic.nr_inodes, 1);
	assert_int_equal(f->fs.ili_cache.nr_objects, 1);
	assert_int_equal(f->vs.v[CP_VM_INODES_FREED], 3);
	fsfix_check(f);
}

/* 4.11 SYNC_WAIT: 40 dirty reclaimable inodes (numbers 2..41) span two
 * 32-inode clusters (0..31, 32..63). Reclaim frees all 40 and waits for
 * exactly one write per dirty cluster: 2 I/Os. */
static void reclaim_411_writes_each_dirty_cluster_once(void **state)
{
	struct fsfix *f = *state;

	make_reclaimable(f, 40);
	assert_int_equal(f->fs.xfs.nr_dirty_clusters, 2);
	assert_int_equal(cp_xfs_reclaim_inodes_nr(&f->fs.xfs, 64, &f->ctx), 0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 0);
	assert_int_equal(f->work.nr_write_ios, 2);
	assert_int_equal(f->fs.xfs.nr_sync_writes, 2);
	assert_int_equal(f->fs.xfs.nr_dirty_clusters, 0);
	assert_true(f->fs.xfs.ail_push_all_requested);
	fsfix_check(f);
}

/* 6.1: reclaim never writes; dirty inodes are skipped. After the AIL
 * writes the oldest cluster (inodes 0..31), reclaim frees the 30
 * reclaimable inodes in it (2..31) and still skips 32..41. */
static void reclaim_61_skips_dirty_inodes(void **state)
{
	struct fsfix *f = *state;

	make_reclaimable(f, 40);
	assert_int_equal(cp_xfs_reclaim_inodes_nr(&f->fs.xfs, 64, &f->ctx), 0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 40);
	assert_int_equal(f->work.nr_write_ios, 0);
	assert_int_equal(f->fs.xfs.nr_skipped_dirty, 40);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 1), 1);
	assert_int_equal(cp_xfs_reclaim_inodes_nr(&f->fs.xfs, 64, &f->ctx), 0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 10);
	assert_int_equal(f->vs.v[CP_VM_INODES_FREED], 30);
	fsfix_check(f);
}

/* The budget is used a lookup batch (32) at a time: nr_to_scan 1 still
 * visits 32 inodes, 33 visits 64. 40 clean inodes: 32 freed, then 8. */
static void reclaim_consumes_budget_in_lookup_batches(void **state)
{
	struct fsfix *f = *state;

	make_reclaimable(f, 40);
	cp_xfs_ail_push(&f->fs.xfs, UINT64_MAX);
	assert_int_equal(cp_xfs_reclaim_inodes_nr(&f->fs.xfs, 1, &f->ctx), 0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 8);
	assert_int_equal(cp_xfs_reclaim_inodes_nr(&f->fs.xfs, 33, &f->ctx), 0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 0);
	fsfix_check(f);
}

/* The background worker never waits: with cluster 0 clean and cluster 1
 * dirty it frees the 30 clean inodes and returns 30, no writes. */
static void worker_frees_only_clean_inodes(void **state)
{
	struct fsfix *f = *state;

	make_reclaimable(f, 40);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 1), 1);
	assert_int_equal(cp_xfs_reclaim_worker(&f->fs.xfs), 30);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 10);
	assert_int_equal(f->fs.xfs.nr_sync_writes, 0);
	fsfix_check(f);
}

/* The AIL writes clusters oldest first: cluster 0 (dirtied by the root
 * at mount) before cluster 1. */
static void ail_push_writes_oldest_cluster_first(void **state)
{
	struct fsfix *f = *state;

	make_reclaimable(f, 40);
	assert_int_equal(f->fs.xfs.dirty_head, 0);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 1), 1);
	assert_int_equal(f->fs.xfs.dirty_head, 1);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 10), 1);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 10), 0);
	assert_int_equal(f->fs.xfs.nr_ail_writes, 2);
	assert_false(f->fs.xfs.ail_push_all_requested);
	fsfix_check(f);
}

/* xfs_iget_cache_hit: a lookup of a reclaimable inode recycles it (no
 * new inode, no I/O); it keeps its log item and dirtiness and is no
 * longer counted as reclaimable. */
static void lookup_recycles_reclaimable_inode(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode;
	enum cp_iget_result res;
	uint64_t inodes0, init0;

	make_reclaimable(f, 2);
	inodes0 = f->fs.ic.nr_inodes;
	init0 = f->vs.v[CP_VM_INODES_INIT];
	assert_int_equal(cp_iget(&f->fs.ic, 2, &f->ctx, &inode, &res), 0);
	assert_int_equal(res, CP_IGET_RECYCLED);
	/* xfs_reinit_inode -> inode_init_always: in nr_inodes again */
	assert_int_equal(f->vs.v[CP_VM_INODES_INIT], init0 + 1);
	assert_int_equal(inode->i_count, 1);
	assert_false(inode->i_state & CP_I_RECLAIMABLE);
	assert_true(inode->i_state & CP_I_XFS_DIRTY);
	assert_true(inode->i_fs_obj.slab != CP_SLAB_NONE);
	assert_int_equal(f->fs.ic.nr_inodes, inodes0);
	assert_int_equal(cp_xfs_reclaim_inodes_count(&f->fs.xfs), 1);
	fsfix_check(f);
	cp_iput(&f->fs.ic, inode); /* back to the VFS LRU */
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	fsfix_check(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(evicted_inode_is_reclaimable_until_xfs_reclaim,
						xfs_61, teardown),
		cmocka_unit_test_setup_teardown(reclaim_411_writes_each_dirty_cluster_once, xfs_411,
						teardown),
		cmocka_unit_test_setup_teardown(reclaim_61_skips_dirty_inodes, xfs_61, teardown),
		cmocka_unit_test_setup_teardown(reclaim_consumes_budget_in_lookup_batches, xfs_411,
						teardown),
		cmocka_unit_test_setup_teardown(worker_frees_only_clean_inodes, xfs_411, teardown),
		cmocka_unit_test_setup_teardown(ail_push_writes_oldest_cluster_first, xfs_411,
						teardown),
		cmocka_unit_test_setup_teardown(lookup_recycles_reclaimable_inode, xfs_411, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
