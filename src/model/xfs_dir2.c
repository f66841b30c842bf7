/*
 * xfs_dir2.c - XFS directory blocks touched by a create.
 *
 * Mechanism (fs/xfs/libxfs/xfs_dir2.c, xfs_dir2_sf.c, xfs_dir2_node.c,
 * xfs_da_format.h / xfs_da_format.c, 4.11; the v5 "dir3" format that
 * mkfs.xfs makes with crc=1): a small directory keeps its entries in the
 * inode's literal area ("shortform", no blocks). When a name no longer
 * fits (xfs_dir2_sf_addname -> xfs_dir2_sf_to_block) the entries move to
 * directory blocks of dir_block_bytes (mkfs -n size, 4096 by default):
 *  - data blocks hold the entries, each XFS_DIR3_DATA_ENTSIZE(namelen) =
 *    round_up(8 (inumber) + 1 (namelen) + namelen + 1 (ftype) + 2 (tag),
 *    XFS_DIR2_DATA_ALIGN = 8) bytes - 56 bytes for fs_mark's 40-character
 *    names - after a 64-byte struct xfs_dir3_data_hdr; block 0 also holds
 *    "." and ".." (16 bytes each). So block 0 takes (4096-64-32)/56 = 71
 *    such entries and every later block (4096-64)/56 = 72;
 *  - leaf blocks hold one 8-byte struct xfs_dir2_leaf_entry (hash,
 *    address) per name after a 64-byte struct xfs_dir3_leaf_hdr:
 *    (4096-64)/8 = 504 per block (xfs_dir3_max_leaf_ents), kept in hash
 *    order, so a new name lands in a block chosen by its hash;
 *  - free blocks hold one 2-byte best-free count per data block after a
 *    64-byte struct xfs_dir3_free_hdr: (4096-64)/2 = 2016 data blocks
 *    per free block (xfs_dir3_free_max_bests).
 * Names are never removed here (fs_mark keeps its files), so entries
 * fill data blocks in order: a create dirties the last data block (or a
 * new one), one leaf block and one free block. Every directory block is
 * read through xfs_da_read_buf(), which sets b_lru_ref to
 * XFS_DIR_BTREE_REF; a block made by xfs_da_get_buf() starts at 1.
 *
 * Shortform (xfs_dir2_sf.c): header xfs_dir2_sf_hdr_size(0) = 6 bytes
 * (count, i8count, 4-byte parent), entry xfs_dir3_sf_entsize = 1
 * (namelen) + 2 (offset) + namelen + 1 (ftype) + 4 (inode number); it
 * must fit the literal area, inode size minus the 176-byte v3 inode core
 * (xfs_dinode_size(3)): 512 - 176 = 336 bytes, i.e. 6 names of 40
 * characters.
 *
 * Kernel functions modelled: xfs_dir_createname, xfs_dir2_sf_addname,
 * xfs_dir2_sf_to_block, xfs_dir2_node_addname(_int), xfs_dir3_data_init,
 * xfs_dir2_grow_inode, xfs_dir2_leafn_add / xfs_dir2_leafn_split,
 * xfs_dir3_free_get_buf, xfs_da_read_buf / xfs_da_get_buf.
 *
 * SIMPLIFIED:
 * - Block and single-leaf forms are skipped: a directory leaving
 *   shortform goes straight to the node layout (data + leaf + free
 *   blocks). The kernel would use one block up to ~60 names and one
 *   leaf block with a bests tail up to ~500, so small directories get one
 *   or two blocks more here.
 * - Leaf blocks are packed full: a directory has ceil(names / 504) of
 *   them (the kernel splits a full leaf in half, so real leaves are about
 *   70 % full); a split dirties the new block and the one the name
 *   hashes to, not the block it was split from. The da-btree node blocks
 *   above the leaves (one per ~500 leaves) are not modelled.
 * - The name's hash is a mix of its id, not xfs_da_hashname().
 * - Inode numbers fit 32 bits (4-byte shortform inode numbers).
 * - Logging the directory inode itself (size, timestamps) is not
 *   modelled here: it would keep the directory's inode cluster dirty.
 */
#include "model/xfs_dir2.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"

#define DIR2_DATA_ALIGN 8     /* XFS_DIR2_DATA_ALIGN */
#define DIR3_DATA_HDR 64      /* sizeof(struct xfs_dir3_data_hdr) */
#define DIR3_LEAF_HDR 64      /* sizeof(struct xfs_dir3_leaf_hdr) */
#define DIR3_FREE_HDR 64      /* sizeof(struct xfs_dir3_free_hdr) */
#define DIR2_LEAF_ENTRY 8     /* sizeof(struct xfs_dir2_leaf_entry) */
#define DIR2_DATA_OFF 2       /* sizeof(xfs_dir2_data_off_t): a bests slot */
#define DIR2_SF_HDR 6         /* xfs_dir2_sf_hdr_size(0) */
#define DINODE_V3_CORE 176    /* xfs_dinode_size(3) */
#define MIN_DIR_BLOCK 512

unsigned cp_xfs_dir3_data_entsize(unsigned namelen)
{
	unsigned n = 8 + 1 + namelen + 1 + 2;

	return (n + DIR2_DATA_ALIGN - 1) & ~(unsigned)(DIR2_DATA_ALIGN - 1);
}

unsigned cp_xfs_dir3_sf_entsize(unsigned namelen)
{
	return 1 + 2 + namelen + 1 + 4;
}

int cp_xfs_dirs_init(struct cp_xfs_dirs *d, struct cp_xfs_buftarg *bt, uint32_t dir_block_bytes,
		     uint32_t disk_inode_bytes)
{
	memset(d, 0, sizeof(*d));
	if (dir_block_bytes < MIN_DIR_BLOCK || disk_inode_bytes <= DINODE_V3_CORE)
		return -CP_EINVAL;
	d->bt = bt;
	d->dir_block_bytes = dir_block_bytes;
	d->literal_bytes = disk_inode_bytes - DINODE_V3_CORE;
	d->data_bytes = dir_block_bytes - DIR3_DATA_HDR;
	d->data0_bytes = d->data_bytes - cp_xfs_dir3_data_entsize(1) - cp_xfs_dir3_data_entsize(2);
	d->leaf_ents = (dir_block_bytes - DIR3_LEAF_HDR) / DIR2_LEAF_ENTRY;
	d->free_ents = (dir_block_bytes - DIR3_FREE_HDR) / DIR2_DATA_OFF;
	d->nr_buckets = 256;
	d->buckets = cp_malloc(d->nr_buckets * sizeof(*d->buckets));
	if (!d->buckets)
		return -CP_ENOMEM;
	memset(d->buckets, 0xff, d->nr_buckets * sizeof(*d->buckets));
	return 0;
}

void cp_xfs_dirs_release(struct cp_xfs_dirs *d)
{
	cp_free(d->dirs);
	cp_free(d->buckets);
	memset(d, 0, sizeof(*d));
}

static uint32_t mix32(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (uint32_t)x;
}

static uint32_t bucket_of(const struct cp_xfs_dirs *d, uint32_t ino)
{
	return mix32(ino) & (d->nr_buckets - 1);
}

const struct cp_xfs_dir *cp_xfs_dir_find(const struct cp_xfs_dirs *d, uint32_t ino)
{
	uint32_t i;

	if (!d->buckets)
		return NULL;
	for (i = d->buckets[bucket_of(d, ino)]; i != CP_XFS_DIR_NONE; i = d->dirs[i].next)
		if (d->dirs[i].ino == ino)
			return &d->dirs[i];
	return NULL;
}

/* Rehash into twice the buckets when there are more directories than
 * buckets; a failed host allocation only makes chains longer. */
static void grow_buckets(struct cp_xfs_dirs *d)
{
	uint32_t n = d->nr_buckets * 2, i;
	uint32_t *nb;

	if (d->nr_dirs < d->nr_buckets || n > (1u << 26))
		return;
	nb = cp_malloc(n * sizeof(*nb));
	if (!nb)
		return;
	memset(nb, 0xff, n * sizeof(*nb));
	cp_free(d->buckets);
	d->buckets = nb;
	d->nr_buckets = n;
	for (i = 0; i < d->nr_dirs; i++) {
		uint32_t b = bucket_of(d, d->dirs[i].ino);

		d->dirs[i].next = d->buckets[b];
		d->buckets[b] = i;
	}
}

/* The directory's record, made on first use. NULL: host out of memory. */
static struct cp_xfs_dir *dir_get(struct cp_xfs_dirs *d, uint32_t ino)
{
	struct cp_xfs_dir *dir = (struct cp_xfs_dir *)cp_xfs_dir_find(d, ino);
	uint32_t b;

	if (dir)
		return dir;
	if (d->nr_dirs == d->cap_dirs) {
		uint32_t cap = d->cap_dirs ? d->cap_dirs * 2 : 64;
		struct cp_xfs_dir *dirs;

		if (cap >= CP_XFS_DIR_NONE / 2)
			return NULL;
		dirs = cp_realloc(d->dirs, (size_t)cap * sizeof(*dirs));
		if (!dirs)
			return NULL;
		d->dirs = dirs;
		d->cap_dirs = cap;
	}
	dir = &d->dirs[d->nr_dirs];
	memset(dir, 0, sizeof(*dir));
	dir->ino = ino;
	b = bucket_of(d, ino);
	dir->next = d->buckets[b];
	d->buckets[b] = d->nr_dirs++;
	grow_buckets(d);
	return (struct cp_xfs_dir *)cp_xfs_dir_find(d, ino);
}

static uint32_t leaf_blocks_for(const struct cp_xfs_dirs *d, uint32_t nr_entries)
{
	uint32_t n = (nr_entries + d->leaf_ents - 1) / d->leaf_ents;

	return n ? n : 1;
}

/* A buffer this create uses: which block, and whether the block is new
 * on disk (xfs_da_get_buf) or existing (xfs_da_read_buf). */
struct use {
	uint64_t key;
	bool is_new;
	bool created; /* cp_xfs_buf_get made it (new or read) */
	uint32_t idx;
};

/* Get every buffer in u[0..n) held; on failure release the ones got. */
static int get_all(struct cp_xfs_dirs *d, struct use *u, unsigned n,
		   const struct cp_alloc_ctx *ctx)
{
	unsigned i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = cp_xfs_buf_get(d->bt, u[i].key, u[i].is_new, ctx, &u[i].idx, &u[i].created);
		if (rc)
			goto undo;
	}
	return 0;
undo:
	while (i-- > 0) {
		if (u[i].created)
			cp_xfs_buf_discard(d->bt, u[i].idx);
		else
			cp_xfs_buf_rele(d->bt, u[i].idx);
	}
	return rc;
}

int cp_xfs_dir_createname(struct cp_xfs_dirs *d, uint32_t dir_ino, uint64_t name_id,
			  unsigned name_len, const struct cp_alloc_ctx *ctx)
{
	unsigned de = cp_xfs_dir3_data_entsize(name_len);
	unsigned se = cp_xfs_dir3_sf_entsize(name_len);
	uint32_t db, lb, fb, nr_leaf, entries, used;
	struct cp_xfs_dir *dir;
	struct use u[4];
	unsigned n = 0, i;
	bool convert, new_data;
	int rc;

	CP_BUG_ON(!d->bt || name_len == 0 || de > d->data0_bytes);
	d->nr_logged = 0;
	dir = dir_get(d, dir_ino);
	if (!dir)
		return -CP_ENOMEM;
	entries = dir->nr_entries + 1;
	convert = dir->nr_data == 0;
	if (convert && DIR2_SF_HDR + dir->sf_bytes + se <= d->literal_bytes) {
		/* xfs_dir2_sf_addname: still fits in the inode */
		dir->sf_bytes += se;
		dir->sf_data_bytes += de;
		dir->nr_entries = entries;
		d->nr_entries++;
		return 0;
	}
	/* which data block: the last one if the entry fits, else a new one
	 * (xfs_dir2_node_addname_int finds no other block with room) */
	if (convert) {
		db = 0;
		new_data = true;
		used = dir->sf_data_bytes + de;
	} else if (dir->data_used + de > (dir->nr_data == 1 ? d->data0_bytes : d->data_bytes)) {
		db = dir->nr_data;
		new_data = true;
		used = de;
	} else {
		db = dir->nr_data - 1;
		new_data = false;
		used = dir->data_used + de;
	}
	CP_BUG_ON(used > (db == 0 ? d->data0_bytes : d->data_bytes));
	nr_leaf = leaf_blocks_for(d, entries);
	lb = mix32(name_id ^ ((uint64_t)dir_ino << 32)) % nr_leaf;
	fb = db / d->free_ents;
	u[n++] = (struct use){ cp_xfs_buf_key(CP_XFS_BUF_DIR_DATA, dir_ino, db), new_data, false,
			       CP_XFS_BUF_NONE };
	if (nr_leaf > dir->nr_leaf) /* a new leaf block (leaf split) */
		u[n++] = (struct use){ cp_xfs_buf_key(CP_XFS_BUF_DIR_LEAF, dir_ino, dir->nr_leaf),
				       true, false, CP_XFS_BUF_NONE };
	if (lb < dir->nr_leaf)
		u[n++] = (struct use){ cp_xfs_buf_key(CP_XFS_BUF_DIR_LEAF, dir_ino, lb), false,
				       false, CP_XFS_BUF_NONE };
	u[n++] = (struct use){ cp_xfs_buf_key(CP_XFS_BUF_DIR_FREE, dir_ino, fb),
			       fb >= dir->nr_free, false, CP_XFS_BUF_NONE };
	rc = get_all(d, u, n, ctx);
	if (rc)
		return rc;
	/* commit: the transaction logs every buffer it changed */
	for (i = 0; i < n; i++) {
		if (!u[i].is_new)
			cp_xfs_buf_set_ref(d->bt, u[i].idx, CP_XFS_DIR_BTREE_REF);
		cp_xfs_buf_log(d->bt, u[i].idx);
		d->logged[d->nr_logged++] = u[i].idx;
		cp_xfs_buf_rele(d->bt, u[i].idx);
	}
	if (convert) {
		d->nr_sf_to_block++;
		dir->sf_bytes = 0;
		dir->sf_data_bytes = 0;
	}
	if (new_data)
		dir->nr_data = db + 1;
	dir->data_used = used;
	dir->nr_leaf = nr_leaf;
	if (fb >= dir->nr_free)
		dir->nr_free = fb + 1;
	dir->nr_entries = entries;
	d->nr_entries++;
	CP_DEBUG_CHECK(cp_xfs_dirs_check(d));
	return 0;
}

bool cp_xfs_dirs_check(const struct cp_xfs_dirs *d)
{
	uint32_t i, b, reached = 0;

	if (!d->buckets)
		return d->nr_dirs == 0;
	for (b = 0; b < d->nr_buckets; b++)
		for (i = d->buckets[b]; i != CP_XFS_DIR_NONE; i = d->dirs[i].next)
			if (i >= d->nr_dirs || bucket_of(d, d->dirs[i].ino) != b || ++reached > d->nr_dirs)
				return false;
	if (reached != d->nr_dirs)
		return false;
	for (i = 0; i < d->nr_dirs; i++) {
		const struct cp_xfs_dir *dir = &d->dirs[i];

		if (cp_xfs_dir_find(d, dir->ino) != dir)
			return false;
		if (dir->nr_data == 0) {
			if (dir->nr_leaf || dir->nr_free || dir->data_used ||
			    DIR2_SF_HDR + dir->sf_bytes > d->literal_bytes)
				return false;
			continue;
		}
		if (dir->sf_bytes || dir->nr_leaf != leaf_blocks_for(d, dir->nr_entries) ||
		    dir->nr_free != (dir->nr_data - 1) / d->free_ents + 1 || dir->data_used == 0 ||
		    dir->data_used > (dir->nr_data == 1 ? d->data0_bytes : d->data_bytes))
			return false;
	}
	return true;
}
