/*
 * icache.h - the VFS inode cache of one superblock: inodes, their
 * reference counts and state bits, the lookup hash, the lazy inode LRU
 * and its shrinker callback (fs/inode.c).
 */
#ifndef CP_ICACHE_H
#define CP_ICACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/list.h"
#include "core/pool.h"
#include "model/list_lru.h"
#include "model/memory.h"
#include "model/policy.h"
#include "model/slab.h"
#include "model/vmstat.h"

struct cp_kernel_profile;
struct cp_pagecache;

/* i_state bits (fs/inode.c names; the last two are filesystem state kept
 * here to keep struct cp_inode small). */
enum cp_inode_state {
	CP_I_REFERENCED = 1u << 0,  /* I_REFERENCED: second chance on the LRU */
	CP_I_FREEING = 1u << 1,     /* I_FREEING: chosen for eviction */
	CP_I_DIRTY = 1u << 2,       /* I_DIRTY_*: VFS-dirty, kept off the LRU */
	CP_I_RECLAIMABLE = 1u << 3, /* evicted from the VFS, held by the fs until
				     * its own reclaim (XFS_IRECLAIMABLE); i_lru
				     * links the fs's list */
	CP_I_XFS_DIRTY = 1u << 4,   /* logged but not written back: XFS's log
				     * dirtiness, invisible to the VFS (ref §11.2) */
	CP_I_ALLOCATED = 1u << 7,   /* the pool slot holds a live inode */
};

/* Bits that make inode_lru_isolate() drop an unused inode from the LRU
 * ("any state other than I_REFERENCED"). */
#define CP_I_VFS_BUSY (CP_I_FREEING | CP_I_DIRTY | CP_I_RECLAIMABLE)

#define CP_NO_MAPPING UINT32_MAX

/* 64 bytes: the model holds millions. */
struct cp_inode {
	struct cp_list i_lru;          /* inode LRU, dispose list or fs list */
	struct cp_inode *i_hash_next;  /* lookup hash chain */
	uint64_t i_ino;
	uint32_t i_id;                 /* pool index */
	uint32_t i_count;              /* references (dentries, open files) */
	uint32_t i_nlink;              /* 0: evicted at the last iput */
	uint32_t i_mapping;            /* page-cache mapping id or CP_NO_MAPPING */
	struct cp_slab_obj i_slab;     /* object in the fs inode cache */
	struct cp_slab_obj i_fs_obj;   /* filesystem object freed with it (xfs_ili) */
	uint16_t i_state;              /* enum cp_inode_state */
	uint16_t i_memcg_id;           /* memcg of its slab: which LRU list */
};

/* How the filesystem takes part (struct super_operations). */
struct cp_icache_fs_ops {
	/* ->destroy_inode() after evict(): the inode (i_state
	 * CP_I_RECLAIMABLE, unhashed from nothing) now belongs to the fs,
	 * which frees it later with cp_icache_free_inode(). NULL: the VFS
	 * frees it at once (ext4). */
	void (*destroy_inode)(void *priv, struct cp_inode *inode);
	/* A lookup found a CP_I_RECLAIMABLE inode: take it off the fs's
	 * list (xfs_iget_cache_hit recycling an XFS_IRECLAIMABLE inode). */
	void (*recycle_inode)(void *priv, struct cp_inode *inode);
	void *priv;
};

struct cp_icache_params {
	enum cp_ref_policy policy;
	const struct cp_kernel_profile *kernel;
	struct cp_slab_cache *inode_cache; /* the fs's inode cache */
	struct cp_pagecache *pc;           /* NULL: no inode has pages */
	struct cp_vmstat *vmstat;
};

struct cp_icache {
	struct cp_pool pool;            /* struct cp_inode storage */
	struct cp_slab_cache *inode_cache;
	struct cp_list_lru lru;         /* sb->s_inode_lru */
	struct cp_inode **hash;         /* nr_buckets chains, power of two */
	uint32_t nr_buckets;
	uint64_t nr_inodes;             /* live inodes incl. fs-held (nr_inodes) */
	enum cp_ref_policy policy;
	const struct cp_kernel_profile *kernel;
	struct cp_pagecache *pc;
	struct cp_vmstat *vmstat;
	struct cp_icache_fs_ops ops;
	/* pages freed by inode steal since the reclaimer last took them
	 * (current->reclaim_state->reclaimed_slab): reclaim adds them to its
	 * nr_reclaimed and zeroes the field */
	uint64_t reclaimed_slab;
	/* lookups by cp_iget() */
	uint64_t nr_iget_hits, nr_iget_recycled, nr_iget_misses;
};

/* Returns 0 or -CP_ENOMEM (nothing to release). */
int cp_icache_init(struct cp_icache *ic, const struct cp_icache_params *p);

/* Drop everything (teardown; slab pages stay counted in memory). */
void cp_icache_release(struct cp_icache *ic);

void cp_icache_set_fs_ops(struct cp_icache *ic, const struct cp_icache_fs_ops *ops);

/*
 * new_inode() + insert_inode_hash(): an inode numbered ino (no inode with
 * that number may exist) with i_count 1, i_nlink 1, no mapping, its slab
 * object allocated in ctx (which may reclaim). Returns 0 and *out, or
 * -CP_ENOMEM / -CP_ENOSPC with nothing allocated.
 */
int cp_icache_new_inode(struct cp_icache *ic, uint64_t ino, struct cp_alloc_ctx *ctx,
			struct cp_inode **out);

/* The hashed inode numbered ino in any state, or NULL (no reference). */
struct cp_inode *cp_icache_find(const struct cp_icache *ic, uint64_t ino);

enum cp_iget_result {
	CP_IGET_HIT,      /* cached VFS inode: one more reference */
	CP_IGET_RECYCLED, /* held by the fs (XFS reclaimable): brought back */
	CP_IGET_MISS,     /* read from disk: a new inode was allocated */
};

/*
 * iget_locked() / xfs_iget(): the inode numbered ino with a reference.
 * A hit does not touch the LRU (lazy LRU, ref §3.1). A miss allocates in
 * ctx. Returns 0, *out and *res (optional), or -CP_ENOMEM / -CP_ENOSPC
 * (miss whose allocation failed; nothing changed).
 */
int cp_iget(struct cp_icache *ic, uint64_t ino, struct cp_alloc_ctx *ctx,
	    struct cp_inode **out, enum cp_iget_result *res);

/* ilookup(): the cached VFS inode numbered ino with one more reference
 * (the LRU is not touched), or NULL when it is not cached or only held
 * by the filesystem (XFS reclaimable: only cp_iget recycles). */
struct cp_inode *cp_ilookup(struct cp_icache *ic, uint64_t ino);

/* __iget(): one more reference (also on an unused cached inode); the
 * LRU is not touched. */
void cp_ihold(struct cp_inode *inode);

/*
 * iput(): drop a reference; at zero iput_final() keeps a linked inode
 * on the LRU per policy (legacy: I_REFERENCED always, then
 * inode_add_lru; patched: I_REFERENCED only when already on the LRU) or
 * evicts an unlinked one.
 */
void cp_iput(struct cp_icache *ic, struct cp_inode *inode);

/* Give the inode a page-cache mapping (created by the caller). */
void cp_icache_set_mapping(struct cp_inode *inode, uint32_t mapping_id);

/* __mark_inode_dirty(): VFS-dirty, so kept off the LRU; and writeback
 * completion (inode_sync_complete -> inode_add_lru). */
void cp_inode_mark_dirty(struct cp_inode *inode);
void cp_inode_writeback_done(struct cp_icache *ic, struct cp_inode *inode);

/* struct cp_pagecache's mapping_emptied hook (priv = ic, host = inode):
 * 5.16+ queues an inode whose last page went (inode_add_lru, no
 * rotation); a no-op for profiles that keep such inodes on the LRU. */
void cp_icache_mapping_emptied(void *priv, void *host);

/*
 * prune_icache_sb(): walk memcg_id's inode LRU with inode_lru_isolate()
 * for up to nr_to_scan visits, then evict what it isolated. is_kswapd
 * selects KSWAPD_INODESTEAL vs PGINODESTEAL for pages stripped from
 * unused inodes (pre-5.16 profiles). ctx is the reclaimer's context (may
 * be NULL). Returns the number of REMOVED verdicts.
 */
uint64_t cp_prune_icache_sb(struct cp_icache *ic, int memcg_id, uint64_t nr_to_scan,
			    struct cp_alloc_ctx *ctx, bool is_kswapd);

/* list_lru_shrink_count() of the inode LRU. */
uint64_t cp_icache_lru_count(const struct cp_icache *ic, int memcg_id);

/* The end of an inode's life: unhash and free its slab object and pool
 * slot (destroy_inode -> free_inode, or XFS's xfs_inode_free after it
 * freed its own object). The inode must be on no list. */
void cp_icache_free_inode(struct cp_icache *ic, struct cp_inode *inode);

/* Invariants: every live inode hashed once; LRU membership matches
 * state; list_lru and pool consistent; slab objects == inodes when the
 * inode cache is ours alone. O(inodes). */
bool cp_icache_check(const struct cp_icache *ic);

#endif /* CP_ICACHE_H */
