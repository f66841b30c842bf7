/*
 * profile.c - the built-in kernel profiles (values from ref §13 and
 * Appendix A; each cites the kernel file it was read from).
 */
#include "model/profile.h"

#include <string.h>

#include "model/memory.h"

/* v4.11: the kernel the seed commit was measured against. */
static const struct cp_kernel_profile linux_4_11 = {
	.name = "linux-4.11",
	.description = "v4.11: proportional shrink_slab, inode steal, blocking XFS inode reclaim",
	.lru_add_batch = 14,              /* include/linux/pagevec.h PAGEVEC_SIZE */
	.min_free_kbytes_max = 65536,     /* mm/page_alloc.c init_per_zone_wmark_min */
	.memcg_reclaim_retries = 5,       /* mm/memcontrol.c MEM_CGROUP_RECLAIM_RETRIES */
	.memcg_charge_batch = 32,         /* mm/memcontrol.c CHARGE_BATCH */
	.shrink_rule = CP_SHRINK_PROPORTIONAL,    /* mm/vmscan.c do_shrink_slab */
	.deactivate_rule = CP_DEACTIVATE_RATIO,   /* mm/vmscan.c inactive_list_is_low */
	.continue_rule = CP_CONTINUE_GAP_FIRST,   /* mm/vmscan.c should_continue_reclaim (profile.h) */
	.memcg_force_scan = true,                 /* mm/vmscan.c get_scan_count force_scan */
	.workingset_flag = false,         /* PG_workingset arrived in 4.20 */
	.inode_lru_with_pagecache = true, /* fs/inode.c before 5.16 */
	.xfs_reclaim_blocks = true,       /* fs/xfs/xfs_icache.c SYNC_WAIT */
	.xfs_buf_lru_first_visit_frees = true, /* fs/xfs/xfs_buf.c xfs_buftarg_isolate (inverted) */
	.xfs_buf_folio = false,            /* buffer pages one by one (xfs_buf_allocate_memory / xfs_buf_alloc_pages) */
	.xfs_cil_memory = false,           /* not modelled for this version (profile.h) */
	.iomap_write_buffer_heads = true, /* fs/iomap.c iomap_write_begin */
	.readahead_nofs = false,          /* mm/readahead.c: readahead_gfp_mask(mapping) */
	.xfs_large_folios = false,        /* large folios in the page cache came in 5.16-5.18 */
	.readahead_markers = false,       /* the position rule (filemap.c SIMPLIFIED) */
	.has_vfs_cache_pressure_denom = false,
	.memcg_stats_flush_ns = 0,          /* exact: no memcg rstat; reclaim reads the node's counters */
	.memcg_full_walk_retry = false,     /* mm/vmscan.c do_try_to_free_pages: no retry at all */
	.page_alloc_4_11 = true,          /* mm/page_alloc.c (buddy.c lists the commits) */
	/* boost_watermark() came in 5.0 ("mm: reclaim small amounts of
	 * memory when an external fragmentation event occurs") */
	.watermark_boost_factor = 0,
	.compaction_proactiveness = 0,    /* proactive compaction came in 5.9 */
	.dirty_ratio = 20,                /* mm/page-writeback.c vm_dirty_ratio */
	.dirty_background_ratio = 10,     /* mm/page-writeback.c dirty_background_ratio */
	.compaction_large_folios = false, /* 4.11 isolate_migratepages_block: PageCompound skipped */
	/* 4.11 mm/compaction.c update_pageblock_skip(nr_isolated == 0 only),
	 * kcompactd_do_work .ignore_skip_hint = true */
	.compaction_skip_4_11 = true,
	.dname_reclaimable = false,       /* fs/dcache.c __d_alloc: kmalloc(GFP_KERNEL_ACCOUNT) */
	.xfs_ili_reclaimable = false,     /* fs/xfs/xfs_super.c xfs_init_zones: KM_ZONE_SPREAD */
	/* mm/slub.c set_cpu_partial(): 2/6/13/30 free objects a CPU */
	.slub_partial = CP_SLUB_PARTIAL_OBJECTS,
};

/* v6.1 (Debian linux-source-6.1). */
static const struct cp_kernel_profile linux_6_1 = {
	.name = "linux-6.1",
	.description = "v6.1: priority shrink_slab, refault-driven deactivation, non-blocking XFS reclaim",
	.lru_add_batch = 15,              /* mm/swap.c folio_batch (PAGEVEC_SIZE 15) */
	.min_free_kbytes_max = 262144,    /* mm/page_alloc.c */
	.memcg_reclaim_retries = 16,      /* mm/internal.h MAX_RECLAIM_RETRIES */
	.memcg_charge_batch = 64,         /* include/linux/memcontrol.h MEMCG_CHARGE_BATCH */
	.shrink_rule = CP_SHRINK_PRIORITY,
	.deactivate_rule = CP_DEACTIVATE_RATIO_REFAULT, /* mm/vmscan.c prepare_scan_count */
	.continue_rule = CP_CONTINUE_COMPACTION_FIRST,  /* 5.4+ should_continue_reclaim (profile.h) */
	/* mm/vmscan.c get_scan_count (read in linux-source-6.1): no
	 * force_scan; only an offline memcg scrapes min(size, 32) */
	.memcg_force_scan = false,
	.workingset_flag = true,
	.inode_lru_with_pagecache = false, /* 5.16 "keep inodes with page cache off the LRU" */
	.xfs_reclaim_blocks = false,       /* 5.9 reclaim rework */
	.xfs_buf_lru_first_visit_frees = false,
	.xfs_buf_folio = false,            /* buffer pages one by one (xfs_buf_allocate_memory / xfs_buf_alloc_pages) */
	.xfs_cil_memory = false,           /* not modelled for this version (profile.h) */
	.iomap_write_buffer_heads = false, /* fs/iomap/buffered-io.c: IOMAP_F_BUFFER_HEAD only */
	.readahead_nofs = true,            /* mm/readahead.c page_cache_ra_unbounded */
	.xfs_large_folios = true,          /* fs/xfs/xfs_icache.c xfs_inode_alloc: mapping_set_large_folios */
	.readahead_markers = false,       /* the position rule; 6.1 page_cache_ra_order(ractl, ra, order): order + 2 */
	.has_vfs_cache_pressure_denom = false,
	.memcg_stats_flush_ns = 0,          /* exact: prepare_scan_count() calls mem_cgroup_flush_stats() */
	.memcg_full_walk_retry = false,     /* 6.10+; 6.1 retries for force_deactivate only */
	.page_alloc_4_11 = false,
	.watermark_boost_factor = 15000,   /* mm/page_alloc.c watermark_boost_factor */
	.compaction_proactiveness = 20,    /* mm/compaction.c sysctl_compaction_proactiveness */
	.dirty_ratio = 20,                 /* mm/page-writeback.c vm_dirty_ratio */
	.dirty_background_ratio = 10,      /* mm/page-writeback.c dirty_background_ratio */
	.compaction_large_folios = false, /* 6.1 isolate_migratepages_block: PageCompound skipped unless alloc_contig */
	.compaction_skip_4_11 = false,     /* 6.1 test_and_set_skip, __reset_isolation_pfn (5.1+) */
	.dname_reclaimable = true,         /* fs/dcache.c __d_alloc: | __GFP_RECLAIMABLE */
	.xfs_ili_reclaimable = true,       /* fs/xfs/xfs_super.c xfs_init_caches */
	/* mm/slub.c set_cpu_partial() / slub_set_cpu_partial() (5.16+) */
	.slub_partial = CP_SLUB_PARTIAL_SLABS,
	/* mm/slab.h obj_full_size(): s->size + sizeof(struct obj_cgroup *) */
	.slab_obj_charge_extra = 8,
	/* DNAME_INLINE_LEN 32 and the 16-byte union of count and rcu_head
	 * before name[]: the fs profile's kmalloc-64 (as kmalloc-rcl-64) */
};

/* Mainline as these machines run it (6.16 and later; ref §13 'mainline'
 * column): linux-6.1 with the two differences that table lists - the
 * vm.vfs_cache_pressure_denom sysctl (6.16+; at its default 100 the
 * shrinker arithmetic equals 6.1's) and a per-CPU LRU add batch of 31
 * (marked [U], unverified, in the reference) - and the mainline changes
 * found since by reading and measuring 6.18, each with its source below
 * (docs/model.md lists them: XFS buffer folios, readahead order in
 * ra state, large-folio writes, claim/steal fallback, per-CPU list
 * auto-tuning, ratelimited memcg stat flushes, large-folio compaction,
 * external name layout). */
static const struct cp_kernel_profile linux_6_x = {
	.name = "linux-6.x",
	.description = "v6.16+ mainline as on 6.18: linux-6.1 plus the mainline changes docs/model.md lists",
	.lru_add_batch = 31,              /* ref §13 mainline: 31 [U] */
	.min_free_kbytes_max = 262144,    /* ref §13: same as 6.1 */
	.memcg_reclaim_retries = 16,      /* mm/internal.h MAX_RECLAIM_RETRIES */
	.memcg_charge_batch = 64,         /* include/linux/memcontrol.h MEMCG_CHARGE_BATCH */
	.shrink_rule = CP_SHRINK_PRIORITY,              /* ref §13: same as 6.1 */
	.deactivate_rule = CP_DEACTIVATE_RATIO_REFAULT, /* ref §13: same as 6.1 */
	/* as 6.1; read in a 6.x mainline mm/vmscan.c (the zone test split
	 * into zone_watermark_ok() at min and a boolean compaction_suitable(),
	 * the same outcome). Seen on 6.18.44: kswapd runs woken at orders 1 -
	 * 3 and 9 called the superblock shrinker 2 - 5 times at priority 6
	 * (one shrink_slab() a round; session 29, notes s28/k1) */
	.continue_rule = CP_CONTINUE_COMPACTION_FIRST,
	.memcg_force_scan = false, /* as 6.1 */
	.workingset_flag = true,
	.inode_lru_with_pagecache = false, /* ref §13: no (vendor sysctl aside) */
	.xfs_reclaim_blocks = false,       /* non-blocking */
	.xfs_buf_lru_first_visit_frees = false, /* ref §13 "(not checked)": kept as 6.1 */
	.xfs_buf_folio = true,             /* 6.15+ xfs_buf_alloc_backing_mem; 24015 xfs:xfs_buf_backing_folio, 0 _fallback in a 2G global seed run on 6.18.44 */
	.xfs_cil_memory = true,            /* xlog_cil_commit / xlog_cil_committed: kmalloc-512 and kmalloc-8k follow the checkpoints on 6.18.44 (session 28) */
	.iomap_write_buffer_heads = false, /* as 6.1 */
	.readahead_nofs = true,            /* as 6.1: page_cache_ra_unbounded */
	.xfs_large_folios = true,          /* as 6.1 */
	.readahead_markers = true,        /* 6.17+ mm/readahead.c (ra->order), read in a 6.18-era tree; ramp seen on 6.18.44 with the readahead tracepoints */
	.xfs_large_folio_writes = true,    /* fs/iomap/buffered-io.c __iomap_get_folio: fgf_set_order(len), 6.6+ */
	/* ext4 regular files got large folios in the 6.16 merge window
	 * (fs/ext4/inode.c ext4_should_enable_large_folio; Phoronix
	 * "EXT4 for Linux 6.16", 2025-05-28) [U: release notes only, the
	 * 6.16 source not read]; NOT modelled: ext4 stays order 0. */
	.has_vfs_cache_pressure_denom = true,   /* fs/dcache.c, 6.16+ */
	/* mm/vmscan.c prepare_scan_control() and mm/workingset.c
	 * workingset_test_recent() call mem_cgroup_flush_stats_ratelimited()
	 * (read in a post-6.10 mainline vmscan.c); measured on 6.18.44: the
	 * memcg statistics were flushed only by flush_memcg_stats_dwork, 55
	 * times 2.00 - 2.08 s apart through a global 1G seed run (tracepoint
	 * memcg:memcg_flush_stats with kernel stacks, session 17) */
	.memcg_stats_flush_ns = 2000000000ULL,
	/* mm/vmscan.c do_try_to_free_pages(): the memcg_full_walk retry
	 * ("mm: vmscan: restore incremental cgroup iteration", 6.10), with
	 * the priority reset the later fix added (read in a 6.x mainline
	 * vmscan.c). Measured on 6.18.44 (session 23; vmscan:
	 * mm_vmscan_memcg_reclaim_begin/_end and the superblock shrinker's
	 * mm_shrink_slab_start at every priority in a memcg 2G seed run):
	 * 69 reclaims walked priorities 12 -> 0 three times, none twice */
	.memcg_full_walk_retry = true,
	.page_alloc_4_11 = false,
	/* 6.15+ claim/steal fallback (c2f6ea38fc1b "mm: page_alloc: don't
	 * steal single pages from biggest buddy", 90abee6d7895 "speed up
	 * fallbacks in rmqueue_bulk()"), read in Debian's 6.12.117, which
	 * carries both as stable backports; 6.16's "tighten up
	 * find_suitable_fallback" gives the same outcome [U: no 6.18 tree
	 * read] */
	.page_alloc_claim_steal = true,
	/* 6.7 pcp auto-tuning, read in Debian's 6.12.117 (nr_pcp_alloc,
	 * nr_pcp_high, nr_pcp_free, decay_pcp_high), with 6.16's free_high
	 * threshold batch + high_min / 2 [U: from the patch posting] */
	.pcp_auto_tune = true,
	.watermark_boost_factor = 15000,   /* as 6.1 */
	.compaction_proactiveness = 20,    /* as 6.1; /proc/sys/vm/compaction_proactiveness on 6.18.44 */
	/* as 6.1; /proc/sys/vm/dirty_ratio 20 and dirty_background_ratio 10
	 * on 6.18.44 (dirty_bytes and dirty_background_bytes 0) */
	.dirty_ratio = 20,
	.dirty_background_ratio = 10,
	/* 6.9+ large-folio compaction (Zi Yan, LKML 2024-02-12 "[PATCH v4
	 * 1/3] mm/compaction: enable compacting >0 order folios" and 2/3;
	 * v6.18 compaction_alloc_noprof() splits the first free block of at
	 * least the folio's order). Seen on 6.18.44: in a real global 1G seed
	 * run 347 of 1 755 compaction:mm_compaction_isolate_migratepages
	 * events isolated more than COMPACT_CLUSTER_MAX = 32 pages, up to 479
	 * (/var/tmp/cp-s18-scripts/trace-compaction.sh, session 18) */
	.compaction_large_folios = true,
	.compaction_skip_4_11 = false,     /* as 6.1 */
	.dname_reclaimable = true,         /* as 6.1 */
	.xfs_ili_reclaimable = true,       /* as 6.1 */
	/* as 6.1; on 6.18.44 /sys/kernel/slab/kmalloc-512/cpu_partial 52,
	 * min_partial 5, kmalloc-8k 6 and 6, dentry 120 and 5, sheaf_capacity
	 * 0 (no sheaves) */
	.slub_partial = CP_SLUB_PARTIAL_SLABS,
	/* as 6.1 (mm/memcontrol.c obj_full_size in 6.10+): measured on
	 * 6.18.44 - 100000 fs_mark creates (-S 0 -s 0 -L 1) on xfs in a v1
	 * memcg raised memory.kmem.usage_in_bytes by 1338 B a file, the
	 * slot sizes of dentry 192 + xfs_inode 1024 + kmalloc-rcl-96 96 plus
	 * 8 B each making 1336 (xfs_ili 208 B and lsm_inode_cache 32 B are
	 * not SLAB_ACCOUNT) */
	.slab_obj_charge_extra = 8,
	/* fs/dcache.c of 6.14+: struct external_name keeps count and
	 * rcu_head apart and word-aligns name[] (24-byte header), and
	 * DNAME_INLINE_LEN is 40 (5 words). Measured on 6.18.44: 20000
	 * creates with 39-character names allocated no kmalloc-rcl object,
	 * with 40-character names 19782 kmalloc-rcl-96 objects (24 + 41 =
	 * 65 B); the fs_mark run above +99792 kmalloc-rcl-96 per 100000
	 * files; /proc/slabinfo: kmalloc-rcl-96 42 objects per 1-page slab */
	.dname_inline_len = 40,
	.external_name_overhead = 25,
	.external_name_cache = "kmalloc-rcl-96",
	.external_name_size = 96,
	.external_name_per_slab = 42,
};

const struct cp_kernel_profile *const cp_kernel_profiles[] = {
	&linux_4_11,
	&linux_6_1,
	&linux_6_x,
	NULL,
};

const struct cp_kernel_profile *cp_kernel_profile_find(const char *name)
{
	size_t i;

	for (i = 0; cp_kernel_profiles[i]; i++)
		if (strcmp(cp_kernel_profiles[i]->name, name) == 0)
			return cp_kernel_profiles[i];
	return NULL;
}
