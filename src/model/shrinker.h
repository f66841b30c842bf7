/*
 * shrinker.h - shrinker registry and do_shrink_slab().
 */
#ifndef CP_SHRINKER_H
#define CP_SHRINKER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/profile.h"
#include "model/vmstat.h"

#define CP_SHRINK_STOP UINT64_MAX        /* scan: cannot make progress now */
#define CP_SHRINK_EMPTY (UINT64_MAX - 1) /* count: nothing here at all (6.1) */
#define CP_SHRINK_BATCH 128              /* mm/vmscan.c SHRINK_BATCH */
#define CP_DEFAULT_SEEKS 2               /* include/linux/shrinker.h */
#define CP_MAX_MEMCGS 4                  /* memcg ids 0 (root) .. 3 */
/* Global reclaim with the run's tasks in a child memcg (machine
 * tasks_in_child_memcg): the kernel's root memcg, whose lists hold none
 * of the run's objects; the run's own objects stay in memcg 0. */
#define CP_MEMCG_EMPTY_ROOT (CP_MAX_MEMCGS - 1)

/* struct shrink_control: what one count/scan call is asked. */
/* The deepest reclaim priorities, counted apart (DEF_PRIORITY is 12; at
 * priority p do_shrink_slab() scans freeable >> p, times 4 / seeks, plus
 * nr_deferred >> p: at 3 a quarter of the cache, at 0 all of it twice). */
#define CP_SHRINK_DEEP_PRIORITY 3

struct cp_shrink_control {
	unsigned gfp;            /* the reclaimer's allocation context */
	int memcg_id;            /* memcg whose lists to look at (0 = root) */
	uint64_t nr_to_scan;     /* scan: objects to look at */
	uint64_t nr_scanned;     /* scan: objects looked at (callee may change) */
	bool is_kswapd;          /* current_is_kswapd(): PGINODESTEAL vs KSWAPD_INODESTEAL */
	struct cp_alloc_ctx *ctx; /* the reclaimer's context (its work counters) */
};

struct cp_shrinker_ops {
	const char *name;
	/* ->count_objects(): freeable objects, or CP_SHRINK_EMPTY */
	uint64_t (*count)(void *priv, struct cp_shrink_control *sc);
	/* ->scan_objects(): objects freed, or CP_SHRINK_STOP */
	uint64_t (*scan)(void *priv, struct cp_shrink_control *sc);
};

struct cp_shrinker {
	const struct cp_shrinker_ops *ops;
	void *priv;
	unsigned seeks;        /* DEFAULT_SEEKS = 2 */
	uint64_t batch;        /* 0 = SHRINK_BATCH */
	bool memcg_aware;      /* SHRINKER_MEMCG_AWARE */
	/* work computed but not done yet, per memcg id (6.1 keeps it per
	 * memcg for memcg-aware shrinkers; 4.11 only per node: index 0) */
	uint64_t nr_deferred[CP_MAX_MEMCGS];
	uint64_t nr_scanned_total; /* objects handed to ->scan */
	uint64_t nr_freed_total;   /* what ->scan reported freed */
	/* calls at priority <= CP_SHRINK_DEEP_PRIORITY (6.1 rule) and their
	 * total_scan, as vmscan:mm_shrink_slab_start reports them */
	uint64_t nr_deep_calls;
	uint64_t nr_deep_scan;
	uint64_t nr_deep_fs_calls; /* of those, the ones with __GFP_FS */
};

struct cp_shrinker_registry {
	struct cp_shrinker *shrinkers[16];
	unsigned nr;
	enum cp_shrink_rule rule;
	bool deferred_per_memcg;
	struct cp_vmstat *vmstat;
};

void cp_shrinker_registry_init(struct cp_shrinker_registry *reg,
			       const struct cp_kernel_profile *profile, struct cp_vmstat *vmstat);

/* register_shrinker(): 0, or -CP_ENOSPC when the registry is full. */
int cp_register_shrinker(struct cp_shrinker_registry *reg, struct cp_shrinker *s);

/* Inputs of one do_shrink_slab() call. */
struct cp_shrink_pressure {
	uint64_t nr_scanned;  /* 4.11: LRU pages the preceding page scan examined */
	uint64_t nr_eligible; /* 4.11: LRU pages that scan considered */
	int priority;         /* >= 4.16: reclaim priority 12..0 */
};

/*
 * do_shrink_slab(): turn reclaim pressure into a scan target for one
 * shrinker (the profile's rule, ref §6.1 / §6.2), add deferred work,
 * call ->scan in batches, and carry what was not done in nr_deferred.
 * Returns the objects ->scan reported freed.
 */
uint64_t cp_do_shrink_slab(struct cp_shrinker_registry *reg, struct cp_shrinker *s,
			   struct cp_shrink_control *sc, const struct cp_shrink_pressure *p);

/*
 * shrink_slab(): run every shrinker that applies to memcg_id (memcg-aware
 * ones for a memcg, all of them for the root). 4.11 substitutes
 * SWAP_CLUSTER_MAX for nr_scanned == 0. Returns objects freed.
 */
uint64_t cp_shrink_slab(struct cp_shrinker_registry *reg, struct cp_shrink_control *sc,
			const struct cp_shrink_pressure *p);

#endif /* CP_SHRINKER_H */
