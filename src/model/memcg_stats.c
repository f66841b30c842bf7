/*
 * memcg_stats.c - the counters reclaim's heuristics see.
 *
 * With memory cgroups on (these machines: cgroup v1 with the memory
 * controller), lruvec_page_state() does not read the live counters: it
 * reads the per-memcg, per-node copy the rstat flush aggregates from the
 * per-CPU deltas (mm/memcontrol.c). A flush happens when someone asks
 * for one. 6.1's prepare_scan_count() calls mem_cgroup_flush_stats() at
 * every shrink_node(), which flushes as soon as more than
 * MEMCG_CHARGE_BATCH updates per CPU are pending: close enough to exact
 * for the model, which reads the live counters there. Later kernels call
 * mem_cgroup_flush_stats_ratelimited() from prepare_scan_control() and
 * workingset_test_recent(): it flushes only when the periodic flusher
 * (flush_memcg_stats_dwork, every FLUSH_TIME = 2 s) is a whole cycle
 * late. So reclaim sees the counters as they were at the last periodic
 * flush: the refault activations that decide may_deactivate (and that
 * snapshot_refaults() records), the list sizes inactive_is_low()
 * compares, and the active list size a refault's distance is measured
 * against. Measured on 6.18.44 (tracepoint memcg:memcg_flush_stats with
 * kernel stacks through a real global 1G seed run): 55 flushes, all from
 * flush_memcg_stats_dwork, 2.00 - 2.08 s apart, none from the reclaim
 * path.
 *
 * The periodic flush is a timer actor (sim/daemons.c); this file keeps
 * the copy.
 *
 * SIMPLIFIED: one lruvec, so the root memcg's hierarchical counters are
 * the lruvec's own; a flush is instantaneous and costs nothing.
 */
#include "model/memcg_stats.h"

#include "core/bug.h"
#include "model/lru.h"
#include "model/pagecache.h"

static uint64_t exact(const struct cp_pagecache *pc, enum cp_lruvec_stat item)
{
	switch (item) {
	case CP_LRUVEC_INACTIVE_FILE:
		return cp_lru_size(pc, CP_LRU_INACTIVE_FILE);
	case CP_LRUVEC_ACTIVE_FILE:
		return cp_lru_size(pc, CP_LRU_ACTIVE_FILE);
	case CP_LRUVEC_WORKINGSET_ACTIVATE:
		return pc->vmstat->v[CP_VM_WORKINGSET_ACTIVATE];
	case CP_NR_LRUVEC_STATS:
		break;
	}
	CP_BUG_ON(1);
	return 0;
}

void cp_lruvec_stats_init(struct cp_pagecache *pc, bool flushed_only)
{
	pc->lruvec.stats.flushed_only = flushed_only;
	cp_lruvec_stats_flush(pc);
}

void cp_lruvec_stats_flush(struct cp_pagecache *pc)
{
	int i;

	for (i = 0; i < CP_NR_LRUVEC_STATS; i++)
		pc->lruvec.stats.v[i] = exact(pc, (enum cp_lruvec_stat)i);
}

uint64_t cp_lruvec_page_state(const struct cp_pagecache *pc, enum cp_lruvec_stat item)
{
	return pc->lruvec.stats.flushed_only ? pc->lruvec.stats.v[item] : exact(pc, item);
}
