/*
 * workingset.c - refault distance and activation of refaulting pages.
 *
 * Mechanism (mm/workingset.c, Johannes Weiner, 3.15; checked against 4.11
 * and 6.1): each lruvec keeps a clock that advances on every eviction and
 * every activation. An evicted page leaves its clock value in a shadow
 * entry. When the page is read again, the distance between the clock now
 * and the stored value is the number of slots the inactive list would
 * have needed to be larger to keep the page; if the active list could
 * have given that up (distance <= active file pages), the refaulting page
 * goes straight to the active list.
 *
 * 4.11: the stored stamp is the clock after its increment; no
 * PG_workingset. 6.1: the stamp is the clock before aging; the shadow
 * keeps PG_workingset and a refault of such a page is a "restore".
 *
 * SIMPLIFIED: one lruvec (no per-memcg eviction lruvec lookup, no
 * bucket_order granularity: 32 bits of clock are plenty for the page
 * counts we run); no swap, so anon pages never count toward the
 * workingset size; the shadow-node shrinker (mm/workingset.c
 * scan_shadow_nodes) is not modelled: shadows are never dropped by
 * memory pressure (ref §8.3: the limit is not binding while the file LRU
 * is large).
 */
#include "model/workingset.h"

#include "model/lru.h"
#include "model/memcg_stats.h"

uint32_t cp_workingset_eviction(struct cp_pagecache *pc, uint32_t nr_pages)
{
	struct cp_lruvec *lv = &pc->lruvec;
	uint32_t stamp;

	if (pc->params.workingset_flag) {
		stamp = lv->nonresident_age;  /* 6.1: read, then age */
		lv->nonresident_age += nr_pages;
	} else {
		lv->nonresident_age += nr_pages; /* 4.11: inc_return */
		stamp = lv->nonresident_age;
	}
	return stamp;
}

bool cp_workingset_refault(struct cp_pagecache *pc, uint32_t stamp, bool shadow_workingset,
			   uint32_t nr_pages, bool *restore)
{
	uint32_t distance = pc->lruvec.nonresident_age - stamp; /* mod 2^32 */
	/* workingset_test_recent(): the active list as the last memcg
	 * stats flush saw it (memcg_stats.c) */
	uint64_t workingset_size = cp_lruvec_page_state(pc, CP_LRUVEC_ACTIVE_FILE);

	*restore = false;
	cp_count(pc->vmstat, CP_VM_WORKINGSET_REFAULT, nr_pages);
	if (distance > workingset_size)
		return false;
	cp_count(pc->vmstat, CP_VM_WORKINGSET_ACTIVATE, nr_pages);
	if (pc->params.workingset_flag && shadow_workingset) {
		*restore = true;
		cp_count(pc->vmstat, CP_VM_WORKINGSET_RESTORE, nr_pages);
	}
	return true;
}
