/*
 * profile.h - kernel profiles: every behaviour that differs between the
 * kernel versions we model, in one struct (ref §13). Chosen by name with
 * --kernel; the REFERENCED policy of the commit is a separate switch
 * (policy.h), so every profile runs with both.
 */
#ifndef CP_PROFILE_H
#define CP_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* How do_shrink_slab() turns reclaim pressure into a scan target. */
enum cp_shrink_rule {
	/* 4.11: delta = 4 * nr_scanned / seeks * freeable / (nr_eligible + 1);
	 * all deferred work applied, clamped to freeable/2 when delta is
	 * small (ref §6.1). */
	CP_SHRINK_PROPORTIONAL,
	/* >= 4.16 (9092c71bb724): delta = (freeable >> priority) * 4 / seeks;
	 * deferred work applied nr >> priority at a time (ref §6.2). */
	CP_SHRINK_PRIORITY,
};

/* When shrink_node() may deactivate active file pages (ref §7.5). */
enum cp_deactivate_rule {
	CP_DEACTIVATE_RATIO,         /* 4.11: inactive_list_is_low() at each scan */
	CP_DEACTIVATE_RATIO_REFAULT, /* 6.1: ratio low OR new refault activations */
};

/* mm/vmscan.c should_continue_reclaim(): whether shrink_node() goes
 * round again at the same priority for a reclaimer in reclaim/compaction
 * mode (in_reclaim_compaction(): sc->order > 0 and either a costly order
 * (> 3) or priority below DEF_PRIORITY - 2); each round ends with
 * shrink_slab() (ref §6.3: "repeat while should_continue_reclaim()"). */
enum cp_continue_rule {
	/* 4.11: stop when the round reclaimed nothing; go on while the whole
	 * reclaim (sc->nr_reclaimed) is below compact_gap(order) and the
	 * inactive file list is larger; else go on unless some zone up to
	 * reclaim_idx is ready for compaction (compaction_suitable() SUCCESS
	 * or CONTINUE) [U: 4.11 source not read, from the 4.x code] */
	CP_CONTINUE_GAP_FIRST,
	/* 5.4+ ("mm, reclaim: make should_continue_reclaim perform dryrun
	 * detection"), 6.1, and as read in a 6.x mainline mm/vmscan.c (the
	 * search index's torvalds/linux copy): stop when the round reclaimed
	 * nothing or some zone up to reclaim_idx passes its min watermark at
	 * the order or is suitable for compaction; else go on while the
	 * inactive file list is larger than compact_gap(order) */
	CP_CONTINUE_COMPACTION_FIRST,
};

struct cp_kernel_profile {
	const char *name;           /* "linux-4.11", "linux-6.1" */
	const char *description;

	/* mm/swap.c: per-CPU LRU add batch (PAGEVEC_SIZE 14 / folio_batch 15) */
	unsigned lru_add_batch;
	/* mm/page_alloc.c: min_free_kbytes upper clamp (65536 / 262144) */
	unsigned long min_free_kbytes_max;
	/* mm/memcontrol.c: reclaim retries before a charge fails (5 / 16) */
	unsigned memcg_reclaim_retries;
	/* mm/memcontrol.c: charge batch (CHARGE_BATCH 32 / MEMCG_CHARGE_BATCH 64) */
	unsigned memcg_charge_batch;

	enum cp_shrink_rule shrink_rule;
	enum cp_deactivate_rule deactivate_rule;
	enum cp_continue_rule continue_rule;
	/* mm/vmscan.c get_scan_count(): memcg limit reclaim scans at least
	 * min(size, SWAP_CLUSTER_MAX) of a list whose size >> priority is 0
	 * (4.11 force_scan: true); 4.13 dropped it, so a small list waits
	 * for a lower priority (6.1: only an offline memcg's lists: false) */
	bool memcg_force_scan;

	/* mm/workingset.c: 6.1 has PG_workingset and restore accounting,
	 * and stamps evictions before aging (4.11 after). */
	bool workingset_flag;
	/* fs/inode.c: inodes with page cache stay on the inode LRU and the
	 * shrinker strips their pages (4.11: true; 5.16+/6.1: false). */
	bool inode_lru_with_pagecache;
	/* fs/xfs/xfs_icache.c: shrinker-driven XFS inode reclaim waits for
	 * dirty inodes to be written (4.11 SYNC_WAIT: true; 5.9+: false). */
	bool xfs_reclaim_blocks;
	/* fs/xfs/xfs_buf.c xfs_buftarg_isolate(): 4.11/4.13 have the
	 * inverted test (true): a buffer with a non-zero b_lru_ref is
	 * decremented and isolated at every visit - freed once that reaches
	 * 0, otherwise put back at the LRU tail by xfs_buf_rele() - so it
	 * goes at visit b_lru_ref; 6.1 (after 19957a181608, 2019) rotates
	 * while it can decrement and frees at visit b_lru_ref + 1. */
	bool xfs_buf_lru_first_visit_frees;
	/* fs/xfs/xfs_buf.c xfs_buf_alloc_backing_mem() (6.15+, the
	 * "xfs-6.15-folios_vmalloc" merge): a buffer larger than a page is
	 * one folio of its power-of-two size, allocated without direct
	 * reclaim and with __GFP_NORETRY, vmalloc()ed page by page only when
	 * that fails (true); before, alloc_page() / alloc_pages_bulk per
	 * page (4.11, 6.1: false). */
	bool xfs_buf_folio;
	/* fs/xfs/xfs_log_cil.c: the log vectors of the Committed Item List
	 * take memory until their checkpoint is on disk (xfs_log_cil.c,
	 * with the filesystem profile's [log]). linux-6.x true (read in a
	 * 6.18-era tree; measured on 6.18.44, docs/fidelity.md session 28);
	 * 4.11 and 6.1 false: not modelled for them (their CIL differs -
	 * no per-CPU space accounting before 5.19, kmem_alloc with direct
	 * reclaim in 4.11 - and the seed box's log size is not known). */
	bool xfs_cil_memory;
	/* fs/iomap: a buffered write attaches buffer heads to the page
	 * (4.11 iomap_write_begin -> __block_write_begin_int: true; 6.1
	 * only for IOMAP_F_BUFFER_HEAD, never set by XFS: false) */
	bool iomap_write_buffer_heads;
	/* mm/readahead.c: readahead allocates under memalloc_nofs_save() on
	 * every filesystem (6.1: true; 4.11: the mapping's gfp decides) */
	bool readahead_nofs;
	/* XFS data files get large folios from readahead
	 * (mapping_set_large_folios in fs/xfs/xfs_icache.c
	 * xfs_inode_alloc() and xfs_reinit_inode(), 5.18+; readahead then
	 * allocates them in mm/readahead.c page_cache_ra_order(): 6.1 and
	 * 6.x true, 4.11 false). Other filesystems stay at order 0. */
	bool xfs_large_folios;
	/* ... and from buffered writes: iomap_write_begin asks
	 * __filemap_get_folio for a folio of the write's length (6.6+,
	 * "iomap: create large folios in the buffered write path"); before,
	 * writes made order-0 pages. 6.x true; 4.11 and 6.1 false. */
	bool xfs_large_folio_writes;
	/* mm/readahead.c as 6.17+ has it (readahead.c): windows driven by
	 * PG_readahead markers (page_cache_async_ra() when the reader
	 * reaches one, a window ahead), page_cache_sync_ra()'s window from
	 * the read()'s remaining pages and the cached history, and the
	 * folio order kept in file_ra_state (ra->order, Ryan Roberts'
	 * "Readahead tweaks for larger folios": 0 after a sync miss, + 2 a
	 * continuing window). false: filemap.c's position rule (a window
	 * continues the last when it starts where that one ended, ramping
	 * from its first folio's order, 6.1; 4.11 has no large folios). */
	bool readahead_markers;
	/* mm/memcontrol.c: how stale the lruvec counters reclaim's
	 * heuristics read are (memcg_stats.c). 0: exact (4.11 reads the
	 * node's counters; 6.1's prepare_scan_count() flushes the memcg
	 * statistics itself whenever updates are pending). > 0: the reclaim
	 * path only flushes when the periodic flusher is a cycle late, so it
	 * reads the periodic flush's copy, taken every this many ns
	 * (FLUSH_TIME, 2 s). */
	uint64_t memcg_stats_flush_ns;
	/* mm/vmscan.c do_try_to_free_pages(): a priority loop that reclaimed
	 * nothing runs again from DEF_PRIORITY as a full walk of the cgroup
	 * tree (sc->memcg_full_walk: a direct reclaimer's first walk may be
	 * partial) before the force_deactivate retry; false: no such retry
	 * (4.11, 6.1) */
	bool memcg_full_walk_retry;
	/* fs/dcache.c: vfs_cache_pressure denominator exists (6.16+) */
	bool has_vfs_cache_pressure_denom;

	/* Physical placement (memory.c -> buddy.c); no decision uses these yet.
	 * mm/page_alloc.c: 4.11's __rmqueue_fallback / steal rules (true)
	 * or 6.1's (false; see buddy.c) */
	bool page_alloc_4_11;
	/* mm/page_alloc.c: 6.15+ fallback in two stages, __rmqueue_claim then
	 * __rmqueue_steal, with the rmqueue mode kept across rmqueue_bulk
	 * (c2f6ea38fc1b, 90abee6d7895; buddy.c) */
	bool page_alloc_claim_steal;
	/* mm/page_alloc.c: 6.7+ per-CPU list high auto-tuning (Huang Ying's
	 * "mm: PCP high auto-tuning": c0a242394cb9 alloc_factor,
	 * 90b41691b988 high_min/high_max, 51a755c56dc0 decay and
	 * free_count, 57c0419c5f0e ZONE_BELOW_HIGH; 6.16's free_high
	 * threshold; pcp.c) */
	bool pcp_auto_tune;
	/* mm/compaction.c sysctl_compaction_proactiveness: kcompactd's
	 * proactive pass every 500 ms (5.9+, facdaa917c4d "mm: proactive
	 * compaction", default 20; /proc/sys/vm/compaction_proactiveness is
	 * 20 on the 6.18 machine); 0: none (4.11) */
	unsigned compaction_proactiveness;
	/* mm/compaction.c, 6.9+ (Zi Yan, "enable compacting >0 order folios"
	 * and "add support for >0 order folio memory compaction"):
	 * isolate_migratepages_block() takes a large folio whole unless
	 * skip_isolation_on_order() (order >= the target order, or >=
	 * pageblock_order); the free scanner keeps free blocks at their
	 * order and compaction_alloc() splits one for a folio; a folio
	 * without a target is split and its pages migrated singly
	 * (migrate_pages_batch -ENOMEM -> try_split_folio). false: 6.1,
	 * which skips every compound page (compaction.c). */
	bool compaction_large_folios;
	/* mm/compaction.c PB_migrate_skip hints as 4.11 keeps them
	 * (update_pageblock_skip: a block is marked only when a whole scan
	 * of it isolated nothing; __reset_isolation_suitable clears every
	 * mark; kcompactd_do_work ignores them). false: 5.1+ (Mel Gorman,
	 * 2019: test_and_set_skip at a block's first isolation, the free
	 * scanner marks every block it scans whole, the reset samples each
	 * block, kcompactd reads them - David Rientjes, "kcompactd should
	 * not ignore pageblock skip", 2017). compaction.c. */
	bool compaction_skip_4_11;
	/* mm/page_alloc.c watermark_boost_factor: 15000 (5.0+), 0 = none (4.11) */
	unsigned watermark_boost_factor;
	/* mm/page-writeback.c vm_dirty_ratio and dirty_background_ratio,
	 * the global dirty limits a writer is paced by (page_writeback.c),
	 * in % of the dirtyable memory: 20 and 10 in every version here */
	unsigned dirty_ratio;
	unsigned dirty_background_ratio;
	/* fs/dcache.c __d_alloc: external names kmalloc'ed with
	 * __GFP_RECLAIMABLE (kmalloc-rcl-*, RECLAIMABLE pageblocks; 4.20+)
	 * rather than plain GFP_KERNEL_ACCOUNT (kmalloc-64, UNMOVABLE) */
	bool dname_reclaimable;
	/* fs/xfs/xfs_super.c: the xfs_ili cache has SLAB_RECLAIM_ACCOUNT
	 * (6.1 xfs_init_caches: true; 4.11 xfs_init_zones KM_ZONE_SPREAD
	 * only: false) */
	bool xfs_ili_reclaimable;
	/* mm/slub.c: how a cache's per-CPU partial lists are sized, which
	 * decides how many emptied slabs it keeps (enum cp_slub_partial,
	 * slab.h) */
	uint8_t slub_partial;
	/* How a SLAB_ACCOUNT object is charged to its memcg. 0: 4.11's
	 * per-memcg copy of the cache (memcg_kmem_get_cache) has its slab
	 * pages charged. > 0: 5.9+ obj_cgroup accounting ("The new cgroup
	 * slab memory controller", Roman Gushchin): each object is charged
	 * obj_full_size() = its slot size s->size + sizeof(struct
	 * obj_cgroup *), this many bytes (8 on 64-bit), through the per-CPU
	 * byte stock (mm/memcontrol.c obj_cgroup_charge, refill_obj_stock);
	 * the slab pages themselves are not charged. */
	unsigned slab_obj_charge_extra;
	/* fs/dcache.c where it differs from the filesystem profile's (0:
	 * take the fs profile's): DNAME_INLINE_LEN, offsetof(struct
	 * external_name, name[1]), and the kmalloc cache an fs_mark name
	 * (40 characters) lands in. */
	unsigned dname_inline_len;
	unsigned external_name_overhead;
	const char *external_name_cache;
	unsigned external_name_size;     /* its slot size, bytes */
	unsigned external_name_per_slab; /* objects per order-0 slab */
};

/* The built-in profiles, NULL-terminated, in a fixed order. */
extern const struct cp_kernel_profile *const cp_kernel_profiles[];

/* Finds a profile by name; NULL when there is none. */
const struct cp_kernel_profile *cp_kernel_profile_find(const char *name);

#endif /* CP_PROFILE_H */
