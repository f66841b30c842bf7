/*
 * dcache.h - the dentry cache of one superblock: dentries with reference
 * counts, parents and inodes, the lookup hash, the lazy dentry LRU and
 * its shrinker callback (fs/dcache.c).
 */
#ifndef CP_DCACHE_H
#define CP_DCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/list.h"
#include "core/pool.h"
#include "model/icache.h"
#include "model/list_lru.h"
#include "model/memory.h"
#include "model/policy.h"
#include "model/slab.h"
#include "model/vmstat.h"

/* d_flags (fs/dcache.c names; HASHED and ALLOCATED are ours). */
enum cp_dentry_flags {
	CP_DCACHE_LRU_LIST = 1u << 0,    /* d_lru in use: on the LRU or a shrink list */
	CP_DCACHE_SHRINK_LIST = 1u << 1, /* on a private dispose list */
	CP_DCACHE_REFERENCED = 1u << 2,  /* second chance on the LRU */
	CP_DCACHE_HASHED = 1u << 3,      /* findable by lookup (!d_unhashed) */
	CP_DCACHE_ALLOCATED = 1u << 7,   /* the pool slot holds a live dentry */
};

/* 72 bytes: the model holds millions. Names are an id and a length. */
struct cp_dentry {
	struct cp_list d_lru;          /* dentry LRU or dispose list */
	struct cp_dentry *d_parent;    /* holds a reference; NULL for the root */
	struct cp_inode *d_inode;      /* holds a reference; NULL = negative */
	struct cp_dentry *d_hash_next; /* lookup hash chain */
	uint64_t d_name_id;
	uint32_t d_id;                 /* pool index (hash key of children) */
	uint32_t d_count;              /* d_lockref.count */
	struct cp_slab_obj d_slab;     /* object in the "dentry" cache */
	struct cp_slab_obj d_name_slab; /* external name, CP_SLAB_NONE if inline */
	uint16_t d_name_len;
	uint16_t d_flags;              /* enum cp_dentry_flags */
	uint16_t d_memcg_id;           /* memcg of its slab: which LRU list */
};

struct cp_dcache_params {
	enum cp_ref_policy policy;
	struct cp_slab_cache *dentry_cache;
	struct cp_slab_cache *name_cache; /* external names (kmalloc-64) */
	unsigned dname_inline_len;        /* DNAME_INLINE_LEN: 32 */
	unsigned external_name_overhead;  /* 17 */
	struct cp_icache *ic;             /* where dentries drop their inodes */
	struct cp_vmstat *vmstat;
};

struct cp_dcache {
	struct cp_pool pool;             /* struct cp_dentry storage */
	struct cp_slab_cache *dentry_cache;
	struct cp_slab_cache *name_cache;
	unsigned dname_inline_len;
	unsigned external_name_overhead;
	struct cp_list_lru lru;          /* sb->s_dentry_lru */
	struct cp_dentry **hash;         /* nr_buckets chains, power of two */
	uint32_t nr_buckets;
	uint64_t nr_hashed;
	uint64_t nr_dentry;              /* all live dentries (nr_dentry) */
	uint64_t nr_dentry_unused;       /* with DCACHE_LRU_LIST (nr_dentry_unused) */
	enum cp_ref_policy policy;
	struct cp_icache *ic;
	struct cp_vmstat *vmstat;
};

/* Returns 0 or -CP_ENOMEM (nothing to release). */
int cp_dcache_init(struct cp_dcache *dc, const struct cp_dcache_params *p);

/* Teardown of the host structures (references are not dropped). */
void cp_dcache_release(struct cp_dcache *dc);

/*
 * d_alloc() + hashing (d_add of the lookup): a dentry named (parent,
 * name_id) with d_count 1, negative, not on the LRU; takes a reference
 * on parent (NULL: a root). Names of dname_inline_len bytes or more get
 * an external name object. ctx is the caller's (GFP_KERNEL) context and
 * may reclaim. Returns 0 and *out, -CP_EINVAL (name_len 0 or too long
 * for the modelled kmalloc-64 cache: > 47), -CP_ENOMEM or -CP_ENOSPC; on
 * failure nothing is allocated.
 */
int cp_d_alloc(struct cp_dcache *dc, struct cp_dentry *parent, uint64_t name_id,
	       unsigned name_len, struct cp_alloc_ctx *ctx, struct cp_dentry **out);

/* d_instantiate(): attach inode, taking over the caller's reference. */
void cp_d_instantiate(struct cp_dentry *d, struct cp_inode *inode);

/* d_lookup(): the hashed child of parent named name_id with one more
 * reference, or NULL. Does not touch the LRU or DCACHE_REFERENCED. */
struct cp_dentry *cp_d_lookup(struct cp_dcache *dc, const struct cp_dentry *parent,
			      uint64_t name_id);

/* dget(): one more reference. */
void cp_dget(struct cp_dentry *d);

/*
 * dput(): drop a reference. At the last one a hashed dentry is kept on
 * the LRU per policy (legacy: DCACHE_REFERENCED set, then added if not on
 * the LRU; patched: added without the flag, or the flag set if already on
 * the LRU); an unhashed one is killed and its parent put in turn.
 */
void cp_dput(struct cp_dcache *dc, struct cp_dentry *d);

/* d_drop(): unhash, so the last dput kills the dentry. */
void cp_d_drop(struct cp_dcache *dc, struct cp_dentry *d);

/*
 * prune_dcache_sb(): walk memcg_id's dentry LRU with dentry_lru_isolate()
 * for up to nr_to_scan visits, then kill what it isolated
 * (shrink_dentry_list), including parents whose count drops to 0 there.
 * Killing a dentry iputs its inode (which may put the inode on the inode
 * LRU). ctx is the reclaimer's context (may be NULL). Returns the number
 * of REMOVED verdicts (in-use dentries taken off the LRU included).
 */
uint64_t cp_prune_dcache_sb(struct cp_dcache *dc, int memcg_id, uint64_t nr_to_scan,
			    struct cp_alloc_ctx *ctx);

/* list_lru_shrink_count() of the dentry LRU. */
uint64_t cp_dcache_lru_count(const struct cp_dcache *dc, int memcg_id);

/* Invariants: flags agree with list membership, hash holds exactly the
 * hashed live dentries, counters add up, slab objects match. O(dentries). */
bool cp_dcache_check(const struct cp_dcache *dc);

#endif /* CP_DCACHE_H */
