/*
 * fs_profile_file.c - loading and checking filesystem profiles (INI, via
 * inih): profiles/xfs.ini, profiles/ext4.ini.
 *
 * One table lists every key of [fs], [objects] and [create]: the kind of
 * value, where it goes (struct cp_fs_profile or struct cp_fs_costs) and
 * its allowed range. Loading, --set overrides and validation all go
 * through the table, in the style of engine/machine.c. After the keys are
 * in, derive() fills what follows from them: the kind from the name
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
 *
 * Kernel limits behind the ranges (Linux 4.11, x86-64): PAGE_SIZE 4096;
 * slab orders 0..MAX_ORDER - 1 = 10 (include/linux/mmzone.h); at most
 * MAX_OBJS_PER_PAGE = 32767 objects per slab (mm/slub.c, page->objects
 * is 15 bits); kmalloc caches 8..8192 bytes with the 96 and 192 byte
 * extras (mm/slab_common.c create_kmalloc_caches(), SLUB
 * KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1); on-disk inodes 128
 * (EXT4_GOOD_OLD_INODE_SIZE) .. 2048 (XFS_DINODE_MAX_LOG 11) bytes, a
 * power of two; an inode cluster at most 64 KiB (XFS: 8192 x 2048 / 256
 * in xfs_mountfs(); ext4: the largest block size).
 *
 * SIMPLIFIED: the slab geometry is taken as the file gives it; we check
 * that the objects fit the slab, not that SLUB's calculate_order() would
 * pick that order for some CPU count. An unknown section with no keys in
 * it is not noticed (inih reports keys only).
 */
#include "model/fs_profile_file.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "core/bug.h"
#include "core/parse.h"

#define PAGE_BYTES 4096ULL
#define MAX_SLAB_ORDER 10
#define MAX_OBJS_PER_SLAB 32767
#define MAX_SLAB_BYTES (PAGE_BYTES << MAX_SLAB_ORDER)

enum key_kind {
	KIND_FSNAME,  /* "xfs" or "ext4": a built-in profile's name */
	KIND_TEXT,    /* copied, at most field size - 1 characters */
	KIND_BYTES,   /* "192", "16K" */
	KIND_KMALLOC, /* bytes, one of the kmalloc cache sizes */
	KIND_POW2,    /* bytes, a power of two */
	KIND_COUNT,   /* whole number */
	KIND_NS,      /* bare number = nanoseconds; a unit is allowed: "20us" */
	KIND_BOOL,    /* yes/no */
};

/* Where the table's keys land: the profile, the costs and the one key
 * that is checked but not stored (second_stage follows from the kind). */
struct fs_pair {
	struct cp_fs_profile p;
	struct cp_fs_costs c;
	bool second_stage;
};

struct key_def {
	const char *section;
	const char *name;
	enum key_kind kind;
	size_t offset;
	size_t width;      /* sizeof the field */
	uint64_t min, max; /* numeric kinds: allowed range */
};

#define FIELD(f) offsetof(struct fs_pair, f), sizeof(((struct fs_pair *)0)->f)
#define NOLIMIT UINT64_MAX

/* Every key is required. */
static const struct key_def keys[] = {
	{ "fs", "name", KIND_FSNAME, FIELD(p.name), 0, 0 },
	{ "fs", "description", KIND_TEXT, FIELD(p.description), 0, 0 },

	{ "objects", "dentry_size", KIND_BYTES, FIELD(p.dentry.object_size), 1, MAX_SLAB_BYTES },
	{ "objects", "dentry_per_slab", KIND_COUNT, FIELD(p.dentry.objects_per_slab), 1,
	  MAX_OBJS_PER_SLAB },
	{ "objects", "dentry_slab_order", KIND_COUNT, FIELD(p.dentry.order), 0, MAX_SLAB_ORDER },
	/* NAME_MAX + 1: no inline buffer needs to be longer */
	{ "objects", "dname_inline_len", KIND_BYTES, FIELD(p.dname_inline_len), 1, 256 },
	{ "objects", "external_name_size", KIND_KMALLOC, FIELD(p.external_name.object_size), 8,
	  8192 },
	{ "objects", "external_name_per_slab", KIND_COUNT, FIELD(p.external_name.objects_per_slab),
	  1, MAX_OBJS_PER_SLAB },
	{ "objects", "external_name_slab_order", KIND_COUNT, FIELD(p.external_name.order), 0,
	  MAX_SLAB_ORDER },
	{ "objects", "inode_size", KIND_BYTES, FIELD(p.inode.object_size), 1, MAX_SLAB_BYTES },
	{ "objects", "inode_per_slab", KIND_COUNT, FIELD(p.inode.objects_per_slab), 1,
	  MAX_OBJS_PER_SLAB },
	{ "objects", "inode_slab_order", KIND_COUNT, FIELD(p.inode.order), 0, MAX_SLAB_ORDER },
	/* 0 = no log item (ext4) */
	{ "objects", "log_item_size", KIND_BYTES, FIELD(p.inode_log_item.object_size), 0,
	  MAX_SLAB_BYTES },
	{ "objects", "log_item_per_slab", KIND_COUNT, FIELD(p.inode_log_item.objects_per_slab), 0,
	  MAX_OBJS_PER_SLAB },
	{ "objects", "log_item_slab_order", KIND_COUNT, FIELD(p.inode_log_item.order), 0,
	  MAX_SLAB_ORDER },
	{ "objects", "second_stage", KIND_BOOL, FIELD(second_stage), 0, 1 },
	{ "objects", "disk_inode_size", KIND_POW2, FIELD(p.disk_inode_bytes), 128, 2048 },
	{ "objects", "inode_cluster_size", KIND_BYTES, FIELD(p.inode_cluster_bytes), 128, 65536 },

	{ "create", "create_cpu_ns", KIND_NS, FIELD(c.create_cpu_ns), 0, NOLIMIT },
	{ "create", "mkdir_lookup_ns", KIND_NS, FIELD(c.mkdir_lookup_ns), 0, NOLIMIT },
	{ "create", "stat_cpu_ns", KIND_NS, FIELD(c.stat_cpu_ns), 0, NOLIMIT },
	{ "create", "inode_read_ns", KIND_NS, FIELD(c.inode_read_ns), 0, NOLIMIT },
};

#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

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

static const char *kind_expected(enum key_kind kind)
{
	switch (kind) {
	case KIND_FSNAME:
		return "xfs or ext4";
	case KIND_TEXT:
		return "text";
	case KIND_BYTES:
		return "a number of bytes like 192 or 16K";
	case KIND_KMALLOC:
		return "a kmalloc size: 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096 or 8192";
	case KIND_POW2:
		return "a power of two number of bytes like 512";
	case KIND_COUNT:
		return "a whole number";
	case KIND_NS:
		return "nanoseconds like 1000, or a duration like 1us";
	case KIND_BOOL:
		return "yes or no";
	}
	return "?";
}

static const struct key_def *find_key(const char *section, const char *name)
{
	size_t i;

	for (i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0 && strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

/* Index of the key named name (key names are unique across sections). */
static int key_idx(const char *name)
{
	size_t i;

	for (i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return (int)i;
	CP_BUG_ON(1);
	return -1;
}

static bool known_section(const char *section)
{
	size_t i;

	for (i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0)
			return true;
	return false;
}

static bool is_text(enum key_kind kind)
{
	return kind == KIND_FSNAME || kind == KIND_TEXT;
}

static uint64_t get_num(const struct fs_pair *f, const struct key_def *k)
{
	const char *p = (const char *)f + k->offset;

	if (k->kind == KIND_BOOL) {
		bool b;

		memcpy(&b, p, sizeof(b));
		return b;
	}
	if (k->width == sizeof(uint32_t)) {
		uint32_t u;

		memcpy(&u, p, sizeof(u));
		return u;
	}
	{
		uint64_t v;

		CP_BUG_ON(k->width != sizeof(v));
		memcpy(&v, p, sizeof(v));
		return v;
	}
}

static void put_num(struct fs_pair *f, const struct key_def *k, uint64_t v)
{
	char *p = (char *)f + k->offset;

	if (k->kind == KIND_BOOL) {
		bool b = v != 0;

		memcpy(p, &b, sizeof(b));
	} else if (k->width == sizeof(uint32_t)) {
		uint32_t u = (uint32_t)v; /* the ranges keep it in 32 bits */

		memcpy(p, &u, sizeof(u));
	} else {
		CP_BUG_ON(k->width != sizeof(v));
		memcpy(p, &v, sizeof(v));
	}
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Parses value for numeric key k into *out. Returns 0 or -CP_EINVAL
 * with diag "key 'K' in [S]: ...". */
static int parse_value(const struct key_def *k, const char *value, uint64_t *out,
		       struct cp_diag *diag)
{
	uint64_t v = 0;
	bool b = false;
	int rc;

	switch (k->kind) {
	case KIND_BYTES:
	case KIND_KMALLOC:
	case KIND_POW2:
		rc = cp_parse_size(value, &v);
		break;
	case KIND_COUNT:
		rc = cp_parse_count(value, &v);
		break;
	case KIND_NS:
		rc = all_digits(value) ? cp_parse_count(value, &v) : cp_parse_duration(value, &v);
		break;
	case KIND_BOOL:
		rc = cp_parse_bool(value, &b);
		v = b;
		break;
	default:
		rc = -CP_EINVAL;
	}
	if (!rc && ((k->kind == KIND_KMALLOC && !kmalloc_name(v)) ||
		    (k->kind == KIND_POW2 && !is_pow2(v))))
		rc = -CP_EINVAL;
	if (rc)
		return cp_diag_set(diag, -CP_EINVAL, "key '%s' in [%s]: bad value '%s' (expected %s)",
				   k->name, k->section, value, kind_expected(k->kind));
	if (v < k->min || v > k->max) {
		if (k->max == NOLIMIT)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value '%s' out of range (at least %llu)",
					   k->name, k->section, value, (unsigned long long)k->min);
		return cp_diag_set(diag, -CP_EINVAL,
				   "key '%s' in [%s]: value '%s' out of range (%llu..%llu)", k->name,
				   k->section, value, (unsigned long long)k->min,
				   (unsigned long long)k->max);
	}
	*out = v;
	return 0;
}

/* Stores value into f, or returns -CP_EINVAL with f unchanged. */
static int apply_value(struct fs_pair *f, const struct key_def *k, const char *value,
		       struct cp_diag *diag)
{
	uint64_t v = 0;
	int rc;

	if (is_text(k->kind)) {
		if (k->kind == KIND_FSNAME && !cp_fs_profile_find(value))
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: bad value '%s' (expected %s)", k->name,
					   k->section, value, kind_expected(k->kind));
		if (strlen(value) >= k->width)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value '%.40s...' too long (at most %zu characters)",
					   k->name, k->section, value, k->width - 1);
		memcpy((char *)f + k->offset, value, strlen(value) + 1);
		return 0;
	}
	rc = parse_value(k, value, &v, diag);
	if (rc)
		return rc;
	put_num(f, k, v);
	return 0;
}

/* A slab of geometry g must hold its objects: per_slab x size <= PAGE_SIZE << order. */
static int check_fits(const struct cp_slab_geometry *g, const char *what, int *blame,
		      struct cp_diag *diag)
{
	uint64_t slab_bytes = PAGE_BYTES << g->order;
	char per_slab_key[40];

	if ((uint64_t)g->objects_per_slab * g->object_size <= slab_bytes)
		return 0;
	snprintf(per_slab_key, sizeof(per_slab_key), "%s_per_slab", what);
	*blame = key_idx(per_slab_key);
	return cp_diag_set(diag, -CP_EINVAL,
			   "key '%s' in [objects]: %u objects of %u bytes (%s_size) do not fit an order-%u slab of %llu bytes (%s_slab_order)",
			   per_slab_key, (unsigned)g->objects_per_slab,
			   (unsigned)g->object_size, what, g->order, (unsigned long long)slab_bytes,
			   what);
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
	size_t i;
	int rc;

	*blame = key_idx("name");
	if (!b)
		return cp_diag_set(diag, -CP_EINVAL, "key 'name' in [fs]: bad value '%s' (expected %s)",
				   p->name, kind_expected(KIND_FSNAME));
	for (i = 0; i < NR_KEYS; i++) {
		const struct key_def *k = &keys[i];
		uint64_t v;

		if (is_text(k->kind))
			continue;
		v = get_num(f, k);
		*blame = (int)i;
		if (v < k->min || v > k->max)
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value %llu out of range (%llu..%llu)",
					   k->name, k->section, (unsigned long long)v,
					   (unsigned long long)k->min, (unsigned long long)k->max);
		if ((k->kind == KIND_KMALLOC && !kmalloc_name(v)) ||
		    (k->kind == KIND_POW2 && !is_pow2(v)))
			return cp_diag_set(diag, -CP_EINVAL,
					   "key '%s' in [%s]: value %llu is not %s", k->name,
					   k->section, (unsigned long long)v, kind_expected(k->kind));
	}
	if ((rc = check_fits(&p->dentry, "dentry", blame, diag)) ||
	    (rc = check_fits(&p->external_name, "external_name", blame, diag)) ||
	    (rc = check_fits(&p->inode, "inode", blame, diag)) ||
	    (rc = check_fits(li, "log_item", blame, diag)))
		return rc;
	*blame = key_idx("dname_inline_len");
	if (p->dname_inline_len > p->dentry.object_size)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'dname_inline_len' in [objects]: %u bytes do not fit in a dentry of %u bytes (dentry_size)",
				   p->dname_inline_len, (unsigned)p->dentry.object_size);
	/* __d_alloc(): the shortest external name has dname_inline_len bytes */
	*blame = key_idx("external_name_size");
	if (p->external_name.object_size < b->external_name_overhead + p->dname_inline_len)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'external_name_size' in [objects]: %u bytes cannot hold the shortest external name (%u + dname_inline_len %u bytes, fs/dcache.c __d_alloc())",
				   (unsigned)p->external_name.object_size, b->external_name_overhead,
				   p->dname_inline_len);
	*blame = key_idx("log_item_per_slab");
	if (li->object_size == 0 && (li->objects_per_slab || li->order))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_item_per_slab' in [objects]: log_item_size 0 means no log item, so log_item_per_slab and log_item_slab_order must be 0 (have %u and %u)",
				   (unsigned)li->objects_per_slab, li->order);
	if (li->object_size && !li->objects_per_slab)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_item_per_slab' in [objects]: value 0 with log_item_size %u (expected at least 1)",
				   (unsigned)li->object_size);
	*blame = key_idx("second_stage");
	if (f->second_stage != (b->kind == CP_FS_XFS))
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'second_stage' in [objects]: value '%s' contradicts name '%s' (%s)",
				   f->second_stage ? "yes" : "no", p->name,
				   b->kind == CP_FS_XFS
					   ? "XFS frees evicted inodes through its own inode reclaim: expected yes"
					   : "this filesystem frees inodes at eviction: expected no");
	*blame = key_idx("log_item_size");
	if (li->object_size && b->kind != CP_FS_XFS)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'log_item_size' in [objects]: value %u, but %s has no per-inode log item object (expected 0)",
				   (unsigned)li->object_size, p->name);
	*blame = key_idx("inode_cluster_size");
	if (p->inode_cluster_bytes < p->disk_inode_bytes ||
	    p->inode_cluster_bytes % p->disk_inode_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'inode_cluster_size' in [objects]: %u bytes is not a whole number of %u-byte disk inodes (disk_inode_size)",
				   (unsigned)p->inode_cluster_bytes, (unsigned)p->disk_inode_bytes);
	*blame = -1;
	return 0;
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
	p->external_name_overhead = b->external_name_overhead;
	p->reclaim_batch = b->reclaim_batch;
	p->create_inode_nofs = b->create_inode_nofs;
	p->iget_inode_nofs = b->iget_inode_nofs;
	p->inodes_per_cluster = p->inode_cluster_bytes / p->disk_inode_bytes;
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

/* ---- loading ------------------------------------------------------ */

struct load_ctx {
	struct fs_pair f;
	FILE *file;
	int line;               /* lines read so far = line being parsed */
	int long_line;          /* first line longer than inih takes, or 0 */
	int max_line;           /* inih's line buffer size */
	int err_line;           /* line of the first handler error, or 0 */
	int seen_line[NR_KEYS]; /* line each key was set on, 0 = not yet */
	struct cp_diag err;     /* the first handler error */
};

/* fgets() that counts lines and notices lines inih would split. */
static char *read_line(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	char *s = fgets(str, num, c->file);
	size_t len;

	if (!s)
		return NULL;
	c->line++;
	c->max_line = num;
	len = strlen(s);
	if (len && s[len - 1] != '\n' && !feof(c->file)) {
		int ch;

		if (!c->long_line)
			c->long_line = c->line;
		/* skip the rest, so inih sees one (truncated) line */
		while ((ch = fgetc(c->file)) != EOF && ch != '\n')
			;
	}
	return s;
}

static int handle_key(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *c = user;
	const struct key_def *k;
	struct cp_diag d;
	size_t idx;

	if (c->err_line)
		return 1; /* keep the first error only */
	k = find_key(section, name);
	if (!k) {
		if (!section[0])
			cp_diag_set(&c->err, -CP_EINVAL, "key '%s' outside any section", name);
		else if (!known_section(section))
			cp_diag_set(&c->err, -CP_EINVAL,
				    "unknown section [%s] (expected [fs], [objects] or [create])",
				    section);
		else
			cp_diag_set(&c->err, -CP_EINVAL, "unknown key '%s' in [%s]", name, section);
		c->err_line = c->line;
		return 0;
	}
	idx = (size_t)(k - keys);
	if (c->seen_line[idx]) {
		cp_diag_set(&c->err, -CP_EINVAL, "key '%s' in [%s] given twice (first on line %d)",
			    name, section, c->seen_line[idx]);
		c->err_line = c->line;
		return 0;
	}
	if (apply_value(&c->f, k, value, &d)) {
		c->err = d;
		c->err_line = c->line;
		return 0;
	}
	c->seen_line[idx] = c->line;
	return 1;
}

int cp_fs_profile_load(const char *path, struct cp_fs_profile *out, struct cp_fs_costs *costs,
		       struct cp_diag *diag)
{
	struct load_ctx c;
	struct cp_diag d;
	size_t i;
	int line, blame;

	memset(&c, 0, sizeof(c));
	c.file = fopen(path, "r");
	if (!c.file) {
		int e = errno;

		return cp_diag_set(diag, e == ENOENT ? -CP_ENOENT : -CP_EIO,
				   "%s: cannot open filesystem profile: %s", path, strerror(e));
	}
	line = ini_parse_stream(read_line, &c, handle_key, &c);
	if (ferror(c.file)) {
		fclose(c.file);
		return cp_diag_set(diag, -CP_EIO, "%s: read error", path);
	}
	fclose(c.file);
	if (c.long_line && (line <= 0 || c.long_line <= line))
		return cp_diag_set(diag, -CP_EINVAL, "%s:%d: line longer than %d characters", path,
				   c.long_line, c.max_line - 2);
	if (line > 0 && line == c.err_line)
		return cp_diag_set(diag, -CP_EINVAL, "%s:%d: %s", path, line, c.err.msg);
	if (line != 0)
		return cp_diag_set(diag, -CP_EINVAL,
				   "%s:%d: syntax error (expected [section], key = value or a ; comment)",
				   path, line);
	for (i = 0; i < NR_KEYS; i++)
		if (!c.seen_line[i])
			return cp_diag_set(diag, -CP_EINVAL, "%s: required key '%s' in [%s] is missing",
					   path, keys[i].name, keys[i].section);
	if (validate_pair(&c.f, &blame, &d)) {
		if (blame >= 0 && c.seen_line[blame])
			return cp_diag_set(diag, -CP_EINVAL, "%s:%d: %s", path, c.seen_line[blame],
					   d.msg);
		return cp_diag_set(diag, -CP_EINVAL, "%s: %s", path, d.msg);
	}
	derive(&c.f);
	*out = c.f.p;
	*costs = c.f.c;
	CP_DEBUG_CHECK(cp_fs_profile_check(out));
	return 0;
}

int cp_fs_profile_set(struct cp_fs_profile *p, struct cp_fs_costs *costs, const char *section_key,
		      const char *value, struct cp_diag *diag)
{
	char section[32];
	const char *dot = strchr(section_key, '.');
	const struct key_def *k;
	struct fs_pair f;
	size_t len;
	int rc, blame;

	if (!dot || dot == section_key || (len = (size_t)(dot - section_key)) >= sizeof(section))
		return cp_diag_set(diag, -CP_EINVAL,
				   "bad key '%s' (expected section.key, like objects.inode_size)",
				   section_key);
	memcpy(section, section_key, len);
	section[len] = '\0';
	k = find_key(section, dot + 1);
	if (!k) {
		if (!known_section(section))
			return cp_diag_set(diag, -CP_EINVAL,
					   "unknown section [%s] in '%s' (expected fs, objects or create)",
					   section, section_key);
		return cp_diag_set(diag, -CP_EINVAL, "unknown key '%s' in [%s]", dot + 1, section);
	}
	pair_from(&f, p, costs);
	rc = apply_value(&f, k, value, diag);
	if (rc)
		return rc;
	rc = validate_pair(&f, &blame, diag);
	if (rc)
		return rc;
	derive(&f);
	*p = f.p;
	*costs = f.c;
	CP_DEBUG_CHECK(cp_fs_profile_check(p));
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int cp_fs_profile_resolve(const char *name_or_path, const char *search_dir, char *out,
			  size_t out_len, struct cp_diag *diag)
{
	char path[4096];
	const char *s;
	FILE *file;
	int n;

	if (!name_or_path || !*name_or_path)
		return cp_diag_set(diag, -CP_EINVAL, "empty filesystem profile name");
	if (strchr(name_or_path, '/') || ends_with(name_or_path, ".ini")) {
		n = snprintf(path, sizeof(path), "%s", name_or_path);
	} else {
		for (s = name_or_path; *s; s++)
			if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
				return cp_diag_set(diag, -CP_EINVAL,
						   "bad filesystem profile name '%s' (letters, digits, '-', '_' and '.' only)",
						   name_or_path);
		if (name_or_path[0] == '.')
			return cp_diag_set(diag, -CP_EINVAL,
					   "bad filesystem profile name '%s' (must not start with '.')",
					   name_or_path);
		if (!search_dir || !*search_dir)
			return cp_diag_set(diag, -CP_EINVAL,
					   "filesystem profile '%s': no profile directory to look in",
					   name_or_path);
		n = snprintf(path, sizeof(path), "%s/%s.ini", search_dir, name_or_path);
	}
	if (n < 0 || (size_t)n >= sizeof(path) || (size_t)n >= out_len)
		return cp_diag_set(diag, -CP_EINVAL, "filesystem profile path for '%s' is too long",
				   name_or_path);
	file = fopen(path, "r");
	if (!file) {
		int e = errno;

		if (e == ENOENT)
			return cp_diag_set(diag, -CP_ENOENT,
					   "filesystem profile '%s' not found (no file %s)",
					   name_or_path, path);
		return cp_diag_set(diag, -CP_EIO, "filesystem profile %s: %s", path, strerror(e));
	}
	fclose(file);
	memcpy(out, path, (size_t)n + 1);
	return 0;
}

int cp_fs_profile_load_named(const char *name_or_path, const char *search_dir,
			     struct cp_fs_profile *out, struct cp_fs_costs *costs,
			     struct cp_diag *diag)
{
	char path[4096];
	int rc = cp_fs_profile_resolve(name_or_path, search_dir, path, sizeof(path), diag);

	return rc ? rc : cp_fs_profile_load(path, out, costs, diag);
}
