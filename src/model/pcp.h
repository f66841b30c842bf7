/*
 * pcp.h - per-CPU page lists of one zone (mm/page_alloc.c struct
 * per_cpu_pages; the mechanism and what is SIMPLIFIED are in pcp.c).
 *
 * Pages on a pcp list are allocated pages as far as the buddy knows and
 * not free pages as far as NR_FREE_PAGES knows; memory.c counts them
 * under the owner CP_OWNER_PCP.
 *
 * Host memory: 8 bytes per page frame (list links) plus a few hundred
 * bytes per CPU.
 */
#ifndef CP_PCP_H
#define CP_PCP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/buddy.h"

struct cp_diag;

#define CP_PCP_COSTLY_ORDER 3 /* PAGE_ALLOC_COSTLY_ORDER: 6.1 pcp orders 0..3 */
#define CP_PCP_NR_LISTS (CP_MIGRATE_TYPES * (CP_PCP_COSTLY_ORDER + 1)) /* NR_LOWORDER_PCP_LISTS */
#define CP_PCP_BATCH_SCALE_MAX 5 /* CONFIG_PCP_BATCH_SCALE_MAX default */
#define CP_PCP_MAX_CPUS 4096

struct cp_pcp_list {
	uint32_t head, tail; /* pfns, CP_BUDDY_NONE when empty */
	uint32_t nr;         /* blocks on the list */
};

/* struct per_cpu_pages of one CPU. */
struct cp_pcp_cpu {
	struct cp_pcp_list lists[CP_PCP_NR_LISTS]; /* by order_to_pindex(mt, order) */
	uint64_t count;       /* pages (not blocks) on the lists */
	unsigned free_factor; /* 6.1: doubles the bulk free while only freeing */
	/* 6.7+ auto-tuning (cp_pcp.auto_tune; unused otherwise): */
	uint32_t high;        /* pcp->high, kept in [high_min, high_max] */
	unsigned alloc_factor; /* refill is batch << alloc_factor (order 0) */
	uint32_t free_count;  /* pages freed since the last allocation (halved by one) */
	bool prev_free_high_order; /* PCPF_PREV_FREE_HIGH_ORDER */
};

struct cp_pcp_params {
	uint32_t nr_pages;   /* zone size (pfn range of the links) */
	unsigned nr_cpus;    /* 1 .. CP_PCP_MAX_CPUS */
	bool kernel_4_11;    /* order 0 only, 4.11 batch/high and bulk-free rules */
	uint64_t managed_pages;   /* for zone_batchsize */
	uint64_t low_wmark_pages; /* for zone_highsize (6.1) */
	/* 6.7+ pcp high auto-tuning (high_min, high_max, alloc_factor,
	 * free_count, ZONE_BELOW_HIGH, decay_pcp_high); not with 4.11 */
	bool auto_tune;
};

struct cp_pcp {
	unsigned nr_cpus;
	unsigned max_order;  /* highest order on pcp lists: 0 (4.11) or 3 */
	bool kernel_4_11;
	uint32_t batch, high; /* pcp->batch, pcp->high (pageset_update) */
	uint32_t nr_pages;
	uint32_t *next, *prev; /* per pfn: links of a block on a pcp list */
	struct cp_pcp_cpu *cpus;
	uint64_t nr_held_pages; /* invariant: sum of cpus[].count */
	bool reclaim_active;    /* ZONE_RECLAIM_ACTIVE: high capped at 4 * batch */
	/* 6.7+ auto-tuning: per-CPU high moves in [high_min, high_max]
	 * (high above is then high_min, the boot value clamped) */
	bool auto_tune;
	uint32_t high_min, high_max;
	bool below_high;        /* ZONE_BELOW_HIGH (memory.c sets and clears it) */

	/* Events. */
	uint64_t nr_refills;        /* rmqueue_bulk calls */
	uint64_t nr_refill_pages;   /* pages they moved from the buddy */
	uint64_t nr_bulk_frees;     /* free_pcppages_bulk calls at high */
	uint64_t nr_bulk_free_pages;
	uint64_t nr_drains;         /* drain_all_pages calls */
	uint64_t nr_decay_pages;    /* auto_tune: pages decay_pcp_high gave back */
};

/* zone_batchsize(): 6.1 min(managed >> 10, 256) / 4, 4.11 the same
 * with 128 (512 KiB) as the cap, then at least 1, rounded to
 * rounddown_pow_of_two(b + b / 2) - 1. */
uint32_t cp_pcp_zone_batchsize(uint64_t managed_pages, bool kernel_4_11);

/* pcp->high: 4.11 pageset_set_batch() 6 * batch; 6.1 zone_highsize()
 * with percpu_pagelist_high_fraction 0: max(low_wmark / nr_cpus,
 * 4 * batch). */
uint32_t cp_pcp_zone_highsize(uint32_t batch, uint64_t low_wmark_pages, unsigned nr_cpus,
			      bool kernel_4_11);

/* 6.7+ high_max: zone_highsize() with MIN_PERCPU_PAGELIST_HIGH_FRACTION
 * (8): max(managed / 8 / nr_cpus, 4 * batch). */
uint32_t cp_pcp_zone_highsize_max(uint32_t batch, uint64_t managed_pages, unsigned nr_cpus);

/* Empty lists on every CPU, batch and high from the zone. 0, -CP_EINVAL
 * (nr_cpus 0 or too many, nr_pages 0; diag says which) or -CP_ENOMEM;
 * on failure p needs no release. */
int cp_pcp_init(struct cp_pcp *p, const struct cp_pcp_params *pp, struct cp_diag *diag);

void cp_pcp_release(struct cp_pcp *p);

/* pcp_allowed_order(): the order goes through the pcp lists. */
bool cp_pcp_allowed_order(const struct cp_pcp *p, unsigned order);

/*
 * rmqueue_pcplist() on cpu: halve free_factor (auto_tune: free_count);
 * when the (mt, order) list is empty refill it with rmqueue_bulk(): up
 * to batch >> order (at least 2; 4.11 batch; auto_tune nr_pcp_alloc())
 * blocks from the buddy (cp_buddy_alloc with
 * alloc_flags, so fallbacks and boosts happen there), stopping at the
 * first failure, or when a block more would leave fewer than
 * keep_free_pages free in the buddy (a model guard, see pcp.c); then
 * take the list's first block. 0 and *pfn, or -CP_ENOSPC (the refill got
 * nothing; nothing changed but free_factor).
 */
int cp_pcp_alloc(struct cp_pcp *p, struct cp_buddy *b, int cpu, unsigned order,
		 enum cp_migratetype mt, unsigned alloc_flags, uint64_t keep_free_pages,
		 uint32_t *pfn);

/*
 * free_unref_page() -> free_unref_page_commit() on cpu: the block goes
 * to the head of the list of (its pageblock's migratetype, order); when
 * the CPU's count reaches high, free_pcppages_bulk() gives nr_pcp_free()
 * pages (4.11: batch) back to the buddy (auto_tune: the 6.7+
 * nr_pcp_high() / nr_pcp_free() rules, see pcp.c). The block must be allocated in
 * the buddy at that order and allowed on pcp.
 */
void cp_pcp_free(struct cp_pcp *p, struct cp_buddy *b, int cpu, uint32_t pfn, unsigned order);

/*
 * decay_pcp_high() for every CPU (auto_tune only; else nothing): the
 * vmstat worker's once-a-second step. A high above high_min becomes
 * max(count - (batch << 5), high - high / 8, high_min); then count -
 * high pages go back to the buddy, batch at a time from list 0 on.
 * Returns the pages given back.
 */
uint64_t cp_pcp_decay_high(struct cp_pcp *p, struct cp_buddy *b);

/* pcp->high of cpu: auto_tune the CPU's own, else the zone's. */
uint32_t cp_pcp_high(const struct cp_pcp *p, int cpu);

/* The sum of pcp->high over the CPUs (auto_tune), else nr_cpus * high. */
uint64_t cp_pcp_high_sum(const struct cp_pcp *p);

/* drain_all_pages(): every CPU's lists back to the buddy. Returns the
 * pages given back. */
uint64_t cp_pcp_drain_all(struct cp_pcp *p, struct cp_buddy *b);

/* Pages on cpu's lists (pcp->count). */
uint64_t cp_pcp_count(const struct cp_pcp *p, int cpu);

/* Blocks on cpu's (mt, order) list. */
uint32_t cp_pcp_nr_blocks(const struct cp_pcp *p, int cpu, enum cp_migratetype mt,
			  unsigned order);

/* Invariants: list links consistent, list counts equal list lengths,
 * CPU counts equal the pages of their lists, their sum nr_held_pages,
 * every block on a list is an allocated block of the buddy at the
 * list's order. O(pages held). */
bool cp_pcp_check(const struct cp_pcp *p, const struct cp_buddy *b);

#endif /* CP_PCP_H */
