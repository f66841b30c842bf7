/*
 * pagecache.c - file mappings, page insertion and access, eviction with
 * shadow entries, and the per-CPU LRU add batches.
 *
 * Mechanism (Linux 4.11 mm/filemap.c, mm/swap.c; 6.1 the folio versions
 * of the same functions):
 *  - add_to_page_cache_lru(): a new page cache page is allocated in the
 *    reader's context, charged, and queued in a per-CPU batch
 *    (lru_cache_add: PAGEVEC_SIZE 14 in 4.11, folio_batch 15 in 6.1); the
 *    batch reaches the LRU head when it is full. A shadow entry found in
 *    the slot is a refault: workingset_refault() may mark the page active
 *    so it lands on the active list.
 *  - mark_page_accessed(): inactive+unreferenced -> referenced;
 *    inactive+referenced -> activated (moved to the active head, or just
 *    marked active while still in a per-CPU batch), referenced cleared,
 *    the workingset clock aged; active+unreferenced -> referenced.
 *  - __remove_mapping(): a reclaimed page leaves a shadow entry.
 *  - invalidate_mapping_pages() / truncate_inode_pages_final(): drop pages
 *    without shadows (drop_caches, inode steal) / with their shadows.
 *
 * Placement: a page is an order-0 MOVABLE block of the buddy (memory.c)
 * while resident. include/linux/gfp.h: the mapping's gfp mask is
 * GFP_HIGHUSER_MOVABLE (fs/inode.c inode_init_always; XFS only clears
 * __GFP_FS, fs/xfs/xfs_iops.c xfs_setup_inode), and __GFP_MOVABLE
 * selects MIGRATE_MOVABLE (gfp_migratetype).
 *
 * Reverse map (for compaction, compaction.c): pfn -> slot of the
 * resident page there. The kernel gets from a pfn to its page through
 * the memmap (pfn_to_page, page->mapping, page->index); the model keeps
 * a 4-byte slot per pfn, set on insertion, cleared on eviction and
 * truncation, and moved by cp_pagecache_migrate_folio().
 *
 * Large folios (6.1 filemap_add_folio() of a folio from readahead's
 * page_cache_ra_order(), filemap.c): the 2^order pages of one buddy
 * block; each slot records the folio's order. A folio is one LRU entry:
 * one entry of the per-CPU batch (folio_batch), one refault decision
 * (__filemap_add_folio()'s shadow: the last one in the range), marked
 * accessed and activated as a unit (folio_mark_accessed(),
 * folio_activate(): counters by folio_nr_pages()), isolated and evicted
 * whole by reclaim (vmscan.c; cp_pagecache_evict_folio: one eviction
 * stamp for all its pages) and freed whole at its order
 * (free_unref_folios(): orders 0-3 to the freeing CPU's pcp list of that
 * order, larger ones straight to the buddy, where the block is free at
 * once for the next large folio).
 *
 * SIMPLIFIED: the lists keep a node per 4 KiB page; a folio's pages are
 * moved together and stay neighbours (checked), which is the same
 * order as one entry. Truncation and invalidation free a folio's pages
 * one by one (the buddy merges them back). Pages of a large
 * folio are not migrated (6.1 mm/compaction.c
 * isolate_migratepages_block() skips compound pages unless
 * alloc_contig). cp_pagecache_evict() of a single page of a folio is
 * left for tests that evict the folio's pages one by one. One
 * node and one lruvec; every page of a mapping is charged to the
 * mapping's memcg; pages are never dirty (the scenarios' data files are
 * written back before the measured part starts, ref §11.3).
 */
#include "model/pagecache.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "core/intmath.h"
#include "model/lru.h"
#include "model/workingset.h"

_Static_assert(sizeof(struct cp_page) == 20, "struct cp_page grew");

int cp_pagecache_init(struct cp_pagecache *pc, const struct cp_pagecache_params *p,
		      struct cp_mem *mem, struct cp_vmstat *vmstat)
{
	unsigned i;

	memset(pc, 0, sizeof(*pc));
	if (p->nr_cpus == 0 || p->lru_add_batch == 0 ||
	    p->lru_add_batch > sizeof(pc->batches[0].slots) / sizeof(uint32_t))
		return -CP_EINVAL;
	pc->batches = cp_calloc(p->nr_cpus, sizeof(*pc->batches));
	if (!pc->batches)
		return -CP_ENOMEM;
	pc->nr_pfns = (uint32_t)mem->total_pages;
	pc->pfn_slot = cp_malloc((size_t)pc->nr_pfns * sizeof(*pc->pfn_slot));
	if (!pc->pfn_slot) {
		cp_free(pc->batches);
		pc->batches = NULL;
		return -CP_ENOMEM;
	}
	for (i = 0; i < pc->nr_pfns; i++)
		pc->pfn_slot[i] = CP_NIL;
	pc->params = *p;
	pc->mem = mem;
	pc->vmstat = vmstat;
	pc->read_id = CP_NIL;
	for (i = 0; i < CP_NR_LRU; i++)
		cp_lru_list_init(&pc->lruvec.lists[i]);
	return 0;
}

void cp_pagecache_release(struct cp_pagecache *pc)
{
	if (!pc)
		return;
	cp_free(pc->pages);
	cp_free(pc->mappings);
	cp_free(pc->batches);
	cp_free(pc->pfn_slot);
	memset(pc, 0, sizeof(*pc));
}

int cp_pagecache_add_mapping(struct cp_pagecache *pc, uint32_t nr_index, struct cp_memcg *memcg,
			     void *host, uint32_t *id)
{
	uint64_t need = (uint64_t)pc->nr_slots + nr_index;
	uint32_t i;

	if (need >= CP_NIL)
		return -CP_ERANGE;
	if (need > pc->cap_slots) {
		uint64_t cap = pc->cap_slots ? pc->cap_slots : 1024;
		struct cp_page *pages;

		while (cap < need)
			cap *= 2;
		if (cap >= CP_NIL)
			cap = CP_NIL - 1;
		pages = cp_realloc(pc->pages, cap * sizeof(*pages));
		if (!pages)
			return -CP_ENOMEM;
		pc->pages = pages;
		pc->cap_slots = (uint32_t)cap;
	}
	if (pc->nr_mappings == pc->cap_mappings) {
		uint32_t cap = pc->cap_mappings ? 2 * pc->cap_mappings : 16;
		struct cp_mapping *m = cp_realloc(pc->mappings, cap * sizeof(*m));

		if (!m)
			return -CP_ENOMEM;
		pc->mappings = m;
		pc->cap_mappings = cap;
	}
	for (i = 0; i < nr_index; i++) {
		struct cp_page *p = &pc->pages[pc->nr_slots + i];

		p->prev = p->next = CP_NIL;
		p->shadow = 0;
		p->pfn = CP_NIL;
		p->flags = 0;
		p->pflags = 0;
		p->order = 0;
		p->pad = 0;
	}
	pc->mappings[pc->nr_mappings] = (struct cp_mapping){
		.base = pc->nr_slots,
		.nr_index = nr_index,
		.memcg = memcg,
		.host = host,
	};
	pc->nr_slots += nr_index;
	*id = pc->nr_mappings++;
	return 0;
}

/* The mapping a slot belongs to: mappings own increasing slot ranges. */
uint32_t cp_pagecache_slot_mapping(const struct cp_pagecache *pc, uint32_t slot)
{
	uint32_t lo = 0, hi = pc->nr_mappings;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pc->mappings[mid].base <= slot)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint32_t cp_folio_head(const struct cp_pagecache *pc, uint32_t slot)
{
	uint32_t base, mask;

	if (!pc->pages[slot].order)
		return slot;
	/* folios are aligned to their order in index space, not slot space */
	base = pc->mappings[cp_pagecache_slot_mapping(pc, slot)].base;
	mask = (1u << pc->pages[slot].order) - 1;
	return base + ((slot - base) & ~mask);
}

bool cp_mapping_shrinkable(const struct cp_pagecache *pc, uint32_t id)
{
	return pc->mappings[id].nrpages == 0 && pc->mappings[id].nrshadows == 0;
}

/* The full check walks every slot; after each operation of a debug build
 * it runs only while the cache is small enough for that to be cheap
 * (tests of big caches call cp_pagecache_check() themselves). */
#define DEBUG_CHECK_MAX_SLOTS 4096

/* The reverse map's side of the check walks every pfn: after each
 * operation of a debug build only for zones up to this size. */
#define DEBUG_CHECK_MAX_PFNS 65536

static bool pagecache_check(const struct cp_pagecache *pc, bool walk_pfns);

static bool pagecache_check_small(const struct cp_pagecache *pc)
{
	return pc->nr_slots > DEBUG_CHECK_MAX_SLOTS ||
	       pagecache_check(pc, pc->nr_pfns <= DEBUG_CHECK_MAX_PFNS);
}

/* __pagevec_lru_add(): move one CPU's batch onto the LRU heads, each
 * entry a whole folio (cp_lru_add_folio_head). */
static void lru_add_drain_cpu(struct cp_pagecache *pc, unsigned cpu)
{
	struct cp_lru_batch *b = &pc->batches[cpu];
	unsigned i;

	for (i = 0; i < b->nr; i++)
		cp_lru_add_folio_head(pc, b->slots[i]);
	b->nr = 0;
}

void cp_lru_add_drain(struct cp_pagecache *pc, int cpu)
{
	lru_add_drain_cpu(pc, (unsigned)cpu % pc->params.nr_cpus);
}

void cp_lru_add_drain_all(struct cp_pagecache *pc)
{
	unsigned cpu;

	for (cpu = 0; cpu < pc->params.nr_cpus; cpu++)
		lru_add_drain_cpu(pc, cpu);
}

/* lru_cache_add() / folio_add_lru(): queue a folio (its head slot) in
 * this CPU's batch; flush when full. A folio is one entry, as in 6.1's
 * folio_batch (15 folios, whatever their size). A large folio is never
 * left in the batch: folio_batch_add_and_move() moves the whole batch,
 * the new folio last, as soon as it holds one (6.1 !folio_test_large(),
 * 6.17+ folio_may_be_lru_cached(); 4.11 __lru_cache_add() the same for
 * a compound page). */
static void lru_cache_add(struct cp_pagecache *pc, uint32_t slot, int cpu)
{
	unsigned c = (unsigned)cpu % pc->params.nr_cpus;
	struct cp_lru_batch *b = &pc->batches[c];

	b->slots[b->nr++] = slot;
	if (b->nr >= pc->params.lru_add_batch || pc->pages[slot].order > 0)
		lru_add_drain_cpu(pc, c);
}

/*
 * __filemap_add_folio() + filemap_add_folio() for the folio of 2^order
 * pages at (id, index), placed at pfn: each page becomes resident (a
 * shadow entry in its slot is replaced); then ONE refault decision for
 * the folio, as the kernel makes one: __filemap_add_folio() walks the
 * entries in the folio's range (xas_for_each_conflict) and hands the
 * last one it saw, the shadow of the highest index that has one, to
 * workingset_refault(), which counts and activates folio_nr_pages()
 * pages. Then the folio is queued for the LRU as one batch entry.
 * Order 0: the page's own shadow, as before.
 */
static void page_cache_add_folio(struct cp_pagecache *pc, uint32_t id, uint32_t index,
				 unsigned order, uint32_t pfn, int cpu)
{
	struct cp_mapping *m = &pc->mappings[id];
	uint32_t nr = 1u << order, head = m->base + index, i, stamp = 0;
	uint8_t flags = CP_PG_RESIDENT;
	bool shadow = false, ws = false;

	for (i = 0; i < nr; i++) {
		struct cp_page *p = &pc->pages[head + i];

		CP_BUG_ON(p->flags & CP_PG_RESIDENT);
		if (p->flags & CP_PG_SHADOW) {
			shadow = true;
			stamp = p->shadow;
			ws = p->flags & CP_PG_SHADOW_WS;
			m->nrshadows--;
		}
	}
	if (shadow) {
		bool restore;

		if (cp_workingset_refault(pc, stamp, ws, nr, &restore)) {
			flags |= CP_PG_ACTIVE;
			cp_workingset_activation(pc, nr);
			if (restore)
				flags |= CP_PG_WORKINGSET;
		}
	}
	for (i = 0; i < nr; i++) {
		struct cp_page *p = &pc->pages[head + i];

		p->flags = flags;
		p->order = (uint8_t)order;
		p->shadow = 0;
		p->pfn = pfn + i;
		CP_BUG_ON(pc->pfn_slot[pfn + i] != CP_NIL);
		pc->pfn_slot[pfn + i] = head + i;
	}
	m->nrpages += nr;
	lru_cache_add(pc, head, cpu);
	if (id == pc->read_id)
		cp_pagecache_hold_folio(pc, head);
}

int cp_add_to_page_cache_lru(struct cp_pagecache *pc, uint32_t id, uint32_t index,
			     struct cp_alloc_ctx *ctx)
{
	struct cp_memcg *saved = ctx->memcg;
	uint32_t pfn;
	bool split;
	int rc;

	CP_BUG_ON(id >= pc->nr_mappings || index >= pc->mappings[id].nr_index);
	/* Page cache is charged to the mapping's memcg. Allocation may
	 * reclaim, which may evict other pages: look at the slot after. */
	ctx->memcg = pc->mappings[id].memcg;
	rc = cp_mem_alloc_block(pc->mem, CP_OWNER_PAGECACHE, 0, CP_MIGRATE_MOVABLE, ctx, &pfn,
				&split);
	ctx->memcg = saved;
	if (rc)
		return rc;
	page_cache_add_folio(pc, id, index, 0, pfn, ctx->cpu);
	CP_DEBUG_CHECK(pagecache_check_small(pc));
	return 0;
}

int cp_add_folio_to_page_cache_lru(struct cp_pagecache *pc, uint32_t id, uint32_t index,
				   unsigned order, struct cp_alloc_ctx *ctx)
{
	const struct cp_mapping *m;
	struct cp_memcg *saved = ctx->memcg;
	uint32_t nr = 1u << order, i, pfn;
	int rc;

	CP_BUG_ON(id >= pc->nr_mappings || order == 0 || (index & (nr - 1)) ||
		  index > pc->mappings[id].nr_index || nr > pc->mappings[id].nr_index - index);
	m = &pc->mappings[id];
	/* SIMPLIFIED: the kernel allocates the folio first and learns of a
	 * page already there from the xarray (-EEXIST, the folio is put
	 * back); the model looks first, so a conflict allocates nothing.
	 * Reclaim during the allocation only makes pages non-resident, so
	 * the range stays free of them. */
	for (i = 0; i < nr; i++)
		if (pc->pages[m->base + index + i].flags & CP_PG_RESIDENT)
			return -CP_EBUSY;
	ctx->memcg = m->memcg;
	rc = cp_mem_alloc_folio(pc->mem, CP_OWNER_PAGECACHE, order, CP_MIGRATE_MOVABLE, ctx, &pfn);
	ctx->memcg = saved;
	if (rc)
		return rc;
	page_cache_add_folio(pc, id, index, order, pfn, ctx->cpu);
	CP_DEBUG_CHECK(pagecache_check_small(pc));
	return 0;
}

void cp_mapping_set_large_folios(struct cp_pagecache *pc, uint32_t id)
{
	CP_BUG_ON(id >= pc->nr_mappings);
	pc->mappings[id].large_folios = true;
}

/* Set and clear flags on every page of the folio at head. */
static void folio_set_flags(struct cp_pagecache *pc, uint32_t head, uint32_t nr, uint8_t set,
			    uint8_t clear)
{
	uint32_t i;

	for (i = 0; i < nr; i++) {
		struct cp_page *p = &pc->pages[head + i];

		p->flags = (uint8_t)((p->flags | set) & ~clear);
	}
}

/* The page's folio is the unit (6.1 folio_mark_accessed(): its flags are
 * the folio's; the model keeps them equal on all its pages). */
void cp_mark_page_accessed(struct cp_pagecache *pc, uint32_t slot, int cpu)
{
	uint32_t head = cp_folio_head(pc, slot);
	uint32_t nr = cp_folio_nr_pages(pc, head);
	uint8_t f = pc->pages[head].flags;

	(void)cpu;
	CP_BUG_ON(!(f & CP_PG_RESIDENT));
	if (!(f & CP_PG_REFERENCED)) {
		folio_set_flags(pc, head, nr, CP_PG_REFERENCED, 0);
		return;
	}
	if (f & CP_PG_ACTIVE)
		return;
	/* inactive and referenced: activate (activate_page / folio_activate
	 * or, while in a per-CPU batch, __lru_cache_activate_folio); the
	 * folio moves as a unit and pgactivate counts its pages
	 * (folio_activate_fn) */
	if (f & CP_PG_LRU) {
		cp_lru_del_folio(pc, head);
		folio_set_flags(pc, head, nr, CP_PG_ACTIVE, CP_PG_REFERENCED);
		cp_lru_add_folio_head(pc, head);
		cp_count(pc->vmstat, CP_VM_PGACTIVATE, nr);
	} else {
		folio_set_flags(pc, head, nr, CP_PG_ACTIVE, CP_PG_REFERENCED);
	}
	/* workingset_activation(): ages the clock by folio_nr_pages() */
	cp_workingset_activation(pc, nr);
	CP_DEBUG_CHECK(pagecache_check_small(pc));
}

void cp_page_attach_private(struct cp_pagecache *pc, uint32_t slot, uint32_t private)
{
	struct cp_page *p = &pc->pages[slot];

	CP_BUG_ON(!(p->flags & CP_PG_RESIDENT) || (p->pflags & CP_PG_PRIVATE) ||
		  !pc->release_private);
	p->private = private;
	p->pflags |= CP_PG_PRIVATE;
}

/* try_to_release_page(): free the page's buffers before it goes (and
 * forget its writeback: the model lets reclaim take such a page; and its
 * PG_readahead: a freed page's flags are cleared). */
static void release_private(struct cp_pagecache *pc, struct cp_page *p)
{
	p->pflags &= (uint8_t)~(CP_PG_WRITEBACK | CP_PG_READAHEAD);
	if (!(p->pflags & CP_PG_PRIVATE))
		return;
	p->pflags &= (uint8_t)~CP_PG_PRIVATE;
	pc->release_private(pc->release_private_priv, p->private);
	p->private = 0;
}

/* Take a resident page out of the cache; the caller frees the memory. */
static void page_cache_delete(struct cp_pagecache *pc, uint32_t id, uint32_t slot)
{
	struct cp_mapping *m = &pc->mappings[id];
	struct cp_page *p = &pc->pages[slot];

	if (p->flags & CP_PG_LRU)
		cp_lru_del(pc, slot);
	m->nrpages--;
}

static void mapping_maybe_emptied(struct cp_pagecache *pc, uint32_t id)
{
	if (cp_mapping_shrinkable(pc, id) && pc->mapping_emptied)
		pc->mapping_emptied(pc->mapping_emptied_priv, pc->mappings[id].host);
}

void cp_pagecache_read_begin(struct cp_pagecache *pc, uint32_t id)
{
	CP_BUG_ON(pc->read_id != CP_NIL || id >= pc->nr_mappings);
	pc->read_id = id;
	pc->held_lo = UINT32_MAX;
	pc->held_hi = 0;
}

void cp_pagecache_hold_folio(struct cp_pagecache *pc, uint32_t slot)
{
	uint32_t head = cp_folio_head(pc, slot), index;

	CP_BUG_ON(pc->read_id == CP_NIL || !(pc->pages[head].flags & CP_PG_RESIDENT) ||
		  cp_pagecache_slot_mapping(pc, head) != pc->read_id);
	pc->pages[head].pflags |= CP_PG_HELD;
	index = head - pc->mappings[pc->read_id].base;
	if (index < pc->held_lo)
		pc->held_lo = index;
	if (index + cp_folio_nr_pages(pc, head) > pc->held_hi)
		pc->held_hi = index + cp_folio_nr_pages(pc, head);
}

void cp_pagecache_read_end(struct cp_pagecache *pc)
{
	uint32_t i;

	CP_BUG_ON(pc->read_id == CP_NIL);
	for (i = pc->held_lo; i < pc->held_hi; i++)
		pc->pages[pc->mappings[pc->read_id].base + i].pflags &= (uint8_t)~CP_PG_HELD;
	pc->read_id = CP_NIL;
}

void cp_pagecache_evict(struct cp_pagecache *pc, uint32_t slot)
{
	uint32_t id = cp_pagecache_slot_mapping(pc, slot);
	struct cp_mapping *m = &pc->mappings[id];
	struct cp_page *p = &pc->pages[slot];
	bool ws = p->flags & CP_PG_WORKINGSET;
	uint32_t pfn = p->pfn;

	CP_BUG_ON(!(p->flags & CP_PG_RESIDENT) || (p->flags & CP_PG_LRU));
	release_private(pc, p);
	m->nrpages--;
	p->shadow = cp_workingset_eviction(pc, 1);
	p->flags = (uint8_t)(CP_PG_SHADOW | (ws ? CP_PG_SHADOW_WS : 0));
	p->order = 0;
	p->pfn = CP_NIL;
	pc->pfn_slot[pfn] = CP_NIL;
	m->nrshadows++;
	cp_mem_free_block(pc->mem, CP_OWNER_PAGECACHE, pfn, 0, m->memcg);
}

uint32_t cp_pagecache_evict_folio(struct cp_pagecache *pc, uint32_t slot)
{
	uint32_t head = cp_folio_head(pc, slot);
	uint32_t nr = cp_folio_nr_pages(pc, head);
	uint32_t id = cp_pagecache_slot_mapping(pc, head);
	struct cp_mapping *m = &pc->mappings[id];
	uint32_t head_pfn = pc->pages[head].pfn;
	uint32_t stamp, i;

	stamp = cp_workingset_eviction(pc, nr);
	for (i = 0; i < nr; i++) {
		struct cp_page *p = &pc->pages[head + i];
		bool ws = p->flags & CP_PG_WORKINGSET;
		uint32_t pfn = p->pfn;

		CP_BUG_ON(!(p->flags & CP_PG_RESIDENT) || (p->flags & CP_PG_LRU));
		release_private(pc, p);
		p->shadow = stamp;
		p->flags = (uint8_t)(CP_PG_SHADOW | (ws ? CP_PG_SHADOW_WS : 0));
		p->order = 0;
		p->pfn = CP_NIL;
		pc->pfn_slot[pfn] = CP_NIL;
	}
	/* shrink_folio_list() -> free_unref_folios(): the folio is freed
	 * whole, at its order (an order-0 page is a folio of order 0) */
	cp_mem_free_folio(pc->mem, CP_OWNER_PAGECACHE, head_pfn, cp_ilog2(nr), m->memcg);
	m->nrpages -= nr;
	m->nrshadows += nr;
	return nr;
}

/* Drop resident pages of a mapping, not those isolated by reclaim or
 * waiting in a per-CPU batch (they are not on the LRU yet: the kernel
 * would drain first; we drain too). */
static uint64_t drop_mapping_pages(struct cp_pagecache *pc, uint32_t id, bool shadows)
{
	struct cp_mapping *m = &pc->mappings[id];
	uint64_t dropped = 0;
	uint32_t i;

	if (m->nrpages)
		cp_lru_add_drain_all(pc);
	for (i = 0; i < m->nr_index && (m->nrpages || (shadows && m->nrshadows)); i++) {
		uint32_t slot = m->base + i;
		struct cp_page *p = &pc->pages[slot];

		if (p->flags & CP_PG_RESIDENT) {
			if (p->flags & CP_PG_ISOLATED)
				continue;
			release_private(pc, p);
			page_cache_delete(pc, id, slot);
			p->flags = 0;
			p->order = 0;
			cp_mem_free_block(pc->mem, CP_OWNER_PAGECACHE, p->pfn, 0, m->memcg);
			pc->pfn_slot[p->pfn] = CP_NIL;
			p->pfn = CP_NIL;
			dropped++;
		} else if (shadows && (p->flags & CP_PG_SHADOW)) {
			p->flags = 0;
			m->nrshadows--;
		}
	}
	CP_DEBUG_CHECK(pagecache_check_small(pc));
	return dropped;
}

uint64_t cp_invalidate_mapping_pages(struct cp_pagecache *pc, uint32_t id)
{
	uint64_t n = drop_mapping_pages(pc, id, false);

	mapping_maybe_emptied(pc, id);
	return n;
}

uint64_t cp_truncate_inode_pages_final(struct cp_pagecache *pc, uint32_t id)
{
	return drop_mapping_pages(pc, id, true);
}

uint32_t cp_pagecache_pfn_slot(const struct cp_pagecache *pc, uint32_t pfn)
{
	return pfn < pc->nr_pfns ? pc->pfn_slot[pfn] : CP_NIL;
}

bool cp_pagecache_pfn_folio_migratable(const struct cp_pagecache *pc, uint32_t pfn,
				       unsigned *order)
{
	uint32_t slot = cp_pagecache_pfn_slot(pc, pfn);
	uint32_t nr, i;
	uint8_t f;

	if (slot == CP_NIL || cp_folio_head(pc, slot) != slot)
		return false;
	f = pc->pages[slot].flags;
	if (!(f & CP_PG_LRU) || (f & CP_PG_ISOLATED) || cp_folio_held(pc, slot))
		return false;
	nr = cp_folio_nr_pages(pc, slot);
	for (i = 0; i < nr; i++)
		if (pc->pages[slot + i].pflags & CP_PG_WRITEBACK)
			return false;
	*order = pc->pages[slot].order;
	return true;
}

void cp_pagecache_set_writeback(struct cp_pagecache *pc, uint32_t id, uint32_t index,
				uint32_t nr, bool on)
{
	const struct cp_mapping *m = &pc->mappings[id];
	uint32_t i;

	CP_BUG_ON(index + nr > m->nr_index);
	for (i = index; i < index + nr; i++) {
		struct cp_page *p = &pc->pages[m->base + i];

		if (!on)
			p->pflags &= (uint8_t)~CP_PG_WRITEBACK;
		else if (p->flags & CP_PG_RESIDENT)
			p->pflags |= CP_PG_WRITEBACK;
	}
}

int cp_pagecache_migrate_folio(struct cp_pagecache *pc, uint32_t old_pfn, uint32_t new_pfn,
			       int cpu, bool old_to_pcp)
{
	uint32_t slot, nr, i;
	unsigned order, kind_order;
	int rc;

	if (!cp_pagecache_pfn_folio_migratable(pc, old_pfn, &order))
		return -CP_EINVAL;
	nr = 1u << order;
	if ((new_pfn & (nr - 1)) || new_pfn >= pc->nr_pfns || nr > pc->nr_pfns - new_pfn)
		return -CP_EINVAL;
	for (i = 0; i < nr; i++)
		if (pc->pfn_slot[new_pfn + i] != CP_NIL ||
		    cp_mem_page_kind(pc->mem, new_pfn + i, &kind_order) != CP_BUDDY_PAGE_ALLOC ||
		    kind_order != 0)
			return -CP_EINVAL;
	slot = pc->pfn_slot[old_pfn];
	/* isolate_migratepages_block(): off the LRU; the data is copied to
	 * the new folio, which putback_lru_page() queues like a new one */
	cp_lru_del_folio(pc, slot);
	lru_cache_add(pc, slot, cpu);
	for (i = 0; i < nr; i++) {
		pc->pages[slot + i].pfn = new_pfn + i;
		pc->pfn_slot[new_pfn + i] = slot + i;
		pc->pfn_slot[old_pfn + i] = CP_NIL;
	}
	/* the old folio's last reference goes: freed whole */
	rc = cp_mem_migrate_free(pc->mem, old_pfn, order, old_to_pcp ? cpu : -1);
	CP_BUG_ON(rc);
	CP_DEBUG_CHECK(pagecache_check_small(pc));
	return rc;
}

uint32_t cp_pagecache_split_folio(struct cp_pagecache *pc, uint32_t slot)
{
	uint32_t head = cp_folio_head(pc, slot);
	uint32_t nr = cp_folio_nr_pages(pc, head), i;

	CP_BUG_ON(!(pc->pages[head].flags & CP_PG_RESIDENT));
	/* the buddy already holds the folio as order-0 pages (split_page at
	 * allocation): only the page cache's view of the folio changes */
	for (i = 0; i < nr; i++)
		pc->pages[head + i].order = 0;
	CP_DEBUG_CHECK(pagecache_check_small(pc));
	return nr;
}

static bool list_check(const struct cp_pagecache *pc, enum cp_lru_kind kind, uint64_t *seen)
{
	const struct cp_lru_list *l = &pc->lruvec.lists[kind];
	uint32_t prev = CP_NIL, s, run_head = CP_NIL, run = 0, run_nr = 0;
	uint64_t n = 0, top = 0;

	for (s = l->head; s != CP_NIL; s = pc->pages[s].next) {
		const struct cp_page *p = &pc->pages[s];
		uint32_t head;

		if (s >= pc->nr_slots || p->prev != prev || !(p->flags & CP_PG_LRU) ||
		    !(p->flags & CP_PG_RESIDENT) || cp_page_lru_kind(p) != kind)
			return false;
		if (++n > l->nr_pages)
			return false;
		top += cp_lru_page_in_top_zone(pc, p);
		/* a folio's pages are neighbours: a run of exactly nr pages */
		head = cp_folio_head(pc, s);
		if (head != run_head) {
			if (run != run_nr)
				return false;
			run_head = head;
			run = 0;
			run_nr = cp_folio_nr_pages(pc, s);
		}
		run++;
		prev = s;
	}
	*seen += n;
	return run == run_nr && n == l->nr_pages && top == l->nr_top_zone_pages &&
	       l->tail == prev;
}

bool cp_pagecache_check(const struct cp_pagecache *pc)
{
	return pagecache_check(pc, true);
}

static bool pagecache_check(const struct cp_pagecache *pc, bool walk_pfns)
{
	uint64_t on_lists = 0, resident = 0, lru_flag = 0, batched = 0, mapped = 0;
	uint32_t id, s;
	unsigned c;

	if (!list_check(pc, CP_LRU_INACTIVE_FILE, &on_lists) ||
	    !list_check(pc, CP_LRU_ACTIVE_FILE, &on_lists))
		return false;
	for (c = 0; c < pc->params.nr_cpus; c++) {
		unsigned i;

		for (i = 0; i < pc->batches[c].nr; i++) {
			uint32_t head = pc->batches[c].slots[i];

			if (head >= pc->nr_slots || cp_folio_head(pc, head) != head)
				return false;
			batched += cp_folio_nr_pages(pc, head);
		}
	}
	for (id = 0; id < pc->nr_mappings; id++) {
		const struct cp_mapping *m = &pc->mappings[id];
		uint64_t np = 0, ns = 0;

		for (s = m->base; s < m->base + m->nr_index; s++) {
			uint8_t f = pc->pages[s].flags;

			if ((f & CP_PG_RESIDENT) && (f & CP_PG_SHADOW))
				return false;
			if ((f & CP_PG_LRU) && !(f & CP_PG_RESIDENT))
				return false;
			if ((pc->pages[s].pflags & (CP_PG_PRIVATE | CP_PG_WRITEBACK)) &&
			    !(f & CP_PG_RESIDENT))
				return false;
			/* a resident page is an allocated page of the zone */
			if (((f & CP_PG_RESIDENT) != 0) != (pc->pages[s].pfn != CP_NIL) ||
			    ((f & CP_PG_RESIDENT) &&
			     (pc->pages[s].pfn >= pc->nr_pfns ||
			      pc->pfn_slot[pc->pages[s].pfn] != s ||
			      cp_mem_free_block_order(pc->mem, pc->pages[s].pfn) >= 0)))
				return false;
			/* a folio's pages agree on order and LRU state, pfns
			 * consecutive from the head's */
			if (pc->pages[s].order) {
				uint32_t h = cp_folio_head(pc, s);
				const uint8_t same = CP_PG_LRU | CP_PG_ACTIVE | CP_PG_REFERENCED |
						     CP_PG_WORKINGSET | CP_PG_ISOLATED;

				if (!(f & CP_PG_RESIDENT) ||
				    pc->pages[h].order != pc->pages[s].order ||
				    ((pc->pages[h].flags ^ f) & same) ||
				    pc->pages[s].pfn != pc->pages[h].pfn + (s - h))
					return false;
			}
			np += !!(f & CP_PG_RESIDENT);
			ns += !!(f & CP_PG_SHADOW);
			lru_flag += !!(f & CP_PG_LRU);
		}
		if (np != m->nrpages || ns != m->nrshadows)
			return false;
		resident += np;
	}
	/* the reverse map names the resident pages, each at its pfn (each
	 * resident page's pfn maps back to it, checked above) */
	for (s = 0; walk_pfns && s < pc->nr_pfns; s++) {
		uint32_t slot = pc->pfn_slot[s];

		if (slot == CP_NIL)
			continue;
		if (slot >= pc->nr_slots || !(pc->pages[slot].flags & CP_PG_RESIDENT) ||
		    pc->pages[slot].pfn != s)
			return false;
		mapped++;
	}
	if (walk_pfns && mapped != resident)
		return false;
	/* every resident page is on a list, in a batch or isolated by reclaim */
	return lru_flag == on_lists && resident >= on_lists + batched &&
	       pc->mem->nr_owner[CP_OWNER_PAGECACHE] == resident;
}
