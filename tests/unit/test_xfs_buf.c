/*
 * test_xfs_buf.c - fs/xfs/xfs_buf.c and the directory blocks of
 * fs/xfs/libxfs/xfs_dir2*.c: buffer memory is page-allocator memory
 * (CP_OWNER_FSBUF) returned only when a buffer is freed; dirty buffers
 * are held; the buftarg shrinker's b_lru_ref rules in 4.11 (inverted
 * isolate test) and 6.1; it runs for GFP_NOFS reclaimers; one inode
 * cluster buffer per 32 inodes; directory data/leaf/free block counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fs_fixture.inc"
#include "model/super.h"
#include "model/xfs_buf.h"
#include "model/xfs_dir2.h"

#define NAME40 40

/* ---- a buffer cache on its own --------------------------------------- */

struct btfix {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_xfs_buftarg bt;
	struct cp_xfs_dirs dirs;
	struct cp_alloc_ctx ctx;
};

static struct btfix *btfix_new(const char *kernel)
{
	struct cp_mem_params mp = {
		.total_pages = 4096,
		.min_free_kbytes = 128, /* min 32 pages */
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.max_reclaim_retries = 16,
	};
	struct btfix *b = cp_calloc(1, sizeof(*b));

	assert_non_null(b);
	assert_int_equal(cp_mem_init(&b->mem, &mp, &b->vs, NULL), 0);
	/* xfs.ini: 16 KiB inode clusters, 4 KiB directory blocks */
	assert_int_equal(cp_xfs_buftarg_init(&b->bt, &b->mem, cp_kernel_profile_find(kernel),
					     16384, 4096),
			 0);
	assert_int_equal(cp_xfs_dirs_init(&b->dirs, &b->bt, 4096, 512), 0);
	b->ctx.gfp = CP_GFP_KERNEL;
	return b;
}

static int bt_411(void **state)
{
	*state = btfix_new("linux-4.11");
	return 0;
}

static int bt_61(void **state)
{
	*state = btfix_new("linux-6.1");
	return 0;
}

static int bt_6x(void **state)
{
	*state = btfix_new("linux-6.x");
	return 0;
}

static int bt_teardown(void **state)
{
	struct btfix *b = *state;

	cp_xfs_dirs_release(&b->dirs);
	cp_xfs_buftarg_release(&b->bt);
	cp_mem_release(&b->mem);
	cp_free(b);
	return 0;
}

/* A clean, unused buffer of key on the LRU with b_lru_ref ref. */
static uint32_t lru_buffer(struct btfix *b, uint64_t key, unsigned ref)
{
	uint32_t idx;

	assert_int_equal(cp_xfs_buf_get(&b->bt, key, true, &b->ctx, &idx, NULL), 0);
	cp_xfs_buf_set_ref(&b->bt, idx, ref);
	cp_xfs_buf_rele(&b->bt, idx);
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), idx);
	assert_true(cp_list_linked(&cp_xfs_buf_at(&b->bt, idx)->b_lru));
	return idx;
}

/* Buffer pages come from the page allocator under CP_OWNER_FSBUF: an
 * inode cluster 16384 / 4096 = 4 pages, a directory block 1 page, so 5
 * pages; unused buffers on the LRU keep them; the shrinker's frees give
 * them back (b_lru_ref 1 in 4.11: one visit each). */
static void buffer_pages_are_fsbuf_and_return_only_when_freed(void **state)
{
	struct btfix *b = *state;
	uint64_t free0 = b->mem.free_pages;

	lru_buffer(b, cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 7), 1);
	lru_buffer(b, cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 5, 0), 1);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 5);
	assert_int_equal(b->mem.free_pages, free0 - 5);
	assert_int_equal(b->bt.nr_pages, 5);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 2);
	assert_true(cp_xfs_buf_check(&b->bt));
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1); /* the cluster */
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 1);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 0);
	assert_int_equal(b->mem.free_pages, free0);
	assert_int_equal(b->bt.nr_freed, 2);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* A logged buffer is held by its log item: it is not on the LRU, the
 * shrinker cannot see it, and its pages stay until the AIL writes it;
 * then (xfs_buf_rele) it goes to the LRU and can be freed: in 6.1 a new
 * buffer's b_lru_ref 1 takes one rotation, then the second visit frees. */
static void dirty_buffer_is_never_freed_by_the_shrinker(void **state)
{
	struct btfix *b = *state;
	uint64_t key = cp_xfs_buf_key(CP_XFS_BUF_DIR_LEAF, 9, 3);
	uint32_t idx;
	int i;

	assert_int_equal(cp_xfs_buf_get(&b->bt, key, true, &b->ctx, &idx, NULL), 0);
	cp_xfs_buf_log(&b->bt, idx);
	cp_xfs_buf_rele(&b->bt, idx);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1000), 0);
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), idx);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 1);
	assert_int_equal(b->bt.nr_dirty, 1);
	assert_int_equal(cp_xfs_buf_push_dirty(&b->bt, UINT64_MAX), 1);
	assert_int_equal(b->bt.nr_write_bytes, 4096);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 1);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 0);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1);
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), CP_XFS_BUF_NONE);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 0);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* 4.11 xfs_buftarg_isolate() has the inverted test: b_lru_ref 2 is
 * decremented to 1 and the buffer isolated (reported as freed), but
 * xfs_buf_rele() puts it back on the LRU because b_lru_ref is still
 * non-zero (the commit message of 19957a181608 says so); the second
 * visit takes it to 0 and frees it. A b_lru_ref 1 buffer is freed at
 * its first visit. */
static void v411_inverted_isolate_frees_lru_ref_2_at_second_visit(void **state)
{
	struct btfix *b = *state;
	uint64_t key = cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 3, 1);
	uint32_t idx = lru_buffer(b, key, CP_XFS_DIR_BTREE_REF);

	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1); /* visit 1: isolated */
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), idx);  /* ... and back */
	assert_int_equal(cp_xfs_buf_at(&b->bt, idx)->b_lru_ref, 1);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 1);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1); /* visit 2: freed */
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), CP_XFS_BUF_NONE);
	assert_int_equal(b->bt.nr_freed, 1);
	assert_int_equal(b->bt.nr_rotated, 0);
	/* b_lru_ref 1 (a new buffer's): freed at the first visit */
	key = cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 4);
	lru_buffer(b, key, 1);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1);
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), CP_XFS_BUF_NONE);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* 6.1 (after 19957a181608): b_lru_ref 2 rotates at visits 1 and 2
 * (2 -> 1 -> 0) and is freed at visit 3; b_lru_ref 1 at visit 2. */
static void v61_isolate_frees_lru_ref_2_at_third_visit(void **state)
{
	struct btfix *b = *state;
	uint64_t key = cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 3, 1);
	uint32_t idx = lru_buffer(b, key, CP_XFS_DIR_BTREE_REF);

	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 0); /* rotate, 2 -> 1 */
	assert_int_equal(cp_xfs_buf_at(&b->bt, idx)->b_lru_ref, 1);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 0); /* rotate, 1 -> 0 */
	assert_int_equal(cp_xfs_buf_at(&b->bt, idx)->b_lru_ref, 0);
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), idx);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1); /* isolate, free */
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), CP_XFS_BUF_NONE);
	assert_int_equal(b->bt.nr_rotated, 2);
	key = cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 4);
	lru_buffer(b, key, 1);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 0);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 1), 1);
	assert_int_equal(cp_xfs_buf_find(&b->bt, key), CP_XFS_BUF_NONE);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* The LRU is lazy: a buffer used again stays on it. The 4.11 shrinker
 * still isolates it (b_lru_ref 1 -> 0) but cannot free it while held;
 * its last xfs_buf_rele() then frees it (b_lru_ref is 0). With
 * b_lru_ref 2 the release puts it back on the LRU instead. */
static void reused_buffer_isolated_while_held_is_decided_at_last_release(void **state)
{
	struct btfix *b = *state;
	uint64_t k1 = cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 1);
	uint64_t k2 = cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 2, 0);
	uint32_t i1 = lru_buffer(b, k1, 1), i2 = lru_buffer(b, k2, 2), got;
	bool created = true;

	assert_int_equal(cp_xfs_buf_get(&b->bt, k1, false, &b->ctx, &got, &created), 0);
	assert_int_equal(got, i1);
	assert_false(created);
	assert_int_equal(cp_xfs_buf_get(&b->bt, k2, false, &b->ctx, &got, NULL), 0);
	assert_int_equal(b->bt.nr_hits, 2);
	assert_int_equal(b->bt.nr_reads, 0);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 2); /* still listed */
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 2), 2);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 0); /* off the LRU, alive */
	assert_int_equal(b->bt.nr_bufs, 2);
	assert_true(cp_xfs_buf_check(&b->bt));
	cp_xfs_buf_rele(&b->bt, i1); /* b_lru_ref 0: freed */
	assert_int_equal(cp_xfs_buf_find(&b->bt, k1), CP_XFS_BUF_NONE);
	cp_xfs_buf_rele(&b->bt, i2); /* b_lru_ref 1: back on the LRU */
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 1);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 1);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* A buffer that is not cached and not new is read from disk (its bytes
 * counted); a failed allocation changes nothing. Memory: 4096 pages,
 * min watermark 32; leave min + 2 free: a 4-page cluster fails (no
 * reclaim hook), a 1-page directory block fits. */
static void uncached_buffer_is_read_and_failed_get_changes_nothing(void **state)
{
	struct btfix *b = *state;
	uint32_t idx;

	assert_int_equal(cp_xfs_buf_get(&b->bt, cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 2), false,
					&b->ctx, &idx, NULL),
			 0);
	assert_int_equal(b->bt.nr_reads, 1);
	assert_int_equal(b->bt.nr_read_bytes, 16384);
	cp_xfs_buf_rele(&b->bt, idx);
	assert_int_equal(cp_mem_take(&b->mem, CP_OWNER_PROCESS,
				     b->mem.free_pages - b->mem.wmark.min - 2),
			 0);
	assert_int_equal(cp_xfs_buf_get(&b->bt, cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 3), true,
					&b->ctx, &idx, NULL),
			 -CP_ENOSPC);
	assert_int_equal(b->bt.nr_bufs, 1);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 4);
	assert_int_equal(cp_xfs_buf_get(&b->bt, cp_xfs_buf_key(CP_XFS_BUF_DIR_FREE, 1, 0), true,
					&b->ctx, &idx, NULL),
			 0);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 5);
	assert_int_equal(b->bt.nr_created, 1);
	cp_xfs_buf_rele(&b->bt, idx);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* ---- directory blocks ---------------------------------------------------- */

/* XFS_DIR3_DATA_ENTSIZE(40) = round_up(8 + 1 + 40 + 1 + 2 = 52, 8) = 56;
 * xfs_dir3_sf_entsize(40) = 1 + 2 + 40 + 1 + 4 = 48. Geometry of 4 KiB
 * blocks: data block 0 holds 4096 - 64 - 16 - 16 = 4000 bytes of
 * entries, the others 4096 - 64 = 4032; (4096 - 64) / 8 = 504 leaf
 * entries and (4096 - 64) / 2 = 2016 best-free slots per block; the
 * literal area of a 512-byte inode is 512 - 176 = 336 bytes. */
static void dir3_sizes_follow_the_on_disk_structures(void **state)
{
	struct btfix *b = *state;

	assert_int_equal(cp_xfs_dir3_data_entsize(40), 56);
	assert_int_equal(cp_xfs_dir3_data_entsize(1), 16);
	assert_int_equal(cp_xfs_dir3_sf_entsize(40), 48);
	assert_int_equal(b->dirs.data0_bytes, 4000);
	assert_int_equal(b->dirs.data_bytes, 4032);
	assert_int_equal(b->dirs.leaf_ents, 504);
	assert_int_equal(b->dirs.free_ents, 2016);
	assert_int_equal(b->dirs.literal_bytes, 336);
}

static void add_names(struct btfix *b, uint32_t dir, uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		assert_int_equal(cp_xfs_dir_createname(&b->dirs, dir, i, NAME40, &b->ctx), 0);
}

/* 40-character names: 6 fit the inode (6 + 6 x 48 = 294 <= 336; a 7th
 * would need 342), the 7th moves the directory to blocks: data block
 * 0, leaf block 0, free block 0. Block 0 takes 4000 / 56 = 71 entries
 * (3976 bytes), so the 72nd starts block 1; blocks 1.. take 4032 / 56
 * = 72, so the 144th (71 + 72 + 1) starts block 2 - a data block every
 * 72 names (not 4096 / 56 = 73: the v5 header takes 64 bytes). The
 * 505th name needs a second leaf block (504 per block). */
static void directory_gets_a_data_block_every_72_names(void **state)
{
	struct btfix *b = *state;
	const struct cp_xfs_dir *d;

	add_names(b, 7, 0, 6);
	d = cp_xfs_dir_find(&b->dirs, 7);
	assert_non_null(d);
	assert_int_equal(d->nr_data, 0);
	assert_int_equal(b->bt.nr_bufs, 0);
	add_names(b, 7, 6, 7);
	d = cp_xfs_dir_find(&b->dirs, 7);
	assert_int_equal(d->nr_data, 1);
	assert_int_equal(d->nr_leaf, 1);
	assert_int_equal(d->nr_free, 1);
	assert_int_equal(d->data_used, 7 * 56);
	assert_int_equal(b->dirs.nr_sf_to_block, 1);
	add_names(b, 7, 7, 71);
	assert_int_equal(cp_xfs_dir_find(&b->dirs, 7)->nr_data, 1);
	add_names(b, 7, 71, 72);
	assert_int_equal(cp_xfs_dir_find(&b->dirs, 7)->nr_data, 2);
	add_names(b, 7, 72, 143);
	assert_int_equal(cp_xfs_dir_find(&b->dirs, 7)->nr_data, 2);
	add_names(b, 7, 143, 144);
	assert_int_equal(cp_xfs_dir_find(&b->dirs, 7)->nr_data, 3);
	add_names(b, 7, 144, 504);
	assert_int_equal(cp_xfs_dir_find(&b->dirs, 7)->nr_leaf, 1);
	add_names(b, 7, 504, 505);
	d = cp_xfs_dir_find(&b->dirs, 7);
	assert_int_equal(d->nr_leaf, 2);
	/* 505 = 71 + 6 x 72 + 2: data blocks 0..7 */
	assert_int_equal(d->nr_data, 8);
	assert_int_equal(d->nr_free, 1);
	/* every block is a dirty buffer: 8 data + 2 leaf + 1 free */
	assert_int_equal(b->bt.nr_by_type[CP_XFS_BUF_DIR_DATA], 8);
	assert_int_equal(b->bt.nr_by_type[CP_XFS_BUF_DIR_LEAF], 2);
	assert_int_equal(b->bt.nr_by_type[CP_XFS_BUF_DIR_FREE], 1);
	assert_int_equal(b->bt.nr_dirty, 11);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 11);
	assert_true(cp_xfs_dirs_check(&b->dirs));
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* xfs_da_read_buf() sets XFS_DIR_BTREE_REF on each block it reads; a
 * block made by xfs_da_get_buf() keeps the 1 of a new buffer until the
 * next name reads it. After writeback the directory's buffers go to
 * the LRU; one the shrinker freed is read back when needed again. */
static void directory_buffers_get_dir_btree_ref_when_read(void **state)
{
	struct btfix *b = *state;
	uint64_t data0 = cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 7, 0);

	add_names(b, 7, 0, 7); /* block 0 made by this name */
	assert_int_equal(cp_xfs_buf_at(&b->bt, cp_xfs_buf_find(&b->bt, data0))->b_lru_ref, 1);
	add_names(b, 7, 7, 8);
	assert_int_equal(cp_xfs_buf_at(&b->bt, cp_xfs_buf_find(&b->bt, data0))->b_lru_ref,
			 CP_XFS_DIR_BTREE_REF);
	assert_int_equal(cp_xfs_buf_push_dirty(&b->bt, UINT64_MAX), 3);
	assert_int_equal(cp_xfs_buftarg_count(&b->bt), 3);
	/* 4.11: each b_lru_ref 2 buffer goes at its second visit; isolated
	 * buffers come back only after the walk, so one scan visits each
	 * once (3 isolated, all back), the next frees them */
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 6), 3);
	assert_int_equal(b->bt.nr_bufs, 3);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 6), 3);
	assert_int_equal(b->bt.nr_bufs, 0);
	add_names(b, 7, 8, 9); /* data 0, leaf 0, free 0 read back */
	assert_int_equal(b->bt.nr_reads, 3);
	assert_int_equal(b->bt.nr_read_bytes, 3 * 4096);
	assert_int_equal(cp_xfs_buf_at(&b->bt, cp_xfs_buf_find(&b->bt, data0))->b_lru_ref,
			 CP_XFS_DIR_BTREE_REF);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* ---- with the filesystem --------------------------------------------------- */

static int xfs_411(void **state)
{
	*state = fsfix_new("xfs", "linux-4.11", CP_POLICY_PATCHED, 100000);
	return 0;
}

static int fs_teardown(void **state)
{
	fsfix_free(*state);
	return 0;
}

/* Inode clusters hold 16384 / 512 = 32 inodes: the root is inode 1 and
 * files get 2, 3, ..., so inodes 1..31 share cluster 0 (30 files) and
 * the 31st file (inode 32) starts cluster 1. Each cluster buffer is 4
 * pages, dirty (held) while its inodes are. */
static void thirty_two_inodes_share_one_cluster_buffer(void **state)
{
	struct fsfix *f = *state;
	struct cp_xfs_buftarg *bt = &f->fs.bt;
	uint64_t i;

	for (i = 0; i < 30; i++)
		assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 100 + i, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(bt->nr_by_type[CP_XFS_BUF_INODE], 1);
	assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 200, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(bt->nr_by_type[CP_XFS_BUF_INODE], 2);
	assert_int_equal(f->fs.xfs.nr_dirty_clusters, 2);
	assert_int_equal(cp_xfs_buftarg_count(bt), 0); /* all held dirty */
	/* the 31 names in the root: 1 data + 1 leaf + 1 free block */
	assert_int_equal(f->mem.nr_owner[CP_OWNER_FSBUF], 2 * 4 + 3);
	fsfix_check(f);
	/* the AIL writes clusters and directory blocks: all to the LRU */
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, UINT64_MAX), 2);
	assert_int_equal(bt->nr_writes, 3);
	assert_int_equal(cp_xfs_buftarg_count(bt), 5);
	assert_int_equal(bt->nr_dirty, 0);
	fsfix_check(f);
}

/* The AIL writes in logging order: the root's cluster (logged at mount)
 * first; the root directory's blocks (logged when the 7th name moved it
 * out of the inode) before cluster 1 (logged by inode 32, the 31st
 * file); so pushing one cluster writes no directory block, pushing the
 * second writes the three. */
static void ail_push_writes_directory_blocks_in_logging_order(void **state)
{
	struct fsfix *f = *state;
	uint64_t i;

	for (i = 0; i < 31; i++)
		assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 100 + i, NAME40, &f->ctx, NULL), 0);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 1), 1);
	assert_int_equal(f->fs.bt.nr_writes, 0);
	assert_int_equal(cp_xfs_ail_push(&f->fs.xfs, 1), 1);
	assert_int_equal(f->fs.bt.nr_writes, 3);
	fsfix_check(f);
}


/* super_cache_scan() refuses a reclaimer without __GFP_FS (SHRINK_STOP),
 * but xfs_buftarg_shrink_scan() does not look at it: a GFP_NOFS
 * shrink_slab() frees clean buffers while every dentry stays. 40 files:
 * after the AIL push 2 clusters (b_lru_ref 1) and 3 directory blocks on
 * the buffer LRU, 40 dentries on the dentry LRU. 4.11 pressure
 * nr_scanned = nr_eligible = 1000: delta = (4 x 1000 / 2) x 5 / 1001 =
 * 9, one batch of 9 (>= freeable); the walk visits the 5 buffers once
 * (isolated ones return after it), freeing both clusters at their first
 * visit and putting the three b_lru_ref 2 directory blocks back. */
static void buffer_shrinker_runs_for_gfp_nofs_unlike_superblock(void **state)
{
	struct fsfix *f = *state;
	struct cp_shrinker_registry reg;
	struct cp_super sb;
	struct cp_shrink_control sc = { .gfp = CP_GFP_NOFS, .ctx = &f->ctx };
	struct cp_shrink_pressure p = { .nr_scanned = 1000, .nr_eligible = 1000, .priority = 0 };
	uint64_t i, dentries;

	for (i = 0; i < 40; i++)
		assert_int_equal(cp_fs_create(&f->fs, f->fs.root, 100 + i, NAME40, &f->ctx, NULL), 0);
	cp_xfs_ail_push(&f->fs.xfs, UINT64_MAX);
	assert_int_equal(cp_xfs_buftarg_count(&f->fs.bt), 5);
	cp_shrinker_registry_init(&reg, f->fs.kernel, &f->vs);
	cp_super_init(&sb, &cp_fs_super_ops, &f->fs, 100, 100);
	assert_int_equal(cp_register_shrinker(&reg, &sb.shrinker), 0);
	assert_int_equal(cp_register_shrinker(&reg, &f->fs.bt.shrinker), 0);
	dentries = f->fs.dc.nr_dentry;
	assert_true(cp_shrink_slab(&reg, &sc, &p) > 0);
	assert_true(sb.nr_stop > 0);
	assert_int_equal(f->fs.dc.nr_dentry, dentries);
	assert_int_equal(f->fs.bt.nr_by_type[CP_XFS_BUF_INODE], 0);
	assert_int_equal(f->fs.bt.nr_freed, 2);
	assert_int_equal(cp_xfs_buftarg_count(&f->fs.bt), 3);
	assert_int_equal(f->fs.bt.shrinker.nr_scanned_total, 9);
	fsfix_check(f);
}

/* 6.15+ xfs_buf_alloc_backing_mem(): a buffer of more than a page and a
 * power-of-two size is one folio. The 16 KiB inode cluster is one
 * order-2 block (4 consecutive pfns, aligned to 4); a 4 KiB directory
 * block is a single page either way. Freeing returns all 5 pages. */
static void v6x_inode_cluster_buffer_is_one_order_2_folio(void **state)
{
	struct btfix *b = *state;
	uint64_t free0 = b->mem.free_pages;
	uint32_t idx;
	const struct cp_xfs_buf *bp;

	idx = lru_buffer(b, cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 7), 1);
	bp = cp_xfs_buf_at(&b->bt, idx);
	assert_int_equal(bp->b_pages, 4);
	assert_int_equal(bp->b_pfns[0] % 4, 0);
	assert_int_equal(bp->b_pfns[1], bp->b_pfns[0] + 1);
	assert_int_equal(bp->b_pfns[3], bp->b_pfns[0] + 3);
	/* xfs_buf_free_backing_mem() puts the folio whole (cp_mem_free_folio) */
	assert_true(bp->b_state & CP_XFS_BSTATE_FOLIO);
	lru_buffer(b, cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 5, 0), 1);
	bp = cp_xfs_buf_at(&b->bt,
			   cp_xfs_buf_find(&b->bt, cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 5, 0)));
	assert_false(bp->b_state & CP_XFS_BSTATE_FOLIO);
	assert_int_equal(b->bt.nr_folio, 1);
	assert_int_equal(b->bt.nr_vmalloc, 0);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 5);
	assert_true(cp_xfs_buf_check(&b->bt));
	/* as 6.1: b_lru_ref 1 is one rotation, the second visit frees */
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 2), 0);
	assert_int_equal(cp_xfs_buftarg_scan(&b->bt, 2), 2);
	assert_int_equal(b->mem.free_pages, free0);
	assert_true(cp_mem_check(&b->mem));
}

/* Every free page alone (its buddy held): no order-2 block anywhere. */
static void fragment_to_order_0(struct btfix *b)
{
	uint32_t *pfns = cp_calloc(4096, sizeof(*pfns));
	uint32_t n = 0, i;

	assert_non_null(pfns);
	while (cp_mem_alloc_pages(&b->mem, CP_OWNER_PROCESS, 1, CP_MIGRATE_MOVABLE, &b->ctx,
				  &pfns[n]) == 0)
		n++;
	assert_int_equal(cp_mem_take(&b->mem, CP_OWNER_PROCESS, b->mem.free_pages), 0);
	for (i = 0; i < n; i++)
		if (pfns[i] % 2 == 0 &&
		    cp_buddy_free_block_order(&b->mem.zones[0].buddy, pfns[i] + 1) < 0)
			cp_mem_free_block(&b->mem, CP_OWNER_PROCESS, pfns[i], 0, NULL);
	cp_free(pfns);
	assert_true(b->mem.free_pages > 1000);
}

/* 6.15+: with no free order-2 block the folio (no direct reclaim,
 * __GFP_NORETRY) fails and __vmalloc() takes the 4 pages one by one. */
static void v6x_buffer_without_an_order_2_block_falls_back_to_pages(void **state)
{
	struct btfix *b = *state;
	uint32_t idx;

	fragment_to_order_0(b);
	idx = lru_buffer(b, cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 7), 1);
	assert_int_equal(cp_xfs_buf_at(&b->bt, idx)->b_pages, 4);
	assert_int_equal(b->bt.nr_folio, 0);
	assert_int_equal(b->bt.nr_vmalloc, 1);
	assert_int_equal(b->mem.nr_owner[CP_OWNER_FSBUF], 4);
	assert_true(cp_xfs_buf_check(&b->bt));
}

/* Before 6.15 (xfs_buf_alloc_pages: alloc_pages_bulk) a buffer's pages
 * are order-0 allocations: no folio, no fallback counted. */
static void v61_inode_cluster_buffer_takes_pages_one_by_one(void **state)
{
	struct btfix *b = *state;

	lru_buffer(b, cp_xfs_buf_key(CP_XFS_BUF_INODE, 0, 7), 1);
	assert_int_equal(b->bt.nr_folio, 0);
	assert_int_equal(b->bt.nr_vmalloc, 0);
	assert_false(cp_kernel_profile_find("linux-6.1")->xfs_buf_folio);
	assert_true(cp_kernel_profile_find("linux-6.x")->xfs_buf_folio);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(v6x_inode_cluster_buffer_is_one_order_2_folio, bt_6x,
						bt_teardown),
		cmocka_unit_test_setup_teardown(v6x_buffer_without_an_order_2_block_falls_back_to_pages,
						bt_6x, bt_teardown),
		cmocka_unit_test_setup_teardown(v61_inode_cluster_buffer_takes_pages_one_by_one, bt_61,
						bt_teardown),
		cmocka_unit_test_setup_teardown(buffer_pages_are_fsbuf_and_return_only_when_freed,
						bt_411, bt_teardown),
		cmocka_unit_test_setup_teardown(dirty_buffer_is_never_freed_by_the_shrinker, bt_61,
						bt_teardown),
		cmocka_unit_test_setup_teardown(v411_inverted_isolate_frees_lru_ref_2_at_second_visit,
						bt_411, bt_teardown),
		cmocka_unit_test_setup_teardown(v61_isolate_frees_lru_ref_2_at_third_visit, bt_61,
						bt_teardown),
		cmocka_unit_test_setup_teardown(
			reused_buffer_isolated_while_held_is_decided_at_last_release, bt_411,
			bt_teardown),
		cmocka_unit_test_setup_teardown(
			uncached_buffer_is_read_and_failed_get_changes_nothing, bt_411, bt_teardown),
		cmocka_unit_test_setup_teardown(dir3_sizes_follow_the_on_disk_structures, bt_411,
						bt_teardown),
		cmocka_unit_test_setup_teardown(directory_gets_a_data_block_every_72_names, bt_411,
						bt_teardown),
		cmocka_unit_test_setup_teardown(directory_buffers_get_dir_btree_ref_when_read,
						bt_411, bt_teardown),
		cmocka_unit_test_setup_teardown(thirty_two_inodes_share_one_cluster_buffer, xfs_411,
						fs_teardown),
		cmocka_unit_test_setup_teardown(ail_push_writes_directory_blocks_in_logging_order,
						xfs_411, fs_teardown),
		cmocka_unit_test_setup_teardown(buffer_shrinker_runs_for_gfp_nofs_unlike_superblock,
						xfs_411, fs_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
