/*
 * start_layout.c - the free memory a real run measured after its balloon
 * (/proc/pagetypeinfo), laid into a zone of the model before the run.
 *
 * What the kernel shows: each zone's free blocks by migratetype and
 * order, and how many pageblocks each migratetype owns ("Number of blocks
 * type"). A free block below pageblock_order (a fragment) is one the
 * buddy allocator could not merge: some page of its buddy is allocated
 * (__free_one_page stops there). Where the fragments sit decides what a
 * later fallback finds: since 6.10 a fallback claims a whole pageblock
 * when at least half of it is free or of the claiming type
 * (try_to_claim_block), so a pageblock that is 95 % free goes over with
 * all its free pages, one that is half free with half.
 *
 * Two layouts, both holding exactly the measured free blocks:
 *
 *  - The pageblocks of a type measured: its fragments are carved out of
 *    that many pageblocks (at most as many as the pairing below would
 *    use: the real MOVABLE count is mostly the balloon's memory, which is
 *    not in the model), largest first, each into the pageblock with the
 *    most pages still allocated, at the first place where the block is
 *    wholly allocated and its buddy keeps at least one allocated page
 *    (so it stays a block of its own order). The measured pageblocks of
 *    RECLAIMABLE and UNMOVABLE hold nearly all their pages free (on the
 *    6.18 machine 400-510 of 512 after the balloon), and so do the
 *    model's. SIMPLIFIED: pagetypeinfo does not say how the free pages
 *    spread over a type's pageblocks; the model spreads them evenly.
 *
 *  - Not measured (older runs): each fragment beside an allocated buddy
 *    of its own order, the largest first, a new pageblock when the pair
 *    does not fit: every such pageblock about half free.
 *
 * What stays allocated in a pageblock is memory of its type the model
 * does not otherwise hold (the zone is made larger by it and counts it as
 * reserve); in a MOVABLE pageblock it is a movable filler that compaction
 * may migrate, as it does the balloon's pages.
 */
#include "model/start_layout.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "model/memory.h"

/* Calls for each fragment of a walk: pageblock number (0-based), offset
 * in it, order. */
typedef void (*fragment_fn)(void *priv, uint64_t pb, uint32_t off, unsigned order);

void cp_start_layout_plan(const uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER],
			  const uint64_t *pageblocks, uint64_t room, struct cp_start_layout *out)
{
	uint64_t total = 0;
	unsigned t, o;

	memset(out, 0, sizeof(*out));
	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			total += blocks[t][o] << o;
	for (t = 0; t < CP_MIGRATE_TYPES; t++) {
		uint64_t whole = 0, pb;

		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			/* counts and room are below 2^32: no overflow */
			out->frag[t][o] = total > room ? blocks[t][o] * room / total : blocks[t][o];
		if (!pageblocks || !pageblocks[t])
			continue;
		/* the type's pageblocks that hold fragments: not those that
		 * are free whole (blocks of pageblock_order and above) */
		for (o = CP_BUDDY_PAGEBLOCK_ORDER; o < CP_BUDDY_MAX_ORDER; o++)
			whole += blocks[t][o] << (o - CP_BUDDY_PAGEBLOCK_ORDER);
		pb = pageblocks[t] > whole ? pageblocks[t] - whole : 1;
		if (total > room)
			pb = (pb * room + total - 1) / total;
		out->pageblocks[t] = pb ? pb : 1;
	}
}

/*
 * Each fragment beside its buddy of the same order, kept allocated, the
 * largest orders first, a new pageblock when the pair does not fit.
 * Returns the pageblocks used.
 */
static uint64_t walk_fragment_pairs(const uint64_t frag[CP_BUDDY_PAGEBLOCK_ORDER], fragment_fn fn,
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
			if (fn)
				fn(priv, pb - 1, off, o);
			off += 2u << o;
		}
	}
	return pb;
}

/* ---- carving fragments out of a given number of pageblocks ---------- */

/* A pageblock's buddy tree, heap-indexed: node 1 the pageblock (order
 * 9), nodes 2^k .. 2^(k+1) - 1 its blocks of order 9 - k; held[n] the
 * allocated pages under node n. */
#define TREE_NODES (2 * CP_BUDDY_PAGEBLOCK_PAGES)

struct carve {
	uint16_t (*held)[TREE_NODES];
	bool *no_room; /* per pageblock: no place for the current order */
	uint64_t nr, cap;
};

/* A new pageblock, all of it allocated. 0 or -CP_ENOMEM. */
static int carve_add_pageblock(struct carve *c)
{
	unsigned k;
	uint32_t n;

	if (c->nr == c->cap) {
		uint64_t cap = c->cap ? 2 * c->cap : 16;
		void *held = cp_realloc(c->held, cap * sizeof(*c->held));
		void *no_room;

		if (!held)
			return -CP_ENOMEM;
		c->held = held;
		no_room = cp_realloc(c->no_room, cap * sizeof(*c->no_room));
		if (!no_room)
			return -CP_ENOMEM;
		c->no_room = no_room;
		c->cap = cap;
	}
	for (k = 0; k <= CP_BUDDY_PAGEBLOCK_ORDER; k++)
		for (n = 1u << k; n < 2u << k; n++)
			c->held[c->nr][n] = (uint16_t)(CP_BUDDY_PAGEBLOCK_PAGES >> k);
	c->no_room[c->nr] = false;
	c->nr++;
	return 0;
}

/* A node of order `order` under `node` (of order node_order) that is
 * wholly allocated and whose parent holds more than it: freed, it is a
 * block the buddy allocator cannot merge. 0 when there is none. Only
 * nodes holding more than 2^order allocated pages are searched: every
 * ancestor of such a place does. */
static uint32_t find_place(const uint16_t *held, uint32_t node, unsigned node_order,
			   unsigned order)
{
	uint32_t size = 1u << order, child, hit;

	if (held[node] <= size)
		return 0;
	for (child = 2 * node; child <= 2 * node + 1; child++) {
		if (node_order == order + 1)
			hit = held[child] == size ? child : 0;
		else
			hit = find_place(held, child, node_order - 1, order);
		if (hit)
			return hit;
	}
	return 0;
}

/* The pageblock with the most allocated pages that may still have a
 * place for the current order; the first on a tie. */
static bool carve_pick(const struct carve *c, uint64_t *pb)
{
	uint64_t i;
	bool found = false;

	for (i = 0; i < c->nr; i++)
		if (!c->no_room[i] && (!found || c->held[i][1] > c->held[*pb][1])) {
			*pb = i;
			found = true;
		}
	return found;
}

/* Free one block of `order` in the pageblocks, a new one when none has
 * room. 0 or -CP_ENOMEM. */
static int carve_one(struct carve *c, unsigned order, fragment_fn fn, void *priv)
{
	unsigned node_order = CP_BUDDY_PAGEBLOCK_ORDER - order; /* depth of the level */
	uint64_t pb = 0;
	uint32_t node = 0, n;
	int rc;

	while (!node) {
		if (!carve_pick(c, &pb)) {
			rc = carve_add_pageblock(c);
			if (rc)
				return rc;
			pb = c->nr - 1;
		}
		node = find_place(c->held[pb], 1, CP_BUDDY_PAGEBLOCK_ORDER, order);
		if (!node)
			c->no_room[pb] = true;
	}
	for (n = node; n; n >>= 1)
		c->held[pb][n] = (uint16_t)(c->held[pb][n] - (1u << order));
	if (fn)
		fn(priv, pb, (node - (1u << node_order)) << order, order);
	return 0;
}

/* Carve the fragments out of `want` pageblocks (more when they do not
 * fit); the pageblocks used in *nr. 0 or -CP_ENOMEM. */
static int carve_fragments(const uint64_t frag[CP_BUDDY_PAGEBLOCK_ORDER], uint64_t want,
			   fragment_fn fn, void *priv, uint64_t *nr)
{
	struct carve c = { NULL, NULL, 0, 0 };
	unsigned o = CP_BUDDY_PAGEBLOCK_ORDER;
	uint64_t i, n;
	int rc = 0;

	for (i = 0; !rc && i < want; i++)
		rc = carve_add_pageblock(&c);
	while (!rc && o-- > 0) {
		for (i = 0; i < c.nr; i++)
			c.no_room[i] = false;
		for (n = 0; !rc && n < frag[o]; n++)
			rc = carve_one(&c, o, fn, priv);
	}
	*nr = c.nr;
	cp_free(c.held);
	cp_free(c.no_room);
	return rc;
}

/* Walk one type's fragments in its layout; the pageblocks in *nr. */
static int walk_type(const struct cp_start_layout *l, unsigned t, fragment_fn fn, void *priv,
		     uint64_t *nr)
{
	uint64_t pairs = walk_fragment_pairs(l->frag[t], NULL, NULL);

	if (!l->pageblocks[t] || !pairs) {
		*nr = walk_fragment_pairs(l->frag[t], fn, priv);
		return 0;
	}
	return carve_fragments(l->frag[t], l->pageblocks[t] < pairs ? l->pageblocks[t] : pairs,
			       fn, priv, nr);
}

int cp_start_layout_extra_pages(const struct cp_start_layout *l, uint64_t *pages)
{
	uint64_t nr;
	unsigned t, o;
	int rc;

	*pages = 0;
	for (t = 0; t < CP_MIGRATE_TYPES; t++) {
		rc = walk_type(l, t, NULL, NULL, &nr);
		if (rc)
			return rc;
		*pages += nr * CP_BUDDY_PAGEBLOCK_PAGES;
		for (o = 0; o < CP_BUDDY_PAGEBLOCK_ORDER; o++)
			*pages -= l->frag[t][o] << o;
	}
	return 0;
}

/* ---- laying it into the buddy ---------------------------------------- */

struct layout_pass {
	struct cp_buddy *b;
	const uint32_t *pageblock_pfn; /* first pfn of each of the type's pageblocks */
};

/* Free a fragment page by page: its pages merge into one free block of
 * its order, on the list of the pageblock's migratetype. */
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

/* The pages of the MOVABLE pageblocks pfns[0 .. nr) (zone-local; the zone
 * starts at start_pfn) that the layout left allocated become movable
 * fillers (cp_mem.movable_filler). 0 or -CP_ENOMEM. */
static int mark_movable_fillers(struct cp_mem *m, const struct cp_buddy *b, uint32_t start_pfn,
				const uint32_t *pfns, uint64_t nr)
{
	uint64_t i;
	uint32_t j;
	unsigned order;

	if (!nr)
		return 0;
	if (!cp_mem_movable_filler_map(m))
		return -CP_ENOMEM;
	for (i = 0; i < nr; i++)
		for (j = 0; j < CP_BUDDY_PAGEBLOCK_PAGES; j++)
			if (cp_buddy_page_kind(b, pfns[i] + j, &order) == CP_BUDDY_PAGE_ALLOC &&
			    order == 0)
				m->movable_filler[start_pfn + pfns[i] + j] = 1;
	return 0;
}

/* One type: take its pageblocks whole, split them, set their type, free
 * its fragments. 0, -CP_ENOMEM or -CP_ENOSPC (no free pageblock left). */
static int apply_type(struct cp_mem *m, struct cp_buddy *b, uint32_t start_pfn,
		      const struct cp_start_layout *l, unsigned t)
{
	uint64_t nr, i;
	uint32_t *pfns, j;
	struct layout_pass lp = { b, NULL };
	int rc = walk_type(l, t, NULL, NULL, &nr);

	if (rc || !nr)
		return rc;
	pfns = cp_calloc(nr, sizeof(*pfns));
	if (!pfns)
		return -CP_ENOMEM;
	for (i = 0; i < nr; i++) {
		/* the zone was sized for them (zone.c leaves two pageblocks
		 * for alignment); should it not hold them, say so */
		if (cp_buddy_alloc(b, CP_BUDDY_PAGEBLOCK_ORDER, CP_MIGRATE_MOVABLE, 0, &pfns[i])) {
			cp_free(pfns);
			return -CP_ENOSPC;
		}
		rc = cp_buddy_split_page(b, pfns[i], CP_BUDDY_PAGEBLOCK_ORDER, NULL);
		CP_BUG_ON(rc);
		rc = cp_buddy_set_pageblock_migratetype(b, pfns[i], (enum cp_migratetype)t);
		CP_BUG_ON(rc);
		/* what stays allocated is memory of the block's type (slab,
		 * page tables in an UNMOVABLE one): not movable to a fallback
		 * counting its pageblock (prep_move_freepages_block) */
		if (t == CP_MIGRATE_MOVABLE)
			continue;
		for (j = 0; j < CP_BUDDY_PAGEBLOCK_PAGES; j++) {
			rc = cp_buddy_set_alloc_migratetype(b, pfns[i] + j, (enum cp_migratetype)t);
			CP_BUG_ON(rc);
		}
	}
	lp.pageblock_pfn = pfns;
	rc = walk_type(l, t, free_fragment, &lp, &nr);
	if (!rc && t == CP_MIGRATE_MOVABLE)
		rc = mark_movable_fillers(m, b, start_pfn, pfns, nr);
	cp_free(pfns);
	return rc;
}

int cp_start_layout_apply(struct cp_mem *m, struct cp_buddy *b, uint32_t start_pfn,
			  const struct cp_start_layout *l)
{
	unsigned t;
	int rc;

	for (t = 0; t < CP_MIGRATE_TYPES; t++) {
		rc = apply_type(m, b, start_pfn, l, t);
		if (rc)
			return rc;
	}
	/* the set-up is not an event of the run */
	b->nr_extfrag = b->nr_extfrag_fragmenting = b->nr_boost = b->nr_pageblocks_claimed = 0;
	b->nr_steal = b->nr_claim = b->nr_claim_movable = 0;
	return 0;
}
