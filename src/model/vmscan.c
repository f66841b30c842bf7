/*
 * vmscan.c - page reclaim on the file LRU lists and the call into
 * shrink_slab.
 *
 * Models mm/vmscan.c shrink_node(), shrink_node_memcg() (4.11) /
 * shrink_lruvec() (6.1), get_scan_count(), shrink_list(),
 * shrink_active_list(), shrink_inactive_list() and shrink_page_list() for
 * a workload of clean, unmapped page-cache pages and no swap (ref §7):
 *  - each pass scans size >> priority pages of each file list, in chunks
 *    of SWAP_CLUSTER_MAX, inactive before active;
 *  - the active list is scanned only when the inactive list is low
 *    (4.11 inactive_list_is_low, checked at every chunk) or, in 6.1, when
 *    prepare_scan_count() allowed deactivation (low ratio or new refault
 *    activations since the last reclaim cycle);
 *  - deactivation is unconditional for unmapped pages (PG_referenced is
 *    not consulted; 6.1 sets PG_workingset);
 *  - isolation takes whole folios (6.1 isolate_lru_folios()): a large
 *    folio counts folio_nr_pages() toward the batch, is taken whole
 *    even past the batch, deactivated or evicted as a unit;
 *  - an isolated inactive page is reclaimed whether or not it was
 *    referenced (page_check_references gives RECLAIM_CLEAN for a
 *    referenced unmapped file page, and it is clean), unless the read()
 *    in progress holds its folio (readahead's lock, the read batch's
 *    reference: CP_PG_HELD), which goes back to the inactive head;
 *  - kswapd and memcg reclaim stop once nr_to_reclaim is met; direct
 *    reclaim at DEF_PRIORITY scans its whole target (scan_adjusted);
 *  - 4.11's memcg reclaim forces at least SWAP_CLUSTER_MAX pages when the
 *    shift leaves nothing (force_scan; gone in 4.13, so not in 6.1);
 *  - then shrink_slab() with the pages this pass scanned and the LRU size
 *    it looked at (4.11) or the priority (6.1) - in global reclaim with
 *    the run's tasks in a child memcg, twice, as shrink_node_memcgs()
 *    walks the root and then the child: the root's call finds the
 *    superblock's lists empty but counts (and scans) the filesystem's own
 *    cached objects, which xfs_fs_nr_cached_objects() reports for any
 *    memcg; the memcg-unaware shrinkers run once; inode-steal pages count as
 *    reclaimed (reclaim_state->reclaimed_slab); slab pages freed through
 *    RCU do not.
 *
 * SIMPLIFIED: one node and one lruvec, so memcg reclaim scans the same
 * lists as global reclaim (true when, as in our memcg scenarios, all page
 * cache belongs to the one memcg); no anon lists, no dirty or writeback
 * pages, no mapped pages; shrink_node()'s should_continue_reclaim()
 * rounds are kswapd's (reclaim.c: the model's direct and memcg reclaim
 * are order 0, for which it is false).
 * Global vmstat counters (pgscan_*, pgsteal_*) count global reclaim only,
 * as the kernel does; memcg reclaim counts cp_pgscan_memcg/cp_pgsteal_memcg.
 */
#include "model/vmscan.h"

#include "core/bug.h"
#include "core/intmath.h"
#include "model/lru.h"
#include "model/memcg_stats.h"

static bool inactive_is_low(uint64_t inactive, uint64_t active)
{
	uint64_t gb = (inactive + active) >> 18; /* 4 KiB pages per GiB */
	uint64_t ratio = gb ? cp_int_sqrt(10 * gb) : 1;

	return inactive * ratio < active;
}

bool cp_inactive_file_is_low(const struct cp_pagecache *pc)
{
	return inactive_is_low(cp_lru_size(pc, CP_LRU_INACTIVE_FILE),
			       cp_lru_size(pc, CP_LRU_ACTIVE_FILE));
}

static void count_scan(struct cp_vmscan *vm, struct cp_scan_control *sc, uint64_t scanned,
		       uint64_t stolen)
{
	if (sc->target_memcg) {
		cp_count(vm->vmstat, CP_VM_PGSCAN_MEMCG, scanned);
		cp_count(vm->vmstat, CP_VM_PGSTEAL_MEMCG, stolen);
	} else if (sc->is_kswapd) {
		cp_count(vm->vmstat, CP_VM_PGSCAN_KSWAPD, scanned);
		cp_count(vm->vmstat, CP_VM_PGSTEAL_KSWAPD, stolen);
	} else {
		cp_count(vm->vmstat, CP_VM_PGSCAN_DIRECT, scanned);
		cp_count(vm->vmstat, CP_VM_PGSTEAL_DIRECT, stolen);
	}
	if (sc->ctx && sc->ctx->work)
		sc->ctx->work->nr_reclaimed_pages += stolen;
}

/*
 * isolate_lru_pages() / 6.1 isolate_lru_folios(): whole folios from the
 * tail of list kind while fewer than nr pages are taken. A folio counts
 * its folio_nr_pages() against nr and is taken whole, so the last one
 * may overshoot (a 512-page folio at the tail meets a 32-page batch at
 * once). out[] gets each folio's head slot (at most nr folios); *nr_folios
 * their number. With sc->zone_limited, a folio in a zone above
 * sc->reclaim_idx is skipped: not taken, not counted against nr, counted
 * in *nr_scanned (the kernel's total_scan, which pgscan and pgrefill
 * count) and in pgskip_<zone>, and moved to the head of the list (the
 * kernel splices the skipped folios there after the walk, the last one
 * skipped first; the walk ends when it comes back to them). Returns the
 * pages taken.
 */
static uint64_t isolate_lru_pages(struct cp_vmscan *vm, const struct cp_scan_control *sc,
				  enum cp_lru_kind kind, unsigned nr, uint32_t *out,
				  unsigned *nr_folios, uint64_t *nr_scanned)
{
	struct cp_pagecache *pc = vm->pc;
	uint64_t taken = 0, skipped = 0;
	uint32_t first_skipped = CP_NIL;
	unsigned n = 0, nr_skipped_folios = 0;

	while (taken < nr) {
		uint32_t slot = cp_lru_tail(pc, kind), head, np, i;

		if (slot == CP_NIL)
			break;
		head = cp_folio_head(pc, slot);
		if (head == first_skipped)
			break; /* only skipped folios are left */
		np = cp_folio_nr_pages(pc, head);
		cp_lru_del_folio(pc, head);
		if (sc->zone_limited &&
		    cp_mem_pfn_zone(pc->mem, pc->pages[head].pfn) > sc->reclaim_idx) {
			cp_lru_add_folio_head(pc, head);
			if (first_skipped == CP_NIL)
				first_skipped = head;
			skipped += np;
			nr_skipped_folios++;
			continue;
		}
		for (i = 0; i < np; i++)
			pc->pages[head + i].flags |= CP_PG_ISOLATED;
		out[n++] = head;
		taken += np;
	}
	/* only the top zone (Normal) is ever above a reclaim_idx */
	if (skipped) {
		cp_count(vm->vmstat, CP_VM_PGSKIP_NORMAL, skipped);
		/* a skipped folio is isolated and put back: a move's work */
		if (sc->ctx && sc->ctx->work) {
			sc->ctx->work->nr_moved_folios += nr_skipped_folios;
			sc->ctx->work->nr_moved_pages += skipped;
		}
	}
	*nr_folios = n;
	*nr_scanned = taken + skipped;
	return taken;
}

uint64_t cp_shrink_active_list(struct cp_vmscan *vm, uint64_t nr_to_scan,
			       struct cp_scan_control *sc)
{
	struct cp_pagecache *pc = vm->pc;
	uint32_t slots[CP_SWAP_CLUSTER_MAX];
	uint64_t done = 0;

	cp_lru_add_drain(pc, sc->ctx ? sc->ctx->cpu : 0);
	while (done < nr_to_scan) {
		uint64_t want = nr_to_scan - done, n, scanned;
		unsigned nf, i, j;

		n = isolate_lru_pages(vm, sc, CP_LRU_ACTIVE_FILE,
				      want < CP_SWAP_CLUSTER_MAX ? (unsigned)want : CP_SWAP_CLUSTER_MAX,
				      slots, &nf, &scanned);
		cp_count(vm->vmstat, CP_VM_PGREFILL, scanned);
		if (n == 0)
			break;
		/* each folio is deactivated as a unit and keeps its order
		 * (move_folios_to_lru counts folio_nr_pages()) */
		for (i = 0; i < nf; i++) {
			uint32_t head = slots[i], np = cp_folio_nr_pages(pc, head);

			for (j = 0; j < np; j++) {
				struct cp_page *p = &pc->pages[head + j];

				p->flags &= (uint8_t)~(CP_PG_ACTIVE | CP_PG_ISOLATED);
				if (vm->profile->workingset_flag)
					p->flags |= CP_PG_WORKINGSET;
			}
			cp_lru_add_folio_head(pc, head);
		}
		cp_count(vm->vmstat, CP_VM_PGDEACTIVATE, n);
		if (sc->ctx && sc->ctx->work) {
			sc->ctx->work->nr_moved_folios += nf;
			sc->ctx->work->nr_moved_pages += n;
		}
		done += n;
	}
	return done;
}

uint64_t cp_shrink_inactive_list(struct cp_vmscan *vm, uint64_t nr_to_scan,
				 struct cp_scan_control *sc)
{
	struct cp_pagecache *pc = vm->pc;
	uint32_t slots[CP_SWAP_CLUSTER_MAX];
	unsigned nf, nr_freed = 0, i, j;
	uint64_t n, scanned, kept = 0;

	cp_lru_add_drain(pc, sc->ctx ? sc->ctx->cpu : 0);
	if (nr_to_scan > CP_SWAP_CLUSTER_MAX)
		nr_to_scan = CP_SWAP_CLUSTER_MAX;
	n = isolate_lru_pages(vm, sc, CP_LRU_INACTIVE_FILE, (unsigned)nr_to_scan, slots, &nf,
			      &scanned);
	/* shrink_page_list() / shrink_folio_list(): clean, unmapped:
	 * reclaim, referenced or not; the folio leaves whole - unless the
	 * read() in progress holds it (folio_trylock() fails on readahead's
	 * lock, or __remove_mapping() cannot freeze the reference): keep,
	 * back to the head of the inactive list (move_folios_to_lru) */
	for (i = 0; i < nf; i++) {
		uint32_t head = slots[i], np = cp_folio_nr_pages(pc, head);

		for (j = 0; j < np; j++)
			pc->pages[head + j].flags &= (uint8_t)~(CP_PG_ISOLATED | CP_PG_REFERENCED);
		if (cp_folio_held(pc, head)) {
			cp_lru_add_folio_head(pc, head);
			kept += np;
			continue;
		}
		cp_pagecache_evict_folio(pc, head);
		nr_freed++;
	}
	/* sc->nr_scanned: the pages shrink_folio_list() saw; pgscan: all
	 * the isolation walked past; pgsteal: the pages freed */
	sc->nr_scanned += n;
	count_scan(vm, sc, scanned, n - kept);
	if (sc->ctx && sc->ctx->work)
		sc->ctx->work->nr_reclaimed_folios += nr_freed;
	return n - kept;
}

/* get_scan_count() for file pages only: how many pages of each list
 * this pass scans (size >> priority). */
static void get_scan_count(struct cp_vmscan *vm, const struct cp_scan_control *sc,
			   struct cp_shrink_node_walk *walk)
{
	struct cp_pagecache *pc = vm->pc;
	uint64_t size;
	int k;

	walk->lru_pages = 0;
	for (k = 0; k < CP_NR_LRU; k++) {
		/* lruvec_lru_size(lruvec, lru, sc->reclaim_idx): the eligible
		 * zones' pages only */
		size = sc->zone_limited ? cp_lru_size_below_top_zone(pc, (enum cp_lru_kind)k)
					: cp_lru_size(pc, (enum cp_lru_kind)k);
		walk->nr[k] = size >> sc->priority;
		/* 4.11 force_scan: memcg reclaim always scans something */
		if (!walk->nr[k] && sc->target_memcg && vm->profile->memcg_force_scan)
			walk->nr[k] = size < CP_SWAP_CLUSTER_MAX ? size : CP_SWAP_CLUSTER_MAX;
		walk->lru_pages += size;
	}
}

/* 6.1 prepare_scan_count() / 6.x prepare_scan_control(), the file
 * deactivation bit: new refault activations since the last reclaim
 * cycle mean a new working set is forming, or the inactive list is low;
 * both tests read the counters as the last memcg statistics flush left
 * them (memcg_stats.c). A forced retry deactivates regardless. */
static void prepare_scan_count(struct cp_vmscan *vm, struct cp_scan_control *sc)
{
	const struct cp_pagecache *pc = vm->pc;

	if (vm->profile->deactivate_rule != CP_DEACTIVATE_RATIO_REFAULT)
		return;
	if (sc->force_deactivate) {
		sc->may_deactivate_file = true;
		return;
	}
	sc->may_deactivate_file =
		cp_lruvec_page_state(pc, CP_LRUVEC_WORKINGSET_ACTIVATE) !=
			pc->lruvec.refaults_at_last_cycle ||
		inactive_is_low(cp_lruvec_page_state(pc, CP_LRUVEC_INACTIVE_FILE),
				cp_lruvec_page_state(pc, CP_LRUVEC_ACTIVE_FILE));
}

void cp_shrink_node_begin(struct cp_vmscan *vm, struct cp_scan_control *sc,
			  struct cp_shrink_node_walk *walk)
{
	struct cp_vmstat *vs = vm->vmstat;

	walk->nr_reclaimed = 0;
	walk->scanned_before = sc->nr_scanned;
	walk->steal_before = vs->v[CP_VM_PGINODESTEAL] + vs->v[CP_VM_KSWAPD_INODESTEAL];
	/* direct reclaim at DEF_PRIORITY scans its whole target */
	walk->scan_adjusted = !sc->target_memcg && !sc->is_kswapd &&
			      sc->priority == CP_DEF_PRIORITY;
	prepare_scan_count(vm, sc);
	get_scan_count(vm, sc, walk);
}

/* One turn of shrink_node_memcg()/shrink_lruvec()'s loop: up to
 * SWAP_CLUSTER_MAX pages of each list with pages left to scan, the
 * inactive list first; then the loop's exit test. */
bool cp_shrink_node_turn(struct cp_vmscan *vm, struct cp_scan_control *sc,
			 struct cp_shrink_node_walk *walk)
{
	int k;

	if (!walk->nr[CP_LRU_INACTIVE_FILE] && !walk->nr[CP_LRU_ACTIVE_FILE])
		return false;
	for (k = 0; k < CP_NR_LRU; k++) {
		uint64_t n;

		if (!walk->nr[k])
			continue;
		n = walk->nr[k] < CP_SWAP_CLUSTER_MAX ? walk->nr[k] : CP_SWAP_CLUSTER_MAX;
		walk->nr[k] -= n;
		if (k == CP_LRU_INACTIVE_FILE) {
			walk->nr_reclaimed += cp_shrink_inactive_list(vm, n, sc);
		} else {
			/* shrink_list() on the active list */
			bool deactivate = vm->profile->deactivate_rule == CP_DEACTIVATE_RATIO
						  ? cp_inactive_file_is_low(vm->pc)
						  : sc->may_deactivate_file;

			if (deactivate)
				cp_shrink_active_list(vm, n, sc);
			else if (vm->profile->deactivate_rule == CP_DEACTIVATE_RATIO_REFAULT)
				sc->skipped_deactivate = true;
		}
	}
	if (walk->nr_reclaimed < sc->nr_to_reclaim || walk->scan_adjusted)
		return walk->nr[CP_LRU_INACTIVE_FILE] || walk->nr[CP_LRU_ACTIVE_FILE];
	/* no anon to balance against: stop (the kernel's !nr_anon break) */
	walk->nr[CP_LRU_INACTIVE_FILE] = walk->nr[CP_LRU_ACTIVE_FILE] = 0;
	return false;
}

void cp_shrink_node_end(struct cp_vmscan *vm, struct cp_scan_control *sc,
			struct cp_shrink_node_walk *walk)
{
	struct cp_vmstat *vs = vm->vmstat;
	struct cp_shrink_control shc = {
		.gfp = sc->gfp,
		.memcg_id = sc->target_memcg ? sc->target_memcg->id : 0,
		.is_kswapd = sc->is_kswapd,
		.ctx = sc->ctx,
	};
	struct cp_shrink_pressure pressure;

	sc->nr_reclaimed += walk->nr_reclaimed;
	pressure.nr_scanned = sc->nr_scanned - walk->scanned_before;
	pressure.nr_eligible = walk->lru_pages;
	pressure.priority = sc->priority;
	if (!sc->target_memcg && vm->tasks_in_child_memcg) {
		/* the root memcg's call: empty lists, but a superblock counts
		 * its filesystem's own cached objects (XFS reclaimable inodes,
		 * xfs_fs_nr_cached_objects) for every memcg; its deferred work
		 * is the root's own */
		struct cp_shrink_control root = shc;

		root.memcg_id = CP_MEMCG_EMPTY_ROOT;
		cp_shrink_slab(vm->shrinkers, &root, &pressure);
	}
	cp_shrink_slab(vm->shrinkers, &shc, &pressure);
	/* reclaim_state->reclaimed_slab: pages the inode shrinker stripped */
	sc->nr_reclaimed += vs->v[CP_VM_PGINODESTEAL] + vs->v[CP_VM_KSWAPD_INODESTEAL] -
			    walk->steal_before;
}

void cp_shrink_node(struct cp_vmscan *vm, struct cp_scan_control *sc)
{
	struct cp_shrink_node_walk walk;

	cp_shrink_node_begin(vm, sc, &walk);
	while (cp_shrink_node_turn(vm, sc, &walk))
		;
	cp_shrink_node_end(vm, sc, &walk);
}
