/*
 * zone.c - the node's zones: watermarks by managed share, lowmem reserve,
 * and how the model's memory splits into ZONE_DMA32 and ZONE_NORMAL.
 *
 * Mechanism (mm/page_alloc.c, 4.11 and 6.1): min_free_kbytes is one
 * node-wide (system-wide) number; __setup_per_zone_wmarks() gives each
 * lowmem zone the part of it in proportion to the zone's managed pages,
 * then low and high one and two steps of max(min / 4, managed * wsf /
 * 10000) above. setup_per_zone_lowmem_reserve() protects a lower zone
 * from allocations that could have used a higher one: zone i keeps
 * lowmem_reserve[j] = (managed pages of zones i+1..j) / ratio[i] free
 * for its own, which __zone_watermark_ok() adds to the mark when an
 * allocation whose highest zone is j looks at zone i.
 *
 * On x86-64 GFP_KERNEL, GFP_NOFS and GFP_HIGHUSER_MOVABLE all have
 * highest zone Normal (no ZONE_MOVABLE configured), so the zonelist of
 * every allocation the model makes is Normal, then DMA32, then DMA.
 *
 * cp_mem_init() lays the zones out: DMA32 = min(the machine's dma32,
 * the model's memory) from pfn 0, Normal the rest; the reserve split by
 * zone size; each zone's watermarks, boost cap (boost_watermark's
 * mult_frac(high, watermark_boost_factor, 10000)), pcp batch and high
 * (zone_set_pageset_high_and_batch) and lowmem reserve from its managed
 * pages - the real machine's when given (validate), else the model
 * zone's. A measured start layout (--start-free; start_layout.c lays
 * it out) gives each zone its own free blocks when the harness recorded
 * them by zone (DMA32 then holds exactly its measured free pages);
 * summed over the zones, the fragments go to the highest zone: after the
 * real harness's balloon Normal holds the fragments, DMA32 the big
 * blocks. A model standing for the harness (size_is_available) has
 * SIZE plus what si_mem_available() holds back as its free memory - or,
 * from a start the harness recorded whole, exactly the free memory the
 * real run had after its balloon: the balloon aims at MemAvailable ==
 * SIZE and sometimes locks more (on 2026-12-03 one global 1G run started
 * with 1122 MiB free where its two neighbours had 1217 and 1201).
 *
 * SIMPLIFIED: ZONE_DMA is not modelled. Its protection for Normal-index
 * allocations ((DMA32 + Normal managed) / 256, 24 090 pages on the
 * measured 24 GiB machine) is larger than its managed pages (3 840), so
 * none of the model's allocations can take a page from it; its pages
 * count as reserve. Its managed pages still take their share of
 * min_free_kbytes (cp_zone_watermarks_setup with managed[DMA]).
 * No ZONE_MOVABLE, no highmem, one node.
 */
#include "model/zone.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "model/start_layout.h"

void cp_zone_watermarks_setup(const uint64_t managed[CP_NR_ZONE_TYPES], uint64_t min_free_kbytes,
			      unsigned watermark_scale_factor,
			      struct cp_watermarks out[CP_NR_ZONE_TYPES])
{
	uint64_t pages_min = min_free_kbytes / 4; /* KiB -> 4 KiB pages */
	uint64_t lowmem = 0;
	unsigned z;

	for (z = 0; z < CP_NR_ZONE_TYPES; z++)
		lowmem += managed[z];
	for (z = 0; z < CP_NR_ZONE_TYPES; z++) {
		uint64_t min, tmp;

		if (!managed[z] || !lowmem) {
			out[z] = (struct cp_watermarks){ 0, 0, 0 };
			continue;
		}
		/* pages_min * managed fits 64 bits for any model size */
		min = pages_min * managed[z] / lowmem;
		tmp = managed[z] * watermark_scale_factor / 10000;
		if (tmp < min / 4)
			tmp = min / 4;
		out[z] = (struct cp_watermarks){ min, min + tmp, min + 2 * tmp };
	}
}

uint64_t cp_zone_lowmem_reserve(const uint64_t managed[CP_NR_ZONE_TYPES], enum cp_zone_type lower,
				enum cp_zone_type upper, unsigned ratio)
{
	uint64_t above = 0;
	unsigned z;

	if (ratio == 0 || lower >= upper || upper >= CP_NR_ZONE_TYPES || !managed[lower])
		return 0;
	for (z = (unsigned)lower + 1; z <= (unsigned)upper; z++)
		above += managed[z];
	return above / ratio;
}

void cp_zone_split(uint64_t size_pages, uint64_t dma32_pages, uint64_t *dma32, uint64_t *normal)
{
	if (dma32_pages == 0) {
		*dma32 = 0;
		*normal = size_pages;
		return;
	}
	*dma32 = dma32_pages < size_pages ? dma32_pages : size_pages;
	*normal = size_pages - *dma32;
}

uint64_t cp_zone_totalreserve(uint64_t managed, uint64_t high, uint64_t lowmem_reserve)
{
	uint64_t keep = high + lowmem_reserve;

	return keep < managed ? keep : managed;
}

/* The zones of the model, lowest first, before their buddies exist. */
struct zone_plan {
	unsigned nr;
	enum cp_zone_type type[CP_MEM_MAX_ZONES];
	uint64_t pages[CP_MEM_MAX_ZONES];   /* span, reserve and layout included */
	uint64_t reserve[CP_MEM_MAX_ZONES]; /* pages allocated from boot */
	uint64_t managed[CP_NR_ZONE_TYPES]; /* for watermarks, pcp, reserve */
	/* DMA32 as measured: its free pages are these pages, so
	 * size_is_available adds its high watermark to Normal instead */
	bool measured[CP_MEM_MAX_ZONES];
	/* the measured free blocks of each zone (start layout), or NULL */
	const uint64_t (*blocks[CP_MEM_MAX_ZONES])[CP_BUDDY_MAX_ORDER];
	/* and its pageblocks of each type, or NULL: not measured */
	const uint64_t *pageblocks[CP_MEM_MAX_ZONES];
	/* the zones' free pages as the real run measured them: SIZE sets
	 * nothing (sized_as_measured) */
	bool measured_size;
};

/* A per-zone measured layout the model can use: DMA32's and Normal's
 * blocks and managed pages. */
static bool per_zone_start(const struct cp_mem_params *p)
{
	const struct cp_mem_start_free *sf = p->start_free;

	return sf && sf->has_zones && sf->zone_managed_pages[CP_ZONE_DMA32] &&
	       sf->zone_managed_pages[CP_ZONE_NORMAL];
}

static uint64_t blocks_pages(const uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER])
{
	uint64_t pages = 0;
	unsigned t, o;

	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
			pages += blocks[t][o] << o;
	return pages;
}

/* A start measured whole, for a model standing for the harness: each
 * zone's free pages are what the real run had, not SIZE plus
 * totalreserve. */
static bool sized_as_measured(const struct cp_mem_params *p)
{
	return p->size_is_available && p->start_free->zone_free_measured;
}

/* DMA32 as measured: its free pages are the blocks the harness saw,
 * the reserve and the rest of the memory Normal - or, sized as
 * measured, Normal's measured free blocks and every per-CPU list's
 * pages (SIMPLIFIED: DMA32's, 0 - 621 pages on the 6.18 machine, go to
 * Normal's free memory too) beside the reserve. */
static void plan_measured_zones(struct zone_plan *zp, const struct cp_mem_params *p)
{
	const struct cp_mem_start_free *sf = p->start_free;
	uint64_t d = blocks_pages(sf->zone_blocks[CP_ZONE_DMA32]);
	uint64_t room = p->total_pages - p->reserve_pages;

	zp->measured[0] = true;
	if (d >= room && !sized_as_measured(p))
		d = room - 1;
	zp->nr = 2;
	zp->type[0] = CP_ZONE_DMA32;
	zp->type[1] = CP_ZONE_NORMAL;
	zp->pages[0] = d ? d : 1;
	if (sized_as_measured(p))
		zp->pages[1] = blocks_pages(sf->zone_blocks[CP_ZONE_NORMAL]) +
			       sf->zone_pcp_pages[CP_ZONE_DMA32] +
			       sf->zone_pcp_pages[CP_ZONE_NORMAL] + p->reserve_pages;
	else
		zp->pages[1] = p->total_pages - zp->pages[0];
	zp->reserve[0] = 0;
	zp->reserve[1] = p->reserve_pages;
	zp->blocks[0] = sf->zone_blocks[CP_ZONE_DMA32];
	zp->blocks[1] = sf->zone_blocks[CP_ZONE_NORMAL];
	if (sf->has_pageblocks) {
		zp->pageblocks[0] = sf->zone_pageblocks[CP_ZONE_DMA32];
		zp->pageblocks[1] = sf->zone_pageblocks[CP_ZONE_NORMAL];
	}
}

/* The zones' managed pages: the real machine's when measured or given,
 * else the model zone's. */
static void plan_managed(struct zone_plan *zp, const struct cp_mem_params *p)
{
	const struct cp_mem_start_free *sf = per_zone_start(p) ? p->start_free : NULL;
	unsigned z;

	for (z = 0; z < CP_NR_ZONE_TYPES; z++)
		zp->managed[z] = sf ? sf->zone_managed_pages[z] : p->zone_managed_pages[z];
	for (z = 0; z < zp->nr; z++) {
		enum cp_zone_type t = zp->type[z];

		if (!zp->managed[t])
			zp->managed[t] = zp->pages[z] - zp->reserve[z];
	}
}

static void plan_zones(struct zone_plan *zp, const struct cp_mem_params *p)
{
	uint64_t dma32, normal;

	memset(zp, 0, sizeof(*zp));
	cp_zone_split(p->total_pages, p->dma32_pages, &dma32, &normal);
	if (dma32)
		zp->type[zp->nr] = CP_ZONE_DMA32, zp->pages[zp->nr++] = dma32;
	if (normal)
		zp->type[zp->nr] = CP_ZONE_NORMAL, zp->pages[zp->nr++] = normal;
	/* the reserve (mostly struct pages) by zone size; the rest to the
	 * highest zone, where memblock puts most boot allocations */
	zp->reserve[0] = zp->nr > 1 ? p->reserve_pages * zp->pages[0] / p->total_pages : 0;
	zp->reserve[zp->nr - 1] = p->reserve_pages - zp->reserve[0];
	/* summed measured blocks: the fragments go to the highest zone */
	if (p->start_free)
		zp->blocks[zp->nr - 1] = p->start_free->blocks;
	plan_managed(zp, p);
}

/* One zone: the reserve allocated from boot (memblock), the rest free,
 * or laid out as measured (layout, else NULL). */
static int init_zone(struct cp_mem *m, struct cp_mem_zone *z, const struct cp_mem_params *p,
		     uint64_t reserve_pages, const struct cp_start_layout *layout,
		     struct cp_diag *diag)
{
	struct cp_buddy_range reserve = { 0, (uint32_t)reserve_pages };
	struct cp_buddy_params bp = {
		.nr_pages = (uint32_t)z->free_pages, /* the span: set by the caller */
		.reserved = &reserve,
		.nr_reserved = reserve_pages ? 1 : 0,
		.kernel_4_11 = p->buddy_4_11,
		.claim_steal = p->buddy_claim_steal,
	};
	int rc = cp_buddy_init(&z->buddy, &bp, diag);

	if (rc)
		return rc;
	if (layout) {
		rc = cp_start_layout_apply(m, &z->buddy, z->start_pfn, layout);
		if (rc) {
			cp_buddy_release(&z->buddy);
			return rc == -CP_ENOSPC
				       ? cp_diag_set(diag, rc,
						     "memory: the measured start layout does not fit in a zone of %u pages",
						     bp.nr_pages)
				       : rc;
		}
	}
	z->free_pages = z->buddy.nr_free_pages;
	cp_buddy_set_boost_cap(&z->buddy, z->wmark.high, p->watermark_boost_factor);
	if (p->nr_cpus) {
		/* setup_zone_pageset() -> zone_set_pageset_high_and_batch() */
		struct cp_pcp_params pp = {
			.nr_pages = z->buddy.nr_pages,
			.nr_cpus = p->nr_cpus,
			.kernel_4_11 = p->buddy_4_11,
			.managed_pages = z->managed_pages,
			.low_wmark_pages = z->wmark.low,
			.auto_tune = p->pcp_auto_tune,
		};

		rc = cp_pcp_init(&z->pcp, &pp, diag);
		if (rc) {
			cp_buddy_release(&z->buddy);
			return rc;
		}
	}
	return 0;
}

static const char *const fixed_owner_names[CP_NR_FIXED_OWNERS] = {
	[CP_OWNER_RESERVE] = "reserve",
	[CP_OWNER_PROCESS] = "process",
	[CP_OWNER_PAGECACHE] = "pagecache",
	[CP_OWNER_FSBUF] = "fs_buffers",
	[CP_OWNER_PCP] = "pcp",
	[CP_OWNER_ISOLATED] = "isolated",
};

static uint64_t min_free_kbytes_of(const struct cp_mem_params *p, uint64_t managed)
{
	uint64_t lowmem_kbytes = managed * 4, mfk = p->min_free_kbytes;

	if (mfk == 0) {
		mfk = cp_min_free_kbytes_default(lowmem_kbytes, p->min_free_kbytes_max);
		if (p->thp_enabled) {
			uint64_t thp = cp_min_free_kbytes_thp(lowmem_kbytes, p->nr_zones);

			if (thp > mfk)
				mfk = thp;
		}
	}
	return mfk;
}

int cp_mem_init(struct cp_mem *m, const struct cp_mem_params *p, struct cp_vmstat *vmstat,
		struct cp_diag *diag)
{
	uint64_t managed, total, extra_sum = 0, extra[CP_MEM_MAX_ZONES] = { 0 }, avail_extra = 0;
	struct cp_start_layout layout[CP_MEM_MAX_ZONES];
	struct cp_watermarks wm[CP_NR_ZONE_TYPES];
	struct zone_plan zp;
	unsigned i;
	int rc;

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
	m->min_free_kbytes = min_free_kbytes_of(p, managed);
	if (per_zone_start(p)) {
		/* the watermarks come from the measured managed pages, so
		 * they are known before the split */
		memset(&zp, 0, sizeof(zp));
		zp.nr = 2;
		zp.type[0] = CP_ZONE_DMA32;
		zp.type[1] = CP_ZONE_NORMAL;
		plan_managed(&zp, p);
		cp_zone_watermarks_setup(zp.managed, m->min_free_kbytes, p->watermark_scale_factor,
					 wm);
		plan_measured_zones(&zp, p);
		zp.measured_size = sized_as_measured(p);
	} else {
		plan_zones(&zp, p);
		cp_zone_watermarks_setup(zp.managed, m->min_free_kbytes, p->watermark_scale_factor,
					 wm);
	}
	m->nr_zones = zp.nr;
	for (i = 0; i < zp.nr; i++) {
		struct cp_mem_zone *z = &m->zones[i];

		z->type = zp.type[i];
		z->managed_pages = zp.managed[z->type];
		z->wmark = wm[z->type];
		/* lowmem_reserve[ZONE_NORMAL]: every allocation's highest zone */
		z->lowmem_reserve = cp_zone_lowmem_reserve(zp.managed, z->type, CP_ZONE_NORMAL,
							   CP_LOWMEM_RESERVE_RATIO_DMA32);
		m->wmark.min += z->wmark.min;
		m->wmark.low += z->wmark.low;
		m->wmark.high += z->wmark.high;
		m->totalreserve_pages += cp_zone_totalreserve(z->managed_pages, z->wmark.high,
							      z->lowmem_reserve);
		/* SIZE is MemAvailable: the free pages are SIZE plus what
		 * si_mem_available() holds back (a measured zone's share goes
		 * to the highest zone: its free pages are the measured ones),
		 * and the kernel's own memory (the reserve) is not in SIZE */
		if (p->size_is_available && !zp.measured_size) {
			uint64_t add = cp_zone_totalreserve(z->managed_pages, z->wmark.high,
							    z->lowmem_reserve) +
				       zp.reserve[i];

			zp.pages[zp.measured[i] ? zp.nr - 1 : i] += add;
			avail_extra += add;
		}
	}
	if (m->wmark.high >= managed)
		return cp_diag_set(diag, -CP_EINVAL,
				   "memory: high watermark %llu pages leaves nothing of %llu managed pages",
				   (unsigned long long)m->wmark.high, (unsigned long long)managed);
	total = p->total_pages + avail_extra;
	if (zp.measured_size)
		total = zp.pages[0] + zp.pages[1];
	if (total > CP_BUDDY_MAX_PAGES)
		return cp_diag_set(diag, -CP_EINVAL, "memory: %llu pages, the model's limit is %u",
				   (unsigned long long)total, CP_BUDDY_MAX_PAGES);
	for (i = 0; i < zp.nr; i++) {
		if (!zp.blocks[i])
			continue;
		/* the measured blocks below pageblock_order, in the zone's
		 * free memory (scaled down when they do not fit); their
		 * pageblocks are taken whole from free memory that starts
		 * where the reserve ends and need not end on a boundary:
		 * two pageblocks of it cannot hold any */
		uint64_t room = zp.pages[i] - zp.reserve[i];

		room = room > 2 * CP_BUDDY_PAGEBLOCK_PAGES ? room - 2 * CP_BUDDY_PAGEBLOCK_PAGES : 0;
		cp_start_layout_plan(zp.blocks[i], zp.pageblocks[i], room, &layout[i]);
		if (cp_start_layout_extra_pages(&layout[i], &extra[i]))
			return cp_diag_set(diag, -CP_ENOMEM, "memory: no memory for the start layout");
		extra_sum += extra[i];
	}
	/* a zone below another ends on a whole MAX_ORDER block, as
	 * ZONE_DMA32 ends at 4 GiB: the buddy counts pfns from its zone's
	 * start, the page cache and compaction from 0, and the two agree
	 * on a block's alignment only so; the pages added (what the
	 * kernel's zone spans beyond its managed pages: holes, memmap) are
	 * held from boot with the reserve */
	for (i = 0; i + 1 < zp.nr; i++) {
		uint64_t span = zp.pages[i] + extra[i], block = 1u << (CP_BUDDY_MAX_ORDER - 1);
		uint64_t pad = (block - span % block) % block;

		zp.pages[i] += pad;
		zp.reserve[i] += pad;
		extra_sum += pad;
	}
	if (total + extra_sum > CP_BUDDY_MAX_PAGES)
		return cp_diag_set(diag, -CP_EINVAL,
				   "memory: the start layout needs %llu pages, the model's limit is %u",
				   (unsigned long long)(total + extra_sum), CP_BUDDY_MAX_PAGES);
	m->total_pages = total + extra_sum;
	m->memcg_reclaim_retries = p->memcg_reclaim_retries;
	m->max_reclaim_retries = p->max_reclaim_retries ? p->max_reclaim_retries : 16;
	m->vmstat = vmstat;
	for (i = 0; i < CP_NR_FIXED_OWNERS; i++)
		snprintf(m->owner_name[i], CP_OWNER_NAME_LEN, "%s", fixed_owner_names[i]);
	m->nr_owners = CP_NR_FIXED_OWNERS;
	m->nr_owner[CP_OWNER_RESERVE] = p->reserve_pages + extra_sum;
	/* alloc_flags_nofragment(): the preferred zone is Normal and a
	 * lower zone exists (one zone of old: as the machine says) */
	if (!p->buddy_4_11 && (zp.nr > 1 || (p->dma32_pages == 0 && p->alloc_nofragment)))
		m->buddy_alloc_flags = CP_BUDDY_ALLOC_NOFRAGMENT;
	for (i = 0; i < zp.nr; i++) {
		struct cp_mem_zone *z = &m->zones[i];

		z->start_pfn = i ? m->zones[i - 1].start_pfn + m->zones[i - 1].buddy.nr_pages : 0;
		z->free_pages = zp.pages[i] + extra[i]; /* the span, for init_zone */
		rc = init_zone(m, z, p, zp.reserve[i], zp.blocks[i] ? &layout[i] : NULL, diag);
		if (rc) {
			cp_mem_release(m);
			return rc;
		}
		m->free_pages += z->free_pages;
	}
	CP_BUG_ON(m->free_pages != m->total_pages - m->nr_owner[CP_OWNER_RESERVE]);
	return 0;
}

void cp_mem_release(struct cp_mem *m)
{
	unsigned i;

	for (i = 0; i < CP_MEM_MAX_ZONES; i++) {
		cp_buddy_release(&m->zones[i].buddy);
		cp_pcp_release(&m->zones[i].pcp);
	}
	for (i = 0; i < CP_MAX_OWNERS; i++) {
		cp_free(m->anon[i].blocks);
		memset(&m->anon[i], 0, sizeof(m->anon[i]));
	}
	cp_free(m->movable_filler);
	m->movable_filler = NULL;
}
