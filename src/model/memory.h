/*
 * memory.h - physical memory by owner, watermarks, the allocator's
 * reclaim entry points, and memory cgroup charging.
 *
 * Models the parts of mm/page_alloc.c (zone_watermark_ok,
 * __alloc_pages_slowpath, __setup_per_zone_wmarks,
 * init_per_zone_wmark_min) and mm/memcontrol.c (try_charge) that decide
 * when an allocation reclaims. Reclaim itself lives above this file: the
 * caller installs hooks (kswapd wake-up, direct reclaim, memcg reclaim),
 * so the allocation -> reclaim -> free loop closes at run time, not in
 * the includes.
 */
#ifndef CP_MEMORY_H
#define CP_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/vmstat.h"

struct cp_diag;

/* Who holds a page. Slab caches register their own owner ids. */
enum cp_owner {
	CP_OWNER_RESERVE,   /* kernel text, struct pages, ... never reclaimable */
	CP_OWNER_PROCESS,   /* anonymous memory of processes (and the balloon) */
	CP_OWNER_PAGECACHE, /* file pages on the page LRU */
	CP_OWNER_FSBUF,     /* filesystem metadata buffers (XFS buffer cache) */
	CP_NR_FIXED_OWNERS
};

#define CP_MAX_OWNERS 32
#define CP_OWNER_NAME_LEN 24

struct cp_watermarks {
	uint64_t min, low, high; /* pages; min < low < high */
};

/* A memory cgroup: a limit and what is charged to it. */
struct cp_memcg {
	uint64_t limit_pages;  /* UINT64_MAX: no limit */
	uint64_t usage_pages;  /* invariant: sum of nr_owner[] */
	uint64_t nr_owner[CP_MAX_OWNERS];
	uint64_t failcnt;      /* charges that failed after reclaim */
	int id;
};

struct cp_alloc_ctx;

/* Reclaim entry points installed by whoever owns reclaim (reclaim.c). */
struct cp_mem_hooks {
	/* wakeup_kswapd(): free memory fell below the low watermark. */
	void (*wake_kswapd)(void *priv);
	/* try_to_free_pages(): reclaim in the caller's context; returns the
	 * number of pages reclaimed (0: no progress). */
	uint64_t (*direct_reclaim)(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr_pages);
	/* try_to_free_mem_cgroup_pages(): reclaim within memcg. */
	uint64_t (*memcg_reclaim)(void *priv, struct cp_memcg *memcg,
				  struct cp_alloc_ctx *ctx, uint64_t nr_pages);
	void *priv;
};

/* Counters of the work reclaim did on behalf of one allocating task:
 * the engine turns them into time charged to that task. */
struct cp_reclaim_work {
	uint64_t nr_scanned_pages;   /* LRU pages examined */
	uint64_t nr_reclaimed_pages; /* pages freed from the LRU */
	uint64_t nr_scanned_objects; /* slab objects visited by shrinkers */
	uint64_t nr_freed_objects;   /* slab objects freed */
	uint64_t nr_write_ios;       /* synchronous writeback waited for (XFS 4.11 reclaim) */
	uint64_t nr_stalls;          /* direct/memcg reclaim entries */
};

/* The allocating context, as the kernel's gfp mask plus current->. */
struct cp_alloc_ctx {
	unsigned gfp;                 /* CP_GFP_* bits */
	struct cp_memcg *memcg;       /* charged memcg, NULL = root (not limited) */
	int cpu;                      /* CPU the task runs on (per-CPU LRU batches) */
	struct cp_reclaim_work *work; /* optional: accumulates reclaim done here */
};

struct cp_mem_params {
	uint64_t total_pages;     /* RAM in pages */
	uint64_t reserve_pages;   /* never available to the allocator */
	uint64_t min_free_kbytes; /* 0: compute the kernel default */
	bool thp_enabled;         /* khugepaged raises min_free_kbytes */
	unsigned nr_zones;        /* populated zones, for the THP rule */
	unsigned watermark_scale_factor;  /* default 10 (0.1 %) */
	uint64_t min_free_kbytes_max;     /* 65536 (4.11) or 262144 (6.1) */
	unsigned memcg_reclaim_retries;   /* 5 (4.11) or 16 (6.1) */
	unsigned max_reclaim_retries;     /* global allocator: 16 */
};

struct cp_mem {
	uint64_t total_pages;
	uint64_t free_pages;   /* invariant: total - sum(nr_owner) */
	uint64_t nr_owner[CP_MAX_OWNERS];
	char owner_name[CP_MAX_OWNERS][CP_OWNER_NAME_LEN];
	unsigned nr_owners;
	uint64_t min_free_kbytes;
	struct cp_watermarks wmark;
	unsigned memcg_reclaim_retries;
	unsigned max_reclaim_retries;
	struct cp_mem_hooks hooks;
	struct cp_vmstat *vmstat;
};

/* Default min_free_kbytes for lowmem_kbytes of memory (mm/page_alloc.c
 * init_per_zone_wmark_min: int_sqrt(lowmem_kbytes * 16), clamped to
 * [128, max_kbytes]). */
uint64_t cp_min_free_kbytes_default(uint64_t lowmem_kbytes, uint64_t max_kbytes);

/* khugepaged's set_recommended_min_free_kbytes(): pageblock (512 pages)
 * x nr_zones x (2 + 3*3) pages, capped at 5 % of lowmem; in KiB. */
uint64_t cp_min_free_kbytes_thp(uint64_t lowmem_kbytes, unsigned nr_zones);

/* __setup_per_zone_wmarks() for one zone holding all managed pages:
 * min = min_free_kbytes / 4, tmp = max(min / 4, managed * wsf / 10000),
 * low = min + tmp, high = min + 2 * tmp (4.11 and 6.1 agree). */
struct cp_watermarks cp_watermarks_compute(uint64_t managed_pages, uint64_t min_free_kbytes,
					   unsigned watermark_scale_factor);

/* Initialise m. Returns 0, or -CP_EINVAL (diag says which parameter)
 * when the reserve does not fit or the watermarks leave no memory; on
 * failure m is unusable but needs no release. */
int cp_mem_init(struct cp_mem *m, const struct cp_mem_params *p, struct cp_vmstat *vmstat,
		struct cp_diag *diag);

/* Register a new owner (a slab cache). Returns its id (>= 0) or
 * -CP_ENOSPC when CP_MAX_OWNERS are in use. */
int cp_mem_register_owner(struct cp_mem *m, const char *name);

void cp_mem_set_hooks(struct cp_mem *m, const struct cp_mem_hooks *hooks);

/* zone_watermark_ok() for an allocation of nr pages against mark. */
static inline bool cp_mem_watermark_ok(const struct cp_mem *m, uint64_t mark, uint64_t nr)
{
	return m->free_pages >= mark + nr;
}

/*
 * Allocate nr pages for owner in context ctx: charge ctx->memcg (memcg
 * limit reclaim when over the limit), then take pages from the free pool,
 * waking kswapd below the low watermark and reclaiming directly below min
 * (__alloc_pages_slowpath). Returns 0, or -CP_ENOSPC when reclaim made no
 * progress (the kernel would OOM); on failure nothing is charged or taken.
 */
int cp_mem_alloc(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_alloc_ctx *ctx);

/* Return nr pages of owner (and uncharge memcg, if not NULL). */
void cp_mem_free(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg);

/* Move nr pages from one owner to another without touching the free pool
 * (used for the reserve and for process memory set up front). */
int cp_mem_take(struct cp_mem *m, unsigned owner, uint64_t nr);

void cp_memcg_init(struct cp_memcg *memcg, int id, uint64_t limit_pages);

/* Charge without reclaim (page_counter_try_charge): 0 or -CP_ENOSPC. */
int cp_memcg_try_charge_nowait(struct cp_memcg *memcg, unsigned owner, uint64_t nr);
void cp_memcg_uncharge(struct cp_memcg *memcg, unsigned owner, uint64_t nr);

/* Invariants: free + owners == total; watermarks ordered. */
bool cp_mem_check(const struct cp_mem *m);
bool cp_memcg_check(const struct cp_memcg *memcg);

#endif /* CP_MEMORY_H */
