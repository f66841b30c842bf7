/*
 * compaction.h - memory compaction of the zone and kcompactd's work
 * (mm/compaction.c, 6.1; the mechanism and what is SIMPLIFIED are
 * described in compaction.c).
 */
#ifndef CP_COMPACTION_H
#define CP_COMPACTION_H

#include <stdbool.h>
#include <stdint.h>

#include "model/buddy.h"
#include "model/memory.h"

struct cp_mem;
struct cp_pagecache;
struct cp_vmstat;

#define CP_COMPACT_CLUSTER_MAX 32     /* COMPACT_CLUSTER_MAX = SWAP_CLUSTER_MAX */
#define CP_COMPACT_MAX_DEFER_SHIFT 6  /* COMPACT_MAX_DEFER_SHIFT */
#define CP_EXTFRAG_THRESHOLD 500      /* sysctl_extfrag_threshold default */
#define CP_PAGE_ALLOC_COSTLY_ORDER 3
/* is_via_compact_memory(): order -1 in the kernel, the whole zone until
 * the scanners meet (/proc/sys/vm/compact_memory); never suitable-tested */
#define CP_COMPACT_ORDER_ALL CP_BUDDY_MAX_ORDER
#define CP_COMPACT_FREELIST_CAP 2048  /* blocks per order on compaction's free lists */

/* include/linux/compaction.h enum compact_result (the values the model
 * can produce; NO_SUITABLE_PAGE stays inside compact_zone). */
enum cp_compact_result {
	CP_COMPACT_NOT_SUITABLE_ZONE, /* fragindex says: not fragmentation, lack of memory */
	CP_COMPACT_SKIPPED,           /* too few free pages to migrate into */
	CP_COMPACT_DEFERRED,          /* compaction_deferred() */
	CP_COMPACT_CONTINUE,          /* worth compacting (suitable) / keep going */
	CP_COMPACT_COMPLETE,          /* the scanners met, whole zone scanned */
	CP_COMPACT_PARTIAL_SKIPPED,   /* the scanners met, started at cached pfns */
	CP_COMPACT_CONTENDED,         /* the free scanner's isolation hit the min watermark */
	CP_COMPACT_SUCCESS,           /* a block of the order is free */
};

/* include/linux/migrate_mode.h, the two modes compaction uses here. */
enum cp_migrate_mode {
	CP_MIGRATE_MODE_ASYNC,      /* direct compaction's first try (movable sources only) */
	CP_MIGRATE_MODE_SYNC_LIGHT, /* kcompactd */
};

/* Work of one compact_zone() (struct compact_control totals). */
struct cp_compact_stats {
	uint64_t migrate_scanned; /* cc->total_migrate_scanned */
	uint64_t free_scanned;    /* cc->total_free_scanned */
	uint64_t isolated;        /* COMPACTISOLATED: migrate + free pages isolated */
	uint64_t migrated;        /* pgmigrate_success */
};

/* compact_control's freepages[order]: the isolated free blocks of one
 * order (pfn of the block), a queue taken from the front (6.1: order-0
 * pages only, split at isolation). The free scanner stops once it holds
 * the pages still to migrate (at most a pageblock's 512,
 * finish_pageblock), one block (< 512 pages) past it, and a large folio
 * that finds no block is split and takes 2^order pages back: a list
 * holds well under CP_COMPACT_FREELIST_CAP blocks. */
struct cp_compact_freelist {
	uint32_t pfn[CP_COMPACT_FREELIST_CAP];
	uint32_t first, nr; /* ring: pfn[(first + i) % CAP] */
};

/* struct compact_control: one compact_zone() run, kept whole so that a
 * run can stop after a batch and go on at the next (kcompactd). The
 * fields are compaction.c's. */
struct cp_compact_control {
	unsigned zi;                /* the zone: c->mem->zones[zi], pfns zone-local */
	unsigned order;
	enum cp_migrate_mode mode;
	enum cp_migratetype migratetype;
	bool fs;                    /* __GFP_FS in the request: else only anonymous pages move */
	bool whole_zone;
	bool direct_compaction;     /* try_to_compact_pages(): sets blockskip_flush */
	bool ignore_skip_hint;      /* read no PB_migrate_skip hint */
	/* cc->finish_pageblock (6.1: cc->rescan, 5.1+): the migration
	 * scanner is still in the pageblock it last migrated from: isolate
	 * the rest of it at once and mark it when done */
	bool finish_pageblock;
	/* compact_node(proactive): stop at the low mark or when kswapd
	 * runs; the moved pages' old pages go to the per-CPU lists */
	bool proactive;
	bool (*kswapd_running)(void *priv);
	void *kswapd_priv;
	int cpu;
	uint32_t migrate_pfn, free_pfn;
	/* compact_zone()'s locals: the pageblock last migrated from
	 * (CP_BUDDY_NONE: none since the start or the last drain, the
	 * kernel's 0); keep the async and sync cached pfns together */
	uint32_t last_migrated;
	bool update_cached;
	/* cc->migratepages: the isolated folios (pfn of the head, order),
	 * then the pages of any folio split for want of a target: at most a
	 * pageblock's folios (finish_pageblock) plus its pages; empty
	 * between batches */
	uint32_t migratepages[2 * CP_BUDDY_PAGEBLOCK_PAGES];
	uint8_t migrate_order[2 * CP_BUDDY_PAGEBLOCK_PAGES];
	unsigned nr_migrate;
	uint64_t nr_migratepages; /* pages still to migrate */
	struct cp_compact_freelist freepages[CP_BUDDY_MAX_ORDER];
	uint64_t nr_freepages;    /* pages on those lists (isolated from the buddy) */
	struct cp_compact_stats st;      /* the run's totals */
	struct cp_compact_stats counted; /* the part of st already in vmstat */
};

/*
 * kcompactd's work under way: kcompactd_do_work() (each zone, lowest
 * first, at the order asked) or compact_node(proactive) (each zone at
 * order -1), one compact_zone() batch - the isolation of up to
 * COMPACT_CLUSTER_MAX pages and their migration - per engine step, as
 * the kernel's kcompactd runs beside the tasks that allocate (it
 * reschedules between batches, cond_resched in isolate_migratepages).
 */
struct cp_kcompactd_work {
	bool active;
	bool proactive;
	unsigned order;  /* kcompactd_do_work: kcompactd_max_order at its start */
	unsigned zi;     /* the zone under way, or the next to try */
	bool in_zone;    /* compact_zone() of zone zi under way (cc) */
	/* compact_node(proactive) stops a zone when kswapd runs */
	bool (*kswapd_running)(void *priv);
	void *kswapd_priv;
	struct cp_compact_control cc;
};

/* The zone's compaction state and the node's kcompactd. */
struct cp_compaction {
	struct cp_mem *mem;
	struct cp_pagecache *pc;
	struct cp_vmstat *vmstat;

	/* struct zone: per zone of mem (same index as mem->zones[]);
	 * the cached pfns are zone-local (the zone's buddy's) */
	struct cp_compact_zone {
		unsigned compact_considered;
		unsigned compact_defer_shift;
		unsigned compact_order_failed;
		/* compact_cached_migrate_pfn[sync]: [0] where async (direct)
		 * compaction restarts, [1] sync (kcompactd) */
		uint32_t cached_migrate_pfn[2];
		uint32_t cached_free_pfn;    /* compact_cached_free_pfn */
		/* compact_init_migrate_pfn: where __reset_isolation_suitable()
		 * found the first migration source (5.1+); a run that starts
		 * at or below it is whole_zone */
		uint32_t init_migrate_pfn;
		/* compact_blockskip_flush: a direct compaction's scanners met;
		 * kswapd clears the skip hints when it goes to sleep */
		bool blockskip_flush;
	} zone[CP_MEM_MAX_ZONES];

	/* pg_data_t: kcompactd */
	unsigned kcompactd_max_order;
	/* wq_has_sleeper(&pgdat->kcompactd_wait): the actor sets it when it
	 * sleeps; without an actor it stays true */
	bool kcompactd_sleeping;
	void (*wake)(void *priv);    /* the engine's waker; NULL: no actor */
	void *wake_priv;
	uint64_t nr_wakeups;          /* wake-ups that woke kcompactd */
	uint64_t nr_compact_zone;     /* compact_zone() runs by kcompactd */
	/* sysctl_compaction_proactiveness (0: no proactive pass) */
	unsigned proactiveness;
	uint64_t nr_proactive;        /* proactive passes (compact_node(pgdat, true)) */

	/* The PB_migrate_skip rules of 4.11 (profile compaction_skip_4_11):
	 * a pageblock is marked only when a whole scan of it isolated
	 * nothing, the reset clears every mark, kcompactd ignores them.
	 * false: 5.1+ (Mel Gorman's 2019 series): the migration scanner
	 * marks a block at its first isolation, the free scanner every block
	 * it scans whole, the reset samples each block, kcompactd obeys. */
	bool skip_4_11;

	/* 6.9+: migrate large folios below the target order (profile
	 * compaction_large_folios); false: only order-0 pages move (6.1) */
	bool large_folios;

	/* the compact_control of a compact_zone() run inside one step (direct
	 * compaction, cp_compact_zone, the whole-run wrappers) */
	struct cp_compact_control direct;
	/* kcompactd's work under way, a batch per engine step */
	struct cp_kcompactd_work kcd;
};

/* c starts with no deferral, the scanners at the zone's ends, kcompactd
 * asleep, large-folio migration off (set c->large_folios for 6.9+).
 * mem, pc and vmstat must outlive c. */
void cp_compaction_init(struct cp_compaction *c, struct cp_mem *mem, struct cp_pagecache *pc,
			struct cp_vmstat *vmstat);

/*
 * mm/vmstat.c __fragmentation_index() x 1000 of the buddy for order:
 * 0 when nothing is free, -1000 when a free block of >= order exists,
 * else 1000 - (1000 + free_pages * 1000 / 2^order) / free_blocks
 * (towards 0: the request fails for lack of memory; towards 1000: for
 * fragmentation). order < CP_BUDDY_MAX_ORDER.
 */
int cp_fragmentation_index(const struct cp_buddy *b, unsigned order);

/*
 * compaction_suitable(zone zi of m, order, alloc_flags 0,
 * highest_zoneidx): SUCCESS when the min watermark (with boost) is met
 * at order already; SKIPPED when the order-0 test against min (order <=
 * 3) or low (order > 3) plus compact_gap(order) = 2 << order fails; for
 * order > 3 NOT_SUITABLE_ZONE when the fragmentation index is 0..500;
 * else CONTINUE. normal_index: highest_zoneidx is Normal, so a lower
 * zone's lowmem_reserve is added to both marks (false: highest_zoneidx
 * is the zone itself, as kcompactd_do_work asks). CP_COMPACT_ORDER_ALL:
 * CONTINUE.
 */
enum cp_compact_result cp_compaction_suitable(const struct cp_mem *m, unsigned zi, unsigned order,
					      bool normal_index);

/* compaction_deferred() of zone zi: true while fewer than 1 <<
 * defer_shift attempts at order >= compact_order_failed were considered
 * since the last failure (counts this one). */
bool cp_compaction_deferred(struct cp_compaction *c, unsigned zi, unsigned order);

/* defer_compaction() of zone zi: a failure at order: considered 0,
 * shift + 1 (max 6), order_failed lowered to order. */
void cp_defer_compaction(struct cp_compaction *c, unsigned zi, unsigned order);

/* compaction_defer_reset() of zone zi: success at order; alloc_success
 * also clears considered and shift. order_failed raised to order + 1. */
void cp_compaction_defer_reset(struct cp_compaction *c, unsigned zi, unsigned order,
			       bool alloc_success);

/*
 * compact_zone() of zone zi (its pfns only; highest_zoneidx Normal) for
 * order in mode, run by a task on cpu, as kcompactd runs it (GFP_KERNEL,
 * not a direct compaction): the suitable test, then the migration
 * scanner (from the cached pfn up) isolates page-cache pages pageblock
 * by pageblock and migrates them into free pages the free scanner (from
 * the cached pfn down) isolates, passing pageblocks marked skip (5.1+;
 * 4.11's kcompactd ignores the marks), until a free block of the order
 * exists after a whole pageblock (SUCCESS) or the scanners meet
 * (COMPLETE or PARTIAL_SKIPPED; the cached pfns reset).
 * CP_COMPACT_ORDER_ALL is compact_node()'s: the whole zone from its
 * ends, the marks ignored, until the scanners meet. Counts
 * compact_migrate_scanned, compact_free_scanned, compact_isolated and
 * pgmigrate_success; *st (may be NULL) gets this run's totals.
 */
enum cp_compact_result cp_compact_zone(struct cp_compaction *c, unsigned zi, unsigned order,
				       enum cp_migrate_mode mode, int cpu,
				       struct cp_compact_stats *st);

/* kcompactd_node_suitable(): compaction_suitable() at the node's
 * kcompactd_max_order (highest_zoneidx Normal) is CONTINUE for any zone. */
bool cp_kcompactd_node_suitable(const struct cp_compaction *c);

/*
 * wakeup_kcompactd(pgdat, order): order 0 does nothing; else remember
 * the largest order asked and, when kcompactd sleeps and the node is
 * suitable, wake it (c->wake).
 */
void cp_wakeup_kcompactd(struct cp_compaction *c, unsigned order);

/*
 * kcompactd's work begun (c->kcd; none may be under way). proactive
 * false: kcompactd_do_work() - count compact_daemon_wake, take the
 * order asked (kcompactd_max_order); true: compact_node(pgdat, true)
 * (see cp_proactive_compact_node), kswapd_running(priv) its test of
 * kswapd. The work is done by cp_kcompactd_work_step().
 */
void cp_kcompactd_begin(struct cp_compaction *c, bool proactive,
			bool (*kswapd_running)(void *priv), void *priv);

/*
 * One batch of kcompactd's work under way, run on cpu: compact_zone()
 * goes on from where the last batch stopped (__compact_finished asked
 * again first) until it has isolated and migrated a batch of pages or
 * ended; an ended zone's run is followed by the next zone's.
 * kcompactd_do_work(): each zone, lowest first, unless deferred or not
 * suitable (highest_zoneidx the zone), compact_zone(order,
 * SYNC_LIGHT); success resets the deferral
 * (compaction_defer_reset(order, false)), COMPLETE or PARTIAL_SKIPPED
 * defers; at the end the order is forgotten unless a larger one was
 * asked meanwhile. Counts compact_daemon_{migrate,free}_scanned as it
 * goes. *migrated gets the pages migrated by this batch (the caller
 * charges a page copy each). Returns true while work remains.
 */
bool cp_kcompactd_work_step(struct cp_compaction *c, int cpu, uint64_t *migrated);

/* kcompactd_do_work() start to end (cp_kcompactd_begin, then every
 * batch at once). Returns the pages migrated. */
uint64_t cp_kcompactd_do_work(struct cp_compaction *c, int cpu);

/*
 * try_to_compact_pages() at INIT_COMPACT_PRIORITY (COMPACT_PRIO_ASYNC),
 * as __alloc_pages_direct_compact() runs it for a page-cache folio
 * (MOVABLE) of order allocated with gfp: each zone, Normal first, unless
 * compaction_deferred(): compact_zone(order, ASYNC), stopping at the
 * first SUCCESS (compaction_defer_reset(order, false)); the async
 * priority never defers. Without __GFP_FS in gfp only anonymous pages
 * (the movable fillers) move, no page cache. Returns the highest result
 * (COMPACT_SKIPPED when every zone was skipped, DEFERRED when one was
 * deferred and none ran); *migrated gets the pages moved (the caller
 * charges a copy each).
 */
enum cp_compact_result cp_try_to_compact_pages(struct cp_compaction *c, unsigned order,
					       unsigned gfp, int cpu, uint64_t *migrated);

/* HPAGE_FRAG_CHECK_INTERVAL_MSEC: kcompactd's proactive check period. */
#define CP_HPAGE_FRAG_CHECK_INTERVAL_NS (500 * 1000000ULL)

/*
 * fragmentation_score_zone() = extfrag_for_order(zone,
 * COMPACTION_HPAGE_ORDER): the percentage of the zone's free pages that
 * are not in free blocks of pageblock_order (9) or more; 0 when nothing
 * is free.
 */
unsigned cp_fragmentation_score_zone(const struct cp_buddy *b);

/* fragmentation_score_node(): each zone's score weighted by its present
 * pages (here its managed pages) over the node's + 1, summed. */
unsigned cp_fragmentation_score_node(const struct cp_compaction *c);

/* fragmentation_score_wmark(low): low max(100 - proactiveness, 5), high
 * min(low + 10, 100). */
unsigned cp_fragmentation_score_wmark(unsigned proactiveness, bool low);

/* should_proactive_compact_node(): proactiveness set, kswapd not
 * running, and the node's score above the high mark. */
bool cp_should_proactive_compact_node(const struct cp_compaction *c, bool kswapd_running);

/*
 * compact_node(pgdat, proactive = true) from kcompactd, start to end
 * (cp_kcompactd_begin, then every batch at once): each zone, lowest
 * first, compact_zone() at order -1 (SYNC_LIGHT, GFP_KERNEL, from the
 * zone's ends) until the zone's score is at most the low mark
 * (SUCCESS), the scanners meet, or kswapd runs. A migrated page's old
 * page is freed to cpu's per-CPU list (folio_put -> free_unref_folios;
 * compaction at order -1 drains none, lru_add_drain_cpu_zone being for
 * order > 0), where the watermarks do not see it. Counts
 * compact_daemon_{migrate,free}_scanned (not compact_daemon_wake).
 * Returns the pages migrated (the caller charges a copy each).
 */
uint64_t cp_proactive_compact_node(struct cp_compaction *c, int cpu,
				   bool (*kswapd_running)(void *priv), void *priv);

/*
 * reset_isolation_suitable(pgdat), as kswapd calls it when it goes to
 * sleep (kswapd_try_to_sleep): each zone whose blockskip_flush a direct
 * compaction set gets __reset_isolation_suitable(). 5.1+: walking from
 * both ends towards the middle, a pageblock's mark is cleared when a
 * sample of its pages (every 8th, from its start) finds one on the LRU
 * (the lower half: a migration source) or a free block's head (the
 * upper half, MOVABLE blocks only: a target; either, once that side has
 * found its first block); the cached pfns go to the first source and
 * the last target found. 4.11: every mark cleared, the cached pfns at
 * the zone's ends.
 */
void cp_reset_isolation_suitable(struct cp_compaction *c);

/* Invariants: no isolated free pages outside compact_zone() but in
 * kcompactd's run under way, the lists' pages adding up, the cached
 * free pfn inside the zone, defer_shift <= 6, considered <= 1 << shift,
 * orders < CP_BUDDY_MAX_ORDER + 1. */
bool cp_compaction_check(const struct cp_compaction *c);

#endif /* CP_COMPACTION_H */
