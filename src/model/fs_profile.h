/*
 * fs_profile.h - filesystem profiles: the object sizes and per-file
 * behaviour that differ between the filesystems we model (xfs, ext4).
 * A run loads them from profiles/<fs>.ini (fs_profile_file.h), where
 * every number carries its source; the built-in profiles of fs_profile.c
 * serve the unit tests and the kernel constants files do not give.
 * A profile owns its name and description; the slab geometry names point
 * to static strings.
 */
#ifndef CP_FS_PROFILE_H
#define CP_FS_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/slab.h"

#define CP_FS_NAME_LEN 16  /* "xfs", "ext4" */
#define CP_FS_TEXT_LEN 160 /* description */

enum cp_fs_kind {
	CP_FS_XFS,  /* evicted inodes go to XFS's own reclaim (second stage) */
	CP_FS_EXT4, /* evicted inodes are freed at once */
};

/* XFS's log as the CIL's memory model needs it (xfs_log_cil.c); all 0
 * for a filesystem without one (ext4's jbd2 is not modelled). */
struct cp_fs_log {
	uint64_t log_bytes;             /* the on-disk log (mkfs.xfs -l size) */
	uint32_t iclog_bytes;           /* an in-core log buffer (mount -o logbsize) */
	uint32_t inode_space_bytes;     /* log space of a new inode's changes */
	uint32_t dir_block_space_bytes; /* ... of a whole directory block's */
	struct cp_slab_geometry inode_lv; /* kmalloc cache of an inode's log vector */
	struct cp_slab_geometry dir_lv;   /* ... of a directory block's */
};

struct cp_fs_profile {
	char name[CP_FS_NAME_LEN];        /* "xfs", "ext4": decides kind */
	char description[CP_FS_TEXT_LEN]; /* one line, for reports */
	enum cp_fs_kind kind;

	/* slab caches */
	struct cp_slab_geometry dentry;        /* "dentry" */
	struct cp_slab_geometry external_name; /* "kmalloc-64": names > inline */
	struct cp_slab_geometry inode;         /* fs inode incl. VFS inode */
	struct cp_slab_geometry inode_log_item; /* xfs_ili; objects_per_slab 0: none */

	/* fs/dcache.c __d_alloc: names shorter than this live in the dentry */
	unsigned dname_inline_len;
	/* offsetof(struct external_name, name[1]): bytes added to the name */
	unsigned external_name_overhead;

	/* On-disk inode geometry, as the profile gives it: the size of one
	 * on-disk inode and the bytes of on-disk inodes written together. */
	uint32_t disk_inode_bytes;
	uint32_t inode_cluster_bytes;
	/* XFS directory block size (mkfs.xfs -n size): the unit of directory
	 * buffers in the XFS buffer cache; 0 = no XFS buffer cache (ext4) */
	uint32_t dir_block_bytes;
	/* XFS inode clusters: inodes written back together (xfs_iflush_cluster);
	 * a loaded profile has inode_cluster_bytes / disk_inode_bytes */
	unsigned inodes_per_cluster;
	/* XFS_LOOKUP_BATCH: inodes per reclaim radix-tree lookup */
	unsigned reclaim_batch;

	/* XFS's log ([log] of profiles/xfs.ini) */
	struct cp_fs_log log;

	/* gfp of the new inode in create (inside the transaction: NOFS) and
	 * of an inode read by a lookup miss */
	bool create_inode_nofs;
	bool iget_inode_nofs;
};

/* Per-file CPU costs of the filesystem ([create] of profiles/<fs>.ini). */
struct cp_fs_costs {
	uint64_t create_cpu_ns;   /* one empty-file create, excluding the model's own allocations */
	uint64_t mkdir_lookup_ns; /* the failing mkdir() fs_mark does per file */
	uint64_t stat_cpu_ns;     /* a stat() that hits the dcache */
	uint64_t inode_read_ns;   /* CPU side of reading an inode from disk (icache miss) */
};

/* The create_cpu_ns a run charges: a machine profile's calibrated
 * xfs_create_ns (the whole create, its mkdir() lookup included) replaces
 * the filesystem profile's on xfs, less the lookup the run charges apart;
 * 0 (not calibrated) or another filesystem keeps the profile's. */
uint64_t cp_fs_create_cpu_ns(const struct cp_fs_profile *fs, const struct cp_fs_costs *costs,
			     uint64_t machine_xfs_create_ns);

/* Built-in profiles, NULL-terminated, fixed order. */
extern const struct cp_fs_profile *const cp_fs_profiles[];

/* Profile by name, NULL if none. */
const struct cp_fs_profile *cp_fs_profile_find(const char *name);

#endif /* CP_FS_PROFILE_H */
