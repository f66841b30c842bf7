/*
 * xfs_log_cil.h - the memory of XFS's Committed Item List: the log
 * vectors a transaction commit formats its dirty items into, held until
 * the checkpoint that carries them is on disk.
 */
#ifndef CP_XFS_LOG_CIL_H
#define CP_XFS_LOG_CIL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fs_profile.h"
#include "model/memory.h"
#include "model/slab.h"

struct cp_xfs_buftarg;

/* Checkpoints pushed and not yet complete, at most (the kernel's
 * xfs-cil workqueue runs 4 pushes at once; the iclogs hold the rest). */
#define CP_XFS_CIL_MAX_COMMITTING 16
#define CP_XFS_CIL_MAX_CPUS 64

/* A log vector: one kmalloc object of one of the two caches. */
struct cp_xfs_lv {
	uint32_t slab;
	uint8_t cache; /* 0: inode_lv, 1: dir_lv */
};

/* A pushed checkpoint: the vectors in lvs[first, end) of the ring. */
struct cp_xfs_cil_ctx {
	uint64_t first, end;
	uint64_t seq;
	uint64_t done_ns; /* its commit record is on disk; 0: not yet written */
};

struct cp_xfs_cil {
	struct cp_slab_cache caches[2];
	bool ready;
	struct cp_fs_log log;     /* the filesystem profile's [log] */
	unsigned nr_cpus;         /* num_online_cpus(): the per-CPU fold */
	uint64_t space_limit;     /* XLOG_CIL_SPACE_LIMIT */
	uint64_t blocking_limit;  /* XLOG_CIL_BLOCKING_SPACE_LIMIT */

	/* every vector not yet freed, oldest first: a ring of cap (a power
	 * of two) indexed by sequence & (cap - 1) */
	struct cp_xfs_lv *lvs;
	uint64_t cap, head, tail; /* live: [head, tail) */

	/* the checkpoint commits go into */
	uint64_t seq;             /* xc_current_sequence, from 1 */
	uint64_t ctx_first;       /* its vectors: [ctx_first, tail) */
	uint64_t space_used;      /* ctx->space_used: the folded part */
	uint64_t pcp_space[CP_XFS_CIL_MAX_CPUS]; /* per-CPU space not yet folded */
	bool pcp_mode;            /* XLOG_CIL_PCP_SPACE: per-CPU accounting on */
	bool push_wanted;         /* a background push is queued */
	bool push_stable;         /* ... and its commit record must be written */

	/* pushed, commit record not yet complete, oldest first */
	struct cp_xfs_cil_ctx committing[CP_XFS_CIL_MAX_COMMITTING];
	unsigned nr_committing;

	/* counters */
	uint64_t nr_pushes, nr_flushes, nr_commits;
	uint64_t nr_lvs, nr_lv_fallbacks; /* vectors made; kmalloc failed -> vmalloc */
	uint64_t nr_shadows;              /* shadows held by buffers' log items */
	uint64_t nr_log_bytes;            /* pushed to the log */
	uint64_t nr_over_blocking;        /* commits that found the CIL over the hard limit */
};

/* Create the two kmalloc caches of log (a filesystem profile's [log])
 * and the first checkpoint, for nr_cpus CPUs (at most
 * CP_XFS_CIL_MAX_CPUS counted apart). 0, -CP_EINVAL (a log smaller than
 * 8 iclogs, no CPU), -CP_ENOSPC (owner ids) or -CP_ENOMEM; on failure
 * nothing needs releasing. */
int cp_xfs_cil_init(struct cp_xfs_cil *cil, struct cp_mem *mem, const struct cp_fs_log *log,
		    unsigned nr_cpus);
void cp_xfs_cil_release(struct cp_xfs_cil *cil);

/* The buffers of bt get their log items' shadow vectors from cil, which
 * frees one when its buffer is written back (bt->release_shadow). Before
 * the first commit of a directory buffer. */
void cp_xfs_cil_attach(struct cp_xfs_cil *cil, struct cp_xfs_buftarg *bt);

/*
 * xlog_cil_commit() of a create's transaction in ctx (the committing
 * task's context; its CPU picks the per-CPU counter): a vector for each
 * new inode and for each directory buffer bufs[0..nr_bufs) the
 * transaction logged, the space accounted and a background push queued
 * when the CIL is over its limit (cil->push_wanted). 0, or -CP_ENOSPC /
 * -CP_ENOMEM (no memory for a vector: the model cannot go on).
 */
int cp_xfs_cil_commit(struct cp_xfs_cil *cil, struct cp_xfs_buftarg *bt, unsigned nr_inodes,
		      const uint32_t *bufs, unsigned nr_bufs, const struct cp_alloc_ctx *ctx);

/* xlog_cil_flush(): an asynchronous push whose commit record is written
 * at once (xfsaild found pinned items). Nothing when the CIL is empty. */
void cp_xfs_cil_flush(struct cp_xfs_cil *cil);

/* Is there a checkpoint to push? */
static inline bool cp_xfs_cil_has_items(const struct cp_xfs_cil *cil)
{
	return cil->tail > cil->ctx_first || cil->space_used > 0;
}

/*
 * xlog_cil_push_work(): the queued push. Switches to a new checkpoint and
 * returns the log bytes of the old one in *bytes (0: nothing was
 * queued, or the CIL is empty). The caller writes them, the first iclog
 * apart, and reports with cp_xfs_cil_written(). Returns false when the
 * committing list is full (the caller completes the oldest first).
 */
bool cp_xfs_cil_push(struct cp_xfs_cil *cil, uint64_t *bytes);

/*
 * The pushed checkpoint's writes were submitted: the first iclog
 * completes at first_ns, the whole checkpoint at done_ns. The previous
 * checkpoint's commit record sat in the active iclog, which this write
 * fills: it completes at first_ns. This checkpoint's own commit record
 * is written now only for a stable push (flush); otherwise it waits
 * for the next push.
 */
void cp_xfs_cil_written(struct cp_xfs_cil *cil, uint64_t first_ns, uint64_t done_ns);

/* xlog_cil_committed() of every checkpoint whose commit record is on
 * disk by now_ns: its vectors freed. Returns the checkpoints completed. */
unsigned cp_xfs_cil_complete(struct cp_xfs_cil *cil, uint64_t now_ns);

/* The earliest pending completion time, 0 if none is known. */
uint64_t cp_xfs_cil_next_done(const struct cp_xfs_cil *cil);

/* Pages the vectors hold. */
uint64_t cp_xfs_cil_pages(const struct cp_xfs_cil *cil);

/* Invariants: ring bounds, checkpoints in order and inside the ring,
 * cache counts equal the live vectors. O(vectors). */
bool cp_xfs_cil_check(const struct cp_xfs_cil *cil);

#endif /* CP_XFS_LOG_CIL_H */
