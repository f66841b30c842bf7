/*
 * super.h - the superblock shrinker (fs/super.c super_cache_count,
 * super_cache_scan).
 */
#ifndef CP_SUPER_H
#define CP_SUPER_H

#include <stdint.h>

#include "model/shrinker.h"

/* What the superblock shrinker needs from the filesystem's caches. */
struct cp_super_ops {
	/* list_lru_shrink_count() of the dentry and inode LRUs */
	uint64_t (*nr_dentries)(void *fs, int memcg_id);
	uint64_t (*nr_inodes)(void *fs, int memcg_id);
	/* ->nr_cached_objects (XFS reclaimable inodes); NULL if none */
	uint64_t (*nr_cached_objects)(void *fs, int memcg_id);
	/* prune_dcache_sb / prune_icache_sb: objects REMOVED */
	uint64_t (*prune_dcache)(void *fs, struct cp_shrink_control *sc);
	uint64_t (*prune_icache)(void *fs, struct cp_shrink_control *sc);
	/* ->free_cached_objects; returns what the filesystem reports (XFS: 0) */
	uint64_t (*free_cached_objects)(void *fs, struct cp_shrink_control *sc);
};

struct cp_super {
	const struct cp_super_ops *ops;
	void *fs;
	unsigned vfs_cache_pressure;       /* sysctl, default 100 */
	unsigned vfs_cache_pressure_denom; /* 6.16+, default 100 */
	struct cp_shrinker shrinker;       /* seeks 2, batch 1024, memcg aware */
	uint64_t nr_stop;                  /* scans refused (no __GFP_FS) */
	struct cp_vmstat *vmstat;          /* optional: cp_sb_objects_freed */
};

#define CP_SUPER_BATCH 1024 /* fs/super.c alloc_super: s_shrink.batch */

/* Set up the superblock shrinker (not yet registered). */
void cp_super_init(struct cp_super *sb, const struct cp_super_ops *ops, void *fs,
		   unsigned vfs_cache_pressure, unsigned vfs_cache_pressure_denom);

/* vfs_pressure_ratio(): x * pressure / denom (mult_frac). */
uint64_t cp_vfs_pressure_ratio(const struct cp_super *sb, uint64_t x);

#endif /* CP_SUPER_H */
