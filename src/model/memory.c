/*
 * memory.c - physical memory by owner, watermarks, allocation with
 * reclaim, memcg charging.
 *
 * Mechanism (Linux 4.11 and 6.1, mm/page_alloc.c, mm/memcontrol.c):
 * an allocation first checks the low watermark (get_page_from_freelist
 * with ALLOC_WMARK_LOW). Below it the allocator wakes kswapd and retries
 * against the min watermark; below min a task that may block reclaims in
 * its own context (__alloc_pages_direct_reclaim -> try_to_free_pages) and
 * retries, giving up (OOM) after max_reclaim_retries rounds without
 * progress. A memory cgroup charge over its limit reclaims from that
 * cgroup (try_charge -> try_to_free_mem_cgroup_pages) up to
 * memcg_reclaim_retries times before failing.
 *
 * Zones (zone.c sets them up): the node has ZONE_DMA32 (the low pfns)
 * and ZONE_NORMAL above it, or one zone when the machine's DMA32 size
 * is not known (or the model's memory fits in DMA32). Each zone has its
 * own free-page count, watermarks (min_free_kbytes split by managed
 * pages), watermark boost, buddy allocator and per-CPU lists; DMA32
 * also a lowmem_reserve against allocations that could use Normal.
 * Every allocation the model makes (GFP_KERNEL, GFP_NOFS,
 * GFP_HIGHUSER_MOVABLE) has Normal as its highest zone, so
 * get_page_from_freelist() walks Normal, then DMA32: the first zone
 * whose free pages stay above its mark (low or min, + its boost, + its
 * reserve below Normal) after the allocation gives the pages. With
 * ALLOC_NOFRAGMENT (6.1: alloc_flags_nofragment(), Normal preferred
 * with DMA32 below it) the first pass refuses fallbacks below
 * pageblock_order in every zone and the second takes any; 4.11 has no
 * such pass. The slow path wakes the node's one kswapd, retries the
 * zonelist at min, and reclaims directly (node-wide: one LRU). A free
 * goes back to the zone its pfn is in. pfns are global and unique
 * (DMA32 from 0, Normal from DMA32's end): each zone's buddy and pcp
 * lists work in zone-local pfns and this file translates, so page
 * cache, slab, XFS buffers and compaction's reverse map see one pfn
 * space.
 *
 * Placement: every page the model holds is also an allocated page of
 * its zone's buddy allocator (buddy.c), so memory has a physical
 * layout - migratetypes, fallbacks, fragmentation. Order-0 and
 * count-only decisions are taken on the zones' page counts; a block
 * (cp_mem_alloc_block, cp_mem_alloc_folio) is placed in the zone that
 * passed, and a zone whose layout cannot give it is skipped as
 * get_page_from_freelist() skips it. Buddy events become
 * vmstat counters: cp_extfrag (trace mm_page_alloc_extfrag: a fallback
 * to another migratetype), cp_extfrag_fragmenting (of those, the ones
 * below pageblock_order), cp_extfrag_steal (6.15+ single steals),
 * extfrag_claim and extfrag_claim_movable (the tracepoint's
 * change_ownership: all requests, MOVABLE ones),
 * cp_pageblocks_claimed, cp_watermark_boost
 * (boost_watermark() calls) and cp_highorder_nofit (see
 * cp_mem_alloc_block). Callers that only count (cp_mem_alloc /
 * cp_mem_take / cp_mem_free: process memory, tests) get their pages
 * placed as the largest blocks that fit, migratetype by owner (reserve
 * and fs buffers UNMOVABLE, process and page cache MOVABLE), kept on a
 * per-owner stack; a free gives back the blocks placed last (split to
 * pages when it ends inside one).
 *
 * Per-CPU page lists (pcp.c, with nr_cpus > 0): placement and frees of
 * the orders pcp_allowed_order() lets through go through the CPU's
 * lists (rmqueue_pcplist, free_unref_page), so a refill can fall back
 * (counted as the buddy counts it) and freed pages are not free pages
 * until a bulk free or drain gives them back. Those pages are owner
 * CP_OWNER_PCP; free_pages stays the buddy's free pages (NR_FREE_PAGES),
 * which the watermark tests read. The slow path drains every list
 * (drain_all_pages) after a direct reclaim round that made progress
 * still leaves the allocation below min, as __alloc_pages_direct_reclaim
 * does once per round, and - a model rule - before it would fail for
 * good, so no allocation fails while pcp lists hold pages. Frees use the
 * CPU cp_mem_set_cpu() names (the engine sets the running task's), as
 * the kernel uses the freeing CPU; allocations their ctx->cpu. With
 * 6.7+ pcp auto-tuning (linux-6.x) get_page_from_freelist() also sets
 * a zone's ZONE_BELOW_HIGH when the zone fails its high watermark, a
 * bulk free that leaves the zone above it clears the flag, and
 * cp_mem_vmstat_update() is the vmstat worker's decay_pcp_high().
 *
 * SIMPLIFIED: one node; ZONE_DMA is not modelled (zone.c: its
 * protection exceeds its pages); a count-only request of several pages
 * (cp_mem_alloc, cp_mem_alloc_pages) takes all its pages from the first
 * zone whose count passes for all of them, as __alloc_pages_bulk()
 * chooses its zone, without the ALLOC_NOFRAGMENT zone skip (the bulk
 * path has no ALLOC_NOFRAGMENT; the model's pages still try it first
 * within the zone, as single pages would, and 4.11's xfs_buf takes its
 * pages one alloc_page() at a time);
 * cp_mem_take() (set-up) ignores watermarks and fills Normal first;
 * slab pages of order > 0 still take order-0 pages when no
 * block fits (cp_mem_alloc_block: SLUB would fall back to its minimum
 * order) - only folios (cp_mem_alloc_folio) fail for fragmentation; the
 * reserve is the first pfns of each zone (split by zone size),
 * in the kernel memblock reservations lie here and there, and part of
 * "reserve" (struct pages) is not in any zone; process memory is placed
 * at set-up in blocks of up to order 10, not page by page; a memcg's
 * per-CPU charge stock is refilled by charges only (the kernel's slab
 * uncharges refill the freeing CPU's stock, obj_cgroup_uncharge_pages;
 * the model's go to the counter) and drain_all_stock drains at once;
 * the OOM killer is not modelled: an
 * allocation that cannot be satisfied fails with -CP_ENOSPC and the
 * caller reports it.
 */
#include "model/memory.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "core/intmath.h"
#include "model/gfp.h"

/* The migratetype of pages a count-only caller gets (registered owners,
 * slab caches, place their own: UNMOVABLE here). */
static const enum cp_migratetype fixed_owner_mt[CP_NR_FIXED_OWNERS] = {
	[CP_OWNER_RESERVE] = CP_MIGRATE_UNMOVABLE,
	[CP_OWNER_PROCESS] = CP_MIGRATE_MOVABLE,   /* GFP_HIGHUSER_MOVABLE anon pages */
	[CP_OWNER_PAGECACHE] = CP_MIGRATE_MOVABLE, /* see pagecache.c */
	[CP_OWNER_FSBUF] = CP_MIGRATE_UNMOVABLE,   /* see xfs_buf.c */
	[CP_OWNER_PCP] = CP_MIGRATE_MOVABLE,       /* never places count-only pages */
};

uint64_t cp_min_free_kbytes_default(uint64_t lowmem_kbytes, uint64_t max_kbytes)
{
	uint64_t v = cp_int_sqrt(lowmem_kbytes * 16);

	if (v < 128)
		v = 128;
	if (v > max_kbytes)
		v = max_kbytes;
	return v;
}

uint64_t cp_min_free_kbytes_thp(uint64_t lowmem_kbytes, unsigned nr_zones)
{
	/* pageblock_nr_pages (512 on x86-64 with 2 MiB huge pages) per zone
	 * for MIGRATE_RESERVE-style headroom, times (2 + 3 * MIGRATE_PCPTYPES). */
	uint64_t pages = 512ULL * nr_zones * (2 + 3 * 3);
	uint64_t cap = lowmem_kbytes / 4 / 20; /* 5 % of lowmem, in pages */

	if (pages > cap)
		pages = cap;
	return pages * 4;
}

struct cp_watermarks cp_watermarks_compute(uint64_t managed_pages, uint64_t min_free_kbytes,
					   unsigned watermark_scale_factor)
{
	struct cp_watermarks w;
	uint64_t pages_min = min_free_kbytes / 4; /* KiB -> 4 KiB pages */
	uint64_t tmp = managed_pages * watermark_scale_factor / 10000;

	if (tmp < pages_min / 4)
		tmp = pages_min / 4;
	w.min = pages_min;
	w.low = pages_min + tmp;
	w.high = pages_min + 2 * tmp;
	return w;
}

int cp_mem_register_owner(struct cp_mem *m, const char *name)
{
	if (m->nr_owners >= CP_MAX_OWNERS)
		return -CP_ENOSPC;
	snprintf(m->owner_name[m->nr_owners], CP_OWNER_NAME_LEN, "%s", name);
	return (int)m->nr_owners++;
}

void cp_mem_set_slub(struct cp_mem *m, enum cp_slub_partial kind, unsigned nr_cpus)
{
	m->slub_partial = (uint8_t)kind;
	m->slub_nr_cpus = nr_cpus;
}

void cp_mem_set_cpu(struct cp_mem *m, int cpu)
{
	m->cpu = cpu >= 0 && (unsigned)cpu < m->zones[0].pcp.nr_cpus ? cpu : 0;
}

void cp_mem_set_reclaim_active(struct cp_mem *m, bool active)
{
	unsigned i;

	for (i = 0; i < m->nr_zones; i++)
		m->zones[i].pcp.reclaim_active = active && !m->zones[i].buddy.kernel_4_11;
}

void cp_mem_set_hooks(struct cp_mem *m, const struct cp_mem_hooks *hooks)
{
	m->hooks = *hooks;
}

unsigned cp_mem_pfn_zone(const struct cp_mem *m, uint32_t pfn)
{
	unsigned i = m->nr_zones;

	while (--i > 0)
		if (pfn >= m->zones[i].start_pfn)
			break;
	return i;
}

int cp_mem_free_block_order(const struct cp_mem *m, uint32_t pfn)
{
	const struct cp_mem_zone *z = &m->zones[cp_mem_pfn_zone(m, pfn)];

	return cp_buddy_free_block_order(&z->buddy, pfn - z->start_pfn);
}

enum cp_buddy_page_kind cp_mem_page_kind(const struct cp_mem *m, uint32_t pfn, unsigned *order)
{
	const struct cp_mem_zone *z = &m->zones[cp_mem_pfn_zone(m, pfn)];

	return cp_buddy_page_kind(&z->buddy, pfn - z->start_pfn, order);
}

static void pcp_sync(struct cp_mem *m, struct cp_mem_zone *z, uint64_t before);
static void take_pages(struct cp_mem *m, struct cp_mem_zone *z, unsigned owner, uint64_t nr);
static void zone_credit(struct cp_mem *m, struct cp_mem_zone *z, uint64_t nr);

int cp_mem_migrate_free(struct cp_mem *m, uint32_t pfn, unsigned order, int cpu)
{
	struct cp_mem_zone *z;
	uint64_t held;
	unsigned kind_order;
	int rc;

	if (pfn >= m->total_pages || order >= CP_BUDDY_MAX_ORDER)
		return -CP_EINVAL;
	z = &m->zones[cp_mem_pfn_zone(m, pfn)];
	if (order) {
		rc = cp_buddy_join_pages(&z->buddy, pfn - z->start_pfn, order, NULL);
		if (rc)
			return rc;
	}
	if (cpu >= 0 && cp_pcp_allowed_order(&z->pcp, order) &&
	    (cp_mem_page_kind(m, pfn, &kind_order) != CP_BUDDY_PAGE_ALLOC || kind_order != order))
		return -CP_EINVAL;
	/* the isolated target now holds the folio (its owner already counts
	 * those pages); the old folio's pages are free again */
	CP_BUG_ON(m->nr_owner[CP_OWNER_ISOLATED] < (1ull << order));
	m->nr_owner[CP_OWNER_ISOLATED] -= 1ull << order;
	zone_credit(m, z, 1ull << order);
	if (cpu < 0 || !cp_pcp_allowed_order(&z->pcp, order))
		return cp_buddy_free(&z->buddy, pfn - z->start_pfn, order, NULL);
	/* to a per-CPU list: not free in the zone's count */
	held = z->pcp.nr_held_pages;
	cp_pcp_free(&z->pcp, &z->buddy, cpu, pfn - z->start_pfn, order);
	pcp_sync(m, z, held);
	return 0;
}

void cp_mem_isolated_free_block(struct cp_mem *m, unsigned zi, unsigned order)
{
	CP_BUG_ON(zi >= m->nr_zones);
	take_pages(m, &m->zones[zi], CP_OWNER_ISOLATED, 1ull << order);
}

void cp_mem_putback_isolated(struct cp_mem *m, unsigned zi, unsigned order)
{
	CP_BUG_ON(zi >= m->nr_zones || m->nr_owner[CP_OWNER_ISOLATED] < (1ull << order));
	m->nr_owner[CP_OWNER_ISOLATED] -= 1ull << order;
	zone_credit(m, &m->zones[zi], 1ull << order);
}

uint8_t *cp_mem_movable_filler_map(struct cp_mem *m)
{
	if (!m->movable_filler)
		m->movable_filler = cp_calloc(m->total_pages, 1);
	return m->movable_filler;
}

int cp_mem_mark_movable_filler(struct cp_mem *m, uint32_t pfn)
{
	unsigned order;

	if (pfn >= m->total_pages || cp_mem_page_kind(m, pfn, &order) != CP_BUDDY_PAGE_ALLOC ||
	    order != 0)
		return -CP_EINVAL;
	if (!cp_mem_movable_filler_map(m))
		return -CP_ENOMEM;
	m->movable_filler[pfn] = 1;
	return 0;
}

int cp_mem_migrate_filler(struct cp_mem *m, uint32_t old_pfn, uint32_t new_pfn, int cpu)
{
	unsigned order;

	if (!cp_mem_movable_filler(m, old_pfn) || new_pfn >= m->total_pages ||
	    m->movable_filler[new_pfn] ||
	    cp_mem_page_kind(m, new_pfn, &order) != CP_BUDDY_PAGE_ALLOC || order != 0)
		return -CP_EINVAL;
	m->movable_filler[new_pfn] = 1;
	m->movable_filler[old_pfn] = 0;
	return cp_mem_migrate_free(m, old_pfn, 0, cpu);
}

uint64_t cp_mem_pcp_held_pages(const struct cp_mem *m)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < m->nr_zones; i++)
		n += m->zones[i].pcp.nr_held_pages;
	return n;
}

/* The count side of an allocation from zone z. */
static void take_pages(struct cp_mem *m, struct cp_mem_zone *z, unsigned owner, uint64_t nr)
{
	CP_BUG_ON(z->free_pages < nr || m->free_pages < nr);
	z->free_pages -= nr;
	m->free_pages -= nr;
	m->nr_owner[owner] += nr;
}

/* PGALLOC of zone z (rmqueue(): __count_zid_vm_events(PGALLOC, zone,
 * 1 << order)), counted once per allocation the zone gives. */
static void count_pgalloc(struct cp_mem *m, const struct cp_mem_zone *z, uint64_t nr)
{
	if (m->vmstat)
		cp_count(m->vmstat,
			 z->type == CP_ZONE_DMA32 ? CP_VM_PGALLOC_DMA32 : CP_VM_PGALLOC_NORMAL, nr);
}

/* The count side of giving pages back to zone z (owner and memcg are
 * the caller's: owner_uncharge). */
static void zone_credit(struct cp_mem *m, struct cp_mem_zone *z, uint64_t nr)
{
	z->free_pages += nr;
	m->free_pages += nr;
}

static void owner_uncharge(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg)
{
	CP_BUG_ON(owner >= m->nr_owners || m->nr_owner[owner] < nr);
	m->nr_owner[owner] -= nr;
	if (memcg)
		cp_memcg_uncharge(memcg, owner, nr);
}

/* ---- placement -------------------------------------------------------- */

/* The buddies' and the pcp lists' event counters (all zones), copied
 * to vmstat as they move. */
struct buddy_events {
	uint64_t extfrag, fragmenting, boost, claimed, steal, claim, claim_movable;
	uint64_t refill_pages, bulk_free_pages, drains;
};

static struct buddy_events events_now(const struct cp_mem *m)
{
	struct buddy_events e = { 0 };
	unsigned i;

	for (i = 0; i < m->nr_zones; i++) {
		const struct cp_buddy *b = &m->zones[i].buddy;
		const struct cp_pcp *pcp = &m->zones[i].pcp;

		e.extfrag += b->nr_extfrag;
		e.fragmenting += b->nr_extfrag_fragmenting;
		e.boost += b->nr_boost;
		e.claimed += b->nr_pageblocks_claimed;
		e.steal += b->nr_steal;
		e.claim += b->nr_claim;
		e.claim_movable += b->nr_claim_movable;
		e.refill_pages += pcp->nr_refill_pages;
		e.bulk_free_pages += pcp->nr_bulk_free_pages;
		e.drains += pcp->nr_drains;
	}
	return e;
}

static void count_events(struct cp_mem *m, const struct buddy_events *before)
{
	struct buddy_events now = events_now(m);

	if (!m->vmstat)
		return;
	cp_count(m->vmstat, CP_VM_EXTFRAG, now.extfrag - before->extfrag);
	cp_count(m->vmstat, CP_VM_EXTFRAG_FRAGMENTING, now.fragmenting - before->fragmenting);
	cp_count(m->vmstat, CP_VM_WATERMARK_BOOST, now.boost - before->boost);
	cp_count(m->vmstat, CP_VM_PAGEBLOCKS_CLAIMED, now.claimed - before->claimed);
	cp_count(m->vmstat, CP_VM_EXTFRAG_STEAL, now.steal - before->steal);
	cp_count(m->vmstat, CP_VM_EXTFRAG_CLAIM, now.claim - before->claim);
	cp_count(m->vmstat, CP_VM_EXTFRAG_CLAIM_MOVABLE, now.claim_movable - before->claim_movable);
	cp_count(m->vmstat, CP_VM_PCP_REFILL_PAGES, now.refill_pages - before->refill_pages);
	cp_count(m->vmstat, CP_VM_PCP_BULK_FREE_PAGES,
		 now.bulk_free_pages - before->bulk_free_pages);
	cp_count(m->vmstat, CP_VM_PCP_DRAIN, now.drains - before->drains);
}

static void wake_kswapd(struct cp_mem *m, unsigned order, unsigned highest_zoneidx)
{
	if (m->hooks.wake_kswapd)
		m->hooks.wake_kswapd(m->hooks.priv, order, highest_zoneidx);
}

/* Pages moved between zone z's pcp lists and its buddy since `before`
 * (pcp.nr_held_pages then) become or stop being free pages. */
static void pcp_sync(struct cp_mem *m, struct cp_mem_zone *z, uint64_t before)
{
	uint64_t now = z->pcp.nr_held_pages;

	/* modular arithmetic: either direction */
	m->nr_owner[CP_OWNER_PCP] += now - before;
	z->free_pages -= now - before;
	m->free_pages -= now - before;
}

/* rmqueue(): through the CPU's pcp list of zone z for the orders it
 * takes, else __rmqueue() on the zone. *pfn is zone-local. */
static int rmqueue(struct cp_mem_zone *z, unsigned order, enum cp_migratetype mt, unsigned flags,
		   int cpu, uint32_t *pfn)
{
	uint64_t owed, keep;

	if (!cp_pcp_allowed_order(&z->pcp, order))
		return cp_buddy_alloc(&z->buddy, order, mt, flags, pfn);
	/* pages the count already gave away and not yet placed, this
	 * block's included: a refill leaves the rest in the buddy */
	owed = z->buddy.nr_free_pages - z->free_pages;
	keep = owed > (1ull << order) && owed <= z->buddy.nr_free_pages ? owed - (1ull << order) : 0;
	if (cpu < 0 || (unsigned)cpu >= z->pcp.nr_cpus)
		cpu = 0;
	return cp_pcp_alloc(&z->pcp, &z->buddy, cpu, order, mt, flags, keep, pfn);
}

/* The ALLOC_* flags of an allocation: ALLOC_NOFRAGMENT from
 * alloc_flags_nofragment() (cp_mem_init), __GFP_KSWAPD_RECLAIM is
 * ALLOC_KSWAPD. */
static unsigned alloc_flags(const struct cp_mem *m, unsigned gfp)
{
	unsigned flags = m->buddy_alloc_flags;

	if (gfp & CP_GFP_KSWAPD_RECLAIM)
		flags |= CP_BUDDY_ALLOC_KSWAPD;
	return flags;
}

/*
 * rmqueue() of one block from zone z with these flags, after the count
 * decided; *pfn global. -CP_ENOSPC when no block fits (order > 0, or
 * ALLOC_NOFRAGMENT refusing a fallback).
 */
static int place_in_zone(struct cp_mem *m, struct cp_mem_zone *z, unsigned order,
			 enum cp_migratetype mt, unsigned flags, int cpu, uint32_t *pfn)
{
	struct buddy_events before = events_now(m);
	uint64_t held = z->pcp.nr_held_pages;
	int rc = rmqueue(z, order, mt, flags, cpu, pfn);

	pcp_sync(m, z, held);
	if (!rc)
		*pfn += z->start_pfn;
	/* rmqueue(): a boost set by this allocation wakes kswapd for this
	 * zone: wakeup_kswapd(zone, 0, 0, zone_idx(zone)) */
	if (cp_buddy_test_and_clear_boosted(&z->buddy))
		wake_kswapd(m, 0, (unsigned)(z - m->zones));
	count_events(m, &before);
	return rc;
}

/* One block in zone z: with ALLOC_NOFRAGMENT first, then without. */
static int place_block(struct cp_mem *m, struct cp_mem_zone *z, unsigned order,
		       enum cp_migratetype mt, unsigned gfp, int cpu, uint32_t *pfn)
{
	unsigned flags = alloc_flags(m, gfp);
	int rc = place_in_zone(m, z, order, mt, flags, cpu, pfn);

	if (rc == -CP_ENOSPC && (flags & CP_BUDDY_ALLOC_NOFRAGMENT))
		rc = place_in_zone(m, z, order, mt, flags & ~CP_BUDDY_ALLOC_NOFRAGMENT, cpu, pfn);
	CP_BUG_ON(rc && (rc != -CP_ENOSPC || order == 0));
	return rc;
}

static bool zone_order_watermark_ok(const struct cp_mem_zone *z, unsigned order, uint64_t mark);

/* __free_pages(): to the freeing CPU's pcp list of the pfn's zone
 * (free_unref_page) for the orders it takes, else to the zone
 * (__free_pages_ok). The pages become the zone's free pages. */
static void unplace_block(struct cp_mem *m, uint32_t pfn, unsigned order)
{
	struct cp_mem_zone *z = &m->zones[cp_mem_pfn_zone(m, pfn)];
	struct buddy_events before = events_now(m);
	uint64_t held = z->pcp.nr_held_pages;
	uint32_t local = pfn - z->start_pfn;
	int rc = 0;

	zone_credit(m, z, 1ull << order);
	if (cp_pcp_allowed_order(&z->pcp, order)) {
		uint64_t bulk = z->pcp.nr_bulk_frees;

		cp_pcp_free(&z->pcp, &z->buddy, m->cpu, local, order);
		pcp_sync(m, z, held);
		/* free_unref_page_commit() (6.7+): a bulk free that leaves
		 * the zone above its high watermark clears ZONE_BELOW_HIGH */
		if (z->pcp.below_high && z->pcp.nr_bulk_frees != bulk &&
		    zone_order_watermark_ok(z, 0, cp_zone_wmark_high(z)))
			z->pcp.below_high = false;
		count_events(m, &before);
	} else {
		rc = cp_buddy_free(&z->buddy, local, order, NULL);
	}
	CP_BUG_ON(rc);
	(void)rc;
}

uint64_t cp_mem_drain_all_pages(struct cp_mem *m)
{
	struct buddy_events before = events_now(m);
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < m->nr_zones; i++) {
		struct cp_mem_zone *z = &m->zones[i];
		uint64_t held = z->pcp.nr_held_pages;

		if (!z->pcp.nr_cpus)
			continue;
		n += cp_pcp_drain_all(&z->pcp, &z->buddy);
		pcp_sync(m, z, held);
	}
	count_events(m, &before);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return n;
}

uint64_t cp_mem_vmstat_update(struct cp_mem *m)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < m->nr_zones; i++) {
		struct cp_mem_zone *z = &m->zones[i];
		uint64_t held = z->pcp.nr_held_pages;

		if (!z->pcp.auto_tune)
			continue;
		n += cp_pcp_decay_high(&z->pcp, &z->buddy);
		pcp_sync(m, z, held);
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return n;
}

bool cp_mem_pcp_auto_tune(const struct cp_mem *m)
{
	return m->nr_zones && m->zones[0].pcp.auto_tune;
}

static enum cp_migratetype owner_mt(unsigned owner)
{
	return owner < CP_NR_FIXED_OWNERS ? fixed_owner_mt[owner] : CP_MIGRATE_UNMOVABLE;
}

static int anon_push(struct cp_mem *m, unsigned owner, uint32_t pfn, unsigned order)
{
	struct cp_mem_anon *a = &m->anon[owner];

	{
		struct cp_mem_block *bl = cp_grow(a->blocks, &a->cap, a->nr + 1, sizeof(*bl), 64);

		if (!bl)
			return -CP_ENOMEM;
		a->blocks = bl;
	}
	a->blocks[a->nr++] = (struct cp_mem_block){ pfn, (uint16_t)order, 0 };
	a->nr_pages += 1ull << order;
	return 0;
}

static void anon_unplace(struct cp_mem *m, unsigned owner, uint64_t nr);

/* Place nr pages (already counted in zone z) of a count-only caller as
 * the largest blocks that fit. 0, or -CP_ENOMEM (host) with nothing
 * placed and the count given back to z. */
static int anon_place(struct cp_mem *m, struct cp_mem_zone *z, unsigned owner, uint64_t nr,
		      unsigned gfp, int cpu)
{
	uint64_t done = 0;

	while (done < nr) {
		unsigned order = CP_BUDDY_MAX_ORDER - 1;
		uint32_t pfn;

		while ((1ull << order) > nr - done)
			order--;
		while (place_block(m, z, order, owner_mt(owner), gfp, cpu, &pfn))
			order--;
		if (anon_push(m, owner, pfn, order)) {
			/* the placed pages come back as free pages, the
			 * rest of the count with them */
			zone_credit(m, z, nr - done - (1ull << order));
			unplace_block(m, pfn, order);
			anon_unplace(m, owner, done);
			return -CP_ENOMEM;
		}
		done += 1ull << order;
	}
	return 0;
}

/* Give back the last nr pages placed for a count-only caller. */
static void anon_unplace(struct cp_mem *m, unsigned owner, uint64_t nr)
{
	struct cp_mem_anon *a = &m->anon[owner];

	CP_BUG_ON(a->nr_pages < nr);
	a->nr_pages -= nr;
	while (nr) {
		struct cp_mem_block *bl = &a->blocks[a->nr - 1];
		uint32_t pages = bl->nr_split ? bl->nr_split : 1u << bl->order;
		uint32_t i;
		int rc;

		if (pages <= nr && !bl->nr_split) {
			unplace_block(m, bl->pfn, bl->order);
		} else if (pages <= nr) {
			for (i = 0; i < pages; i++)
				unplace_block(m, bl->pfn + i, 0);
		} else {
			/* split_page(): the block becomes pages; its last nr go */
			if (!bl->nr_split) {
				struct cp_mem_zone *z = &m->zones[cp_mem_pfn_zone(m, bl->pfn)];

				rc = cp_buddy_split_page(&z->buddy, bl->pfn - z->start_pfn, bl->order,
							 NULL);
				CP_BUG_ON(rc);
				(void)rc;
			}
			for (i = pages - (uint32_t)nr; i < pages; i++)
				unplace_block(m, bl->pfn + i, 0);
			bl->nr_split = (uint16_t)(pages - nr);
			return;
		}
		a->nr--;
		nr -= pages;
	}
}

int cp_mem_take(struct cp_mem *m, unsigned owner, uint64_t nr)
{
	uint64_t left = nr;
	unsigned i = m->nr_zones;
	int rc = 0;

	if (owner >= m->nr_owners || m->free_pages < nr)
		return -CP_ENOSPC;
	/* the zonelist order, highest zone first; counted first: a pcp
	 * refill may take more free pages */
	while (left && i-- > 0) {
		struct cp_mem_zone *z = &m->zones[i];
		uint64_t n = z->free_pages < left ? z->free_pages : left;

		if (!n)
			continue;
		take_pages(m, z, owner, n);
		rc = anon_place(m, z, owner, n, 0, m->cpu);
		if (rc) {
			owner_uncharge(m, owner, n, NULL);
			cp_mem_free(m, owner, nr - left, NULL);
			break;
		}
		left -= n;
	}
	CP_BUG_ON(!rc && left);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

void cp_memcg_init(struct cp_memcg *memcg, int id, uint64_t limit_pages)
{
	memset(memcg, 0, sizeof(*memcg));
	memcg->id = id;
	memcg->limit_pages = limit_pages;
}

void cp_memcg_set_charge_batch(struct cp_memcg *memcg, unsigned batch)
{
	memcg->charge_batch = batch;
}

static unsigned stock_slot(int cpu)
{
	return (unsigned)cpu % CP_MEMCG_STOCK_CPUS;
}

/* consume_stock(): nr pages of this CPU's stock, if it holds them and
 * nr is at most a batch. */
static bool consume_stock(struct cp_memcg *memcg, int cpu, uint64_t nr)
{
	uint64_t *st = &memcg->stock[stock_slot(cpu)];

	if (nr > memcg->charge_batch || *st < nr)
		return false;
	*st -= nr;
	memcg->nr_stock -= nr;
	return true;
}

/* drain_stock(): the CPU's stock back to the counter. */
static void drain_stock(struct cp_memcg *memcg, unsigned slot)
{
	memcg->usage_pages -= memcg->stock[slot];
	memcg->nr_stock -= memcg->stock[slot];
	memcg->stock[slot] = 0;
}

/* refill_stock(): pages charged ahead onto the CPU's stock; more than a
 * batch there and it all goes back. */
static void refill_stock(struct cp_memcg *memcg, int cpu, uint64_t nr)
{
	unsigned slot = stock_slot(cpu);

	memcg->stock[slot] += nr;
	memcg->nr_stock += nr;
	if (memcg->stock[slot] > memcg->charge_batch)
		drain_stock(memcg, slot);
}

/* drain_all_stock(): every CPU's stock back to the counter. SIMPLIFIED:
 * at once (the kernel drains the other CPUs' from work it queues). */
static void drain_all_stock(struct cp_memcg *memcg)
{
	unsigned i;

	for (i = 0; i < CP_MEMCG_STOCK_CPUS; i++)
		drain_stock(memcg, i);
}

/* try_charge_memcg()'s attempts before reclaim: the CPU's stock, then a
 * whole batch from the counter (the rest stocked), then nr alone. */
static int charge_counter(struct cp_memcg *memcg, unsigned owner, uint64_t nr, int cpu)
{
	uint64_t batch = nr > memcg->charge_batch ? nr : memcg->charge_batch;

	if (consume_stock(memcg, cpu, nr)) {
		memcg->nr_owner[owner] += nr;
		return 0;
	}
	if (batch > nr && memcg->usage_pages + batch <= memcg->limit_pages) {
		memcg->usage_pages += batch;
		memcg->nr_owner[owner] += nr;
		refill_stock(memcg, cpu, batch - nr);
		return 0;
	}
	return cp_memcg_try_charge_nowait(memcg, owner, nr);
}

int cp_memcg_try_charge_nowait(struct cp_memcg *memcg, unsigned owner, uint64_t nr)
{
	if (memcg->usage_pages + nr > memcg->limit_pages)
		return -CP_ENOSPC;
	memcg->usage_pages += nr;
	memcg->nr_owner[owner] += nr;
	return 0;
}

void cp_memcg_uncharge(struct cp_memcg *memcg, unsigned owner, uint64_t nr)
{
	CP_BUG_ON(memcg->nr_owner[owner] < nr || memcg->usage_pages < nr);
	memcg->usage_pages -= nr;
	memcg->nr_owner[owner] -= nr;
}

/* The task's stepped reclaim state when this charge's reclaim goes a
 * level at a time (cp_memcg_stepped): a __GFP_FS charge of a stepped
 * task; NULL otherwise. */
static struct cp_memcg_stepped *charge_stepped(const struct cp_mem *m,
					       const struct cp_alloc_ctx *ctx)
{
	if (!ctx->stepped || !(ctx->gfp & CP_GFP_FS) || !m->hooks.memcg_reclaim_start)
		return NULL;
	return ctx->stepped;
}

bool cp_memcg_reclaim_continue(struct cp_mem *m, struct cp_alloc_ctx *ctx)
{
	struct cp_memcg_stepped *st = ctx->stepped;

	CP_BUG_ON(!st || !st->in_reclaim);
	st->in_reclaim = m->hooks.memcg_reclaim_step(m->hooks.priv, st->sc, ctx);
	return st->in_reclaim;
}

/* try_charge_memcg(): the stock, a batch, the exact charge; over the
 * limit, reclaim from the memcg and try again; still short, drain the
 * CPUs' stocks and go round once more; then each round counts against
 * the retry budget whatever it reclaimed. */
int cp_memcg_try_charge(struct cp_mem *m, struct cp_memcg *memcg, unsigned owner, uint64_t nr,
			struct cp_alloc_ctx *ctx)
{
	struct cp_memcg_stepped *st = charge_stepped(m, ctx);
	unsigned retries = st && st->charging ? st->retries : m->memcg_reclaim_retries;
	bool drained = false;

	CP_BUG_ON(st && st->in_reclaim);
	for (;;) {
		if (charge_counter(memcg, owner, nr, ctx->cpu) == 0)
			goto charged;
		if (!(ctx->gfp & CP_GFP_DIRECT_RECLAIM) || !m->hooks.memcg_reclaim)
			break;
		if (ctx->work)
			ctx->work->nr_stalls++;
		if (!st) {
			m->hooks.memcg_reclaim(m->hooks.priv, memcg, ctx, nr);
		} else if (m->hooks.memcg_reclaim_start(m->hooks.priv, memcg, ctx, nr, st->sc)) {
			st->in_reclaim = true;
			st->charging = true;
			st->retries = retries;
			return -CP_EAGAIN;
		}
		if (charge_counter(memcg, owner, nr, ctx->cpu) == 0)
			goto charged;
		/* still short: the CPUs' stocks back to the counter and the
		 * whole round again, once, before the retry budget counts */
		if (!drained && memcg->charge_batch) {
			drain_all_stock(memcg);
			drained = true;
			continue;
		}
		/* __GFP_NORETRY: one reclaim round, then give up */
		if ((ctx->gfp & CP_GFP_NORETRY) || retries-- == 0)
			break;
	}
	memcg->failcnt++;
	if (st)
		st->charging = false;
	return -CP_ENOSPC;
charged:
	if (st)
		st->charging = false;
	return 0;
}

static bool zone_order_watermark_ok(const struct cp_mem_zone *z, unsigned order, uint64_t mark)
{
	if (order == 0)
		return z->free_pages >= mark + 1;
	return cp_buddy_watermark_ok(&z->buddy, order, mark, (int64_t)z->free_pages);
}

bool cp_mem_zone_watermark_ok(const struct cp_mem *m, unsigned zi, unsigned order, uint64_t mark)
{
	return zone_order_watermark_ok(&m->zones[zi], order, mark);
}

/* ---- get_page_from_freelist ------------------------------------------- */

enum wmark_kind { WMARK_MIN, WMARK_LOW };

/* One allocation as get_page_from_freelist() sees it. */
struct alloc_req {
	unsigned owner;
	uint64_t nr;            /* pages */
	int folio_order;        /* >= 0: the watermark test of a block of this order */
	/* one block of `order` placed in the zone chosen (cp_mem_alloc_block,
	 * cp_mem_alloc_folio); else the count only (the caller places) */
	bool place_one;
	unsigned order;
	enum cp_migratetype mt;
	unsigned gfp;
	int cpu;
	uint32_t *pfn;          /* place_one: the block's first (global) pfn */
	bool nofit;             /* place_one: counted, but no block: the caller splits */
	/* place_one: placed on the fast path without ALLOC_KSWAPD whatever
	 * the gfp (SLUB's first try at a cache's order:
	 * cp_mem_alloc_slab_block); the slow path places with the gfp's */
	bool place_no_kswapd;
	struct cp_mem_zone *zone; /* out: the zone the pages came from */
};

/* The mark zone z must keep for this allocation: wmark_pages() with
 * the zone's boost (5.0+; 0 on 4.11), and, for a zone below the
 * allocation's preferred (highest) zone, its lowmem_reserve. */
static uint64_t zone_mark(const struct cp_mem *m, const struct cp_mem_zone *z, enum wmark_kind k)
{
	uint64_t mark = (k == WMARK_MIN ? z->wmark.min : z->wmark.low) + z->buddy.watermark_boost;

	if (z != &m->zones[m->nr_zones - 1])
		mark += z->lowmem_reserve;
	return mark;
}

/* zone_watermark_fast() / __zone_watermark_ok() of one attempt: nr
 * pages by count (order-0 and count-only callers), or one block of
 * folio_order against the zone's free lists. */
static bool zone_attempt_ok(const struct cp_mem_zone *z, uint64_t mark, const struct alloc_req *rq)
{
	if (rq->folio_order < 0)
		return z->free_pages >= mark + rq->nr;
	return zone_order_watermark_ok(z, (unsigned)rq->folio_order, mark);
}

/* get_page_from_freelist() of 6.7+ (pcp auto-tuning): a zone that
 * fails its high watermark (boost and reserve included, as the
 * allocation's own test counts them) gets ZONE_BELOW_HIGH; a zone that
 * passes it passes the allocation's mark too, so the choice of zone is
 * unchanged. */
static void note_below_high(const struct cp_mem *m, struct cp_mem_zone *z,
			    const struct alloc_req *rq)
{
	uint64_t mark;

	if (!z->pcp.auto_tune || z->pcp.below_high)
		return;
	mark = cp_zone_wmark_high(z);
	if (z != &m->zones[m->nr_zones - 1])
		mark += z->lowmem_reserve;
	if (!zone_attempt_ok(z, mark, rq))
		z->pcp.below_high = true;
}

/*
 * get_page_from_freelist(): walk the zonelist (Normal, then DMA32) and
 * take the allocation from the first zone whose watermark allows it and
 * which can give the block. With ALLOC_NOFRAGMENT (6.1, the fast path at
 * the low watermark only) the first pass refuses fallbacks below
 * pageblock_order in every zone, so a lower zone's own free blocks are
 * used before the preferred zone is fragmented; the second pass (the
 * retry at the end of the function) takes any fallback. Returns 0 or
 * -CP_ENOSPC.
 */
static int get_page_from_freelist(struct cp_mem *m, struct alloc_req *rq, enum wmark_kind k)
{
	unsigned flags = alloc_flags(m, rq->gfp);
	bool nofrag;

	/* only the fast path (__alloc_pages: alloc_flags_nofragment) avoids
	 * fragmenting; the slow path's gfp_to_alloc_flags() does not */
	if (k == WMARK_MIN)
		flags &= ~CP_BUDDY_ALLOC_NOFRAGMENT;
	nofrag = (flags & CP_BUDDY_ALLOC_NOFRAGMENT) != 0;
	struct cp_mem_zone *counted = NULL;
	unsigned pass, i;

	for (pass = nofrag ? 0 : 1; pass < 2; pass++) {
		unsigned f = pass ? flags & ~CP_BUDDY_ALLOC_NOFRAGMENT : flags;

		for (i = m->nr_zones; i-- > 0;) {
			struct cp_mem_zone *z = &m->zones[i];

			note_below_high(m, z, rq);
			if (!zone_attempt_ok(z, zone_mark(m, z, k), rq))
				continue;
			if (!rq->place_one) {
				take_pages(m, z, rq->owner, rq->nr);
				count_pgalloc(m, z, rq->nr);
				rq->zone = z;
				return 0;
			}
			/* counted first: a pcp refill leaves the rest */
			take_pages(m, z, rq->owner, rq->nr);
			/* SLUB's first try is the fast path's; after the slow
			 * path the caller's flags place it (its second try) */
			if (place_in_zone(m, z, rq->order, rq->mt,
					  rq->place_no_kswapd && k == WMARK_LOW
						  ? f & ~CP_BUDDY_ALLOC_KSWAPD
						  : f,
					  rq->cpu, rq->pfn) == 0) {
				count_pgalloc(m, z, rq->nr);
				rq->zone = z;
				rq->nofit = false;
				return 0;
			}
			zone_credit(m, z, rq->nr);
			m->nr_owner[rq->owner] -= rq->nr;
			if (!counted)
				counted = z;
		}
	}
	if (!counted)
		return -CP_ENOSPC;
	/* The count allowed it, no zone's layout can give the block (order
	 * > 0 only): the first zone that passed keeps the decision. */
	CP_BUG_ON(rq->order == 0 || rq->folio_order >= 0);
	take_pages(m, counted, rq->owner, rq->nr);
	count_pgalloc(m, counted, rq->nr);
	rq->zone = counted;
	rq->nofit = true;
	return 0;
}

#define PAGE_ALLOC_COSTLY_ORDER 3 /* include/linux/mmzone.h */

/*
 * __alloc_pages_direct_compact(): compaction for a folio of order (the
 * hook runs try_to_compact_pages() at the async priority), then the free
 * lists at the min watermark. Returns 0 with the page, 1 when
 * compaction ran but no page came, -1 when it was skipped or deferred
 * (no compact_stall counted then, as the kernel returns before
 * counting).
 */
static int direct_compact(struct cp_mem *m, struct alloc_req *rq, struct cp_alloc_ctx *ctx,
			  unsigned order)
{
	if (!m->hooks.direct_compact(m->hooks.priv, ctx, order))
		return -1;
	if (m->vmstat)
		cp_count(m->vmstat, CP_VM_COMPACT_STALL, 1);
	if (get_page_from_freelist(m, rq, WMARK_MIN) == 0) {
		if (m->vmstat)
			cp_count(m->vmstat, CP_VM_COMPACT_SUCCESS, 1);
		return 0;
	}
	if (m->vmstat)
		cp_count(m->vmstat, CP_VM_COMPACT_FAIL, 1);
	return 1;
}

/* __alloc_pages_slowpath(): wake kswapd (wake_all_kswapds: the node's
 * one kswapd, at the order), retry the zonelist at the min watermark;
 * a costly folio (order > PAGE_ALLOC_COSTLY_ORDER) compacts first
 * (gfp_compaction_allowed: __GFP_IO) and, with __GFP_NORETRY, gives up
 * when compaction was skipped or deferred; then reclaim directly
 * (node-wide: one LRU), retry, and compact a folio once more; a
 * __GFP_NORETRY request stops there. The other direct-compaction cases
 * (non-movable order > 0) do not arise: slab and XFS buffer blocks come
 * here as order-0 requests or without direct reclaim. */
static int alloc_slowpath(struct cp_mem *m, struct alloc_req *rq, struct cp_alloc_ctx *ctx)
{
	unsigned no_progress = 0;
	unsigned order = rq->folio_order > 0 ? (unsigned)rq->folio_order : 0;
	bool can_compact = order > 0 && (ctx->gfp & CP_GFP_IO) && m->hooks.direct_compact;

	/* wake_all_kswapds(): ac->highest_zoneidx, the top zone */
	if (ctx->gfp & CP_GFP_KSWAPD_RECLAIM)
		wake_kswapd(m, order, m->nr_zones - 1);
	if ((ctx->gfp & CP_GFP_DIRECT_RECLAIM) && order > PAGE_ALLOC_COSTLY_ORDER) {
		/* without the hook (or __GFP_IO) as if skipped */
		int dc;

		if (get_page_from_freelist(m, rq, WMARK_MIN) == 0)
			return 0;
		dc = can_compact ? direct_compact(m, rq, ctx, order) : -1;
		if (dc == 0)
			return 0;
		if (dc < 0 && (ctx->gfp & CP_GFP_NORETRY))
			goto nopage;
	}
	for (;;) {
		uint64_t progress;

		if (get_page_from_freelist(m, rq, WMARK_MIN) == 0)
			return 0;
		if (!(ctx->gfp & CP_GFP_DIRECT_RECLAIM) || !m->hooks.direct_reclaim)
			break;
		if (m->vmstat)
			cp_count(m->vmstat, CP_VM_ALLOCSTALL, 1);
		if (ctx->work)
			ctx->work->nr_stalls++;
		progress = m->hooks.direct_reclaim(m->hooks.priv, ctx, rq->nr);
		if (get_page_from_freelist(m, rq, WMARK_MIN) == 0)
			return 0;
		/* __alloc_pages_direct_reclaim(): progress but still no page:
		 * the pages may sit on per-CPU lists; drain once, retry */
		if (progress && cp_mem_pcp_held_pages(m)) {
			cp_mem_drain_all_pages(m);
			if (get_page_from_freelist(m, rq, WMARK_MIN) == 0)
				return 0;
		}
		if (can_compact && direct_compact(m, rq, ctx, order) == 0)
			return 0;
		if (ctx->gfp & CP_GFP_NORETRY)
			break;
		if (progress == 0 && ++no_progress >= m->max_reclaim_retries)
			break;
	}
	/* Model rule: no allocation fails for good (OOM) while per-CPU
	 * lists hold pages; drain them and try the min watermark again. */
	if (!(ctx->gfp & CP_GFP_NORETRY) && cp_mem_pcp_held_pages(m)) {
		cp_mem_drain_all_pages(m);
		if (get_page_from_freelist(m, rq, WMARK_MIN) == 0)
			return 0;
	}
nopage:
	/* a __GFP_NORETRY caller (readahead) falls back on its own */
	if (m->vmstat && !(ctx->gfp & CP_GFP_NORETRY))
		cp_count(m->vmstat, CP_VM_OOM, 1);
	return -CP_ENOSPC;
}

/* __alloc_pages(): charge the memcg, the fast path at the low
 * watermark, else the slow path. */
static int mem_decide(struct cp_mem *m, struct alloc_req *rq, struct cp_alloc_ctx *ctx)
{
	int rc;

	CP_BUG_ON(rq->owner >= m->nr_owners);
	rq->gfp = ctx->gfp;
	rq->cpu = ctx->cpu;
	if (ctx->memcg) {
		rc = cp_memcg_try_charge(m, ctx->memcg, rq->owner, rq->nr, ctx);
		if (rc)
			return rc;
	}
	if (get_page_from_freelist(m, rq, WMARK_LOW) == 0)
		return 0;
	rc = alloc_slowpath(m, rq, ctx);
	if (rc && ctx->memcg)
		cp_memcg_uncharge(ctx->memcg, rq->owner, rq->nr);
	return rc;
}

/* One page of owner, as a page fault takes it (do_anonymous_page ->
 * vma_alloc_folio): the zonelist walk places the page too, so the
 * ALLOC_NOFRAGMENT pass looks for a page of the owner's type in every
 * zone before any zone falls back to another type's pageblock. */
static int anon_fault_page(struct cp_mem *m, unsigned owner, struct cp_alloc_ctx *ctx)
{
	uint32_t pfn;
	struct alloc_req rq = { .owner = owner, .nr = 1, .folio_order = -1, .place_one = true,
				.order = 0, .mt = owner_mt(owner), .pfn = &pfn };
	int rc = mem_decide(m, &rq, ctx);

	if (rc)
		return rc;
	rc = anon_push(m, owner, pfn, 0);
	if (rc) { /* host memory: as if never taken */
		owner_uncharge(m, owner, 1, ctx->memcg);
		unplace_block(m, pfn, 0);
	}
	return rc;
}

int cp_mem_alloc(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_alloc_ctx *ctx)
{
	struct alloc_req rq = { .owner = owner, .nr = nr, .folio_order = -1 };
	int rc;

	if (nr == 1) {
		rc = anon_fault_page(m, owner, ctx);
		CP_DEBUG_CHECK(cp_mem_check(m));
		return rc;
	}
	rc = mem_decide(m, &rq, ctx);
	if (!rc) {
		rc = anon_place(m, rq.zone, owner, nr, ctx->gfp, ctx->cpu);
		if (rc) /* host memory: undo the count, as if never taken */
			owner_uncharge(m, owner, nr, ctx->memcg);
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

static int alloc_block(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns, bool *split, bool no_kswapd)
{
	struct alloc_req rq = { .owner = owner, .nr = 1ull << order, .folio_order = -1,
				.place_one = true, .order = order, .mt = mt, .pfn = &pfns[0],
				.place_no_kswapd = no_kswapd };
	uint32_t i;
	int rc;

	CP_BUG_ON(order >= CP_BUDDY_MAX_ORDER);
	rc = mem_decide(m, &rq, ctx);
	if (rc)
		return rc;
	*split = rq.nofit;
	if (rq.nofit) {
		/* The count allowed it, the layout cannot give it: keep the
		 * decision, take the pages one by one. */
		if (m->vmstat)
			cp_count(m->vmstat, CP_VM_HIGHORDER_NOFIT, 1);
		for (i = 0; i < (1u << order); i++) {
			rc = place_block(m, rq.zone, 0, mt, ctx->gfp, ctx->cpu, &pfns[i]);
			CP_BUG_ON(rc);
		}
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return 0;
}

int cp_mem_alloc_block(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns, bool *split)
{
	return alloc_block(m, owner, order, mt, ctx, pfns, split, false);
}

int cp_mem_alloc_slab_block(struct cp_mem *m, unsigned owner, unsigned order,
			    enum cp_migratetype mt, struct cp_alloc_ctx *ctx, uint32_t *pfns,
			    bool *split)
{
	return alloc_block(m, owner, order, mt, ctx, pfns, split, true);
}

int cp_mem_try_alloc_block(struct cp_mem *m, unsigned owner, unsigned order,
			   enum cp_migratetype mt, struct cp_alloc_ctx *ctx, uint32_t *pfn)
{
	struct alloc_req rq = { .owner = owner, .nr = 1ull << order, .folio_order = (int)order,
				.place_one = true, .order = order, .mt = mt, .pfn = pfn };
	int rc;

	CP_BUG_ON(order >= CP_BUDDY_MAX_ORDER);
	rc = mem_decide(m, &rq, ctx);
	if (rc)
		return rc;
	CP_BUG_ON(rq.nofit);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return 0;
}

int cp_mem_alloc_folio(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfn)
{
	struct cp_mem_zone *z;
	int rc;

	CP_BUG_ON(order == 0);
	rc = cp_mem_try_alloc_block(m, owner, order, mt, ctx, pfn);
	if (rc)
		return rc;
	z = &m->zones[cp_mem_pfn_zone(m, *pfn)];
	rc = cp_buddy_split_page(&z->buddy, *pfn - z->start_pfn, order, NULL);
	CP_BUG_ON(rc);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

int cp_mem_alloc_pages(struct cp_mem *m, unsigned owner, uint64_t nr, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns)
{
	struct alloc_req rq = { .owner = owner, .nr = nr, .folio_order = -1 };
	uint64_t i;
	int rc = mem_decide(m, &rq, ctx);

	if (rc)
		return rc;
	for (i = 0; i < nr; i++) {
		rc = place_block(m, rq.zone, 0, mt, ctx->gfp, ctx->cpu, &pfns[i]);
		CP_BUG_ON(rc);
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return 0;
}

void cp_mem_free(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg)
{
	owner_uncharge(m, owner, nr, memcg);
	anon_unplace(m, owner, nr);
}

void cp_mem_free_block(struct cp_mem *m, unsigned owner, uint32_t pfn, unsigned order,
		       struct cp_memcg *memcg)
{
	owner_uncharge(m, owner, 1ull << order, memcg);
	unplace_block(m, pfn, order);
}

void cp_mem_free_folio(struct cp_mem *m, unsigned owner, uint32_t pfn, unsigned order,
		       struct cp_memcg *memcg)
{
	/* an order-0 folio is already one block: no join on that hot path */
	if (order) {
		struct cp_mem_zone *z = &m->zones[cp_mem_pfn_zone(m, pfn)];
		int rc = cp_buddy_join_pages(&z->buddy, pfn - z->start_pfn, order, NULL);

		CP_BUG_ON(rc);
		(void)rc;
	}
	owner_uncharge(m, owner, 1ull << order, memcg);
	unplace_block(m, pfn, order);
}

void cp_mem_free_pages(struct cp_mem *m, unsigned owner, const uint32_t *pfns, uint64_t nr,
		       struct cp_memcg *memcg)
{
	uint64_t i;

	owner_uncharge(m, owner, nr, memcg);
	for (i = 0; i < nr; i++)
		unplace_block(m, pfns[i], 0);
}

static bool zone_check(const struct cp_mem *m, unsigned i)
{
	const struct cp_mem_zone *z = &m->zones[i];

	return z->wmark.min <= z->wmark.low && z->wmark.low <= z->wmark.high &&
	       z->buddy.nr_free_pages == z->free_pages && cp_pcp_check(&z->pcp, &z->buddy) &&
	       (i == 0 || z->start_pfn == m->zones[i - 1].start_pfn +
						   m->zones[i - 1].buddy.nr_pages) &&
	       (i > 0 || z->start_pfn == 0) &&
	       (i + 1 < m->nr_zones || z->lowmem_reserve == 0);
}

bool cp_mem_check(const struct cp_mem *m)
{
	uint64_t sum = m->free_pages, zfree = 0, zalloc = 0, pages = 0;
	unsigned i;

	for (i = 0; i < m->nr_owners; i++) {
		sum += m->nr_owner[i];
		if (m->anon[i].nr_pages > m->nr_owner[i])
			return false;
	}
	for (; i < CP_MAX_OWNERS; i++)
		if (m->nr_owner[i] || m->anon[i].nr)
			return false;
	if (m->nr_zones < 1 || m->nr_zones > CP_MEM_MAX_ZONES ||
	    m->nr_owner[CP_OWNER_PCP] != cp_mem_pcp_held_pages(m))
		return false;
	for (i = 0; i < m->nr_zones; i++) {
		if (!zone_check(m, i))
			return false;
		zfree += m->zones[i].free_pages;
		zalloc += m->zones[i].buddy.nr_allocated_pages;
		pages += m->zones[i].buddy.nr_pages;
	}
	return sum == m->total_pages && pages == m->total_pages && zfree == m->free_pages &&
	       m->wmark.min <= m->wmark.low && m->wmark.low <= m->wmark.high &&
	       zalloc == m->total_pages - m->free_pages;
}

bool cp_memcg_check(const struct cp_memcg *memcg)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < CP_MAX_OWNERS; i++)
		sum += memcg->nr_owner[i];
	for (i = 0; i < CP_MEMCG_STOCK_CPUS; i++) {
		sum += memcg->stock[i];
		if (memcg->stock[i] > memcg->charge_batch)
			return false;
	}
	return sum == memcg->usage_pages;
}
