/*
 * xfs_buf.h - the XFS metadata buffer cache (fs/xfs/xfs_buf.c): buffers
 * found by disk address, held while in use or dirty, kept on the
 * buftarg's LRU when unused, and freed by the buftarg shrinker.
 */
#ifndef CP_XFS_BUF_H
#define CP_XFS_BUF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/list.h"
#include "core/pool.h"
#include "model/list_lru.h"
#include "model/memory.h"
#include "model/shrinker.h"

struct cp_kernel_profile;

#define CP_XFS_BUF_NONE UINT32_MAX

/* fs/xfs/libxfs/xfs_shared.h (4.11 = 6.1): the b_lru_ref a buffer gets
 * when it is read for these uses (xfs_buf_set_ref). A new buffer starts
 * at 1 (_xfs_buf_alloc). */
#define CP_XFS_INO_REF 2       /* inode cluster read by xfs_iread() */
#define CP_XFS_DIR_BTREE_REF 2 /* directory block read by xfs_da_read_buf() */

/* What a buffer holds; also the top bits of its key. */
enum cp_xfs_buf_type {
	CP_XFS_BUF_INODE,    /* an inode cluster (xfs_imap_to_bp) */
	CP_XFS_BUF_DIR_DATA, /* directory data block (entries) */
	CP_XFS_BUF_DIR_LEAF, /* directory hash leaf block */
	CP_XFS_BUF_DIR_FREE, /* directory free-space index block */
	CP_XFS_NR_BUF_TYPES
};

/* b_state bits */
#define CP_XFS_BSTATE_DIRTY 0x1   /* logged, not yet written: the log item holds it */
#define CP_XFS_BSTATE_DISPOSE 0x2 /* XFS_BSTATE_DISPOSE: on a shrinker's dispose list */
#define CP_XFS_BSTATE_FOLIO 0x4   /* backed by one folio (6.15+), freed whole */

/* cp_xfs_buf.b_cil_shadow: no shadow vector */
#define CP_XFS_BUF_NO_SHADOW UINT32_MAX

/* struct xfs_buf, reduced to what reclaim sees. */
struct cp_xfs_buf {
	struct cp_list b_lru;   /* buftarg LRU or a dispose list; self-linked when on neither */
	struct cp_list b_dirty; /* dirty directory buffers, oldest first (self-linked if not) */
	uint64_t b_key;         /* disk address stand-in: cp_xfs_buf_key() */
	uint64_t b_lsn;         /* AIL position: sequence number when it became dirty; 0 clean */
	uint32_t b_index;       /* its own index in the pool */
	uint32_t b_hash_next;   /* lookup hash chain (buffer index) */
	uint16_t b_hold;        /* holds other than the LRU's: 1 for DIRTY + users */
	uint8_t b_type;         /* enum cp_xfs_buf_type */
	uint8_t b_lru_ref;      /* passes through the LRU it may still take */
	uint8_t b_state;        /* CP_XFS_BSTATE_* */
	uint8_t b_pages;        /* memory pages (CP_OWNER_FSBUF) */
	uint32_t b_cil_seq;     /* the CIL checkpoint it was last logged in; 0 none */
	/* its log item's shadow vector (li_lv_shadow: a slab object of the
	 * CIL's, xfs_log_cil.c), CP_XFS_BUF_NO_SHADOW when none */
	uint32_t b_cil_shadow;
	uint32_t b_pfns[];      /* b_pages order-0 pages (the pool's objects
				 * have room for the largest buffer) */
};

struct cp_xfs_buftarg {
	struct cp_mem *mem;
	/* kernel profile xfs_buf_lru_first_visit_frees: 4.11's inverted
	 * test in xfs_buftarg_isolate() */
	bool inverted_isolate;
	/* kernel profile xfs_buf_folio: multi-page buffers as one folio */
	bool folio_backing;
	uint8_t pages[CP_XFS_NR_BUF_TYPES]; /* pages per buffer of each type */
	uint8_t max_pages;                  /* the largest of pages[] */
	/* xfs_buf_item_relse() -> xfs_buf_item_free(): the log item goes
	 * when its buffer is written back, and its shadow vector with it
	 * (set by the CIL; NULL: buffers never get one) */
	void (*release_shadow)(void *priv, uint32_t shadow);
	void *release_shadow_priv;
	bool ready;                         /* initialised (XFS only) */

	struct cp_pool pool;     /* struct cp_xfs_buf by index */
	uint32_t *buckets;       /* lookup hash heads (power of two) */
	uint32_t nr_buckets;
	struct cp_list_lru lru;  /* bt_lru: released buffers, lazily also reused ones */
	struct cp_list dirty;    /* dirty non-inode buffers in AIL (b_lsn) order */
	uint64_t nr_dirty;       /* invariant: length of dirty */
	uint64_t next_lsn;       /* last b_lsn handed out */

	uint64_t nr_bufs;        /* invariant: live buffers in pool */
	uint64_t nr_pages;       /* invariant: sum of b_pages, all under CP_OWNER_FSBUF */
	uint64_t nr_by_type[CP_XFS_NR_BUF_TYPES];

	struct cp_shrinker shrinker; /* seeks 2, batch 128, not memcg aware */

	/* statistics */
	uint64_t nr_created;     /* buffers made without I/O (new metadata) */
	uint64_t nr_reads;       /* buffers read back from disk */
	uint64_t nr_read_bytes;
	uint64_t nr_hits;        /* lookups that found the buffer cached */
	uint64_t nr_writes;      /* non-inode buffers written back (cp_xfs_buf_push_dirty) */
	uint64_t nr_write_bytes;
	uint64_t nr_freed;       /* buffers freed (memory returned) */
	uint64_t nr_isolated;    /* shrinker verdicts that took a buffer off the LRU */
	uint64_t nr_rotated;     /* shrinker verdicts that rotated a buffer */
	uint64_t nr_folio;       /* multi-page buffers made as one folio (6.15+) */
	uint64_t nr_vmalloc;     /* ... that fell back to pages one by one */
};

/* The key of block blkno of a metadata object: type in the top 2 bits,
 * owner (a directory's inode number; 0 for inode clusters) in the next
 * 32, block (cluster number or directory block) in the low 30. */
static inline uint64_t cp_xfs_buf_key(enum cp_xfs_buf_type type, uint32_t owner, uint32_t blkno)
{
	return (uint64_t)type << 62 | (uint64_t)owner << 30 | (blkno & ((1u << 30) - 1));
}

/*
 * xfs_alloc_buftarg() + its shrinker: an empty cache whose buffers are
 * inode_cluster_bytes (inode clusters) or dir_block_bytes (directory
 * blocks) of page-allocator memory, rounded up to pages. The shrinker
 * is set up but not registered. Returns 0 or -CP_ENOMEM (nothing
 * allocated).
 */
int cp_xfs_buftarg_init(struct cp_xfs_buftarg *bt, struct cp_mem *mem,
			const struct cp_kernel_profile *kernel, uint32_t inode_cluster_bytes,
			uint32_t dir_block_bytes);

/* Free the host structures (like the slab caches, the pages stay
 * counted in mem). */
void cp_xfs_buftarg_release(struct cp_xfs_buftarg *bt);

static inline struct cp_xfs_buf *cp_xfs_buf_at(const struct cp_xfs_buftarg *bt, uint32_t idx)
{
	return cp_pool_at(&bt->pool, idx);
}

/* The cached buffer with this key, or CP_XFS_BUF_NONE. No hold taken. */
uint32_t cp_xfs_buf_find(const struct cp_xfs_buftarg *bt, uint64_t key);

/*
 * xfs_buf_get_map() / xfs_buf_read_map(): the buffer for key, held
 * (b_hold + 1) in *idx. A cached buffer is found (it stays where it is
 * on the LRU: the list is lazy); otherwise memory is allocated in ctx
 * with GFP_NOFS and without memcg charge (buffer pages are not
 * accounted), which may reclaim - including this cache's shrinker, which
 * never frees a held buffer. is_new says the block has no contents on
 * disk yet (xfs_trans_get_buf of new metadata: no I/O); otherwise a
 * buffer not in the cache is read (nr_reads). *created (optional) tells
 * whether the buffer was made by this call. Returns 0, -CP_ENOSPC (no
 * memory after reclaim) or -CP_ENOMEM (host); on failure nothing
 * changed.
 */
int cp_xfs_buf_get(struct cp_xfs_buftarg *bt, uint64_t key, bool is_new,
		   const struct cp_alloc_ctx *ctx, uint32_t *idx, bool *created);

/* xfs_buf_set_ref(): b_lru_ref = ref. */
void cp_xfs_buf_set_ref(struct cp_xfs_buftarg *bt, uint32_t idx, unsigned ref);

/* The buffer was logged in a transaction: if it was clean it becomes
 * dirty, gets the next AIL sequence number and one more hold (the log
 * item's) until cp_xfs_buf_written(). Non-inode buffers also join the
 * dirty list that cp_xfs_buf_push_dirty() writes. The caller holds it. */
void cp_xfs_buf_log(struct cp_xfs_buftarg *bt, uint32_t idx);

/* Writeback of a dirty buffer completed: clean, the log item's hold
 * dropped (xfs_buf_rele), so an otherwise unused buffer goes to the LRU
 * (or is freed if its b_lru_ref is 0). */
void cp_xfs_buf_written(struct cp_xfs_buftarg *bt, uint32_t idx);

/*
 * xfs_buf_rele(): drop one hold. When the last hold goes, a buffer
 * already on the LRU stays there; one off it is added at the tail if
 * b_lru_ref > 0 and freed otherwise.
 */
void cp_xfs_buf_rele(struct cp_xfs_buftarg *bt, uint32_t idx);

/* Undo a cp_xfs_buf_get() that created the buffer (is_new or read) when
 * the operation that wanted it fails: drop the hold and, if nothing else
 * holds it, free it (xfs_buf_stale + rele). */
void cp_xfs_buf_discard(struct cp_xfs_buftarg *bt, uint32_t idx);

/* AIL push of directory buffers: write (cp_xfs_buf_written) every dirty
 * non-inode buffer whose b_lsn is below lsn_limit, oldest first. Returns
 * buffers written; their bytes are added to nr_write_bytes. */
uint64_t cp_xfs_buf_push_dirty(struct cp_xfs_buftarg *bt, uint64_t lsn_limit);

/* xfs_buftarg_shrink_count(): buffers on the LRU. */
uint64_t cp_xfs_buftarg_count(const struct cp_xfs_buftarg *bt);

/*
 * xfs_buftarg_shrink_scan(): walk nr_to_scan buffers from the LRU head
 * with xfs_buftarg_isolate(), then xfs_buf_rele() the isolated ones.
 * Isolate, per kernel profile:
 *  - 4.11 / 4.13 (inverted test): b_lru_ref 0 -> rotate; otherwise
 *    decrement and isolate. After the walk a buffer nobody else holds is
 *    freed if b_lru_ref reached 0, else added back at the LRU tail
 *    (xfs_buf_rele), so b_lru_ref 1 is freed at the first visit and
 *    b_lru_ref 2 at the second.
 *  - 6.1: b_lru_ref > 0 -> decrement and rotate; 0 -> isolate and free,
 *    so a buffer is freed at visit b_lru_ref + 1.
 * A held buffer that is isolated leaves the LRU; its last
 * cp_xfs_buf_rele() decides as above. Does not look at __GFP_FS.
 * Returns the buffers isolated (what the kernel reports as freed).
 */
uint64_t cp_xfs_buftarg_scan(struct cp_xfs_buftarg *bt, uint64_t nr_to_scan);

/* Invariants: hash, LRU, dirty list and counters agree; held/dirty/
 * dispose states are consistent; pages add up and are allocated pages
 * of the zone. O(buffers). */
bool cp_xfs_buf_check(const struct cp_xfs_buftarg *bt);

#endif /* CP_XFS_BUF_H */
