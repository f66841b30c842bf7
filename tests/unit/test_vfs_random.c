/*
 * test_vfs_random.c - seeded random operation sequences over a mounted
 * model filesystem (creates, lookups, opens, closes, drops, prunes, XFS
 * reclaim, AIL pushes, memory pressure with re-entrant direct and memcg
 * reclaim, injected host allocation failures), with every module's
 * _check() asserted after each operation. 4 configurations x 25,000
 * operations; the same seed run twice must give identical counters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/rng.h"
#include "fs_fixture.inc"

#define NR_OPS 25000
#define NDIRS 4
#define NNAMES 150
#define NHELD 24
#define NDATA 2
#define NFRESH 64 /* memcgs that appear during the run (ids 3..) */

struct rnd {
	struct fsfix *f;
	struct cp_rng rng;
	struct cp_memcg cg[2];        /* ids 1 (limited) and 2 */
	struct cp_alloc_ctx ctxs[3];  /* root, cg 1, cg 2 */
	struct cp_memcg fresh[NFRESH]; /* a new memcg's first charge allocates its
					* LRU lists and slab parts: failure points */
	struct cp_alloc_ctx fresh_ctx[NFRESH];
	int nr_fresh;
	struct cp_dentry *dirs[NDIRS];
	struct cp_dentry *held[NHELD];
	int nr_held;
	struct cp_dentry *data[NDATA];
	uint64_t nr_ok, nr_enomem, nr_enospc, nr_enoent;
	uint64_t nr_memcg_reclaims;
};

/* A reclaimer shaped like shrink_node + super_cache_scan: shrinkers only
 * with __GFP_FS; some process memory given back so reclaim progresses. */
static uint64_t shrink_lists(struct rnd *r, int memcg_id, struct cp_alloc_ctx *ctx)
{
	struct cp_fs *fs = &r->f->fs;

	if (!(ctx->gfp & CP_GFP_FS))
		return 0;
	cp_prune_dcache_sb(&fs->dc, memcg_id, 32, ctx);
	cp_prune_icache_sb(&fs->ic, memcg_id, 32, ctx, false);
	if (memcg_id == 0)
		cp_fs_free_cached_objects(fs, 32, ctx);
	return 0;
}

static uint64_t rnd_direct_reclaim(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr)
{
	struct rnd *r = priv;
	struct cp_mem *m = &r->f->mem;
	uint64_t before = m->free_pages, give = 8;
	unsigned id;

	(void)nr;
	for (id = 0; id < r->f->fs.dc.lru.nr_lists; id++)
		shrink_lists(r, (int)id, ctx);
	if (give > m->nr_owner[CP_OWNER_PROCESS])
		give = m->nr_owner[CP_OWNER_PROCESS];
	cp_mem_free(m, CP_OWNER_PROCESS, give, NULL);
	return m->free_pages - before;
}

static uint64_t rnd_memcg_reclaim(void *priv, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
				  uint64_t nr)
{
	struct rnd *r = priv;
	uint64_t before = memcg->usage_pages;

	(void)nr;
	r->nr_memcg_reclaims++;
	shrink_lists(r, memcg->id, ctx);
	return before - memcg->usage_pages;
}

static uint64_t below(struct rnd *r, uint64_t n)
{
	return cp_rng_below(&r->rng, n);
}

static void tally(struct rnd *r, int rc)
{
	if (rc == 0)
		r->nr_ok++;
	else if (rc == -CP_ENOMEM)
		r->nr_enomem++;
	else if (rc == -CP_ENOSPC)
		r->nr_enospc++;
	else if (rc == -CP_ENOENT)
		r->nr_enoent++;
	else
		fail_msg("unexpected rc %d", rc);
}

static void hold(struct rnd *r, struct cp_dentry *d)
{
	if (r->nr_held == NHELD) {
		int i = (int)below(r, NHELD);

		cp_fs_close(&r->f->fs, r->held[i]);
		r->held[i] = d;
		return;
	}
	r->held[r->nr_held++] = d;
}

static void release_held(struct rnd *r, int i)
{
	cp_fs_close(&r->f->fs, r->held[i]);
	r->held[i] = r->held[--r->nr_held];
}

static void one_op(struct rnd *r)
{
	struct cp_fs *fs = &r->f->fs;
	struct cp_alloc_ctx *ctx = &r->ctxs[below(r, 3)];
	struct cp_dentry *dir = r->dirs[below(r, NDIRS)], *d;
	uint64_t name = below(r, NNAMES);
	unsigned len = below(r, 4) ? 40 : 12;
	bool xfs = fs->fsp->kind == CP_FS_XFS;
	uint64_t op = below(r, 100);
	int k = (int)below(r, NDATA);
	int rc = 0;

	if (r->nr_fresh < NFRESH && below(r, 400) == 0) {
		/* a task of a memcg never seen before creates a file: its
		 * first charge allocates LRU lists and slab parts, and may
		 * find the host out of memory */
		ctx = &r->fresh_ctx[r->nr_fresh++];
		op = 0;
		if (below(r, 2))
			cp_alloc_fail_after((long)below(r, 4));
	} else if (r->nr_fresh && below(r, 8) == 0) {
		ctx = &r->fresh_ctx[below(r, (uint64_t)r->nr_fresh)];
	}
	if (below(r, 16) == 0)
		cp_alloc_fail_after((long)below(r, 6));
	if (op < 25) {
		rc = cp_fs_create(fs, dir, name, len, ctx, NULL);
	} else if (op < 45) {
		rc = cp_fs_stat(fs, dir, name, ctx, NULL);
	} else if (op < 50) {
		rc = cp_fs_mkdir(fs, fs->root, 100000 + below(r, 8), 3, ctx, NULL, NULL);
	} else if (op < 55) {
		rc = cp_fs_open(fs, dir, name, len, 0, ctx, &d);
		if (rc == 0)
			hold(r, d);
	} else if (op < 60) {
		if (r->nr_held)
			release_held(r, (int)below(r, (uint64_t)r->nr_held));
	} else if (op < 63) {
		if (r->nr_held)
			cp_d_drop(&fs->dc, r->held[below(r, (uint64_t)r->nr_held)]);
	} else if (op < 68) {
		cp_prune_dcache_sb(&fs->dc, (int)below(r, 3 + (uint64_t)r->nr_fresh), 1 + below(r, 64),
				   ctx);
	} else if (op < 73) {
		cp_prune_icache_sb(&fs->ic, (int)below(r, 3 + (uint64_t)r->nr_fresh), 1 + below(r, 64),
				   ctx, below(r, 2));
	} else if (op < 76) {
		cp_fs_free_cached_objects(fs, 1 + below(r, 64), ctx);
	} else if (op < 78) {
		if (xfs)
			cp_xfs_reclaim_worker(&fs->xfs);
	} else if (op < 81) {
		if (xfs)
			cp_xfs_ail_push(&fs->xfs, below(r, 4));
	} else if (op < 84) {
		if (!r->data[k]) {
			rc = cp_fs_open(fs, fs->root, 200000 + (uint64_t)k, 8, 256, ctx, &d);
			if (rc == 0)
				r->data[k] = d;
		} else {
			/* reads bring pages in while the file is open */
			r->f->pc.mappings[cp_file_mapping(r->data[k])].nrpages = below(r, 257);
		}
	} else if (op < 86) {
		if (r->data[k]) {
			cp_fs_close(fs, r->data[k]);
			r->data[k] = NULL;
		}
	} else if (op < 88) {
		uint32_t n = r->f->pc.nr_mappings;

		if (n)
			cp_invalidate_mapping_pages(&r->f->pc, (uint32_t)below(r, n));
	} else if (op < 90) {
		if (r->nr_held) {
			struct cp_inode *inode = r->held[below(r, (uint64_t)r->nr_held)]->d_inode;

			if (below(r, 2))
				cp_inode_mark_dirty(inode);
			else
				cp_inode_writeback_done(&fs->ic, inode);
		}
	} else if (op < 95) {
		rc = cp_mem_take(&r->f->mem, CP_OWNER_PROCESS, 1 + below(r, 64));
		if (rc)
			rc = 0; /* not enough free memory: fine */
	} else if (op < 98) {
		uint64_t n = 1 + below(r, 64);

		if (n > r->f->mem.nr_owner[CP_OWNER_PROCESS])
			n = r->f->mem.nr_owner[CP_OWNER_PROCESS];
		cp_mem_free(&r->f->mem, CP_OWNER_PROCESS, n, NULL);
	} else {
		struct cp_inode *inode;
		uint64_t ino = 1 + below(r, fs->next_ino);

		/* raw icache use (a path walk's igrab of a cached inode) */
		inode = cp_icache_find(&fs->ic, ino);
		if (inode && !(inode->i_state & CP_I_RECLAIMABLE)) {
			cp_ihold(inode);
			cp_iput(&fs->ic, inode);
		}
	}
	cp_alloc_fail_after(-1);
	tally(r, rc);
}

static void check_all(struct rnd *r)
{
	fsfix_check(r->f);
	assert_true(cp_memcg_check(&r->cg[0]));
	assert_true(cp_memcg_check(&r->cg[1]));
	for (int i = 0; i < r->nr_fresh; i++)
		assert_true(cp_memcg_check(&r->fresh[i]));
}

struct outcome {
	struct cp_vmstat vs;
	uint64_t nr_dentry, nr_inodes, nr_ok, nr_enomem, nr_enospc, next_ino;
	uint64_t lookups[4];
};

static void run(const char *fs_name, const char *kernel, enum cp_ref_policy policy,
		uint64_t seed, struct outcome *out)
{
	struct rnd r = { 0 };
	struct cp_mem_hooks hooks = {
		.direct_reclaim = rnd_direct_reclaim,
		.memcg_reclaim = rnd_memcg_reclaim,
		.priv = &r,
	};
	uint64_t i;

	r.f = fsfix_new(fs_name, kernel, policy, 6000);
	cp_rng_init(&r.rng, seed, 1);
	/* small enough that 5.9+ per-object charges (about 1 KiB a file)
	 * also reach it often */
	cp_memcg_init(&r.cg[0], 1, 10);
	cp_memcg_init(&r.cg[1], 2, UINT64_MAX);
	for (i = 0; i < 3; i++)
		r.ctxs[i] = r.f->ctx;
	r.ctxs[1].memcg = &r.cg[0];
	r.ctxs[2].memcg = &r.cg[1];
	for (i = 0; i < NFRESH; i++) {
		cp_memcg_init(&r.fresh[i], 3 + (int)i, UINT64_MAX);
		r.fresh_ctx[i] = r.f->ctx;
		r.fresh_ctx[i].memcg = &r.fresh[i];
	}
	for (i = 0; i < NDIRS; i++)
		assert_int_equal(cp_fs_mkdir(&r.f->fs, r.f->fs.root, 1000 + i, 2, &r.f->ctx,
					     &r.dirs[i], NULL), 0);
	/* little free memory: slab growth reclaims from the start */
	assert_int_equal(cp_mem_take(&r.f->mem, CP_OWNER_PROCESS, r.f->mem.free_pages - 200), 0);
	cp_mem_set_hooks(&r.f->mem, &hooks);
	for (i = 0; i < NR_OPS; i++) {
		one_op(&r);
		check_all(&r);
	}
	/* the run exercised what it is meant to */
	assert_true(r.f->vs.v[CP_VM_DENTRIES_FREED] > 1000);
	assert_true(r.f->vs.v[CP_VM_INODES_FREED] > 100);
	assert_true(r.f->vs.v[CP_VM_ALLOCSTALL] > 10);
	assert_true(r.nr_memcg_reclaims > 10);
	assert_true(r.nr_enomem > 5);
	assert_true(r.f->fs.nr_lookup[CP_LOOKUP_ICACHE_MISS] > 10);
	assert_true(r.f->fs.nr_lookup[CP_LOOKUP_ICACHE_HIT] > 10);
	if (r.f->fs.fsp->kind == CP_FS_XFS)
		assert_true(r.f->fs.nr_lookup[CP_LOOKUP_RECYCLED] > 10);
	out->vs = r.f->vs;
	out->nr_dentry = r.f->fs.dc.nr_dentry;
	out->nr_inodes = r.f->fs.ic.nr_inodes;
	out->nr_ok = r.nr_ok;
	out->nr_enomem = r.nr_enomem;
	out->nr_enospc = r.nr_enospc;
	out->next_ino = r.f->fs.next_ino;
	memcpy(out->lookups, r.f->fs.nr_lookup, sizeof(out->lookups));
	while (r.nr_held)
		release_held(&r, 0);
	for (i = 0; i < NDATA; i++)
		if (r.data[i])
			cp_fs_close(&r.f->fs, r.data[i]);
	for (i = 0; i < NDIRS; i++)
		cp_fs_put(&r.f->fs, r.dirs[i]);
	check_all(&r);
	fsfix_free(r.f);
}

static void random_ops_keep_invariants_xfs_411_legacy(void **state)
{
	struct outcome o;

	(void)state;
	run("xfs", "linux-4.11", CP_POLICY_LEGACY, 1, &o);
}

static void random_ops_keep_invariants_xfs_61_patched(void **state)
{
	struct outcome o;

	(void)state;
	run("xfs", "linux-6.1", CP_POLICY_PATCHED, 2, &o);
}

static void random_ops_keep_invariants_ext4_411_patched(void **state)
{
	struct outcome o;

	(void)state;
	run("ext4", "linux-4.11", CP_POLICY_PATCHED, 3, &o);
}

/* Determinism: the same seed and configuration twice give the same
 * counters (nothing depends on pointer values or host state). */
static void same_seed_gives_same_counters_ext4_61_legacy(void **state)
{
	struct outcome a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	run("ext4", "linux-6.1", CP_POLICY_LEGACY, 4, &a);
	run("ext4", "linux-6.1", CP_POLICY_LEGACY, 4, &b);
	assert_memory_equal(&a, &b, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_ops_keep_invariants_xfs_411_legacy),
		cmocka_unit_test(random_ops_keep_invariants_xfs_61_patched),
		cmocka_unit_test(random_ops_keep_invariants_ext4_411_patched),
		cmocka_unit_test(same_seed_gives_same_counters_ext4_61_legacy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
