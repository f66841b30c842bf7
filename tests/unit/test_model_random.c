/*
 * test_model_random.c - the whole model (memory, page cache, dcache,
 * icache, XFS stage, XFS buffer cache and directory blocks, superblock
 * and buffer shrinkers, vmscan, kswapd, direct and memcg reclaim,
 * compaction) under
 * a seeded random mix of operations, with every module's invariants
 * checked after each one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/rng.h"
#include "model/compaction.h"
#include "model/filemap.h"
#include "model/fs_profile.h"
#include "model/gfp.h"
#include "model/namei.h"
#include "model/reclaim.h"
#include "model/super.h"

struct world {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_memcg memcg;
	struct cp_pagecache pc;
	struct cp_fs fs;
	struct cp_super sb;
	struct cp_shrinker_registry reg;
	struct cp_reclaim r;
	struct cp_compaction c;
	struct cp_dentry *files[2];
	struct cp_dentry *dirs[2];
	uint64_t nr_created[2];
};


static void world_init(struct world *w, const char *kernel, enum cp_ref_policy policy,
		       bool memcg)
{
	const struct cp_kernel_profile *k = cp_kernel_profile_find(kernel);
	struct cp_mem_params mp = {
		.total_pages = 6000, .min_free_kbytes = 512, .watermark_scale_factor = 10,
		.min_free_kbytes_max = k->min_free_kbytes_max,
		.memcg_reclaim_retries = k->memcg_reclaim_retries, .max_reclaim_retries = 16,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 2, .lru_add_batch = k->lru_add_batch,
					  .workingset_flag = k->workingset_flag };
	struct cp_fs_params fp = { .fs = cp_fs_profile_find("xfs"), .kernel = k, .policy = policy,
				   .mem = &w->mem, .pc = &w->pc, .vmstat = &w->vs };
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	unsigned i;

	memset(w, 0, sizeof(*w));
	assert_int_equal(cp_mem_init(&w->mem, &mp, &w->vs, NULL), 0);
	assert_int_equal(cp_pagecache_init(&w->pc, &pp, &w->mem, &w->vs), 0);
	assert_int_equal(cp_fs_init(&w->fs, &fp, NULL), 0);
	cp_shrinker_registry_init(&w->reg, k, &w->vs);
	cp_super_init(&w->sb, &cp_fs_super_ops, &w->fs, 100, 100);
	assert_int_equal(cp_register_shrinker(&w->reg, &w->sb.shrinker), 0);
	/* the XFS buffer cache's own shrinker, as sim.c registers it */
	assert_int_equal(cp_register_shrinker(&w->reg, &w->fs.bt.shrinker), 0);
	cp_reclaim_init(&w->r, &w->mem, &w->pc, &w->reg, &w->vs, k);
	cp_reclaim_install(&w->r);
	cp_compaction_init(&w->c, &w->mem, &w->pc, &w->vs);
	if (memcg) {
		cp_memcg_init(&w->memcg, 1, 3000);
		ctx.memcg = &w->memcg;
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(cp_fs_open(&w->fs, cp_fs_root(&w->fs), 100 + i, 8, 1500, &ctx,
					    &w->files[i]), 0);
		assert_int_equal(cp_fs_mkdir(&w->fs, cp_fs_root(&w->fs), 200 + i, 1, &ctx,
					     &w->dirs[i], NULL), 0);
		/* XFS on 6.1: readahead uses large folios (sim.c) */
		if (k->xfs_large_folios)
			cp_mapping_set_large_folios(&w->pc, cp_file_mapping(w->files[i]));
	}
}

static void world_release(struct world *w)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		cp_fs_put(&w->fs, w->dirs[i]);
		cp_fs_close(&w->fs, w->files[i]);
	}
	cp_fs_release(&w->fs);
	cp_pagecache_release(&w->pc);
	cp_mem_release(&w->mem);
}

static void check_all(struct world *w)
{
	assert_true(cp_mem_check(&w->mem));
	assert_true(cp_pagecache_check(&w->pc));
	assert_true(cp_fs_check(&w->fs));
	assert_true(cp_buddy_check(&w->mem.zones[0].buddy));
	assert_true(cp_compaction_check(&w->c));
	if (w->memcg.id)
		assert_true(cp_memcg_check(&w->memcg));
}

static void random_ops(const char *kernel, enum cp_ref_policy policy, bool memcg,
		       unsigned nr_ops, uint64_t seed)
{
	struct world *w = calloc(1, sizeof(*w));
	struct cp_rng rng;
	struct cp_reclaim_work work = { 0 };
	struct cp_alloc_ctx nofs = { .gfp = CP_GFP_NOFS, .work = &work };
	struct cp_alloc_ctx kern = { .gfp = CP_GFP_KERNEL, .cpu = 1, .work = &work };
	struct cp_file_ra_state ra[2] = { { 0 }, { 0 } };
	unsigned op;

	assert_non_null(w);
	world_init(w, kernel, policy, memcg);
	if (memcg) {
		nofs.memcg = &w->memcg;
		kern.memcg = &w->memcg;
	}
	cp_rng_init(&rng, seed, 1);
	for (op = 0; op < nr_ops; op++) {
		unsigned f = (unsigned)cp_rng_below(&rng, 2);
		int rc = 0;

		switch (cp_rng_below(&rng, 8)) {
		case 0:
		case 1: { /* read() of 1..64 pages somewhere in a file */
			struct cp_read_result res;
			uint32_t at = (uint32_t)cp_rng_below(&rng, 1500);

			rc = cp_filemap_read(&w->pc, cp_file_mapping(w->files[f]), at,
					     (uint32_t)(1 + cp_rng_below(&rng, 64)), 32, 0, &ra[f],
					     &nofs, &res);
			break;
		}
		case 2: /* fs_mark create */
			if (w->nr_created[f] < 3000)
				rc = cp_fs_create(&w->fs, w->dirs[f], w->nr_created[f]++, 40, &kern,
						  NULL);
			break;
		case 3: /* stat of an existing file */
			if (w->nr_created[f])
				rc = cp_fs_stat(&w->fs, w->dirs[f],
						cp_rng_below(&rng, w->nr_created[f]), &kern, NULL);
			break;
		case 4: /* kswapd, when woken; else every 8th time compact the
			 * whole zone (no draw: the other operations stay) */
			if (w->r.kswapd_wanted)
				cp_balance_pgdat(&w->r, w->r.kswapd_order, cp_reclaim_top_zone(&w->r), &kern, NULL);
			else if (op % 8 == 0)
				cp_compact_zone(&w->c, 0, CP_COMPACT_ORDER_ALL,
						CP_MIGRATE_MODE_SYNC_LIGHT, 1, NULL);
			break;
		case 5: /* direct reclaim, with or without __GFP_FS */
			cp_try_to_free_pages(&w->r, cp_rng_below(&rng, 2) ? &kern : &nofs);
			break;
		case 6: { /* shrink_slab at a random pressure */
			struct cp_shrink_control sc = { .gfp = CP_GFP_KERNEL, .ctx = &kern,
							.memcg_id = memcg ? 1 : 0 };
			struct cp_shrink_pressure p = { cp_rng_below(&rng, 512), 3000,
							(int)cp_rng_below(&rng, 13) };

			cp_shrink_slab(&w->reg, &sc, &p);
			break;
		}
		default: /* XFS background work; on 6.x the CIL's push work,
			  * the log write done at once, and xfsaild's flush */
			cp_xfs_ail_push(&w->fs.xfs, cp_rng_below(&rng, 4));
			cp_xfs_reclaim_worker(&w->fs.xfs);
			if (w->fs.cil.ready) {
				uint64_t bytes;

				if (cp_rng_below(&rng, 2))
					cp_xfs_cil_flush(&w->fs.cil);
				if (cp_xfs_cil_push(&w->fs.cil, &bytes) && bytes)
					cp_xfs_cil_written(&w->fs.cil, op + 1, op + 2);
				cp_xfs_cil_complete(&w->fs.cil, op + 2);
			}
			break;
		}
		/* out of memory is a legal outcome in a tiny box; nothing else */
		assert_true(rc == 0 || rc == -CP_ENOSPC);
		check_all(w);
	}
	assert_true(w->vs.v[CP_VM_PGSCAN_DIRECT] + w->vs.v[CP_VM_PGSCAN_KSWAPD] +
			    w->vs.v[CP_VM_PGSCAN_MEMCG] > 0);
	assert_true(w->vs.v[CP_VM_SLABS_SCANNED] > 0);
	/* the creates made buffers; global reclaim freed some of them
	 * (memcg reclaim never runs the memcg-unaware buffer shrinker) */
	assert_true(w->fs.bt.nr_created > 0);
	assert_true(memcg || w->fs.bt.nr_freed > 0);
	/* compaction moved pages */
	assert_true(w->vs.v[CP_VM_PGMIGRATE_SUCCESS] > 0);
	/* the CIL's vectors came and went (6.x only) */
	assert_true(cp_kernel_profile_find(kernel)->xfs_cil_memory ==
		    (w->fs.cil.ready && w->fs.cil.nr_lvs > 0 && w->fs.cil.nr_commits > 0));
	/* large-folio readahead ran (6.1) or never did (4.11) */
	assert_true(cp_kernel_profile_find(kernel)->xfs_large_folios ==
		    (w->vs.v[CP_VM_RA_FOLIO_ALLOC] > 0));
	world_release(w);
	free(w);
}

/* 5 x 25,000 = 125,000 operations across kernel profiles, policies and
 * the two reclaim regimes. */
static void v411_legacy_global(void **state) { (void)state; random_ops("linux-4.11", CP_POLICY_LEGACY, false, 25000, 1); }
static void v411_patched_memcg(void **state) { (void)state; random_ops("linux-4.11", CP_POLICY_PATCHED, true, 25000, 2); }
static void v61_legacy_memcg(void **state) { (void)state; random_ops("linux-6.1", CP_POLICY_LEGACY, true, 25000, 3); }
static void v61_patched_global(void **state) { (void)state; random_ops("linux-6.1", CP_POLICY_PATCHED, false, 25000, 4); }
static void v6x_patched_global(void **state) { (void)state; random_ops("linux-6.x", CP_POLICY_PATCHED, false, 25000, 5); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v411_legacy_global),
		cmocka_unit_test(v411_patched_memcg),
		cmocka_unit_test(v61_legacy_memcg),
		cmocka_unit_test(v61_patched_global),
		cmocka_unit_test(v6x_patched_global),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
