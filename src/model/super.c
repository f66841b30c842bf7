/*
 * super.c - the superblock shrinker.
 *
 * Models fs/super.c super_cache_count() and super_cache_scan() (4.11,
 * 6.1 and mainline agree, ref §5): the count is the filesystem's cached
 * objects plus the dentries and inodes on the LRUs, scaled by
 * vfs_cache_pressure (/ vfs_cache_pressure_denom since 6.16). A scan
 * without __GFP_FS refuses (SHRINK_STOP) so the caller defers the work;
 * otherwise the request is split in proportion to the three populations
 * (each share + 1), dentries first, then inodes, then the filesystem's
 * own objects. Pruning dentries first matters: a freed dentry drops its
 * pin on the inode, which only then can reach the inode LRU.
 *
 * SIMPLIFIED: trylock_super() always succeeds (no unmount races).
 */
#include "model/super.h"

#include <string.h>

#include "model/gfp.h"

static uint64_t mult_frac(uint64_t x, uint64_t n, uint64_t d)
{
	return (x / d) * n + ((x % d) * n) / d;
}

uint64_t cp_vfs_pressure_ratio(const struct cp_super *sb, uint64_t x)
{
	return mult_frac(x, sb->vfs_cache_pressure, sb->vfs_cache_pressure_denom);
}

static uint64_t nr_cached(const struct cp_super *sb, int memcg_id)
{
	return sb->ops->nr_cached_objects ? sb->ops->nr_cached_objects(sb->fs, memcg_id) : 0;
}

/* super_cache_count() */
static uint64_t super_cache_count(void *priv, struct cp_shrink_control *sc)
{
	struct cp_super *sb = priv;
	uint64_t total = nr_cached(sb, sc->memcg_id);

	total += sb->ops->nr_dentries(sb->fs, sc->memcg_id);
	total += sb->ops->nr_inodes(sb->fs, sc->memcg_id);
	return cp_vfs_pressure_ratio(sb, total);
}

/* super_cache_scan() */
static uint64_t super_cache_scan(void *priv, struct cp_shrink_control *sc)
{
	struct cp_super *sb = priv;
	uint64_t fs_objects, inodes, dentries, total, n, freed;

	if (!(sc->gfp & CP_GFP_FS)) {
		sb->nr_stop++;
		return CP_SHRINK_STOP;
	}
	fs_objects = nr_cached(sb, sc->memcg_id);
	inodes = sb->ops->nr_inodes(sb->fs, sc->memcg_id);
	dentries = sb->ops->nr_dentries(sb->fs, sc->memcg_id);
	total = dentries + inodes + fs_objects + 1;
	n = sc->nr_to_scan;
	dentries = mult_frac(n, dentries, total);
	inodes = mult_frac(n, inodes, total);
	fs_objects = mult_frac(n, fs_objects, total);

	sc->nr_to_scan = dentries + 1;
	freed = sb->ops->prune_dcache(sb->fs, sc);
	sc->nr_to_scan = inodes + 1;
	freed += sb->ops->prune_icache(sb->fs, sc);
	if (fs_objects) {
		sc->nr_to_scan = fs_objects + 1;
		freed += sb->ops->free_cached_objects(sb->fs, sc);
	}
	sc->nr_to_scan = n;
	if (sb->vmstat)
		cp_count(sb->vmstat, CP_VM_SB_OBJECTS_FREED, freed);
	return freed;
}

static const struct cp_shrinker_ops super_shrinker_ops = {
	.name = "super_cache",
	.count = super_cache_count,
	.scan = super_cache_scan,
};

void cp_super_init(struct cp_super *sb, const struct cp_super_ops *ops, void *fs,
		   unsigned vfs_cache_pressure, unsigned vfs_cache_pressure_denom)
{
	memset(sb, 0, sizeof(*sb));
	sb->ops = ops;
	sb->fs = fs;
	sb->vfs_cache_pressure = vfs_cache_pressure;
	sb->vfs_cache_pressure_denom = vfs_cache_pressure_denom ? vfs_cache_pressure_denom : 100;
	sb->shrinker.ops = &super_shrinker_ops;
	sb->shrinker.priv = sb;
	sb->shrinker.seeks = CP_DEFAULT_SEEKS;
	sb->shrinker.batch = CP_SUPER_BATCH;
	sb->shrinker.memcg_aware = true;
}
