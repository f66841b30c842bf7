/*
 * compaction.c - memory compaction: move movable pages out of the way so
 * free pages merge into high-order blocks, and kcompactd, the per-node
 * thread that does it in the background.
 *
 * Mechanism (mm/compaction.c, Linux 6.1). Two scanners walk the zone
 * towards each other, a pageblock at a time: the migration scanner from
 * the low end (isolate_migratepages -> isolate_migratepages_block) takes
 * movable pages off the LRU, up to COMPACT_CLUSTER_MAX (32) at a time;
 * the free scanner from the high end (isolate_freepages ->
 * isolate_freepages_block) takes free blocks out of the buddy allocator
 * (__isolate_free_page, split_page) from pageblocks that are suitable
 * targets (suitable_migration_target: MOVABLE, and not themselves a free
 * block of pageblock_order or more), until it holds as many free pages
 * as there are pages to migrate. migrate_pages() copies each isolated
 * page into a free page (compaction_alloc) and frees the old one, which
 * merges with its free buddies in the low part of the zone. After each
 * whole pageblock __compact_finished() asks whether a free block of the
 * requested order now exists on the list of the request's migratetype
 * or one it may steal from (find_suitable_fallback with
 * only_stealable): COMPACT_SUCCESS. When the scanners meet
 * (compact_scanners_met: same pageblock) the run ends, COMPACT_COMPLETE
 * if it began at the zone's ends, else COMPACT_PARTIAL_SKIPPED, and the
 * cached start positions go back to the ends (reset_cached_positions);
 * otherwise the next run starts at the cached pfns the skip hints keep
 * (below): past the blocks scanned to their end, and the free scanner
 * from the highest block it gave free pages back to.
 *
 * compaction_suitable(): no compaction when the min watermark is met at
 * the order (SUCCESS), when the zone lacks compact_gap(order) = 2 <<
 * order pages above the min (order <= PAGE_ALLOC_COSTLY_ORDER) or low
 * watermark (SKIPPED), or, for costly orders, when the fragmentation
 * index (mm/vmstat.c __fragmentation_index) is at most
 * sysctl_extfrag_threshold (500): the failure is lack of memory, not
 * fragmentation (NOT_SUITABLE_ZONE). A failed run defers compaction at
 * that order and above (defer_compaction: the next 1 << defer_shift
 * attempts are skipped, the shift growing to 6; compaction_deferred,
 * compaction_defer_reset).
 *
 * Large folios (6.9+, the linux-6.x profile: c->large_folios; Zi Yan's
 * "enable compacting >0 order folios" and "add support for >0 order
 * folio memory compaction"). 6.1 skips every compound page. 6.9+
 * isolates a page-cache folio whole unless skip_isolation_on_order():
 * its order is at least the request's (a free block of that order
 * would already have ended the run; not for order -1) or at least
 * pageblock_order. The free scanner keeps each free block at its order
 * (cc->freepages[order]); compaction_alloc() gives a folio the first
 * block of the smallest order that fits, splitting it and putting the
 * upper halves back on the lower lists; when none fits after one more
 * free scan, migrate_pages_batch() gets -ENOMEM and splits the folio
 * (try_split_folio), whose pages are then migrated singly. Unused free
 * blocks go back at their order (release_free_list). A large folio's
 * old memory is freed whole (free_unref_folios).
 *
 * Async direct compaction gives up an order-aligned block (of the
 * request's order) at the first page it cannot isolate, putting back
 * what that block isolated (skip_on_failure, 4.6+): a block it cannot
 * free whole is not worth moving pages out of. A page that fails is
 * anything but a free block or a folio it may take: another owner's
 * page, a large folio it must skip, a page-cache page under writeback
 * or in a GFP_NOFS request. The scanners count a free block or a
 * skipped compound page whole as scanned.
 *
 * Skip hints (PB_migrate_skip, a bit beside each pageblock's
 * migratetype; buddy.h). 5.1+ (Mel Gorman's 2019 series, the 6.1 and
 * 6.x profiles): the migration scanner passes a marked pageblock
 * (isolation_suitable at its start) and marks a block when it first
 * isolates from it, the scan having begun at its start
 * (test_and_set_skip), or when it scans it to the end isolating nothing
 * - the cached migrate pfns (async [0], sync [1]) then move to
 * pageblock_end_pfn() of the block's end, the block after it
 * (update_cached_migrate); the scanner still in the block it last
 * migrated from takes the rest of it at once and counts as finishing it
 * (cc->finish_pageblock; compact_zone's check_drain forgets the block
 * once the scanner leaves the order-aligned block it migrated from). A
 * block under a folio of pageblock_order is no source
 * (pageblock_skip_persistent). The free scanner passes marked blocks
 * and marks each block it scans to the end, lowering the cached free pfn
 * to the block below (update_pageblock_skip). Compaction that ignores
 * the marks (proactive, order -1) still sets them. A direct
 * compaction whose scanners meet asks for a reset
 * (compact_blockskip_flush), which kswapd does when it goes to sleep
 * (reset_isolation_suitable) and a compaction at an order deferred the
 * longest does first (compaction_restarting): __reset_isolation_suitable
 * walks the zone from both ends and clears a block's mark when a sample
 * of its pages (every 8th) finds an LRU page (source side) or a free
 * block's head (target side, MOVABLE blocks); the cached pfns go to the
 * first source and the last target found - the latter the last page of
 * its block, so the next free scan of that block sees one pfn.
 * kcompactd reads the marks (Rientjes, 2017). 4.11 (c->skip_4_11):
 * a block is marked only when a scan of it reaches its end having
 * isolated nothing, the cached migrate pfn moving to the block's start
 * and the free pfn to where the scan began; the reset clears every mark
 * and puts the scanners back at the zone's ends; compaction_restarting
 * resets unconditionally; kcompactd ignores the marks; no
 * finish_pageblock.
 *
 * Proactive compaction (5.9+, sysctl_compaction_proactiveness 20):
 * kcompactd also checks every 500 ms (HPAGE_FRAG_CHECK_INTERVAL_MSEC;
 * should_proactive_compact_node: not while kswapd runs) whether the
 * node's fragmentation score (fragmentation_score_node: each zone's
 * extfrag_for_order(COMPACTION_HPAGE_ORDER = 9), the share of its free
 * pages outside free blocks of order 9 or more, weighted by its present
 * pages) is above the high mark (min(100 - proactiveness + 10, 100)),
 * and compacts each zone at order -1 from its ends until its score is
 * at most the low mark or kswapd runs (compact_node(pgdat, true),
 * __compact_finished's proactive test). The pages it moves free their
 * old pages to the per-CPU lists: only compaction for an order drains
 * them (lru_add_drain_cpu_zone at each order-aligned block).
 *
 * kcompactd (kcompactd, kcompactd_do_work): woken by wakeup_kcompactd()
 * at an order > 0 when it sleeps and the node is suitable
 * (kcompactd_node_suitable). mm/vmscan.c wakes it when kswapd goes to
 * sleep (kswapd_try_to_sleep, the order kswapd was asked for) and at the
 * end of a balance_pgdat() that reclaimed for a watermark boost
 * (pageblock_order). It compacts in MIGRATE_SYNC_LIGHT mode for a
 * GFP_KERNEL request (migratetype UNMOVABLE, which may steal any free
 * block: any free block of the order is success), defers on failure,
 * and sleeps. Its work goes a batch at a time (cp_kcompactd_work_step:
 * compact_zone_start, then compact_zone_batches stopping after each
 * batch that migrated), so the engine runs the other tasks between
 * batches.
 *
 * Kernel functions: isolation_suitable, test_and_set_skip,
 * update_cached_migrate, update_pageblock_skip, pageblock_skip_persistent,
 * compaction_restarting, reset_cached_positions, __reset_isolation_pfn,
 * __reset_isolation_suitable, reset_isolation_suitable (and 4.11's
 * update_pageblock_skip), wakeup_kcompactd, kcompactd_node_suitable,
 * should_proactive_compact_node, fragmentation_score_node,
 * fragmentation_score_zone, fragmentation_score_wmark, compact_node,
 * kcompactd_do_work, compaction_suitable, __compaction_suitable,
 * compaction_deferred, defer_compaction, compaction_defer_reset,
 * compact_zone, __compact_finished, compact_scanners_met,
 * isolate_migratepages, isolate_migratepages_block,
 * suitable_migration_source, suitable_migration_target,
 * isolate_freepages, isolate_freepages_block, compaction_alloc,
 * release_freepages; mm/vmstat.c __fragmentation_index and
 * fill_contig_page_info (from memory of the 6.1 function: the extracted
 * tree has no mm/vmstat.c).
 *
 * SIMPLIFIED:
 * - Page-cache pages on the LRU move (pagecache.c's reverse map) when
 *   the request may enter the filesystem (__GFP_FS: kcompactd's
 *   GFP_KERNEL; a GFP_NOFS request - XFS mappings, 6.x readahead - moves
 *   only anonymous pages, isolate_migratepages_block), and
 *   the start layout's movable fillers (cp_mem.movable_filler: the pages
 *   the measured layout leaves allocated in MOVABLE pageblocks, on the
 *   real machine mostly the balloon's mlocked anonymous pages, which
 *   compaction migrates with compact_unevictable_allowed = 1); other
 *   process memory stays where it is, as do slab and XFS buffer pages
 *   (unmovable anyway).
 * - The zone holds the free blocks a run measured, the page cache's room
 *   and the fillers of those blocks' pageblocks, not the balloon's
 *   pageblocks (millions of pages of the real Normal zone in the global
 *   rows). The real scanners walk them: a 6.18 global 2G set-up's
 *   proactive compaction scanned 3.9 - 4.4 M pages for free targets and
 *   migrated 14 - 15 K pages; the model's scans 0.48 M and migrates 55 K,
 *   and leaves free blocks of order 8 the kernel's does not
 *   (docs/fidelity.md, session 14).
 * - No fast_find_migrateblock / fast_isolate_freepages (the free list
 *   searches that jump the scanners, and fast_isolate_around's marks),
 *   no async stride.
 * - test_and_set_skip() always finds the mark clear (isolation_suitable
 *   read it just before and no other compaction runs at the same time):
 *   the kernel's abort of a block another compaction marked meanwhile
 *   has no case here.
 * - migrate_pages() takes the isolated folios lowest pfn first; the
 *   kernel's list_add() puts each at the head of cc->migratepages, so
 *   it migrates the highest first (the counts are the same; which folio
 *   gets which free block differs).
 * - The migration scanner keeps the page on the LRU until it migrates
 *   it (a batch - isolation and migration - is inside one step of the
 *   engine: nothing runs in between; kcompactd's run stops between
 *   batches, holding only its isolated free pages, cc->freepages, as the
 *   kernel's does between its loop's iterations); migration never fails
 *   for a page (clean page cache, no writeback, no elevated reference
 *   counts).
 * - Direct compaction only at the async priority
 *   (cp_try_to_compact_pages: the first try of a costly folio, and once
 *   after direct reclaim; no sync retries, no capture_control, and a
 *   success does not compaction_defer_reset(alloc_success) the zone); no
 *   wakeup_kswapd() -> wakeup_kcompactd() for allocations without
 *   __GFP_DIRECT_RECLAIM (the model's reclaim hook has no gfp).
 * - Zones: kcompactd_do_work() walks them lowest first, each with its
 *   own deferral and cached scanner positions, the scanners inside the
 *   zone (zone-local pfns; the page cache sees global ones).
 * - No capture_control, no lru_add_drain_cpu_zone() at the
 *   end of each order-aligned block (one lru_add_drain() at the start).
 */
#include "model/compaction.h"

#include <string.h>

#include "core/bug.h"
#include "model/gfp.h"
#include "model/memory.h"
#include "model/pagecache.h"
#include "model/vmstat.h"

#define PB_PAGES CP_BUDDY_PAGEBLOCK_PAGES

static inline uint32_t pageblock_start(uint32_t pfn)
{
	return pfn & ~(PB_PAGES - 1);
}

static inline uint32_t pageblock_end(uint32_t pfn)
{
	return pageblock_start(pfn) + PB_PAGES;
}

static uint32_t zone_free_start(const struct cp_buddy *b)
{
	return pageblock_start(b->nr_pages - 1);
}

void cp_compaction_init(struct cp_compaction *c, struct cp_mem *mem, struct cp_pagecache *pc,
			struct cp_vmstat *vmstat)
{
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->mem = mem;
	c->pc = pc;
	c->vmstat = vmstat;
	for (i = 0; i < mem->nr_zones; i++) {
		c->zone[i].cached_free_pfn = zone_free_start(&mem->zones[i].buddy);
	}
	c->kcompactd_sleeping = true;
}

static void count(struct cp_compaction *c, enum cp_vmstat_item i, uint64_t n)
{
	if (c->vmstat)
		cp_count(c->vmstat, i, n);
}

int cp_fragmentation_index(const struct cp_buddy *b, unsigned order)
{
	uint64_t free_blocks_total = 0, free_pages = 0, free_blocks_suitable = 0;
	unsigned o;

	CP_BUG_ON(order >= CP_BUDDY_MAX_ORDER);
	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
		uint64_t blocks = b->nr_free[o];

		free_blocks_total += blocks;
		free_pages += blocks << o;
		if (o >= order)
			free_blocks_suitable += blocks << (o - order);
	}
	if (free_blocks_total == 0)
		return 0;
	if (free_blocks_suitable)
		return -1000;
	return 1000 - (int)((1000 + free_pages * 1000 / (1ull << order)) / free_blocks_total);
}

/* compact_gap(): free pages compaction needs to have room to work. */
static uint64_t compact_gap(unsigned order)
{
	return 2ull << order;
}

/* The buddy's free pages are NR_FREE_PAGES: the same as the model's
 * count except during compact_zone(), when isolated free pages are out
 * of both the lists and the counter, as in the kernel. */
static bool zone_watermark_ok(const struct cp_mem_zone *z, unsigned order, uint64_t mark)
{
	return cp_buddy_watermark_ok(&z->buddy, order, mark, (int64_t)z->buddy.nr_free_pages);
}

enum cp_compact_result cp_compaction_suitable(const struct cp_mem *m, unsigned zi, unsigned order,
					      bool normal_index)
{
	const struct cp_mem_zone *z = &m->zones[zi];
	/* lowmem_reserve[highest_zoneidx]: only below the highest zone */
	uint64_t reserve = normal_index && zi + 1 < m->nr_zones ? z->lowmem_reserve : 0;
	uint64_t mark;
	int fragindex;

	if (order == CP_COMPACT_ORDER_ALL)
		return CP_COMPACT_CONTINUE;
	if (zone_watermark_ok(z, order, cp_zone_wmark_min(z) + reserve))
		return CP_COMPACT_SUCCESS;
	mark = order > CP_PAGE_ALLOC_COSTLY_ORDER ? cp_zone_wmark_low(z) : cp_zone_wmark_min(z);
	if (!zone_watermark_ok(z, 0, mark + compact_gap(order) + reserve))
		return CP_COMPACT_SKIPPED;
	if (order > CP_PAGE_ALLOC_COSTLY_ORDER) {
		fragindex = cp_fragmentation_index(&z->buddy, order);
		if (fragindex >= 0 && fragindex <= CP_EXTFRAG_THRESHOLD)
			return CP_COMPACT_NOT_SUITABLE_ZONE;
	}
	return CP_COMPACT_CONTINUE;
}

bool cp_compaction_deferred(struct cp_compaction *c, unsigned zi, unsigned order)
{
	struct cp_compact_zone *cz = &c->zone[zi];
	unsigned limit = 1u << cz->compact_defer_shift;

	if (order < cz->compact_order_failed)
		return false;
	if (++cz->compact_considered >= limit) {
		cz->compact_considered = limit;
		return false;
	}
	return true;
}

void cp_defer_compaction(struct cp_compaction *c, unsigned zi, unsigned order)
{
	struct cp_compact_zone *cz = &c->zone[zi];

	cz->compact_considered = 0;
	cz->compact_defer_shift++;
	if (order < cz->compact_order_failed)
		cz->compact_order_failed = order;
	if (cz->compact_defer_shift > CP_COMPACT_MAX_DEFER_SHIFT)
		cz->compact_defer_shift = CP_COMPACT_MAX_DEFER_SHIFT;
}

void cp_compaction_defer_reset(struct cp_compaction *c, unsigned zi, unsigned order,
			       bool alloc_success)
{
	struct cp_compact_zone *cz = &c->zone[zi];

	if (alloc_success) {
		cz->compact_considered = 0;
		cz->compact_defer_shift = 0;
	}
	if (order >= cz->compact_order_failed)
		cz->compact_order_failed = order + 1;
}

/* reset_cached_positions(): the scanners start again at the zone's ends. */
static void reset_cached_positions(struct cp_compaction *c, unsigned zi)
{
	struct cp_compact_zone *cz = &c->zone[zi];

	cz->cached_migrate_pfn[0] = cz->cached_migrate_pfn[1] = 0;
	cz->cached_free_pfn = zone_free_start(&c->mem->zones[zi].buddy);
}

/* compaction_restarting(): compaction at order has failed often enough
 * to be deferred the longest, and the deferral is over. */
static bool compaction_restarting(const struct cp_compaction *c, unsigned zi, unsigned order)
{
	const struct cp_compact_zone *cz = &c->zone[zi];

	if (order == CP_COMPACT_ORDER_ALL || order < cz->compact_order_failed)
		return false; /* order -1 is below every order_failed */
	return cz->compact_defer_shift == CP_COMPACT_MAX_DEFER_SHIFT &&
	       cz->compact_considered >= 1u << cz->compact_defer_shift;
}

/* The order of the page-cache folio holding pfn (zone-local), 0 when
 * none (PageCompound ? compound_order(compound_head(page)) : 0). */
static unsigned folio_order_at(const struct cp_compaction *c, unsigned zi, uint32_t pfn)
{
	uint32_t slot = cp_pagecache_pfn_slot(c->pc, c->mem->zones[zi].start_pfn + pfn);

	return slot == CP_NIL ? 0 : c->pc->pages[cp_folio_head(c->pc, slot)].order;
}

/* pageblock_skip_persistent() (5.1+): pfn is in a folio of
 * pageblock_order or more, which no scanner can use until it is freed. */
static bool pageblock_skip_persistent(const struct cp_compaction *c, unsigned zi, uint32_t pfn)
{
	return !c->skip_4_11 && folio_order_at(c, zi, pfn) >= CP_BUDDY_PAGEBLOCK_ORDER;
}

/* PageLRU(pfn): a page of a page-cache folio on an LRU list, or a movable
 * filler (the balloon's mlocked pages, on the unevictable LRU). */
static bool page_lru(const struct cp_compaction *c, unsigned zi, uint32_t pfn)
{
	uint32_t gpfn = c->mem->zones[zi].start_pfn + pfn;
	uint32_t slot;

	if (cp_mem_movable_filler(c->mem, gpfn))
		return true;
	slot = cp_pagecache_pfn_slot(c->pc, gpfn);
	return slot != CP_NIL && (c->pc->pages[cp_folio_head(c->pc, slot)].flags & CP_PG_LRU);
}

/* isolation_suitable(): the pageblock holding pfn is not marked, or
 * the run ignores the marks. */
static bool isolation_suitable(const struct cp_compaction *c, const struct cp_compact_control *cc,
			       uint32_t pfn)
{
	return cc->ignore_skip_hint || !cp_buddy_pageblock_skip(&c->mem->zones[cc->zi].buddy, pfn);
}

/* Async runs restart at pfn or later, and so do sync runs when cc is
 * one (the cached migrate pfns only move up). */
static void raise_cached_migrate(struct cp_compaction *c, const struct cp_compact_control *cc,
				 uint32_t pfn)
{
	struct cp_compact_zone *cz = &c->zone[cc->zi];

	if (pfn > cz->cached_migrate_pfn[0])
		cz->cached_migrate_pfn[0] = pfn;
	if (cc->mode != CP_MIGRATE_MODE_ASYNC && pfn > cz->cached_migrate_pfn[1])
		cz->cached_migrate_pfn[1] = pfn;
}

/* update_cached_migrate() (5.1+): runs restart at pageblock_end_pfn(pfn)
 * - for a pfn at a block's end, the end of the block after it, as the
 * kernel computes it. */
static void update_cached_migrate(struct cp_compaction *c, const struct cp_compact_control *cc,
				  uint32_t pfn)
{
	raise_cached_migrate(c, cc, pageblock_end(pfn));
}

/*
 * The end of isolate_migratepages_block() for the block at block_start,
 * scanned to its end: 5.1+ marks it (unless its first isolation did,
 * test_and_set_skip) and moves the cached pfns past it when it isolated
 * nothing or was finished (finish_pageblock); 4.11
 * (update_pageblock_skip(migrate_scanner)) marks it and moves the cached
 * pfns to it only when it isolated nothing and the run reads the marks.
 * valid: the scan began at the block's start (5.1+; 4.11 at any pfn).
 */
static void migrate_block_scanned(struct cp_compaction *c, const struct cp_compact_control *cc,
				  uint32_t block_start, bool valid, bool skip_updated,
				  bool isolated)
{
	struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;

	if (!c->skip_4_11) {
		if (isolated && !cc->finish_pageblock)
			return;
		if (valid && !skip_updated)
			cp_buddy_set_pageblock_skip(b, block_start, true);
		update_cached_migrate(c, cc, block_start + PB_PAGES);
		return;
	}
	if (isolated || cc->ignore_skip_hint || !valid)
		return;
	cp_buddy_set_pageblock_skip(b, block_start, true);
	raise_cached_migrate(c, cc, block_start);
}

/*
 * update_pageblock_skip() for the free scanner, which scanned the block
 * at block_start to its end from scan_start: 5.1+ marks it and lowers
 * the cached free pfn to the block below; 4.11 only when it isolated
 * nothing and the run reads the marks, the cached free pfn lowered to
 * where the scan began.
 */
static void free_block_scanned(struct cp_compaction *c, const struct cp_compact_control *cc,
			       uint32_t block_start, uint32_t scan_start, bool isolated)
{
	struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;
	struct cp_compact_zone *cz = &c->zone[cc->zi];
	uint32_t pfn = block_start - PB_PAGES;

	if (c->skip_4_11) {
		if (isolated || cc->ignore_skip_hint)
			return;
		pfn = scan_start;
	}
	cp_buddy_set_pageblock_skip(b, block_start, true);
	if (pfn < cz->cached_free_pfn)
		cz->cached_free_pfn = pfn;
}

/*
 * __reset_isolation_pfn() (5.1+): may the mark of the pageblock holding
 * pfn go? Not for a block under a pageblock-order folio; a block already
 * clear counts once both sides look; the free side wants MOVABLE
 * blocks; else a sample of every 8th page from the block's start finds
 * an LRU page (check_source) or a free block's head (check_target), and
 * the mark is cleared.
 */
static bool reset_isolation_pfn(struct cp_compaction *c, unsigned zi, uint32_t pfn,
				bool check_source, bool check_target)
{
	struct cp_buddy *b = &c->mem->zones[zi].buddy;
	uint32_t p, end;

	if (pageblock_skip_persistent(c, zi, pfn))
		return false;
	if (check_source && check_target && !cp_buddy_pageblock_skip(b, pfn))
		return true;
	if (!check_source && check_target &&
	    cp_buddy_pageblock_migratetype(b, pfn) != CP_MIGRATE_MOVABLE)
		return false;
	end = pageblock_end(pfn) - 1;
	if (end >= b->nr_pages)
		end = b->nr_pages - 1;
	for (p = pageblock_start(pfn); p <= end; p += 1u << CP_PAGE_ALLOC_COSTLY_ORDER) {
		if ((check_source && page_lru(c, zi, p)) ||
		    (check_target && cp_buddy_free_block_order(b, p) >= 0)) {
			cp_buddy_set_pageblock_skip(b, pfn, false);
			return true;
		}
	}
	return false;
}

/* __reset_isolation_suitable() of zone zi (see cp_reset_isolation_suitable). */
static void reset_isolation_suitable_zone(struct cp_compaction *c, unsigned zi)
{
	struct cp_buddy *b = &c->mem->zones[zi].buddy;
	struct cp_compact_zone *cz = &c->zone[zi];
	uint32_t migrate_pfn = 0, free_pfn = b->nr_pages - 1;
	uint32_t reset_migrate = free_pfn, reset_free = migrate_pfn;
	bool source_set = false, free_set = false;

	cz->blockskip_flush = false;
	if (c->skip_4_11) {
		memset(b->pageblock_skip, 0, b->nr_pageblocks);
		reset_cached_positions(c, zi);
		return;
	}
	for (; migrate_pfn < free_pfn;
	     migrate_pfn += PB_PAGES, free_pfn = free_pfn > PB_PAGES ? free_pfn - PB_PAGES : 0) {
		if (reset_isolation_pfn(c, zi, migrate_pfn, true, source_set) &&
		    migrate_pfn < reset_migrate) {
			source_set = true;
			reset_migrate = migrate_pfn;
			cz->init_migrate_pfn = reset_migrate;
			cz->cached_migrate_pfn[0] = cz->cached_migrate_pfn[1] = reset_migrate;
		}
		if (reset_isolation_pfn(c, zi, free_pfn, free_set, true) && free_pfn > reset_free) {
			free_set = true;
			reset_free = free_pfn;
			cz->cached_free_pfn = reset_free;
		}
	}
	/* no suitable block: leave no distance between the scanners */
	if (reset_migrate >= reset_free) {
		cz->cached_migrate_pfn[0] = cz->cached_migrate_pfn[1] = migrate_pfn;
		cz->cached_free_pfn = free_pfn;
	}
}

void cp_reset_isolation_suitable(struct cp_compaction *c)
{
	unsigned zi;

	for (zi = 0; zi < c->mem->nr_zones; zi++)
		if (c->zone[zi].blockskip_flush)
			reset_isolation_suitable_zone(c, zi);
}

static bool scanners_met(const struct cp_compact_control *cc)
{
	return (cc->free_pfn >> CP_BUDDY_PAGEBLOCK_ORDER) <=
	       (cc->migrate_pfn >> CP_BUDDY_PAGEBLOCK_ORDER);
}

/* can_steal_fallback() for the success test (page_group_by_mobility_
 * disabled false). */
static bool can_steal(unsigned order, enum cp_migratetype mt)
{
	return order >= CP_BUDDY_PAGEBLOCK_ORDER / 2 || mt == CP_MIGRATE_RECLAIMABLE ||
	       mt == CP_MIGRATE_UNMOVABLE;
}

/* __compact_finished(): CONTINUE, SUCCESS, or the scanners met. */
static enum cp_compact_result compact_finished(struct cp_compaction *c,
					       struct cp_compact_control *cc)
{
	const struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;
	unsigned o, mt;

	if (scanners_met(cc)) {
		reset_cached_positions(c, cc->zi);
		/* kswapd clears the hints when it next sleeps; kcompactd
		 * does not ask for it (no allocation request behind it) */
		if (cc->direct_compaction)
			c->zone[cc->zi].blockskip_flush = true;
		return cc->whole_zone ? CP_COMPACT_COMPLETE : CP_COMPACT_PARTIAL_SKIPPED;
	}
	if (cc->proactive) {
		if (cc->kswapd_running && cc->kswapd_running(cc->kswapd_priv))
			return CP_COMPACT_PARTIAL_SKIPPED;
		return cp_fragmentation_score_zone(b) >
				       cp_fragmentation_score_wmark(c->proactiveness, true)
			       ? CP_COMPACT_CONTINUE
			       : CP_COMPACT_SUCCESS;
	}
	if (cc->order == CP_COMPACT_ORDER_ALL)
		return CP_COMPACT_CONTINUE;
	/* finish the pageblock first */
	if (cc->migrate_pfn & (PB_PAGES - 1))
		return CP_COMPACT_CONTINUE;
	for (o = cc->order; o < CP_BUDDY_MAX_ORDER; o++) {
		if (cp_buddy_nr_free_blocks(b, o, cc->migratetype))
			return CP_COMPACT_SUCCESS;
		if (!can_steal(o, cc->migratetype))
			continue;
		for (mt = 0; mt < CP_MIGRATE_TYPES; mt++)
			if (mt != cc->migratetype &&
			    cp_buddy_nr_free_blocks(b, o, (enum cp_migratetype)mt))
				return CP_COMPACT_SUCCESS;
	}
	return CP_COMPACT_CONTINUE; /* NO_SUITABLE_PAGE: compact_finished() goes on */
}

/* suitable_migration_source(): not a block under a pageblock-order
 * folio (5.1+); kcompactd (sync) takes any pageblock, async only
 * MOVABLE ones. */
static bool suitable_migration_source(const struct cp_compaction *c,
				      const struct cp_compact_control *cc, uint32_t pfn)
{
	if (pageblock_skip_persistent(c, cc->zi, pfn))
		return false;
	if (cc->mode != CP_MIGRATE_MODE_ASYNC)
		return true;
	return cp_buddy_pageblock_migratetype(&c->mem->zones[cc->zi].buddy, pfn) ==
	       CP_MIGRATE_MOVABLE;
}

/*
 * skip_isolation_on_order() (6.9+): a folio of the target order or
 * more cannot help (no free block of that order would take it), except
 * for compaction of the whole zone (order -1); nor one of
 * pageblock_order or more.
 */
static bool skip_isolation_on_order(unsigned order, unsigned target_order)
{
	if (target_order != CP_COMPACT_ORDER_ALL && order >= target_order)
		return true;
	return order >= CP_BUDDY_PAGEBLOCK_ORDER;
}

/* block_end_pfn(pfn, order): the end of the order-aligned block holding
 * pfn. */
static uint32_t order_block_end(uint32_t pfn, unsigned order)
{
	return (pfn + (1u << order)) & ~((1u << order) - 1);
}

/* The order of the large page-cache folio whose head is at pfn (global),
 * or 0 (an order-0 page, a tail page, or not page cache). */
static unsigned large_folio_head_order(const struct cp_compaction *c, uint32_t pfn)
{
	uint32_t slot = cp_pagecache_pfn_slot(c->pc, pfn);

	if (slot == CP_NIL || !c->pc->pages[slot].order || cp_folio_head(c->pc, slot) != slot)
		return 0;
	return c->pc->pages[slot].order;
}

static void isolate_folio(struct cp_compact_control *cc, uint32_t pfn, unsigned order)
{
	cc->migratepages[cc->nr_migrate] = pfn;
	cc->migrate_order[cc->nr_migrate++] = (uint8_t)order;
	cc->nr_migratepages += 1u << order;
	cc->st.isolated += 1u << order;
}

/*
 * isolate_migratepages() + isolate_migratepages_block(): from
 * migrate_pfn, the first pageblock that ends at or below the free
 * scanner, is not marked skip (checked at its start) and is a suitable
 * source (5.1+: an unsuitable one moves the cached pfns past it);
 * collect page-cache folios on the LRU until 32 pages (the whole block
 * when finish_pageblock) or the pageblock's end. A large folio's head:
 * skipped whole when 6.1 (every PageCompound page) or
 * skip_isolation_on_order() says so, else (6.9+) isolated whole. 5.1+
 * marks the block at its first isolation when the scan began at its
 * start (test_and_set_skip: the mark is clear there, isolation_suitable
 * having just read it - the kernel's abort when it is not is for a
 * concurrent compaction); a block scanned to its end goes to
 * migrate_block_scanned(). Returns the folios isolated.
 */
static unsigned isolate_migratepages(struct cp_compact_control *cc, struct cp_compaction *c)
{
	const struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;
	uint32_t base = c->mem->zones[cc->zi].start_pfn; /* the page cache's pfns are global */
	uint32_t low_pfn = cc->migrate_pfn;
	uint32_t block_end = pageblock_end(low_pfn);
	bool valid, skip_updated = false;
	/* async direct compaction gives up an order-aligned block at its
	 * first failure (skip_on_failure) */
	bool skip_on_failure = cc->direct_compaction && cc->mode == CP_MIGRATE_MODE_ASYNC;
	uint32_t next_skip = 0;
	uint64_t isolated_pages = 0;
	unsigned nr_isolated = 0;

	for (; block_end <= cc->free_pfn; low_pfn = block_end, block_end += PB_PAGES) {
		if (low_pfn == pageblock_start(low_pfn) && !isolation_suitable(c, cc, low_pfn))
			continue;
		if (suitable_migration_source(c, cc, low_pfn))
			break;
		if (!c->skip_4_11)
			update_cached_migrate(c, cc, block_end);
	}
	if (block_end > cc->free_pfn) {
		cc->migrate_pfn = low_pfn;
		return 0;
	}
	valid = c->skip_4_11 || low_pfn == pageblock_start(low_pfn);
	if (skip_on_failure)
		next_skip = order_block_end(low_pfn, cc->order);
	while (low_pfn < block_end) {
		unsigned order, folio_order, step;
		enum cp_buddy_page_kind kind;

		if (skip_on_failure && low_pfn >= next_skip) {
			if (nr_isolated)
				break; /* a whole order-aligned block: migrate it */
			next_skip = order_block_end(low_pfn, cc->order);
		}
		kind = cp_buddy_page_kind(b, low_pfn, &order);
		cc->st.migrate_scanned++;
		if (kind == CP_BUDDY_PAGE_FREE) {
			/* PageBuddy: skipped whole, counted as scanned */
			cc->st.migrate_scanned += (1u << order) - 1;
			low_pfn += 1u << order;
			continue;
		}
		if (kind != CP_BUDDY_PAGE_ALLOC || order != 0) {
			/* another owner's compound page: skipped whole; a page
			 * inside a block that began before low_pfn (the scanner
			 * stopped mid-pageblock, then pages merged): one by one,
			 * as the kernel's scanner sees a page that is neither
			 * PageBuddy nor PageLRU */
			step = kind == CP_BUDDY_PAGE_TAIL ? 1 : 1u << order;
			cc->st.migrate_scanned += step - 1;
			goto isolate_fail;
		}
		/* PageCompound: a large folio's head is skipped at once
		 * unless 6.9+ may migrate a folio of its order */
		folio_order = large_folio_head_order(c, base + low_pfn);
		if (folio_order &&
		    (!c->large_folios || skip_isolation_on_order(folio_order, cc->order))) {
			cc->st.migrate_scanned += (1u << folio_order) - 1;
			step = 1u << folio_order;
			goto isolate_fail;
		}
		/* "Only allow to migrate anonymous pages in GFP_NOFS context
		 * because those do not depend on fs locks": page cache needs
		 * __GFP_FS, the fillers (anonymous) do not */
		if (cp_mem_movable_filler(c->mem, base + low_pfn)) {
			order = 0;
		} else if (!cc->fs ||
			   !cp_pagecache_pfn_folio_migratable(c->pc, base + low_pfn, &order)) {
			/* not ours, off the LRU, under writeback, or a tail
			 * page (folio_get_nontail_page fails) */
			step = 1;
			goto isolate_fail;
		}
		CP_BUG_ON(order != folio_order);
		/* test_and_set_skip() (5.1+; ignore_skip_hint: neither read
		 * nor set) */
		if (!c->skip_4_11 && valid && !skip_updated) {
			skip_updated = true;
			if (!cc->ignore_skip_hint)
				cp_buddy_set_pageblock_skip(&c->mem->zones[cc->zi].buddy,
							    low_pfn, true);
		}
		isolate_folio(cc, low_pfn, order);
		nr_isolated++;
		isolated_pages += 1u << order;
		cc->st.migrate_scanned += (1u << order) - 1;
		low_pfn += 1u << order;
		if (cc->nr_migratepages >= CP_COMPACT_CLUSTER_MAX && !cc->finish_pageblock)
			break;
		continue;
isolate_fail:
		low_pfn += step;
		if (!skip_on_failure)
			continue;
		/* the cc->order block cannot be freed: put back what it
		 * isolated (not counted as isolated) and go on at the next */
		if (nr_isolated) {
			cc->nr_migrate = 0;
			cc->nr_migratepages = 0;
			cc->st.isolated -= isolated_pages;
			isolated_pages = 0;
			nr_isolated = 0;
		}
		if (low_pfn <= next_skip) {
			low_pfn = next_skip;
			next_skip += 1u << cc->order;
		}
	}
	if (low_pfn >= block_end) {
		low_pfn = block_end;
		migrate_block_scanned(c, cc, pageblock_start(block_end - 1), valid, skip_updated,
				      nr_isolated != 0);
	}
	cc->migrate_pfn = low_pfn;
	return cc->nr_migrate;
}

/* suitable_migration_target(): a MOVABLE pageblock that is not itself a
 * free block of pageblock_order or more. */
static bool suitable_migration_target(const struct cp_buddy *b, uint32_t block_start)
{
	unsigned order;

	if (cp_buddy_page_kind(b, block_start, &order) == CP_BUDDY_PAGE_FREE &&
	    order >= CP_BUDDY_PAGEBLOCK_ORDER)
		return false;
	return cp_buddy_pageblock_migratetype(b, block_start) == CP_MIGRATE_MOVABLE;
}

static void freelist_push(struct cp_compact_freelist *l, uint32_t pfn, bool front)
{
	CP_BUG_ON(l->nr >= CP_COMPACT_FREELIST_CAP);
	if (front) {
		l->first = (l->first + CP_COMPACT_FREELIST_CAP - 1) % CP_COMPACT_FREELIST_CAP;
		l->pfn[l->first] = pfn;
	} else {
		l->pfn[(l->first + l->nr) % CP_COMPACT_FREELIST_CAP] = pfn;
	}
	l->nr++;
}

static uint32_t freelist_pop(struct cp_compact_freelist *l)
{
	uint32_t pfn = l->pfn[l->first];

	CP_BUG_ON(!l->nr);
	l->first = (l->first + 1) % CP_COMPACT_FREELIST_CAP;
	l->nr--;
	return pfn;
}

/*
 * isolate_freepages_block(): take the free blocks of [*start, end) until
 * there are as many free pages as pages to migrate. __isolate_free_page
 * refuses when the order-0 min watermark (no boost) would fail. 6.1
 * splits each block into order-0 pages (split_map_pages); 6.9+ keeps it
 * on the list of its order (list_add_tail). Returns the pages isolated.
 */
static uint64_t isolate_freepages_block(struct cp_compaction *c, struct cp_compact_control *cc,
					uint32_t *start, uint32_t end)
{
	const struct cp_mem_zone *z = &c->mem->zones[cc->zi];
	struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;
	uint32_t pfn = *start;
	uint64_t isolated = 0;

	while (pfn < end) {
		unsigned order, i;
		enum cp_buddy_page_kind kind = cp_buddy_page_kind(b, pfn, &order);
		int got;

		cc->st.free_scanned++;
		if (kind != CP_BUDDY_PAGE_FREE) {
			pfn += kind == CP_BUDDY_PAGE_TAIL ? 1 : 1u << order;
			continue;
		}
		/* zone->_watermark[WMARK_MIN]: no boost, no reserve */
		if (!zone_watermark_ok(z, 0, z->wmark.min + (1ull << order)))
			break;
		got = cp_buddy_isolate_free_block(b, pfn, NULL);
		CP_BUG_ON(got != (int)order);
		cp_mem_isolated_free_block(c->mem, cc->zi, order);
		if (c->large_folios)
			freelist_push(&cc->freepages[order], pfn, false);
		else
			for (i = 0; i < (1u << order); i++)
				freelist_push(&cc->freepages[0], pfn + i, false);
		cc->nr_freepages += 1u << order;
		cc->st.free_scanned += (1u << order) - 1;
		cc->st.isolated += 1u << order;
		isolated += 1u << order;
		pfn += 1u << order;
		if (cc->nr_freepages >= cc->nr_migratepages)
			break;
	}
	*start = pfn;
	return isolated;
}

/* isolate_freepages(): pageblocks from free_pfn down to the one after
 * the migration scanner's that are suitable targets and not marked
 * skip; one scanned to its end goes to free_block_scanned(). */
static void isolate_freepages(struct cp_compaction *c, struct cp_compact_control *cc)
{
	const struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;
	uint32_t block_start = pageblock_start(cc->free_pfn);
	uint32_t low_pfn = pageblock_end(cc->migrate_pfn);
	uint32_t isolate_start = cc->free_pfn;

	for (; block_start >= low_pfn; block_start -= PB_PAGES, isolate_start = block_start) {
		uint32_t block_end = block_start + PB_PAGES;
		uint32_t scan_start;
		uint64_t isolated;

		if (block_end > b->nr_pages)
			block_end = b->nr_pages;
		if (isolate_start < block_start || isolate_start >= block_end)
			isolate_start = block_start;
		if (!suitable_migration_target(b, block_start) ||
		    !isolation_suitable(c, cc, block_start))
			continue;
		scan_start = isolate_start;
		isolated = isolate_freepages_block(c, cc, &isolate_start, block_end);
		if (isolate_start == block_end)
			free_block_scanned(c, cc, block_start, scan_start, isolated != 0);
		if (cc->nr_freepages >= cc->nr_migratepages) {
			if (isolate_start >= block_end)
				isolate_start = block_start - PB_PAGES;
			break;
		}
		if (isolate_start < block_end)
			break; /* the watermark stopped it */
	}
	cc->free_pfn = isolate_start;
}

/*
 * compaction_alloc(): the target of a folio of 2^order pages - the
 * first block on the list of the smallest order >= order that has one,
 * its upper halves put back at the front of the lower lists; when none
 * has one, the free scanner runs once more; CP_BUDDY_NONE when it finds
 * none (6.1: order 0 only).
 */
static uint32_t compaction_alloc(struct cp_compaction *c, struct cp_compact_control *cc,
				 unsigned order)
{
	bool isolated = false;
	unsigned o;
	uint32_t pfn;

	for (;;) {
		for (o = order; o < CP_BUDDY_MAX_ORDER && !cc->freepages[o].nr; o++)
			;
		if (o < CP_BUDDY_MAX_ORDER)
			break;
		if (isolated || scanners_met(cc))
			return CP_BUDDY_NONE;
		isolate_freepages(c, cc);
		isolated = true;
	}
	pfn = freelist_pop(&cc->freepages[o]);
	while (o > order) {
		o--;
		freelist_push(&cc->freepages[o], pfn + (1u << o), true);
	}
	cc->nr_freepages -= 1u << order;
	cc->nr_migratepages -= 1u << order;
	return pfn;
}

/* migrate_pages_batch() -ENOMEM for a large folio -> try_split_folio():
 * the folio at pfn becomes order-0 pages, which go on after the rest of
 * the list. */
static void split_isolated_folio(struct cp_compaction *c, struct cp_compact_control *cc,
				 uint32_t pfn, unsigned order)
{
	uint32_t base = c->mem->zones[cc->zi].start_pfn;
	uint32_t i;

	CP_BUG_ON(cc->nr_migrate + (1u << order) > 2 * PB_PAGES);
	cp_pagecache_split_folio(c->pc, cp_pagecache_pfn_slot(c->pc, base + pfn));
	for (i = 0; i < (1u << order); i++) {
		cc->migratepages[cc->nr_migrate] = pfn + i;
		cc->migrate_order[cc->nr_migrate++] = 0;
	}
}

/* migrate_pages(): each isolated folio into a target of its order; a
 * large folio without one is split and its pages migrated singly;
 * stops (the rest put back) when an order-0 page finds no target: false
 * then (-ENOMEM). */
static bool migrate_pages(struct cp_compaction *c, struct cp_compact_control *cc)
{
	uint32_t base = c->mem->zones[cc->zi].start_pfn;
	unsigned i;
	bool ok = true;

	for (i = 0; i < cc->nr_migrate; i++) {
		uint32_t from = cc->migratepages[i];
		unsigned order = cc->migrate_order[i];
		uint32_t to = compaction_alloc(c, cc, order);
		int rc;

		if (to == CP_BUDDY_NONE && order) {
			split_isolated_folio(c, cc, from, order);
			continue;
		}
		if (to == CP_BUDDY_NONE) {
			ok = false;
			break;
		}
		if (cp_mem_movable_filler(c->mem, base + from))
			rc = cp_mem_migrate_filler(c->mem, base + from, base + to,
						   cc->proactive ? cc->cpu : -1);
		else
			rc = cp_pagecache_migrate_folio(c->pc, base + from, base + to, cc->cpu,
							cc->proactive);
		CP_BUG_ON(rc);
		cc->st.migrated += 1u << order;
	}
	cc->nr_migrate = 0;
	cc->nr_migratepages = 0;
	return ok;
}

/* release_free_list(): unused isolated free blocks back to the buddy,
 * each at its order; the cached free pfn moves up to the highest one's
 * pageblock. */
static void release_freepages(struct cp_compaction *c, struct cp_compact_control *cc)
{
	struct cp_compact_zone *cz = &c->zone[cc->zi];
	struct cp_buddy *b = &c->mem->zones[cc->zi].buddy;
	uint32_t high = 0;
	unsigned o;
	int rc;

	if (!cc->nr_freepages)
		return;
	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
		while (cc->freepages[o].nr) {
			uint32_t pfn = freelist_pop(&cc->freepages[o]);

			if (pfn > high)
				high = pfn;
			rc = o ? cp_buddy_join_pages(b, pfn, o, NULL) : 0;
			CP_BUG_ON(rc);
			rc = cp_buddy_free(b, pfn, o, NULL);
			CP_BUG_ON(rc);
			cp_mem_putback_isolated(c->mem, cc->zi, o);
			cc->nr_freepages -= 1u << o;
		}
		cc->freepages[o].first = 0;
	}
	CP_BUG_ON(cc->nr_freepages);
	high = pageblock_start(high);
	if (high > cz->cached_free_pfn)
		cz->cached_free_pfn = high;
}

/* The vmstat counters of the work cc did since they were last counted
 * (a run counts as it goes: kcompactd's spans engine steps). */
static void count_run(struct cp_compaction *c, struct cp_compact_control *cc, bool daemon)
{
	struct cp_compact_stats *n = &cc->st, *o = &cc->counted;

	count(c, CP_VM_COMPACT_MIGRATE_SCANNED, n->migrate_scanned - o->migrate_scanned);
	count(c, CP_VM_COMPACT_FREE_SCANNED, n->free_scanned - o->free_scanned);
	count(c, CP_VM_COMPACT_ISOLATED, n->isolated - o->isolated);
	count(c, CP_VM_PGMIGRATE_SUCCESS, n->migrated - o->migrated);
	if (daemon) {
		count(c, CP_VM_COMPACT_DAEMON_MIGRATE_SCANNED,
		      n->migrate_scanned - o->migrate_scanned);
		count(c, CP_VM_COMPACT_DAEMON_FREE_SCANNED, n->free_scanned - o->free_scanned);
	}
	*o = *n;
}

/*
 * The start of compact_zone() for the request cc describes (zi, order,
 * mode, migratetype, fs, cpu; proactive: order -1 from the zone's ends,
 * the cached pfns untouched): the suitable test (SUCCESS or SKIPPED end
 * the run before it starts), the skip hints reset for a restarting
 * order, the scanners placed, the per-CPU LRU batches drained.
 * CONTINUE: go on with compact_zone_batches().
 */
static enum cp_compact_result compact_zone_start(struct cp_compaction *c,
						 struct cp_compact_control *cc)
{
	unsigned zi = cc->zi;
	const struct cp_buddy *b = &c->mem->zones[zi].buddy;
	struct cp_compact_zone *cz = &c->zone[zi];
	bool sync = cc->mode != CP_MIGRATE_MODE_ASYNC;
	enum cp_compact_result ret;

	CP_BUG_ON(cc->order > CP_COMPACT_ORDER_ALL || zi >= c->mem->nr_zones);
	memset(&cc->st, 0, sizeof(cc->st));
	memset(&cc->counted, 0, sizeof(cc->counted));
	cc->nr_migrate = 0;
	cc->nr_migratepages = 0;
	CP_BUG_ON(cc->nr_freepages);
	ret = cp_compaction_suitable(c->mem, zi, cc->order, true);
	if (ret == CP_COMPACT_SUCCESS || ret == CP_COMPACT_SKIPPED)
		return ret;
	/* failures deferred the longest, now retried: the hints go (4.11
	 * always; 5.1+ only after a direct compaction's scanners met) */
	if (compaction_restarting(c, zi, cc->order) && (c->skip_4_11 || cz->blockskip_flush))
		reset_isolation_suitable_zone(c, zi);
	if (cc->whole_zone) {
		cc->migrate_pfn = 0;
		cc->free_pfn = zone_free_start(b);
	} else {
		cc->migrate_pfn = cz->cached_migrate_pfn[sync];
		cc->free_pfn = cz->cached_free_pfn;
		if (cc->free_pfn >= b->nr_pages)
			cc->free_pfn = cz->cached_free_pfn = zone_free_start(b);
		if (cc->migrate_pfn >= b->nr_pages)
			cc->migrate_pfn = cz->cached_migrate_pfn[0] = cz->cached_migrate_pfn[1] = 0;
		cc->whole_zone = cc->migrate_pfn <= cz->init_migrate_pfn;
	}
	cc->last_migrated = CP_BUDDY_NONE;
	/* keep the async and sync pfns together until a block with
	 * isolation candidates is found */
	cc->update_cached = !sync && cz->cached_migrate_pfn[0] == cz->cached_migrate_pfn[1];
	cp_lru_add_drain(c->pc, cc->cpu);
	return CP_COMPACT_CONTINUE;
}

/*
 * compact_zone()'s loop for cc, begun by compact_zone_start(): until
 * __compact_finished() ends it, isolate a batch of pages and migrate
 * them. one_batch: return CP_COMPACT_CONTINUE after the first batch that
 * migrated, the run stopped between batches (nothing isolated is held
 * but the free pages, as between the kernel's loop iterations). At the
 * end the unused free pages go back. Counts the work done (daemon: also
 * compact_daemon_*_scanned).
 */
static enum cp_compact_result compact_zone_batches(struct cp_compaction *c,
						   struct cp_compact_control *cc, bool one_batch,
						   bool daemon)
{
	struct cp_compact_zone *cz = &c->zone[cc->zi];
	enum cp_compact_result ret;

	while ((ret = compact_finished(c, cc)) == CP_COMPACT_CONTINUE) {
		bool migrated = false;

		/* still in the block last migrated from (5.1+): finish it */
		cc->finish_pageblock = !c->skip_4_11 && cc->last_migrated != CP_BUDDY_NONE &&
				       cc->last_migrated == pageblock_start(cc->migrate_pfn);
		if (!isolate_migratepages(cc, c)) {
			if (cc->update_cached)
				cz->cached_migrate_pfn[1] = cz->cached_migrate_pfn[0];
		} else {
			cc->update_cached = false;
			cc->last_migrated = pageblock_start(cc->migrate_pfn - 1);
			migrated = true;
			/* -ENOMEM before the scanners met: COMPACT_CONTENDED */
			if (!migrate_pages(c, cc) && !scanners_met(cc)) {
				ret = CP_COMPACT_CONTENDED;
				break;
			}
		}
		/* check_drain: the scanner left the order-aligned block it
		 * migrated from (the kernel drains the per-CPU lists here;
		 * the model drained once at the start) */
		if (cc->order > 0 && cc->order != CP_COMPACT_ORDER_ALL &&
		    cc->last_migrated != CP_BUDDY_NONE &&
		    cc->last_migrated < (cc->migrate_pfn & ~((1u << cc->order) - 1)))
			cc->last_migrated = CP_BUDDY_NONE;
		if (migrated && one_batch) {
			count_run(c, cc, daemon);
			return CP_COMPACT_CONTINUE;
		}
	}
	release_freepages(c, cc);
	count_run(c, cc, daemon);
	CP_DEBUG_CHECK(cp_compaction_check(c));
	return ret;
}

/* compact_zone() for the request cc describes, start to end. */
static enum cp_compact_result compact_zone_cc(struct cp_compaction *c, struct cp_compact_control *cc,
					      bool daemon, struct cp_compact_stats *st)
{
	enum cp_compact_result ret = compact_zone_start(c, cc);

	if (ret == CP_COMPACT_CONTINUE)
		ret = compact_zone_batches(c, cc, false, daemon);
	if (st)
		*st = cc->st;
	return ret;
}

/* The request fields of cc for zone zi, a direct compaction's or not;
 * the rest cleared but the free lists (empty between runs) and the
 * buffers compact_zone_start() sets. The hints are ignored at order -1
 * and by 4.11's kcompactd. */
static void compact_control_init(struct cp_compaction *c, struct cp_compact_control *cc,
				 unsigned zi, unsigned order, enum cp_migrate_mode mode,
				 enum cp_migratetype mt, unsigned gfp, bool direct, int cpu)
{
	cc->zi = zi;
	cc->order = order;
	cc->mode = mode;
	cc->migratetype = mt;
	cc->fs = (gfp & CP_GFP_FS) != 0;
	cc->whole_zone = order == CP_COMPACT_ORDER_ALL;
	cc->direct_compaction = direct;
	cc->ignore_skip_hint = order == CP_COMPACT_ORDER_ALL || (!direct && c->skip_4_11);
	cc->finish_pageblock = false;
	cc->proactive = false;
	cc->kswapd_running = NULL;
	cc->kswapd_priv = NULL;
	cc->cpu = cpu;
}

/* compact_zone() for a request of migratetype mt and gfp, start to end
 * in c->direct: a direct compaction's (compact_zone_order at the async
 * priority: reads the hints), kcompactd's (kcompactd_do_work: reads
 * them 5.1+, ignores them in 4.11), or at CP_COMPACT_ORDER_ALL
 * compact_node()'s (the whole zone from its ends, hints ignored). */
static enum cp_compact_result compact_zone(struct cp_compaction *c, unsigned zi, unsigned order,
					   enum cp_migrate_mode mode, enum cp_migratetype mt,
					   unsigned gfp, bool direct, int cpu,
					   struct cp_compact_stats *st)
{
	struct cp_compact_control *cc = &c->direct;

	compact_control_init(c, cc, zi, order, mode, mt, gfp, direct, cpu);
	return compact_zone_cc(c, cc, false, st);
}

enum cp_compact_result cp_compact_zone(struct cp_compaction *c, unsigned zi, unsigned order,
				       enum cp_migrate_mode mode, int cpu,
				       struct cp_compact_stats *st)
{
	/* gfp_migratetype(GFP_KERNEL) */
	return compact_zone(c, zi, order, mode, CP_MIGRATE_UNMOVABLE, CP_GFP_KERNEL, false, cpu,
			    st);
}

bool cp_kcompactd_node_suitable(const struct cp_compaction *c)
{
	unsigned i;

	for (i = 0; i < c->mem->nr_zones; i++)
		if (cp_compaction_suitable(c->mem, i, c->kcompactd_max_order, true) ==
		    CP_COMPACT_CONTINUE)
			return true;
	return false;
}

void cp_wakeup_kcompactd(struct cp_compaction *c, unsigned order)
{
	if (order == 0)
		return;
	if (c->kcompactd_max_order < order)
		c->kcompactd_max_order = order;
	if (!c->kcompactd_sleeping)
		return;
	if (!cp_kcompactd_node_suitable(c))
		return;
	c->nr_wakeups++;
	if (c->wake) {
		c->kcompactd_sleeping = false;
		c->wake(c->wake_priv);
	}
}

void cp_kcompactd_begin(struct cp_compaction *c, bool proactive,
			bool (*kswapd_running)(void *priv), void *priv)
{
	struct cp_kcompactd_work *k = &c->kcd;

	CP_BUG_ON(k->active);
	k->active = true;
	k->proactive = proactive;
	k->zi = 0;
	k->in_zone = false;
	k->kswapd_running = kswapd_running;
	k->kswapd_priv = priv;
	if (proactive) {
		c->nr_proactive++;
		k->order = CP_COMPACT_ORDER_ALL;
	} else {
		count(c, CP_VM_COMPACT_DAEMON_WAKE, 1);
		k->order = c->kcompactd_max_order;
	}
}

/* The end of kcompactd's compact_zone() of zone k->zi: kcompactd_do_work
 * resets the deferral on success and defers when the scanners met
 * (compact_node(proactive) neither). */
static void kcompactd_zone_done(struct cp_compaction *c, struct cp_kcompactd_work *k,
				enum cp_compact_result status)
{
	k->in_zone = false;
	if (k->proactive)
		return;
	if (status == CP_COMPACT_SUCCESS) {
		cp_compaction_defer_reset(c, k->zi, k->order, false);
		count(c, CP_VM_KCOMPACTD_SUCCESS, 1);
	} else if (status == CP_COMPACT_PARTIAL_SKIPPED || status == CP_COMPACT_COMPLETE) {
		cp_defer_compaction(c, k->zi, k->order);
		count(c, CP_VM_KCOMPACTD_FAIL, 1);
	}
}

/* The zone loop of kcompactd_do_work() / compact_node(): from k->zi up,
 * start compact_zone() of the first zone that is (do_work) neither
 * deferred nor unsuitable at the order (highest_zoneidx the zone) and
 * whose run does not end at its start. false: no zone left. */
static bool kcompactd_start_zone(struct cp_compaction *c, struct cp_kcompactd_work *k, int cpu)
{
	struct cp_compact_control *cc = &k->cc;

	for (; k->order && k->zi < c->mem->nr_zones; k->zi++) {
		enum cp_compact_result status;

		if (!k->proactive) {
			if (cp_compaction_deferred(c, k->zi, k->order) ||
			    cp_compaction_suitable(c->mem, k->zi, k->order, false) !=
				    CP_COMPACT_CONTINUE)
				continue;
			c->nr_compact_zone++;
		}
		/* gfp_migratetype(GFP_KERNEL): UNMOVABLE */
		compact_control_init(c, cc, k->zi, k->order, CP_MIGRATE_MODE_SYNC_LIGHT,
				     CP_MIGRATE_UNMOVABLE, CP_GFP_KERNEL, false, cpu);
		if (k->proactive) {
			cc->proactive = true;
			cc->kswapd_running = k->kswapd_running;
			cc->kswapd_priv = k->kswapd_priv;
		}
		status = compact_zone_start(c, cc);
		if (status == CP_COMPACT_CONTINUE) {
			k->in_zone = true;
			return true;
		}
		kcompactd_zone_done(c, k, status);
	}
	return false;
}

bool cp_kcompactd_work_step(struct cp_compaction *c, int cpu, uint64_t *migrated)
{
	struct cp_kcompactd_work *k = &c->kcd;

	CP_BUG_ON(!k->active);
	*migrated = 0;
	while (k->in_zone || kcompactd_start_zone(c, k, cpu)) {
		uint64_t before = k->cc.st.migrated;
		enum cp_compact_result status;

		k->cc.cpu = cpu;
		status = compact_zone_batches(c, &k->cc, true, true);
		*migrated += k->cc.st.migrated - before;
		if (status == CP_COMPACT_CONTINUE)
			return true;
		kcompactd_zone_done(c, k, status);
		k->zi++;
	}
	/* kcompactd_do_work(): forget the order unless a larger one was
	 * asked meanwhile */
	if (!k->proactive && c->kcompactd_max_order <= k->order)
		c->kcompactd_max_order = 0;
	k->active = false;
	return false;
}

/* The whole of kcompactd's work begun, batch after batch. */
static uint64_t kcompactd_run_to_end(struct cp_compaction *c, int cpu)
{
	uint64_t total = 0, migrated;
	bool more;

	do {
		more = cp_kcompactd_work_step(c, cpu, &migrated);
		total += migrated;
	} while (more);
	return total;
}

uint64_t cp_kcompactd_do_work(struct cp_compaction *c, int cpu)
{
	cp_kcompactd_begin(c, false, NULL, NULL);
	return kcompactd_run_to_end(c, cpu);
}

enum cp_compact_result cp_try_to_compact_pages(struct cp_compaction *c, unsigned order,
					       unsigned gfp, int cpu, uint64_t *migrated)
{
	enum cp_compact_result rc = CP_COMPACT_SKIPPED;
	unsigned zi;

	*migrated = 0;
	/* the zonelist: Normal first, then the lower zones */
	for (zi = c->mem->nr_zones; zi-- > 0;) {
		struct cp_compact_stats st = { 0 };
		enum cp_compact_result status;

		if (cp_compaction_deferred(c, zi, order)) {
			if (rc < CP_COMPACT_DEFERRED)
				rc = CP_COMPACT_DEFERRED;
			continue;
		}
		/* a page-cache folio: gfp_migratetype() MOVABLE */
		status = compact_zone(c, zi, order, CP_MIGRATE_MODE_ASYNC, CP_MIGRATE_MOVABLE, gfp,
				      true, cpu, &st);
		*migrated += st.migrated;
		if (status > rc)
			rc = status;
		if (status == CP_COMPACT_SUCCESS) {
			cp_compaction_defer_reset(c, zi, order, false);
			break;
		}
		/* the async priority does not defer */
	}
	return rc;
}

unsigned cp_fragmentation_score_zone(const struct cp_buddy *b)
{
	uint64_t free_pages = 0, suitable = 0;
	unsigned o;

	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
		free_pages += b->nr_free[o] << o;
		if (o >= CP_BUDDY_PAGEBLOCK_ORDER)
			suitable += b->nr_free[o] << o;
	}
	if (!free_pages)
		return 0;
	return (unsigned)((free_pages - suitable) * 100 / free_pages);
}

unsigned cp_fragmentation_score_node(const struct cp_compaction *c)
{
	uint64_t present = 0, score = 0;
	unsigned i;

	for (i = 0; i < c->mem->nr_zones; i++)
		present += c->mem->zones[i].managed_pages;
	for (i = 0; i < c->mem->nr_zones; i++)
		score += c->mem->zones[i].managed_pages *
			 cp_fragmentation_score_zone(&c->mem->zones[i].buddy) / (present + 1);
	return (unsigned)score;
}

unsigned cp_fragmentation_score_wmark(unsigned proactiveness, bool low)
{
	unsigned wmark_low = proactiveness < 95 ? 100 - proactiveness : 5;

	if (low)
		return wmark_low;
	return wmark_low + 10 < 100 ? wmark_low + 10 : 100;
}

bool cp_should_proactive_compact_node(const struct cp_compaction *c, bool kswapd_running)
{
	if (!c->proactiveness || kswapd_running)
		return false;
	return cp_fragmentation_score_node(c) > cp_fragmentation_score_wmark(c->proactiveness, false);
}

uint64_t cp_proactive_compact_node(struct cp_compaction *c, int cpu,
				   bool (*kswapd_running)(void *priv), void *priv)
{
	cp_kcompactd_begin(c, true, kswapd_running, priv);
	return kcompactd_run_to_end(c, cpu);
}

/* The isolated free pages on cc's lists add up to cc->nr_freepages. */
static bool freelists_check(const struct cp_compact_control *cc)
{
	uint64_t pages = 0;
	unsigned o;

	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
		if (cc->freepages[o].nr > CP_COMPACT_FREELIST_CAP)
			return false;
		pages += (uint64_t)cc->freepages[o].nr << o;
	}
	return pages == cc->nr_freepages;
}

bool cp_compaction_check(const struct cp_compaction *c)
{
	unsigned i;

	for (i = 0; i < c->mem->nr_zones; i++) {
		const struct cp_buddy *b = &c->mem->zones[i].buddy;
		const struct cp_compact_zone *cz = &c->zone[i];

		/* the cached migrate pfns may pass the zone's end
		 * (update_cached_migrate); compact_zone() restarts them */
		if (cz->cached_free_pfn >= b->nr_pages || cz->init_migrate_pfn >= b->nr_pages ||
		    cz->compact_defer_shift > CP_COMPACT_MAX_DEFER_SHIFT ||
		    cz->compact_considered > (1u << cz->compact_defer_shift) ||
		    cz->compact_order_failed > CP_BUDDY_MAX_ORDER)
			return false;
	}
	/* free pages stay isolated only in kcompactd's run under way */
	if (c->direct.nr_freepages || !freelists_check(&c->direct) || !freelists_check(&c->kcd.cc) ||
	    (!c->kcd.in_zone && c->kcd.cc.nr_freepages) || (c->kcd.in_zone && !c->kcd.active))
		return false;
	return c->kcompactd_max_order < CP_BUDDY_MAX_ORDER;
}
