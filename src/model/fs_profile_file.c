/*
 * fs_profile_file.c - the keys of filesystem profiles (profiles/xfs.ini,
 * profiles/ext4.ini), the checks between them and what follows from them.
 *
 * One table lists every key of [fs], [objects] and [create]: the kind of
 * value (with the extra checks of a filesystem name, a kmalloc size and a
 * power of two), where it goes (struct cp_fs_profile or struct
 * cp_fs_costs) and its allowed range. core/keytab.c reads the file (INI,
 * via inih), applies --set overrides and turns --fs NAME into a path
 * through that table, as for engine/machine.c; validate_pair() adds the
 * checks of keys against each other, naming the line of the key it
 * blames. After the keys are in, derive() fills what follows from them:
 * the kind from the name
 * ("xfs" -> CP_FS_XFS, "ext4" -> CP_FS_EXT4), inodes_per_cluster =
 * inode_cluster_size / disk_inode_size, the kmalloc cache the external
 * names come from, and the kernel constants no file gives, taken from the
 * built-in profile of the same name (fs_profile.c cites each):
 *   external_name_overhead 17  fs/dcache.c __d_alloc(): kmalloc of
 *                              offsetof(struct external_name, name[1]) + len
 *   reclaim_batch 32           fs/xfs/xfs_icache.h XFS_LOOKUP_BATCH (4.11)
 *   create_inode_nofs          xfs: xfs_create() allocates inside the
 *                              transaction (fs/xfs/kmem.h kmem_flags_convert(),
 *                              PF_FSTRANS, ref §9.4); ext4: ext4_alloc_inode()
 *                              uses GFP_NOFS
 *   iget_inode_nofs            xfs: xfs_iget() -> xfs_inode_alloc() outside a
 *                              transaction (GFP_KERNEL); ext4: GFP_NOFS
 *   accounted                  dentry SLAB_ACCOUNT (fs/dcache.c dcache_init()),
 *                              external names GFP_KERNEL_ACCOUNT (__d_alloc()),
 *                              xfs_inode KM_ZONE_ACCOUNT (fs/xfs/xfs_super.c
 *                              xfs_init_zones()), ext4_inode_cache SLAB_ACCOUNT
 *                              (fs/ext4/super.c init_inodecache()); xfs_ili not
 *                              accounted (ref §9.5)
 *   migratetype                the slab pages' (fs_profile.c cites each;
 *                              cp_fs_init() applies the kernel profile's
 *                              dname_reclaimable and xfs_ili_reclaimable)
 *
 * Kernel limits behind the ranges (Linux 4.11, x86-64): PAGE_SIZE 4096;
 * slab orders 0..MAX_ORDER - 1 = 10 (include/linux/mmzone.h); at most
 * MAX_OBJS_PER_PAGE = 32767 objects per slab (mm/slub.c, page->objects
 * is 15 bits); kmalloc caches 8..8192 bytes with the 96 and 192 byte
 * extras (mm/slab_common.c create_kmalloc_caches(), SLUB
 * KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1); on-disk inodes 128
 * (EXT4_GOOD_OLD_INODE_SIZE) .. 2048 (XFS_DINODE_MAX_LOG 11) bytes, a
 * power of two; an inode cluster at most 64 KiB (XFS: 8192 x 2048 / 256
 * in xfs_mountfs(); ext4: the largest block size); an XFS directory block
 * a power of two from the filesystem block size (1024 at least with
 * crc=1) to 65536 (mkfs.xfs(8), -n size), and 0 for ext4, which has no
 * XFS buffer cache.
 *
 * cp_fs_profile_set_slab() sets one cache's three keys at once from a
 * running kernel's /proc/slabinfo line (validate: the real runs' objects
 * replace the file's), with the same checks.
 *
 * SIMPLIFIED: the slab geometry is taken as the file gives it; we check
 * that the objects fit the slab, not that SLUB's calculate_order() would
 * pick that order for some CPU count. An unknown section with no keys in
 * it is not noticed (core/keytab.c: inih reports keys only).
 */
#include "model/fs_profile_file.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/bug.h"
#include "core/keytab.h"

#define PAGE_BYTES 4096ULL
#define MAX_SLAB_ORDER 10
#define MAX_OBJS_PER_SLAB 32767
#define MAX_SLAB_BYTES (PAGE_BYTES << MAX_SLAB_ORDER)
/* mkfs.xfs(8): a directory block is at least one filesystem block (-n
 * size); with crc=1 inodes are at least 512 bytes and at most half a
 * block (-i size), so blocks are at least 1024 bytes */
#define MIN_XFS_DIR_BLOCK 1024u

/* What a bad value should have been, for the kinds of value this file
 * adds to core/keytab.h's (whose default texts serve the rest). */
#define EXPECT_FSNAME "xfs or ext4"
#define EXPECT_BYTES "a number of bytes like 192 or 16K"
#define EXPECT_KMALLOC \
	"a kmalloc size: 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096 or 8192"
#define EXPECT_POW2 "a power of two number of bytes like 512"

/* Where the table's keys land: the profile, the costs and the one key
 * that is checked but not stored (second_stage follows from the kind). */
struct fs_pair {
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	bool second_stage;
};

/* The kmalloc caches of 4.11 SLUB on x86-64 (mm/slab_common.c
 * kmalloc_info[] from KMALLOC_SHIFT_LOW 3 to KMALLOC_SHIFT_HIGH 13). */
static const struct {
	uint32_t size;
	const char *name;
} kmalloc_caches[] = {
	{ 8, "kmalloc-8" },       { 16, "kmalloc-16" },     { 32, "kmalloc-32" },
	{ 64, "kmalloc-64" },     { 96, "kmalloc-96" },     { 128, "kmalloc-128" },
	{ 192, "kmalloc-192" },   { 256, "kmalloc-256" },   { 512, "kmalloc-512" },
	{ 1024, "kmalloc-1024" }, { 2048, "kmalloc-2048" }, { 4096, "kmalloc-4096" },
	{ 8192, "kmalloc-8192" },
};

static const char *kmalloc_name(uint64_t size)
{
	size_t i;

	for (i = 0; i < sizeof(kmalloc_caches) / sizeof(kmalloc_caches[0]); i++)
		if (kmalloc_caches[i].size == size)
			return kmalloc_caches[i].name;
	return NULL;
}

static bool is_kmalloc_size(uint64_t v)
{
	return kmalloc_name(v) != NULL;
}

static bool is_kmalloc_size_or_0(uint64_t v)
{
	return v == 0 || is_kmalloc_size(v);
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The name picks the model: a built-in profile of that name must exist. */
static bool is_fs_name(const char *value)
{
	return cp_fs_profile_find(value) != NULL;
}

#define FIELD(f) CP_KEY_FIELD(struct fs_pair, f)
#define NOLIMIT CP_KEY_NOLIMIT
/* Every key is required. */
#define KEY(sec, key, kind, field, lo, hi, expected, accept_text, accept_num) \
	{ sec, key, kind, FIELD(field), true, lo, hi, expected, accept_text, accept_num }
#define TEXT(sec, key, field) KEY(sec, key, CP_KEY_TEXT, field, 0, 0, NULL, NULL, NULL)
#define FSNAME(sec, key, field) \
	KEY(sec, key, CP_KEY_TEXT, field, 0, 0, EXPECT_FSNAME, is_fs_name, NULL)
#define BYTES(sec, key, field, lo, hi) \
	KEY(sec, key, CP_KEY_SIZE, field, lo, hi, EXPECT_BYTES, NULL, NULL)
#define KMALLOC(sec, key, field, lo, hi) \
	KEY(sec, key, CP_KEY_SIZE, field, lo, hi, EXPECT_KMALLOC, NULL, is_kmalloc_size)
#define POW2(sec, key, field, lo, hi) \
	KEY(sec, key, CP_KEY_SIZE, field, lo, hi, EXPECT_POW2, NULL, is_pow2)
#define COUNT(sec, key, field, lo, hi) KEY(sec, key, CP_KEY_COUNT, field, lo, hi, NULL, NULL, NULL)
#define NS(sec, key, field) KEY(sec, key, CP_KEY_NS, field, 0, NOLIMIT, NULL, NULL, NULL)
#define BOOL(sec, key, field) KEY(sec, key, CP_KEY_BOOL, field, 0, 1, NULL, NULL, NULL)
/* [log]: optional; a profile without it has no log model (0) */
#define LOGKEY(key, kind, field, lo, hi, expected, accept_num) \
	{ "log", key, kind, FIELD(field), false, lo, hi, expected, NULL, accept_num }

static const struct cp_key keys[] = {
	FSNAME("fs", "name", p.name),
	TEXT("fs", "description", p.description),

	BYTES("objects", "dentry_size", p.dentry.object_size, 1, MAX_SLAB_BYTES),
	COUNT("objects", "dentry_per_slab", p.dentry.objects_per_slab, 1, MAX_OBJS_PER_SLAB),
	COUNT("objects", "dentry_slab_order", p.dentry.order, 0, MAX_SLAB_ORDER),
	/* NAME_MAX + 1: no inline buffer needs to be longer */
	BYTES("objects", "dname_inline_len", p.dname_inline_len, 1, 256),
	KMALLOC("objects", "external_name_size", p.external_name.object_size, 8, 8192),
	COUNT("objects", "external_name_per_slab", p.external_name.objects_per_slab, 1,
	      MAX_OBJS_PER_SLAB),
	COUNT("objects", "external_name_slab_order", p.external_name.order, 0, MAX_SLAB_ORDER),
	BYTES("objects", "inode_size", p.inode.object_size, 1, MAX_SLAB_BYTES),
	COUNT("objects", "inode_per_slab", p.inode.objects_per_slab, 1, MAX_OBJS_PER_SLAB),
	COUNT("objects", "inode_slab_order", p.inode.order, 0, MAX_SLAB_ORDER),
	/* 0 = no log item (ext4) */
	BYTES("objects", "log_item_size", p.inode_log_item.object_size, 0, MAX_SLAB_BYTES),
	COUNT("objects", "log_item_per_slab", p.inode_log_item.objects_per_slab, 0,
	      MAX_OBJS_PER_SLAB),
	COUNT("objects", "log_item_slab_order", p.inode_log_item.order, 0, MAX_SLAB_ORDER),
	BOOL("objects", "second_stage", second_stage),
	POW2("objects", "disk_inode_size", p.disk_inode_bytes, 128, 2048),
	BYTES("objects", "inode_cluster_size", p.inode_cluster_bytes, 128, 65536),
	/* 0 = no XFS buffer cache (ext4); XFS: mkfs.xfs(8) -n size */
	BYTES("objects", "dir_block_size", p.dir_block_bytes, 0, 65536),

	/* XFS's log (xfs_log_cil.c); all 0 or absent: not modelled */
	LOGKEY("log_size", CP_KEY_SIZE, p.log.log_bytes, 0, 2ULL << 30, NULL, NULL),
	LOGKEY("iclog_size", CP_KEY_SIZE, p.log.iclog_bytes, 0, 256 << 10, NULL, NULL),
	LOGKEY("inode_space", CP_KEY_SIZE, p.log.inode_space_bytes, 0, 65536, NULL, NULL),
	LOGKEY("dir_block_space", CP_KEY_SIZE, p.log.dir_block_space_bytes, 0, 131072, NULL, NULL),
	LOGKEY("inode_lv_size", CP_KEY_SIZE, p.log.inode_lv.object_size, 0, 8192, EXPECT_KMALLOC,
	       is_kmalloc_size_or_0),
	LOGKEY("inode_lv_per_slab", CP_KEY_COUNT, p.log.inode_lv.objects_per_slab, 0,
	       MAX_OBJS_PER_SLAB, NULL, NULL),
	LOGKEY("inode_lv_slab_order", CP_KEY_COUNT, p.log.inode_lv.order, 0, MAX_SLAB_ORDER, NULL,
	       NULL),
	LOGKEY("dir_lv_size", CP_KEY_SIZE, p.log.dir_lv.object_size, 0, 8192, EXPECT_KMALLOC,
	       is_kmalloc_size_or_0),
	LOGKEY("dir_lv_per_slab", CP_KEY_COUNT, p.log.dir_lv.objects_per_slab, 0, MAX_OBJS_PER_SLAB,
	       NULL, NULL),
	LOGKEY("dir_lv_slab_order", CP_KEY_COUNT, p.log.dir_lv.order, 0, MAX_SLAB_ORDER, NULL, NULL),

	NS("create", "create_cpu_ns", c.create_cpu_ns),
	NS("create", "mkdir_lookup_ns", c.mkdir_lookup_ns),
	NS("create", "stat_cpu_ns", c.stat_cpu_ns),
	NS("create", "inode_read_ns", c.inode_read_ns),
};

static int validate_obj(const void *obj, int *blame, struct cp_diag *diag);

static const struct cp_keytab fs_keytab = {
	.what = "filesystem profile",
	.set_example = "objects.inode_size",
	.keys = keys,
	.nr_keys = sizeof(keys) / sizeof(keys[0]),
	.obj_size = sizeof(struct fs_pair),
	.validate = validate_obj,
};

/* Index of the key section.name (the checks below name existing keys). */
static int key_idx(const char *section, const char *name)
{
	int i = cp_keytab_find(&fs_keytab, section, name);

	CP_BUG_ON(i < 0);
	return i;
}

/* A slab of geometry g must hold its objects: per_slab x size <= PAGE_SIZE << order. */
static int check_fits_in(const struct cp_slab_geometry *g, const char *section, const char *what,
			 int *blame, struct cp_diag *diag)
{
	uint64_t slab_bytes = PAGE_BYTES << g->order;
	char per_slab_key[40];

	if ((uint64_t)g->objects_per_slab * g->object_size <= slab_bytes)
		return 0;
	snprintf(per_slab_key, sizeof(per_slab_key), "%s_per_slab", what);
	*blame = key_idx(section, per_slab_key);
	return cp_diag_set(diag, -CP_EINVAL,
			   "key '%s' in [%s]: %u objects of %u bytes (%s_size) do not fit an order-%u slab of %llu bytes (%s_slab_order)",
			   per_slab_key, section, (unsigned)g->objects_per_slab,
			   (unsigned)g->object_size, what, g->order, (unsigned long long)slab_bytes,
			   what);
}

/* [log]: log_size 0 or absent (no log model; the other keys are then
 * not used) or a whole log: an XFS filesystem, a log of at least 8
 * iclogs (XLOG_MAX_ICLOGS), both vector caches. */
static int check_log(const struct cp_fs_profile *p, const struct cp_fs_profile *b, int *blame,
		     struct cp_diag *diag)
{
	const struct cp_fs_log *l = &p->log;
	int rc;

	*blame = key_idx("log", "log_size");
	if (l->log_bytes == 0) { /* no log model: the other keys are not used */
		*blame = -1;
		return 0;
	}
	if (b->kind != CP_FS_XFS)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_size' in [log]: %s has no XFS log to model (expected 0 or no [log] section)",
				   p->name);
	*blame = key_idx("log", "iclog_size");
	if (l->iclog_bytes < 16384 || !is_pow2(l->iclog_bytes))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'iclog_size' in [log]: value %u is not an iclog size (mount -o logbsize: a power of two from 16k to 256k)",
				   (unsigned)l->iclog_bytes);
	*blame = key_idx("log", "log_size");
	if (l->log_bytes < 8ULL * l->iclog_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_size' in [log]: %llu bytes is less than 8 iclogs of %u bytes",
				   (unsigned long long)l->log_bytes, (unsigned)l->iclog_bytes);
	*blame = key_idx("log", "inode_space");
	if (!l->inode_space_bytes || !l->dir_block_space_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'inode_space' in [log]: inode_space and dir_block_space must both be above 0 with a log");
	*blame = key_idx("log", "inode_lv_size");
	if (!l->inode_lv.object_size || !l->inode_lv.objects_per_slab)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'inode_lv_size' in [log]: inode_lv_size and inode_lv_per_slab must both be set with a log");
	*blame = key_idx("log", "dir_lv_size");
	if (!l->dir_lv.object_size || !l->dir_lv.objects_per_slab)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'dir_lv_size' in [log]: dir_lv_size and dir_lv_per_slab must both be set with a log");
	if ((rc = check_fits_in(&l->inode_lv, "log", "inode_lv", blame, diag)) ||
	    (rc = check_fits_in(&l->dir_lv, "log", "dir_lv", blame, diag)))
		return rc;
	*blame = -1;
	return 0;
}

static int check_fits(const struct cp_slab_geometry *g, const char *what, int *blame,
		      struct cp_diag *diag)
{
	return check_fits_in(g, "objects", what, blame, diag);
}

/*
 * The checks of one profile: every key in its range, then the keys
 * against each other. On failure *blame is the index of the key the
 * message names first (its line is the one to report).
 */
static int validate_pair(const struct fs_pair *f, int *blame, struct cp_diag *diag)
{
	const struct cp_fs_profile *p = &f->p;
	const struct cp_fs_profile *b = cp_fs_profile_find(p->name);
	const struct cp_slab_geometry *li = &p->inode_log_item;
	int rc;

	*blame = key_idx("fs", "name");
	if (!b)
		return cp_diag_set(diag, -CP_EINVAL, "key 'name' in [fs]: bad value '%s' (expected %s)",
				   p->name, EXPECT_FSNAME);
	rc = cp_keytab_check_values(&fs_keytab, f, blame, diag);
	if (rc)
		return rc;
	if ((rc = check_fits(&p->dentry, "dentry", blame, diag)) ||
	    (rc = check_fits(&p->external_name, "external_name", blame, diag)) ||
	    (rc = check_fits(&p->inode, "inode", blame, diag)) ||
	    (rc = check_fits(li, "log_item", blame, diag)))
		return rc;
	*blame = key_idx("objects", "dname_inline_len");
	if (p->dname_inline_len > p->dentry.object_size)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'dname_inline_len' in [objects]: %u bytes do not fit in a dentry of %u bytes (dentry_size)",
				   p->dname_inline_len, (unsigned)p->dentry.object_size);
	/* __d_alloc(): the shortest external name has dname_inline_len bytes */
	*blame = key_idx("objects", "external_name_size");
	if (p->external_name.object_size < b->external_name_overhead + p->dname_inline_len)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'external_name_size' in [objects]: %u bytes cannot hold the shortest external name (%u + dname_inline_len %u bytes, fs/dcache.c __d_alloc())",
				   (unsigned)p->external_name.object_size, b->external_name_overhead,
				   p->dname_inline_len);
	*blame = key_idx("objects", "log_item_per_slab");
	if (li->object_size == 0 && (li->objects_per_slab || li->order))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_item_per_slab' in [objects]: log_item_size 0 means no log item, so log_item_per_slab and log_item_slab_order must be 0 (have %u and %u)",
				   (unsigned)li->objects_per_slab, li->order);
	if (li->object_size && !li->objects_per_slab)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_item_per_slab' in [objects]: value 0 with log_item_size %u (expected at least 1)",
				   (unsigned)li->object_size);
	*blame = key_idx("objects", "second_stage");
	if (f->second_stage != (b->kind == CP_FS_XFS))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'second_stage' in [objects]: value '%s' contradicts name '%s' (%s)",
				   f->second_stage ? "yes" : "no", p->name,
				   b->kind == CP_FS_XFS
					   ? "XFS frees evicted inodes through its own inode reclaim: expected yes"
					   : "this filesystem frees inodes at eviction: expected no");
	*blame = key_idx("objects", "log_item_size");
	if (li->object_size && b->kind != CP_FS_XFS)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_item_size' in [objects]: value %u, but %s has no per-inode log item object (expected 0)",
				   (unsigned)li->object_size, p->name);
	*blame = key_idx("objects", "inode_cluster_size");
	if (p->inode_cluster_bytes < p->disk_inode_bytes ||
	    p->inode_cluster_bytes % p->disk_inode_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'inode_cluster_size' in [objects]: %u bytes is not a whole number of %u-byte disk inodes (disk_inode_size)",
				   (unsigned)p->inode_cluster_bytes, (unsigned)p->disk_inode_bytes);
	*blame = key_idx("objects", "dir_block_size");
	if (b->kind == CP_FS_XFS &&
	    (!is_pow2(p->dir_block_bytes) || p->dir_block_bytes < MIN_XFS_DIR_BLOCK))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'dir_block_size' in [objects]: value %u is not an XFS directory block size (mkfs.xfs -n size: a power of two from %u to 65536)",
				   (unsigned)p->dir_block_bytes, MIN_XFS_DIR_BLOCK);
	if (b->kind != CP_FS_XFS && p->dir_block_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'dir_block_size' in [objects]: value %u, but %s has no XFS buffer cache (expected 0)",
				   (unsigned)p->dir_block_bytes, p->name);
	return check_log(p, b, blame, diag);
}

/* Fills what follows from the keys (validate_pair() accepted f). */
static void derive(struct fs_pair *f)
{
	struct cp_fs_profile *p = &f->p;
	const struct cp_fs_profile *b = cp_fs_profile_find(p->name);

	CP_BUG_ON(!b);
	p->kind = b->kind;
	p->dentry.name = b->dentry.name;
	p->dentry.accounted = b->dentry.accounted;
	p->external_name.name = kmalloc_name(p->external_name.object_size);
	p->external_name.accounted = b->external_name.accounted;
	p->inode.name = b->inode.name;
	p->inode.accounted = b->inode.accounted;
	/* validate_pair(): only XFS has a log item, and the built-in xfs
	 * profile names its cache */
	p->inode_log_item.name = p->inode_log_item.object_size ? b->inode_log_item.name : "none";
	p->inode_log_item.accounted = b->inode_log_item.accounted;
	p->dentry.migratetype = b->dentry.migratetype;
	p->external_name.migratetype = b->external_name.migratetype;
	p->inode.migratetype = b->inode.migratetype;
	p->inode_log_item.migratetype = b->inode_log_item.migratetype;
	p->external_name_overhead = b->external_name_overhead;
	p->reclaim_batch = b->reclaim_batch;
	p->create_inode_nofs = b->create_inode_nofs;
	p->iget_inode_nofs = b->iget_inode_nofs;
	p->inodes_per_cluster = p->inode_cluster_bytes / p->disk_inode_bytes;
	/* the log vectors: kmalloc caches, UNMOVABLE and not accounted
	 * (xlog_kvmalloc: no __GFP_RECLAIMABLE, no __GFP_ACCOUNT) */
	p->log.inode_lv.name = p->log.inode_lv.object_size ? kmalloc_name(p->log.inode_lv.object_size)
							   : "none";
	p->log.dir_lv.name = p->log.dir_lv.object_size ? kmalloc_name(p->log.dir_lv.object_size)
						       : "none";
	p->log.inode_lv.accounted = p->log.dir_lv.accounted = false;
	p->log.inode_lv.migratetype = p->log.dir_lv.migratetype = CP_MIGRATE_UNMOVABLE;
	f->second_stage = p->kind == CP_FS_XFS;
}

static void pair_from(struct fs_pair *f, const struct cp_fs_profile *p,
		      const struct cp_fs_costs *c)
{
	memset(f, 0, sizeof(*f));
	f->p = *p;
	if (c)
		f->c = *c;
	f->second_stage = p->kind == CP_FS_XFS;
}

int cp_fs_profile_validate(const struct cp_fs_profile *p, const struct cp_fs_costs *costs,
			   struct cp_diag *diag)
{
	struct fs_pair f;
	int blame;

	pair_from(&f, p, costs);
	return validate_pair(&f, &blame, diag);
}

bool cp_fs_profile_check(const struct cp_fs_profile *p)
{
	const struct cp_fs_profile *b;

	if (memchr(p->name, '\0', sizeof(p->name)) == NULL ||
	    memchr(p->description, '\0', sizeof(p->description)) == NULL)
		return false;
	b = cp_fs_profile_find(p->name);
	if (!b || p->kind != b->kind || cp_fs_profile_validate(p, NULL, NULL))
		return false;
	if (!p->dentry.name || !p->external_name.name || !p->inode.name || !p->inode_log_item.name)
		return false;
	return p->kind != CP_FS_XFS ||
	       p->inodes_per_cluster == p->inode_cluster_bytes / p->disk_inode_bytes;
}

/* The table's cross-key check: validate_pair() on the scratch pair. */
static int validate_obj(const void *obj, int *blame, struct cp_diag *diag)
{
	return validate_pair(obj, blame, diag);
}

int cp_fs_profile_load(const char *path, struct cp_fs_profile *out, struct cp_fs_costs *costs,
		       struct cp_diag *diag)
{
	struct fs_pair f;
	int rc;

	memset(&f, 0, sizeof(f));
	rc = cp_keytab_load(&fs_keytab, path, &f, diag);
	if (rc)
		return rc;
	derive(&f);
	*out = f.p;
	*costs = f.c;
	CP_DEBUG_CHECK(cp_fs_profile_check(out));
	return 0;
}

int cp_fs_profile_set(struct cp_fs_profile *p, struct cp_fs_costs *costs, const char *section_key,
		      const char *value, struct cp_diag *diag)
{
	struct fs_pair f;
	int rc;

	pair_from(&f, p, costs);
	rc = cp_keytab_set(&fs_keytab, &f, section_key, value, diag);
	if (rc)
		return rc;
	derive(&f);
	*p = f.p;
	*costs = f.c;
	CP_DEBUG_CHECK(cp_fs_profile_check(p));
	return 0;
}

static const char *const slab_roles[CP_FS_NR_SLABS] = { "dentry", "inode", "log_item" };

const char *cp_fs_slab_role_name(enum cp_fs_slab_role role)
{
	CP_BUG_ON((unsigned)role >= CP_FS_NR_SLABS);
	return slab_roles[role];
}

static struct cp_slab_geometry *slab_of(struct cp_fs_profile *p, enum cp_fs_slab_role role)
{
	switch (role) {
	case CP_FS_SLAB_DENTRY:
		return &p->dentry;
	case CP_FS_SLAB_INODE:
		return &p->inode;
	case CP_FS_SLAB_LOG_ITEM:
		return &p->inode_log_item;
	default:
		CP_BUG_ON(1);
		return NULL;
	}
}

const struct cp_slab_geometry *cp_fs_profile_slab(const struct cp_fs_profile *p,
						  enum cp_fs_slab_role role)
{
	return slab_of((struct cp_fs_profile *)p, role);
}

int cp_fs_profile_set_slab(struct cp_fs_profile *p, enum cp_fs_slab_role role,
			   uint64_t object_size, uint64_t objects_per_slab, uint64_t pages_per_slab,
			   struct cp_diag *diag)
{
	const char *what = cp_fs_slab_role_name(role);
	struct cp_slab_geometry *g;
	struct fs_pair f;
	unsigned order = 0;
	int blame;

	if (!is_pow2(pages_per_slab) || pages_per_slab > (1u << MAX_SLAB_ORDER))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key '%s_slab_order' in [objects]: %llu pages a slab is not a slab of order 0..%u",
				   what, (unsigned long long)pages_per_slab, MAX_SLAB_ORDER);
	while ((1ULL << order) < pages_per_slab)
		order++;
	if (object_size > MAX_SLAB_BYTES || objects_per_slab > MAX_OBJS_PER_SLAB)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key '%s_%s' in [objects]: value %llu out of range",
				   what, object_size > MAX_SLAB_BYTES ? "size" : "per_slab",
				   (unsigned long long)(object_size > MAX_SLAB_BYTES ? object_size
										: objects_per_slab));
	pair_from(&f, p, NULL);
	g = slab_of(&f.p, role);
	g->object_size = (uint32_t)object_size;
	g->objects_per_slab = (uint32_t)objects_per_slab;
	g->order = order;
	if (validate_pair(&f, &blame, diag))
		return -CP_EINVAL;
	derive(&f);
	*p = f.p;
	CP_DEBUG_CHECK(cp_fs_profile_check(p));
	return 0;
}

int cp_fs_profile_resolve(const char *name_or_path, const char *search_dir, char *out,
			  size_t out_len, struct cp_diag *diag)
{
	return cp_keytab_resolve(&fs_keytab, name_or_path, search_dir, out, out_len, diag);
}

int cp_fs_profile_load_named(const char *name_or_path, const char *search_dir,
			     struct cp_fs_profile *out, struct cp_fs_costs *costs,
			     struct cp_diag *diag)
{
	char path[CP_KEYTAB_PATH_MAX];
	int rc = cp_fs_profile_resolve(name_or_path, search_dir, path, sizeof(path), diag);

	return rc ? rc : cp_fs_profile_load(path, out, costs, diag);
}
