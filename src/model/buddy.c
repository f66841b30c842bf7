/*
 * buddy.c - the buddy page allocator of one zone.
 *
 * Mechanism (mm/page_alloc.c, Linux 6.1; 4.11 differences below). Free
 * memory is kept as naturally aligned blocks of 2^order pages, order 0 to
 * 10 (MAX_ORDER 11), each on the free list of its order and of a
 * migratetype (UNMOVABLE, MOVABLE, RECLAIMABLE). The zone is cut into
 * pageblocks of 2^9 pages (pageblock_order on x86-64), each with a
 * migratetype of its own; a page being freed goes to the list of its
 * pageblock's type, so pageblocks keep pages of one kind together and
 * large blocks can form again (anti-fragmentation).
 *
 * - Allocation (__rmqueue): __rmqueue_smallest() takes the first block of
 *   the smallest order >= the request on the requested type's lists and
 *   expand() puts the unused halves back, one block of each order from
 *   the request up to the block's order minus one. When those lists are
 *   empty, __rmqueue_fallback() looks at the other types in the order of
 *   fallbacks[] (UNMOVABLE: RECLAIMABLE, MOVABLE; MOVABLE: RECLAIMABLE,
 *   UNMOVABLE; RECLAIMABLE: UNMOVABLE, MOVABLE) from the largest order
 *   down (find_suitable_fallback), since a large free block suggests a
 *   mostly free pageblock. can_steal_fallback() lets it take the whole
 *   pageblock when the block is of order >= pageblock_order / 2 or the
 *   request is UNMOVABLE or RECLAIMABLE; a MOVABLE request that may not
 *   steal takes the smallest suitable block instead. steal_suitable_
 *   fallback(): a block of order >= pageblock_order changes the type of
 *   all its pageblocks (change_pageblock_range); a smaller one raises the
 *   watermark boost (boost_watermark), then, if it may steal, moves all
 *   free blocks of its pageblock to the requested type's lists
 *   (move_freepages_block) and claims the pageblock when the free pages
 *   plus the allocated pages "alike" the request are at least half of it;
 *   otherwise only that block moves. Then __rmqueue_smallest() runs again
 *   on the requested type. Every fallback is a mm_page_alloc_extfrag
 *   event.
 * - Free (__free_one_page): while the buddy (pfn ^ 2^order) is a free
 *   block of the same order, take it off its list and merge, up to order
 *   10. 6.1 refuses a merge at order >= pageblock_order only when one of
 *   the two pageblock types is not mergeable (ISOLATE, CMA, HIGHATOMIC:
 *   migratetype_is_mergeable); our three types are all mergeable, so
 *   merges are never refused. The result goes on the list of the freed
 *   page's pageblock type (the migratetype __free_pages_ok passes), at
 *   the head, or at the tail when the next-larger buddy is free too
 *   (buddy_merge_likely: it may merge further soon, so use it last).
 * - Watermarks (__zone_watermark_ok): free pages minus 2^order - 1 must
 *   be above the mark, and a high-order request needs a free block of at
 *   least its order on one of the three lists.
 * - boost_watermark(): a fallback below pageblock_order raises
 *   zone->watermark_boost by a pageblock, capped at max(pageblock,
 *   high * watermark_boost_factor / 10000), unless the zone is smaller
 *   than four pageblocks; with ALLOC_KSWAPD it sets
 *   ZONE_BOOSTED_WATERMARK so rmqueue() wakes kswapd.
 * - Boot (memmap_init, memblock_free_all -> __free_pages_memory): every
 *   pageblock MOVABLE, then the memory memblock did not reserve freed in
 *   blocks as large as alignment allows, in ascending pfn, to the list
 *   tail (FPI_TO_TAIL), so the lowest pfns are allocated first.
 *
 * 6.15+ (claim_steal; c2f6ea38fc1b "don't steal single pages from
 * biggest buddy", 90abee6d7895 "speed up fallbacks in rmqueue_bulk()",
 * on top of 6.10's freelist hygiene c0cd6f557b90; read in the 6.12.y
 * backport, Debian linux-source-6.12 6.12.117): the fallback is two
 * stages. __rmqueue_claim() looks from the largest order down, stopping
 * at the first order too small to claim (can_steal_fallback false), at
 * one candidate block per order: try_to_claim_block() retypes a block of
 * a pageblock or more whole; a smaller one raises the boost first (even
 * when the claim then fails) and claims its pageblock - every free block
 * moved, the type changed - at the same half rule, or does nothing. Then
 * __rmqueue_steal(), not under ALLOC_NOFRAGMENT, takes the request out of
 * the SMALLEST free block of another type, the rest staying on that
 * type's lists: no boost, no move, no retyping, one extfrag event per
 * request. __rmqueue() remembers the stage that found pages across a
 * rmqueue_bulk() batch (enum cp_buddy_rmqueue_mode: after a steal the
 * batch only steals). 6.10's merge fix-up: a merge at order >=
 * pageblock_order retypes the buddy's pageblocks to the freed page's
 * type, so free lists always match pageblock types.
 *
 * 4.11 (kernel_4_11): no watermark boost and no ALLOC_NOFRAGMENT (both
 * 5.0); __rmqueue_fallback() takes the largest block even for a MOVABLE
 * request that may not steal (find_smallest is 7a8f58f39188, 4.13) and
 * does not move it to the requested type's list: it steals when allowed,
 * then removes that very block and expand()s it onto the requested
 * type's lists (the retry through __rmqueue_smallest is 3bc48f96cf11,
 * after 4.11); stealing claims the pageblock when the free pages moved
 * are at least half of it (the movable/alike count is "mm, page_alloc:
 * count movable pages when stealing from pageblock", 2017, after 4.11);
 * move_freepages() and the boot frees put blocks at the list head (tail
 * since 293ffa5ebb9c and 7fef431be9c9, 5.10). fallbacks[],
 * can_steal_fallback(), expand(), merging, buddy_merge_likely and the
 * watermark test are the same. The 4.11 __rmqueue_fallback() was checked
 * against a quoted copy of the 4.11 function; the rest of the 4.11 rules
 * come from those commits' diffs, not from a 4.11 tree.
 *
 * SIMPLIFIED:
 * - One zone. The per-CPU page lists are pcp.c's, called by memory.c
 *   before this file: pages on them are allocated pages here.
 * - No HIGHATOMIC reserve, CMA, ISOLATE, guard pages, page reporting or
 *   free-list shuffling; page_group_by_mobility_disabled is false.
 * - The "alike" count of steal_suitable_fallback(): the kernel counts
 *   pages that are PageLRU or __PageMovable (move_freepages); we count
 *   the allocated pages whose allocation asked for MOVABLE. Reserved
 *   pages are UNMOVABLE.
 * - The kernel's memory (memblock reservations) is allocated order-0
 *   UNMOVABLE pages; zones start at pfn 0 and have no holes.
 * - ALLOC_NOFRAGMENT is a flag the caller passes; the kernel sets it when
 *   a lower zone exists (alloc_flags_nofragment) and retries without it.
 *
 * Representation: per pfn a state byte (head of a free block, head of an
 * allocated block, or a page inside a block; order; migratetype: the
 * list's for a free block, the request's for an allocated one) and two
 * uint32 links used only by free block heads. The blocks always tile the
 * zone, so a pageblock can be walked block by block.
 */
#include "model/buddy.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"

/* The sanitizer build runs cp_buddy_check() after every operation on
 * zones up to this size (it is O(nr_pages)). */
#define DEBUG_CHECK_MAX_PAGES 8192u

/* State byte: bits 0-3 order, bits 4-5 migratetype, bits 6-7 kind. */
#define ST_TAIL 0u  /* inside a block, not its head */
#define ST_FREE 1u  /* head of a free block (PageBuddy) */
#define ST_ALLOC 2u /* head of an allocated block */

static inline unsigned st_kind(uint8_t s)
{
	return (unsigned)s >> 6;
}

static inline unsigned st_order(uint8_t s)
{
	return s & 0xfu;
}

static inline unsigned st_mt(uint8_t s)
{
	return ((unsigned)s >> 4) & 0x3u;
}

static inline uint8_t st_make(unsigned kind, unsigned order, unsigned mt)
{
	return (uint8_t)((kind << 6) | (mt << 4) | order);
}

/* mm/page_alloc.c fallbacks[]: the types to steal from, in order. */
static const enum cp_migratetype fallbacks[CP_MIGRATE_TYPES][2] = {
	[CP_MIGRATE_UNMOVABLE] = { CP_MIGRATE_RECLAIMABLE, CP_MIGRATE_MOVABLE },
	[CP_MIGRATE_MOVABLE] = { CP_MIGRATE_RECLAIMABLE, CP_MIGRATE_UNMOVABLE },
	[CP_MIGRATE_RECLAIMABLE] = { CP_MIGRATE_UNMOVABLE, CP_MIGRATE_MOVABLE },
};

static bool is_free_head(const struct cp_buddy *b, uint32_t pfn, unsigned order)
{
	uint8_t s;

	if (pfn >= b->nr_pages)
		return false;
	s = b->state[pfn];
	return st_kind(s) == ST_FREE && st_order(s) == order;
}

/* add_to_free_list() / add_to_free_list_tail(): pfn heads a block of
 * order that is not on any list yet. */
static void list_add_block(struct cp_buddy *b, uint32_t pfn, unsigned order, unsigned mt,
			   bool to_tail)
{
	struct cp_buddy_list *l = &b->free_area[order][mt];

	b->state[pfn] = st_make(ST_FREE, order, mt);
	if (l->head == CP_BUDDY_NONE) {
		b->next[pfn] = b->prev[pfn] = CP_BUDDY_NONE;
		l->head = l->tail = pfn;
	} else if (to_tail) {
		b->prev[pfn] = l->tail;
		b->next[pfn] = CP_BUDDY_NONE;
		b->next[l->tail] = pfn;
		l->tail = pfn;
	} else {
		b->next[pfn] = l->head;
		b->prev[pfn] = CP_BUDDY_NONE;
		b->prev[l->head] = pfn;
		l->head = pfn;
	}
	l->nr++;
	b->nr_free[order]++;
	b->nr_free_pages += 1u << order;
}

/* del_page_from_free_list(): the block at pfn leaves its list; its head
 * becomes an ordinary page (the caller gives it a new state). */
static void list_del_block(struct cp_buddy *b, uint32_t pfn)
{
	uint8_t s = b->state[pfn];
	unsigned order = st_order(s);
	struct cp_buddy_list *l = &b->free_area[order][st_mt(s)];
	uint32_t n = b->next[pfn], p = b->prev[pfn];

	CP_BUG_ON(st_kind(s) != ST_FREE || l->nr == 0);
	if (p == CP_BUDDY_NONE)
		l->head = n;
	else
		b->next[p] = n;
	if (n == CP_BUDDY_NONE)
		l->tail = p;
	else
		b->prev[n] = p;
	l->nr--;
	b->nr_free[order]--;
	b->nr_free_pages -= 1u << order;
	b->state[pfn] = st_make(ST_TAIL, 0, 0);
}

/* move_to_free_list(): same block, list of another type (6.1: tail). */
static void list_move_block(struct cp_buddy *b, uint32_t pfn, unsigned mt, bool to_tail)
{
	unsigned order = st_order(b->state[pfn]);

	list_del_block(b, pfn);
	list_add_block(b, pfn, order, mt, to_tail);
}

static inline unsigned pageblock_mt(const struct cp_buddy *b, uint32_t pfn)
{
	return b->pageblock_mt[pfn >> CP_BUDDY_PAGEBLOCK_ORDER];
}

/*
 * buddy_merge_likely(): after merging up to order at pfn (buddy_pfn the
 * last buddy looked at), is the next-larger block's buddy free? Then this
 * block may merge twice once its buddy is freed, so it goes to the tail.
 */
static bool merge_likely(const struct cp_buddy *b, uint32_t pfn, uint32_t buddy_pfn,
			 unsigned order)
{
	uint32_t higher_pfn, higher_buddy;

	if (order >= CP_BUDDY_MAX_ORDER - 2)
		return false;
	higher_pfn = buddy_pfn & pfn;
	higher_buddy = higher_pfn ^ (1u << (order + 1));
	return is_free_head(b, higher_buddy, order + 1);
}

static void match_buddy_type(struct cp_buddy *b, uint32_t buddy_pfn, unsigned order,
			     unsigned mt);

/*
 * __free_one_page(): pfn heads 2^order pages that are now free and on no
 * list (state: not a head). Merge with free buddies, then list the result
 * under migratetype mt. to_tail: FPI_TO_TAIL.
 */
static void free_one(struct cp_buddy *b, uint32_t pfn, unsigned order, unsigned mt, bool to_tail)
{
	uint32_t buddy_pfn = 0;

	CP_BUG_ON(pfn & ((1u << order) - 1));
	while (order < CP_BUDDY_MAX_ORDER - 1) {
		buddy_pfn = pfn ^ (1u << order);
		if (!is_free_head(b, buddy_pfn, order))
			break;
		/* 6.1: at order >= pageblock_order a merge is refused only for
		 * unmergeable types (ISOLATE/CMA/HIGHATOMIC), which we lack. */
		list_del_block(b, buddy_pfn);
		/* 6.10+: a buddy of pageblocks of another type takes the freed
		 * page's type, so free lists match pageblock types */
		if (b->claim_steal && order >= CP_BUDDY_PAGEBLOCK_ORDER)
			match_buddy_type(b, buddy_pfn, order, mt);
		pfn &= buddy_pfn;
		order++;
	}
	if (!to_tail)
		to_tail = merge_likely(b, pfn, buddy_pfn, order);
	list_add_block(b, pfn, order, mt, to_tail);
}

/* expand(): the block at pfn of order high was taken for an allocation of
 * order low; list the upper halves, largest first, under mt. */
static void expand(struct cp_buddy *b, uint32_t pfn, unsigned low, unsigned high, unsigned mt)
{
	while (high > low) {
		high--;
		list_add_block(b, pfn + (1u << high), high, mt, false);
	}
}

/* __rmqueue_smallest(): CP_BUDDY_NONE when mt has no block >= order. */
static uint32_t rmqueue_smallest(struct cp_buddy *b, unsigned order, unsigned mt)
{
	unsigned o;

	for (o = order; o < CP_BUDDY_MAX_ORDER; o++) {
		uint32_t pfn = b->free_area[o][mt].head;

		if (pfn == CP_BUDDY_NONE)
			continue;
		list_del_block(b, pfn);
		expand(b, pfn, order, o, mt);
		return pfn;
	}
	return CP_BUDDY_NONE;
}

/* can_steal_fallback() (page_group_by_mobility_disabled is false). */
static bool can_steal_fallback(unsigned order, unsigned start_mt)
{
	if (order >= CP_BUDDY_PAGEBLOCK_ORDER)
		return true;
	return order >= CP_BUDDY_PAGEBLOCK_ORDER / 2 || start_mt == CP_MIGRATE_RECLAIMABLE ||
	       start_mt == CP_MIGRATE_UNMOVABLE;
}

/* find_suitable_fallback(..., only_stealable = false): the first type in
 * fallbacks[start_mt] with a free block of order, or -1. */
static int find_suitable_fallback(const struct cp_buddy *b, unsigned order, unsigned start_mt,
				  bool *can_steal)
{
	unsigned i;

	if (b->nr_free[order] == 0)
		return -1;
	*can_steal = false;
	for (i = 0; i < 2; i++) {
		unsigned mt = fallbacks[start_mt][i];

		if (b->free_area[order][mt].nr == 0)
			continue;
		if (can_steal_fallback(order, start_mt))
			*can_steal = true;
		return (int)mt;
	}
	return -1;
}

/* change_pageblock_range(): every pageblock of the block at pfn. */
static void change_pageblock_range(struct cp_buddy *b, uint32_t pfn, unsigned order, unsigned mt)
{
	uint32_t pb = pfn >> CP_BUDDY_PAGEBLOCK_ORDER;
	uint32_t n = 1u << (order - CP_BUDDY_PAGEBLOCK_ORDER), i;

	for (i = 0; i < n; i++) {
		if (b->pageblock_mt[pb + i] != mt)
			b->nr_pageblocks_claimed++;
		b->pageblock_mt[pb + i] = (uint8_t)mt;
	}
}

/* __free_one_page() (6.10+, "fix up block types when merging compatible
 * blocks"): the buddy's pageblocks take the type of the page being
 * freed. Not a fallback: not counted as claimed. */
static void match_buddy_type(struct cp_buddy *b, uint32_t buddy_pfn, unsigned order, unsigned mt)
{
	uint32_t pb = buddy_pfn >> CP_BUDDY_PAGEBLOCK_ORDER;
	uint32_t n = 1u << (order - CP_BUDDY_PAGEBLOCK_ORDER), i;

	for (i = 0; i < n; i++)
		b->pageblock_mt[pb + i] = (uint8_t)mt;
}

/* set_pageblock_migratetype() of the pageblock holding pfn. */
static void set_pageblock_mt(struct cp_buddy *b, uint32_t pfn, unsigned mt)
{
	uint8_t *p = &b->pageblock_mt[pfn >> CP_BUDDY_PAGEBLOCK_ORDER];

	if (*p != mt)
		b->nr_pageblocks_claimed++;
	*p = (uint8_t)mt;
}

/*
 * The free and the movable pages of the pageblock holding pfn (6.10+
 * prep_move_freepages_block; 6.1 counts as move_freepages_block moves):
 * returns the free pages, and in *movable the allocated pages of MOVABLE
 * allocations (SIMPLIFIED: the kernel's PageLRU || __PageMovable). With
 * move_to >= 0 every free block also moves to that type's lists
 * (move_freepages_block). 0 when the pageblock reaches past the zone.
 */
static uint32_t scan_pageblock(struct cp_buddy *b, uint32_t pfn, int move_to, uint32_t *movable)
{
	uint32_t start = pfn & ~(CP_BUDDY_PAGEBLOCK_PAGES - 1);
	uint32_t end = start + CP_BUDDY_PAGEBLOCK_PAGES; /* exclusive */
	uint32_t nr_free = 0, p = start;

	*movable = 0;
	if (end > b->nr_pages)
		return 0; /* the kernel: !zone_spans_pfn(zone, end_pfn) */
	while (p < end) {
		uint8_t s = b->state[p];
		unsigned order = st_order(s);

		/* The pageblock holds a free block below pageblock_order, so
		 * blocks inside it start at its first page and tile it. */
		CP_BUG_ON(st_kind(s) == ST_TAIL || p + (1u << order) > end);
		if (st_kind(s) == ST_FREE) {
			if (move_to >= 0)
				list_move_block(b, p, (unsigned)move_to, !b->kernel_4_11);
			nr_free += 1u << order;
		} else if (st_mt(s) == CP_MIGRATE_MOVABLE) {
			*movable += 1u << order;
		}
		p += 1u << order;
	}
	return nr_free;
}

/* move_freepages_block(): move every free block of the pageblock holding
 * pfn to mt's lists; returns the free pages moved (see scan_pageblock). */
static uint32_t move_freepages_block(struct cp_buddy *b, uint32_t pfn, unsigned mt,
				     uint32_t *movable)
{
	return scan_pageblock(b, pfn, (int)mt, movable);
}

/* boost_watermark(): true when the boost was raised. */
static bool boost_watermark(struct cp_buddy *b)
{
	uint64_t max_boost;

	if (b->boost_cap_pages == 0) /* factor 0, or no high watermark yet */
		return false;
	if ((uint64_t)CP_BUDDY_PAGEBLOCK_PAGES * 4 > b->managed_pages)
		return false;
	max_boost = b->boost_cap_pages;
	if (max_boost < CP_BUDDY_PAGEBLOCK_PAGES)
		max_boost = CP_BUDDY_PAGEBLOCK_PAGES;
	b->watermark_boost += CP_BUDDY_PAGEBLOCK_PAGES;
	if (b->watermark_boost > max_boost)
		b->watermark_boost = max_boost;
	b->nr_boost++;
	return true;
}

/* steal_suitable_fallback() (6.1): pfn heads a free block of another
 * type that an allocation of start_mt is about to use. */
static void steal_suitable_fallback(struct cp_buddy *b, uint32_t pfn, unsigned alloc_flags,
				    unsigned start_mt, bool whole_block)
{
	unsigned order = st_order(b->state[pfn]);
	unsigned old_mt = pageblock_mt(b, pfn);
	uint32_t free_pages, movable_pages, alike_pages;

	if (order >= CP_BUDDY_PAGEBLOCK_ORDER) {
		change_pageblock_range(b, pfn, order, start_mt);
		goto single_page;
	}
	if (boost_watermark(b) && (alloc_flags & CP_BUDDY_ALLOC_KSWAPD))
		b->boosted = true;
	if (!whole_block)
		goto single_page;

	free_pages = move_freepages_block(b, pfn, start_mt, &movable_pages);
	if (start_mt == CP_MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (old_mt == CP_MIGRATE_MOVABLE)
		alike_pages = CP_BUDDY_PAGEBLOCK_PAGES - (free_pages + movable_pages);
	else
		alike_pages = 0; /* UNMOVABLE vs RECLAIMABLE: cannot tell */
	if (!free_pages)
		goto single_page; /* pageblock past the zone end */
	if (free_pages + alike_pages >= CP_BUDDY_PAGEBLOCK_PAGES / 2)
		set_pageblock_mt(b, pfn, start_mt);
	return;

single_page:
	list_move_block(b, pfn, start_mt, true);
}

/* trace_mm_page_alloc_extfrag's change_ownership: the pageblock of the
 * page handed out is of the request's type after the fallback. */
static void count_claim(struct cp_buddy *b, uint32_t pfn, unsigned start_mt)
{
	if (pageblock_mt(b, pfn) != start_mt)
		return;
	b->nr_claim++;
	if (start_mt == CP_MIGRATE_MOVABLE)
		b->nr_claim_movable++;
}

static void count_extfrag(struct cp_buddy *b, unsigned fallback_order, uint32_t pfn,
			  unsigned start_mt)
{
	b->nr_extfrag++; /* trace_mm_page_alloc_extfrag */
	if (fallback_order < CP_BUDDY_PAGEBLOCK_ORDER)
		b->nr_extfrag_fragmenting++;
	count_claim(b, pfn, start_mt);
}

/* __rmqueue_fallback() (6.1): move a block of another type to
 * start_mt's lists; false when there is none. */
static bool rmqueue_fallback(struct cp_buddy *b, unsigned order, unsigned start_mt,
			     unsigned alloc_flags)
{
	int o, min_order = (int)order, fallback_mt = -1;
	bool can_steal = false;
	uint32_t head;

	if (order < CP_BUDDY_PAGEBLOCK_ORDER && (alloc_flags & CP_BUDDY_ALLOC_NOFRAGMENT))
		min_order = CP_BUDDY_PAGEBLOCK_ORDER;

	/* The largest free block of another type first. */
	for (o = CP_BUDDY_MAX_ORDER - 1; o >= min_order; o--) {
		fallback_mt = find_suitable_fallback(b, (unsigned)o, start_mt, &can_steal);
		if (fallback_mt >= 0)
			break;
	}
	if (fallback_mt < 0)
		return false;

	/* A MOVABLE request that cannot take the pageblock splits the
	 * smallest block instead: no lasting harm to another pageblock. */
	if (!can_steal && start_mt == CP_MIGRATE_MOVABLE && o > (int)order) {
		for (o = (int)order; o < CP_BUDDY_MAX_ORDER; o++) {
			fallback_mt = find_suitable_fallback(b, (unsigned)o, start_mt, &can_steal);
			if (fallback_mt >= 0)
				break;
		}
		CP_BUG_ON(o == CP_BUDDY_MAX_ORDER);
	}

	head = b->free_area[o][fallback_mt].head;
	steal_suitable_fallback(b, head, alloc_flags, start_mt, can_steal);
	count_extfrag(b, (unsigned)o, head, start_mt);
	return true;
}

/* __rmqueue_fallback() of 4.11: take the largest block of another type,
 * claiming its pageblock when allowed; returns its pfn, the remainder
 * listed under start_mt, or CP_BUDDY_NONE. */
static uint32_t rmqueue_fallback_4_11(struct cp_buddy *b, unsigned order, unsigned start_mt)
{
	int o;

	for (o = CP_BUDDY_MAX_ORDER - 1; o >= (int)order; o--) {
		bool can_steal;
		int fallback_mt = find_suitable_fallback(b, (unsigned)o, start_mt, &can_steal);
		uint32_t pfn, movable;

		if (fallback_mt < 0)
			continue;
		pfn = b->free_area[o][fallback_mt].head;
		if (can_steal) {
			/* 4.11 steal_suitable_fallback() */
			if (o >= CP_BUDDY_PAGEBLOCK_ORDER)
				change_pageblock_range(b, pfn, (unsigned)o, start_mt);
			else if (move_freepages_block(b, pfn, start_mt, &movable) >=
				 CP_BUDDY_PAGEBLOCK_PAGES / 2)
				set_pageblock_mt(b, pfn, start_mt);
		}
		list_del_block(b, pfn);
		expand(b, pfn, order, (unsigned)o, start_mt);
		count_extfrag(b, (unsigned)o, pfn, start_mt);
		return pfn;
	}
	return CP_BUDDY_NONE;
}

/* The "alike" pages of steal_suitable_fallback / try_to_claim_block: the
 * allocated pages that suit a request of start_mt in a pageblock of
 * block_mt. */
static uint32_t alike_pages(unsigned start_mt, unsigned block_mt, uint32_t nr_free,
			    uint32_t nr_movable)
{
	if (start_mt == CP_MIGRATE_MOVABLE)
		return nr_movable;
	if (block_mt == CP_MIGRATE_MOVABLE)
		return CP_BUDDY_PAGEBLOCK_PAGES - (nr_free + nr_movable);
	return 0; /* UNMOVABLE vs RECLAIMABLE: cannot tell */
}


/*
 * try_to_claim_block() (6.15+; try_to_steal_block in the 6.12.y backport):
 * the free block at pfn, of current_order and another type, for a request
 * of order and start_mt. A block of a pageblock or more becomes start_mt
 * whole; a smaller one first raises the boost (even if the claim then
 * fails), and its pageblock is claimed - every free block moved to
 * start_mt's lists, the pageblock retyped - when free plus alike pages
 * are at least half of it. Returns the allocated pfn, or CP_BUDDY_NONE
 * with nothing moved.
 */
static uint32_t try_to_claim_block(struct cp_buddy *b, uint32_t pfn, unsigned current_order,
				   unsigned order, unsigned start_mt, unsigned alloc_flags)
{
	unsigned block_mt = pageblock_mt(b, pfn);
	uint32_t nr_free, nr_movable;

	if (current_order >= CP_BUDDY_PAGEBLOCK_ORDER) {
		list_del_block(b, pfn);
		change_pageblock_range(b, pfn, current_order, start_mt);
		expand(b, pfn, order, current_order, start_mt);
		return pfn;
	}
	if (boost_watermark(b) && (alloc_flags & CP_BUDDY_ALLOC_KSWAPD))
		b->boosted = true;
	nr_free = scan_pageblock(b, pfn, -1, &nr_movable);
	if (nr_free == 0) /* pageblock past the zone end */
		return CP_BUDDY_NONE;
	if (nr_free + alike_pages(start_mt, block_mt, nr_free, nr_movable) <
	    CP_BUDDY_PAGEBLOCK_PAGES / 2)
		return CP_BUDDY_NONE;
	move_freepages_block(b, pfn, start_mt, &nr_movable);
	set_pageblock_mt(b, pfn, start_mt);
	return rmqueue_smallest(b, order, start_mt);
}

/* __rmqueue_claim() (6.15+): the largest free block of another type
 * first; stop at the first order too small to claim (can_steal_fallback
 * false); one candidate block per order. */
static uint32_t rmqueue_claim(struct cp_buddy *b, unsigned order, unsigned start_mt,
			      unsigned alloc_flags)
{
	int o, min_order = (int)order;

	if (order < CP_BUDDY_PAGEBLOCK_ORDER && (alloc_flags & CP_BUDDY_ALLOC_NOFRAGMENT))
		min_order = CP_BUDDY_PAGEBLOCK_ORDER;
	for (o = CP_BUDDY_MAX_ORDER - 1; o >= min_order; o--) {
		bool can_steal;
		int fallback_mt = find_suitable_fallback(b, (unsigned)o, start_mt, &can_steal);
		uint32_t pfn;

		if (fallback_mt < 0)
			continue;
		if (!can_steal)
			break;
		pfn = try_to_claim_block(b, b->free_area[o][fallback_mt].head, (unsigned)o, order,
					 start_mt, alloc_flags);
		if (pfn != CP_BUDDY_NONE) {
			count_extfrag(b, (unsigned)o, pfn, start_mt);
			return pfn;
		}
	}
	return CP_BUDDY_NONE;
}

/* __rmqueue_steal() (6.15+): the request's pages out of the smallest free
 * block of another type; the rest of that block stays on its type's
 * lists, the pageblock keeps its type, no boost. */
static uint32_t rmqueue_steal(struct cp_buddy *b, unsigned order, unsigned start_mt)
{
	unsigned o;

	for (o = order; o < CP_BUDDY_MAX_ORDER; o++) {
		bool can_steal;
		int fallback_mt = find_suitable_fallback(b, o, start_mt, &can_steal);
		uint32_t pfn;

		if (fallback_mt < 0)
			continue;
		pfn = b->free_area[o][fallback_mt].head;
		list_del_block(b, pfn);
		expand(b, pfn, order, o, (unsigned)fallback_mt);
		count_extfrag(b, o, pfn, start_mt);
		b->nr_steal++;
		return pfn;
	}
	return CP_BUDDY_NONE;
}

/* __rmqueue() (6.15+): from the stage *mode names on - the request's own
 * lists, claiming a block, stealing pages (not under ALLOC_NOFRAGMENT) -
 * and remember where pages were found: a claim refilled the own lists
 * (back to NORMAL), a steal means they are empty (STEAL from now on). */
static uint32_t rmqueue_mode(struct cp_buddy *b, unsigned order, unsigned mt, unsigned alloc_flags,
			     enum cp_buddy_rmqueue_mode *mode)
{
	uint32_t pfn;

	switch (*mode) {
	case CP_RMQUEUE_NORMAL:
		pfn = rmqueue_smallest(b, order, mt);
		if (pfn != CP_BUDDY_NONE)
			return pfn;
		/* fall through */
	case CP_RMQUEUE_CLAIM:
		pfn = rmqueue_claim(b, order, mt, alloc_flags);
		if (pfn != CP_BUDDY_NONE) {
			*mode = CP_RMQUEUE_NORMAL;
			return pfn;
		}
		/* fall through */
	case CP_RMQUEUE_STEAL:
		if (!(alloc_flags & CP_BUDDY_ALLOC_NOFRAGMENT)) {
			pfn = rmqueue_steal(b, order, mt);
			if (pfn != CP_BUDDY_NONE) {
				*mode = CP_RMQUEUE_STEAL;
				return pfn;
			}
		}
	}
	return CP_BUDDY_NONE;
}

int cp_buddy_alloc_mode(struct cp_buddy *b, unsigned order, enum cp_migratetype mt,
			unsigned alloc_flags, enum cp_buddy_rmqueue_mode *mode, uint32_t *pfn)
{
	uint32_t p;

	if (order >= CP_BUDDY_MAX_ORDER || (unsigned)mt >= CP_MIGRATE_TYPES ||
	    (unsigned)*mode > CP_RMQUEUE_STEAL)
		return -CP_EINVAL;
	if (b->claim_steal) {
		p = rmqueue_mode(b, order, mt, alloc_flags, mode);
	} else {
		for (;;) {
			p = rmqueue_smallest(b, order, mt);
			if (p != CP_BUDDY_NONE)
				break;
			if (b->kernel_4_11) {
				p = rmqueue_fallback_4_11(b, order, mt);
				break;
			}
			if (!rmqueue_fallback(b, order, mt, alloc_flags))
				break;
		}
	}
	if (p == CP_BUDDY_NONE)
		return -CP_ENOSPC;
	b->state[p] = st_make(ST_ALLOC, order, mt);
	b->nr_allocated_pages += 1u << order;
	*pfn = p;
	CP_DEBUG_CHECK(b->nr_pages > DEBUG_CHECK_MAX_PAGES || cp_buddy_check(b));
	return 0;
}

int cp_buddy_alloc(struct cp_buddy *b, unsigned order, enum cp_migratetype mt,
		   unsigned alloc_flags, uint32_t *pfn)
{
	enum cp_buddy_rmqueue_mode mode = CP_RMQUEUE_NORMAL;

	return cp_buddy_alloc_mode(b, order, mt, alloc_flags, &mode, pfn);
}

/* The block at pfn must be allocated at exactly order. */
static int check_allocated(const struct cp_buddy *b, uint32_t pfn, unsigned order,
			   struct cp_diag *diag)
{
	uint8_t s;

	if (pfn >= b->nr_pages)
		return cp_diag_set(diag, -CP_EINVAL, "pfn %u out of range: the zone has %u pages",
				   pfn, b->nr_pages);
	if (order >= CP_BUDDY_MAX_ORDER)
		return cp_diag_set(diag, -CP_EINVAL, "order %u of pfn %u: the largest is %u", order,
				   pfn, CP_BUDDY_MAX_ORDER - 1);
	s = b->state[pfn];
	if (st_kind(s) == ST_FREE)
		return cp_diag_set(diag, -CP_EINVAL, "pfn %u is already free (order %u)", pfn,
				   st_order(s));
	if (st_kind(s) != ST_ALLOC)
		return cp_diag_set(diag, -CP_EINVAL, "pfn %u is not the first page of a block",
				   pfn);
	if (st_order(s) != order)
		return cp_diag_set(diag, -CP_EINVAL, "pfn %u was allocated at order %u, not %u",
				   pfn, st_order(s), order);
	return 0;
}

int cp_buddy_free(struct cp_buddy *b, uint32_t pfn, unsigned order, struct cp_diag *diag)
{
	int rc = check_allocated(b, pfn, order, diag);

	if (rc)
		return rc;
	b->state[pfn] = st_make(ST_TAIL, 0, 0);
	b->nr_allocated_pages -= 1u << order;
	/* __free_pages_ok(): the list of the page's pageblock type. */
	free_one(b, pfn, order, pageblock_mt(b, pfn), false);
	CP_DEBUG_CHECK(b->nr_pages > DEBUG_CHECK_MAX_PAGES || cp_buddy_check(b));
	return 0;
}

int cp_buddy_split_page(struct cp_buddy *b, uint32_t pfn, unsigned order, struct cp_diag *diag)
{
	int rc = check_allocated(b, pfn, order, diag);
	unsigned mt;
	uint32_t i;

	if (rc)
		return rc;
	mt = st_mt(b->state[pfn]);
	for (i = 0; i < (1u << order); i++)
		b->state[pfn + i] = st_make(ST_ALLOC, 0, mt);
	CP_DEBUG_CHECK(b->nr_pages > DEBUG_CHECK_MAX_PAGES || cp_buddy_check(b));
	return 0;
}

int cp_buddy_join_pages(struct cp_buddy *b, uint32_t pfn, unsigned order, struct cp_diag *diag)
{
	uint32_t n = 1u << (order < CP_BUDDY_MAX_ORDER ? order : 0), i;
	unsigned mt;

	if (order >= CP_BUDDY_MAX_ORDER)
		return cp_diag_set(diag, -CP_EINVAL, "order %u of pfn %u: the largest is %u", order,
				   pfn, CP_BUDDY_MAX_ORDER - 1);
	if ((pfn & (n - 1)) || (uint64_t)pfn + n > b->nr_pages)
		return cp_diag_set(diag, -CP_EINVAL,
				   "pfn %u does not start a block of order %u in a zone of %u pages",
				   pfn, order, b->nr_pages);
	mt = st_mt(b->state[pfn]);
	for (i = 0; i < n; i++) {
		uint8_t s = b->state[pfn + i];

		if (st_kind(s) != ST_ALLOC || st_order(s) != 0 || st_mt(s) != mt)
			return cp_diag_set(diag, -CP_EINVAL,
					   "pfn %u is not an allocated order-0 page of the block at pfn %u",
					   pfn + i, pfn);
	}
	b->state[pfn] = st_make(ST_ALLOC, order, mt);
	for (i = 1; i < n; i++)
		b->state[pfn + i] = st_make(ST_TAIL, 0, 0);
	CP_DEBUG_CHECK(b->nr_pages > DEBUG_CHECK_MAX_PAGES || cp_buddy_check(b));
	return 0;
}

bool cp_buddy_has_free_block(const struct cp_buddy *b, unsigned order)
{
	unsigned o, mt;

	for (o = order; o < CP_BUDDY_MAX_ORDER; o++) {
		if (b->nr_free[o] == 0)
			continue;
		for (mt = 0; mt < CP_MIGRATE_TYPES; mt++)
			if (b->free_area[o][mt].nr)
				return true;
	}
	return false;
}

bool cp_buddy_watermark_ok(const struct cp_buddy *b, unsigned order, uint64_t mark,
			   int64_t free_pages)
{
	if (order >= CP_BUDDY_MAX_ORDER)
		return false;
	free_pages -= ((int64_t)1 << order) - 1;
	if (mark > INT64_MAX || free_pages <= (int64_t)mark)
		return false;
	if (order == 0)
		return true;
	return cp_buddy_has_free_block(b, order);
}

void cp_buddy_set_boost_cap(struct cp_buddy *b, uint64_t high_wmark_pages,
			    unsigned watermark_boost_factor)
{
	/* mult_frac(x, n, d): (x / d) * n + (x % d) * n / d */
	b->boost_cap_pages = (high_wmark_pages / 10000) * watermark_boost_factor +
			     (high_wmark_pages % 10000) * watermark_boost_factor / 10000;
}

bool cp_buddy_test_and_clear_boosted(struct cp_buddy *b)
{
	bool was = b->boosted;

	b->boosted = false;
	return was;
}

enum cp_migratetype cp_buddy_pageblock_migratetype(const struct cp_buddy *b, uint32_t pfn)
{
	CP_BUG_ON(pfn >= b->nr_pages);
	return (enum cp_migratetype)pageblock_mt(b, pfn);
}

int cp_buddy_set_pageblock_migratetype(struct cp_buddy *b, uint32_t pfn, enum cp_migratetype mt)
{
	uint32_t start = pfn & ~(CP_BUDDY_PAGEBLOCK_PAGES - 1), i;

	if (pfn >= b->nr_pages || (unsigned)mt >= CP_MIGRATE_TYPES)
		return -CP_EINVAL;
	for (i = start; i < start + CP_BUDDY_PAGEBLOCK_PAGES && i < b->nr_pages; i++)
		if (st_kind(b->state[i]) == ST_FREE)
			return -CP_EBUSY;
	b->pageblock_mt[pfn >> CP_BUDDY_PAGEBLOCK_ORDER] = (uint8_t)mt;
	return 0;
}

enum cp_migratetype cp_buddy_alloc_migratetype(const struct cp_buddy *b, uint32_t pfn)
{
	CP_BUG_ON(pfn >= b->nr_pages);
	return (enum cp_migratetype)st_mt(b->state[pfn]);
}

int cp_buddy_set_alloc_migratetype(struct cp_buddy *b, uint32_t pfn, enum cp_migratetype mt)
{
	if (pfn >= b->nr_pages || (unsigned)mt >= CP_MIGRATE_TYPES ||
	    st_kind(b->state[pfn]) != ST_ALLOC || st_order(b->state[pfn]) != 0)
		return -CP_EINVAL;
	b->state[pfn] = st_make(ST_ALLOC, 0, mt);
	return 0;
}

bool cp_buddy_pageblock_skip(const struct cp_buddy *b, uint32_t pfn)
{
	CP_BUG_ON(pfn >= b->nr_pages);
	return b->pageblock_skip[pfn >> CP_BUDDY_PAGEBLOCK_ORDER];
}

void cp_buddy_set_pageblock_skip(struct cp_buddy *b, uint32_t pfn, bool skip)
{
	CP_BUG_ON(pfn >= b->nr_pages);
	b->pageblock_skip[pfn >> CP_BUDDY_PAGEBLOCK_ORDER] = skip;
}

int cp_buddy_free_block_order(const struct cp_buddy *b, uint32_t pfn)
{
	if (pfn >= b->nr_pages || st_kind(b->state[pfn]) != ST_FREE)
		return -1;
	return (int)st_order(b->state[pfn]);
}

uint32_t cp_buddy_nr_free_blocks(const struct cp_buddy *b, unsigned order, enum cp_migratetype mt)
{
	if (order >= CP_BUDDY_MAX_ORDER || (unsigned)mt >= CP_MIGRATE_TYPES)
		return 0;
	return b->free_area[order][mt].nr;
}

uint64_t cp_buddy_free_pages_of_type(const struct cp_buddy *b, enum cp_migratetype mt)
{
	uint64_t pages = 0;
	unsigned o;

	if ((unsigned)mt >= CP_MIGRATE_TYPES)
		return 0;
	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
		pages += (uint64_t)b->free_area[o][mt].nr << o;
	return pages;
}

void cp_buddy_count_pageblocks(const struct cp_buddy *b, uint64_t out[CP_MIGRATE_TYPES])
{
	uint32_t pb;

	for (pb = 0; pb < b->nr_pageblocks; pb++)
		if (b->pageblock_mt[pb] < CP_MIGRATE_TYPES)
			out[b->pageblock_mt[pb]]++;
}

enum cp_buddy_page_kind cp_buddy_page_kind(const struct cp_buddy *b, uint32_t pfn,
					   unsigned *order)
{
	uint8_t s;

	CP_BUG_ON(pfn >= b->nr_pages);
	s = b->state[pfn];
	*order = st_order(s);
	if (st_kind(s) == ST_FREE)
		return CP_BUDDY_PAGE_FREE;
	if (st_kind(s) == ST_ALLOC)
		return CP_BUDDY_PAGE_ALLOC;
	*order = 0;
	return CP_BUDDY_PAGE_TAIL;
}

int cp_buddy_isolate_free_block(struct cp_buddy *b, uint32_t pfn, struct cp_diag *diag)
{
	unsigned order;
	uint32_t i;

	if (pfn >= b->nr_pages)
		return cp_diag_set(diag, -CP_EINVAL, "pfn %u out of range: the zone has %u pages",
				   pfn, b->nr_pages);
	if (st_kind(b->state[pfn]) != ST_FREE)
		return cp_diag_set(diag, -CP_EINVAL, "pfn %u is not the head of a free block",
				   pfn);
	order = st_order(b->state[pfn]);
	list_del_block(b, pfn);
	for (i = 0; i < (1u << order); i++)
		b->state[pfn + i] = st_make(ST_ALLOC, 0, CP_MIGRATE_MOVABLE);
	b->nr_allocated_pages += 1u << order;
	CP_DEBUG_CHECK(b->nr_pages > DEBUG_CHECK_MAX_PAGES || cp_buddy_check(b));
	return (int)order;
}

/* Free [start, end) in blocks as large as alignment allows, ascending
 * (__free_pages_memory). */
static void free_boot_range(struct cp_buddy *b, uint32_t start, uint32_t end)
{
	while (start < end) {
		unsigned order = CP_BUDDY_MAX_ORDER - 1;

		while (order > 0 && (start & ((1u << order) - 1)))
			order--;
		while ((uint64_t)start + (1u << order) > end)
			order--;
		/* 6.1 __free_pages_core: FPI_TO_TAIL; 4.11 to the head. */
		free_one(b, start, order, pageblock_mt(b, start), !b->kernel_4_11);
		start += 1u << order;
	}
}

int cp_buddy_init(struct cp_buddy *b, const struct cp_buddy_params *p, struct cp_diag *diag)
{
	uint32_t n = p->nr_pages, pfn, run;
	unsigned i, o, mt;

	memset(b, 0, sizeof(*b));
	if (n == 0 || n > CP_BUDDY_MAX_PAGES)
		return cp_diag_set(diag, -CP_EINVAL, "buddy zone of %u pages: must be 1 to %u", n,
				   CP_BUDDY_MAX_PAGES);
	if (p->nr_reserved && !p->reserved)
		return cp_diag_set(diag, -CP_EINVAL, "%u reserved ranges but no array",
				   p->nr_reserved);
	for (i = 0; i < p->nr_reserved; i++) {
		const struct cp_buddy_range *r = &p->reserved[i];

		if ((uint64_t)r->start_pfn + r->nr_pages > n)
			return cp_diag_set(diag, -CP_EINVAL,
					   "reserved range %u (pfn %u + %u pages) outside the "
					   "zone of %u pages",
					   i, r->start_pfn, r->nr_pages, n);
	}
	b->nr_pages = n;
	b->nr_pageblocks = (uint32_t)(((uint64_t)n + CP_BUDDY_PAGEBLOCK_PAGES - 1) >>
				      CP_BUDDY_PAGEBLOCK_ORDER);
	b->kernel_4_11 = p->kernel_4_11;
	b->claim_steal = p->claim_steal && !p->kernel_4_11;
	b->next = cp_calloc(n, sizeof(*b->next)); /* zeroed: state comparable */
	b->prev = cp_calloc(n, sizeof(*b->prev));
	b->state = cp_calloc(n, sizeof(*b->state)); /* all ST_TAIL */
	b->pageblock_mt = cp_malloc(b->nr_pageblocks);
	b->pageblock_skip = cp_calloc(b->nr_pageblocks, 1); /* no hints at boot */
	if (!b->next || !b->prev || !b->state || !b->pageblock_mt || !b->pageblock_skip) {
		cp_buddy_release(b);
		return -CP_ENOMEM;
	}
	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
		for (mt = 0; mt < CP_MIGRATE_TYPES; mt++)
			b->free_area[o][mt].head = b->free_area[o][mt].tail = CP_BUDDY_NONE;
	/* memmap_init(): every pageblock MOVABLE. */
	memset(b->pageblock_mt, CP_MIGRATE_MOVABLE, b->nr_pageblocks);

	for (i = 0; i < p->nr_reserved; i++) {
		const struct cp_buddy_range *r = &p->reserved[i];

		for (pfn = r->start_pfn; pfn < r->start_pfn + r->nr_pages; pfn++) {
			if (st_kind(b->state[pfn]) == ST_ALLOC) {
				cp_buddy_release(b);
				return cp_diag_set(diag, -CP_EINVAL,
						   "reserved range %u overlaps another at pfn %u",
						   i, pfn);
			}
			b->state[pfn] = st_make(ST_ALLOC, 0, CP_MIGRATE_UNMOVABLE);
			b->nr_allocated_pages++;
		}
	}
	b->managed_pages = n - (uint32_t)b->nr_allocated_pages;

	/* memblock_free_all(): free every run of unreserved pages. */
	for (pfn = 0; pfn < n; pfn = run) {
		if (st_kind(b->state[pfn]) == ST_ALLOC) {
			run = pfn + 1;
			continue;
		}
		for (run = pfn; run < n && st_kind(b->state[run]) != ST_ALLOC; run++)
			;
		free_boot_range(b, pfn, run);
	}
	CP_DEBUG_CHECK(b->nr_pages > DEBUG_CHECK_MAX_PAGES || cp_buddy_check(b));
	return 0;
}

void cp_buddy_release(struct cp_buddy *b)
{
	cp_free(b->next);
	cp_free(b->prev);
	cp_free(b->state);
	cp_free(b->pageblock_mt);
	cp_free(b->pageblock_skip);
	b->next = b->prev = NULL;
	b->state = b->pageblock_mt = b->pageblock_skip = NULL;
	b->nr_pages = 0;
}

/* One list: links consistent, every entry a free head of (order, mt),
 * length equal to l->nr. Adds the pages it holds to *pages. */
static bool check_list(const struct cp_buddy *b, unsigned order, unsigned mt, uint64_t *pages)
{
	const struct cp_buddy_list *l = &b->free_area[order][mt];
	uint32_t pfn = l->head, prev = CP_BUDDY_NONE, len = 0;

	while (pfn != CP_BUDDY_NONE) {
		uint8_t s;

		if (pfn >= b->nr_pages || len >= l->nr || b->prev[pfn] != prev)
			return false;
		s = b->state[pfn];
		if (st_kind(s) != ST_FREE || st_order(s) != order || st_mt(s) != mt)
			return false;
		/* 6.10+ freelist hygiene: a free block is listed under the
		 * type of (every) pageblock it lies in */
		if (b->claim_steal) {
			uint32_t pb = pfn >> CP_BUDDY_PAGEBLOCK_ORDER, n = 1, i;

			if (order > CP_BUDDY_PAGEBLOCK_ORDER)
				n = 1u << (order - CP_BUDDY_PAGEBLOCK_ORDER);
			for (i = 0; i < n; i++)
				if (b->pageblock_mt[pb + i] != mt)
					return false;
		}
		*pages += 1u << order;
		len++;
		prev = pfn;
		pfn = b->next[pfn];
	}
	return len == l->nr && l->tail == prev;
}

bool cp_buddy_check(const struct cp_buddy *b)
{
	uint64_t free_pages = 0, alloc_pages = 0, listed_pages = 0;
	uint64_t nr_heads_free = 0, nr_listed = 0;
	uint32_t pfn, i;
	unsigned o, mt;

	if (!b->state || b->nr_pages == 0)
		return false;
	for (i = 0; i < b->nr_pageblocks; i++)
		if (b->pageblock_mt[i] >= CP_MIGRATE_TYPES)
			return false;

	/* The blocks tile the zone. */
	for (pfn = 0; pfn < b->nr_pages;) {
		uint8_t s = b->state[pfn];
		unsigned order = st_order(s), kind = st_kind(s);
		uint32_t size = 1u << (order < CP_BUDDY_MAX_ORDER ? order : 0);

		if (kind != ST_FREE && kind != ST_ALLOC)
			return false; /* a page inside no block */
		if (order >= CP_BUDDY_MAX_ORDER || (pfn & (size - 1)) ||
		    (uint64_t)pfn + size > b->nr_pages || st_mt(s) >= CP_MIGRATE_TYPES)
			return false;
		for (i = 1; i < size; i++)
			if (st_kind(b->state[pfn + i]) != ST_TAIL)
				return false;
		if (kind == ST_FREE) {
			/* __free_one_page() leaves no free buddy unmerged. */
			if (order < CP_BUDDY_MAX_ORDER - 1 &&
			    is_free_head(b, pfn ^ size, order))
				return false;
			free_pages += size;
			nr_heads_free++;
		} else {
			alloc_pages += size;
		}
		pfn += size;
	}

	for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
		uint64_t nr = 0;

		for (mt = 0; mt < CP_MIGRATE_TYPES; mt++) {
			if (!check_list(b, o, mt, &listed_pages))
				return false;
			nr += b->free_area[o][mt].nr;
		}
		if (nr != b->nr_free[o])
			return false;
		nr_listed += nr;
	}
	/* Each listed block is a free head of that list's order and type and
	 * each list is a simple chain, so equal counts mean every free head
	 * is on exactly one list. */
	return nr_listed == nr_heads_free && listed_pages == free_pages &&
	       free_pages == b->nr_free_pages && alloc_pages == b->nr_allocated_pages &&
	       free_pages + alloc_pages == b->nr_pages;
}
