/*
 * test_dcache.c - fs/dcache.c rules: where dput puts a dentry and with
 * which DCACHE_REFERENCED bit per policy, lazy lookups,
 * dentry_lru_isolate's verdicts, parent handling, names, failures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fs_fixture.inc"

#define NAME40 40 /* fs_mark's name length: external name */

static int setup_legacy(void **state)
{
	*state = fsfix_new("xfs", "linux-4.11", CP_POLICY_LEGACY, 100000);
	return 0;
}

static int setup_patched(void **state)
{
	*state = fsfix_new("xfs", "linux-4.11", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int teardown(void **state)
{
	fsfix_free(*state);
	return 0;
}

static bool alive(struct fsfix *f, uint64_t name_id)
{
	struct cp_dentry *d = cp_d_lookup(&f->fs.dc, f->fs.root, name_id);

	if (!d)
		return false;
	/* undo the lookup's reference without a final dput */
	d->d_count--;
	return true;
}

/* 4.11 dput sets DCACHE_REFERENCED on the final put of a new dentry: the
 * first shrinker visit only rotates it (returns 0 REMOVED), the second
 * frees it (returns 1). */
static void legacy_single_use_dentry_survives_one_pass(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d = fsfix_new_dentry(f, f->fs.root, 7, NAME40);

	cp_dput(&f->fs.dc, d);
	assert_true(d->d_flags & CP_DCACHE_REFERENCED);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 1);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 0);
	assert_true(alive(f, 7));
	fsfix_check(f);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_false(alive(f, 7));
	assert_int_equal(f->vs.v[CP_VM_DENTRIES_FREED], 1);
	fsfix_check(f);
}

/* 4.12+ dentry_lru_add: a new arrival enters without the bit and the
 * first visit frees it. */
static void patched_single_use_dentry_freed_on_first_pass(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d = fsfix_new_dentry(f, f->fs.root, 7, NAME40);

	cp_dput(&f->fs.dc, d);
	assert_false(d->d_flags & CP_DCACHE_REFERENCED);
	assert_true(d->d_flags & CP_DCACHE_LRU_LIST);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_false(alive(f, 7));
	fsfix_check(f);
}

/* Released, looked up again, released again: the second dput finds it on
 * the LRU and sets REFERENCED under both policies, so it survives one
 * pass under both. */
static void reused_dentry_survives_one_pass(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d = fsfix_new_dentry(f, f->fs.root, 9, 12);

	cp_dput(&f->fs.dc, d);
	assert_ptr_equal(cp_d_lookup(&f->fs.dc, f->fs.root, 9), d);
	cp_dput(&f->fs.dc, d);
	assert_true(d->d_flags & CP_DCACHE_REFERENCED);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 0);
	assert_true(alive(f, 9));
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_false(alive(f, 9));
	fsfix_check(f);
}

/* d_lookup takes a reference and nothing else: the dentry keeps its LRU
 * position and (patched) stays unmarked (ref §2.3). */
static void lookup_does_not_touch_lru_or_referenced(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *a = fsfix_new_dentry(f, f->fs.root, 1, 5);
	struct cp_dentry *b = fsfix_new_dentry(f, f->fs.root, 2, 5);
	struct cp_list *head = &f->fs.dc.lru.lists[0]->list;

	cp_dput(&f->fs.dc, a);
	cp_dput(&f->fs.dc, b);
	assert_ptr_equal(cp_d_lookup(&f->fs.dc, f->fs.root, 1), a);
	assert_int_equal(a->d_count, 1);
	assert_ptr_equal(cp_list_first(head), &a->d_lru);
	assert_false(a->d_flags & CP_DCACHE_REFERENCED);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 2);
	fsfix_check(f);
	cp_dput(&f->fs.dc, a);
}

/* dentry_lru_isolate step 2: an in-use dentry on the LRU is REMOVED
 * from it (counted in the return value) but not freed; its next final
 * dput puts it back at the tail. */
static void in_use_dentry_removed_from_lru_not_freed(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d = fsfix_new_dentry(f, f->fs.root, 3, NAME40);
	uint64_t nr_dentry;

	cp_dput(&f->fs.dc, d);
	assert_ptr_equal(cp_d_lookup(&f->fs.dc, f->fs.root, 3), d);
	nr_dentry = f->fs.dc.nr_dentry;
	assert_true(d->d_flags & CP_DCACHE_REFERENCED); /* step 2 comes before step 3 */
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 10, &f->ctx), 1);
	assert_int_equal(f->fs.dc.nr_dentry, nr_dentry);
	assert_false(d->d_flags & CP_DCACHE_LRU_LIST);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 0);
	assert_int_equal(f->fs.dc.nr_dentry_unused, 0);
	fsfix_check(f);
	cp_dput(&f->fs.dc, d);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 1);
	fsfix_check(f);
}

/* Freeing a dentry drops its inode reference; iput_final then puts the
 * inode on the inode LRU, with I_REFERENCED under legacy only. */
static void freed_dentry_puts_inode_on_lru_legacy_referenced(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d = fsfix_new_dentry(f, f->fs.root, 4, NAME40);
	struct cp_inode *inode = d->d_inode;

	cp_dput(&f->fs.dc, d);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0); /* pinned */
	/* visit 1 rotates it (the lone item: the walk ends there), visit 2
	 * frees it */
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 0);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_int_equal(inode->i_count, 0);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	assert_true(inode->i_state & CP_I_REFERENCED);
	fsfix_check(f);
}

static void freed_dentry_puts_inode_on_lru_patched_unreferenced(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d = fsfix_new_dentry(f, f->fs.root, 4, NAME40);
	struct cp_inode *inode = d->d_inode;

	cp_dput(&f->fs.dc, d);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 1);
	assert_false(inode->i_state & CP_I_REFERENCED);
	fsfix_check(f);
}

/* Parent handling in shrink_dentry_list: dir D holds one child F. F is
 * freed by the shrinker, D's count drops to 0 in the same pass and D is
 * killed too, although D was never on the LRU. Return value counts F
 * only (1 REMOVED); two dentries freed. */
static void shrinker_kills_parent_whose_count_drops_to_zero(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *dir = fsfix_new_dentry(f, f->fs.root, 10, 2);
	struct cp_dentry *file = fsfix_new_dentry(f, dir, 11, NAME40);
	uint64_t nr_dentry = f->fs.dc.nr_dentry;

	assert_int_equal(dir->d_count, 2);
	cp_dput(&f->fs.dc, dir); /* held by its child only */
	assert_false(dir->d_flags & CP_DCACHE_LRU_LIST);
	cp_dput(&f->fs.dc, file);
	file->d_flags &= (uint16_t)~CP_DCACHE_REFERENCED;
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_int_equal(f->fs.dc.nr_dentry, nr_dentry - 2);
	assert_false(alive(f, 10));
	assert_int_equal(f->vs.v[CP_VM_DENTRIES_FREED], 2);
	fsfix_check(f);
}

/* By contrast, in the dput path a parent reaching zero is retained: an
 * unhashed child is killed at its final dput and its parent goes to the
 * LRU. */
static void dput_kills_unhashed_and_retains_parent(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *dir = fsfix_new_dentry(f, f->fs.root, 10, 2);
	struct cp_dentry *file = fsfix_new_dentry(f, dir, 11, NAME40);
	uint64_t nr_dentry = f->fs.dc.nr_dentry;

	cp_dput(&f->fs.dc, dir);
	cp_d_drop(&f->fs.dc, file);
	cp_dput(&f->fs.dc, file);
	assert_int_equal(f->fs.dc.nr_dentry, nr_dentry - 1);
	assert_true(alive(f, 10));
	assert_int_equal(dir->d_count, 0);
	assert_true(dir->d_flags & CP_DCACHE_LRU_LIST);
	fsfix_check(f);
}

/* A directory on the LRU whose count is > 0 because a child was created
 * under it after it went there: the shrinker removes it (step 2). */
static void directory_with_children_is_removed_not_freed(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *dir = fsfix_new_dentry(f, f->fs.root, 20, 3);
	struct cp_dentry *file;

	cp_dput(&f->fs.dc, dir);
	/* a path walk takes the directory again, creates a child in it and
	 * lets go: the child's reference keeps the count at 1 */
	assert_ptr_equal(cp_d_lookup(&f->fs.dc, f->fs.root, 20), dir);
	file = fsfix_new_dentry(f, dir, 21, 4);
	cp_dput(&f->fs.dc, dir);
	assert_int_equal(dir->d_count, 1);
	assert_true(dir->d_flags & CP_DCACHE_LRU_LIST);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_true(alive(f, 20));
	assert_false(dir->d_flags & CP_DCACHE_LRU_LIST);
	cp_dput(&f->fs.dc, file);
	fsfix_check(f);
}

/* DNAME_INLINE_LEN 32: names of 31 bytes stay inline, 32..47 take one
 * kmalloc-64 object (17 + len <= 64), 48+ do not fit the modelled cache. */
static void long_names_take_an_external_name_object(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *d;
	uint64_t names0 = f->fs.name_cache.nr_objects;

	assert_int_equal(cp_d_alloc(&f->fs.dc, f->fs.root, 1, 31, &f->ctx, &d), 0);
	assert_int_equal(f->fs.name_cache.nr_objects, names0);
	cp_d_drop(&f->fs.dc, d);
	cp_dput(&f->fs.dc, d);
	assert_int_equal(cp_d_alloc(&f->fs.dc, f->fs.root, 2, 40, &f->ctx, &d), 0);
	assert_int_equal(f->fs.name_cache.nr_objects, names0 + 1);
	cp_d_drop(&f->fs.dc, d);
	cp_dput(&f->fs.dc, d); /* killed: name freed with it */
	assert_int_equal(f->fs.name_cache.nr_objects, names0);
	assert_int_equal(cp_d_alloc(&f->fs.dc, f->fs.root, 3, 48, &f->ctx, &d), -CP_EINVAL);
	assert_int_equal(cp_d_alloc(&f->fs.dc, f->fs.root, 3, 0, &f->ctx, &d), -CP_EINVAL);
	fsfix_check(f);
}

/* 21 dentries fill one "dentry" slab page: 42 single-use dentries take
 * 2 pages; freeing them all returns both (patched: one pass of 42). */
static void dentry_slab_pages_follow_the_dentries(void **state)
{
	struct fsfix *f = *state;
	uint64_t pages0 = cp_slab_pages(&f->fs.dentry_cache);
	uint64_t i;

	/* the root dentry already sits in the first slab with 20 free */
	for (i = 0; i < 41; i++)
		cp_dput(&f->fs.dc, fsfix_new_dentry(f, f->fs.root, 100 + i, 8));
	assert_int_equal(pages0, 1);
	assert_int_equal(cp_slab_pages(&f->fs.dentry_cache), 2);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 41, &f->ctx), 41);
	assert_int_equal(cp_slab_pages(&f->fs.dentry_cache), 1);
	fsfix_check(f);
}

/* The walk visits nr_to_scan dentries from the head: with 5 unused
 * dentries and a budget of 3 the oldest 3 go. */
static void prune_visits_nr_to_scan_from_the_head(void **state)
{
	struct fsfix *f = *state;
	uint64_t i;

	for (i = 0; i < 5; i++)
		cp_dput(&f->fs.dc, fsfix_new_dentry(f, f->fs.root, 200 + i, 8));
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 3, &f->ctx), 3);
	assert_false(alive(f, 202));
	assert_true(alive(f, 203));
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 2);
	fsfix_check(f);
}

/* A dentry charged to memcg 1 sits on memcg 1's LRU list: pruning the
 * root's list does not see it. */
static void memcg_dentries_live_on_their_own_lru_list(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_dentry *d;
	struct cp_inode *inode;

	cp_memcg_init(&cg, 1, UINT64_MAX);
	in_cg.memcg = &cg;
	assert_int_equal(cp_d_alloc(&f->fs.dc, f->fs.root, 5, NAME40, &in_cg, &d), 0);
	assert_int_equal(cp_icache_new_inode(&f->fs.ic, f->fs.next_ino++, &in_cg, &inode), 0);
	cp_d_instantiate(d, inode);
	cp_dput(&f->fs.dc, d);
	assert_int_equal(d->d_memcg_id, 1);
	/* dentry page + external name page charged to the memcg */
	assert_int_equal(cg.nr_owner[f->fs.dentry_cache.owner], 1);
	assert_int_equal(cg.nr_owner[f->fs.name_cache.owner], 1);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 0);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 1), 1);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 10, &f->ctx), 0);
	assert_true(alive(f, 5));
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 1, 10, &f->ctx), 1);
	assert_false(alive(f, 5));
	/* dentry and name pages uncharged with their last objects; the
	 * inode (order-2 slab, 4 pages) lives on, now on memcg 1's inode LRU */
	assert_int_equal(cg.usage_pages, 4);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 1), 1);
	fsfix_check(f);
}

/* Fault injection: d_alloc fails at every host allocation in turn with
 * -CP_ENOMEM and leaves every invariant intact and nothing allocated. */
static void d_alloc_host_failure_changes_nothing(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_dentry *d = NULL;
	uint64_t nr0 = f->fs.dc.nr_dentry;
	long n;
	int rc = -1;

	cp_memcg_init(&cg, 3, UINT64_MAX); /* a new memcg: its LRU list is allocated too */
	in_cg.memcg = &cg;
	for (n = 0; rc != 0; n++) {
		cp_alloc_fail_after(n);
		rc = cp_d_alloc(&f->fs.dc, f->fs.root, 77, NAME40, &in_cg, &d);
		cp_alloc_fail_after(-1);
		if (rc) {
			assert_int_equal(rc, -CP_ENOMEM);
			assert_int_equal(f->fs.dc.nr_dentry, nr0);
		}
		fsfix_check(f);
	}
	assert_true(n > 2);
	assert_int_equal(f->fs.dc.nr_dentry, nr0 + 1);
	cp_d_drop(&f->fs.dc, d);
	cp_dput(&f->fs.dc, d);
	fsfix_check(f);
}

/* Memory exhaustion (memcg limit, no reclaim hook): -CP_ENOSPC, nothing
 * allocated. */
static void d_alloc_over_memcg_limit_fails_cleanly(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_dentry *d = NULL;
	uint64_t nr0 = f->fs.dc.nr_dentry;

	cp_memcg_init(&cg, 2, 1); /* room for the dentry page, not the name page */
	in_cg.memcg = &cg;
	assert_int_equal(cp_d_alloc(&f->fs.dc, f->fs.root, 78, NAME40, &in_cg, &d), -CP_ENOSPC);
	assert_null(d);
	assert_int_equal(f->fs.dc.nr_dentry, nr0);
	assert_int_equal(cg.usage_pages, 0);
	fsfix_check(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(legacy_single_use_dentry_survives_one_pass,
						setup_legacy, teardown),
		cmocka_unit_test_setup_teardown(patched_single_use_dentry_freed_on_first_pass,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(reused_dentry_survives_one_pass, setup_legacy,
						teardown),
		cmocka_unit_test_setup_teardown(reused_dentry_survives_one_pass, setup_patched,
						teardown),
		cmocka_unit_test_setup_teardown(lookup_does_not_touch_lru_or_referenced,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(in_use_dentry_removed_from_lru_not_freed,
						setup_legacy, teardown),
		cmocka_unit_test_setup_teardown(freed_dentry_puts_inode_on_lru_legacy_referenced,
						setup_legacy, teardown),
		cmocka_unit_test_setup_teardown(freed_dentry_puts_inode_on_lru_patched_unreferenced,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(shrinker_kills_parent_whose_count_drops_to_zero,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(dput_kills_unhashed_and_retains_parent,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(directory_with_children_is_removed_not_freed,
						setup_legacy, teardown),
		cmocka_unit_test_setup_teardown(long_names_take_an_external_name_object,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(dentry_slab_pages_follow_the_dentries,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(prune_visits_nr_to_scan_from_the_head,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(memcg_dentries_live_on_their_own_lru_list,
						setup_patched, teardown),
		cmocka_unit_test_setup_teardown(d_alloc_host_failure_changes_nothing, setup_patched,
						teardown),
		cmocka_unit_test_setup_teardown(d_alloc_over_memcg_limit_fails_cleanly,
						setup_patched, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
