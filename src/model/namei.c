/*
 * namei.c - a filesystem instance and the VFS operations of the
 * workloads (the model's system calls).
 *
 * Mechanism (fs/namei.c path walk and open, fs/xfs/xfs_iops.c /
 * xfs_inode.c create, ref §1 "What fs_mark actually does", §9.4): a
 * lookup first asks the dcache; on a miss it allocates a dentry
 * (GFP_KERNEL) and asks the filesystem for the inode, which is either
 * still cached, held by XFS as reclaimable (recycled without I/O), or
 * read from disk into a new inode. A create allocates the dentry the
 * same way, then the new inode and its XFS log item inside the create
 * transaction, where XFS strips __GFP_FS (so reclaim triggered there
 * cannot run the superblock shrinker), and d_instantiate gives the
 * dentry the inode's reference. Closing the file is the dput that puts
 * the dentry on the LRU, still pinning the inode.
 *
 * SIMPLIFIED:
 * - Negative dentries are not kept: a lookup of a missing name returns
 *   -CP_ENOENT without allocating; a failed create leaves no dentry.
 * - No permission checks, no path strings: a name is (parent, id, len).
 * - XFS directory blocks are xfs_dir2.c's and their buffers xfs_buf.c's;
 *   a create adds its name there right after allocating the inode, as
 *   xfs_create() does. ext4's directory blocks are not modelled.
 * - If a data file's page-cache mapping cannot be made after the XFS
 *   directory entry was added, the create fails but the entry stays
 *   counted in the directory blocks (one entry's bytes; dd's files at
 *   setup are the only files with a mapping).
 * - Inode numbers are handed out sequentially (XFS allocates chunks of
 *   64 in the AG nearest the parent; sequential numbers keep the
 *   files of one directory in consecutive clusters, as there).
 */
#include "model/namei.h"

#include "model/super.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/bug.h"
#include "model/fs_profile.h"
#include "model/gfp.h"
#include "model/pagecache.h"
#include "model/profile.h"

#define ROOT_NAME_ID 0

static bool is_xfs(const struct cp_fs *fs)
{
	return fs->fsp->kind == CP_FS_XFS;
}

static void release_caches(struct cp_fs *fs)
{
	cp_slab_cache_release(&fs->dentry_cache);
	cp_slab_cache_release(&fs->name_cache);
	cp_slab_cache_release(&fs->inode_cache);
	cp_slab_cache_release(&fs->ili_cache);
}

/* A context without __GFP_FS for allocations inside a transaction. */
static struct cp_alloc_ctx nofs_ctx(const struct cp_alloc_ctx *ctx, bool nofs)
{
	struct cp_alloc_ctx c = *ctx;

	if (nofs)
		c.gfp &= ~(unsigned)CP_GFP_FS;
	return c;
}

/* A new inode for a create: XFS logs it (dirty cluster, log item). The
 * inode number is used up even if the create fails later (the inode is
 * then evicted with i_nlink 0 and, on XFS, reclaimed like any other). */
static int new_inode(struct cp_fs *fs, struct cp_alloc_ctx *ctx, struct cp_inode **out)
{
	struct cp_alloc_ctx ictx = nofs_ctx(ctx, fs->fsp->create_inode_nofs);
	int rc;

	if (fs->next_ino >= CP_DIRENT_NONE)
		return -CP_ENOSPC;
	if (is_xfs(fs))
		rc = cp_xfs_ialloc(&fs->xfs, fs->next_ino, &ictx, out);
	else
		rc = cp_icache_new_inode(&fs->ic, fs->next_ino, &ictx, out);
	if (rc == 0)
		fs->next_ino++;
	return rc;
}

static int mount_root(struct cp_fs *fs)
{
	struct cp_alloc_ctx ctx = { .gfp = CP_GFP_KERNEL };
	struct cp_inode *inode;
	struct cp_dentry *d;
	int rc;

	rc = new_inode(fs, &ctx, &inode);
	if (rc)
		return rc;
	inode->i_nlink = 2;
	rc = cp_d_alloc(&fs->dc, NULL, ROOT_NAME_ID, 1, &ctx, &d);
	if (rc) {
		inode->i_nlink = 0; /* evicted and freed by the last iput */
		cp_iput(&fs->ic, inode);
		return rc;
	}
	cp_d_instantiate(d, inode);
	fs->root = d;
	return 0;
}

int cp_fs_init(struct cp_fs *fs, const struct cp_fs_params *p, struct cp_diag *diag)
{
	const struct cp_fs_profile *fsp = p->fs;
	struct cp_slab_geometry name_geo = fsp->external_name, ili_geo = fsp->inode_log_item;
	struct cp_icache_params ip;
	struct cp_dcache_params dp;
	int rc;

	memset(fs, 0, sizeof(*fs));
	fs->fsp = fsp;
	fs->kernel = p->kernel;
	fs->mem = p->mem;
	fs->pc = p->pc;
	fs->vmstat = p->vmstat;
	fs->next_ino = 1;
	/* the external names' cache where the kernel's struct external_name
	 * differs from the fs profile's (6.14+: kmalloc-rcl-96) */
	if (p->kernel->external_name_size) {
		name_geo.name = p->kernel->external_name_cache;
		name_geo.object_size = p->kernel->external_name_size;
		name_geo.objects_per_slab = p->kernel->external_name_per_slab;
		name_geo.order = 0;
	}
	/* the slab pages' migratetype where the kernels differ (profile.h) */
	if (p->kernel->dname_reclaimable)
		name_geo.migratetype = CP_MIGRATE_RECLAIMABLE;
	if (p->kernel->xfs_ili_reclaimable)
		ili_geo.migratetype = CP_MIGRATE_RECLAIMABLE;
	if ((rc = cp_slab_cache_init(&fs->dentry_cache, p->mem, &fsp->dentry)) ||
	    (rc = cp_slab_cache_init(&fs->name_cache, p->mem, &name_geo)) ||
	    (rc = cp_slab_cache_init(&fs->inode_cache, p->mem, &fsp->inode)))
		goto out_caches;
	fs->has_ili = fsp->inode_log_item.objects_per_slab > 0;
	if (fs->has_ili &&
	    (rc = cp_slab_cache_init(&fs->ili_cache, p->mem, &ili_geo)))
		goto out_caches;
	if (p->kernel->slab_obj_charge_extra) {
		/* 5.9+: SLAB_ACCOUNT objects charged one by one */
		cp_slab_cache_charge_objects(&fs->dentry_cache, p->kernel->slab_obj_charge_extra);
		cp_slab_cache_charge_objects(&fs->name_cache, p->kernel->slab_obj_charge_extra);
		cp_slab_cache_charge_objects(&fs->inode_cache, p->kernel->slab_obj_charge_extra);
		if (fs->has_ili)
			cp_slab_cache_charge_objects(&fs->ili_cache,
						     p->kernel->slab_obj_charge_extra);
	}
	if (is_xfs(fs) && fsp->inodes_per_cluster == 0) {
		rc = -CP_EINVAL;
		goto out_caches;
	}
	ip = (struct cp_icache_params){
		.policy = p->policy,
		.kernel = p->kernel,
		.inode_cache = &fs->inode_cache,
		.pc = p->pc,
		.vmstat = p->vmstat,
	};
	rc = cp_icache_init(&fs->ic, &ip);
	if (rc)
		goto out_caches;
	dp = (struct cp_dcache_params){
		.policy = p->policy,
		.dentry_cache = &fs->dentry_cache,
		.name_cache = &fs->name_cache,
		.dname_inline_len = p->kernel->dname_inline_len ? p->kernel->dname_inline_len
								: fsp->dname_inline_len,
		.external_name_overhead = p->kernel->external_name_overhead
						  ? p->kernel->external_name_overhead
						  : fsp->external_name_overhead,
		.ic = &fs->ic,
		.vmstat = p->vmstat,
	};
	rc = cp_dcache_init(&fs->dc, &dp);
	if (rc)
		goto out_icache;
	if (is_xfs(fs)) {
		rc = cp_xfs_buftarg_init(&fs->bt, p->mem, p->kernel, fsp->inode_cluster_bytes,
					 fsp->dir_block_bytes);
		if (rc)
			goto out_dcache;
		rc = cp_xfs_dirs_init(&fs->dirs, &fs->bt, fsp->dir_block_bytes,
				      fsp->disk_inode_bytes);
		if (rc)
			goto out_bt;
		cp_xfs_icache_init(&fs->xfs, &fs->ic, fsp, p->kernel,
				   fs->has_ili ? &fs->ili_cache : NULL, p->vmstat);
		fs->xfs.bt = &fs->bt;
		if (p->kernel->xfs_cil_memory && fsp->log.log_bytes) {
			rc = cp_xfs_cil_init(&fs->cil, p->mem, &fsp->log, p->nr_cpus ? p->nr_cpus : 1);
			if (rc)
				goto out_bt;
			cp_xfs_cil_attach(&fs->cil, &fs->bt);
		}
	}
	rc = cp_diskdir_init(&fs->disk);
	if (rc)
		goto out_bt;
	rc = mount_root(fs);
	if (rc)
		goto out_disk;
	if (p->pc) {
		p->pc->mapping_emptied = cp_icache_mapping_emptied;
		p->pc->mapping_emptied_priv = &fs->ic;
	}
	return 0;

out_disk:
	cp_diskdir_release(&fs->disk);
out_bt:
	cp_xfs_cil_release(&fs->cil);
	cp_xfs_icache_release(&fs->xfs);
	cp_xfs_dirs_release(&fs->dirs);
	cp_xfs_buftarg_release(&fs->bt);
out_dcache:
	cp_dcache_release(&fs->dc);
out_icache:
	cp_icache_release(&fs->ic);
out_caches:
	release_caches(fs);
	return cp_diag_set(diag, rc, "fs %s: mount failed: %s", fsp->name, cp_strerror(rc));
}

void cp_fs_release(struct cp_fs *fs)
{
	cp_diskdir_release(&fs->disk);
	cp_xfs_cil_release(&fs->cil);
	cp_xfs_icache_release(&fs->xfs);
	cp_xfs_dirs_release(&fs->dirs);
	cp_xfs_buftarg_release(&fs->bt);
	cp_dcache_release(&fs->dc);
	cp_icache_release(&fs->ic);
	release_caches(fs);
	fs->root = NULL;
}

static uint32_t dir_ino(const struct cp_dentry *dir)
{
	CP_BUG_ON(!dir || !dir->d_inode || dir->d_count == 0);
	return (uint32_t)dir->d_inode->i_ino;
}

/* Give a newly instantiated inode its data mapping back. */
static void attach_mapping(struct cp_fs *fs, struct cp_inode *inode, uint32_t mapping)
{
	if (mapping == CP_DIRENT_NONE || inode->i_mapping != CP_NO_MAPPING)
		return;
	cp_icache_set_mapping(inode, mapping);
	if (fs->pc)
		cp_mapping_get(fs->pc, mapping)->host = inode;
}

/*
 * The lookup of a path component (walk_component -> lookup_fast /
 * lookup_slow): *out referenced. -CP_ENOENT when the name is not on
 * disk (nothing allocated).
 */
static int lookup(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id,
		  struct cp_alloc_ctx *ctx, struct cp_dentry **out, enum cp_lookup_result *res)
{
	const struct cp_dirent *e;
	struct cp_alloc_ctx ictx;
	enum cp_iget_result ir;
	struct cp_inode *inode;
	struct cp_dentry *d;
	uint32_t ino, mapping;
	unsigned name_len;
	int rc;

	d = cp_d_lookup(&fs->dc, dir, name_id);
	if (d) {
		CP_BUG_ON(!d->d_inode); /* negative dentries are not kept */
		*res = CP_LOOKUP_DCACHE_HIT;
		*out = d;
		return 0;
	}
	e = cp_diskdir_lookup(&fs->disk, dir_ino(dir), name_id);
	if (!e)
		return -CP_ENOENT;
	ino = e->ino;
	mapping = e->mapping;
	name_len = e->name_len;
	/* d_alloc may reclaim: nothing read above is a pointer into a cache */
	rc = cp_d_alloc(&fs->dc, dir, name_id, name_len, ctx, &d);
	if (rc)
		return rc;
	ictx = nofs_ctx(ctx, fs->fsp->iget_inode_nofs);
	rc = cp_iget(&fs->ic, ino, &ictx, &inode, &ir);
	if (rc) {
		cp_d_drop(&fs->dc, d);
		cp_dput(&fs->dc, d);
		return rc;
	}
	attach_mapping(fs, inode, mapping);
	cp_d_instantiate(d, inode);
	*res = ir == CP_IGET_HIT ? CP_LOOKUP_ICACHE_HIT
	       : ir == CP_IGET_RECYCLED ? CP_LOOKUP_RECYCLED
					: CP_LOOKUP_ICACHE_MISS;
	*out = d;
	return 0;
}

/* Create a name: dentry, inode, disk entry. *out referenced. */
static int create_name(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id,
		       unsigned name_len, bool is_dir, uint32_t nr_pages,
		       struct cp_alloc_ctx *ctx, struct cp_dentry **out)
{
	struct cp_dirent e = { 0 };
	struct cp_inode *inode;
	struct cp_dentry *d;
	uint32_t mapping = CP_DIRENT_NONE;
	int rc;

	rc = cp_diskdir_reserve(&fs->disk);
	if (rc)
		return rc;
	rc = cp_d_alloc(&fs->dc, dir, name_id, name_len, ctx, &d);
	if (rc)
		return rc;
	rc = new_inode(fs, ctx, &inode);
	if (rc)
		goto out_dentry;
	if (is_xfs(fs)) {
		/* xfs_dir_createname() in the same transaction (NOFS) */
		struct cp_alloc_ctx tctx = nofs_ctx(ctx, fs->fsp->create_inode_nofs);

		rc = cp_xfs_dir_createname(&fs->dirs, dir_ino(dir), name_id, name_len, &tctx);
		/* xfs_trans_commit -> xlog_cil_commit: the new inode and the
		 * directory buffers get their log vectors (a failure here is
		 * out of memory: the run ends) */
		if (rc == 0 && fs->cil.ready)
			rc = cp_xfs_cil_commit(&fs->cil, &fs->bt, 1, fs->dirs.logged,
					       fs->dirs.nr_logged, &tctx);
		if (rc) {
			inode->i_nlink = 0; /* never linked: evicted at once */
			cp_iput(&fs->ic, inode);
			goto out_dentry;
		}
	}
	if (is_dir)
		inode->i_nlink = 2;
	if (nr_pages) {
		rc = cp_pagecache_add_mapping(fs->pc, nr_pages, ctx->memcg, inode, &mapping);
		if (rc) {
			inode->i_nlink = 0; /* never linked: evicted at once */
			cp_iput(&fs->ic, inode);
			goto out_dentry;
		}
		cp_icache_set_mapping(inode, mapping);
	}
	cp_d_instantiate(d, inode);
	e.name_id = name_id;
	e.parent_ino = dir_ino(dir);
	e.ino = (uint32_t)inode->i_ino;
	e.mapping = mapping;
	e.name_len = (uint16_t)name_len;
	e.is_dir = is_dir;
	cp_diskdir_add(&fs->disk, &e);
	*out = d;
	return 0;

out_dentry:
	cp_d_drop(&fs->dc, d);
	cp_dput(&fs->dc, d);
	return rc;
}

int cp_fs_mkdir(struct cp_fs *fs, struct cp_dentry *parent, uint64_t name_id,
		unsigned name_len, struct cp_alloc_ctx *ctx, struct cp_dentry **out,
		bool *existed)
{
	enum cp_lookup_result res;
	struct cp_dentry *d;
	bool found = true;
	int rc;

	rc = lookup(fs, parent, name_id, ctx, &d, &res);
	if (rc == 0) {
		fs->nr_lookup[res]++;
	} else if (rc == -CP_ENOENT) {
		found = false;
		rc = create_name(fs, parent, name_id, name_len, true, 0, ctx, &d);
	}
	if (rc)
		return rc;
	fs->nr_mkdir++;
	if (existed)
		*existed = found;
	if (out)
		*out = d;
	else
		cp_dput(&fs->dc, d);
	return 0;
}

int cp_fs_create(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id, unsigned name_len,
		 struct cp_alloc_ctx *ctx, uint64_t *ino)
{
	enum cp_lookup_result res;
	struct cp_dentry *d;
	int rc;

	rc = lookup(fs, dir, name_id, ctx, &d, &res);
	if (rc == 0)
		fs->nr_lookup[res]++;
	else if (rc == -CP_ENOENT)
		rc = create_name(fs, dir, name_id, name_len, false, 0, ctx, &d);
	if (rc)
		return rc;
	fs->nr_create++;
	if (ino)
		*ino = d->d_inode->i_ino;
	cp_dput(&fs->dc, d); /* close() */
	return 0;
}

int cp_fs_stat(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id,
	       struct cp_alloc_ctx *ctx, enum cp_lookup_result *res)
{
	enum cp_lookup_result r;
	struct cp_dentry *d;
	int rc;

	rc = lookup(fs, dir, name_id, ctx, &d, &r);
	if (rc)
		return rc;
	fs->nr_stat++;
	fs->nr_lookup[r]++;
	if (res)
		*res = r;
	cp_dput(&fs->dc, d);
	return 0;
}

int cp_fs_open(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id, unsigned name_len,
	       uint32_t nr_pages, struct cp_alloc_ctx *ctx, struct cp_dentry **file)
{
	enum cp_lookup_result res;
	struct cp_dentry *d;
	int rc;

	if (nr_pages && !fs->pc)
		return -CP_EINVAL;
	rc = lookup(fs, dir, name_id, ctx, &d, &res);
	if (rc == 0)
		fs->nr_lookup[res]++;
	else if (rc == -CP_ENOENT)
		rc = create_name(fs, dir, name_id, name_len, false, nr_pages, ctx, &d);
	if (rc)
		return rc;
	fs->nr_open++;
	*file = d;
	return 0;
}

void cp_fs_close(struct cp_fs *fs, struct cp_dentry *file)
{
	cp_dput(&fs->dc, file);
}

void cp_fs_put(struct cp_fs *fs, struct cp_dentry *d)
{
	cp_dput(&fs->dc, d);
}

uint64_t cp_fs_nr_cached_objects(const struct cp_fs *fs)
{
	return is_xfs(fs) ? cp_xfs_reclaim_inodes_count(&fs->xfs) : 0;
}

uint64_t cp_fs_free_cached_objects(struct cp_fs *fs, uint64_t nr_to_scan,
				   struct cp_alloc_ctx *ctx)
{
	return is_xfs(fs) ? cp_xfs_reclaim_inodes_nr(&fs->xfs, nr_to_scan, ctx) : 0;
}

bool cp_fs_check(const struct cp_fs *fs)
{
	return cp_dcache_check(&fs->dc) && cp_icache_check(&fs->ic) &&
	       (!is_xfs(fs) || (cp_xfs_icache_check(&fs->xfs) && cp_xfs_buf_check(&fs->bt) &&
				cp_xfs_dirs_check(&fs->dirs) && cp_xfs_cil_check(&fs->cil))) &&
	       cp_diskdir_check(&fs->disk) && cp_mem_check(fs->mem);
}

/* The superblock shrinker's view of this filesystem (fs/super.c): the
 * LRU counts and prune functions of its caches, XFS's reclaimable inodes
 * as ->nr_cached_objects / ->free_cached_objects. */
static uint64_t sb_nr_dentries(void *fs, int memcg_id)
{
	return cp_dcache_lru_count(&((struct cp_fs *)fs)->dc, memcg_id);
}

static uint64_t sb_nr_inodes(void *fs, int memcg_id)
{
	return cp_icache_lru_count(&((struct cp_fs *)fs)->ic, memcg_id);
}

static uint64_t sb_nr_cached(void *fs, int memcg_id)
{
	(void)memcg_id;
	return cp_fs_nr_cached_objects(fs);
}

static uint64_t sb_prune_dcache(void *fs, struct cp_shrink_control *sc)
{
	return cp_prune_dcache_sb(&((struct cp_fs *)fs)->dc, sc->memcg_id, sc->nr_to_scan,
				  sc->ctx);
}

static uint64_t sb_prune_icache(void *fs, struct cp_shrink_control *sc)
{
	return cp_prune_icache_sb(&((struct cp_fs *)fs)->ic, sc->memcg_id, sc->nr_to_scan,
				  sc->ctx, sc->is_kswapd);
}

static uint64_t sb_free_cached(void *fs, struct cp_shrink_control *sc)
{
	return cp_fs_free_cached_objects(fs, sc->nr_to_scan, sc->ctx);
}

const struct cp_super_ops cp_fs_super_ops = {
	.nr_dentries = sb_nr_dentries,
	.nr_inodes = sb_nr_inodes,
	.nr_cached_objects = sb_nr_cached,
	.prune_dcache = sb_prune_dcache,
	.prune_icache = sb_prune_icache,
	.free_cached_objects = sb_free_cached,
};
