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
 * kcompactd (compaction.c) is woken through a hook: at the end of a
 * boosted balance_pgdat() at pageblock_order, and by the kswapd actor
 * when it goes to sleep (kswapd_try_to_sleep).
 *
 * Zones (memory.h): the node is balanced when any zone is
 * (cp_pgdat_balanced), kswapd aims at the sum of the zones' high
 * watermarks, and a boosted run clears each zone's boost as it was at
 * the start (balance_pgdat's zone_boosts[], 6.1). Reclaim itself is
 * node-wide: one node LRU, whatever zone its pages are in.
 *
 * SIMPLIFIED: kswapd_failures and the kswapd sleep heuristics
 * (prepare_kswapd_sleep's short nap) are left to the engine's kswapd
 * actor; no direct compaction; one node.
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
	r->kswapd_sleeping = true;
	r->kswapd_highest_zoneidx = CP_KSWAPD_ZONE_UNSET;
}

/* pgdat_balanced() (6.1) / zone_balanced() over the eligible zones
 * (since 4.8, "mm, vmscan: make kswapd reclaim in terms of nodes": a
 * node is balanced when any eligible zone is; 4.11 keeps that rule,
 * without boosts): the node is balanced when ANY zone up to
 * highest_zoneidx passes zone_watermark_ok_safe() at its high watermark
 * (+ its boost) for the order, a zone below highest_zoneidx also
 * keeping its lowmem_reserve. */
bool cp_pgdat_balanced(const struct cp_reclaim *r, unsigned order, unsigned highest_zoneidx)
{
	const struct cp_mem *m = r->mem;
	unsigned i;

	for (i = 0; i < m->nr_zones && i <= highest_zoneidx; i++) {
		const struct cp_mem_zone *z = &m->zones[i];
		uint64_t mark = cp_zone_wmark_high(z) + (i < highest_zoneidx ? z->lowmem_reserve : 0);

		if (order == 0 ? z->free_pages > mark : cp_mem_zone_watermark_ok(m, i, order, mark))
			return true;
	}
	return false;
}

/* pgdat_watermark_boosted(): any zone up to highest_zoneidx boosted. */
bool cp_pgdat_watermark_boosted(const struct cp_reclaim *r, unsigned highest_zoneidx)
{
	unsigned i;

	for (i = 0; i < r->mem->nr_zones && i <= highest_zoneidx; i++)
		if (r->mem->zones[i].buddy.watermark_boost)
			return true;
	return false;
}

void cp_reclaim_wake_kcompactd(struct cp_reclaim *r, unsigned order)
{
	if (r->wake_kcompactd)
		r->wake_kcompactd(r->wake_kcompactd_priv, order);
}

static void snapshot_refaults(struct cp_reclaim *r)
{
	r->vm.pc->lruvec.refaults_at_last_cycle = r->vm.vmstat->v[CP_VM_WORKINGSET_ACTIVATE];
}

/* compact_gap(): reclaim this much before compaction has room to work */
static uint64_t compact_gap(unsigned order)
{
	return 2ull << order;
}

/* kswapd_shrink_node(): one shrink_node() aimed at the high watermark;
 * true when it scanned enough that the priority need not rise. */
static bool kswapd_shrink_node(struct cp_reclaim *r, struct cp_scan_control *sc, unsigned *order)
{
	unsigned i;

	/* each eligible zone's high watermark (+ boost), at least
	 * SWAP_CLUSTER_MAX */
	sc->nr_to_reclaim = 0;
	for (i = 0; i < r->mem->nr_zones && (!sc->zone_limited || i <= sc->reclaim_idx); i++) {
		uint64_t high = cp_zone_wmark_high(&r->mem->zones[i]);

		sc->nr_to_reclaim += high > CP_SWAP_CLUSTER_MAX ? high : CP_SWAP_CLUSTER_MAX;
	}
	cp_shrink_node(&r->vm, sc);
	if (*order && sc->nr_reclaimed >= compact_gap(*order))
		*order = 0;
	return sc->nr_scanned >= sc->nr_to_reclaim;
}

uint64_t cp_balance_pgdat(struct cp_reclaim *r, unsigned order, unsigned highest_zoneidx,
			  struct cp_alloc_ctx *ctx, unsigned *reclaim_order)
{
	struct cp_scan_control sc = {
		.gfp = CP_GFP_KERNEL,
		.is_kswapd = true,
		.ctx = ctx,
	};
	/* zone_boosts[]: each zone's boost when kswapd starts; their sum is
	 * the boosted reclaim's target */
	uint64_t zone_boosts[CP_MEM_MAX_ZONES] = { 0 };
	uint64_t boost = 0, nr_boost_reclaim;
	unsigned i;

	if (highest_zoneidx > cp_reclaim_top_zone(r))
		highest_zoneidx = cp_reclaim_top_zone(r);
	/* sc.reclaim_idx = highest_zoneidx: the eligible zones */
	sc.reclaim_idx = highest_zoneidx;
	sc.zone_limited = highest_zoneidx < cp_reclaim_top_zone(r);
	for (i = 0; i <= highest_zoneidx; i++) {
		zone_boosts[i] = r->mem->zones[i].buddy.watermark_boost;
		boost += zone_boosts[i];
	}
	nr_boost_reclaim = boost;

	r->kswapd_wanted = false;
	r->nr_kswapd_runs++;
	/* set_reclaim_active(): per-CPU lists shrink while kswapd works
	 * (cleared when kswapd sleeps, daemons.c) */
	cp_mem_set_reclaim_active(r->mem, true);
	cp_count(r->vm.vmstat, CP_VM_PAGEOUTRUN, 1);
restart:
	sc.priority = CP_DEF_PRIORITY;
	do {
		uint64_t before = sc.nr_reclaimed, nr_reclaimed;
		bool raise_priority = true;
		bool balanced = cp_pgdat_balanced(r, order, highest_zoneidx);

		if (!balanced && nr_boost_reclaim) {
			nr_boost_reclaim = 0;
			goto restart;
		}
		if (!nr_boost_reclaim && balanced)
			break;
		/* boosted reclaim never goes below DEF_PRIORITY - 2 */
		if (nr_boost_reclaim && sc.priority == CP_DEF_PRIORITY - 2)
			raise_priority = false;
		sc.nr_scanned = 0;
		if (kswapd_shrink_node(r, &sc, &order))
			raise_priority = false;
		nr_reclaimed = sc.nr_reclaimed - before;
		nr_boost_reclaim -= nr_boost_reclaim < nr_reclaimed ? nr_boost_reclaim : nr_reclaimed;
		if (nr_boost_reclaim && !nr_reclaimed)
			break;
		if (raise_priority || !nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);
	if (boost) {
		/* each eligible zone drops the boost it had at the start */
		for (i = 0; i <= highest_zoneidx; i++) {
			struct cp_buddy *b = &r->mem->zones[i].buddy;

			b->watermark_boost -= b->watermark_boost < zone_boosts[i] ? b->watermark_boost
										 : zone_boosts[i];
		}
		/* there is likely room now: defragment pageblocks */
		cp_reclaim_wake_kcompactd(r, CP_BUDDY_PAGEBLOCK_ORDER);
	}
	snapshot_refaults(r);
	if (reclaim_order)
		*reclaim_order = order;
	return sc.nr_reclaimed;
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

/* wakeup_kswapd(): remember the order and the highest zone index (the
 * largest since kswapd last read them); wake a sleeping kswapd unless
 * the zones up to highest_zoneidx are balanced at that order and not
 * boosted (then the kernel wakes kcompactd for an allocation without
 * __GFP_DIRECT_RECLAIM; the hook has no gfp: SIMPLIFIED, not modelled). */
static void hook_wake(void *priv, unsigned order, unsigned highest_zoneidx)
{
	struct cp_reclaim *r = priv;

	if (r->kswapd_highest_zoneidx == CP_KSWAPD_ZONE_UNSET ||
	    r->kswapd_highest_zoneidx < highest_zoneidx)
		r->kswapd_highest_zoneidx = highest_zoneidx;
	if (r->kswapd_order < order)
		r->kswapd_order = order;
	if (!r->kswapd_sleeping)
		return;
	if (cp_pgdat_balanced(r, order, highest_zoneidx) &&
	    !cp_pgdat_watermark_boosted(r, highest_zoneidx))
		return;
	r->nr_kswapd_wakeups[order]++;
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

static bool hook_compact(void *priv, struct cp_alloc_ctx *ctx, unsigned order)
{
	struct cp_reclaim *r = priv;

	return r->direct_compact(r->direct_compact_priv, ctx, order);
}

void cp_reclaim_install(struct cp_reclaim *r)
{
	struct cp_mem_hooks hooks = {
		.wake_kswapd = hook_wake,
		.direct_reclaim = hook_direct,
		.direct_compact = r->direct_compact ? hook_compact : NULL,
		.memcg_reclaim = hook_memcg,
		.priv = r,
	};

	cp_mem_set_hooks(r->mem, &hooks);
}
