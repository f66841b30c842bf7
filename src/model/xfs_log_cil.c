/*
 * xfs_log_cil.c - the memory XFS's delayed logging holds: log vectors in
 * the Committed Item List until their checkpoint is on disk.
 *
 * Mechanism (fs/xfs/xfs_log_cil.c, read in the XFS maintainer's tree a
 * little past 6.18; kernel profile xfs_cil_memory): a transaction commit
 * (xlog_cil_commit) first gives every dirty item of the transaction a
 * log vector buffer big enough for its formatted changes
 * (xlog_cil_alloc_shadow_bufs: kmalloc without direct reclaim, vmalloc
 * when that fails - no __GFP_RECLAIMABLE, no __GFP_ACCOUNT, so UNMOVABLE
 * pages charged to nobody). An item seen for the first time in the
 * current checkpoint takes that buffer as its vector; an item logged
 * again keeps its vector and holds the new buffer as its "shadow" for
 * the next change (xlog_cil_insert_format_items, xfs_cil_prepare_item).
 * The commit adds the change's bytes to the checkpoint's space_used -
 * per CPU, folded into the shared count when a CPU's part passes
 * XLOG_CIL_SPACE_LIMIT / num_online_cpus, exact once the shared count
 * has passed the limit (xlog_cil_insert_items) - and queues a push when
 * the shared count reaches XLOG_CIL_SPACE_LIMIT = min(log / 8, 32 MiB)
 * (xlog_cil_push_background). The push (xlog_cil_push_work) starts a
 * new checkpoint and writes the old one's vectors into the iclogs. Its
 * commit record goes into the iclog then active, which a background
 * push leaves open: it is written when the next checkpoint's data fills
 * it, or at once when the push was asked to be stable (xlog_cil_flush,
 * which xfsaild calls when it meets items pinned in the CIL). When the
 * commit record's iclog completes, xlog_cil_committed() frees the
 * checkpoint's vectors (xlog_cil_free_logvec). So a CIL that fills
 * without log forces holds its current checkpoint and the previous one.
 *
 * Measured on 6.18.44 (docs/fidelity.md, session 28; xfs:xlog_iclog_*
 * tracepoints and /proc/slabinfo every 0.2 s through a global 1G seed
 * run): the first checkpoint's 260 iclogs were written within 50 ms,
 * its commit record 1.5 s later with the next push, and kmalloc-512 held
 * about one object per create made since fs_mark began (55 - 60 K)
 * before it fell; later, with kswapd busy, xfsaild's log forces pushed
 * 20 - 30 small checkpoints a second.
 *
 * What a create logs here: the new inode (its vector about 340 B:
 * inode log format 56 B + log dinode 176 B + iovecs + vector header,
 * kmalloc-512) and the directory buffers cp_xfs_dir_createname() logged
 * (a mostly dirty 4 KiB block's vector is over 4 KiB: kmalloc-8k).
 *
 * SIMPLIFIED:
 * - A directory buffer's vector has its whole block's size from its
 *   first logging in a checkpoint (the kernel sizes it by the dirty
 *   ranges and reallocates it as they grow); its space is counted then.
 *   So a shadow is never too small: the item's vector is reused in place
 *   and its shadow kept, until the next checkpoint's first logging makes
 *   the shadow the vector (xfs_cil_prepare_item: li_lv_shadow = NULL)
 *   or the buffer's write-back frees the item and the shadow with it
 *   (xfs_buf_item_relse). The kernel's bigger shadows and the old
 *   vectors they replace are not modelled.
 * - The directory's own inode, the AGI/AGF and btree blocks, and
 *   inode allocation's items are not logged here.
 * - Committers are not throttled at XLOG_CIL_BLOCKING_SPACE_LIMIT
 *   (counted in nr_over_blocking); the push runs when its worker does.
 * - The vmalloc fallback takes the same kmalloc cache with direct
 *   reclaim allowed (GFP_NOFS, the transaction's context) instead of
 *   order-0 vmalloc pages.
 * - Items stay unpinned: xfsaild may write an inode cluster whose
 *   inode is still in the CIL.
 */
#include "model/xfs_log_cil.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "model/gfp.h"
#include "model/xfs_buf.h"

#define CIL_RING_MIN 1024
/* XLOG_TOTAL_REC_SHIFT for a v2 log: 8 iclogs of at most 256 KiB (2
 * MiB), << 4: the 32 MiB cap of XLOG_CIL_SPACE_LIMIT */
#define CIL_SPACE_CAP (32ULL << 20)
#define ICLOG_HEADER_BYTES 512 /* one basic block of record header a 32 KiB iclog */

enum { LV_INODE, LV_DIR };

int cp_xfs_cil_init(struct cp_xfs_cil *cil, struct cp_mem *mem, const struct cp_fs_log *log,
		    unsigned nr_cpus)
{
	int rc;

	memset(cil, 0, sizeof(*cil));
	if (nr_cpus == 0 || log->iclog_bytes <= ICLOG_HEADER_BYTES ||
	    log->log_bytes < 8ULL * log->iclog_bytes)
		return -CP_EINVAL;
	cil->log = *log;
	cil->nr_cpus = nr_cpus > CP_XFS_CIL_MAX_CPUS ? CP_XFS_CIL_MAX_CPUS : nr_cpus;
	rc = cp_slab_cache_init(&cil->caches[LV_INODE], mem, &log->inode_lv);
	if (rc)
		return rc;
	rc = cp_slab_cache_init(&cil->caches[LV_DIR], mem, &log->dir_lv);
	if (rc) {
		cp_slab_cache_release(&cil->caches[LV_INODE]);
		return rc;
	}
	cil->lvs = cp_calloc(CIL_RING_MIN, sizeof(*cil->lvs));
	if (!cil->lvs) {
		cp_slab_cache_release(&cil->caches[LV_DIR]);
		cp_slab_cache_release(&cil->caches[LV_INODE]);
		return -CP_ENOMEM;
	}
	cil->cap = CIL_RING_MIN;
	/* XLOG_CIL_SPACE_LIMIT and XLOG_CIL_BLOCKING_SPACE_LIMIT */
	cil->space_limit = log->log_bytes >> 3;
	if (cil->space_limit > CIL_SPACE_CAP)
		cil->space_limit = CIL_SPACE_CAP;
	cil->blocking_limit = 2 * cil->space_limit;
	cil->seq = 1; /* xlog_cil_init_post_recovery */
	cil->pcp_mode = true;
	cil->ready = true;
	return 0;
}

void cp_xfs_cil_release(struct cp_xfs_cil *cil)
{
	if (!cil->ready)
		return;
	cp_slab_cache_release(&cil->caches[LV_INODE]);
	cp_slab_cache_release(&cil->caches[LV_DIR]);
	cp_free(cil->lvs);
	memset(cil, 0, sizeof(*cil));
}

/* Room for one more vector in the ring (doubling, sequences kept). */
static int ring_reserve(struct cp_xfs_cil *cil)
{
	struct cp_xfs_lv *n;
	uint64_t s, cap = cil->cap * 2;

	if (cil->tail - cil->head < cil->cap)
		return 0;
	n = cp_calloc(cap, sizeof(*n));
	if (!n)
		return -CP_ENOMEM;
	for (s = cil->head; s < cil->tail; s++)
		n[s & (cap - 1)] = cil->lvs[s & (cil->cap - 1)];
	cp_free(cil->lvs);
	cil->lvs = n;
	cil->cap = cap;
	return 0;
}

/* xlog_cil_alloc_shadow_bufs() -> xlog_kvmalloc(): kmalloc without
 * direct reclaim (kswapd is woken), else the vmalloc fallback. */
static int lv_alloc(struct cp_xfs_cil *cil, unsigned cache, const struct cp_alloc_ctx *ctx,
		    uint32_t *slab)
{
	struct cp_alloc_ctx k = *ctx;
	struct cp_slab_obj obj;
	int rc;

	k.gfp = (ctx->gfp & ~(unsigned)(CP_GFP_FS | CP_GFP_DIRECT_RECLAIM)) | CP_GFP_NORETRY;
	rc = cp_slab_alloc(&cil->caches[cache], &k, &obj);
	if (rc == -CP_ENOSPC) {
		cil->nr_lv_fallbacks++;
		k.gfp = ctx->gfp & ~(unsigned)CP_GFP_FS;
		rc = cp_slab_alloc(&cil->caches[cache], &k, &obj);
	}
	if (rc)
		return rc;
	cil->nr_lvs++;
	*slab = obj.slab;
	return 0;
}

/* The vector (slab object) joins the current checkpoint: freed with it. */
static void ring_add(struct cp_xfs_cil *cil, unsigned cache, uint32_t slab)
{
	cil->lvs[cil->tail & (cil->cap - 1)] = (struct cp_xfs_lv){ slab, (uint8_t)cache };
	cil->tail++;
}

/* A new vector in the current checkpoint (a new inode's). */
static int alloc_lv(struct cp_xfs_cil *cil, unsigned cache, const struct cp_alloc_ctx *ctx)
{
	uint32_t slab;
	int rc = ring_reserve(cil);

	if (!rc)
		rc = lv_alloc(cil, cache, ctx, &slab);
	if (!rc)
		ring_add(cil, cache, slab);
	return rc;
}

/* xfs_buf_item_free(): kvfree(lip->li_lv_shadow) - the buffer's log
 * item goes when the buffer is written back (cp_xfs_buf_written). */
static void release_shadow(void *priv, uint32_t shadow)
{
	struct cp_xfs_cil *cil = priv;

	cp_slab_free(&cil->caches[LV_DIR], (struct cp_slab_obj){ shadow });
	cil->nr_shadows--;
}

void cp_xfs_cil_attach(struct cp_xfs_cil *cil, struct cp_xfs_buftarg *bt)
{
	bt->release_shadow = release_shadow;
	bt->release_shadow_priv = cil;
}

/* The checkpoint's space: this CPU's part, folded into the shared count
 * past its share of the limit (xlog_cil_insert_items); a push queued
 * when the shared count reaches the limit (xlog_cil_push_background). */
static void add_space(struct cp_xfs_cil *cil, int cpu, uint64_t len)
{
	unsigned c = cpu < 0 ? 0 : (unsigned)cpu % cil->nr_cpus;
	unsigned i;

	if (!cil->pcp_mode) {
		cil->space_used += len;
	} else if (cil->pcp_space[c] + len > cil->space_limit / cil->nr_cpus) {
		cil->space_used += cil->pcp_space[c] + len;
		cil->pcp_space[c] = 0;
		if (cil->space_used >= cil->space_limit) {
			/* xlog_cil_insert_pcp_aggregate: exact from now on */
			for (i = 0; i < cil->nr_cpus; i++) {
				cil->space_used += cil->pcp_space[i];
				cil->pcp_space[i] = 0;
			}
			cil->pcp_mode = false;
		}
	} else {
		cil->pcp_space[c] += len;
	}
	if (cil->space_used >= cil->blocking_limit)
		cil->nr_over_blocking++;
	if (cil->space_used >= cil->space_limit)
		cil->push_wanted = true;
}

int cp_xfs_cil_commit(struct cp_xfs_cil *cil, struct cp_xfs_buftarg *bt, unsigned nr_inodes,
		      const uint32_t *bufs, unsigned nr_bufs, const struct cp_alloc_ctx *ctx)
{
	uint64_t len = 0;
	unsigned i;
	int rc;

	CP_BUG_ON(!cil->ready);
	for (i = 0; i < nr_inodes; i++) {
		rc = alloc_lv(cil, LV_INODE, ctx);
		if (rc)
			return rc;
		len += cil->log.inode_space_bytes;
	}
	for (i = 0; i < nr_bufs; i++) {
		struct cp_xfs_buf *bp = cp_xfs_buf_at(bt, bufs[i]);

		CP_BUG_ON(!bt->release_shadow); /* cp_xfs_cil_attach() */
		if (bp->b_cil_seq != (uint32_t)cil->seq) {
			/* first time in this checkpoint: the item's shadow,
			 * made at an earlier commit, becomes its vector;
			 * without one a new buffer is made for it */
			rc = ring_reserve(cil);
			if (rc)
				return rc;
			if (bp->b_cil_shadow != CP_XFS_BUF_NO_SHADOW) {
				ring_add(cil, LV_DIR, bp->b_cil_shadow);
				bp->b_cil_shadow = CP_XFS_BUF_NO_SHADOW;
				cil->nr_shadows--;
			} else {
				uint32_t slab;

				rc = lv_alloc(cil, LV_DIR, ctx, &slab);
				if (rc)
					return rc;
				ring_add(cil, LV_DIR, slab);
			}
			bp->b_cil_seq = (uint32_t)cil->seq;
			len += cil->log.dir_block_space_bytes;
		} else if (bp->b_cil_shadow == CP_XFS_BUF_NO_SHADOW) {
			/* logged again: a shadow buffer for the next change,
			 * kept on the item (the vector, as big, is reused in
			 * place) */
			uint32_t slab;

			rc = lv_alloc(cil, LV_DIR, ctx, &slab);
			if (rc)
				return rc;
			bp->b_cil_shadow = slab;
			cil->nr_shadows++;
		}
	}
	if (len)
		add_space(cil, ctx->cpu, len);
	return 0;
}

void cp_xfs_cil_flush(struct cp_xfs_cil *cil)
{
	if (!cp_xfs_cil_has_items(cil))
		return;
	cil->push_wanted = true;
	cil->push_stable = true;
	cil->nr_flushes++;
}

/* Every CPU's part of the checkpoint's space. */
static uint64_t ctx_space(const struct cp_xfs_cil *cil)
{
	uint64_t s = cil->space_used;
	unsigned i;

	for (i = 0; i < cil->nr_cpus; i++)
		s += cil->pcp_space[i];
	return s;
}

bool cp_xfs_cil_push(struct cp_xfs_cil *cil, uint64_t *bytes)
{
	uint64_t space, per_iclog = cil->log.iclog_bytes - ICLOG_HEADER_BYTES;
	struct cp_xfs_cil_ctx *c;

	*bytes = 0;
	if (!cil->push_wanted)
		return true;
	if (!cp_xfs_cil_has_items(cil)) {
		cil->push_wanted = cil->push_stable = false;
		return true;
	}
	if (cil->nr_committing == CP_XFS_CIL_MAX_COMMITTING)
		return false;
	space = ctx_space(cil);
	c = &cil->committing[cil->nr_committing++];
	*c = (struct cp_xfs_cil_ctx){ .first = cil->ctx_first, .end = cil->tail, .seq = cil->seq };
	/* xlog_write(): the vectors and a record header per iclog */
	*bytes = space + (space + per_iclog - 1) / per_iclog * ICLOG_HEADER_BYTES;
	cil->nr_log_bytes += *bytes;
	cil->nr_pushes++;
	/* xlog_cil_ctx_switch(): a new, empty checkpoint */
	cil->seq++;
	cil->ctx_first = cil->tail;
	cil->space_used = 0;
	memset(cil->pcp_space, 0, sizeof(cil->pcp_space));
	cil->pcp_mode = true;
	cil->push_wanted = false;
	return true;
}

void cp_xfs_cil_written(struct cp_xfs_cil *cil, uint64_t first_ns, uint64_t done_ns)
{
	unsigned i;

	CP_BUG_ON(cil->nr_committing == 0);
	/* earlier checkpoints' commit records: in the iclog this write fills */
	for (i = 0; i + 1 < cil->nr_committing; i++)
		if (!cil->committing[i].done_ns)
			cil->committing[i].done_ns = first_ns;
	if (cil->push_stable) {
		cil->committing[cil->nr_committing - 1].done_ns = done_ns;
		cil->push_stable = false;
	}
}

unsigned cp_xfs_cil_complete(struct cp_xfs_cil *cil, uint64_t now_ns)
{
	unsigned n = 0, i;

	/* iclogs complete in order: so do the checkpoints (xlog_state_do_callback) */
	while (n < cil->nr_committing && cil->committing[n].done_ns &&
	       cil->committing[n].done_ns <= now_ns) {
		const struct cp_xfs_cil_ctx *c = &cil->committing[n];
		uint64_t s;

		CP_BUG_ON(c->first != cil->head);
		for (s = c->first; s < c->end; s++) {
			const struct cp_xfs_lv *lv = &cil->lvs[s & (cil->cap - 1)];

			cp_slab_free(&cil->caches[lv->cache], (struct cp_slab_obj){ lv->slab });
		}
		cil->head = c->end;
		cil->nr_commits++;
		n++;
	}
	if (n) {
		for (i = n; i < cil->nr_committing; i++)
			cil->committing[i - n] = cil->committing[i];
		cil->nr_committing -= n;
	}
	return n;
}

uint64_t cp_xfs_cil_next_done(const struct cp_xfs_cil *cil)
{
	return cil->nr_committing ? cil->committing[0].done_ns : 0;
}

uint64_t cp_xfs_cil_pages(const struct cp_xfs_cil *cil)
{
	if (!cil->ready)
		return 0;
	return cp_slab_pages(&cil->caches[LV_INODE]) + cp_slab_pages(&cil->caches[LV_DIR]);
}

bool cp_xfs_cil_check(const struct cp_xfs_cil *cil)
{
	uint64_t by_cache[2] = { 0, 0 }, s, prev_end;
	unsigned i;

	if (!cil->ready)
		return true;
	if (cil->head > cil->tail || cil->tail - cil->head > cil->cap ||
	    cil->ctx_first < cil->head || cil->ctx_first > cil->tail)
		return false;
	prev_end = cil->head;
	for (i = 0; i < cil->nr_committing; i++) {
		const struct cp_xfs_cil_ctx *c = &cil->committing[i];

		if (c->first != prev_end || c->end < c->first || c->end > cil->ctx_first)
			return false;
		prev_end = c->end;
	}
	if (prev_end != cil->ctx_first)
		return false;
	for (s = cil->head; s < cil->tail; s++) {
		const struct cp_xfs_lv *lv = &cil->lvs[s & (cil->cap - 1)];

		if (lv->cache > LV_DIR)
			return false;
		by_cache[lv->cache]++;
	}
	return by_cache[LV_INODE] == cil->caches[LV_INODE].nr_objects &&
	       by_cache[LV_DIR] + cil->nr_shadows == cil->caches[LV_DIR].nr_objects &&
	       cp_slab_check(&cil->caches[LV_INODE]) && cp_slab_check(&cil->caches[LV_DIR]);
}
