/*
 * xfs_buf.c - the XFS buffer cache and its shrinker.
 *
 * Mechanism (fs/xfs/xfs_buf.c, ref §3.7): XFS keeps metadata blocks
 * (inode clusters, directory blocks, btree blocks) in buffers of its own.
 * Their memory comes straight from the page allocator - neither slab
 * nor page cache - so here it is owner CP_OWNER_FSBUF, allocated with
 * GFP_NOFS (transaction context) and not charged to a memcg. A buffer is
 * found by disk address (the per-AG hash), held while someone uses it,
 * and held by its log item while it is dirty, until the AIL has written
 * it. When the last hold goes (xfs_buf_rele) a buffer with b_lru_ref > 0
 * goes on the buftarg's list_lru, the LRU taking a hold of its own; a
 * later lookup finds it there and does not take it off (the list is
 * lazy, like the dcache's). b_lru_ref starts at 1 (_xfs_buf_alloc) and
 * is raised by the readers of some metadata: XFS_INO_REF (2) for inode
 * clusters read by xfs_iread(), XFS_DIR_BTREE_REF (2) for every
 * directory block read through xfs_da_read_buf().
 *
 * The buftarg shrinker (xfs_buftarg_shrink_count / _scan; seeks
 * DEFAULT_SEEKS, default batch SHRINK_BATCH, NUMA aware, not memcg aware)
 * counts the LRU and walks it with xfs_buftarg_isolate(), which does not
 * look at __GFP_FS: GFP_NOFS reclaimers run it, unlike the superblock
 * shrinker. The isolate test differs by version (kernel profile
 * xfs_buf_lru_first_visit_frees):
 *  - 4.11 / 4.13 have the inverted test: a buffer whose b_lru_ref can be
 *    decremented is decremented and moved to the dispose list; one at 0
 *    is rotated. After the walk xfs_buf_rele() drops the LRU's hold and,
 *    for a buffer nobody else holds, frees it if b_lru_ref is now 0 or
 *    puts it back at the LRU tail otherwise. So a b_lru_ref 1 buffer
 *    (every inode cluster of a created file) is freed at its first
 *    visit, a b_lru_ref 2 one (directory blocks) at its second.
 *  - Fixed by commit 19957a181608 "xfs: Correctly invert xfs_buftarg LRU
 *    isolation logic" (Vratislav Bendel, 2019; backported to the 4.4+
 *    stable trees): 6.1 decrements and rotates while it can and isolates
 *    at 0, so a buffer is freed at visit b_lru_ref + 1.
 * A buffer that is isolated while someone holds it just leaves the LRU;
 * its last release decides between the LRU and freeing as above.
 *
 * Kernel functions modelled: _xfs_buf_alloc, xfs_buf_find /
 * xfs_buf_get_map / xfs_buf_read_map, xfs_buf_set_ref, xfs_buf_rele,
 * xfs_buf_free, xfs_buf_stale, xfs_buftarg_isolate,
 * xfs_buftarg_shrink_scan, xfs_buftarg_shrink_count,
 * xfs_alloc_buftarg (shrinker setup); the delwri write of dirty
 * buffers by the AIL (xfs_buf_item_push + xfs_buf_delwri_submit) as
 * cp_xfs_buf_push_dirty. Versions 4.11 and 6.1.
 *
 * SIMPLIFIED:
 * - One buftarg and one AG: the lookup is one hash keyed by
 *   cp_xfs_buf_key(), not a per-AG rbtree/rhashtable of disk addresses.
 * - Only inode cluster and directory buffers exist; AG headers, free
 *   space and inode btree blocks (a few MiB) are not modelled, nor the
 *   struct xfs_buf itself (a ~400 B object of the xfs_buf slab cache).
 * - A buffer's memory is whole pages (16 KiB clusters, 4 KiB directory
 *   blocks); sub-page buffers would come from kmalloc in the kernel.
 * - Dirty inode clusters are written by xfs_icache.c's AIL push, dirty
 *   directory buffers by cp_xfs_buf_push_dirty() in b_lsn order; a
 *   buffer keeps the AIL position of its first logging until written
 *   (relogging does not move it). No pinning, no log forces.
 * - No locks: isolate never skips a buffer (the kernel's trylock).
 * - Placement: a buffer's pages are order-0 UNMOVABLE blocks (4.11
 *   xfs_buf_allocate_memory: alloc_page(GFP_NOFS) per page; 6.1
 *   xfs_buf_alloc_pages: alloc_pages_bulk_array(GFP_NOFS); no
 *   __GFP_MOVABLE or __GFP_RECLAIMABLE), taken in one decision for the
 *   whole buffer (the kernel decides per page or per bulk batch).
 *   6.15+ (kernel profile xfs_buf_folio; xfs_buf_alloc_backing_mem): a
 *   buffer of more than one page and a power-of-two size is one
 *   UNMOVABLE folio of that order, asked for without direct reclaim and
 *   with __GFP_NORETRY (kswapd is woken at its order); only when there is
 *   none does __vmalloc() take order-0 pages. The folio is freed whole
 *   (xfs_buf_free_backing_mem -> folio_put: cp_mem_free_folio). SIMPLIFIED: the kernel's
 *   vmalloc fallback keeps the folio's gfp and retries
 *   (memalloc_retry_wait) until kswapd has made room; the model takes the
 *   pages at once with the caller's context, direct reclaim included
 *   (a 2G global seed run on 6.18.44 made 24 015 buffer folios and
 *   fell back 0 times: xfs:xfs_buf_backing_folio / _fallback).
 * - Reads are synchronous and counted (nr_reads, nr_read_bytes); the
 *   caller's owner charges the I/O time.
 */
#include "model/xfs_buf.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "core/intmath.h"
#include "model/gfp.h"
#include "model/profile.h"

#define POOL_CHUNK_SHIFT 12
#define DEAD_TYPE 0xff

static const struct cp_shrinker_ops buftarg_shrinker_ops;

static uint32_t hash_key(uint64_t key, uint32_t nr_buckets)
{
	key ^= key >> 31;
	key *= 0x7fb5d329728ea185ULL;
	key ^= key >> 27;
	key *= 0x81dadef4bc2dd44dULL;
	key ^= key >> 33;
	return (uint32_t)key & (nr_buckets - 1);
}

static uint8_t pages_of(uint32_t bytes)
{
	uint32_t n = (bytes + CP_PAGE_BYTES - 1) / CP_PAGE_BYTES;

	return (uint8_t)(n ? n : 1);
}

int cp_xfs_buftarg_init(struct cp_xfs_buftarg *bt, struct cp_mem *mem,
			const struct cp_kernel_profile *kernel, uint32_t inode_cluster_bytes,
			uint32_t dir_block_bytes)
{
	int rc;

	CP_BUG_ON(inode_cluster_bytes > 255u * CP_PAGE_BYTES || dir_block_bytes > 255u * CP_PAGE_BYTES);
	memset(bt, 0, sizeof(*bt));
	bt->mem = mem;
	bt->inverted_isolate = kernel->xfs_buf_lru_first_visit_frees;
	bt->folio_backing = kernel->xfs_buf_folio;
	bt->pages[CP_XFS_BUF_INODE] = pages_of(inode_cluster_bytes);
	bt->pages[CP_XFS_BUF_DIR_DATA] = pages_of(dir_block_bytes);
	bt->pages[CP_XFS_BUF_DIR_LEAF] = pages_of(dir_block_bytes);
	bt->pages[CP_XFS_BUF_DIR_FREE] = pages_of(dir_block_bytes);
	bt->max_pages = bt->pages[CP_XFS_BUF_INODE] > bt->pages[CP_XFS_BUF_DIR_DATA]
				? bt->pages[CP_XFS_BUF_INODE]
				: bt->pages[CP_XFS_BUF_DIR_DATA];
	cp_pool_init(&bt->pool, sizeof(struct cp_xfs_buf) + bt->max_pages * sizeof(uint32_t),
		     POOL_CHUNK_SHIFT);
	cp_list_init(&bt->dirty);
	bt->nr_buckets = 1024;
	bt->buckets = cp_malloc(bt->nr_buckets * sizeof(*bt->buckets));
	if (!bt->buckets)
		return -CP_ENOMEM;
	memset(bt->buckets, 0xff, bt->nr_buckets * sizeof(*bt->buckets));
	rc = cp_list_lru_init(&bt->lru);
	if (rc) {
		cp_free(bt->buckets);
		bt->buckets = NULL;
		return rc;
	}
	/* xfs_alloc_buftarg(): DEFAULT_SEEKS, default batch, NUMA aware only */
	bt->shrinker = (struct cp_shrinker){
		.ops = &buftarg_shrinker_ops,
		.priv = bt,
		.seeks = CP_DEFAULT_SEEKS,
		.batch = 0,
		.memcg_aware = false,
	};
	bt->ready = true;
	return 0;
}

void cp_xfs_buftarg_release(struct cp_xfs_buftarg *bt)
{
	if (!bt->ready)
		return;
	cp_list_lru_release(&bt->lru);
	cp_pool_release(&bt->pool);
	cp_free(bt->buckets);
	memset(bt, 0, sizeof(*bt));
}

/* ---- lookup hash ------------------------------------------------------ */

uint32_t cp_xfs_buf_find(const struct cp_xfs_buftarg *bt, uint64_t key)
{
	uint32_t i;

	if (!bt->ready)
		return CP_XFS_BUF_NONE;
	for (i = bt->buckets[hash_key(key, bt->nr_buckets)]; i != CP_XFS_BUF_NONE;
	     i = cp_xfs_buf_at(bt, i)->b_hash_next)
		if (cp_xfs_buf_at(bt, i)->b_key == key)
			return i;
	return CP_XFS_BUF_NONE;
}

static void hash_insert(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);
	uint32_t *head = &bt->buckets[hash_key(bp->b_key, bt->nr_buckets)];

	bp->b_hash_next = *head;
	*head = idx;
}

static void hash_remove(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);
	uint32_t *link = &bt->buckets[hash_key(bp->b_key, bt->nr_buckets)];

	while (*link != idx) {
		CP_BUG_ON(*link == CP_XFS_BUF_NONE);
		link = &cp_xfs_buf_at(bt, *link)->b_hash_next;
	}
	*link = bp->b_hash_next;
	bp->b_hash_next = CP_XFS_BUF_NONE;
}

/* Double the table when it is full; a failed host allocation only
 * leaves the chains longer. */
static void hash_grow(struct cp_xfs_buftarg *bt)
{
	uint32_t n = bt->nr_buckets * 2, old = bt->nr_buckets, b, i;
	uint32_t *nb, *ob = bt->buckets;

	if (bt->nr_bufs < bt->nr_buckets || n > (1u << 28))
		return;
	nb = cp_malloc(n * sizeof(*nb));
	if (!nb)
		return;
	memset(nb, 0xff, n * sizeof(*nb));
	bt->buckets = nb;
	bt->nr_buckets = n;
	for (b = 0; b < old; b++) {
		for (i = ob[b]; i != CP_XFS_BUF_NONE;) {
			uint32_t next = cp_xfs_buf_at(bt, i)->b_hash_next;

			hash_insert(bt, i);
			i = next;
		}
	}
	cp_free(ob);
}

/* ---- life cycle --------------------------------------------------------- */

/* xfs_buf_free_backing_mem(): folio_put() of a folio-backed buffer's
 * folio (freed whole at its order), else its pages one by one. */
static void free_backing_mem(struct cp_xfs_buftarg *bt, const uint32_t *pfns, unsigned nr,
			     bool folio)
{
	if (folio)
		cp_mem_free_folio(bt->mem, CP_OWNER_FSBUF, pfns[0], cp_ilog2(nr), NULL);
	else
		cp_mem_free_pages(bt->mem, CP_OWNER_FSBUF, pfns, nr, NULL);
}

/* xfs_buf_free(): out of the hash, memory back to the page allocator. */
static void buf_free(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);

	CP_BUG_ON(bp->b_hold || (bp->b_state & CP_XFS_BSTATE_DIRTY) ||
		  cp_list_linked(&bp->b_lru) || cp_list_linked(&bp->b_dirty) ||
		  bp->b_cil_shadow != CP_XFS_BUF_NO_SHADOW);
	hash_remove(bt, idx);
	free_backing_mem(bt, bp->b_pfns, bp->b_pages, bp->b_state & CP_XFS_BSTATE_FOLIO);
	bt->nr_pages -= bp->b_pages;
	bt->nr_by_type[bp->b_type]--;
	bt->nr_bufs--;
	bt->nr_freed++;
	bp->b_pages = 0;
	bp->b_type = DEAD_TYPE;
	cp_pool_free(&bt->pool, idx);
}

/* xfs_buf_alloc_backing_mem() (6.15+) or the per-page allocation before
 * it: nr pages of UNMOVABLE memory for a buffer into pfns[]; *folio says
 * whether they are one folio. */
static int buf_alloc_backing_mem(struct cp_xfs_buftarg *bt, unsigned nr, struct cp_alloc_ctx *actx,
				 uint32_t *pfns, bool *folio)
{
	*folio = false;
	if (bt->folio_backing && nr > 1 && (nr & (nr - 1)) == 0) {
		struct cp_alloc_ctx fctx = *actx;
		uint32_t pfn, k;
		int rc;

		fctx.gfp = (fctx.gfp & ~(unsigned)CP_GFP_DIRECT_RECLAIM) | CP_GFP_NORETRY;
		rc = cp_mem_alloc_folio(bt->mem, CP_OWNER_FSBUF, cp_ilog2(nr), CP_MIGRATE_UNMOVABLE,
					&fctx, &pfn);
		if (rc == 0) {
			for (k = 0; k < nr; k++)
				pfns[k] = pfn + k;
			*folio = true;
			bt->nr_folio++;
			return 0;
		}
		if (rc != -CP_ENOSPC)
			return rc;
		bt->nr_vmalloc++;
	}
	return cp_mem_alloc_pages(bt->mem, CP_OWNER_FSBUF, nr, CP_MIGRATE_UNMOVABLE, actx, pfns);
}

int cp_xfs_buf_get(struct cp_xfs_buftarg *bt, uint64_t key, bool is_new,
		   const struct cp_alloc_ctx *ctx, uint32_t *idx, bool *created)
{
	enum cp_xfs_buf_type type = (enum cp_xfs_buf_type)(key >> 62);
	struct cp_alloc_ctx actx = *ctx;
	struct cp_xfs_buf *bp;
	uint32_t i = cp_xfs_buf_find(bt, key);
	uint32_t pfns[255];
	bool folio;
	int rc;

	CP_BUG_ON(!bt->ready || type >= CP_XFS_NR_BUF_TYPES);
	if (i != CP_XFS_BUF_NONE) {
		bp = cp_xfs_buf_at(bt, i);
		CP_BUG_ON(bp->b_hold == UINT16_MAX);
		bp->b_hold++;
		bt->nr_hits++;
		*idx = i;
		if (created)
			*created = false;
		return 0;
	}
	/* _xfs_buf_alloc + xfs_buf_allocate_memory: inside a transaction
	 * (NOFS), not charged to the memcg. May reclaim - including this
	 * cache - so nothing of the new buffer exists yet. */
	actx.gfp &= ~(unsigned)CP_GFP_FS;
	actx.memcg = NULL;
	rc = buf_alloc_backing_mem(bt, bt->pages[type], &actx, pfns, &folio);
	if (rc)
		return rc;
	bp = cp_pool_alloc(&bt->pool, &i);
	if (!bp) {
		free_backing_mem(bt, pfns, bt->pages[type], folio);
		return -CP_ENOMEM;
	}
	memcpy(bp->b_pfns, pfns, bt->pages[type] * sizeof(uint32_t));
	cp_list_init(&bp->b_lru);
	cp_list_init(&bp->b_dirty);
	bp->b_index = i;
	bp->b_key = key;
	bp->b_lsn = 0;
	bp->b_hold = 1;
	bp->b_type = (uint8_t)type;
	bp->b_lru_ref = 1;
	bp->b_state = folio ? CP_XFS_BSTATE_FOLIO : 0;
	bp->b_pages = bt->pages[type];
	bp->b_cil_seq = 0;
	bp->b_cil_shadow = CP_XFS_BUF_NO_SHADOW;
	hash_insert(bt, i);
	bt->nr_bufs++;
	bt->nr_pages += bp->b_pages;
	bt->nr_by_type[type]++;
	if (is_new) {
		bt->nr_created++;
	} else {
		bt->nr_reads++;
		bt->nr_read_bytes += (uint64_t)bp->b_pages * CP_PAGE_BYTES;
	}
	hash_grow(bt);
	*idx = i;
	if (created)
		*created = true;
	CP_DEBUG_CHECK(cp_xfs_buf_check(bt));
	return 0;
}

void cp_xfs_buf_set_ref(struct cp_xfs_buftarg *bt, uint32_t idx, unsigned ref)
{
	CP_BUG_ON(ref > UINT8_MAX);
	cp_xfs_buf_at(bt, idx)->b_lru_ref = (uint8_t)ref;
}

void cp_xfs_buf_log(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);

	CP_BUG_ON(bp->b_hold == 0); /* the transaction holds it */
	if (bp->b_state & CP_XFS_BSTATE_DIRTY)
		return;
	bp->b_state |= CP_XFS_BSTATE_DIRTY;
	bp->b_lsn = ++bt->next_lsn;
	bp->b_hold++;
	if (bp->b_type != CP_XFS_BUF_INODE) {
		cp_list_add_tail(&bp->b_dirty, &bt->dirty);
		bt->nr_dirty++;
	}
}

void cp_xfs_buf_rele(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);

	CP_BUG_ON(bp->b_hold == 0);
	if (--bp->b_hold)
		return;
	if (cp_list_linked(&bp->b_lru)) {
		/* still on the LRU (lazy) or on a dispose list: the LRU's
		 * hold keeps it; the shrinker decides */
		return;
	}
	if (bp->b_lru_ref)
		cp_list_lru_add(&bt->lru, &bp->b_lru, 0);
	else
		buf_free(bt, idx);
}

void cp_xfs_buf_written(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);

	CP_BUG_ON(!(bp->b_state & CP_XFS_BSTATE_DIRTY));
	bp->b_state &= (uint8_t)~CP_XFS_BSTATE_DIRTY;
	bp->b_lsn = 0;
	if (bp->b_cil_shadow != CP_XFS_BUF_NO_SHADOW) {
		uint32_t shadow = bp->b_cil_shadow;

		bp->b_cil_shadow = CP_XFS_BUF_NO_SHADOW;
		bt->release_shadow(bt->release_shadow_priv, shadow);
	}
	if (cp_list_linked(&bp->b_dirty)) {
		cp_list_del(&bp->b_dirty);
		bt->nr_dirty--;
	}
	cp_xfs_buf_rele(bt, idx);
}

void cp_xfs_buf_discard(struct cp_xfs_buftarg *bt, uint32_t idx)
{
	struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, idx);

	CP_BUG_ON(bp->b_hold == 0 || (bp->b_state & CP_XFS_BSTATE_DIRTY));
	if (bp->b_hold == 1 && !cp_list_linked(&bp->b_lru)) {
		bp->b_hold = 0;
		buf_free(bt, idx);
		return;
	}
	cp_xfs_buf_rele(bt, idx);
}

uint64_t cp_xfs_buf_push_dirty(struct cp_xfs_buftarg *bt, uint64_t lsn_limit)
{
	uint64_t n = 0;

	if (!bt->ready)
		return 0;
	while (!cp_list_empty(&bt->dirty)) {
		struct cp_xfs_buf *bp =
			cp_container_of(cp_list_first(&bt->dirty), struct cp_xfs_buf, b_dirty);

		if (bp->b_lsn >= lsn_limit)
			break;
		bt->nr_writes++;
		bt->nr_write_bytes += (uint64_t)bp->b_pages * CP_PAGE_BYTES;
		cp_xfs_buf_written(bt, bp->b_index);
		n++;
	}
	CP_DEBUG_CHECK(cp_xfs_buf_check(bt));
	return n;
}

/* ---- the shrinker --------------------------------------------------------- */

uint64_t cp_xfs_buftarg_count(const struct cp_xfs_buftarg *bt)
{
	return bt->ready ? cp_list_lru_count(&bt->lru, 0) : 0;
}

struct isolate_arg {
	struct cp_xfs_buftarg *bt;
	struct cp_list dispose;
};

/* xfs_buftarg_isolate() */
static enum cp_lru_status buftarg_isolate(struct cp_list_lru *lru, struct cp_list *item,
					  void *arg)
{
	struct isolate_arg *a = arg;
	struct cp_xfs_buf *bp = cp_container_of(item, struct cp_xfs_buf, b_lru);
	bool can_decrement = bp->b_lru_ref > 0;

	if (a->bt->inverted_isolate ? !can_decrement : can_decrement) {
		if (can_decrement)
			bp->b_lru_ref--;
		a->bt->nr_rotated++;
		return CP_LRU_ROTATE;
	}
	if (can_decrement)
		bp->b_lru_ref--; /* 4.11: decremented, then isolated */
	bp->b_state |= CP_XFS_BSTATE_DISPOSE;
	cp_list_lru_isolate_move(lru, item, &a->dispose);
	a->bt->nr_isolated++;
	return CP_LRU_REMOVED;
}

uint64_t cp_xfs_buftarg_scan(struct cp_xfs_buftarg *bt, uint64_t nr_to_scan)
{
	struct isolate_arg a = { .bt = bt };
	uint64_t walk = nr_to_scan, isolated;

	if (!bt->ready)
		return 0;
	cp_list_init(&a.dispose);
	isolated = cp_list_lru_walk(&bt->lru, 0, buftarg_isolate, &a, &walk);
	/* xfs_buf_rele() of each: the LRU's hold goes */
	while (!cp_list_empty(&a.dispose)) {
		struct cp_list *n = cp_list_first(&a.dispose);
		struct cp_xfs_buf *bp = cp_container_of(n, struct cp_xfs_buf, b_lru);

		cp_list_del(n);
		bp->b_state &= (uint8_t)~CP_XFS_BSTATE_DISPOSE;
		if (bp->b_hold)
			continue; /* in use: its last release decides */
		if (bp->b_lru_ref)
			cp_list_lru_add(&bt->lru, &bp->b_lru, 0);
		else
			buf_free(bt, bp->b_index);
	}
	CP_DEBUG_CHECK(cp_xfs_buf_check(bt));
	return isolated;
}

static uint64_t shrink_count(void *priv, struct cp_shrink_control *sc)
{
	(void)sc;
	return cp_xfs_buftarg_count(priv);
}

/* No __GFP_FS test: NOFS reclaimers free buffers too. */
static uint64_t shrink_scan(void *priv, struct cp_shrink_control *sc)
{
	return cp_xfs_buftarg_scan(priv, sc->nr_to_scan);
}

static const struct cp_shrinker_ops buftarg_shrinker_ops = {
	.name = "xfs_buftarg",
	.count = shrink_count,
	.scan = shrink_scan,
};

/* ---- invariants --------------------------------------------------------- */

bool cp_xfs_buf_check(const struct cp_xfs_buftarg *bt)
{
	uint64_t nr = 0, pages = 0, on_lru = 0, dirty = 0, by_type[CP_XFS_NR_BUF_TYPES] = { 0 };
	uint64_t hashed = 0, last_lsn = 0;
	const struct cp_list *l;
	uint32_t i, b;

	if (!bt->ready)
		return true;
	if (!cp_pool_check(&bt->pool) || !cp_list_lru_check(&bt->lru))
		return false;
	for (i = 0; i < bt->pool.nr_used_slots; i++) {
		const struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, i);
		bool is_dirty;

		if (bp->b_pages == 0)
			continue; /* free slot */
		if (bp->b_type >= CP_XFS_NR_BUF_TYPES || bp->b_pages != bt->pages[bp->b_type] ||
		    bp->b_index != i || (bp->b_state & CP_XFS_BSTATE_DISPOSE) ||
		    cp_xfs_buf_find(bt, bp->b_key) != i)
			return false;
		is_dirty = bp->b_state & CP_XFS_BSTATE_DIRTY;
		/* dirty <=> AIL position; dirty => held; unheld => on the LRU */
		if (is_dirty != (bp->b_lsn != 0) || (is_dirty && bp->b_hold == 0) ||
		    (bp->b_hold == 0 && !cp_list_linked(&bp->b_lru)))
			return false;
		/* on the dirty list <=> a dirty non-inode buffer */
		if (cp_list_linked(&bp->b_dirty) != (is_dirty && bp->b_type != CP_XFS_BUF_INODE))
			return false;
		/* its pages are allocated pages of the zone */
		for (b = 0; b < bp->b_pages; b++)
			if (bp->b_pfns[b] >= bt->mem->total_pages ||
			    cp_mem_free_block_order(bt->mem, bp->b_pfns[b]) >= 0)
				return false;
		nr++;
		pages += bp->b_pages;
		on_lru += cp_list_linked(&bp->b_lru);
		by_type[bp->b_type]++;
	}
	for (b = 0; b < bt->nr_buckets; b++)
		for (i = bt->buckets[b]; i != CP_XFS_BUF_NONE; i = cp_xfs_buf_at(bt, i)->b_hash_next)
			if (++hashed > nr)
				return false;
	for (l = bt->dirty.next; l != &bt->dirty; l = l->next) {
		const struct cp_xfs_buf *bp = cp_container_of(l, struct cp_xfs_buf, b_dirty);

		if (bp->b_lsn <= last_lsn || ++dirty > bt->nr_dirty)
			return false;
		last_lsn = bp->b_lsn;
	}
	for (b = 0; b < CP_XFS_NR_BUF_TYPES; b++)
		if (by_type[b] != bt->nr_by_type[b])
			return false;
	return nr == bt->nr_bufs && nr == bt->pool.nr_live && hashed == nr && pages == bt->nr_pages &&
	       on_lru == cp_list_lru_count(&bt->lru, 0) && dirty == bt->nr_dirty &&
	       pages <= bt->mem->nr_owner[CP_OWNER_FSBUF] && last_lsn <= bt->next_lsn;
}
