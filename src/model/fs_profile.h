/*
 * fs_profile.h - filesystem profiles: the object sizes and per-file
 * behaviour that differ between the filesystems we model (xfs, ext4).
 * Every number carries its source in fs_profile.c.
 */
#ifndef CP_FS_PROFILE_H
#define CP_FS_PROFILE_H

#include <stdbool.h>

#include "model/slab.h"

enum cp_fs_kind {
	CP_FS_XFS,  /* evicted inodes go to XFS's own reclaim (second stage) */
	CP_FS_EXT4, /* evicted inodes are freed at once */
};

struct cp_fs_profile {
	const char *name; /* "xfs", "ext4" */
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

	/* XFS inode clusters: inodes written back together (xfs_iflush_cluster) */
	unsigned inodes_per_cluster;
	/* XFS_LOOKUP_BATCH: inodes per reclaim radix-tree lookup */
	unsigned reclaim_batch;

	/* gfp of the new inode in create (inside the transaction: NOFS) and
	 * of an inode read by a lookup miss */
	bool create_inode_nofs;
	bool iget_inode_nofs;
};

/* Built-in profiles, NULL-terminated, fixed order. */
extern const struct cp_fs_profile *const cp_fs_profiles[];

/* Profile by name, NULL if none. */
const struct cp_fs_profile *cp_fs_profile_find(const char *name);

#endif /* CP_FS_PROFILE_H */
