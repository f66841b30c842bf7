/*
 * fs_profile_file.h - filesystem profiles read from profiles/<fs>.ini
 * ([fs], [objects], [create]; format in /work/briefs/profile-keys.md and
 * docs/profiles.md) into a struct cp_fs_profile and a struct cp_fs_costs.
 *
 * The file gives every number the model uses for a filesystem; the few
 * kernel constants a file does not give (external_name_overhead,
 * reclaim_batch, the NOFS flags, SLAB_ACCOUNT of each cache and the slab
 * cache names) come from the built-in profile of the same name
 * (fs_profile.c, where their kernel sources are cited).
 */
#ifndef CP_FS_PROFILE_FILE_H
#define CP_FS_PROFILE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/fs_profile.h"

struct cp_diag;

/*
 * Parses the filesystem profile at path. Every key of the format is
 * required; unknown sections and keys, a key given twice, bad values and
 * values that contradict each other are errors. Returns 0, -CP_ENOENT (no
 * such file), -CP_EIO (unreadable) or -CP_EINVAL. On failure *out and
 * *costs are unchanged and diag (if not NULL) names the file, line,
 * section, key and value, e.g.
 * "xfs.ini:30: key 'inode_size' in [objects]: bad value '960Q' (expected
 * a number of bytes like 192 or 16K)". The profile owns its strings: it
 * may be copied and outlives the file.
 */
int cp_fs_profile_load(const char *path, struct cp_fs_profile *out, struct cp_fs_costs *costs,
		       struct cp_diag *diag);

/*
 * Sets one key given as "section.key" (as with --set objects.inode_size=1024)
 * in a loaded (or built-in) profile, recomputes what depends on it
 * (inodes_per_cluster, the kmalloc cache of external names, the kind) and
 * checks the result as cp_fs_profile_load() does. Returns 0 or
 * -CP_EINVAL; on failure *p and *costs are unchanged and diag names the
 * key and value.
 */
int cp_fs_profile_set(struct cp_fs_profile *p, struct cp_fs_costs *costs, const char *section_key,
		      const char *value, struct cp_diag *diag);

/* The caches whose geometry cp_fs_profile_set_slab() sets. */
enum cp_fs_slab_role { CP_FS_SLAB_DENTRY, CP_FS_SLAB_INODE, CP_FS_SLAB_LOG_ITEM, CP_FS_NR_SLABS };
/* "dentry", "inode", "log_item": the role's key prefix in [objects]. */
const char *cp_fs_slab_role_name(enum cp_fs_slab_role role);
/* The role's cache in profile p (its name is the kernel's cache name). */
const struct cp_slab_geometry *cp_fs_profile_slab(const struct cp_fs_profile *p,
						  enum cp_fs_slab_role role);
/*
 * Sets one cache's geometry at once, as a running kernel's /proc/slabinfo
 * gives it (<objsize> <objperslab> <pagesperslab>; mm/slub.c
 * get_slabinfo()): the three keys <role>_size, <role>_per_slab and
 * <role>_slab_order together, so that a geometry which fits is never
 * refused for an intermediate one that would not. pages_per_slab must be
 * a power of two. Checks the result as cp_fs_profile_load() does.
 * Returns 0 or -CP_EINVAL (diag names the key); on failure *p is
 * unchanged.
 */
int cp_fs_profile_set_slab(struct cp_fs_profile *p, enum cp_fs_slab_role role,
			   uint64_t object_size, uint64_t objects_per_slab, uint64_t pages_per_slab,
			   struct cp_diag *diag);
/*
 * Turns --fs NAME|FILE into a path: a value containing '/' or ending in
 * ".ini" is used as is; a bare name means "<search_dir>/<name>.ini".
 * Writes the path into out (out_len bytes). Returns 0, -CP_EINVAL (empty
 * or malformed name, path too long) or -CP_ENOENT (no such file; diag
 * says where it looked). On failure out is unchanged.
 */
int cp_fs_profile_resolve(const char *name_or_path, const char *search_dir, char *out,
			  size_t out_len, struct cp_diag *diag);

/* cp_fs_profile_resolve() then cp_fs_profile_load(). */
int cp_fs_profile_load_named(const char *name_or_path, const char *search_dir,
			     struct cp_fs_profile *out, struct cp_fs_costs *costs,
			     struct cp_diag *diag);

/*
 * Checks a profile's values against their ranges and each other (what
 * load and set enforce on the file's keys; costs may be NULL). Returns 0
 * or -CP_EINVAL with diag naming the key.
 */
int cp_fs_profile_validate(const struct cp_fs_profile *p, const struct cp_fs_costs *costs,
			   struct cp_diag *diag);

/*
 * Invariant check for CP_DEBUG_CHECK: cp_fs_profile_validate() == 0, the
 * kind matches the name and, for XFS, inodes_per_cluster is
 * inode_cluster_bytes / disk_inode_bytes.
 */
bool cp_fs_profile_check(const struct cp_fs_profile *p);

#endif /* CP_FS_PROFILE_FILE_H */
