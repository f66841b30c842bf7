/*
 * icache.c - the VFS inode cache and its LRU.
 *
 * Mechanism (fs/inode.c; ref §3): an inode is referenced by every dentry
 * that names it and by open files; the last iput() runs iput_final(),
 * which evicts an unlinked inode at once and otherwise keeps it cached
 * on the superblock's inode LRU (inode_add_lru: only clean, unused
 * inodes; since 5.16 only those without page cache). The LRU is lazy: a
 * lookup that finds a cached inode takes a reference and leaves it where
 * it is. The shrinker (prune_icache_sb) walks the LRU from the head with
 * inode_lru_isolate(): busy inodes leave the list, I_REFERENCED ones get
 * a second chance at the tail, unused inodes that still have page cache
 * have it stripped (inode steal, before 5.16) and the rest are evicted:
 * page cache truncated, then the filesystem's ->destroy_inode (XFS keeps
 * the inode for its own reclaim, see xfs_icache.c) or a plain free.
 *
 * The commit under study changes iput_final(): 4.11 (legacy) sets
 * I_REFERENCED on every final put, so a new inode needs two shrinker
 * visits; 4.12+ (patched) sets it only when list_lru_add() finds the
 * inode already on the LRU (ref §1, §3.2). With the 5.16 rework
 * (profile inode_lru_with_pagecache = false) only iput_final may set it
 * (rotate = true); writeback and page-cache callers pass false.
 *
 * Kernel functions modelled: iput, iput_final, inode_add_lru /
 * __inode_add_lru, inode_lru_list_add, inode_lru_isolate,
 * prune_icache_sb, dispose_list, evict, iget_locked/find_inode_fast,
 * new_inode, ilookup, __iget, inode_sync_complete. Versions 4.11 and 6.1.
 *
 * SIMPLIFIED:
 * - No locks, so inode_lru_isolate never answers SKIP.
 * - The superblock is always active; no I_SYNC, I_WILL_FREE, I_NEW,
 *   I_DONTCACHE, buffer heads, or unlink (i_nlink is set by callers).
 * - Inodes are freed at once (no RCU grace period, ref §11.1).
 * - The 6.1 I_LRU_ISOLATING pin is not needed (no concurrency); 4.11's
 *   __iget/iput around inode steal is reproduced because its iput re-runs
 *   iput_final on the inode, which re-arms I_REFERENCED.
 * - The page-cache mapping of a freed inode is left in place, emptied,
 *   with its host cleared (pagecache.h has no way to delete a mapping).
 */
#include "model/icache.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "model/pagecache.h"
#include "model/profile.h"

_Static_assert(sizeof(struct cp_inode) <= 64, "struct cp_inode grew");

#define INITIAL_BUCKETS 1024u
#define MAX_BUCKETS (1u << 30)

static uint32_t bucket_of(uint64_t ino, uint32_t nr_buckets)
{
	uint64_t x = ino * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(x >> 32) & (nr_buckets - 1);
}

int cp_icache_init(struct cp_icache *ic, const struct cp_icache_params *p)
{
	int rc;

	memset(ic, 0, sizeof(*ic));
	cp_pool_init(&ic->pool, sizeof(struct cp_inode), 12);
	ic->hash = cp_calloc(INITIAL_BUCKETS, sizeof(*ic->hash));
	if (!ic->hash)
		return -CP_ENOMEM;
	ic->nr_buckets = INITIAL_BUCKETS;
	rc = cp_list_lru_init(&ic->lru);
	if (rc) {
		cp_free(ic->hash);
		ic->hash = NULL;
		return rc;
	}
	ic->inode_cache = p->inode_cache;
	ic->policy = p->policy;
	ic->kernel = p->kernel;
	ic->pc = p->pc;
	ic->vmstat = p->vmstat;
	return 0;
}

void cp_icache_release(struct cp_icache *ic)
{
	cp_list_lru_release(&ic->lru);
	cp_pool_release(&ic->pool);
	cp_free(ic->hash);
	ic->hash = NULL;
	ic->nr_buckets = 0;
	ic->nr_inodes = 0;
}

void cp_icache_set_fs_ops(struct cp_icache *ic, const struct cp_icache_fs_ops *ops)
{
	ic->ops = *ops;
}

static void count(struct cp_icache *ic, enum cp_vmstat_item item, uint64_t n)
{
	if (ic->vmstat)
		cp_count(ic->vmstat, item, n);
}

/* Double the bucket array when it is full; a failed growth only makes
 * chains longer. */
static void hash_maybe_grow(struct cp_icache *ic)
{
	struct cp_inode **nh;
	uint32_t n, i;

	if (ic->nr_inodes < ic->nr_buckets || ic->nr_buckets >= MAX_BUCKETS)
		return;
	n = ic->nr_buckets * 2;
	nh = cp_calloc(n, sizeof(*nh));
	if (!nh)
		return;
	for (i = 0; i < ic->nr_buckets; i++) {
		struct cp_inode *in = ic->hash[i], *next;

		for (; in; in = next) {
			uint32_t b = bucket_of(in->i_ino, n);

			next = in->i_hash_next;
			in->i_hash_next = nh[b];
			nh[b] = in;
		}
	}
	cp_free(ic->hash);
	ic->hash = nh;
	ic->nr_buckets = n;
}

static void hash_insert(struct cp_icache *ic, struct cp_inode *inode)
{
	uint32_t b = bucket_of(inode->i_ino, ic->nr_buckets);

	inode->i_hash_next = ic->hash[b];
	ic->hash[b] = inode;
}

static void hash_remove(struct cp_icache *ic, struct cp_inode *inode)
{
	struct cp_inode **pp = &ic->hash[bucket_of(inode->i_ino, ic->nr_buckets)];

	while (*pp != inode) {
		CP_BUG_ON(*pp == NULL);
		pp = &(*pp)->i_hash_next;
	}
	*pp = inode->i_hash_next;
	inode->i_hash_next = NULL;
}

struct cp_inode *cp_icache_find(const struct cp_icache *ic, uint64_t ino)
{
	struct cp_inode *in = ic->hash[bucket_of(ino, ic->nr_buckets)];

	while (in && in->i_ino != ino)
		in = in->i_hash_next;
	return in;
}

static int memcg_id_of(const struct cp_slab_cache *c, const struct cp_alloc_ctx *ctx)
{
	return (c->accounted && ctx && ctx->memcg) ? ctx->memcg->id : 0;
}

int cp_icache_new_inode(struct cp_icache *ic, uint64_t ino, struct cp_alloc_ctx *ctx,
			struct cp_inode **out)
{
	struct cp_inode *inode;
	struct cp_slab_obj obj;
	uint32_t id;
	int rc;

	CP_BUG_ON(cp_icache_find(ic, ino) != NULL);
	rc = cp_list_lru_prepare(&ic->lru, memcg_id_of(ic->inode_cache, ctx));
	if (rc)
		return rc;
	inode = cp_pool_alloc(&ic->pool, &id);
	if (!inode)
		return -CP_ENOMEM;
	/* May reclaim: the shrinker can free other inodes meanwhile, but
	 * this one is not visible to it yet. */
	rc = cp_slab_alloc(ic->inode_cache, ctx, &obj);
	if (rc) {
		cp_pool_free(&ic->pool, id);
		return rc;
	}
	cp_list_init(&inode->i_lru);
	inode->i_ino = ino;
	inode->i_id = id;
	inode->i_count = 1;
	inode->i_nlink = 1;
	inode->i_mapping = CP_NO_MAPPING;
	inode->i_slab = obj;
	inode->i_fs_obj.slab = CP_SLAB_NONE;
	inode->i_state = CP_I_ALLOCATED;
	inode->i_memcg_id = (uint16_t)cp_slab_obj_memcg_id(ic->inode_cache, obj);
	ic->nr_inodes++;
	hash_maybe_grow(ic);
	hash_insert(ic, inode);
	count(ic, CP_VM_INODES_ALLOCATED, 1);
	/* inode_init_always(): the VFS's nr_inodes counts it from here */
	count(ic, CP_VM_INODES_INIT, 1);
	*out = inode;
	return 0;
}

int cp_iget(struct cp_icache *ic, uint64_t ino, struct cp_alloc_ctx *ctx,
	    struct cp_inode **out, enum cp_iget_result *res)
{
	struct cp_inode *inode = cp_icache_find(ic, ino);
	enum cp_iget_result r;
	int rc;

	if (inode && (inode->i_state & CP_I_RECLAIMABLE)) {
		/* xfs_iget_cache_hit on an XFS_IRECLAIMABLE inode:
		 * xfs_reinit_inode, reclaim tag cleared, in use again */
		CP_BUG_ON(!ic->ops.recycle_inode);
		ic->ops.recycle_inode(ic->ops.priv, inode);
		CP_BUG_ON(cp_list_linked(&inode->i_lru));
		inode->i_state = (uint16_t)(CP_I_ALLOCATED | (inode->i_state & CP_I_XFS_DIRTY));
		inode->i_count = 1;
		ic->nr_iget_recycled++;
		/* xfs_reinit_inode() -> inode_init_always(): counted in
		 * nr_inodes again (__destroy_inode uncounted it at eviction) */
		count(ic, CP_VM_INODES_INIT, 1);
		r = CP_IGET_RECYCLED;
	} else if (inode) {
		CP_BUG_ON(inode->i_state & CP_I_FREEING);
		inode->i_count++;
		ic->nr_iget_hits++;
		r = CP_IGET_HIT;
	} else {
		rc = cp_icache_new_inode(ic, ino, ctx, &inode);
		if (rc)
			return rc;
		ic->nr_iget_misses++;
		r = CP_IGET_MISS;
	}
	*out = inode;
	if (res)
		*res = r;
	return 0;
}

struct cp_inode *cp_ilookup(struct cp_icache *ic, uint64_t ino)
{
	struct cp_inode *inode = cp_icache_find(ic, ino);

	if (!inode || (inode->i_state & CP_I_RECLAIMABLE))
		return NULL;
	cp_ihold(inode);
	return inode;
}

void cp_ihold(struct cp_inode *inode)
{
	/* an unused cached inode may be taken again (igrab of an LRU
	 * inode); one the VFS has let go of may not */
	CP_BUG_ON(inode->i_state & (CP_I_FREEING | CP_I_RECLAIMABLE));
	inode->i_count++;
}

void cp_icache_set_mapping(struct cp_inode *inode, uint32_t mapping_id)
{
	inode->i_mapping = mapping_id;
}

static bool lru_with_pagecache(const struct cp_icache *ic)
{
	return ic->kernel->inode_lru_with_pagecache;
}

/* mapping_shrinkable(): no page cache (or no mapping at all). */
static bool shrinkable(const struct cp_icache *ic, const struct cp_inode *inode)
{
	return inode->i_mapping == CP_NO_MAPPING || !ic->pc ||
	       cp_mapping_shrinkable(ic->pc, inode->i_mapping);
}

/*
 * __inode_add_lru() (6.1) / inode_add_lru() + inode_lru_list_add()
 * (4.11-5.15). rotate: the caller is iput_final (6.1's argument; before
 * 5.16 every caller behaved as if it were true).
 */
static void inode_add_lru(struct cp_icache *ic, struct cp_inode *inode, bool rotate)
{
	if (inode->i_state & CP_I_VFS_BUSY)
		return;
	if (inode->i_count)
		return;
	if (!lru_with_pagecache(ic) && !shrinkable(ic, inode))
		return;
	if (cp_list_lru_add(&ic->lru, &inode->i_lru, inode->i_memcg_id))
		return;
	/* already on the LRU: the patched rule's second chance */
	if (ic->policy == CP_POLICY_PATCHED && (rotate || lru_with_pagecache(ic)))
		inode->i_state |= CP_I_REFERENCED;
}

static void evict(struct cp_icache *ic, struct cp_inode *inode)
{
	CP_BUG_ON(!(inode->i_state & CP_I_FREEING) || cp_list_linked(&inode->i_lru));
	if (inode->i_mapping != CP_NO_MAPPING && ic->pc)
		cp_truncate_inode_pages_final(ic->pc, inode->i_mapping);
	count(ic, CP_VM_INODES_EVICTED, 1);
	if (ic->ops.destroy_inode) {
		inode->i_state = (uint16_t)(CP_I_ALLOCATED | CP_I_RECLAIMABLE |
					    (inode->i_state & CP_I_XFS_DIRTY));
		ic->ops.destroy_inode(ic->ops.priv, inode);
	} else {
		cp_icache_free_inode(ic, inode);
	}
}

void cp_icache_free_inode(struct cp_icache *ic, struct cp_inode *inode)
{
	CP_BUG_ON(!(inode->i_state & CP_I_ALLOCATED) || cp_list_linked(&inode->i_lru));
	CP_BUG_ON(inode->i_fs_obj.slab != CP_SLAB_NONE);
	hash_remove(ic, inode);
	if (inode->i_mapping != CP_NO_MAPPING && ic->pc)
		cp_mapping_get(ic->pc, inode->i_mapping)->host = NULL;
	cp_slab_free(ic->inode_cache, inode->i_slab);
	inode->i_state = 0;
	cp_pool_free(&ic->pool, inode->i_id);
	ic->nr_inodes--;
	count(ic, CP_VM_INODES_FREED, 1);
}

/* iput_final(): keep a linked inode cached, evict an unlinked one. */
static void iput_final(struct cp_icache *ic, struct cp_inode *inode)
{
	if (inode->i_nlink > 0) {
		if (ic->policy == CP_POLICY_LEGACY)
			inode->i_state |= CP_I_REFERENCED;
		inode_add_lru(ic, inode, true);
		return;
	}
	inode->i_state |= CP_I_FREEING;
	cp_list_lru_del(&ic->lru, &inode->i_lru, inode->i_memcg_id);
	evict(ic, inode);
}

void cp_iput(struct cp_icache *ic, struct cp_inode *inode)
{
	CP_BUG_ON(inode->i_count == 0 || (inode->i_state & CP_I_RECLAIMABLE));
	if (--inode->i_count == 0)
		iput_final(ic, inode);
}

void cp_inode_mark_dirty(struct cp_inode *inode)
{
	inode->i_state |= CP_I_DIRTY;
}

void cp_inode_writeback_done(struct cp_icache *ic, struct cp_inode *inode)
{
	inode->i_state &= (uint16_t)~CP_I_DIRTY;
	inode_add_lru(ic, inode, false);
}

void cp_icache_mapping_emptied(void *priv, void *host)
{
	struct cp_icache *ic = priv;
	struct cp_inode *inode = host;

	if (!inode || lru_with_pagecache(ic))
		return;
	inode_add_lru(ic, inode, false);
}

struct isolate_arg {
	struct cp_icache *ic;
	struct cp_list dispose;
	bool is_kswapd;
};

/* Page cache left on an unused inode (4.11: nrpages; 6.1: mapping not
 * empty). */
static bool has_pages(const struct cp_icache *ic, const struct cp_inode *inode)
{
	const struct cp_mapping *m;

	if (inode->i_mapping == CP_NO_MAPPING || !ic->pc)
		return false;
	m = cp_mapping_get(ic->pc, inode->i_mapping);
	return m->nrpages || (!lru_with_pagecache(ic) && m->nrshadows);
}

/* inode_lru_isolate() (ref §3.3). */
static enum cp_lru_status inode_lru_isolate(struct cp_list_lru *lru, struct cp_list *item,
					    void *arg)
{
	struct isolate_arg *a = arg;
	struct cp_icache *ic = a->ic;
	struct cp_inode *inode = cp_container_of(item, struct cp_inode, i_lru);

	if (inode->i_count || (inode->i_state & CP_I_VFS_BUSY) ||
	    (!lru_with_pagecache(ic) && !shrinkable(ic, inode))) {
		cp_list_lru_isolate(lru, item);
		return CP_LRU_REMOVED;
	}
	if (inode->i_state & CP_I_REFERENCED) {
		inode->i_state &= (uint16_t)~CP_I_REFERENCED;
		return CP_LRU_ROTATE;
	}
	if (has_pages(ic, inode)) {
		/* inode steal: drop the pages outside the page LRU */
		uint64_t reap = cp_invalidate_mapping_pages(ic->pc, inode->i_mapping);

		count(ic, a->is_kswapd ? CP_VM_KSWAPD_INODESTEAL : CP_VM_PGINODESTEAL, reap);
		ic->reclaimed_slab += reap;
		if (lru_with_pagecache(ic)) {
			/* 4.11's __iget()/iput() pin: the iput re-runs
			 * iput_final on an inode that is still on the LRU */
			inode->i_count++;
			cp_iput(ic, inode);
		}
		return CP_LRU_RETRY;
	}
	inode->i_state |= CP_I_FREEING;
	cp_list_lru_isolate_move(lru, item, &a->dispose);
	return CP_LRU_REMOVED;
}

/* dispose_list(): evict everything isolated by the walk. */
static void dispose_list(struct cp_icache *ic, struct cp_list *dispose)
{
	struct cp_list *n;

	while ((n = cp_list_first(dispose)) != NULL) {
		struct cp_inode *inode = cp_container_of(n, struct cp_inode, i_lru);

		cp_list_del(n);
		evict(ic, inode);
	}
}

uint64_t cp_prune_icache_sb(struct cp_icache *ic, int memcg_id, uint64_t nr_to_scan,
			    struct cp_alloc_ctx *ctx, bool is_kswapd)
{
	struct isolate_arg a = { .ic = ic, .is_kswapd = is_kswapd };
	uint64_t removed;

	(void)ctx;
	cp_list_init(&a.dispose);
	removed = cp_list_lru_walk(&ic->lru, memcg_id, inode_lru_isolate, &a, &nr_to_scan);
	dispose_list(ic, &a.dispose);
	return removed;
}

uint64_t cp_icache_lru_count(const struct cp_icache *ic, int memcg_id)
{
	return cp_list_lru_count(&ic->lru, memcg_id);
}

static bool hashed(const struct cp_icache *ic, const struct cp_inode *inode)
{
	const struct cp_inode *in = ic->hash[bucket_of(inode->i_ino, ic->nr_buckets)];

	for (; in; in = in->i_hash_next)
		if (in == inode)
			return true;
	return false;
}

bool cp_icache_check(const struct cp_icache *ic)
{
	uint64_t live = 0, on_lru = 0, in_hash = 0;
	uint32_t i;
	unsigned k;

	if (!cp_list_lru_check(&ic->lru) || !cp_pool_check(&ic->pool))
		return false;
	for (i = 0; i < ic->pool.nr_used_slots; i++) {
		const struct cp_inode *in = cp_pool_at(&ic->pool, i);

		if (!(in->i_state & CP_I_ALLOCATED))
			continue;
		live++;
		if (in->i_id != i || !hashed(ic, in) || (in->i_state & CP_I_FREEING))
			return false;
		if (in->i_state & CP_I_RECLAIMABLE) {
			/* held by the fs: unused, on the fs's list */
			if (in->i_count || !cp_list_linked(&in->i_lru))
				return false;
		} else if (cp_list_linked(&in->i_lru)) {
			on_lru++;
		}
	}
	for (i = 0; i < ic->nr_buckets; i++) {
		const struct cp_inode *in;

		for (in = ic->hash[i]; in; in = in->i_hash_next) {
			if (!(in->i_state & CP_I_ALLOCATED) ||
			    bucket_of(in->i_ino, ic->nr_buckets) != i)
				return false;
			in_hash++;
		}
	}
	for (k = 0; k < ic->lru.nr_lists; k++) {
		const struct cp_list_lru_one *l = ic->lru.lists[k];
		const struct cp_list *n;

		if (!l)
			continue;
		for (n = l->list.next; n != &l->list; n = n->next) {
			const struct cp_inode *in = cp_container_of(n, struct cp_inode, i_lru);

			if (in->i_memcg_id != k || (in->i_state & CP_I_RECLAIMABLE))
				return false;
		}
	}
	return live == ic->nr_inodes && in_hash == live && on_lru == ic->lru.nr_items &&
	       ic->pool.nr_live == live && ic->inode_cache->nr_objects == live &&
	       cp_slab_check(ic->inode_cache);
}
