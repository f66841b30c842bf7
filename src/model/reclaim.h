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

struct cp_reclaim {
	struct cp_vmscan vm;
	struct cp_mem *mem;
	/* the engine's kswapd wake-up; NULL: kswapd is not running */
	void (*wake_kswapd)(void *priv);
	void *wake_priv;
	bool kswapd_wanted;      /* set by the allocator, cleared by kswapd */
	uint64_t nr_kswapd_runs;
};

void cp_reclaim_init(struct cp_reclaim *r, struct cp_mem *mem, struct cp_pagecache *pc,
		     struct cp_shrinker_registry *shrinkers, struct cp_vmstat *vmstat,
		     const struct cp_kernel_profile *profile);

/* Install r as the allocator's reclaim (cp_mem_set_hooks). */
void cp_reclaim_install(struct cp_reclaim *r);

/* pgdat_balanced(): free pages above the high watermark. */
bool cp_pgdat_balanced(const struct cp_reclaim *r);

/*
 * balance_pgdat(): kswapd's pass. From DEF_PRIORITY down, until free
 * memory is above the high watermark: one shrink_node() per step with
 * nr_to_reclaim = max(high watermark, SWAP_CLUSTER_MAX); keep the
 * priority while a step scanned at least nr_to_reclaim and reclaimed
 * something, else lower it. ctx is kswapd's (GFP_KERNEL). Returns the
 * pages reclaimed.
 */
uint64_t cp_balance_pgdat(struct cp_reclaim *r, struct cp_alloc_ctx *ctx);

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

#endif /* CP_RECLAIM_H */
