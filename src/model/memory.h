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
#include <stddef.h>
#include <stdint.h>

#include "model/buddy.h"
#include "model/pcp.h"
#include "model/vmstat.h"

struct cp_diag;

/* Who holds a page. Slab caches register their own owner ids. */
enum cp_owner {
	CP_OWNER_RESERVE,   /* kernel text, struct pages, ... never reclaimable */
	CP_OWNER_PROCESS,   /* anonymous memory of processes (and the balloon) */
	CP_OWNER_PAGECACHE, /* file pages on the page LRU */
	CP_OWNER_FSBUF,     /* filesystem metadata buffers (XFS buffer cache) */
	CP_OWNER_PCP,       /* free pages on per-CPU lists (not NR_FREE_PAGES) */
	CP_OWNER_ISOLATED,  /* free blocks compaction isolated as migration targets */
	CP_NR_FIXED_OWNERS
};

/* The page size of the modelled machines (x86-64, 4 KiB). */
#define CP_PAGE_BYTES 4096u

#define CP_MAX_OWNERS 32
#define CP_OWNER_NAME_LEN 24

struct cp_watermarks {
	uint64_t min, low, high; /* pages; min < low < high */
};

/* memcg_stock slots: CPUs beyond this many share them (cpu % slots). */
#define CP_MEMCG_STOCK_CPUS 64

/* A memory cgroup: a limit and what is charged to it. */
struct cp_memcg {
	uint64_t limit_pages;  /* UINT64_MAX: no limit */
	uint64_t usage_pages;  /* invariant: sum of nr_owner[] + nr_stock */
	uint64_t nr_owner[CP_MAX_OWNERS];
	uint64_t failcnt;      /* charges that failed after reclaim */
	int id;
	/* The per-CPU charge stock (mm/memcontrol.c memcg_stock): a charge
	 * takes charge_batch pages from the counter when it can and leaves
	 * the rest on its CPU (refill_stock), where charges of at most
	 * charge_batch pages take them without touching the counter
	 * (consume_stock). Charged, owned by no one. 0: no stock
	 * (cp_memcg_set_charge_batch). */
	unsigned charge_batch;
	uint64_t stock[CP_MEMCG_STOCK_CPUS];
	uint64_t nr_stock;
};

struct cp_alloc_ctx;
struct cp_scan_control;

/* Reclaim entry points installed by whoever owns reclaim (reclaim.c). */
struct cp_mem_hooks {
	/* wakeup_kswapd(zone, gfp, order, highest_zoneidx): an allocation
	 * of 2^order pages fell below the low watermark (highest_zoneidx:
	 * the top zone, every allocation's preferred one), or a watermark
	 * boost asks for reclaim (order 0, highest_zoneidx: the boosted
	 * zone, as rmqueue() passes zone_idx(zone)). Zone indexes are
	 * cp_mem.zones[] indexes. */
	void (*wake_kswapd)(void *priv, unsigned order, unsigned highest_zoneidx);
	/* try_to_free_pages(): reclaim in the caller's context; returns the
	 * number of pages reclaimed (0: no progress). */
	uint64_t (*direct_reclaim)(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr_pages);
	/* __alloc_pages_direct_compact() -> try_to_compact_pages() at the
	 * async priority for a folio of order: false when every zone was
	 * skipped or deferred (COMPACT_SKIPPED / COMPACT_DEFERRED), true
	 * when compaction ran (the caller then tries the free lists). May
	 * be NULL: no direct compaction. */
	bool (*direct_compact)(void *priv, struct cp_alloc_ctx *ctx, unsigned order);
	/* try_to_free_mem_cgroup_pages(): reclaim within memcg. */
	uint64_t (*memcg_reclaim)(void *priv, struct cp_memcg *memcg,
				  struct cp_alloc_ctx *ctx, uint64_t nr_pages);
	/* The same a priority level a call (cp_memcg_stepped): start sets
	 * sc up and runs the first level, step the next one in the
	 * reclaimer's context ctx (the charge's may be gone); both return
	 * true while levels remain. */
	bool (*memcg_reclaim_start)(void *priv, struct cp_memcg *memcg, struct cp_alloc_ctx *ctx,
				    uint64_t nr_pages, struct cp_scan_control *sc);
	bool (*memcg_reclaim_step)(void *priv, struct cp_scan_control *sc,
				   struct cp_alloc_ctx *ctx);
	void *priv;
};

/* Counters of the work reclaim did on behalf of one allocating task:
 * the engine turns them into time charged to that task. */
struct cp_reclaim_work {
	uint64_t nr_reclaimed_pages; /* pages freed from the LRU */
	uint64_t nr_reclaimed_folios; /* folios freed from the LRU */
	uint64_t nr_moved_folios;    /* folios isolated and put back (deactivated, skipped) */
	uint64_t nr_moved_pages;     /* their pages */
	uint64_t nr_scanned_objects; /* slab objects visited by shrinkers */
	uint64_t nr_freed_objects;   /* slab objects freed */
	uint64_t nr_write_ios;       /* synchronous writeback waited for (XFS 4.11 reclaim) */
	uint64_t nr_stalls;          /* direct/memcg reclaim entries */
	uint64_t nr_migrated_pages;  /* pages direct compaction moved (a copy each) */
};

/* The allocating context, as the kernel's gfp mask plus current->. */
struct cp_alloc_ctx {
	unsigned gfp;                 /* CP_GFP_* bits */
	struct cp_memcg *memcg;       /* charged memcg, NULL = root (not limited) */
	int cpu;                      /* CPU the task runs on (per-CPU LRU batches) */
	struct cp_reclaim_work *work; /* optional: accumulates reclaim done here */
	/* optional: this task's memcg reclaims for __GFP_FS charges go a
	 * priority level a step (cp_memcg_stepped) */
	struct cp_memcg_stepped *stepped;
};

/* A task whose memcg reclaim for a __GFP_FS charge goes one priority
 * level per call, so that other tasks run between the levels as they
 * do in the kernel: there a level costs the superblock shrinker's
 * scanning and freeing (milliseconds deep down; a 6.18.44 fs_mark
 * reclaim took 36 ms from priority 12 to 8), and the readers' own
 * reclaims meanwhile refill the inactive list this reclaim finds. A
 * charge that starts such a reclaim runs its first level and fails with
 * -CP_EAGAIN; the task ends its step (its operation undone), runs the
 * next level at its next step (cp_memcg_reclaim_continue), and, once
 * the reclaim is over, tries its operation again: the charge then goes
 * on with the retry budget it had. Reclaims for charges without
 * __GFP_FS (whose superblock shrinking stops at once) stay whole. */
struct cp_memcg_stepped {
	struct cp_scan_control *sc; /* the task's: the reclaim in progress */
	bool in_reclaim;            /* levels remain */
	bool charging;              /* a charge is between reclaim rounds */
	unsigned retries;           /* its retry budget left */
};


/* include/linux/mmzone.h enum zone_type on x86-64, same order. */
enum cp_zone_type { CP_ZONE_DMA, CP_ZONE_DMA32, CP_ZONE_NORMAL, CP_NR_ZONE_TYPES };

/* A measured layout of free memory to start from (/proc/pagetypeinfo's
 * free blocks): blocks[type][order] summed over the zones, and, when
 * the harness recorded them (has_zones), each zone's own blocks and its
 * managed pages (/proc/zoneinfo at the same moment; 0: not recorded). */
struct cp_mem_start_free {
	uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER];
	bool has_zones;
	uint64_t zone_blocks[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER];
	uint64_t zone_managed_pages[CP_NR_ZONE_TYPES];
	/* with has_zones, when recorded too: each zone's pageblocks of each
	 * type ("Number of blocks type"); the fragments of a type are laid
	 * into that many (start_layout.c) */
	bool has_pageblocks;
	uint64_t zone_pageblocks[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES];
	/* with has_zones: the zone blocks are all the free memory the real
	 * run had after its balloon (the harness records every block of
	 * /proc/pagetypeinfo), and zone_pcp_pages what its per-CPU lists
	 * held then. With size_is_available the model's zones get exactly
	 * that free memory (zone.c), not SIZE plus totalreserve: a balloon
	 * that locked more than it meant to left the run less. */
	bool zone_free_measured;
	uint64_t zone_pcp_pages[CP_NR_ZONE_TYPES];
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
	/* Placement only (the buddy allocator; no decision depends on it): */
	bool buddy_4_11;                  /* 4.11 fallback rules (buddy.c) */
	bool buddy_claim_steal;           /* 6.15+ claim/steal fallback (buddy.c) */
	unsigned watermark_boost_factor;  /* 15000 (6.1), 0: no boosting (4.11) */
	bool alloc_nofragment;            /* ALLOC_NOFRAGMENT: a lower zone exists */
	/* Per-CPU page lists (pcp.c) for this many CPUs; 0: none, every
	 * allocation and free goes to the buddy at once. Their rules
	 * (orders, batch, high) follow buddy_4_11. */
	unsigned nr_cpus;
	/* 6.7+ pcp high auto-tuning (pcp.c; not with buddy_4_11) */
	bool pcp_auto_tune;
	/* NULL: every free page in the largest blocks (a machine just
	 * booted). Else the free blocks below pageblock_order start as
	 * measured (see cp_mem_init). */
	const struct cp_mem_start_free *start_free;
	/* total_pages is MemAvailable as the real harness's balloon leaves
	 * it (si_mem_available: free pages less totalreserve_pages): each
	 * zone gets its high watermark and lowmem_reserve on top, and the
	 * reserve comes on top too (the kernel's own memory is not in
	 * MemAvailable) */
	bool size_is_available;
	/* ZONE_DMA32's managed pages on the machine (0: not known, one
	 * zone as before). The first min(dma32_pages, total_pages) pages
	 * are ZONE_DMA32, the rest ZONE_NORMAL (zone.c). */
	uint64_t dma32_pages;
	/* Managed pages of the real machine's zones, when the model's
	 * zones stand for them (validate): each zone's watermarks, boost
	 * cap, pcp sizes and lowmem reserve come from these; 0: from the
	 * model's zone. [CP_ZONE_DMA] only takes its share of
	 * min_free_kbytes. */
	uint64_t zone_managed_pages[CP_NR_ZONE_TYPES];
};

/* Blocks placed for count-only callers (cp_mem_alloc / cp_mem_take):
 * a stack, so cp_mem_free() of n pages gives back the n placed last. */
struct cp_mem_block {
	uint32_t pfn;
	uint16_t order;
	uint16_t nr_split; /* 0: the whole block; else split_page() was done
			    * and pages pfn .. pfn + nr_split - 1 are held */
};

struct cp_mem_anon {
	struct cp_mem_block *blocks;
	size_t nr, cap;
	uint64_t nr_pages;     /* invariant: pages of blocks[] <= nr_owner */
};

#define CP_MEM_MAX_ZONES 2 /* DMA32 and Normal (zone.c: DMA is not modelled) */

/*
 * One zone of the node: a pfn range [start_pfn, start_pfn + buddy.nr_pages)
 * of the node's (global, unique) pfns, lowest zone first. Its buddy and
 * pcp lists work in zone-local pfns (global - start_pfn); memory.c
 * translates at its boundary, so callers only see global pfns.
 */
struct cp_mem_zone {
	enum cp_zone_type type;     /* CP_ZONE_DMA32 or CP_ZONE_NORMAL */
	uint32_t start_pfn;         /* global pfn of the buddy's pfn 0 */
	uint64_t managed_pages;     /* zone_managed_pages(): watermarks, pcp sizes, reserve */
	uint64_t free_pages;        /* NR_FREE_PAGES of the zone; invariant: buddy's free */
	struct cp_watermarks wmark; /* without the boost (buddy.watermark_boost) */
	/* lowmem_reserve[ZONE_NORMAL]: kept free from allocations that
	 * could use Normal (0 for Normal itself) */
	uint64_t lowmem_reserve;
	struct cp_buddy buddy;
	/* Per-CPU page lists (when pcp.nr_cpus > 0): their pages are
	 * counted in nr_owner[CP_OWNER_PCP] (invariant: sum over zones). */
	struct cp_pcp pcp;
};

/* How SLUB sizes a cache's per-CPU partial lists (mm/slub.c
 * set_cpu_partial), which decides how many emptied slabs a cache keeps
 * rather than giving their pages back (slab.c). */
enum cp_slub_partial {
	CP_SLUB_PARTIAL_NONE,    /* every emptied slab goes back at once */
	CP_SLUB_PARTIAL_OBJECTS, /* 4.11 - 5.15: up to 2/6/13/30 free objects a CPU */
	CP_SLUB_PARTIAL_SLABS,   /* 5.16+: 2 x 6/24/52/120 objects' worth of slabs a CPU */
};

struct cp_mem {
	uint64_t total_pages;
	uint64_t free_pages;   /* invariant: total - sum(nr_owner) = sum of zones' */
	uint64_t nr_owner[CP_MAX_OWNERS];
	char owner_name[CP_MAX_OWNERS][CP_OWNER_NAME_LEN];
	unsigned nr_owners;
	uint64_t min_free_kbytes;
	struct cp_watermarks wmark;
	/* calculate_totalreserve_pages(): every zone's high watermark plus
	 * its largest lowmem_reserve (cp_zone_totalreserve), as the
	 * watermarks were set up: what the dirty limits and MemAvailable
	 * hold back */
	uint64_t totalreserve_pages;
	unsigned memcg_reclaim_retries;
	unsigned max_reclaim_retries;
	struct cp_mem_hooks hooks;
	struct cp_vmstat *vmstat;

	/* The zones, lowest first: every page counted in nr_owner[] is an
	 * allocated page of one zone's buddy (invariant: their
	 * nr_allocated_pages sum to total_pages - free_pages). */
	struct cp_mem_zone zones[CP_MEM_MAX_ZONES];
	unsigned nr_zones;            /* 1 or 2 */
	unsigned buddy_alloc_flags;   /* CP_BUDDY_ALLOC_NOFRAGMENT or 0 */
	int cpu;                      /* smp_processor_id() of frees: cp_mem_set_cpu */
	struct cp_mem_anon anon[CP_MAX_OWNERS];
	/* Per pfn, 1: a page of the measured start layout that compaction
	 * may move (the allocated pages of MOVABLE pageblocks, on the real
	 * machine mostly the balloon's mlocked anonymous pages, which
	 * compaction migrates: compact_unevictable_allowed = 1). NULL: no
	 * such pages (no start layout). Counted under CP_OWNER_RESERVE. */
	uint8_t *movable_filler;
	/* SLUB's per-CPU partial lists for the caches created after
	 * cp_mem_set_slub(): their kind (enum cp_slub_partial) and CPUs */
	uint8_t slub_partial;
	unsigned slub_nr_cpus;
};

/* The SLUB partial lists of the slab caches created from now on
 * (cp_slab_cache_init): kind, and nr_cpus CPUs with a list each. */
void cp_mem_set_slub(struct cp_mem *m, enum cp_slub_partial kind, unsigned nr_cpus);

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

/* Initialise m (zone.c): one zone, or DMA32 and Normal when
 * p->dma32_pages is set (see cp_mem_params); every page free except
 * the reserve, the first pfns of each zone, split by zone size.
 * With p->start_free, the free blocks below pageblock_order (order < 9)
 * start as measured, each in a pageblock of its migratetype next to an
 * allocated buddy of its size, so it cannot merge: those buddies (and
 * the rest of each such pageblock) are memory the machine holds outside
 * the experiment (the balloon, other slabs), added to the zone as
 * reserve; the free pages stay total - reserve. Measured blocks that
 * would not fit in the free memory are scaled down in proportion. Returns 0,
 * -CP_EINVAL (diag says which parameter) when the reserve does not fit
 * or the watermarks leave no memory, or -CP_ENOMEM (host); on failure m
 * needs no release. */
int cp_mem_init(struct cp_mem *m, const struct cp_mem_params *p, struct cp_vmstat *vmstat,
		struct cp_diag *diag);

/* Free the host memory of m (the buddy's page map). */
void cp_mem_release(struct cp_mem *m);

/* The CPU the code running now is on (smp_processor_id()): frees go to
 * its per-CPU lists. The engine sets it as a task starts a step;
 * allocations use their ctx->cpu. Out of range: CPU 0. */
void cp_mem_set_cpu(struct cp_mem *m, int cpu);

/* set_reclaim_active() / clear_reclaim_active() (mm/vmscan.c, 5.14+;
 * not in 4.11, where it has no effect): while set, the per-CPU lists
 * keep at most 4 * batch pages (nr_pcp_high). */
void cp_mem_set_reclaim_active(struct cp_mem *m, bool active);

/* drain_all_pages(): every per-CPU list back to the buddy; the pages
 * become free pages. Returns how many. */
uint64_t cp_mem_drain_all_pages(struct cp_mem *m);

/* refresh_cpu_vm_stats() -> decay_pcp_high() (6.7+, pcp auto-tuning;
 * nothing otherwise): every zone's per-CPU high decays by an eighth
 * towards high_min and the pages above it go back to the buddy (they
 * become free pages). Returns how many. The engine calls it every
 * sysctl_stat_interval (1 s). */
uint64_t cp_mem_vmstat_update(struct cp_mem *m);

/* The zones' per-CPU lists auto-tune their high (6.7+). */
bool cp_mem_pcp_auto_tune(const struct cp_mem *m);

/* Register a new owner (a slab cache). Returns its id (>= 0) or
 * -CP_ENOSPC when CP_MAX_OWNERS are in use. */
int cp_mem_register_owner(struct cp_mem *m, const char *name);

void cp_mem_set_hooks(struct cp_mem *m, const struct cp_mem_hooks *hooks);

/* A zone's watermarks as the allocator and kswapd read them: 5.0+
 * min/low/high_wmark_pages() add zone->watermark_boost (include/linux/
 * mmzone.h); the boost is always 0 when boosting is off (4.11). */
static inline uint64_t cp_zone_wmark_min(const struct cp_mem_zone *z)
{
	return z->wmark.min + z->buddy.watermark_boost;
}

static inline uint64_t cp_zone_wmark_low(const struct cp_mem_zone *z)
{
	return z->wmark.low + z->buddy.watermark_boost;
}

static inline uint64_t cp_zone_wmark_high(const struct cp_mem_zone *z)
{
	return z->wmark.high + z->buddy.watermark_boost;
}

/* The sum of every zone's boost (pgdat_watermark_boosted: not 0). */
static inline uint64_t cp_mem_boost_pages(const struct cp_mem *m)
{
	uint64_t b = 0;
	unsigned i;

	for (i = 0; i < m->nr_zones; i++)
		b += m->zones[i].buddy.watermark_boost;
	return b;
}

/* zone_watermark_ok() of zone zi (index in m->zones) for an
 * order-`order` block against mark: the count test, and for order > 0
 * a free block that large (the buddy's free lists). */
bool cp_mem_zone_watermark_ok(const struct cp_mem *m, unsigned zi, unsigned order, uint64_t mark);

/* The index in m->zones of the zone holding global pfn. */
unsigned cp_mem_pfn_zone(const struct cp_mem *m, uint32_t pfn);

/* cp_buddy_free_block_order() / cp_buddy_page_kind() of a global pfn in
 * its zone. */
int cp_mem_free_block_order(const struct cp_mem *m, uint32_t pfn);
enum cp_buddy_page_kind cp_mem_page_kind(const struct cp_mem *m, uint32_t pfn, unsigned *order);

/* migrate_pages(): the old folio of a migration, the 2^order allocated
 * order-0 pages at pfn (aligned), is freed whole at its order
 * (free_unref_folios). cpu < 0, or an order the per-CPU lists do not
 * take: to its zone's buddy (compaction for an order drains the per-CPU
 * lists at each order-aligned block, lru_add_drain_cpu_zone; the model
 * frees there at once). No count changes: the new folio was free memory
 * compaction isolated (cp_buddy_isolate_free_block) in the same zone.
 * cpu >= 0: to that CPU's per-CPU list, as the kernel leaves it after
 * compaction at order -1: the zone's free pages drop by 2^order, the
 * lists hold them. 0 or -CP_EINVAL (not 2^order allocated order-0
 * pages; nothing changed). */
int cp_mem_migrate_free(struct cp_mem *m, uint32_t pfn, unsigned order, int cpu);

/* Pages on every zone's per-CPU lists. */
uint64_t cp_mem_pcp_held_pages(const struct cp_mem *m);

/*
 * Allocate nr pages for owner in context ctx: charge ctx->memcg (memcg
 * limit reclaim when over the limit), then take pages from the free pool,
 * waking kswapd below the low watermark and reclaiming directly below min
 * (__alloc_pages_slowpath), draining the per-CPU lists when direct
 * reclaim did not make room and before failing. A single page (a page
 * fault) is placed by the zonelist walk itself, as a block allocation
 * is (ALLOC_NOFRAGMENT tries every zone's own-type pages first); more
 * pages are counted in one zone and placed there. Returns 0, -CP_ENOSPC
 * when reclaim made no progress (the kernel would OOM), or -CP_ENOMEM (host memory for the
 * placement record); on failure nothing is charged or taken.
 */
int cp_mem_alloc(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_alloc_ctx *ctx);

/* Return nr pages of owner (and uncharge memcg, if not NULL). Only for
 * pages cp_mem_alloc() or cp_mem_take() gave: the last nr placed for
 * owner go back to the buddy. */
void cp_mem_free(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg);

/* Take nr free pages for owner without reclaim or watermarks (process
 * memory set up front, tests). 0, -CP_ENOSPC or -CP_ENOMEM (host); on
 * failure nothing is taken. */
int cp_mem_take(struct cp_mem *m, unsigned owner, uint64_t nr);

/*
 * cp_mem_alloc() of 2^order pages, then placed: one block of migratetype
 * mt from the buddy (__rmqueue), its first pfn in pfns[0] and *split
 * false. When the count allowed the allocation but no free block of
 * that order exists (fragmentation; order > 0 only) the decision stands:
 * cp_highorder_nofit is counted and the pages are 2^order order-0 blocks
 * in pfns[0 .. 2^order - 1], *split true. pfns has room for 2^order
 * entries. Returns as cp_mem_alloc(); on failure nothing is placed.
 */
int cp_mem_alloc_block(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns, bool *split);

/*
 * cp_mem_alloc_block() of a new slab at its cache's order for a caller
 * that may reclaim directly: SLUB's first try (allocate_slab, 4.4+)
 * takes __GFP_RECLAIM off it, so the block is placed without
 * ALLOC_KSWAPD - a fallback's watermark boost raises the zone's boost
 * but does not flag the zone for rmqueue()'s kswapd wake-up
 * (try_to_claim_block sets ZONE_BOOSTED_WATERMARK only with
 * ALLOC_KSWAPD). That is the fast path's placement (at the low
 * watermark); a block the slow path finds is placed with the caller's
 * flags, as SLUB's second try would be (at the minimum order, there).
 */
int cp_mem_alloc_slab_block(struct cp_mem *m, unsigned owner, unsigned order,
			    enum cp_migratetype mt, struct cp_alloc_ctx *ctx, uint32_t *pfns,
			    bool *split);

/*
 * alloc_pages(gfp, order) of one block for a caller that has a fallback
 * (SLUB's allocate_slab() tries): the watermark test at the block's
 * order, as cp_mem_alloc_folio() makes it (a free block of that order or
 * larger must be there), the slow path waking kswapd at `order` when gfp
 * allows and reclaiming directly only when gfp allows that too. The
 * block stays whole (freed with cp_mem_free_block() at its order).
 * Returns 0 with its first pfn in *pfn, -CP_ENOSPC (no block: nothing
 * charged or taken) or -CP_ENOMEM.
 */
int cp_mem_try_alloc_block(struct cp_mem *m, unsigned owner, unsigned order,
			   enum cp_migratetype mt, struct cp_alloc_ctx *ctx, uint32_t *pfn);

/*
 * filemap_alloc_folio(gfp, order) for a large folio (order > 0): the
 * fast path at the low watermark for this order (a free block of it must
 * exist), else __alloc_pages_slowpath(): wake kswapd at `order`, retry
 * at the min watermark, then (the hook installed, __GFP_IO) one
 * asynchronous direct compaction; an order above PAGE_ALLOC_COSTLY_ORDER
 * (3) with __GFP_NORETRY whose compaction was skipped stops there,
 * smaller orders reclaim directly once per __GFP_NORETRY. The block is
 * split into 2^order order-0 pages (pfns *pfn .. *pfn + 2^order - 1) so
 * that page-level state (compaction's scanners) sees each page; the
 * folio is freed whole with cp_mem_free_folio(), as the kernel frees it.
 * memcg: 2^order pages charged at once. Returns 0, -CP_ENOSPC (no folio:
 * the caller falls back to smaller ones; nothing charged or taken) or
 * -CP_ENOMEM.
 */
int cp_mem_alloc_folio(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfn);

/* cp_mem_alloc() of nr pages placed as nr order-0 blocks in pfns[]
 * (alloc_pages_bulk_array / a loop of alloc_page). */
int cp_mem_alloc_pages(struct cp_mem *m, unsigned owner, uint64_t nr, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns);

/* Is pfn a start-layout page compaction may move (movable_filler)? */
static inline bool cp_mem_movable_filler(const struct cp_mem *m, uint32_t pfn)
{
	return m->movable_filler && pfn < m->total_pages && m->movable_filler[pfn];
}

/* m->movable_filler, allocated (all 0) at its first use; NULL when the
 * host has no memory for it. */
uint8_t *cp_mem_movable_filler_map(struct cp_mem *m);

/* Mark the allocated order-0 page at pfn as a movable filler (the start
 * layout; tests). 0, or -CP_EINVAL when pfn is not an allocated order-0
 * page, -CP_ENOMEM (host). */
int cp_mem_mark_movable_filler(struct cp_mem *m, uint32_t pfn);

/* __isolate_free_page(): compaction took the free block of 2^order
 * pages it isolated from zone zi's buddy (cp_buddy_isolate_free_block)
 * off the zone's free count too - NR_FREE_PAGES drops (6.10+
 * del_page_from_free_list -> account_freepages; __mod_zone_freepage_state
 * before) - and holds it under CP_OWNER_ISOLATED until it becomes a
 * migration target (cp_mem_migrate_free) or goes back. */
void cp_mem_isolated_free_block(struct cp_mem *m, unsigned zi, unsigned order);

/* release_free_list(): an unused isolated block of 2^order pages the
 * caller gave back to zone zi's buddy (cp_buddy_free) is free again. */
void cp_mem_putback_isolated(struct cp_mem *m, unsigned zi, unsigned order);

/* migrate_pages() of a movable filler page: its contents go to new_pfn
 * (an allocated order-0 page compaction isolated from the free lists)
 * and old_pfn is freed as cp_mem_migrate_free(order 0, cpu) says. 0 or
 * -CP_EINVAL. */
int cp_mem_migrate_filler(struct cp_mem *m, uint32_t old_pfn, uint32_t new_pfn, int cpu);

/* cp_mem_free() of the block of 2^order pages at pfn. */
void cp_mem_free_block(struct cp_mem *m, unsigned owner, uint32_t pfn, unsigned order,
		       struct cp_memcg *memcg);

/*
 * free_unref_folios() / __folio_put() of a folio cp_mem_alloc_folio()
 * made: its 2^order pages at pfn (still allocated, split) are joined and
 * freed as one block of that order: to the freeing CPU's pcp list of
 * that order when pcp_allowed_order() takes it (orders 0-3), else
 * straight to the buddy (free_one_page), where it merges at once.
 */
void cp_mem_free_folio(struct cp_mem *m, unsigned owner, uint32_t pfn, unsigned order,
		       struct cp_memcg *memcg);

/* cp_mem_free() of nr order-0 blocks. */
void cp_mem_free_pages(struct cp_mem *m, unsigned owner, const uint32_t *pfns, uint64_t nr,
		       struct cp_memcg *memcg);

void cp_memcg_init(struct cp_memcg *memcg, int id, uint64_t limit_pages);

/* MEMCG_CHARGE_BATCH (the kernel profile's memcg_charge_batch): from now
 * on charges go through the per-CPU stock; 0 turns it off. */
void cp_memcg_set_charge_batch(struct cp_memcg *memcg, unsigned batch);

/* try_charge_memcg(): charge nr pages of owner to memcg, reclaiming
 * from it (try_to_free_mem_cgroup_pages, when ctx->gfp allows direct
 * reclaim) while over the limit, up to the retry budget. 0 or
 * -CP_ENOSPC (failcnt counted), or, for a stepped task's __GFP_FS
 * charge, -CP_EAGAIN when its reclaim has levels left
 * (cp_memcg_stepped). */
int cp_memcg_try_charge(struct cp_mem *m, struct cp_memcg *memcg, unsigned owner, uint64_t nr,
			struct cp_alloc_ctx *ctx);

/* The next priority level of the task's stepped memcg reclaim
 * (cp_memcg_stepped); true while levels remain. */
bool cp_memcg_reclaim_continue(struct cp_mem *m, struct cp_alloc_ctx *ctx);

/* Charge without reclaim (page_counter_try_charge): 0 or -CP_ENOSPC. */
int cp_memcg_try_charge_nowait(struct cp_memcg *memcg, unsigned owner, uint64_t nr);
void cp_memcg_uncharge(struct cp_memcg *memcg, unsigned owner, uint64_t nr);

/* Invariants: free + owners == total; watermarks ordered; per zone:
 * its buddy's free pages are its free_pages, its pcp lists consistent,
 * the zones tile the pfns from 0 in order, only a lower zone has a
 * lowmem reserve; the zones' free pages sum to free_pages and their
 * allocated pages to the owners' sum (CP_OWNER_PCP included: the pcp
 * lists' pages); count-only blocks of an owner no more than its count.
 * O(owners + pages on pcp lists). */
bool cp_mem_check(const struct cp_mem *m);
bool cp_memcg_check(const struct cp_memcg *memcg);

#endif /* CP_MEMORY_H */
