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
 * Placement: every page the model holds is also an allocated page of a
 * buddy allocator (buddy.c) of total_pages, so memory has a physical
 * layout - migratetypes, fallbacks, fragmentation. The decisions above
 * are taken on the page counts exactly as before; only after one has
 * been taken (where free_pages drops) are the pages taken from the
 * buddy, and nothing reads the buddy to decide yet. Its events become
 * vmstat counters: cp_extfrag (trace mm_page_alloc_extfrag: a fallback
 * to another migratetype), cp_extfrag_fragmenting (of those, the ones
 * below pageblock_order), cp_pageblocks_claimed, cp_watermark_boost
 * (boost_watermark() calls; the boost itself has no effect yet) and
 * cp_highorder_nofit (see cp_mem_alloc_block). Callers that only count
 * (cp_mem_alloc / cp_mem_take / cp_mem_free: process memory, tests) get
 * their pages placed as the largest blocks that fit, migratetype by
 * owner (reserve and fs buffers UNMOVABLE, process and page cache
 * MOVABLE), kept on a per-owner stack; a free gives back the blocks
 * placed last (split to pages when it ends inside one).
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
 * the kernel uses the freeing CPU; allocations their ctx->cpu.
 *
 * SIMPLIFIED: one node, one zone holding every managed page (the sums of
 * per-zone watermarks equal the single-zone values); no lowmem reserves
 * and no zone fallback (ALLOC_NOFRAGMENT is tried, then dropped, in the
 * one zone); slab pages of order > 0 still take order-0 pages when no
 * block fits (cp_mem_alloc_block: SLUB would fall back to its minimum
 * order) - only folios (cp_mem_alloc_folio) fail for fragmentation; the
 * reserve is pfns 0 .. reserve_pages - 1,
 * in the kernel memblock reservations lie here and there, and part of
 * "reserve" (struct pages) is not in any zone; process memory is placed
 * at set-up in blocks of up to order 10, not page by page; memcg charges are exact (no per-CPU charge stock
 * of MEMCG_CHARGE_BATCH pages); the OOM killer is not modelled: an
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

static const char *const fixed_owner_names[CP_NR_FIXED_OWNERS] = {
	[CP_OWNER_RESERVE] = "reserve",
	[CP_OWNER_PROCESS] = "process",
	[CP_OWNER_PAGECACHE] = "pagecache",
	[CP_OWNER_FSBUF] = "fs_buffers",
	[CP_OWNER_PCP] = "pcp",
};

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

/* ---- a measured start layout ------------------------------------------ */

/* The measured free blocks below pageblock_order, scaled down to fit
 * in `room` pages if they do not. */
static void start_fragments(const struct cp_mem_start_free *sf, uint64_t room,
			    uint64_t frag[CP_MIGRATE_TYPES][CP_BUDDY_PAGEBLOCK_ORDER])
{
	uint64_t total = 0;
	unsigned t, o;

	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			total += sf->blocks[t][o] << o;
	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			/* counts and room are below 2^32: no overflow */
			frag[t][o] = total > room ? sf->blocks[t][o] * room / total
						  : sf->blocks[t][o];
}

/*
 * Walks the pageblocks of one migratetype that hold its fragments: a
 * free block of order o and its buddy (kept allocated) side by side,
 * the largest orders first, a new pageblock when the pair does not fit.
 * For each pair, calls pair(priv, pageblock number, offset, order)
 * when given. Returns the pageblocks used.
 */
static uint64_t walk_fragment_pairs(const uint64_t frag[CP_BUDDY_PAGEBLOCK_ORDER],
				    void (*pair)(void *priv, uint64_t pb, uint32_t off,
						 unsigned order),
				    void *priv)
{
	uint64_t pb = 0, n;
	uint32_t off = CP_BUDDY_PAGEBLOCK_PAGES;
	unsigned o = CP_BUDDY_PAGEBLOCK_ORDER;

	while (o-- > 0) {
		for (n = 0; n < frag[o]; n++) {
			if (off + (2u << o) > CP_BUDDY_PAGEBLOCK_PAGES) {
				pb++;
				off = 0;
			}
			if (pair)
				pair(priv, pb - 1, off, o);
			off += 2u << o;
		}
	}
	return pb;
}

struct layout_pass {
	struct cp_buddy *b;
	const uint32_t *pageblock_pfn; /* first pfn of each of the type's pageblocks */
};

/* Free the first half of a pair: its pages merge into one free block of
 * the pair's order, on the list of the pageblock's migratetype. */
static void free_fragment(void *priv, uint64_t pb, uint32_t off, unsigned order)
{
	struct layout_pass *lp = priv;
	uint32_t pfn = lp->pageblock_pfn[pb] + off, i;
	int rc;

	for (i = 0; i < (1u << order); i++) {
		rc = cp_buddy_free(lp->b, pfn + i, 0, NULL);
		CP_BUG_ON(rc);
		(void)rc;
	}
}

/* Lay the fragments out: for each migratetype take whole pageblocks,
 * split them, give them the type (set_pageblock_migratetype, while all
 * their pages are allocated), and free the fragments. Returns 0 or
 * -CP_ENOMEM. */
static int lay_out_fragments(struct cp_buddy *b,
			     const uint64_t frag[CP_MIGRATE_TYPES][CP_BUDDY_PAGEBLOCK_ORDER])
{
	unsigned t;

	for (t = 0; t < CP_MIGRATE_TYPES; t++) {
		uint64_t nr = walk_fragment_pairs(frag[t], NULL, NULL), i;
		uint32_t *pfns = nr ? cp_calloc(nr, sizeof(*pfns)) : NULL;
		struct layout_pass lp = { b, pfns };
		int rc;

		if (nr && !pfns)
			return -CP_ENOMEM;
		for (i = 0; i < nr; i++) {
			rc = cp_buddy_alloc(b, CP_BUDDY_PAGEBLOCK_ORDER, CP_MIGRATE_MOVABLE, 0,
					    &pfns[i]);
			CP_BUG_ON(rc); /* the zone was sized for them */
			rc = cp_buddy_split_page(b, pfns[i], CP_BUDDY_PAGEBLOCK_ORDER, NULL);
			CP_BUG_ON(rc);
			rc = cp_buddy_set_pageblock_migratetype(b, pfns[i], (enum cp_migratetype)t);
			CP_BUG_ON(rc);
		}
		walk_fragment_pairs(frag[t], free_fragment, &lp);
		cp_free(pfns);
	}
	/* the set-up is not an event of the run */
	b->nr_extfrag = b->nr_extfrag_fragmenting = b->nr_boost = b->nr_pageblocks_claimed = 0;
	return 0;
}

/* Pages the layout adds to the zone: its pageblocks less the fragments. */
static uint64_t layout_extra_pages(const uint64_t frag[CP_MIGRATE_TYPES][CP_BUDDY_PAGEBLOCK_ORDER])
{
	uint64_t pages = 0;
	unsigned t, o;

	for (t = 0; t < CP_MIGRATE_TYPES; t++) {
		pages += walk_fragment_pairs(frag[t], NULL, NULL) * CP_BUDDY_PAGEBLOCK_PAGES;
		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			pages -= frag[t][o] << o;
	}
	return pages;
}

/* The zone: the reserve allocated from boot (memblock), the rest free
 * (or laid out as measured). */
static int init_buddy(struct cp_mem *m, const struct cp_mem_params *p,
		      const uint64_t frag[CP_MIGRATE_TYPES][CP_BUDDY_PAGEBLOCK_ORDER],
		      struct cp_diag *diag)
{
	struct cp_buddy_range reserve = { 0, (uint32_t)p->reserve_pages };
	struct cp_buddy_params bp = {
		.nr_pages = (uint32_t)m->total_pages,
		.reserved = &reserve,
		.nr_reserved = p->reserve_pages ? 1 : 0,
		.kernel_4_11 = p->buddy_4_11,
		.claim_steal = p->buddy_claim_steal,
	};
	int rc = cp_buddy_init(&m->buddy, &bp, diag);

	if (rc)
		return rc;
	if (p->start_free) {
		rc = lay_out_fragments(&m->buddy, frag);
		if (rc) {
			cp_buddy_release(&m->buddy);
			return rc;
		}
	}
	cp_buddy_set_boost_cap(&m->buddy, m->wmark.high, p->watermark_boost_factor);
	m->buddy_alloc_flags = p->alloc_nofragment && !p->buddy_4_11 ? CP_BUDDY_ALLOC_NOFRAGMENT : 0;
	if (p->nr_cpus) {
		/* setup_zone_pageset() -> zone_set_pageset_high_and_batch() */
		struct cp_pcp_params pp = {
			.nr_pages = (uint32_t)m->total_pages,
			.nr_cpus = p->nr_cpus,
			.kernel_4_11 = p->buddy_4_11,
			.managed_pages = p->total_pages - p->reserve_pages,
			.low_wmark_pages = m->wmark.low,
		};

		rc = cp_pcp_init(&m->pcp, &pp, diag);
		if (rc) {
			cp_buddy_release(&m->buddy);
			return rc;
		}
	}
	return 0;
}

int cp_mem_init(struct cp_mem *m, const struct cp_mem_params *p, struct cp_vmstat *vmstat,
		struct cp_diag *diag)
{
	uint64_t managed, lowmem_kbytes, mfk;
	uint64_t frag[CP_MIGRATE_TYPES][CP_BUDDY_PAGEBLOCK_ORDER] = { { 0 } };
	unsigned i;

	memset(m, 0, sizeof(*m));
	if (p->total_pages == 0)
		return cp_diag_set(diag, -CP_EINVAL, "memory: total_pages is 0");
	if (p->reserve_pages >= p->total_pages)
		return cp_diag_set(diag, -CP_EINVAL,
				   "memory: reserve of %llu pages does not fit in %llu pages",
				   (unsigned long long)p->reserve_pages,
				   (unsigned long long)p->total_pages);
	if (p->total_pages > CP_BUDDY_MAX_PAGES)
		return cp_diag_set(diag, -CP_EINVAL, "memory: %llu pages, the model's limit is %u",
				   (unsigned long long)p->total_pages, CP_BUDDY_MAX_PAGES);
	managed = p->total_pages - p->reserve_pages;
	lowmem_kbytes = managed * 4;
	mfk = p->min_free_kbytes;
	if (mfk == 0) {
		mfk = cp_min_free_kbytes_default(lowmem_kbytes, p->min_free_kbytes_max);
		if (p->thp_enabled) {
			uint64_t thp = cp_min_free_kbytes_thp(lowmem_kbytes, p->nr_zones);

			if (thp > mfk)
				mfk = thp;
		}
	}
	m->total_pages = p->total_pages;
	m->free_pages = p->total_pages;
	m->min_free_kbytes = mfk;
	m->wmark = cp_watermarks_compute(managed, mfk, p->watermark_scale_factor);
	if (m->wmark.high >= managed)
		return cp_diag_set(diag, -CP_EINVAL,
				   "memory: high watermark %llu pages leaves nothing of %llu managed pages",
				   (unsigned long long)m->wmark.high, (unsigned long long)managed);
	if (p->size_is_available) {
		if (m->total_pages + m->wmark.high > CP_BUDDY_MAX_PAGES)
			return cp_diag_set(diag, -CP_EINVAL, "memory: %llu pages, the model's limit is %u",
					   (unsigned long long)(m->total_pages + m->wmark.high),
					   CP_BUDDY_MAX_PAGES);
		m->total_pages += m->wmark.high;
		m->free_pages += m->wmark.high;
	}
	m->memcg_reclaim_retries = p->memcg_reclaim_retries;
	m->max_reclaim_retries = p->max_reclaim_retries ? p->max_reclaim_retries : 16;
	m->vmstat = vmstat;
	for (i = 0; i < CP_NR_FIXED_OWNERS; i++)
		snprintf(m->owner_name[i], CP_OWNER_NAME_LEN, "%s", fixed_owner_names[i]);
	m->nr_owners = CP_NR_FIXED_OWNERS;
	m->nr_owner[CP_OWNER_RESERVE] = p->reserve_pages;
	m->free_pages -= p->reserve_pages;
	if (p->start_free) {
		uint64_t extra;

		start_fragments(p->start_free, m->free_pages, frag);
		extra = layout_extra_pages(frag);
		if (m->total_pages + extra > CP_BUDDY_MAX_PAGES)
			return cp_diag_set(diag, -CP_EINVAL,
					   "memory: the start layout needs %llu pages, the model's limit is %u",
					   (unsigned long long)(m->total_pages + extra),
					   CP_BUDDY_MAX_PAGES);
		m->total_pages += extra;
		m->nr_owner[CP_OWNER_RESERVE] += extra;
	}
	return init_buddy(m, p, frag, diag);
}

void cp_mem_release(struct cp_mem *m)
{
	unsigned i;

	cp_buddy_release(&m->buddy);
	cp_pcp_release(&m->pcp);
	for (i = 0; i < CP_MAX_OWNERS; i++) {
		cp_free(m->anon[i].blocks);
		memset(&m->anon[i], 0, sizeof(m->anon[i]));
	}
}

int cp_mem_register_owner(struct cp_mem *m, const char *name)
{
	if (m->nr_owners >= CP_MAX_OWNERS)
		return -CP_ENOSPC;
	snprintf(m->owner_name[m->nr_owners], CP_OWNER_NAME_LEN, "%s", name);
	return (int)m->nr_owners++;
}

void cp_mem_set_cpu(struct cp_mem *m, int cpu)
{
	m->cpu = cpu >= 0 && (unsigned)cpu < m->pcp.nr_cpus ? cpu : 0;
}

void cp_mem_set_reclaim_active(struct cp_mem *m, bool active)
{
	m->pcp.reclaim_active = active && !m->buddy.kernel_4_11;
}

void cp_mem_set_hooks(struct cp_mem *m, const struct cp_mem_hooks *hooks)
{
	m->hooks = *hooks;
}

static void take_pages(struct cp_mem *m, unsigned owner, uint64_t nr)
{
	CP_BUG_ON(m->free_pages < nr);
	m->free_pages -= nr;
	m->nr_owner[owner] += nr;
}

/* ---- placement -------------------------------------------------------- */

/* The buddy's and the pcp lists' event counters, copied to vmstat as
 * they move. */
struct buddy_events {
	uint64_t extfrag, fragmenting, boost, claimed, steal;
	uint64_t refill_pages, bulk_free_pages, drains;
};

static struct buddy_events events_now(const struct cp_mem *m)
{
	const struct cp_buddy *b = &m->buddy;

	return (struct buddy_events){ b->nr_extfrag, b->nr_extfrag_fragmenting, b->nr_boost,
				      b->nr_pageblocks_claimed, b->nr_steal, m->pcp.nr_refill_pages,
				      m->pcp.nr_bulk_free_pages, m->pcp.nr_drains };
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
	cp_count(m->vmstat, CP_VM_PCP_REFILL_PAGES, now.refill_pages - before->refill_pages);
	cp_count(m->vmstat, CP_VM_PCP_BULK_FREE_PAGES,
		 now.bulk_free_pages - before->bulk_free_pages);
	cp_count(m->vmstat, CP_VM_PCP_DRAIN, now.drains - before->drains);
}

static void wake_kswapd(struct cp_mem *m, unsigned order)
{
	if (m->hooks.wake_kswapd)
		m->hooks.wake_kswapd(m->hooks.priv, order);
}

/* Pages moved between the pcp lists and the buddy since `before`
 * (pcp.nr_held_pages then) become or stop being free pages. */
static void pcp_sync(struct cp_mem *m, uint64_t before)
{
	uint64_t now = m->pcp.nr_held_pages;

	/* modular arithmetic: either direction */
	m->nr_owner[CP_OWNER_PCP] += now - before;
	m->free_pages -= now - before;
}

/* rmqueue(): through the CPU's pcp list for the orders it takes, else
 * __rmqueue() on the zone. */
static int rmqueue(struct cp_mem *m, unsigned order, enum cp_migratetype mt, unsigned flags,
		   int cpu, uint32_t *pfn)
{
	uint64_t owed, keep;

	if (!cp_pcp_allowed_order(&m->pcp, order))
		return cp_buddy_alloc(&m->buddy, order, mt, flags, pfn);
	/* pages the count already gave away and not yet placed, this
	 * block's included: a refill leaves the rest in the buddy */
	owed = m->buddy.nr_free_pages - m->free_pages;
	keep = owed > (1ull << order) && owed <= m->buddy.nr_free_pages ? owed - (1ull << order) : 0;
	if (cpu < 0 || (unsigned)cpu >= m->pcp.nr_cpus)
		cpu = 0;
	return cp_pcp_alloc(&m->pcp, &m->buddy, cpu, order, mt, flags, keep, pfn);
}

/*
 * get_page_from_freelist() -> rmqueue() for one block, after the count
 * decided: with ALLOC_NOFRAGMENT first, then without (the retry at the
 * end of get_page_from_freelist). -CP_ENOSPC only for order > 0.
 */
static int place_block(struct cp_mem *m, unsigned order, enum cp_migratetype mt, unsigned gfp,
		       int cpu, uint32_t *pfn)
{
	struct buddy_events before = events_now(m);
	uint64_t held = m->pcp.nr_held_pages;
	unsigned flags = m->buddy_alloc_flags;
	int rc;

	/* alloc_flags_nofragment(): __GFP_KSWAPD_RECLAIM is ALLOC_KSWAPD */
	if (gfp & CP_GFP_KSWAPD_RECLAIM)
		flags |= CP_BUDDY_ALLOC_KSWAPD;
	rc = rmqueue(m, order, mt, flags, cpu, pfn);
	if (rc == -CP_ENOSPC && (flags & CP_BUDDY_ALLOC_NOFRAGMENT))
		rc = rmqueue(m, order, mt, flags & ~CP_BUDDY_ALLOC_NOFRAGMENT, cpu, pfn);
	pcp_sync(m, held);
	/* rmqueue(): a boost set by this allocation wakes kswapd */
	if (cp_buddy_test_and_clear_boosted(&m->buddy))
		wake_kswapd(m, 0);
	count_events(m, &before);
	CP_BUG_ON(rc && (rc != -CP_ENOSPC || order == 0));
	return rc;
}

/* __free_pages(): to the freeing CPU's pcp list (free_unref_page) for
 * the orders it takes, else to the zone (__free_pages_ok). */
static void unplace_block(struct cp_mem *m, uint32_t pfn, unsigned order)
{
	struct buddy_events before = events_now(m);
	uint64_t held = m->pcp.nr_held_pages;
	int rc = 0;

	if (cp_pcp_allowed_order(&m->pcp, order)) {
		cp_pcp_free(&m->pcp, &m->buddy, m->cpu, pfn, order);
		pcp_sync(m, held);
		count_events(m, &before);
	} else {
		rc = cp_buddy_free(&m->buddy, pfn, order, NULL);
	}
	CP_BUG_ON(rc);
	(void)rc;
}

uint64_t cp_mem_drain_all_pages(struct cp_mem *m)
{
	struct buddy_events before = events_now(m);
	uint64_t held = m->pcp.nr_held_pages, n;

	if (!m->pcp.nr_cpus)
		return 0;
	n = cp_pcp_drain_all(&m->pcp, &m->buddy);
	pcp_sync(m, held);
	count_events(m, &before);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return n;
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

/* Place nr pages of a count-only caller as the largest blocks that fit.
 * 0, or -CP_ENOMEM (host) with nothing placed. */
static int anon_place(struct cp_mem *m, unsigned owner, uint64_t nr, unsigned gfp, int cpu)
{
	uint64_t done = 0;

	while (done < nr) {
		unsigned order = CP_BUDDY_MAX_ORDER - 1;
		uint32_t pfn;

		while ((1ull << order) > nr - done)
			order--;
		while (place_block(m, order, owner_mt(owner), gfp, cpu, &pfn))
			order--;
		if (anon_push(m, owner, pfn, order)) {
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
				rc = cp_buddy_split_page(&m->buddy, bl->pfn, bl->order, NULL);
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

static void mem_unaccount(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg);

int cp_mem_take(struct cp_mem *m, unsigned owner, uint64_t nr)
{
	int rc;

	if (owner >= m->nr_owners || m->free_pages < nr)
		return -CP_ENOSPC;
	/* counted first: a pcp refill may take more free pages */
	take_pages(m, owner, nr);
	rc = anon_place(m, owner, nr, 0, m->cpu);
	if (rc)
		mem_unaccount(m, owner, nr, NULL);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

void cp_memcg_init(struct cp_memcg *memcg, int id, uint64_t limit_pages)
{
	memset(memcg, 0, sizeof(*memcg));
	memcg->id = id;
	memcg->limit_pages = limit_pages;
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

/* try_charge(): over the limit, reclaim from the memcg and retry; each
 * round counts against the retry budget whatever it reclaimed. */
static int memcg_try_charge(struct cp_mem *m, struct cp_memcg *memcg, unsigned owner,
			    uint64_t nr, struct cp_alloc_ctx *ctx)
{
	unsigned retries = m->memcg_reclaim_retries;

	for (;;) {
		if (cp_memcg_try_charge_nowait(memcg, owner, nr) == 0)
			return 0;
		if (!(ctx->gfp & CP_GFP_DIRECT_RECLAIM) || !m->hooks.memcg_reclaim)
			break;
		if (ctx->work)
			ctx->work->nr_stalls++;
		m->hooks.memcg_reclaim(m->hooks.priv, memcg, ctx, nr);
		/* __GFP_NORETRY: one reclaim round, then give up */
		if (cp_memcg_try_charge_nowait(memcg, owner, nr) == 0)
			return 0;
		if ((ctx->gfp & CP_GFP_NORETRY) || retries-- == 0)
			break;
	}
	memcg->failcnt++;
	return -CP_ENOSPC;
}

bool cp_mem_order_watermark_ok(const struct cp_mem *m, unsigned order, uint64_t mark)
{
	if (order == 0)
		return cp_mem_watermark_ok(m, mark, 1);
	return cp_buddy_watermark_ok(&m->buddy, order, mark, (int64_t)m->free_pages);
}

/* The watermark test of one attempt: nr pages by count (order-0 and
 * count-only callers), or one block of `order` (a folio). */
static bool attempt_ok(const struct cp_mem *m, uint64_t mark, uint64_t nr, int folio_order)
{
	if (folio_order < 0)
		return cp_mem_watermark_ok(m, mark, nr);
	return cp_mem_order_watermark_ok(m, (unsigned)folio_order, mark);
}

#define PAGE_ALLOC_COSTLY_ORDER 3 /* include/linux/mmzone.h */

/* __alloc_pages_slowpath() for one zone; folio_order >= 0 for a folio
 * (its order decides the watermark test and kswapd's order), -1 for a
 * count-only allocation of nr pages. */
static int alloc_slowpath(struct cp_mem *m, unsigned owner, uint64_t nr, int folio_order,
			  struct cp_alloc_ctx *ctx)
{
	unsigned no_progress = 0;
	unsigned order = folio_order > 0 ? (unsigned)folio_order : 0;

	if (ctx->gfp & CP_GFP_KSWAPD_RECLAIM)
		wake_kswapd(m, order);
	for (;;) {
		uint64_t progress;

		if (attempt_ok(m, cp_mem_wmark_min(m), nr, folio_order)) {
			take_pages(m, owner, nr);
			return 0;
		}
		if (!(ctx->gfp & CP_GFP_DIRECT_RECLAIM) || !m->hooks.direct_reclaim)
			break;
		/* SIMPLIFIED: __alloc_pages_direct_compact() is not modelled;
		 * a costly __GFP_NORETRY request gives up as it does when
		 * compaction is skipped or deferred */
		if (order > PAGE_ALLOC_COSTLY_ORDER && (ctx->gfp & CP_GFP_NORETRY))
			break;
		if (m->vmstat)
			cp_count(m->vmstat, CP_VM_ALLOCSTALL, 1);
		if (ctx->work)
			ctx->work->nr_stalls++;
		progress = m->hooks.direct_reclaim(m->hooks.priv, ctx, nr);
		if (attempt_ok(m, cp_mem_wmark_min(m), nr, folio_order)) {
			take_pages(m, owner, nr);
			return 0;
		}
		/* __alloc_pages_direct_reclaim(): progress but still no page:
		 * the pages may sit on per-CPU lists; drain once, retry */
		if (progress && m->pcp.nr_held_pages) {
			cp_mem_drain_all_pages(m);
			if (attempt_ok(m, cp_mem_wmark_min(m), nr, folio_order)) {
				take_pages(m, owner, nr);
				return 0;
			}
		}
		if (ctx->gfp & CP_GFP_NORETRY)
			break;
		if (progress == 0 && ++no_progress >= m->max_reclaim_retries)
			break;
	}
	/* Model rule: no allocation fails for good (OOM) while per-CPU
	 * lists hold pages; drain them and try the min watermark again. */
	if (!(ctx->gfp & CP_GFP_NORETRY) && m->pcp.nr_held_pages) {
		cp_mem_drain_all_pages(m);
		if (attempt_ok(m, cp_mem_wmark_min(m), nr, folio_order)) {
			take_pages(m, owner, nr);
			return 0;
		}
	}
	/* a __GFP_NORETRY caller (readahead) falls back on its own */
	if (m->vmstat && !(ctx->gfp & CP_GFP_NORETRY))
		cp_count(m->vmstat, CP_VM_OOM, 1);
	return -CP_ENOSPC;
}

/* The allocation decision: on page counts (folio_order < 0), or for one
 * folio against the buddy's free lists. */
static int mem_decide(struct cp_mem *m, unsigned owner, uint64_t nr, int folio_order,
		      struct cp_alloc_ctx *ctx)
{
	int rc;

	CP_BUG_ON(owner >= m->nr_owners);
	if (ctx->memcg) {
		rc = memcg_try_charge(m, ctx->memcg, owner, nr, ctx);
		if (rc)
			return rc;
	}
	if (attempt_ok(m, cp_mem_wmark_low(m), nr, folio_order)) {
		take_pages(m, owner, nr);
		return 0;
	}
	rc = alloc_slowpath(m, owner, nr, folio_order, ctx);
	if (rc && ctx->memcg)
		cp_memcg_uncharge(ctx->memcg, owner, nr);
	return rc;
}

int cp_mem_alloc(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_alloc_ctx *ctx)
{
	int rc = mem_decide(m, owner, nr, -1, ctx);

	if (!rc) {
		rc = anon_place(m, owner, nr, ctx->gfp, ctx->cpu);
		if (rc) /* host memory: undo the count, as if never taken */
			mem_unaccount(m, owner, nr, ctx->memcg);
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

int cp_mem_alloc_block(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns, bool *split)
{
	uint32_t i;
	int rc;

	CP_BUG_ON(order >= CP_BUDDY_MAX_ORDER);
	rc = mem_decide(m, owner, 1ull << order, -1, ctx);
	if (rc)
		return rc;
	*split = false;
	if (place_block(m, order, mt, ctx->gfp, ctx->cpu, &pfns[0])) {
		/* The count allowed it, the layout cannot give it: keep the
		 * decision, take the pages one by one. */
		if (m->vmstat)
			cp_count(m->vmstat, CP_VM_HIGHORDER_NOFIT, 1);
		for (i = 0; i < (1u << order); i++) {
			rc = place_block(m, 0, mt, ctx->gfp, ctx->cpu, &pfns[i]);
			CP_BUG_ON(rc);
		}
		*split = true;
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return 0;
}

int cp_mem_alloc_folio(struct cp_mem *m, unsigned owner, unsigned order, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfn)
{
	int rc;

	CP_BUG_ON(order == 0 || order >= CP_BUDDY_MAX_ORDER);
	rc = mem_decide(m, owner, 1ull << order, (int)order, ctx);
	if (rc)
		return rc;
	/* the watermark test saw a block of this order: it is there */
	rc = place_block(m, order, mt, ctx->gfp, ctx->cpu, pfn);
	CP_BUG_ON(rc);
	rc = cp_buddy_split_page(&m->buddy, *pfn, order, NULL);
	CP_BUG_ON(rc);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

int cp_mem_alloc_pages(struct cp_mem *m, unsigned owner, uint64_t nr, enum cp_migratetype mt,
		       struct cp_alloc_ctx *ctx, uint32_t *pfns)
{
	uint64_t i;
	int rc = mem_decide(m, owner, nr, -1, ctx);

	if (rc)
		return rc;
	for (i = 0; i < nr; i++) {
		rc = place_block(m, 0, mt, ctx->gfp, ctx->cpu, &pfns[i]);
		CP_BUG_ON(rc);
	}
	CP_DEBUG_CHECK(cp_mem_check(m));
	return 0;
}

/* The count side of a free. */
static void mem_unaccount(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg)
{
	CP_BUG_ON(owner >= m->nr_owners || m->nr_owner[owner] < nr);
	m->nr_owner[owner] -= nr;
	m->free_pages += nr;
	if (memcg)
		cp_memcg_uncharge(memcg, owner, nr);
}

void cp_mem_free(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg)
{
	mem_unaccount(m, owner, nr, memcg);
	anon_unplace(m, owner, nr);
}

void cp_mem_free_block(struct cp_mem *m, unsigned owner, uint32_t pfn, unsigned order,
		       struct cp_memcg *memcg)
{
	mem_unaccount(m, owner, 1ull << order, memcg);
	unplace_block(m, pfn, order);
}

void cp_mem_free_pages(struct cp_mem *m, unsigned owner, const uint32_t *pfns, uint64_t nr,
		       struct cp_memcg *memcg)
{
	uint64_t i;

	mem_unaccount(m, owner, nr, memcg);
	for (i = 0; i < nr; i++)
		unplace_block(m, pfns[i], 0);
}

bool cp_mem_check(const struct cp_mem *m)
{
	uint64_t sum = m->free_pages;
	unsigned i;

	for (i = 0; i < m->nr_owners; i++) {
		sum += m->nr_owner[i];
		if (m->anon[i].nr_pages > m->nr_owner[i])
			return false;
	}
	for (; i < CP_MAX_OWNERS; i++)
		if (m->nr_owner[i] || m->anon[i].nr)
			return false;
	if (m->nr_owner[CP_OWNER_PCP] != m->pcp.nr_held_pages ||
	    !cp_pcp_check(&m->pcp, &m->buddy))
		return false;
	return sum == m->total_pages && m->wmark.min <= m->wmark.low &&
	       m->wmark.low <= m->wmark.high &&
	       m->buddy.nr_allocated_pages == m->total_pages - m->free_pages &&
	       m->buddy.nr_free_pages == m->free_pages;
}

bool cp_memcg_check(const struct cp_memcg *memcg)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < CP_MAX_OWNERS; i++)
		sum += memcg->nr_owner[i];
	return sum == memcg->usage_pages;
}
