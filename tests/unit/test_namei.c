/*
 * test_namei.c - the VFS operations of the workloads: what fs_mark's
 * create leaves behind, which allocations may enter the filesystem
 * during reclaim, how a stat walker's lookups are served at each stage
 * of an object's life, data files held open, failures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fs_fixture.inc"

#define NAME40 40

static int xfs_411_legacy(void **state)
{
	*state = fsfix_new("xfs", "linux-4.11", CP_POLICY_LEGACY, 100000);
	return 0;
}

static int xfs_411_patched(void **state)
{
	*state = fsfix_new("xfs", "linux-4.11", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int ext4_61_patched(void **state)
{
	*state = fsfix_new("ext4", "linux-6.1", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int xfs_6x_patched(void **state)
{
	*state = fsfix_new("xfs", "linux-6.x", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int teardown(void **state)
{
	fsfix_free(*state);
	return 0;
}

/* fs_mark's create + close: the dentry (192 B + 64 B external name) is
 * on the dentry LRU with REFERENCED (legacy), pinning the inode, which
 * is not on the inode LRU; the XFS inode has a log item and a dirty
 * cluster. Root + file = 2 of everything. */
static void create_leaves_dentry_on_lru_pinning_inode(void **state)
{
	struct fsfix *f = *state;
	struct cp_inode *inode;
	uint64_t ino;

	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 42, NAME40, &f->ctx, &ino), 0);
	assert_int_equal(ino, 2);
	inode = cp_icache_find(&f->fs.ic, ino);
	assert_non_null(inode);
	assert_int_equal(inode->i_count, 1);
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 1);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	assert_int_equal(f->fs.dc.nr_dentry, 2);
	assert_int_equal(f->fs.name_cache.nr_objects, 1);
	assert_int_equal(f->fs.ili_cache.nr_objects, 2);
	assert_true(inode->i_state & CP_I_XFS_DIRTY);
	assert_int_equal(f->vs.v[CP_VM_DENTRIES_ALLOCATED], 2);
	assert_int_equal(f->vs.v[CP_VM_INODES_ALLOCATED], 2);
	assert_int_equal(f->fs.nr_create, 1);
	fsfix_check(f);
}

/* 6.14+ fs/dcache.c (measured on 6.18.44, profile.c): DNAME_INLINE_LEN
 * is 40, so a 39-character name stays in the dentry, and a 40-character
 * one takes 24 + 41 = 65 B, a kmalloc-rcl-96 object; in a memcg each
 * object is charged its slot + 8 B (dentry 200, name 104, xfs_inode
 * 968 with the built-in profile's 960 B slot; xfs_ili not accounted),
 * each cache's stock charging its first page: 3 pages. */
static void linux_6x_puts_a_40_char_name_in_kmalloc_rcl_96(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;

	assert_string_equal(f->fs.name_cache.name, "kmalloc-rcl-96");
	assert_int_equal(f->fs.name_cache.object_size, 96);
	assert_int_equal(f->fs.name_cache.objects_per_slab, 42);
	assert_int_equal(f->fs.name_cache.migratetype, CP_MIGRATE_RECLAIMABLE);
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 1, 39, &f->ctx, NULL), 0);
	assert_int_equal(f->fs.name_cache.nr_objects, 0);
	cp_memcg_init(&cg, 1, UINT64_MAX);
	in_cg.memcg = &cg;
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 2, NAME40, &in_cg, NULL), 0);
	assert_int_equal(f->fs.name_cache.nr_objects, 1);
	assert_int_equal(f->fs.dentry_cache.obj_charge, 200);
	assert_int_equal(f->fs.name_cache.obj_charge, 104);
	assert_int_equal(f->fs.inode_cache.obj_charge, 968);
	assert_int_equal(f->fs.ili_cache.obj_charge, 0);
	assert_int_equal(cg.usage_pages, 3); /* a page from each cache's stock */
	assert_true(cp_memcg_check(&cg));
	fsfix_check(f);
}

/* Creating an existing name only looks it up (O_CREAT without O_EXCL):
 * no new inode; the dentry stays where it was on the LRU. */
static void create_of_existing_name_is_a_lookup(void **state)
{
	struct fsfix *f = *state;
	uint64_t a, b;

	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 42, NAME40, &f->ctx, &a), 0);
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 42, NAME40, &f->ctx, &b), 0);
	assert_int_equal(a, b);
	assert_int_equal(f->fs.ic.nr_inodes, 2);
	assert_int_equal(f->fs.nr_lookup[CP_LOOKUP_DCACHE_HIT], 1);
	fsfix_check(f);
}

/* Reclaim entered from an allocation sees the allocation's gfp. */
struct gfp_log {
	struct fsfix *f;
	unsigned gfp[8];
	int n;
};

static uint64_t log_gfp_and_free(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr)
{
	struct gfp_log *log = priv;
	uint64_t give = 8;

	(void)nr;
	if (log->n < 8)
		log->gfp[log->n] = ctx->gfp;
	log->n++;
	if (give > log->f->mem.nr_owner[CP_OWNER_PROCESS])
		give = log->f->mem.nr_owner[CP_OWNER_PROCESS];
	cp_mem_free(&log->f->mem, CP_OWNER_PROCESS, give, NULL);
	return give;
}

/* ref §9.4: the dentry is allocated before the create transaction
 * (GFP_KERNEL), the inode inside it (GFP_NOFS). Root + 15 files fill the
 * first xfs_inode slab (16 per slab), so the 16th file's inode needs a
 * new slab: its reclaim runs without __GFP_FS. Root + 20 files fill the
 * first dentry page, so file 21's dentry reclaims with __GFP_FS. */
static void create_allocates_inode_nofs_and_dentry_kernel(void **state)
{
	struct fsfix *f = *state;
	struct gfp_log log = { .f = f };
	struct cp_mem_hooks hooks = { .direct_reclaim = log_gfp_and_free, .priv = &log };
	uint64_t i;

	for (i = 1; i <= 15; i++)
		assert_int_equal(cp_fs_create(&f->fs, f->fs.root, i, NAME40, &f->ctx, NULL), 0);
	/* leave exactly the min watermark free: every new slab reclaims */
	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS,
				     f->mem.free_pages - f->mem.wmark.min), 0);
	cp_mem_set_hooks(&f->mem, &hooks);
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 16, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(log.n, 1);
	assert_false(log.gfp[0] & CP_GFP_FS);
	assert_true(log.gfp[0] & CP_GFP_DIRECT_RECLAIM);
	for (i = 17; i <= 20; i++)
		assert_int_equal(cp_fs_create(&f->fs, f->fs.root, i, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(log.n, 1);
	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS,
				     f->mem.free_pages - f->mem.wmark.min), 0);
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 21, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(log.n, 2);
	assert_true(log.gfp[1] & CP_GFP_FS);
	fsfix_check(f);
}

/* A stat walker's lookup at each stage of a file's life (xfs, patched):
 * dentry cached -> dcache hit; dentry freed, inode on the inode LRU ->
 * icache hit; inode evicted -> XFS recycle; inode freed by XFS reclaim ->
 * icache miss (a new inode read from disk). */
static void stat_is_served_by_each_cache_stage(void **state)
{
	struct fsfix *f = *state;
	enum cp_lookup_result res;
	uint64_t inodes;

	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 7, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(cp_fs_stat(&f->fs, f->fs.root, 7, &f->ctx, &res), 0);
	assert_int_equal(res, CP_LOOKUP_DCACHE_HIT);

	/* the stat's dput found the dentry on the LRU: REFERENCED, so the
	 * first visit rotates and the second frees */
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 0);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_int_equal(cp_fs_stat(&f->fs, f->fs.root, 7, &f->ctx, &res), 0);
	assert_int_equal(res, CP_LOOKUP_ICACHE_HIT);
	fsfix_check(f);

	/* the new dentry goes; the inode, still on the LRU when its last
	 * user let go, earned I_REFERENCED: two inode visits */
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 1, &f->ctx, false), 0);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 1, &f->ctx, false), 1);
	assert_int_equal(cp_fs_nr_cached_objects(&f->fs), 1);
	inodes = f->fs.ic.nr_inodes;
	assert_int_equal(cp_fs_stat(&f->fs, f->fs.root, 7, &f->ctx, &res), 0);
	assert_int_equal(res, CP_LOOKUP_RECYCLED);
	assert_int_equal(f->fs.ic.nr_inodes, inodes);
	fsfix_check(f);

	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 1, &f->ctx), 1);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 1, &f->ctx, false), 1);
	cp_xfs_ail_push(&f->fs.xfs, UINT64_MAX);
	assert_int_equal(cp_fs_free_cached_objects(&f->fs, 1, &f->ctx), 0);
	assert_int_equal(cp_fs_nr_cached_objects(&f->fs), 0);
	assert_int_equal(cp_fs_stat(&f->fs, f->fs.root, 7, &f->ctx, &res), 0);
	assert_int_equal(res, CP_LOOKUP_ICACHE_MISS);
	assert_int_equal(f->fs.ic.nr_iget_misses, 1);
	/* a read inode is clean and has no log item */
	assert_false(cp_icache_find(&f->fs.ic, 2)->i_state & CP_I_XFS_DIRTY);
	assert_int_equal(f->fs.nr_lookup[CP_LOOKUP_ICACHE_MISS], 1);
	fsfix_check(f);
}

/* A name that is not on disk: -CP_ENOENT and nothing allocated. */
static void stat_of_missing_name_allocates_nothing(void **state)
{
	struct fsfix *f = *state;
	uint64_t allocated = f->vs.v[CP_VM_DENTRIES_ALLOCATED];

	assert_int_equal(cp_fs_stat(&f->fs, f->fs.root, 999, &f->ctx, NULL), -CP_ENOENT);
	assert_int_equal(f->vs.v[CP_VM_DENTRIES_ALLOCATED], allocated);
	fsfix_check(f);
}

/* fs_mark's per-file mkdir of the subdirectory fails with EEXIST after
 * the first time but is still a lookup: no new dentry or inode. */
static void mkdir_of_existing_directory_is_a_lookup(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *dir, *again;
	bool existed = true;

	assert_int_equal(cp_fs_mkdir(&f->fs, f->fs.root, 5, 2, &f->ctx, &dir, &existed), 0);
	assert_false(existed);
	assert_int_equal(dir->d_inode->i_nlink, 2);
	assert_int_equal(cp_fs_create(&f->fs, dir, 1, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(cp_fs_mkdir(&f->fs, f->fs.root, 5, 2, &f->ctx, &again, &existed), 0);
	assert_true(existed);
	assert_ptr_equal(again, dir);
	assert_int_equal(f->fs.dc.nr_dentry, 3);
	assert_int_equal(dir->d_count, 3); /* two holders + the file */
	cp_fs_put(&f->fs, again);
	assert_int_equal(cp_fs_mkdir(&f->fs, f->fs.root, 5, 2, &f->ctx, NULL, &existed), 0);
	assert_true(existed);
	cp_fs_put(&f->fs, dir);
	fsfix_check(f);
}

/* A data file held open pins dentry and inode: no shrinker pass touches
 * them. After close and the loss of both caches (ext4: inode freed),
 * reopening reads a new inode that gets the same page-cache mapping. */
static void open_data_file_stays_off_the_lrus(void **state)
{
	struct fsfix *f = *state;
	struct cp_dentry *file, *again;
	uint32_t mapping;

	assert_int_equal(cp_fs_open(&f->fs, f->fs.root, 3, 5, 1000, &f->ctx, &file), 0);
	mapping = cp_file_mapping(file);
	assert_true(mapping != CP_NO_MAPPING);
	assert_int_equal(f->pc.mappings[mapping].nr_index, 1000);
	f->pc.mappings[mapping].nrpages = 500; /* read into the cache */
	assert_int_equal(cp_dcache_lru_count(&f->fs.dc, 0), 0);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 100, &f->ctx), 0);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 100, &f->ctx, true), 0);
	assert_int_equal(f->pc.mappings[mapping].nrpages, 500);
	cp_fs_close(&f->fs, file);
	/* 6.1: the dentry goes, the inode has pages and stays off the LRU */
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 100, &f->ctx), 1);
	assert_int_equal(cp_icache_lru_count(&f->fs.ic, 0), 0);
	/* its pages are reclaimed: the mapping empties, the inode is queued
	 * and then freed */
	cp_invalidate_mapping_pages(&f->pc, mapping);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 100, &f->ctx, true), 1);
	assert_null(f->pc.mappings[mapping].host);
	assert_int_equal(cp_fs_open(&f->fs, f->fs.root, 3, 5, 1000, &f->ctx, &again), 0);
	assert_int_equal(cp_file_mapping(again), mapping);
	assert_ptr_equal(f->pc.mappings[mapping].host, again->d_inode);
	assert_int_equal(f->fs.nr_lookup[CP_LOOKUP_ICACHE_MISS], 1);
	cp_fs_close(&f->fs, again);
	fsfix_check(f);
}

/* Fault injection: each operation fails at every host allocation in
 * turn with -CP_ENOMEM, creates no name, and leaves every invariant
 * intact; then succeeds. Each runs in a memcg of its own, so its LRU
 * lists and per-memcg slab parts have to be allocated too. */
static void operations_fail_cleanly_at_every_allocation(void **state)
{
	struct fsfix *f = *state;
	struct cp_memcg cg[4];
	struct cp_alloc_ctx ctx[4];
	struct cp_dentry *d;
	int op;

	for (op = 0; op < 4; op++) {
		cp_memcg_init(&cg[op], op + 1, UINT64_MAX);
		ctx[op] = f->ctx;
		ctx[op].memcg = &cg[op];
	}

	/* a dentry-less, inode-less file to stat (icache miss path) */
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 500, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(cp_prune_dcache_sb(&f->fs.dc, 0, 10, &f->ctx), 1);
	assert_int_equal(cp_prune_icache_sb(&f->fs.ic, 0, 10, &f->ctx, false), 1);
	if (f->fs.fsp->kind == CP_FS_XFS) {
		cp_xfs_ail_push(&f->fs.xfs, UINT64_MAX);
		cp_fs_free_cached_objects(&f->fs, 32, &f->ctx);
	}
	assert_null(cp_icache_find(&f->fs.ic, 2));
	for (op = 0; op < 4; op++) {
		long n;
		int rc = -1;

		for (n = 0; rc != 0; n++) {
			uint64_t on_disk = f->fs.disk.nr;

			cp_alloc_fail_after(n);
			switch (op) {
			case 0:
				rc = cp_fs_create(&f->fs, f->fs.root, 600, NAME40, &ctx[op], NULL);
				break;
			case 1:
				rc = cp_fs_stat(&f->fs, f->fs.root, 500, &ctx[op], NULL);
				break;
			case 2:
				rc = cp_fs_mkdir(&f->fs, f->fs.root, 700, 3, &ctx[op], NULL, NULL);
				break;
			default:
				rc = cp_fs_open(&f->fs, f->fs.root, 800, 6, 64, &ctx[op], &d);
				break;
			}
			cp_alloc_fail_after(-1);
			if (rc) {
				assert_int_equal(rc, -CP_ENOMEM);
				assert_int_equal(f->fs.disk.nr, on_disk);
			}
			fsfix_check(f);
			assert_true(cp_memcg_check(&cg[op]));
		}
		assert_true(n > 2);
	}
	cp_fs_close(&f->fs, d);
	assert_int_equal(f->fs.nr_lookup[CP_LOOKUP_ICACHE_MISS], 1);
	fsfix_check(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(create_leaves_dentry_on_lru_pinning_inode,
						xfs_411_legacy, teardown),
		cmocka_unit_test_setup_teardown(linux_6x_puts_a_40_char_name_in_kmalloc_rcl_96,
						xfs_6x_patched, teardown),
		cmocka_unit_test_setup_teardown(create_of_existing_name_is_a_lookup,
						xfs_411_patched, teardown),
		cmocka_unit_test_setup_teardown(create_allocates_inode_nofs_and_dentry_kernel,
						xfs_411_patched, teardown),
		cmocka_unit_test_setup_teardown(stat_is_served_by_each_cache_stage, xfs_411_patched,
						teardown),
		cmocka_unit_test_setup_teardown(stat_of_missing_name_allocates_nothing,
						xfs_411_patched, teardown),
		cmocka_unit_test_setup_teardown(mkdir_of_existing_directory_is_a_lookup,
						xfs_411_legacy, teardown),
		cmocka_unit_test_setup_teardown(open_data_file_stays_off_the_lrus, ext4_61_patched,
						teardown),
		cmocka_unit_test_setup_teardown(operations_fail_cleanly_at_every_allocation,
						xfs_411_patched, teardown),
		cmocka_unit_test_setup_teardown(operations_fail_cleanly_at_every_allocation,
						ext4_61_patched, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
