/*
 * xfs_dir2.h - which XFS directory blocks a new directory entry lands
 * in (fs/xfs/libxfs/xfs_dir2*.c, v5 "dir3" format), so that the
 * directory's buffers can be held, dirtied and cached in xfs_buf.c.
 */
#ifndef CP_XFS_DIR2_H
#define CP_XFS_DIR2_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/xfs_buf.h"

#define CP_XFS_DIR_NONE UINT32_MAX

/* One directory's on-disk layout, as far as block counts go. */
struct cp_xfs_dir {
	uint32_t ino;
	uint32_t next;          /* hash chain (index into dirs) */
	uint32_t nr_entries;    /* names added (never removed in the model) */
	uint32_t sf_bytes;      /* shortform: entry bytes in the inode (without header) */
	uint32_t sf_data_bytes; /* shortform: bytes those entries take in a data block */
	uint32_t nr_data;       /* data blocks; 0 while shortform */
	uint32_t nr_leaf;       /* hash leaf blocks */
	uint32_t nr_free;       /* free-space index blocks */
	uint32_t data_used;     /* bytes used in data block nr_data - 1 (its header excluded) */
};

struct cp_xfs_dirs {
	struct cp_xfs_buftarg *bt;
	/* geometry (xfs_da_mount / the dir3 on-disk structures) */
	uint32_t dir_block_bytes;
	uint32_t literal_bytes;  /* inode literal area: shortform directories live here */
	uint32_t data0_bytes;    /* entry space of data block 0 (after header, "." and "..") */
	uint32_t data_bytes;     /* entry space of the other data blocks */
	uint32_t leaf_ents;      /* hash entries per leaf block (xfs_dir3_max_leaf_ents) */
	uint32_t free_ents;      /* data blocks per free block (xfs_dir3_free_max_bests) */

	struct cp_xfs_dir *dirs; /* nr_dirs used, cap_dirs allocated */
	uint32_t nr_dirs, cap_dirs;
	uint32_t *buckets;       /* by inode number, power of two */
	uint32_t nr_buckets;

	/* the buffers the last cp_xfs_dir_createname() logged, for the CIL
	 * (none for a shortform directory: the entry is in the inode) */
	uint32_t logged[4];
	unsigned nr_logged;

	uint64_t nr_entries;     /* all names added */
	uint64_t nr_sf_to_block; /* shortform directories converted to blocks */
};

/* XFS_DIR3_DATA_ENTSIZE(namelen): bytes of one entry in a data block. */
unsigned cp_xfs_dir3_data_entsize(unsigned namelen);

/* xfs_dir3_sf_entsize() with 4-byte inode numbers: bytes of one entry
 * of a shortform directory. */
unsigned cp_xfs_dir3_sf_entsize(unsigned namelen);

/*
 * Set up the directory geometry for dir_block_bytes directory blocks
 * (mkfs -n size) and disk_inode_bytes inodes (v5: 176-byte core).
 * Returns 0, -CP_EINVAL (a block too small for its header) or
 * -CP_ENOMEM (nothing allocated).
 */
int cp_xfs_dirs_init(struct cp_xfs_dirs *d, struct cp_xfs_buftarg *bt, uint32_t dir_block_bytes,
		     uint32_t disk_inode_bytes);

void cp_xfs_dirs_release(struct cp_xfs_dirs *d);

/*
 * xfs_dir_createname() of a name of name_len bytes in directory dir_ino,
 * inside the create transaction (ctx is used with GFP_NOFS for new
 * buffers). A shortform directory takes it in the inode until the inode
 * is full; then the entries move to blocks. In block form the entry
 * goes into the last data block (a new one when it does not fit), its
 * hash into leaf block hash(name) % leaf blocks (a new leaf block when
 * the entries outgrow them), and the data block's best-free slot into
 * its free block: each of those buffers is read if not cached
 * (b_lru_ref = XFS_DIR_BTREE_REF) or created if new, logged, and
 * released (held by its log item until the AIL writes it). Returns 0,
 * -CP_ENOSPC / -CP_ENOMEM (memory); on failure nothing changed.
 */
int cp_xfs_dir_createname(struct cp_xfs_dirs *d, uint32_t dir_ino, uint64_t name_id,
			  unsigned name_len, const struct cp_alloc_ctx *ctx);

/* The layout of directory ino, or NULL if it has no entries yet. */
const struct cp_xfs_dir *cp_xfs_dir_find(const struct cp_xfs_dirs *d, uint32_t ino);

/* Invariants: the hash reaches every directory once; block counts agree
 * with the entries. O(directories). */
bool cp_xfs_dirs_check(const struct cp_xfs_dirs *d);

#endif /* CP_XFS_DIR2_H */
