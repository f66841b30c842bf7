/*
 * test_xfs_log_cil.c - fs/xfs/xfs_log_cil.c as xfs_log_cil.c models it:
 * a vector per logged item (kmalloc-512 for an inode, kmalloc-8k for a
 * directory block, a shadow for an item logged again, kept on the item
 * until the next checkpoint or the buffer's write-back), the push at
 * XLOG_CIL_SPACE_LIMIT with per-CPU space folded past limit / CPUs, and
 * the vectors freed only when the checkpoint's commit record is on
 * disk: with the next push's first iclog, or at once for a flush.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "model/gfp.h"
#include "model/memory.h"
#include "model/profile.h"
#include "model/xfs_buf.h"
#include "model/xfs_log_cil.h"

#define MIB (1ULL << 20)

struct cilfix {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_xfs_buftarg bt;
	struct cp_xfs_cil cil;
	struct cp_alloc_ctx ctx;
};

/* profiles/xfs.ini [log]: 64 MiB log (limit 8 MiB), 32 KiB iclogs,
 * 256 B a new inode, 4144 B a directory block */
static struct cilfix *fix_new(unsigned nr_cpus)
{
	struct cp_mem_params mp = {
		.total_pages = 1u << 16, /* 256 MiB: room for 32 K vectors */
		.min_free_kbytes = 1024,
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.max_reclaim_retries = 16,
	};
	struct cp_fs_log log = {
		.log_bytes = 64 * MIB,
		.iclog_bytes = 32768,
		.inode_space_bytes = 256,
		.dir_block_space_bytes = 4144,
		.inode_lv = { "kmalloc-512", 512, 16, 1, false, CP_MIGRATE_UNMOVABLE },
		.dir_lv = { "kmalloc-8192", 8192, 4, 3, false, CP_MIGRATE_UNMOVABLE },
	};
	struct cilfix *f = cp_calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(cp_xfs_buftarg_init(&f->bt, &f->mem, cp_kernel_profile_find("linux-6.x"),
					     16384, 4096),
			 0);
	assert_int_equal(cp_xfs_cil_init(&f->cil, &f->mem, &log, nr_cpus), 0);
	cp_xfs_cil_attach(&f->cil, &f->bt);
	f->ctx.gfp = CP_GFP_NOFS;
	return f;
}

static int one_cpu(void **state)
{
	*state = fix_new(1);
	return 0;
}

static int two_cpus(void **state)
{
	*state = fix_new(2);
	return 0;
}

static int teardown(void **state)
{
	struct cilfix *f = *state;

	cp_xfs_cil_release(&f->cil);
	cp_xfs_buftarg_release(&f->bt);
	cp_mem_release(&f->mem);
	cp_free(f);
	return 0;
}

static void commit_inodes(struct cilfix *f, int cpu, unsigned n)
{
	unsigned i;

	f->ctx.cpu = cpu;
	for (i = 0; i < n; i++)
		assert_int_equal(cp_xfs_cil_commit(&f->cil, &f->bt, 1, NULL, 0, &f->ctx), 0);
}

/* xlog_cil_alloc_shadow_bufs: a new inode's vector is a kmalloc-512
 * object on UNMOVABLE pages charged to nobody, 16 to a 2-page slab */
static void new_inode_takes_a_kmalloc_512_vector(void **state)
{
	struct cilfix *f = *state;

	commit_inodes(f, 0, 17);
	assert_int_equal(f->cil.caches[0].nr_objects, 17);
	assert_int_equal(cp_xfs_cil_pages(&f->cil), 4); /* two order-1 slabs */
	assert_int_equal(f->cil.caches[0].migratetype, CP_MIGRATE_UNMOVABLE);
	assert_false(f->cil.caches[0].accounted);
	assert_true(cp_xfs_cil_check(&f->cil));
}

/* XLOG_CIL_SPACE_LIMIT = 64 MiB / 8 = 8 MiB = 32768 inodes of 256 B;
 * one CPU's share is the whole limit, and its part is folded into the
 * shared count only when it would pass it: the 32769th commit pushes */
static void push_is_queued_at_an_eighth_of_the_log(void **state)
{
	struct cilfix *f = *state;

	assert_int_equal(f->cil.space_limit, 8 * MIB);
	assert_int_equal(f->cil.blocking_limit, 16 * MIB);
	commit_inodes(f, 0, 32768);
	assert_false(f->cil.push_wanted);
	commit_inodes(f, 0, 1);
	assert_true(f->cil.push_wanted);
	assert_int_equal(f->cil.space_used, 8 * MIB + 256);
}

/* xlog_cil_insert_items: a CPU's space reaches the shared count only
 * when it passes limit / CPUs (4 MiB of 2 CPUs); the push needs the
 * shared count at the limit. 16384 inodes each on two CPUs are 8 MiB,
 * yet nothing is folded; the 16385th on CPU 0 folds 4 MiB + 256 (still
 * below); CPU 1's fold brings the shared count past 8 MiB. */
static void per_cpu_space_reaches_the_push_only_when_folded(void **state)
{
	struct cilfix *f = *state;

	commit_inodes(f, 0, 16384);
	commit_inodes(f, 1, 16384);
	assert_int_equal(f->cil.space_used, 0);
	assert_false(f->cil.push_wanted);
	commit_inodes(f, 0, 1);
	assert_int_equal(f->cil.space_used, 4 * MIB + 256);
	assert_false(f->cil.push_wanted);
	commit_inodes(f, 1, 1);
	assert_true(f->cil.push_wanted);
	/* xlog_cil_insert_pcp_aggregate: exact from here on */
	assert_false(f->cil.pcp_mode);
}

/* A directory data buffer, held and dirty as a transaction leaves it. */
static uint32_t dirty_dir_buffer(struct cilfix *f)
{
	uint32_t idx;

	assert_int_equal(cp_xfs_buf_get(&f->bt, cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, 7, 0), true,
					&f->ctx, &idx, NULL),
			 0);
	cp_xfs_buf_log(&f->bt, idx);
	return idx;
}

/* n transaction commits that logged buffer idx */
static void commit_buffer(struct cilfix *f, uint32_t idx, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		assert_int_equal(cp_xfs_cil_commit(&f->cil, &f->bt, 0, &idx, 1, &f->ctx), 0);
}

/* Its write-back by xfsaild, then the transaction's hold let go. */
static void write_back_and_release(struct cilfix *f, uint32_t idx)
{
	cp_xfs_buf_written(&f->bt, idx);
	cp_xfs_buf_rele(&f->bt, idx);
}

/* xlog_cil_alloc_shadow_bufs + xfs_cil_prepare_item: a buffer first
 * logged in a checkpoint has no shadow, so one is made and becomes its
 * vector (li_lv_shadow = NULL); logged again, a new shadow is made and
 * kept on the item while the vector, as big, is reused in place; later
 * changes in the checkpoint reuse both */
static void directory_buffer_gets_a_vector_and_keeps_one_shadow(void **state)
{
	struct cilfix *f = *state;
	uint32_t idx = dirty_dir_buffer(f);

	commit_buffer(f, idx, 3);
	assert_int_equal(f->cil.caches[1].nr_objects, 2);
	assert_int_equal(f->cil.nr_shadows, 1);
	assert_int_equal(f->cil.tail - f->cil.ctx_first, 1);
	/* space counted once: the block's first logging */
	assert_int_equal(f->cil.pcp_space[0], 4144);
	assert_true(cp_xfs_cil_check(&f->cil));
	write_back_and_release(f, idx);
}

/* The shadow outlives the checkpoint: the next checkpoint's first
 * logging of the buffer makes it the vector - no new buffer - and the
 * second logging makes a new shadow; the first checkpoint's vector goes
 * when that checkpoint completes (xlog_cil_committed) */
static void shadow_becomes_the_next_checkpoints_vector(void **state)
{
	struct cilfix *f = *state;
	uint32_t idx = dirty_dir_buffer(f);
	uint64_t bytes, made;

	commit_buffer(f, idx, 2);
	made = f->cil.nr_lvs;
	cp_xfs_cil_flush(&f->cil);
	assert_true(cp_xfs_cil_push(&f->cil, &bytes));
	commit_buffer(f, idx, 1);
	assert_int_equal(f->cil.nr_lvs, made);
	assert_int_equal(f->cil.nr_shadows, 0);
	assert_int_equal(f->cil.caches[1].nr_objects, 2);
	commit_buffer(f, idx, 1);
	assert_int_equal(f->cil.nr_lvs, made + 1);
	assert_int_equal(f->cil.nr_shadows, 1);
	cp_xfs_cil_written(&f->cil, 100, 200);
	assert_int_equal(cp_xfs_cil_complete(&f->cil, 200), 1);
	assert_int_equal(f->cil.caches[1].nr_objects, 2);
	assert_true(cp_xfs_cil_check(&f->cil));
	write_back_and_release(f, idx);
}

/* xfs_buf_item_relse -> xfs_buf_item_free: the buffer written back, its
 * log item goes and frees the shadow (kvfree(li_lv_shadow)); the
 * vector in the checkpoint stays until the checkpoint completes */
static void write_back_frees_the_shadow(void **state)
{
	struct cilfix *f = *state;
	uint32_t idx = dirty_dir_buffer(f);

	commit_buffer(f, idx, 2);
	assert_int_equal(f->cil.caches[1].nr_objects, 2);
	cp_xfs_buf_written(&f->bt, idx);
	assert_int_equal(f->cil.nr_shadows, 0);
	assert_int_equal(f->cil.caches[1].nr_objects, 1);
	assert_int_equal(cp_xfs_buf_at(&f->bt, idx)->b_cil_shadow, CP_XFS_BUF_NO_SHADOW);
	assert_true(cp_xfs_cil_check(&f->cil));
	cp_xfs_buf_rele(&f->bt, idx);
}

/* xlog_write: the checkpoint's space plus a 512-byte record header for
 * every iclog (32256 B of payload) it fills: 200 inodes = 51200 B in 2 */
static void push_writes_the_space_and_a_header_per_iclog(void **state)
{
	struct cilfix *f = *state;
	uint64_t bytes;

	commit_inodes(f, 0, 200);
	cp_xfs_cil_flush(&f->cil);
	assert_true(cp_xfs_cil_push(&f->cil, &bytes));
	assert_int_equal(bytes, 51200 + 2 * 512);
	assert_int_equal(f->cil.seq, 2);
	assert_false(cp_xfs_cil_has_items(&f->cil));
}

/* A background push leaves its commit record in the active iclog: the
 * checkpoint is freed only when the next push writes that iclog */
static void background_checkpoint_is_freed_by_the_next_push(void **state)
{
	struct cilfix *f = *state;
	uint64_t bytes;

	commit_inodes(f, 0, 32769);
	assert_true(f->cil.push_wanted);
	assert_true(cp_xfs_cil_push(&f->cil, &bytes));
	cp_xfs_cil_written(&f->cil, 100, 200);
	assert_int_equal(cp_xfs_cil_complete(&f->cil, 1000000), 0);
	assert_int_equal(f->cil.caches[0].nr_objects, 32769);
	commit_inodes(f, 0, 10);
	cp_xfs_cil_flush(&f->cil);
	assert_true(cp_xfs_cil_push(&f->cil, &bytes));
	cp_xfs_cil_written(&f->cil, 2000000, 3000000);
	/* the first iclog of the second write carries the first commit record */
	assert_int_equal(cp_xfs_cil_complete(&f->cil, 2000000), 1);
	assert_int_equal(f->cil.caches[0].nr_objects, 10);
	/* the flushed one was written stable: done with its own write */
	assert_int_equal(cp_xfs_cil_complete(&f->cil, 3000000), 1);
	assert_int_equal(f->cil.caches[0].nr_objects, 0);
	assert_int_equal(cp_xfs_cil_pages(&f->cil), 0);
	assert_int_equal(f->mem.nr_owner[f->cil.caches[0].owner], 0);
	assert_true(cp_xfs_cil_check(&f->cil));
}

/* xlog_cil_flush on an empty CIL queues nothing (xlog_cil_push_now) */
static void flush_of_an_empty_cil_does_nothing(void **state)
{
	struct cilfix *f = *state;
	uint64_t bytes = 1;

	cp_xfs_cil_flush(&f->cil);
	assert_false(f->cil.push_wanted);
	assert_true(cp_xfs_cil_push(&f->cil, &bytes));
	assert_int_equal(bytes, 0);
	assert_int_equal(f->cil.nr_pushes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(new_inode_takes_a_kmalloc_512_vector, one_cpu,
						teardown),
		cmocka_unit_test_setup_teardown(push_is_queued_at_an_eighth_of_the_log, one_cpu,
						teardown),
		cmocka_unit_test_setup_teardown(per_cpu_space_reaches_the_push_only_when_folded,
						two_cpus, teardown),
		cmocka_unit_test_setup_teardown(directory_buffer_gets_a_vector_and_keeps_one_shadow,
						one_cpu, teardown),
		cmocka_unit_test_setup_teardown(shadow_becomes_the_next_checkpoints_vector, one_cpu,
						teardown),
		cmocka_unit_test_setup_teardown(write_back_frees_the_shadow, one_cpu, teardown),
		cmocka_unit_test_setup_teardown(push_writes_the_space_and_a_header_per_iclog,
						one_cpu, teardown),
		cmocka_unit_test_setup_teardown(background_checkpoint_is_freed_by_the_next_push,
						one_cpu, teardown),
		cmocka_unit_test_setup_teardown(flush_of_an_empty_cil_does_nothing, one_cpu,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
