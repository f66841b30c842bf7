/*
 * vmstat.h - event counters named as in /proc/vmstat, so the model's
 * reports and the real harness's share keys (mm/vmstat.c vmstat_text).
 */
#ifndef CP_VMSTAT_H
#define CP_VMSTAT_H

#include <stdint.h>

/* X-macro: enum value and /proc/vmstat name (cp_* are the model's own
 * counters with no vmstat twin). Reports sort by name themselves. */
#define CP_VMSTAT_ITEMS(X) \
	X(ALLOCSTALL, "allocstall") \
	X(BUFFER_HEADS_ALLOCATED, "cp_buffer_heads_allocated") \
	X(BUFFER_HEADS_FREED, "cp_buffer_heads_freed") \
	X(KCOMPACTD_FAIL, "cp_compact_daemon_fail") \
	X(KCOMPACTD_SUCCESS, "cp_compact_daemon_success") \
	X(KSWAPD_CPU_NS, "cp_kswapd_cpu_ns") \
	X(KSWAPD_SHRINK_NODE_AGAIN, "cp_kswapd_shrink_node_again") \
	X(KCOMPACTD_CPU_NS, "cp_kcompactd_cpu_ns") \
	X(DENTRIES_ALLOCATED, "cp_dentries_allocated") \
	X(DENTRIES_FREED, "cp_dentries_freed") \
	X(EXTFRAG, "cp_extfrag") \
	X(EXTFRAG_FRAGMENTING, "cp_extfrag_fragmenting") \
	X(EXTFRAG_STEAL, "cp_extfrag_steal") \
	X(HIGHORDER_NOFIT, "cp_highorder_nofit") \
	X(INODES_ALLOCATED, "cp_inodes_allocated") \
	X(INODES_EVICTED, "cp_inodes_evicted") \
	X(INODES_FREED, "cp_inodes_freed") \
	X(INODES_INIT, "cp_inodes_init") \
	X(OOM, "cp_oom") \
	X(PAGEBLOCKS_CLAIMED, "cp_pageblocks_claimed") \
	X(PCP_BULK_FREE_PAGES, "cp_pcp_bulk_free_pages") \
	X(PCP_DRAIN, "cp_pcp_drain") \
	X(PCP_REFILL_PAGES, "cp_pcp_refill_pages") \
	X(PGSCAN_MEMCG, "cp_pgscan_memcg") \
	X(MEMCG_RECLAIMS, "cp_memcg_reclaims") \
	X(MEMCG_RECLAIMS_FS, "cp_memcg_reclaims_fs") \
	X(MEMCG_RECLAIMS_PRIO12, "cp_memcg_reclaims_prio12") \
	X(MEMCG_RECLAIMS_DEEP, "cp_memcg_reclaims_deep") \
	X(MEMCG_RECLAIM_RESTARTS, "cp_memcg_reclaim_restarts") \
	X(MEMCG_RECLAIMED_FS, "cp_memcg_reclaimed_fs") \
	X(MEMCG_RECLAIMS_FS_PRIO12, "cp_memcg_reclaims_fs_prio12") \
	X(MEMCG_RECLAIMS_FS_DEEP, "cp_memcg_reclaims_fs_deep") \
	X(PGSTEAL_MEMCG, "cp_pgsteal_memcg") \
	X(RA_FOLIO_ALLOC, "cp_ra_folio_alloc") \
	X(RA_FOLIO_FAIL, "cp_ra_folio_fail") \
	X(RA_FOLIO_PAGES, "cp_ra_folio_pages") \
	X(SB_OBJECTS_FREED, "cp_sb_objects_freed") \
	X(WATERMARK_BOOST, "cp_watermark_boost") \
	X(COMPACT_DAEMON_FREE_SCANNED, "compact_daemon_free_scanned") \
	X(COMPACT_DAEMON_MIGRATE_SCANNED, "compact_daemon_migrate_scanned") \
	X(COMPACT_DAEMON_WAKE, "compact_daemon_wake") \
	X(COMPACT_FREE_SCANNED, "compact_free_scanned") \
	X(COMPACT_FAIL, "compact_fail") \
	X(COMPACT_ISOLATED, "compact_isolated") \
	X(COMPACT_MIGRATE_SCANNED, "compact_migrate_scanned") \
	X(COMPACT_STALL, "compact_stall") \
	X(COMPACT_SUCCESS, "compact_success") \
	X(KSWAPD_HIGH_WMARK_HIT_QUICKLY, "kswapd_high_wmark_hit_quickly") \
	X(KSWAPD_INODESTEAL, "kswapd_inodesteal") \
	X(KSWAPD_LOW_WMARK_HIT_QUICKLY, "kswapd_low_wmark_hit_quickly") \
	X(PAGEOUTRUN, "pageoutrun") \
	X(PGACTIVATE, "pgactivate") \
	X(PGALLOC_DMA32, "pgalloc_dma32") \
	X(PGALLOC_NORMAL, "pgalloc_normal") \
	X(PGDEACTIVATE, "pgdeactivate") \
	X(PGINODESTEAL, "pginodesteal") \
	X(PGMIGRATE_SUCCESS, "pgmigrate_success") \
	X(PGREFILL, "pgrefill") \
	X(PGSCAN_DIRECT, "pgscan_direct") \
	X(PGSCAN_KSWAPD, "pgscan_kswapd") \
	X(PGSKIP_NORMAL, "pgskip_normal") \
	X(PGSTEAL_DIRECT, "pgsteal_direct") \
	X(PGSTEAL_KSWAPD, "pgsteal_kswapd") \
	/* readahead windows and folio orders on reads (filemap.c), named \
	 * as the real harness's counts from the readahead tracepoints */ \
	X(RA_ASYNC_CALLS, "ra_async_calls") \
	X(RA_PAGES_ORDER_2TO5, "ra_pages_order_2to5") \
	X(RA_PAGES_ORDER_6TO9, "ra_pages_order_6to9") \
	X(RA_SYNC_CALLS, "ra_sync_calls") \
	X(SLABS_SCANNED, "slabs_scanned") \
	/* fallbacks whose pageblock ends up of the request's type (buddy.c), \
	 * named as the real harness's counts from kmem:mm_page_alloc_extfrag \
	 * with change_ownership=1 */ \
	X(EXTFRAG_CLAIM, "extfrag_claim") \
	X(EXTFRAG_CLAIM_MOVABLE, "extfrag_claim_movable") \
	X(WORKINGSET_ACTIVATE, "workingset_activate_file") \
	X(WORKINGSET_REFAULT, "workingset_refault_file") \
	X(WORKINGSET_RESTORE, "workingset_restore_file")

#define CP_VMSTAT_ENUM(e, name) CP_VM_##e,
enum cp_vmstat_item { CP_VMSTAT_ITEMS(CP_VMSTAT_ENUM) CP_NR_VMSTAT };
#undef CP_VMSTAT_ENUM

struct cp_vmstat {
	uint64_t v[CP_NR_VMSTAT];
};

/* The /proc/vmstat-style name of item i. */
const char *cp_vmstat_name(enum cp_vmstat_item i);

static inline void cp_count(struct cp_vmstat *vs, enum cp_vmstat_item i, uint64_t n)
{
	vs->v[i] += n;
}

#endif /* CP_VMSTAT_H */
