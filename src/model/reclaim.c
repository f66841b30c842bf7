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
 * kswapd's balance_pgdat() is a resumable run taken a SWAP_CLUSTER_MAX
 * batch per step (cp_balance_pgdat_step), so its evictions spread over
 * its CPU time as the kernel's do.
 *
 * 6.1's snapshot_refaults(): at the end of a reclaim cycle the lruvec
 * remembers the refault-activation counter, so the next cycle deactivates
 * active pages only if refaults happened meanwhile (or the ratio is low);
 * on 6.x it remembers the counter as the last memcg statistics flush left
 * it (memcg_stats.c). A direct or memcg reclaim that got nothing while it
 * skipped deactivation retries with force_deactivate (5.9+).
 *
 * shrink_node()'s reclaim/compaction loop (should_continue_reclaim(),
 * kswapd only): a run for an order above 0 - costly (> 3), or any
 * order once the priority is below DEF_PRIORITY - 2 - goes round
 * shrink_node() again at the same priority, slab included, until a
 * round reclaims nothing, a zone is ready for compaction, or the
 * inactive list is no larger than compact_gap(order) (the profile's
 * continue_rule: 4.11 tests the gap first). Direct and memcg reclaim
 * are order 0 here, so for them the loop never repeats.
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
 * kswapd_try_to_sleep()'s decisions (prepare_kswapd_sleep, the end of
 * the HZ/10 nap: cp_kswapd_nap_end) are here; the nap itself and
 * kswapd_failures belong to the engine's kswapd actor (sim/daemons.c).
 *
 * SIMPLIFIED: one node; direct compaction is memory.c's slow path's
 * (through the direct_compact hook), not reclaim's.
 */
#include "model/reclaim.h"

#include <string.h>

#include "model/compaction.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memcg_stats.h"

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

bool cp_prepare_kswapd_sleep(const struct cp_reclaim *r, bool hopeless, unsigned reclaim_order,
			     unsigned highest_zoneidx)
{
	return hopeless || cp_pgdat_balanced(r, reclaim_order, highest_zoneidx);
}

bool cp_kswapd_nap_end(struct cp_reclaim *r, bool woken, bool hopeless, unsigned reclaim_order,
		       unsigned highest_zoneidx)
{
	if (woken) {
		/* woken prematurely: the wake-up's order, or the previous
		 * request's that slept prematurely */
		if (r->kswapd_order < reclaim_order)
			r->kswapd_order = reclaim_order;
		cp_count(r->vm.vmstat, CP_VM_KSWAPD_LOW_WMARK_HIT_QUICKLY, 1);
		return false;
	}
	if (cp_prepare_kswapd_sleep(r, hopeless, reclaim_order, highest_zoneidx))
		return true;
	cp_count(r->vm.vmstat, CP_VM_KSWAPD_HIGH_WMARK_HIT_QUICKLY, 1);
	return false;
}

void cp_kswapd_loop_top(const struct cp_reclaim *r, struct cp_kswapd_orders *o)
{
	if (o->reclaim_order < o->alloc_order)
		return;
	o->alloc_order = o->reclaim_order = r->kswapd_order;
	/* kswapd_highest_zoneidx(pgdat, prev): the one asked, else prev */
	if (r->kswapd_highest_zoneidx != CP_KSWAPD_ZONE_UNSET)
		o->highest_zoneidx = r->kswapd_highest_zoneidx;
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
	r->vm.pc->lruvec.refaults_at_last_cycle =
		cp_lruvec_page_state(r->vm.pc, CP_LRUVEC_WORKINGSET_ACTIVATE);
}

/* compact_gap(): reclaim this much before compaction has room to work */
static uint64_t compact_gap(unsigned order)
{
	return 2ull << order;
}

/* kswapd_shrink_node(), first half: aim one shrink_node() at each
 * eligible zone's high watermark (+ boost), at least SWAP_CLUSTER_MAX a
 * zone. */
static void kswapd_shrink_node_begin(struct cp_reclaim *r, struct cp_balance_pgdat *bp)
{
	struct cp_scan_control *sc = &bp->sc;
	unsigned i;

	sc->nr_to_reclaim = 0;
	for (i = 0; i < r->mem->nr_zones && (!sc->zone_limited || i <= sc->reclaim_idx); i++) {
		uint64_t high = cp_zone_wmark_high(&r->mem->zones[i]);

		sc->nr_to_reclaim += high > CP_SWAP_CLUSTER_MAX ? high : CP_SWAP_CLUSTER_MAX;
	}
	sc->nr_scanned = 0;
	bp->round_reclaimed_before = sc->nr_reclaimed;
	cp_shrink_node_begin(&r->vm, sc, &bp->walk);
}

/* in_reclaim_compaction(): a reclaimer for a high order, costly or
 * under pressure. */
static bool in_reclaim_compaction(const struct cp_balance_pgdat *bp)
{
	return bp->order && (bp->order > CP_PAGE_ALLOC_COSTLY_ORDER ||
			     bp->sc.priority < CP_DEF_PRIORITY - 2);
}

/* The zones up to reclaim_idx: true when one is ready for compaction or
 * would already satisfy the order (compaction_suitable() SUCCESS or
 * CONTINUE, a lower zone keeping its lowmem_reserve). */
static bool compaction_ready_somewhere(const struct cp_reclaim *r, const struct cp_balance_pgdat *bp)
{
	unsigned i;

	for (i = 0; i < r->mem->nr_zones && i <= bp->highest_zoneidx; i++) {
		enum cp_compact_result res =
			cp_compaction_suitable(r->mem, i, bp->order, i < bp->highest_zoneidx);

		if (res == CP_COMPACT_SUCCESS || res == CP_COMPACT_CONTINUE)
			return true;
	}
	return false;
}

/* should_continue_reclaim() after a shrink_node() round that reclaimed
 * nr_round pages (slab pages included, as flush_reclaim_state adds
 * them first). */
static bool should_continue_reclaim(const struct cp_reclaim *r, const struct cp_balance_pgdat *bp,
				    uint64_t nr_round)
{
	uint64_t gap = compact_gap(bp->order);
	uint64_t inactive = cp_lru_size(r->vm.pc, CP_LRU_INACTIVE_FILE);

	if (!in_reclaim_compaction(bp) || !nr_round)
		return false;
	if (r->vm.profile->continue_rule == CP_CONTINUE_GAP_FIRST) {
		if (bp->sc.nr_reclaimed < gap && inactive > gap)
			return true;
		return !compaction_ready_somewhere(r, bp);
	}
	if (compaction_ready_somewhere(r, bp))
		return false;
	return inactive > gap;
}

/* The end of a shrink_node() round: shrink_slab() (cp_shrink_node_end);
 * true when should_continue_reclaim() sends it round again, the next
 * round set up at the same priority (sc->nr_scanned keeps counting, as
 * the kernel's does across rounds). */
static bool shrink_node_round_end(struct cp_reclaim *r, struct cp_balance_pgdat *bp)
{
	uint64_t nr_round;

	cp_shrink_node_end(&r->vm, &bp->sc, &bp->walk);
	nr_round = bp->sc.nr_reclaimed - bp->round_reclaimed_before;
	if (!should_continue_reclaim(r, bp, nr_round))
		return false;
	cp_count(r->vm.vmstat, CP_VM_KSWAPD_SHRINK_NODE_AGAIN, 1);
	bp->round_reclaimed_before = bp->sc.nr_reclaimed;
	cp_shrink_node_begin(&r->vm, &bp->sc, &bp->walk);
	return true;
}

/* kswapd_shrink_node(), second half, after shrink_node(): sc.order drops
 * to 0 once compact_gap(order) pages are reclaimed; true when it scanned
 * enough that the priority need not rise. (6.11+ also counts the pages
 * reclaimed outside the LRU, mm_account_reclaimed_pages(): the model
 * credits only inode steal's pages, which the 6.x profiles never strip,
 * so there a pass never reclaims more than it scans.) */
static bool kswapd_shrink_node_end(struct cp_balance_pgdat *bp)
{
	if (bp->order && bp->sc.nr_reclaimed >= compact_gap(bp->order))
		bp->order = 0;
	return bp->sc.nr_scanned >= bp->sc.nr_to_reclaim;
}

void cp_balance_pgdat_begin(struct cp_reclaim *r, struct cp_balance_pgdat *bp, unsigned order,
			    unsigned highest_zoneidx, struct cp_alloc_ctx *ctx)
{
	unsigned i;

	memset(bp, 0, sizeof(*bp));
	bp->sc.gfp = CP_GFP_KERNEL;
	bp->sc.is_kswapd = true;
	bp->sc.ctx = ctx;
	bp->order = order;
	if (highest_zoneidx > cp_reclaim_top_zone(r))
		highest_zoneidx = cp_reclaim_top_zone(r);
	bp->highest_zoneidx = highest_zoneidx;
	/* sc.reclaim_idx = highest_zoneidx: the eligible zones */
	bp->sc.reclaim_idx = highest_zoneidx;
	bp->sc.zone_limited = highest_zoneidx < cp_reclaim_top_zone(r);
	/* zone_boosts[]: each zone's boost when kswapd starts; their sum is
	 * the boosted reclaim's target */
	for (i = 0; i <= highest_zoneidx; i++) {
		bp->zone_boosts[i] = r->mem->zones[i].buddy.watermark_boost;
		bp->boost += bp->zone_boosts[i];
	}
	bp->nr_boost_reclaim = bp->boost;
	bp->sc.priority = CP_DEF_PRIORITY;

	r->kswapd_wanted = false;
	r->nr_kswapd_runs++;
	/* set_reclaim_active(): per-CPU lists shrink while kswapd works
	 * (cleared when kswapd sleeps, daemons.c) */
	cp_mem_set_reclaim_active(r->mem, true);
	cp_count(r->vm.vmstat, CP_VM_PAGEOUTRUN, 1);
}

/* The top of balance_pgdat()'s priority loop: false when the run is
 * over (balanced with no boost left to reclaim); else the pass is set
 * up. A boosted run that finds the node unbalanced drops the boost and
 * restarts at DEF_PRIORITY. */
static bool balance_pgdat_pass_begin(struct cp_reclaim *r, struct cp_balance_pgdat *bp)
{
	bool balanced = cp_pgdat_balanced(r, bp->order, bp->highest_zoneidx);

	if (!balanced && bp->nr_boost_reclaim) {
		bp->nr_boost_reclaim = 0;
		bp->sc.priority = CP_DEF_PRIORITY;
	}
	if (!bp->nr_boost_reclaim && balanced)
		return false;
	/* boosted reclaim never goes below DEF_PRIORITY - 2 */
	bp->raise_priority = !(bp->nr_boost_reclaim && bp->sc.priority == CP_DEF_PRIORITY - 2);
	bp->pass_reclaimed_before = bp->sc.nr_reclaimed;
	kswapd_shrink_node_begin(r, bp);
	return true;
}

/* The bottom of the priority loop: false when the run is over. */
static bool balance_pgdat_pass_end(struct cp_balance_pgdat *bp)
{
	uint64_t nr_reclaimed;

	if (kswapd_shrink_node_end(bp))
		bp->raise_priority = false;
	nr_reclaimed = bp->sc.nr_reclaimed - bp->pass_reclaimed_before;
	bp->nr_boost_reclaim -= bp->nr_boost_reclaim < nr_reclaimed ? bp->nr_boost_reclaim
								     : nr_reclaimed;
	if (bp->nr_boost_reclaim && !nr_reclaimed)
		return false;
	if (bp->raise_priority || !nr_reclaimed)
		bp->sc.priority--;
	return bp->sc.priority >= 1;
}

/* The end of balance_pgdat(): each eligible zone drops the boost it had
 * at the start, and kcompactd gets the room reclaim made. */
static void balance_pgdat_end(struct cp_reclaim *r, struct cp_balance_pgdat *bp)
{
	unsigned i;

	if (bp->boost) {
		for (i = 0; i <= bp->highest_zoneidx; i++) {
			struct cp_buddy *b = &r->mem->zones[i].buddy;

			b->watermark_boost -= b->watermark_boost < bp->zone_boosts[i]
						      ? b->watermark_boost
						      : bp->zone_boosts[i];
		}
		/* there is likely room now: defragment pageblocks */
		cp_reclaim_wake_kcompactd(r, CP_BUDDY_PAGEBLOCK_ORDER);
	}
	snapshot_refaults(r);
	bp->done = true;
}

bool cp_balance_pgdat_step(struct cp_reclaim *r, struct cp_balance_pgdat *bp)
{
	if (bp->done)
		return false;
	if (!bp->in_pass) {
		if (!balance_pgdat_pass_begin(r, bp)) {
			balance_pgdat_end(r, bp);
			return false;
		}
		bp->in_pass = true;
	}
	if (cp_shrink_node_turn(&r->vm, &bp->sc, &bp->walk))
		return true;
	if (shrink_node_round_end(r, bp))
		return true;
	bp->in_pass = false;
	if (!balance_pgdat_pass_end(bp))
		balance_pgdat_end(r, bp);
	return !bp->done;
}

uint64_t cp_balance_pgdat(struct cp_reclaim *r, unsigned order, unsigned highest_zoneidx,
			  struct cp_alloc_ctx *ctx, unsigned *reclaim_order)
{
	struct cp_balance_pgdat bp;

	cp_balance_pgdat_begin(r, &bp, order, highest_zoneidx, ctx);
	while (cp_balance_pgdat_step(r, &bp))
		;
	if (reclaim_order)
		*reclaim_order = bp.order;
	return bp.sc.nr_reclaimed;
}

/* The priority loop shared by direct and memcg reclaim, one priority
 * level a call: shrink_zones() at sc->priority, then the loop's test;
 * at the loop's end, the retries. A loop that reclaimed nothing runs
 * again from the start: 6.10+ once as a full walk of the cgroup tree
 * (memcg_full_walk; the model's one lruvec makes it the same walk
 * again); then, 5.9+ (the refault rule, 6.1 and 6.x), when it left the
 * active list alone (may_deactivate false: the heuristics' counters can
 * be stale, memcg_stats.c), once more deactivating regardless
 * (force_deactivate), before the caller may give up and OOM. Returns
 * true while levels remain; sc->priority is then the next one, and at
 * the end the level the loop stopped at (-1: it ran out). */
static bool do_try_to_free_pages_step(struct cp_reclaim *r, struct cp_scan_control *sc)
{
	sc->nr_scanned = 0;
	cp_shrink_node(&r->vm, sc);
	if (sc->nr_reclaimed < sc->nr_to_reclaim && --sc->priority >= 0)
		return true;
	snapshot_refaults(r);
	if (sc->nr_reclaimed)
		return false;
	if (r->vm.profile->memcg_full_walk_retry && !sc->memcg_full_walk) {
		sc->memcg_full_walk = true;
	} else if (sc->skipped_deactivate && !sc->force_deactivate) {
		sc->force_deactivate = true;
		sc->skipped_deactivate = false;
	} else {
		return false;
	}
	sc->priority = CP_DEF_PRIORITY;
	sc->nr_walks++;
	return true;
}

static uint64_t do_try_to_free_pages(struct cp_reclaim *r, struct cp_scan_control *sc)
{
	while (do_try_to_free_pages_step(r, sc))
		;
	return sc->nr_reclaimed;
}

uint64_t cp_try_to_free_pages(struct cp_reclaim *r, struct cp_alloc_ctx *ctx)
{
	struct cp_scan_control sc = {
		.nr_to_reclaim = CP_SWAP_CLUSTER_MAX,
		.priority = CP_DEF_PRIORITY,
		.gfp = ctx->gfp,
		.ctx = ctx,
		.nr_walks = 1,
	};

	return do_try_to_free_pages(r, &sc);
}

/* How deep a memcg reclaim's walk went, as the real harness reads it
 * from the superblock calls between the reclaim's begin and end
 * (sbtrace.h): shrink_slab() runs at every priority the loop reaches, so
 * the lowest is where the loop stopped, or 0 when it ran out (and a
 * loop begun again from DEF_PRIORITY ran out first). */
static void count_memcg_reclaim_walk(struct cp_reclaim *r, const struct cp_scan_control *sc)
{
	int lowest = sc->nr_walks > 1 || sc->priority < 0 ? 0 : sc->priority;
	bool prio12 = lowest == CP_DEF_PRIORITY, deep = lowest <= CP_SHRINK_DEEP_PRIORITY;

	cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIM_RESTARTS, sc->nr_walks - 1);
	cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMS_PRIO12, prio12);
	cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMS_DEEP, deep);
	if (sc->gfp & CP_GFP_FS) {
		cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMED_FS, sc->nr_reclaimed);
		cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMS_FS_PRIO12, prio12);
		cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMS_FS_DEEP, deep);
	}
}

void cp_memcg_reclaim_begin(struct cp_reclaim *r, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
			    uint64_t nr_pages, struct cp_scan_control *sc)
{
	*sc = (struct cp_scan_control){
		.nr_to_reclaim = nr_pages > CP_SWAP_CLUSTER_MAX ? nr_pages : CP_SWAP_CLUSTER_MAX,
		.priority = CP_DEF_PRIORITY,
		.gfp = ctx->gfp,
		.target_memcg = memcg,
		.ctx = ctx,
		.nr_walks = 1,
	};
	/* trace_mm_vmscan_memcg_reclaim_begin(): every entry, and those
	 * whose request may enter the filesystem */
	cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMS, 1);
	if (ctx->gfp & CP_GFP_FS)
		cp_count(r->vm.vmstat, CP_VM_MEMCG_RECLAIMS_FS, 1);
}

bool cp_memcg_reclaim_step(struct cp_reclaim *r, struct cp_scan_control *sc)
{
	if (do_try_to_free_pages_step(r, sc))
		return true;
	count_memcg_reclaim_walk(r, sc);
	return false;
}

uint64_t cp_try_to_free_mem_cgroup_pages(struct cp_reclaim *r, struct cp_memcg *memcg,
					 struct cp_alloc_ctx *ctx, uint64_t nr_pages)
{
	struct cp_scan_control sc;

	cp_memcg_reclaim_begin(r, memcg, ctx, nr_pages, &sc);
	while (cp_memcg_reclaim_step(r, &sc))
		;
	return sc.nr_reclaimed;
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

static bool hook_memcg_start(void *priv, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
			     uint64_t nr, struct cp_scan_control *sc)
{
	cp_memcg_reclaim_begin(priv, memcg, ctx, nr, sc);
	return cp_memcg_reclaim_step(priv, sc);
}

static bool hook_memcg_step(void *priv, struct cp_scan_control *sc, struct cp_alloc_ctx *ctx)
{
	sc->ctx = ctx;
	return cp_memcg_reclaim_step(priv, sc);
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
		.memcg_reclaim_start = hook_memcg_start,
		.memcg_reclaim_step = hook_memcg_step,
		.priv = r,
	};

	cp_mem_set_hooks(r->mem, &hooks);
}
