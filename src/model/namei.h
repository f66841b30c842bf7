/*
 * namei.h - a mounted filesystem and the VFS operations the workloads
 * call, the way user space calls system calls: mkdir, create (open
 * O_CREAT + write 0 bytes + close), stat, open/close of data files.
 */
#ifndef CP_NAMEI_H
#define CP_NAMEI_H

#include <stdbool.h>
#include <stdint.h>

#include "model/dcache.h"
#include "model/diskdir.h"
#include "model/icache.h"
#include "model/memory.h"
#include "model/policy.h"
#include "model/slab.h"
#include "model/vmstat.h"
#include "model/xfs_buf.h"
#include "model/xfs_dir2.h"
#include "model/xfs_log_cil.h"
#include "model/xfs_icache.h"

struct cp_diag;
struct cp_fs_profile;
struct cp_kernel_profile;
struct cp_pagecache;

struct cp_fs_params {
	const struct cp_fs_profile *fs;         /* xfs, ext4 */
	const struct cp_kernel_profile *kernel; /* linux-4.11, linux-6.1 */
	enum cp_ref_policy policy;
	struct cp_mem *mem;
	struct cp_pagecache *pc; /* NULL: no data files; else its mapping_emptied
				  * hook is pointed at this fs's icache */
	struct cp_vmstat *vmstat;
	unsigned nr_cpus; /* num_online_cpus(): XFS's per-CPU CIL space (0: 1) */
};

/* How a lookup was served. */
enum cp_lookup_result {
	CP_LOOKUP_DCACHE_HIT,  /* cached dentry */
	CP_LOOKUP_ICACHE_HIT,  /* new dentry, cached inode */
	CP_LOOKUP_RECYCLED,    /* new dentry, XFS reclaimable inode brought back */
	CP_LOOKUP_ICACHE_MISS, /* new dentry, inode read from disk (new inode) */
};

struct cp_fs {
	const struct cp_fs_profile *fsp;
	const struct cp_kernel_profile *kernel;
	struct cp_mem *mem;
	struct cp_pagecache *pc;
	struct cp_vmstat *vmstat;

	struct cp_slab_cache dentry_cache, name_cache, inode_cache, ili_cache;
	bool has_ili;
	struct cp_icache ic;
	struct cp_dcache dc;
	struct cp_xfs_icache xfs; /* used when fsp->kind == CP_FS_XFS */
	struct cp_xfs_buftarg bt; /* XFS buffer cache (XFS only; its shrinker
				   * is for the caller to register) */
	struct cp_xfs_dirs dirs;  /* XFS directory block layout (XFS only) */
	struct cp_xfs_cil cil;    /* XFS log vectors (kernel xfs_cil_memory and a
				   * [log] in the fs profile; cil.ready) */
	struct cp_diskdir disk;
	struct cp_dentry *root;   /* held by the mount */
	uint64_t next_ino;

	/* per operation and per lookup outcome */
	uint64_t nr_mkdir, nr_create, nr_stat, nr_open;
	uint64_t nr_lookup[4]; /* by enum cp_lookup_result */
};

/* Mount: create the slab caches (registering their memory owners), the
 * caches and the root directory. Returns 0, -CP_ENOMEM, -CP_ENOSPC (no
 * owner id or memory left) or -CP_EINVAL (bad profile); diag says which.
 * On failure everything is released (slab pages already taken for the
 * root stay counted in mem). */
int cp_fs_init(struct cp_fs *fs, const struct cp_fs_params *p, struct cp_diag *diag);

/* Tear down the host structures. */
void cp_fs_release(struct cp_fs *fs);

static inline struct cp_dentry *cp_fs_root(struct cp_fs *fs)
{
	return fs->root;
}

/*
 * mkdir(parent/name): create a directory, or - when the name exists -
 * just the lookup that fails with EEXIST (fs_mark's per-file mkdir).
 * The dentry comes back referenced in *out (the caller dputs it with
 * cp_fs_put) or is put at once when out is NULL. *existed (optional)
 * tells which. Returns 0, -CP_ENOMEM, -CP_ENOSPC or -CP_EINVAL (name);
 * on failure nothing was created.
 */
int cp_fs_mkdir(struct cp_fs *fs, struct cp_dentry *parent, uint64_t name_id,
		unsigned name_len, struct cp_alloc_ctx *ctx, struct cp_dentry **out,
		bool *existed);

/*
 * fs_mark's open(O_CREAT|O_TRUNC) + write(0) + close() in dir: d_alloc in
 * ctx (GFP_KERNEL), the new inode (and XFS log item, inode cluster
 * buffer and directory block buffers) in the create transaction
 * (GFP_NOFS), d_instantiate, then the close's dput, which
 * leaves the dentry on the LRU (per policy) pinning the inode. An
 * existing name is only looked up and put. *ino (optional) gets the
 * inode number. Returns 0, -CP_ENOMEM, -CP_ENOSPC or -CP_EINVAL; on
 * failure no name was created.
 */
int cp_fs_create(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id, unsigned name_len,
		 struct cp_alloc_ctx *ctx, uint64_t *ino);

/*
 * stat(dir/name): the lookup path of a walker. A dentry hit allocates
 * nothing; a miss allocates a dentry (ctx) and finds the inode in the
 * icache, recycles an XFS reclaimable one, or reads it (a new inode:
 * "icache miss"). *res (optional) says which. Returns 0, -CP_ENOENT (no
 * such name on disk), -CP_ENOMEM or -CP_ENOSPC.
 */
int cp_fs_stat(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id,
	       struct cp_alloc_ctx *ctx, enum cp_lookup_result *res);

/*
 * open(dir/name) of a data file, creating it with nr_pages of (not yet
 * resident) page cache when it does not exist (dd). The file stays open:
 * the returned dentry holds the inode, which therefore never reaches the
 * inode LRU. Read its pages through cp_file_mapping(). Close with
 * cp_fs_close(). Returns 0, -CP_EINVAL (no page cache given),
 * -CP_ENOMEM, -CP_ENOSPC or -CP_ERANGE (page-cache slots exhausted).
 */
int cp_fs_open(struct cp_fs *fs, struct cp_dentry *dir, uint64_t name_id, unsigned name_len,
	       uint32_t nr_pages, struct cp_alloc_ctx *ctx, struct cp_dentry **file);

/* close(): drop the open file's dentry reference. */
void cp_fs_close(struct cp_fs *fs, struct cp_dentry *file);

/* Drop a dentry reference returned by cp_fs_mkdir (dput). */
void cp_fs_put(struct cp_fs *fs, struct cp_dentry *d);

/* The page-cache mapping id of an open file (CP_NO_MAPPING if none). */
static inline uint32_t cp_file_mapping(const struct cp_dentry *file)
{
	return file->d_inode->i_mapping;
}

/* ->nr_cached_objects / ->free_cached_objects of the superblock:
 * XFS's reclaimable inodes; 0 for ext4. */
uint64_t cp_fs_nr_cached_objects(const struct cp_fs *fs);
uint64_t cp_fs_free_cached_objects(struct cp_fs *fs, uint64_t nr_to_scan,
				   struct cp_alloc_ctx *ctx);

/* Every module's invariants. O(objects). */
bool cp_fs_check(const struct cp_fs *fs);

/* The superblock shrinker operations over a struct cp_fs (its priv). */
struct cp_super_ops;
extern const struct cp_super_ops cp_fs_super_ops;

#endif /* CP_NAMEI_H */
