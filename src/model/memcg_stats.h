/*
 * memcg_stats.h - the lruvec counters reclaim's heuristics read: exact,
 * or the copy the memcg statistics flush last made (mm/memcontrol.c
 * rstat flushing).
 */
#ifndef CP_MEMCG_STATS_H
#define CP_MEMCG_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct cp_pagecache;

/* lruvec_page_state() items the model's reclaim reads. */
enum cp_lruvec_stat {
	CP_LRUVEC_INACTIVE_FILE,     /* NR_INACTIVE_FILE */
	CP_LRUVEC_ACTIVE_FILE,       /* NR_ACTIVE_FILE */
	CP_LRUVEC_WORKINGSET_ACTIVATE, /* WORKINGSET_ACTIVATE_FILE */
	CP_NR_LRUVEC_STATS,
};

/* What the last flush left: the counters as they were then. */
struct cp_lruvec_stats {
	uint64_t v[CP_NR_LRUVEC_STATS];
	/* the heuristics read this copy (6.x); false: the exact counters */
	bool flushed_only;
};

/* Reclaim reads the flushed copy from now on (the profile's
 * memcg_stats_flush_ns > 0); takes a first flush. */
void cp_lruvec_stats_init(struct cp_pagecache *pc, bool flushed_only);

/* flush_memcg_stats_dwork() -> __mem_cgroup_flush_stats(root, force):
 * copy the exact counters. */
void cp_lruvec_stats_flush(struct cp_pagecache *pc);

/* lruvec_page_state(): the flushed copy, or the exact counter. */
uint64_t cp_lruvec_page_state(const struct cp_pagecache *pc, enum cp_lruvec_stat item);

#endif /* CP_MEMCG_STATS_H */
