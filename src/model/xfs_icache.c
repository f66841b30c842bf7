/*
 * xfs_icache.c - XFS inode reclaim: the second stage after VFS eviction.
 *
 * Mechanism (fs/xfs/xfs_icache.c, xfs_super.c; ref §3.5): XFS embeds the
 * VFS inode in its xfs_inode, so when the VFS evicts an inode XFS does
 * not free it: xfs_fs_destroy_inode() tags it reclaimable in the per-AG
 * tree. Those inodes are the superblock's "cached objects"
 * (xfs_reclaim_inodes_count) and are freed by xfs_reclaim_inodes_nr()
 * from the superblock shrinker and by a background worker every 5 s.
 * A lookup that finds a reclaimable inode recycles it instead of reading
 * it from disk (xfs_iget_cache_hit).
 *
 * Dirtiness: a freshly created inode is logged in its create transaction
 * and stays dirty until its inode cluster buffer is written back, either
 * by AIL pushing (xfsaild) or, in 4.11, by reclaim itself: with
 * SYNC_WAIT xfs_reclaim_inode() flushes a dirty inode (xfs_iflush, which
 * writes the whole cluster) and waits for the I/O before freeing, so the
 * reclaimer sleeps on disk writes. Since 5.9 reclaim never writes: dirty
 * inodes are skipped until the AIL has cleaned them (profile
 * xfs_reclaim_blocks). The background worker never waits in either.
 *
 * Kernel functions modelled: xfs_fs_destroy_inode /
 * xfs_inode_set_reclaim_tag, xfs_iget_cache_hit (reclaimable case),
 * xfs_reclaim_inodes_count, xfs_reclaim_inodes_nr, xfs_reclaim_inodes_ag
 * (4.11) / xfs_icwalk (6.1), xfs_reclaim_inode, xfs_reclaim_worker,
 * xfs_iflush_cluster, xfs_ail_push_all. Versions 4.11 and 6.1.
 *
 * SIMPLIFIED:
 * - One AG; reclaimable inodes are visited in eviction order (the kernel
 *   walks the radix tree in inode-number order from a cursor, which for
 *   sequentially numbered, FIFO-evicted files is nearly the same order).
 *   A skipped inode goes to the end, as a cursor would move past it.
 * - Dirtiness is per inode with a per-cluster count; a cluster's AIL
 *   position is set when it first becomes dirty (relogging does not move
 *   it); log forces for pinned inodes are folded into the cluster write.
 * - xfs_ail_push_all() is a request flag for the engine, which owns the
 *   device's write rate.
 * - No inactivation work (no unlinks), no RCU delay of xfs_inode_free.
 */
#include "model/xfs_icache.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "model/fs_profile.h"
#include "model/profile.h"

static uint32_t cluster_of(const struct cp_xfs_icache *x, uint64_t ino)
{
	return (uint32_t)(ino / x->fsp->inodes_per_cluster);
}

/* xfs_fs_destroy_inode(): keep it, tagged reclaimable. */
static void destroy_inode(void *priv, struct cp_inode *inode)
{
	struct cp_xfs_icache *x = priv;

	CP_BUG_ON(!(inode->i_state & CP_I_RECLAIMABLE));
	cp_list_add_tail(&inode->i_lru, &x->reclaimable);
	x->nr_reclaimable++;
}

/* xfs_iget_cache_hit() on an XFS_IRECLAIMABLE inode: untag it. */
static void recycle_inode(void *priv, struct cp_inode *inode)
{
	struct cp_xfs_icache *x = priv;

	CP_BUG_ON(!(inode->i_state & CP_I_RECLAIMABLE) || x->nr_reclaimable == 0);
	cp_list_del(&inode->i_lru);
	x->nr_reclaimable--;
}

int cp_xfs_icache_init(struct cp_xfs_icache *x, struct cp_icache *ic,
		       const struct cp_fs_profile *fsp, const struct cp_kernel_profile *kernel,
		       struct cp_slab_cache *ili_cache, struct cp_vmstat *vmstat)
{
	struct cp_icache_fs_ops ops = {
		.destroy_inode = destroy_inode,
		.recycle_inode = recycle_inode,
		.priv = x,
	};

	memset(x, 0, sizeof(*x));
	x->ic = ic;
	x->fsp = fsp;
	x->kernel = kernel;
	x->ili_cache = ili_cache;
	x->vmstat = vmstat;
	cp_list_init(&x->reclaimable);
	x->dirty_head = x->dirty_tail = CP_XFS_NONE;
	cp_icache_set_fs_ops(ic, &ops);
	return 0;
}

void cp_xfs_icache_release(struct cp_xfs_icache *x)
{
	cp_free(x->clusters);
	x->clusters = NULL;
	x->nr_clusters = 0;
}

/* Make clusters[c] exist; 0 or -CP_ENOMEM. */
static int ensure_cluster(struct cp_xfs_icache *x, uint32_t c)
{
	struct cp_xfs_cluster *cl;
	uint32_t n, i;

	if (c < x->nr_clusters)
		return 0;
	if (c >= CP_XFS_NONE / 2)
		return -CP_ENOMEM;
	n = x->nr_clusters ? x->nr_clusters : 256;
	while (n <= c)
		n *= 2;
	cl = cp_realloc(x->clusters, (size_t)n * sizeof(*cl));
	if (!cl)
		return -CP_ENOMEM;
	for (i = x->nr_clusters; i < n; i++)
		cl[i] = (struct cp_xfs_cluster){ CP_XFS_NONE, CP_XFS_NONE, 0, 0, 0 };
	x->clusters = cl;
	x->nr_clusters = n;
	return 0;
}

static void dirty_unlink(struct cp_xfs_icache *x, uint32_t c)
{
	struct cp_xfs_cluster *cl = &x->clusters[c];

	if (cl->prev != CP_XFS_NONE)
		x->clusters[cl->prev].next = cl->next;
	else
		x->dirty_head = cl->next;
	if (cl->next != CP_XFS_NONE)
		x->clusters[cl->next].prev = cl->prev;
	else
		x->dirty_tail = cl->prev;
	cl->prev = cl->next = CP_XFS_NONE;
	cl->on_dirty = 0;
	x->nr_dirty_clusters--;
}

/* The inode was logged: dirty until its cluster is written. */
static void log_inode(struct cp_xfs_icache *x, struct cp_inode *inode)
{
	uint32_t c = cluster_of(x, inode->i_ino);
	struct cp_xfs_cluster *cl = &x->clusters[c];

	if (inode->i_state & CP_I_XFS_DIRTY)
		return;
	inode->i_state |= CP_I_XFS_DIRTY;
	cl->nr_dirty++;
	if (cl->on_dirty)
		return;
	cl->on_dirty = 1;
	cl->prev = x->dirty_tail;
	cl->next = CP_XFS_NONE;
	if (x->dirty_tail != CP_XFS_NONE)
		x->clusters[x->dirty_tail].next = c;
	else
		x->dirty_head = c;
	x->dirty_tail = c;
	x->nr_dirty_clusters++;
}

/* xfs_iflush_cluster(): write cluster c, all its inodes become clean. */
static void write_cluster(struct cp_xfs_icache *x, uint32_t c)
{
	uint64_t ino = (uint64_t)c * x->fsp->inodes_per_cluster;
	unsigned k;

	for (k = 0; k < x->fsp->inodes_per_cluster && x->clusters[c].nr_dirty; k++) {
		struct cp_inode *inode = cp_icache_find(x->ic, ino + k);

		if (inode && (inode->i_state & CP_I_XFS_DIRTY)) {
			inode->i_state &= (uint16_t)~CP_I_XFS_DIRTY;
			x->clusters[c].nr_dirty--;
		}
	}
	CP_BUG_ON(x->clusters[c].nr_dirty != 0);
	dirty_unlink(x, c);
}

int cp_xfs_ialloc(struct cp_xfs_icache *x, uint64_t ino, struct cp_alloc_ctx *ctx,
		  struct cp_inode **out)
{
	struct cp_slab_obj ili = { CP_SLAB_NONE };
	struct cp_inode *inode;
	int rc;

	rc = ensure_cluster(x, cluster_of(x, ino));
	if (rc)
		return rc;
	if (x->ili_cache) {
		rc = cp_slab_alloc(x->ili_cache, ctx, &ili);
		if (rc)
			return rc;
	}
	rc = cp_icache_new_inode(x->ic, ino, ctx, &inode);
	if (rc) {
		if (ili.slab != CP_SLAB_NONE)
			cp_slab_free(x->ili_cache, ili);
		return rc;
	}
	inode->i_fs_obj = ili;
	log_inode(x, inode);
	*out = inode;
	return 0;
}

uint64_t cp_xfs_reclaim_inodes_count(const struct cp_xfs_icache *x)
{
	return x->nr_reclaimable;
}

/* xfs_inode_free(): the log item and the inode go. */
static void xfs_inode_free(struct cp_xfs_icache *x, struct cp_inode *inode)
{
	cp_list_del(&inode->i_lru);
	x->nr_reclaimable--;
	if (inode->i_fs_obj.slab != CP_SLAB_NONE) {
		cp_slab_free(x->ili_cache, inode->i_fs_obj);
		inode->i_fs_obj.slab = CP_SLAB_NONE;
	}
	inode->i_state &= (uint16_t)~CP_I_RECLAIMABLE;
	x->nr_reclaimed++;
	cp_icache_free_inode(x->ic, inode);
}

/*
 * xfs_reclaim_inode(): free one reclaimable inode. A dirty one is written
 * first when the caller may wait (4.11 SYNC_WAIT), else left alone.
 * Returns true when freed.
 */
static bool xfs_reclaim_inode(struct cp_xfs_icache *x, struct cp_inode *inode, bool wait,
			      struct cp_alloc_ctx *ctx)
{
	if (inode->i_state & CP_I_XFS_DIRTY) {
		if (!wait) {
			x->nr_skipped_dirty++;
			return false;
		}
		write_cluster(x, cluster_of(x, inode->i_ino));
		x->nr_sync_writes++;
		if (ctx && ctx->work)
			ctx->work->nr_write_ios++;
	}
	xfs_inode_free(x, inode);
	return true;
}

/* Visit up to `visits` reclaimable inodes from the oldest; skipped ones
 * move behind the rest. Returns inodes freed. */
static uint64_t reclaim_walk(struct cp_xfs_icache *x, uint64_t visits, bool wait,
			     struct cp_alloc_ctx *ctx)
{
	uint64_t freed = 0;

	if (visits > x->nr_reclaimable)
		visits = x->nr_reclaimable;
	while (visits-- > 0) {
		struct cp_list *n = cp_list_first(&x->reclaimable);
		struct cp_inode *inode = cp_container_of(n, struct cp_inode, i_lru);

		if (xfs_reclaim_inode(x, inode, wait, ctx))
			freed++;
		else
			cp_list_move_tail(n, &x->reclaimable);
	}
	return freed;
}

uint64_t cp_xfs_reclaim_inodes_nr(struct cp_xfs_icache *x, uint64_t nr_to_scan,
				  struct cp_alloc_ctx *ctx)
{
	uint64_t batch = x->fsp->reclaim_batch;
	uint64_t visits;

	/* both versions kick the worker and push the whole AIL first */
	x->ail_push_all_requested = true;
	/* the budget is consumed a lookup batch at a time */
	visits = (nr_to_scan + batch - 1) / batch * batch;
	reclaim_walk(x, visits, x->kernel->xfs_reclaim_blocks, ctx);
	return 0;
}

uint64_t cp_xfs_reclaim_worker(struct cp_xfs_icache *x)
{
	return reclaim_walk(x, x->nr_reclaimable, false, NULL);
}

uint64_t cp_xfs_ail_push(struct cp_xfs_icache *x, uint64_t nr_clusters)
{
	uint64_t done = 0;

	while (done < nr_clusters && x->dirty_head != CP_XFS_NONE) {
		write_cluster(x, x->dirty_head);
		x->nr_ail_writes++;
		done++;
	}
	if (x->dirty_head == CP_XFS_NONE)
		x->ail_push_all_requested = false;
	return done;
}

bool cp_xfs_icache_check(const struct cp_xfs_icache *x)
{
	const struct cp_icache *ic = x->ic;
	uint64_t n = 0, dirty_inodes = 0, dirty_sum = 0, nr_dirty = 0;
	const struct cp_list *l;
	uint32_t c, prev = CP_XFS_NONE;

	for (l = x->reclaimable.next; l != &x->reclaimable; l = l->next) {
		const struct cp_inode *in = cp_container_of(l, struct cp_inode, i_lru);

		if (!(in->i_state & CP_I_RECLAIMABLE) || in->i_count || ++n > x->nr_reclaimable)
			return false;
	}
	if (n != x->nr_reclaimable)
		return false;
	n = 0;
	for (c = 0; c < ic->pool.nr_used_slots; c++) {
		const struct cp_inode *in = cp_pool_at(&ic->pool, c);

		if (!(in->i_state & CP_I_ALLOCATED))
			continue;
		n += (in->i_state & CP_I_RECLAIMABLE) != 0;
		if (in->i_state & CP_I_XFS_DIRTY) {
			uint32_t k = cluster_of(x, in->i_ino);

			if (k >= x->nr_clusters || !x->clusters[k].on_dirty)
				return false;
			dirty_inodes++;
		}
	}
	if (n != x->nr_reclaimable)
		return false;
	for (c = x->dirty_head; c != CP_XFS_NONE; c = x->clusters[c].next) {
		const struct cp_xfs_cluster *cl = &x->clusters[c];

		if (c >= x->nr_clusters || !cl->on_dirty || cl->nr_dirty == 0 || cl->prev != prev ||
		    ++nr_dirty > x->nr_dirty_clusters)
			return false;
		prev = c;
	}
	if (prev != x->dirty_tail || nr_dirty != x->nr_dirty_clusters)
		return false;
	for (c = 0; c < x->nr_clusters; c++) {
		dirty_sum += x->clusters[c].nr_dirty;
		nr_dirty -= x->clusters[c].on_dirty;
	}
	return nr_dirty == 0 && dirty_sum == dirty_inodes &&
	       (!x->ili_cache || cp_slab_check(x->ili_cache));
}
