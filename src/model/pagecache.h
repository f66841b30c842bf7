/*
 * pagecache.h - file address spaces of 4 KiB pages, the file LRU lists of
 * one lruvec, shadow entries.
 *
 * Page metadata is compact (20 bytes a page slot) so a 16 GiB scenario
 * with 4M+ pages fits easily: each file (mapping) owns a contiguous range
 * of slots, one per page index; a slot holds either a resident page (on
 * an LRU list or in a per-CPU add batch), a shadow entry of an evicted
 * page, or nothing. LRU links are 32-bit slot numbers. A reverse map of
 * 4 bytes per pfn of the zone (pfn -> slot) lets compaction find the
 * page at a pfn.
 */
#ifndef CP_PAGECACHE_H
#define CP_PAGECACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memcg_stats.h"
#include "model/memory.h"
#include "model/vmstat.h"

struct cp_diag;
struct cp_kernel_profile;

#define CP_NIL UINT32_MAX

enum cp_page_flags {
	CP_PG_RESIDENT = 1u << 0,   /* the page is in memory */
	CP_PG_LRU = 1u << 1,        /* on an LRU list (not in a per-CPU batch) */
	CP_PG_ACTIVE = 1u << 2,     /* PG_active */
	CP_PG_REFERENCED = 1u << 3, /* PG_referenced */
	CP_PG_WORKINGSET = 1u << 4, /* PG_workingset (4.20+) */
	CP_PG_SHADOW = 1u << 5,     /* not resident; `shadow` holds an eviction entry */
	CP_PG_SHADOW_WS = 1u << 6,  /* the shadow recorded PG_workingset */
	CP_PG_ISOLATED = 1u << 7,   /* taken off the LRU by reclaim */
};

/* pflags: page_has_private() - buffer heads attached (buffer_head.c) */
#define CP_PG_PRIVATE (1u << 0)
/* pflags: PG_writeback - written, its data on its way to the device */
#define CP_PG_WRITEBACK (1u << 1)
/* pflags: PG_readahead, on a folio's first page (readahead.c) */
#define CP_PG_READAHEAD (1u << 2)
/* pflags, on a folio's first page: the read() in progress holds the
 * folio - readahead's folio lock until the read completes (the folios
 * that read() inserted) or filemap_get_read_batch()'s reference (the
 * folio it is copying when it starts async readahead). Reclaim keeps it
 * (shrink_folio_list(): folio_trylock() fails, or __remove_mapping()
 * cannot freeze the refcount) and compaction does not take it. */
#define CP_PG_HELD (1u << 3)

/* 20 bytes (16 before pages were placed: the pfn adds 4, 16 MiB per 4M
 * slots). Invariants: RESIDENT and SHADOW exclusive; LRU implies
 * RESIDENT; PRIVATE implies RESIDENT; prev/next are CP_NIL unless LRU.
 * order: the resident page belongs to a folio of 2^order pages (0 for a
 * plain page and for every non-resident slot); the folio starts at the
 * index aligned to it (index & ~(2^order - 1)), and all its pages have
 * the same order and the same LRU state (LRU, ACTIVE, REFERENCED,
 * WORKINGSET, ISOLATED), and sit next to each other on their list. */
struct cp_page {
	uint32_t prev, next; /* LRU neighbours (slot numbers) */
	union {
		uint32_t shadow;  /* eviction timestamp when SHADOW */
		uint32_t private; /* the owner's handle of its buffers when PRIVATE */
	};
	uint32_t pfn;        /* its order-0 block in the buddy when RESIDENT */
	uint8_t flags;       /* enum cp_page_flags */
	uint8_t pflags;      /* CP_PG_PRIVATE, CP_PG_WRITEBACK, CP_PG_READAHEAD, CP_PG_HELD */
	uint8_t order;       /* folio_order() of the folio it belongs to */
	uint8_t pad;
};

/* One LRU list: head is the most recently added end. */
struct cp_lru_list {
	uint32_t head, tail;
	uint64_t nr_pages;
	/* of those, pages in the top zone (Normal; all of them with one
	 * zone): the rest is what lruvec_lru_size(lruvec, lru, DMA32) sees */
	uint64_t nr_top_zone_pages;
};

enum cp_lru_kind { CP_LRU_INACTIVE_FILE, CP_LRU_ACTIVE_FILE, CP_NR_LRU };

/* Per-CPU pending LRU additions (lru_add_pvec / folio_batch): one entry
 * per folio (its head slot), as the kernel's folio_batch holds folios. */
struct cp_lru_batch {
	uint32_t slots[32];
	unsigned nr;
};

/* The file lruvec of the node (or of a memcg). */
struct cp_lruvec {
	struct cp_lru_list lists[CP_NR_LRU];
	/* workingset clock: inactive_age (4.11) / nonresident_age (6.1);
	 * 32 bits wrap like the kernel's masked timestamps */
	uint32_t nonresident_age;
	/* refault activations seen at the last reclaim cycle (6.1
	 * prepare_scan_count compares against the running counter) */
	uint64_t refaults_at_last_cycle;
	/* the counters reclaim's heuristics read (memcg_stats.c) */
	struct cp_lruvec_stats stats;
};

/* A file's address space. */
struct cp_mapping {
	uint32_t base;         /* first slot */
	uint32_t nr_index;     /* size in pages */
	uint64_t nrpages;      /* resident pages */
	uint64_t nrshadows;    /* shadow entries */
	struct cp_memcg *memcg; /* memcg its pages are charged to (NULL: root) */
	void *host;            /* the inode, for inode_add_lru on last page */
	/* mapping_set_large_folios(): readahead may insert folios of more
	 * than one page (filemap.c) */
	bool large_folios;
};

struct cp_pagecache_params {
	unsigned nr_cpus;       /* per-CPU add batches */
	unsigned lru_add_batch; /* pages per batch before the LRU sees them */
	bool workingset_flag;   /* 6.1 PG_workingset + restore accounting */
};

struct cp_pagecache {
	struct cp_page *pages;     /* nr_slots entries */
	uint32_t nr_slots, cap_slots;
	struct cp_mapping *mappings;
	uint32_t nr_mappings, cap_mappings;
	struct cp_lruvec lruvec;
	struct cp_lru_batch *batches; /* nr_cpus */
	struct cp_pagecache_params params;
	struct cp_mem *mem;
	struct cp_vmstat *vmstat;
	/* called when a mapping loses its last page (inode_add_lru); may be NULL */
	void (*mapping_emptied)(void *priv, void *host);
	void *mapping_emptied_priv;
	/* try_to_release_page(): a page with PRIVATE leaves the cache
	 * (reclaim or truncation); the owner frees what `private` names */
	void (*release_private)(void *priv, uint32_t private);
	void *release_private_priv;
	/* Reverse map for compaction: pfn -> slot of the resident page
	 * placed there, CP_NIL for every other pfn (mem->total_pages
	 * entries, 4 bytes a pfn). Kept by insert, evict, truncate and
	 * cp_pagecache_migrate_folio(). */
	uint32_t *pfn_slot;
	uint32_t nr_pfns;
	/* The read() in progress (cp_pagecache_read_begin): its mapping,
	 * CP_NIL when none, and the index range of the folios it holds
	 * (CP_PG_HELD), which cp_pagecache_read_end() releases. A folio
	 * inserted while it runs is held: readahead's lock. */
	uint32_t read_id, held_lo, held_hi;
};

int cp_pagecache_init(struct cp_pagecache *pc, const struct cp_pagecache_params *p,
		      struct cp_mem *mem, struct cp_vmstat *vmstat);
void cp_pagecache_release(struct cp_pagecache *pc);

/* Creates a mapping of nr_index pages (no page resident). Returns 0 and
 * *id, or -CP_ENOMEM / -CP_ERANGE (slot space exhausted). */
int cp_pagecache_add_mapping(struct cp_pagecache *pc, uint32_t nr_index, struct cp_memcg *memcg,
			     void *host, uint32_t *id);

static inline struct cp_mapping *cp_mapping_get(struct cp_pagecache *pc, uint32_t id)
{
	return &pc->mappings[id];
}

/* Attach private data (buffer heads) to a resident page: the page holds
 * `private` until it leaves the cache, when release_private gets it. */
void cp_page_attach_private(struct cp_pagecache *pc, uint32_t slot, uint32_t private);

/* filemap lookup: slot of (mapping, index); test RESIDENT in its flags. */
static inline uint32_t cp_mapping_slot(const struct cp_pagecache *pc, uint32_t id, uint32_t index)
{
	return pc->mappings[id].base + index;
}

/* mapping_shrinkable() (5.16+): no resident page and at most a shadow at
 * index 0 (we keep only the page count: no pages, no shadows). */
bool cp_mapping_shrinkable(const struct cp_pagecache *pc, uint32_t id);

/*
 * add_to_page_cache_lru(): allocate one page for (id, index) in ctx,
 * charge it, and queue it for the inactive list; a shadow entry found in
 * the slot is handed to workingset_refault(), which may activate the page.
 * Returns 0, or -CP_ENOSPC when memory could not be had (nothing changed).
 */
int cp_add_to_page_cache_lru(struct cp_pagecache *pc, uint32_t id, uint32_t index,
			     struct cp_alloc_ctx *ctx);

/*
 * filemap_add_folio() of a folio of 2^order pages (order >= 1, index
 * aligned to it) at [index, index + 2^order) of mapping id: every slot
 * must be non-resident, else -CP_EBUSY (the kernel's -EEXIST) and
 * nothing is allocated. The folio comes from cp_mem_alloc_folio() in ctx
 * (its gfp as given: readahead passes __GFP_NORETRY), charged 2^order
 * pages to the mapping's memcg; then each page is set up as
 * cp_add_to_page_cache_lru() sets up one (a shadow goes to
 * workingset_refault()), pfns consecutive, queued for the LRU in index
 * order. Returns 0, -CP_EBUSY, -CP_ENOSPC (no folio of that order:
 * nothing changed) or -CP_ENOMEM.
 */
int cp_add_folio_to_page_cache_lru(struct cp_pagecache *pc, uint32_t id, uint32_t index,
				   unsigned order, struct cp_alloc_ctx *ctx);

/* mapping_set_large_folios(): readahead of mapping id may use large
 * folios (cp_add_folio_to_page_cache_lru). */
void cp_mapping_set_large_folios(struct cp_pagecache *pc, uint32_t id);

/* mark_page_accessed() / folio_mark_accessed() for a resident page:
 * acts on the whole folio the page belongs to (6.1 mm/swap.c
 * folio_mark_accessed(), folio_activate()); activation counts the
 * folio's pages (pgactivate, the workingset clock). */
void cp_mark_page_accessed(struct cp_pagecache *pc, uint32_t slot, int cpu);

/* The slot of the first page of the folio slot belongs to (slot itself
 * for an order-0 page). */
uint32_t cp_folio_head(const struct cp_pagecache *pc, uint32_t slot);

/* folio_nr_pages() of the folio slot belongs to. */
static inline uint32_t cp_folio_nr_pages(const struct cp_pagecache *pc, uint32_t slot)
{
	return 1u << pc->pages[slot].order;
}

/* invalidate_mapping_pages(mapping, 0, -1): drop every resident page, no
 * shadow entries left (drop_caches, inode steal). Returns pages dropped. */
uint64_t cp_invalidate_mapping_pages(struct cp_pagecache *pc, uint32_t id);

/* truncate_inode_pages_final(): drop pages and shadow entries. Returns
 * pages dropped. */
uint64_t cp_truncate_inode_pages_final(struct cp_pagecache *pc, uint32_t id);

/* The mapping that owns slot (binary search over mapping bases). */
uint32_t cp_pagecache_slot_mapping(const struct cp_pagecache *pc, uint32_t slot);

/* __remove_mapping() for a clean page reclaim has taken off the LRU:
 * the slot keeps a shadow entry (workingset_eviction), the page's memory
 * is freed and uncharged. One page only (its order is cleared): for a
 * page of a large folio the caller evicts the folio's other pages too
 * (reclaim uses cp_pagecache_evict_folio). */
void cp_pagecache_evict(struct cp_pagecache *pc, uint32_t slot);

/* __remove_mapping() of the whole folio slot belongs to, every page off
 * the LRU (isolated together): one workingset_eviction() stamp aged by
 * folio_nr_pages() (6.1 mm/workingset.c), kept in each page's slot as
 * its shadow (6.1 page_cache_delete() stores one entry over the folio's
 * range); each page's memory is freed and uncharged. Returns the pages
 * evicted. */
uint32_t cp_pagecache_evict_folio(struct cp_pagecache *pc, uint32_t slot);

/* A read() of mapping id begins: from now on every folio inserted into
 * it is held (CP_PG_HELD) until cp_pagecache_read_end(). */
void cp_pagecache_read_begin(struct cp_pagecache *pc, uint32_t id);

/* The read() in progress holds the resident folio slot belongs to (its
 * reference from filemap_get_read_batch()). */
void cp_pagecache_hold_folio(struct cp_pagecache *pc, uint32_t slot);

/* The read() returns: the folios it held are unlocked and put. */
void cp_pagecache_read_end(struct cp_pagecache *pc);

static inline bool cp_folio_held(const struct cp_pagecache *pc, uint32_t head)
{
	return pc->pages[head].pflags & CP_PG_HELD;
}

/* lru_add_drain(): this CPU's batch onto the LRU. */
void cp_lru_add_drain(struct cp_pagecache *pc, int cpu);

/* Drain every per-CPU add batch onto the LRU (lru_add_drain_all). */
void cp_lru_add_drain_all(struct cp_pagecache *pc);

/* The slot of the page-cache page at pfn, or CP_NIL (free, another
 * owner's, or out of range). */
uint32_t cp_pagecache_pfn_slot(const struct cp_pagecache *pc, uint32_t pfn);

/*
 * isolate_migratepages_block()'s test for a page-cache folio: the page
 * at pfn is ours, the head of its folio, on an LRU list (PG_lru: not in
 * a per-CPU add batch), not isolated by reclaim, and no page of it under
 * writeback (cp_pagecache_set_writeback); *order gets folio_order().
 * SIMPLIFIED: the kernel also migrates anon and other __PageMovable
 * pages; the model moves only page cache.
 */
bool cp_pagecache_pfn_folio_migratable(const struct cp_pagecache *pc, uint32_t pfn,
				       unsigned *order);

/*
 * PG_writeback on the resident pages of mapping id, indexes index ..
 * index + nr - 1 (set_page_writeback when a write is submitted,
 * folio_end_writeback when it completes). Compaction does not move a
 * page under writeback (migrate_folio_unmap: -EBUSY unless
 * MIGRATE_SYNC, which the model never uses). SIMPLIFIED: reclaim takes
 * it as a clean page. Eviction clears it.
 */
void cp_pagecache_set_writeback(struct cp_pagecache *pc, uint32_t id, uint32_t index,
				uint32_t nr, bool on);

/*
 * migrate_pages() -> move_to_new_folio() for one clean page-cache folio
 * of 2^order pages: the folio whose head is at old_pfn
 * (cp_pagecache_pfn_folio_migratable) takes the 2^order pfns from
 * new_pfn (aligned to the order), allocated order-0 pages of the buddy
 * that no page-cache page holds (compaction_alloc's isolated free
 * memory); its slots, flags (active, referenced, workingset) and private
 * data stay; the old folio goes back to the buddy whole, at its order
 * (merging with free buddies). The folio left the LRU when isolated and
 * comes back through putback_lru_page() -> lru_cache_add() on this CPU:
 * its per-CPU add batch (a large folio moves the batch at once), then
 * the head of its list. Page counts do not change. With old_to_pcp the
 * old folio goes to cpu's per-CPU list instead when its order has one
 * (cp_mem_migrate_free). Returns 0 or -CP_EINVAL (old_pfn not a
 * migratable folio head or new_pfn not usable; nothing changed).
 */
int cp_pagecache_migrate_folio(struct cp_pagecache *pc, uint32_t old_pfn, uint32_t new_pfn,
			       int cpu, bool old_to_pcp);

/*
 * split_folio() of the resident large folio slot belongs to (page cache,
 * not under writeback): each of its pages becomes a folio of order 0
 * with the same flags, in place on its LRU list or in its state
 * (__split_huge_page: the tail pages follow the head on the list). Used
 * by migration when no target of the folio's order is left
 * (migrate_pages_batch: -ENOMEM -> try_split_folio). Returns the pages
 * of the old folio (1: already order 0, nothing changed).
 */
uint32_t cp_pagecache_split_folio(struct cp_pagecache *pc, uint32_t slot);

/* Invariants: list counts equal list lengths, each resident page on at
 * most one list, per-mapping counts add up, memory owner count matches,
 * resident pages (only they) have a pfn, an allocated page of the zone,
 * and the reverse map names exactly the resident pages at their pfns. */
bool cp_pagecache_check(const struct cp_pagecache *pc);

#endif /* CP_PAGECACHE_H */
