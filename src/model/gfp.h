/*
 * gfp.h - allocation context flags, the subset of the kernel's gfp_t that
 * decides who may reclaim what (include/linux/gfp.h, 4.11 and 6.1).
 *
 * __GFP_FS is the one that matters here: the superblock shrinker refuses
 * to run without it (super_cache_scan() returns SHRINK_STOP), so a
 * reclaimer allocating with GFP_NOFS only defers the dentry/inode work.
 */
#ifndef CP_GFP_H
#define CP_GFP_H

enum cp_gfp_bits {
	CP_GFP_IO = 1u << 0,             /* __GFP_IO: may start physical I/O */
	CP_GFP_FS = 1u << 1,             /* __GFP_FS: may call into the filesystem */
	CP_GFP_DIRECT_RECLAIM = 1u << 2, /* __GFP_DIRECT_RECLAIM: may reclaim in place */
	CP_GFP_KSWAPD_RECLAIM = 1u << 3, /* __GFP_KSWAPD_RECLAIM: may wake kswapd */
	CP_GFP_ACCOUNT = 1u << 4,        /* __GFP_ACCOUNT: charged to the memcg */
	CP_GFP_NORETRY = 1u << 5,        /* __GFP_NORETRY: give up after one reclaim round */
};

#define CP_GFP_RECLAIM (CP_GFP_DIRECT_RECLAIM | CP_GFP_KSWAPD_RECLAIM)
#define CP_GFP_KERNEL (CP_GFP_RECLAIM | CP_GFP_IO | CP_GFP_FS)
#define CP_GFP_NOFS (CP_GFP_RECLAIM | CP_GFP_IO)
#define CP_GFP_KERNEL_ACCOUNT (CP_GFP_KERNEL | CP_GFP_ACCOUNT)
/* GFP_HIGHUSER_MOVABLE of a user page fault (do_anonymous_page): may
 * reclaim with __GFP_FS; charged to the task's memcg (mem_cgroup_charge,
 * 4.11 mem_cgroup_try_charge with GFP_KERNEL); MOVABLE is the caller's
 * migratetype */
#define CP_GFP_HIGHUSER_MOVABLE (CP_GFP_KERNEL | CP_GFP_ACCOUNT)

#endif /* CP_GFP_H */
