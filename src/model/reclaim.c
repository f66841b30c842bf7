/*
 * reclaim.c - who reclaims, how much, at which priorities.
 *
 * Models mm/vmscan.c balance_pgdat() + kswapd_shrink_node() (kswapd),
 * do_try_to_free_pages() (direct reclaim from __alloc_pages_slowpath)
 * and try_to_free_mem_cgroup_pages() (memcg limit reclaim), 4.11 and 6.1
 * (ref §9). kswapd is woken when an allocation fails the low watermark
 * and works until free memory is above the high watermark; a task that
 * finds free memory below min reclaims SWAP_CLUSTER_MAX pages itself with
 * its own gfp mask, which on XFS page-cache allocations lacks __GFP_FS so
 * the superblock shrinker only defers its share (ref §9.4).
 *
 * 6.1's snapshot_refaults(): at the end of a reclaim cycle the lruvec
 * remembers the refault-activation counter, so the next cycle deactivates
 * active pages only if refaults happened meanwhile (or the ratio is low).
 *
 * SIMPLIFIED: kswapd_failures and the kswapd sleep heuristics
 * (prepare_kswapd_sleep's short nap) are left to the engine's kswapd
 * actor; no compaction; one node.
 */
#include "model/reclaim.h"

#include <string.h>

#include "model/gfp.h"

void cp_reclaim_init(struct cp_reclaim *r, struct cp_mem *mem, struct cp_pagecache *pc,
		     struct cp_shrinker_registry *shrinkers, struct cp_vmstat *vmstat,
		     const struct cp_kernel_profile *profile)
{
	memset(r, 0, sizeof(*r));
	r->mem = mem;
	r->vm.pc = pc;
	r->vm.shrinkers = shrinkers;
	r->vm.vmstat = vmstat;
	r->vm.profile = profile;
}

bool cp_pgdat_balanced(const struct cp_reclaim *r)
{
	return r->mem->free_pages > r->mem->wmark.high;
}

static void snapshot_refaults(struct cp_reclaim *r)
{
	r->vm.pc->lruvec.refaults_at_last_cycle = r->vm.vmstat->v[CP_VM_WORKINGSET_ACTIVATE];
}

uint64_t cp_balance_pgdat(struct cp_reclaim *r, struct cp_alloc_ctx *ctx)
{
	struct cp_scan_control sc = {
		.priority = CP_DEF_PRIORITY,
		.gfp = CP_GFP_KERNEL,
		.is_kswapd = true,
		.ctx = ctx,
	};
	uint64_t total = 0, high = r->mem->wmark.high;

	r->kswapd_wanted = false;
	r->nr_kswapd_runs++;
	cp_count(r->vm.vmstat, CP_VM_PAGEOUTRUN, 1);
	do {
		bool raise_priority = true;

		if (cp_pgdat_balanced(r))
			break;
		sc.nr_reclaimed = 0;
		sc.nr_scanned = 0;
		/* kswapd_shrink_node() */
		sc.nr_to_reclaim = high > CP_SWAP_CLUSTER_MAX ? high : CP_SWAP_CLUSTER_MAX;
		cp_shrink_node(&r->vm, &sc);
		total += sc.nr_reclaimed;
		if (sc.nr_scanned >= sc.nr_to_reclaim)
			raise_priority = false;
		if (raise_priority || !sc.nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);
	snapshot_refaults(r);
	return total;
}

/* The priority loop shared by direct and memcg reclaim. */
static uint64_t do_try_to_free_pages(struct cp_reclaim *r, struct cp_scan_control *sc)
{
	do {
		sc->nr_scanned = 0;
		cp_shrink_node(&r->vm, sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
	} while (--sc->priority >= 0);
	snapshot_refaults(r);
	return sc->nr_reclaimed;
}

uint64_t cp_try_to_free_pages(struct cp_reclaim *r, struct cp_alloc_ctx *ctx)
{
	struct cp_scan_control sc = {
		.nr_to_reclaim = CP_SWAP_CLUSTER_MAX,
		.priority = CP_DEF_PRIORITY,
		.gfp = ctx->gfp,
		.ctx = ctx,
	};

	return do_try_to_free_pages(r, &sc);
}

uint64_t cp_try_to_free_mem_cgroup_pages(struct cp_reclaim *r, struct cp_memcg *memcg,
					 struct cp_alloc_ctx *ctx, uint64_t nr_pages)
{
	struct cp_scan_control sc = {
		.nr_to_reclaim = nr_pages > CP_SWAP_CLUSTER_MAX ? nr_pages : CP_SWAP_CLUSTER_MAX,
		.priority = CP_DEF_PRIORITY,
		.gfp = ctx->gfp,
		.target_memcg = memcg,
		.ctx = ctx,
	};

	return do_try_to_free_pages(r, &sc);
}

static void hook_wake(void *priv)
{
	struct cp_reclaim *r = priv;

	r->kswapd_wanted = true;
	if (r->wake_kswapd)
		r->wake_kswapd(r->wake_priv);
}

static uint64_t hook_direct(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr)
{
	(void)nr;
	return cp_try_to_free_pages(priv, ctx);
}

static uint64_t hook_memcg(void *priv, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
			   uint64_t nr)
{
	return cp_try_to_free_mem_cgroup_pages(priv, memcg, ctx, nr);
}

void cp_reclaim_install(struct cp_reclaim *r)
{
	struct cp_mem_hooks hooks = {
		.wake_kswapd = hook_wake,
		.direct_reclaim = hook_direct,
		.memcg_reclaim = hook_memcg,
		.priv = r,
	};

	cp_mem_set_hooks(r->mem, &hooks);
}
