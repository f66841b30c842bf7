/*
 * reclaim.h - the entry points of reclaim: kswapd, direct reclaim, memcg
 * limit reclaim (mm/vmscan.c balance_pgdat, do_try_to_free_pages,
 * try_to_free_mem_cgroup_pages).
 */
#ifndef CP_RECLAIM_H
#define CP_RECLAIM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/vmscan.h"

#define CP_KSWAPD_ZONE_UNSET UINT32_MAX

struct cp_reclaim {
	struct cp_vmscan vm;
	struct cp_mem *mem;
	/* the engine's kswapd wake-up; NULL: kswapd is not running */
	void (*wake_kswapd)(void *priv);
	void *wake_priv;
	bool kswapd_wanted;      /* set by the allocator, cleared by kswapd */
	/* waitqueue_active(&pgdat->kswapd_wait): kswapd is asleep (the
	 * kswapd actor clears it when woken and sets it when it sleeps;
	 * without an actor it stays true) */
	bool kswapd_sleeping;
	unsigned kswapd_order;   /* pgdat->kswapd_order: the largest order asked */
	/* pgdat->kswapd_highest_zoneidx: the highest zone (cp_mem.zones[]
	 * index) any wake-up since kswapd last read it asked for, or
	 * CP_KSWAPD_ZONE_UNSET (the kernel's MAX_NR_ZONES) */
	unsigned kswapd_highest_zoneidx;
	/* wakeup_kcompactd(pgdat, order); NULL: compaction not installed */
	void (*wake_kcompactd)(void *priv, unsigned order);
	void *wake_kcompactd_priv;
	/* __alloc_pages_direct_compact() for the allocator (cp_mem_hooks
	 * direct_compact), if set: true when compaction ran */
	bool (*direct_compact)(void *priv, struct cp_alloc_ctx *ctx, unsigned order);
	void *direct_compact_priv;
	uint64_t nr_kswapd_runs;
	uint64_t nr_kswapd_wakeups[CP_BUDDY_MAX_ORDER]; /* wake-ups by order */
};

void cp_reclaim_init(struct cp_reclaim *r, struct cp_mem *mem, struct cp_pagecache *pc,
		     struct cp_shrinker_registry *shrinkers, struct cp_vmstat *vmstat,
		     const struct cp_kernel_profile *profile);

/* Install r as the allocator's reclaim (cp_mem_set_hooks). */
void cp_reclaim_install(struct cp_reclaim *r);

/* pgdat_balanced(pgdat, order, highest_zoneidx): some zone up to
 * highest_zoneidx meets its high watermark (with its boost, and a lower
 * zone's lowmem_reserve against highest_zoneidx) for an allocation of
 * this order - for order > 0 a free block of at least that order must
 * exist there. */
bool cp_pgdat_balanced(const struct cp_reclaim *r, unsigned order, unsigned highest_zoneidx);

/* wakeup_kcompactd(pgdat, order) through r->wake_kcompactd, if set
 * (kswapd_try_to_sleep() calls it with the order kswapd was asked for). */
void cp_reclaim_wake_kcompactd(struct cp_reclaim *r, unsigned order);

/* prepare_kswapd_sleep(): kswapd may sleep when the node is hopeless
 * (kswapd_failures at MAX_RECLAIM_RETRIES) or balanced at the order its
 * reclaim ended at. */
bool cp_prepare_kswapd_sleep(const struct cp_reclaim *r, bool hopeless, unsigned reclaim_order,
			     unsigned highest_zoneidx);

/* kswapd_try_to_sleep() after its short sleep, schedule_timeout(HZ/10)
 * (every kernel since 2.6.3x): woken during it (an allocation found free
 * memory below the low watermark again within 100 ms), it counts
 * KSWAPD_LOW_WMARK_HIT_QUICKLY, raises kswapd_order to the order its last
 * reclaim ended at and reclaims again; not woken, it sleeps until woken
 * if prepare_kswapd_sleep() still allows (true), else counts
 * KSWAPD_HIGH_WMARK_HIT_QUICKLY and reclaims again at once (false). */
bool cp_kswapd_nap_end(struct cp_reclaim *r, bool woken, bool hopeless, unsigned reclaim_order,
		       unsigned highest_zoneidx);

/* The orders and zone index kswapd_try_to_sleep() gets after a
 * balance_pgdat() run (kswapd(), every kernel since 4.8). */
struct cp_kswapd_orders {
	unsigned alloc_order;     /* the order kcompactd is woken for */
	unsigned reclaim_order;   /* the order the sleep test checks */
	unsigned highest_zoneidx;
};

/*
 * kswapd()'s loop once balance_pgdat() returned: a run that ended below
 * the order it was asked (compact_gap() reclaimed, sc.order dropped to
 * 0) goes to kswapd_try_sleep with both orders as they were; a run that
 * ended at its order goes round the loop, whose top reads the order and
 * zone index asked since the run began into alloc_order and
 * reclaim_order alike - without clearing them (only the read after the
 * sleep does: kswapd_begin_run). So a high-order request that found
 * kswapd running (wakeup_kswapd() raises pgdat->kswapd_order whether or
 * not kswapd sleeps) is what the sleep test checks next: unless the
 * node is balanced at that order there is no nap and the next run is
 * at that order.
 */
void cp_kswapd_loop_top(const struct cp_reclaim *r, struct cp_kswapd_orders *o);

/* pgdat_watermark_boosted(): a zone up to highest_zoneidx carries a
 * watermark boost. */
bool cp_pgdat_watermark_boosted(const struct cp_reclaim *r, unsigned highest_zoneidx);

/* The top zone's index: the highest_zoneidx of every allocation the
 * model makes (and of direct reclaim). */
static inline unsigned cp_reclaim_top_zone(const struct cp_reclaim *r)
{
	return r->mem->nr_zones - 1;
}

/*
 * balance_pgdat(pgdat, order): kswapd's pass. From DEF_PRIORITY down,
 * until the zone is balanced at sc.order: one shrink_node() per step
 * with nr_to_reclaim = max(high watermark, SWAP_CLUSTER_MAX)
 * (kswapd_shrink_node); once compact_gap(order) = 2 << order pages are
 * reclaimed, sc.order drops to 0; keep the priority while a step scanned
 * at least nr_to_reclaim and reclaimed something, else lower it. A
 * boosted zone (5.0+) is reclaimed until the boost's worth of pages is
 * freed even when balanced, never below priority DEF_PRIORITY - 2, and
 * the boost is cleared at the end; an unbalanced zone drops the boost
 * reclaim and restarts. Only zones up to highest_zoneidx count (balance,
 * boosts, the target) and sc.reclaim_idx = highest_zoneidx: the LRU
 * scan skips the pages of higher zones (isolate_lru_folios). ctx is
 * kswapd's (GFP_KERNEL). Returns the pages reclaimed; *reclaim_order
 * (may be NULL) gets sc.order at the end.
 */
uint64_t cp_balance_pgdat(struct cp_reclaim *r, unsigned order, unsigned highest_zoneidx,
			  struct cp_alloc_ctx *ctx, unsigned *reclaim_order);

/*
 * balance_pgdat() as kswapd runs it, a SWAP_CLUSTER_MAX batch at a time:
 * the kernel's kswapd evicts batch after batch over its CPU time while
 * the tasks that woke it go on allocating and touching pages; the engine
 * applies a step's changes when the step starts and charges its time
 * after, so one step per batch spreads the run's evictions as the
 * kernel's are (ref §9.2). _begin() starts a run (the arguments of
 * cp_balance_pgdat()); each _step() does one unit - one turn of
 * shrink_lruvec()'s loop (up to SWAP_CLUSTER_MAX pages of each file
 * list), with the end of a pass (shrink_slab, the priority decision) in
 * the step of its last turn - and returns false once the run is over.
 * cp_balance_pgdat() is _begin() plus _step() until false: a run taken
 * in steps with nothing else happening between them is the same run.
 */
struct cp_balance_pgdat {
	struct cp_scan_control sc;
	struct cp_shrink_node_walk walk; /* the pass in progress */
	uint64_t zone_boosts[CP_MEM_MAX_ZONES];
	uint64_t boost;            /* the boosts' sum at the start */
	uint64_t nr_boost_reclaim; /* boost still to reclaim */
	uint64_t pass_reclaimed_before;
	uint64_t round_reclaimed_before; /* at the start of the shrink_node() round */
	unsigned order;            /* sc.order: drops to 0 after compact_gap */
	unsigned highest_zoneidx;
	bool raise_priority;       /* this pass lowers the priority */
	bool in_pass;              /* a shrink_node() pass is under way */
	bool done;
};

void cp_balance_pgdat_begin(struct cp_reclaim *r, struct cp_balance_pgdat *bp, unsigned order,
			    unsigned highest_zoneidx, struct cp_alloc_ctx *ctx);
bool cp_balance_pgdat_step(struct cp_reclaim *r, struct cp_balance_pgdat *bp);

/*
 * do_try_to_free_pages(): direct reclaim in the allocating task's context:
 * shrink_node() at priority 12, 11, ... until SWAP_CLUSTER_MAX pages are
 * reclaimed. The task's gfp decides whether the superblock shrinker runs.
 * Returns pages reclaimed.
 */
uint64_t cp_try_to_free_pages(struct cp_reclaim *r, struct cp_alloc_ctx *ctx);

/* try_to_free_mem_cgroup_pages(): the same loop aimed at memcg, with
 * nr_to_reclaim = max(nr_pages, SWAP_CLUSTER_MAX). */
uint64_t cp_try_to_free_mem_cgroup_pages(struct cp_reclaim *r, struct cp_memcg *memcg,
					 struct cp_alloc_ctx *ctx, uint64_t nr_pages);

/* The same a priority level at a time, for a task whose reclaim other
 * tasks run beside (cp_memcg_stepped): begin sets sc up (and counts the
 * entry), each step shrinks at one level; false when the reclaim is
 * over (sc->nr_reclaimed its result). */
void cp_memcg_reclaim_begin(struct cp_reclaim *r, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
			    uint64_t nr_pages, struct cp_scan_control *sc);
bool cp_memcg_reclaim_step(struct cp_reclaim *r, struct cp_scan_control *sc);

#endif /* CP_RECLAIM_H */
