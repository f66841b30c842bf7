/*
 * fs_profile.c - the built-in filesystem profiles.
 *
 * The run path reads profiles/<fs>.ini (fs_profile_file.c), the single
 * source of the filesystem numbers; these built-ins stay for the unit
 * tests and supply the kernel constants no file gives (external name
 * overhead, XFS_LOOKUP_BATCH, NOFS flags, SLAB_ACCOUNT, cache names).
 * Where they differ from the files: xfs_inode 16 per slab here, 17 in
 * xfs.ini; xfs_ili 176 B x 23 here, 168 B x 24 in xfs.ini;
 * ext4_inode_cache 1128 B x 14 per order-2 slab here, 1088 B x 30 per
 * order-3 slab in ext4.ini; ext4 inodes_per_cluster 1 here (unused),
 * 4096 / 256 = 16 from ext4.ini.
 *
 * Sources (ref = /work/shared/ref/linux-reclaim-model.md):
 * [V] read in the kernel source named, [V-run] /proc/slabinfo of the
 * reference's 6.18 VM, [U] an assumption to calibrate.
 */
#include "model/fs_profile.h"

#include <string.h>

/* XFS as in the seed experiment (mkfs.xfs defaults of 2017: v5, 512-byte
 * inodes, 4 KiB blocks). */
static const struct cp_fs_profile fs_xfs = {
	.name = "xfs",
	.description = "built-in XFS v5 (isize=512), Linux 4.11, SLUB",
	.kind = CP_FS_XFS,
	/* include/linux/dcache.h: struct dentry is 192 B with
	 * DNAME_INLINE_LEN 32 (4.11 = 6.1) [V]; SLUB 21 per order-0 slab
	 * (slabinfo "dentry 192 21 1") [V-run]; SLAB_ACCOUNT [V] (ref §2.6);
	 * SLAB_RECLAIM_ACCOUNT (fs/dcache.c dcache_init, 4.11 and 6.1) [V
	 * 6.1]: RECLAIMABLE pages */
	.dentry = { "dentry", 192, 21, 0, true, CP_MIGRATE_RECLAIMABLE },
	/* __d_alloc: kmalloc(17 + len, GFP_KERNEL_ACCOUNT); 40-char fs_mark
	 * names -> 57 B -> kmalloc-64, 64 per order-0 slab (ref §2.6, §3.6);
	 * no __GFP_RECLAIMABLE in 4.11: UNMOVABLE pages (6.1 adds it and the
	 * name goes to kmalloc-rcl-64: kernel profile dname_reclaimable) */
	.external_name = { "kmalloc-64", 64, 64, 0, true, CP_MIGRATE_UNMOVABLE },
	/* xfs_inode incl. the VFS inode: 960 B for 4.11 [U: ref §3.6 gives
	 * 900-1000 B, 6.18 measures 1024], 16 per order-2 slab as measured
	 * on 6.18 (960 x 16 = 15360 <= 16384); accounted (4.11
	 * KM_ZONE_ACCOUNT, ref §9.5); KM_ZONE_RECLAIM = SLAB_RECLAIM_ACCOUNT
	 * (4.11 fs/xfs/kmem.h [I]; 6.1 fs/xfs/xfs_super.c xfs_init_caches [V]):
	 * RECLAIMABLE pages */
	.inode = { "xfs_inode", 960, 16, 2, true, CP_MIGRATE_RECLAIMABLE },
	/* xfs_ili: ~176 B for 4.11 [U: ref §3.6 starting guess]; 4096 / 176
	 * = 23 per order-0 slab (6.18: 208 B, 19/slab); not accounted
	 * (ref §9.5); 4.11 xfs_init_zones: KM_ZONE_SPREAD only, UNMOVABLE
	 * pages (6.1 adds SLAB_RECLAIM_ACCOUNT: kernel profile
	 * xfs_ili_reclaimable) */
	.inode_log_item = { "xfs_ili", 176, 23, 0, false, CP_MIGRATE_UNMOVABLE },
	.dname_inline_len = 32,       /* DNAME_INLINE_LEN on 64-bit [V] */
	.external_name_overhead = 17, /* offsetof(external_name, name[1]) [V] */
	/* fs/xfs/xfs_mount.c xfs_mountfs (4.11) [V]: cluster =
	 * XFS_INODE_BIG_CLUSTER_SIZE 8192 x inodesize / XFS_DINODE_MIN_SIZE
	 * (512 / 256) = 16384 B on a v5 filesystem whose sb_inoalignmt allows
	 * it, which mkfs.xfs sets up (xfsprogs mkfs: cluster_size *=
	 * inodesize / XFS_DINODE_MIN_SIZE); 16384 / 512 = 32 inodes. (A v4
	 * filesystem would have 8192 / 512 = 16.) */
	.disk_inode_bytes = 512,
	.inode_cluster_bytes = 16384,
	.inodes_per_cluster = 32,
	/* mkfs.xfs(8): -n size defaults to 4096 bytes or the filesystem
	 * block size, whichever is larger (4 KiB blocks) */
	.dir_block_bytes = 4096,
	.reclaim_batch = 32, /* fs/xfs/xfs_icache.h XFS_LOOKUP_BATCH [V 4.11] */
	/* ref §9.4: xfs_create allocates the inode inside the transaction
	 * (PF_FSTRANS strips __GFP_FS) [I]; a lookup's xfs_iget ->
	 * xfs_inode_alloc uses KM_SLEEP outside a transaction -> GFP_KERNEL [I] */
	.create_inode_nofs = true,
	.iget_inode_nofs = false,
	/* the log (xfs_log_cil.c; profiles/xfs.ini [log] has the sources):
	 * 64 MiB with 32 KiB iclogs (mkfs.xfs 6.1 / mount defaults); a new
	 * inode 56 + 176 B of log formats and two 12-byte op headers, a
	 * whole 4 KiB directory block 4 096 + 24 + 24 B; vectors in
	 * kmalloc-512 (16 per order-1 slab) and kmalloc-8k (4 per order-3) */
	.log = {
		.log_bytes = 64ULL << 20,
		.iclog_bytes = 32768,
		.inode_space_bytes = 256,
		.dir_block_space_bytes = 4144,
		.inode_lv = { "kmalloc-512", 512, 16, 1, false, CP_MIGRATE_UNMOVABLE },
		.dir_lv = { "kmalloc-8192", 8192, 4, 3, false, CP_MIGRATE_UNMOVABLE },
	},
};

/* ext4, for comparison (no second stage: evict frees the inode). */
static const struct cp_fs_profile fs_ext4 = {
	.name = "ext4",
	.description = "built-in ext4 (inode_size=256), Linux 4.11, SLUB",
	.kind = CP_FS_EXT4,
	.dentry = { "dentry", 192, 21, 0, true, CP_MIGRATE_RECLAIMABLE },
	.external_name = { "kmalloc-64", 64, 64, 0, true, CP_MIGRATE_UNMOVABLE },
	/* ext4_inode_cache: 1128 B, 14 per order-2 slab [V-run, ref §3.6];
	 * SLAB_ACCOUNT (ref §9.5); SLAB_RECLAIM_ACCOUNT (fs/ext4/super.c
	 * init_inodecache [V 6.1]): RECLAIMABLE pages */
	.inode = { "ext4_inode_cache", 1128, 14, 2, true, CP_MIGRATE_RECLAIMABLE },
	.inode_log_item = { "none", 0, 0, 0, false, CP_MIGRATE_UNMOVABLE },
	.dname_inline_len = 32,
	.external_name_overhead = 17,
	/* mke2fs.conf inode_size = 256 in 4096-byte inode table blocks */
	.disk_inode_bytes = 256,
	.inode_cluster_bytes = 4096,
	.inodes_per_cluster = 1, /* not used: no XFS clusters */
	.dir_block_bytes = 0,    /* no XFS buffer cache */
	.reclaim_batch = 32,     /* not used */
	/* fs/ext4/super.c ext4_alloc_inode: kmem_cache_alloc(..., GFP_NOFS)
	 * for every inode, created or read [I: recalled, not re-read] */
	.create_inode_nofs = true,
	.iget_inode_nofs = true,
};

const struct cp_fs_profile *const cp_fs_profiles[] = {
	&fs_xfs,
	&fs_ext4,
	NULL,
};

const struct cp_fs_profile *cp_fs_profile_find(const char *name)
{
	size_t i;

	for (i = 0; cp_fs_profiles[i]; i++)
		if (strcmp(cp_fs_profiles[i]->name, name) == 0)
			return cp_fs_profiles[i];
	return NULL;
}

uint64_t cp_fs_create_cpu_ns(const struct cp_fs_profile *fs, const struct cp_fs_costs *costs,
			     uint64_t machine_xfs_create_ns)
{
	if (fs->kind != CP_FS_XFS || !machine_xfs_create_ns)
		return costs->create_cpu_ns;
	return machine_xfs_create_ns > costs->mkdir_lookup_ns
		       ? machine_xfs_create_ns - costs->mkdir_lookup_ns
		       : 0;
}
