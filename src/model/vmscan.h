/*
 * vmscan.h - page reclaim for one node: shrink_node() and the file LRU
 * scanning below it (mm/vmscan.c).
 */
#ifndef CP_VMSCAN_H
#define CP_VMSCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/pagecache.h"
#include "model/profile.h"
#include "model/shrinker.h"

#define CP_DEF_PRIORITY 12      /* include/linux/mmzone.h */
#define CP_SWAP_CLUSTER_MAX 32  /* include/linux/swap.h */

/* struct scan_control: one reclaim invocation. */
struct cp_scan_control {
	uint64_t nr_to_reclaim;
	uint64_t nr_reclaimed;
	uint64_t nr_scanned;      /* pages through shrink_page_list */
	int priority;             /* 12 .. 0 */
	unsigned gfp;             /* reclaimer's context (shrinkers check __GFP_FS) */
	struct cp_memcg *target_memcg; /* NULL: global reclaim */
	bool is_kswapd;
	bool may_deactivate_file; /* 6.1 prepare_scan_count() */
	/* 5.9+: an active list left alone because may_deactivate_file was
	 * false (shrink_list's sc->skipped_deactivate), and the retry that
	 * deactivates whatever the heuristics say (sc->force_deactivate) */
	bool skipped_deactivate;
	bool force_deactivate;
	/* 6.10+: the retry as a full walk of the cgroup tree
	 * (sc->memcg_full_walk; one lruvec here, so only the retry shows) */
	bool memcg_full_walk;
	unsigned nr_walks;        /* priority loops run (1 + retries) */
	struct cp_alloc_ctx *ctx; /* reclaimer: CPU for lru_add_drain, work counters */
	/* sc->reclaim_idx below the top zone (kswapd woken for a lower
	 * zone): isolation skips the pages of zones above reclaim_idx
	 * (cp_mem.zones[] index). false: every zone is eligible. */
	bool zone_limited;
	unsigned reclaim_idx;
};

struct cp_vmscan {
	struct cp_pagecache *pc;
	struct cp_shrinker_registry *shrinkers;
	struct cp_vmstat *vmstat;
	const struct cp_kernel_profile *profile;
	/* global reclaim: the run's tasks are in a child memcg of the root
	 * (machine tasks_in_child_memcg), so shrink_node_memcgs() calls
	 * shrink_slab() for the root first (CP_MEMCG_EMPTY_ROOT) and then
	 * for the child (memcg 0, where the model keeps the objects) */
	bool tasks_in_child_memcg;
};

/* inactive_list_is_low() / inactive_is_low() for the file lists:
 * ratio = int_sqrt(10 * GiB) (1 below 1 GiB); low when
 * inactive * ratio < active. */
bool cp_inactive_file_is_low(const struct cp_pagecache *pc);

/* shrink_active_list(): deactivate whole folios, about nr_to_scan pages
 * (isolation may pass it by part of a folio), from the
 * active tail to the inactive head. Returns pages deactivated. */
uint64_t cp_shrink_active_list(struct cp_vmscan *vm, uint64_t nr_to_scan,
			       struct cp_scan_control *sc);

/* shrink_inactive_list(): isolate whole folios while fewer than
 * nr_to_scan (at most SWAP_CLUSTER_MAX) pages are taken, from the
 * inactive tail and reclaim the clean unmapped ones (all of ours) but
 * those the read() in progress holds (CP_PG_HELD), which go back to the
 * inactive head. Returns pages reclaimed. */
uint64_t cp_shrink_inactive_list(struct cp_vmscan *vm, uint64_t nr_to_scan,
				 struct cp_scan_control *sc);

/* shrink_node() in progress (kswapd takes it a turn per step): what
 * get_scan_count() left to scan of each list, and what the pass has
 * reclaimed and scanned so far. */
struct cp_shrink_node_walk {
	uint64_t nr[CP_NR_LRU];  /* pages left to scan, per list */
	uint64_t lru_pages;      /* the lists' sizes get_scan_count() saw */
	uint64_t nr_reclaimed;   /* by this pass's LRU scanning */
	uint64_t scanned_before; /* sc->nr_scanned at the start */
	uint64_t steal_before;   /* inode-steal pages at the start */
	bool scan_adjusted;      /* scan the whole target, reclaimed or not */
};

/* shrink_node() a step at a time: _begin() decides the pass (6.1
 * prepare_scan_count(), get_scan_count()); each _turn() scans up to
 * SWAP_CLUSTER_MAX pages of each list and returns false once the pass's
 * LRU scanning is over (targets met, or nr_to_reclaim reclaimed);
 * _end() calls shrink_slab() with the pressure the pass produced and adds
 * the pass's reclaimed pages (with reclaimed_slab) to sc->nr_reclaimed. */
void cp_shrink_node_begin(struct cp_vmscan *vm, struct cp_scan_control *sc,
			  struct cp_shrink_node_walk *walk);
bool cp_shrink_node_turn(struct cp_vmscan *vm, struct cp_scan_control *sc,
			 struct cp_shrink_node_walk *walk);
void cp_shrink_node_end(struct cp_vmscan *vm, struct cp_scan_control *sc,
			struct cp_shrink_node_walk *walk);

/* shrink_node(): one pass of page scanning at sc->priority
 * (get_scan_count + shrink_node_memcg/shrink_lruvec), then shrink_slab
 * with the pressure that pass produced. Adds to sc->nr_reclaimed and
 * sc->nr_scanned. */
void cp_shrink_node(struct cp_vmscan *vm, struct cp_scan_control *sc);

#endif /* CP_VMSCAN_H */
