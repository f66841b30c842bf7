/*
 * xfs_icache.h - XFS's second stage of inode life: inodes the VFS has
 * evicted stay allocated, tagged reclaimable, until XFS reclaim frees
 * them; inode dirtiness per inode cluster; the AIL writing clusters back.
 */
#ifndef CP_XFS_ICACHE_H
#define CP_XFS_ICACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/list.h"
#include "model/icache.h"
#include "model/memory.h"
#include "model/slab.h"
#include "model/vmstat.h"

struct cp_fs_profile;
struct cp_kernel_profile;

#define CP_XFS_NONE UINT32_MAX

/* One inode cluster buffer (inodes_per_cluster consecutive inode
 * numbers, written back together). */
struct cp_xfs_cluster {
	uint32_t prev, next; /* dirty list, oldest first (AIL order) */
	uint16_t nr_dirty;   /* its inodes with CP_I_XFS_DIRTY */
	uint8_t on_dirty;    /* on the dirty list: nr_dirty > 0 */
	uint8_t pad;
};

struct cp_xfs_icache {
	struct cp_icache *ic;
	const struct cp_fs_profile *fsp;
	const struct cp_kernel_profile *kernel;
	struct cp_slab_cache *ili_cache; /* xfs_ili (not memcg-accounted) */
	struct cp_vmstat *vmstat;

	/* inodes tagged reclaimable (pag_ici_reclaimable), in eviction
	 * order; linked through i_lru */
	struct cp_list reclaimable;
	uint64_t nr_reclaimable;

	struct cp_xfs_cluster *clusters; /* by cluster number (ino / per cluster) */
	uint32_t nr_clusters;
	uint32_t dirty_head, dirty_tail;
	uint64_t nr_dirty_clusters;

	/* xfs_reclaim_inodes_nr() asked for xfs_ail_push_all(): the engine
	 * pushes the AIL (cp_xfs_ail_push) and clears the flag */
	bool ail_push_all_requested;

	uint64_t nr_sync_writes;     /* cluster writes reclaim waited for (4.11) */
	uint64_t nr_ail_writes;      /* cluster writes by the AIL push */
	uint64_t nr_skipped_dirty;   /* reclaim visits that left a dirty inode */
	uint64_t nr_reclaimed;       /* inodes freed by XFS reclaim */
};

/* Set up the stage and install it as the icache's ->destroy_inode and
 * recycle hooks. Returns 0 (no allocation). */
int cp_xfs_icache_init(struct cp_xfs_icache *x, struct cp_icache *ic,
		       const struct cp_fs_profile *fsp, const struct cp_kernel_profile *kernel,
		       struct cp_slab_cache *ili_cache, struct cp_vmstat *vmstat);

void cp_xfs_icache_release(struct cp_xfs_icache *x);

/*
 * xfs_create's inode: xfs_iget of a fresh inode number plus its log item
 * (xfs_inode_item_init), logged in the create transaction, so its cluster
 * is dirty. ctx is the transaction's context (NOFS). Returns 0 and *out
 * (i_count 1), or -CP_ENOMEM / -CP_ENOSPC with nothing allocated.
 */
int cp_xfs_ialloc(struct cp_xfs_icache *x, uint64_t ino, struct cp_alloc_ctx *ctx,
		  struct cp_inode **out);

/* xfs_reclaim_inodes_count(): what the superblock shrinker sees as
 * ->nr_cached_objects (not per memcg). */
uint64_t cp_xfs_reclaim_inodes_count(const struct cp_xfs_icache *x);

/*
 * xfs_reclaim_inodes_nr(): ->free_cached_objects. Requests an AIL push,
 * then visits reclaimable inodes in batches of XFS_LOOKUP_BATCH until
 * nr_to_scan is used up (each reclaimable inode at most once per call).
 * With the profile's xfs_reclaim_blocks (4.11 SYNC_WAIT) a dirty inode's
 * cluster is written and waited for (ctx->work->nr_write_ios += 1 per
 * cluster) and the inode freed; otherwise (6.1) dirty inodes are skipped.
 * Returns 0 like the kernel; the frees count in CP_VM_INODES_FREED.
 */
uint64_t cp_xfs_reclaim_inodes_nr(struct cp_xfs_icache *x, uint64_t nr_to_scan,
				  struct cp_alloc_ctx *ctx);

/* xfs_reclaim_worker(): the background pass (every 5 s in the kernel):
 * frees every clean reclaimable inode, never waits. Returns inodes freed. */
uint64_t cp_xfs_reclaim_worker(struct cp_xfs_icache *x);

/* AIL push / xfsaild: write back the nr_clusters oldest dirty clusters,
 * making their inodes clean. Returns clusters written (I/Os to charge). */
uint64_t cp_xfs_ail_push(struct cp_xfs_icache *x, uint64_t nr_clusters);

/* Invariants: reclaimable list and count agree and hold only fs-held
 * inodes; dirty cluster list and per-cluster counts agree with the
 * inodes' CP_I_XFS_DIRTY bits. O(inodes + clusters). */
bool cp_xfs_icache_check(const struct cp_xfs_icache *x);

#endif /* CP_XFS_ICACHE_H */
