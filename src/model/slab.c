/*
 * slab.c - slab caches at slab-page granularity.
 *
 * Mechanism (mm/slub.c, 4.11 and 6.1): a cache carves slabs of 1 << order
 * pages into objects_per_slab objects. An allocation takes a free object
 * from a partially used slab if there is one and only asks the page
 * allocator for a new slab (new_slab -> alloc_pages) when none is left;
 * a free returns the object to its slab, and the slab's pages go back to
 * the page allocator (discard_slab) only when its last object is freed.
 * So memory follows the number of slabs with at least one live object,
 * not the number of objects: freeing order matters (ref §11.1).
 * SLAB_ACCOUNT caches keep separate slabs per memcg (4.11
 * memcg_kmem_get_cache: a child cache per memcg) and charge the
 * allocating task's memcg: 4.11 whole slab pages (memcg_charge_slab);
 * 5.9+ each object, obj_full_size() = slot size + the obj_cgroup
 * pointer, through a byte stock (obj_cgroup_charge: whole pages are
 * charged, the rest of the last page kept for the next objects;
 * refill_obj_stock: freed bytes return to the stock, which gives back
 * its whole pages once it holds more than one), the slab pages
 * themselves uncharged (cp_slab_cache_charge_objects).
 *
 * Placement: a slab is one block of 1 << order pages of the cache's
 * migratetype (allocate_slab -> alloc_slab_page with s->allocflags:
 * __GFP_RECLAIMABLE for SLAB_RECLAIM_ACCOUNT caches, mm/slub.c
 * calculate_sizes, 4.11 and 6.1), recorded in struct cp_slab.
 *
 * A new slab (allocate_slab, 4.11 and 6.1 - 6.18): a first try at the
 * cache's order with __GFP_NORETRY; when the caller may reclaim directly
 * SLUB takes every reclaim flag off that try, else (a caller without
 * __GFP_DIRECT_RECLAIM: the XFS CIL's xlog_kvmalloc) the try keeps
 * __GFP_KSWAPD_RECLAIM, so a failure wakes kswapd at the cache's order.
 * When it fails, a second try at the minimum order (s->min: the smallest
 * order a slot fits in), with the caller's flags - for a caller without
 * direct reclaim, waking kswapd at that order in turn. Measured on
 * 6.18.44 (docs/fidelity.md, session 34): kswapd woken at orders 1 and 3
 * with GFP_NOWAIT|__GFP_IO|__GFP_NORETRY|__GFP_COMP from
 * allocate_slab() under xlog_cil_commit.
 *
 * SIMPLIFIED:
 * - For a caller that may reclaim directly the model makes one try: the
 *   page count decides at the cache's order, and when no free block of
 *   that order exists it keeps the geometry and takes 1 << order order-0
 *   pages (cp_highorder_nofit) - where SLUB's second try would build a
 *   slab of the minimum order holding fewer objects. Neither try of the
 *   kernel's wakes kswapd at the cache's order for such a caller, so
 *   only the layout differs. The block at the cache's order is placed as
 *   the first try is, without ALLOC_KSWAPD (cp_mem_alloc_slab_block): a
 *   fallback it claims raises the zone's watermark boost without
 *   flagging the zone for rmqueue()'s kswapd wake-up; the raised
 *   watermarks wake kswapd once an allocation fails them (measured on
 *   6.18.44: boosts of 4 - 7.7 K pages in Normal at the first kswapd
 *   wake-ups of a global 2G run; docs/fidelity.md, session 36).
 * - No per-CPU slab, per-CPU partial list or node partial list: one
 *   partial list per memcg part, and every free moves the slab to its
 *   head, so allocations refill the slab most recently freed into (LIFO,
 *   the order SLUB's per-CPU partial list has). A new slab also goes to
 *   the head.
 * - Objects have no position in a slab; counts suffice.
 * - SLUB keeps some emptied slabs (mm/slub.c __slab_free,
 *   put_cpu_partial, __put_partials): a slab a free takes from full to
 *   partial goes on the freeing CPU's partial list, and stays there if it
 *   empties, until the list overflows; the node keeps an emptied slab
 *   while its partial list holds fewer than min_partial. The model has
 *   one partial list a part: it keeps an emptied slab there while fewer
 *   emptied slabs than the CPUs' lists' room are kept, or while the list
 *   is shorter than that room plus min_partial (its first slabs count as
 *   the CPUs', the rest as the node's; cp_slub_keep), else returns it at
 *   once - the kernel's per-CPU lists hold partly used slabs too, and
 *   flush a whole list at a time. No RCU delay of SLAB_TYPESAFE_BY_RCU /
 *   call_rcu frees.
 * - 5.9+ shares slabs across memcgs; we keep 4.11's per-memcg slabs for
 *   every version (the experiment allocates from one memcg). The obj
 *   stock is kept per cache and memcg, not per CPU across caches: at
 *   most a page per cache apart. Objects are charged before the slab
 *   allocation (5.9-6.9 memcg_slab_pre_alloc_hook; 6.10+ charges after,
 *   in __memcg_slab_post_alloc_hook: the same pages either way).
 *
 * Re-entrancy: cp_mem_alloc() may run reclaim, which may free objects of
 * this very cache (the dcache shrinker freeing dentries while d_alloc
 * waits for a dentry slab). So the slab slot is reserved (host memory)
 * before, and all cache state is read again after, the call; nothing
 * holds a pointer into the slot or part arrays across it.
 */
#include "model/slab.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "core/intmath.h"
#include "model/gfp.h"

void cp_slub_keep(enum cp_slub_partial kind, unsigned nr_cpus, uint32_t size,
		  uint32_t objects_per_slab, uint32_t *min_partial, uint32_t *cpu_slabs)
{
	uint32_t objs;

	*min_partial = *cpu_slabs = 0;
	if (kind == CP_SLUB_PARTIAL_NONE || !objects_per_slab)
		return;
	/* set_min_partial(s, ilog2(s->size) / 2): MIN_PARTIAL 5, MAX_PARTIAL 10 */
	*min_partial = size ? cp_ilog2(size) / 2 : 0;
	if (*min_partial < 5)
		*min_partial = 5;
	if (*min_partial > 10)
		*min_partial = 10;
	if (kind == CP_SLUB_PARTIAL_SLABS) {
		/* set_cpu_partial(), then slub_set_cpu_partial(): room for
		 * DIV_ROUND_UP(objects * 2, oo_objects) slabs a CPU */
		objs = size >= 4096 ? 6 : size >= 1024 ? 24 : size >= 256 ? 52 : 120;
		*cpu_slabs = nr_cpus * ((2 * objs + objects_per_slab - 1) / objects_per_slab);
	} else {
		/* 4.11 put_cpu_partial(): the list takes slabs until their
		 * free objects pass s->cpu_partial */
		objs = size >= 4096 ? 2 : size >= 1024 ? 6 : size >= 256 ? 13 : 30;
		*cpu_slabs = nr_cpus * ((objs + objects_per_slab - 1) / objects_per_slab);
	}
}

int cp_slab_cache_init(struct cp_slab_cache *c, struct cp_mem *mem,
		       const struct cp_slab_geometry *g)
{
	uint32_t slot;
	int owner;

	memset(c, 0, sizeof(*c));
	if (g->objects_per_slab == 0 || g->order > 10 ||
	    (unsigned)g->migratetype >= CP_MIGRATE_TYPES)
		return -CP_EINVAL;
	owner = cp_mem_register_owner(mem, g->name);
	if (owner < 0)
		return owner;
	snprintf(c->name, sizeof(c->name), "%s", g->name);
	c->object_size = g->object_size;
	c->objects_per_slab = g->objects_per_slab;
	c->order = g->order;
	c->accounted = g->accounted;
	c->migratetype = g->migratetype;
	c->owner = (unsigned)owner;
	c->mem = mem;
	c->free_slot = CP_SLAB_NONE;
	cp_pool_init(&c->split_pfns, sizeof(uint32_t) << c->order, 8);
	/* s->size: the slot, alignment and metadata included */
	slot = (uint32_t)(((uint64_t)CP_PAGE_BYTES << c->order) / c->objects_per_slab);
	/* s->min = oo_make(get_order(size), size) */
	while (((uint64_t)CP_PAGE_BYTES << c->min_order) < slot && c->min_order < c->order)
		c->min_order++;
	c->min_objects = (uint32_t)(((uint64_t)CP_PAGE_BYTES << c->min_order) / slot);
	if (c->min_objects == 0 || c->min_objects > c->objects_per_slab)
		c->min_objects = c->objects_per_slab;
	cp_slub_keep((enum cp_slub_partial)mem->slub_partial, mem->slub_nr_cpus,
		     slot > c->object_size ? slot : c->object_size, c->objects_per_slab,
		     &c->min_partial, &c->keep_cpu_slabs);
	return 0;
}

void cp_slab_cache_charge_objects(struct cp_slab_cache *c, uint32_t extra)
{
	CP_BUG_ON(c->nr_objects != 0);
	if (c->accounted)
		c->obj_charge = c->object_size + extra;
}

void cp_slab_cache_release(struct cp_slab_cache *c)
{
	cp_pool_release(&c->split_pfns);
	cp_free(c->slabs);
	cp_free(c->parts);
	c->slabs = NULL;
	c->parts = NULL;
	c->nr_slots = c->cap_slots = 0;
	c->nr_parts = 0;
	c->free_slot = CP_SLAB_NONE;
}

static int part_index(const struct cp_slab_cache *c, const struct cp_alloc_ctx *ctx)
{
	if (!c->accounted || !ctx || !ctx->memcg)
		return 0;
	CP_BUG_ON(ctx->memcg->id <= 0 || ctx->memcg->id > UINT16_MAX);
	return ctx->memcg->id;
}

/* Make parts[idx] exist; 0 or -CP_ENOMEM. */
static int ensure_part(struct cp_slab_cache *c, unsigned idx, struct cp_memcg *memcg)
{
	struct cp_slab_part *p;

	if (idx >= c->nr_parts) {
		unsigned n = idx + 1, i;

		p = cp_realloc(c->parts, n * sizeof(*p));
		if (!p)
			return -CP_ENOMEM;
		for (i = c->nr_parts; i < n; i++) {
			memset(&p[i], 0, sizeof(p[i]));
			p[i].partial_head = CP_SLAB_NONE;
		}
		c->parts = p;
		c->nr_parts = n;
	}
	p = &c->parts[idx];
	if (!p->used) {
		p->used = true;
		p->memcg = memcg;
	}
	CP_BUG_ON(p->memcg != memcg);
	return 0;
}

/* Make sure a free slot exists; 0 or -CP_ENOMEM. */
static int reserve_slot(struct cp_slab_cache *c)
{
	struct cp_slab *s;
	uint32_t cap;

	if (c->free_slot != CP_SLAB_NONE || c->nr_slots < c->cap_slots)
		return 0;
	if (c->cap_slots >= CP_SLAB_NONE / 2)
		return -CP_ENOMEM;
	cap = c->cap_slots ? c->cap_slots * 2 : 64;
	s = cp_realloc(c->slabs, (size_t)cap * sizeof(*s));
	if (!s)
		return -CP_ENOMEM;
	c->slabs = s;
	c->cap_slots = cap;
	return 0;
}

static uint32_t take_slot(struct cp_slab_cache *c)
{
	uint32_t i;

	if (c->free_slot != CP_SLAB_NONE) {
		i = c->free_slot;
		c->free_slot = c->slabs[i].next;
	} else {
		CP_BUG_ON(c->nr_slots >= c->cap_slots);
		i = c->nr_slots++;
	}
	return i;
}

static void partial_unlink(struct cp_slab_cache *c, uint32_t i)
{
	struct cp_slab *s = &c->slabs[i];
	struct cp_slab_part *p = &c->parts[s->memcg_idx];

	if (s->prev != CP_SLAB_NONE)
		c->slabs[s->prev].next = s->next;
	else
		p->partial_head = s->next;
	if (s->next != CP_SLAB_NONE)
		c->slabs[s->next].prev = s->prev;
	s->prev = s->next = CP_SLAB_NONE;
	s->on_partial = 0;
	p->nr_partial--;
}

static void partial_push(struct cp_slab_cache *c, uint32_t i)
{
	struct cp_slab *s = &c->slabs[i];
	struct cp_slab_part *p = &c->parts[s->memcg_idx];

	s->prev = CP_SLAB_NONE;
	s->next = p->partial_head;
	if (p->partial_head != CP_SLAB_NONE)
		c->slabs[p->partial_head].prev = i;
	p->partial_head = i;
	s->on_partial = 1;
	p->nr_partial++;
}

/* refill_obj_stock(): bytes back to part p's stock; more than a page
 * there and its whole pages are uncharged. */
static void refill_obj_stock(struct cp_slab_cache *c, struct cp_slab_part *p, uint32_t bytes)
{
	uint64_t stock = (uint64_t)p->stock_bytes + bytes, pages;

	if (stock > CP_PAGE_BYTES) {
		pages = stock / CP_PAGE_BYTES;
		stock %= CP_PAGE_BYTES;
		CP_BUG_ON(p->charged_pages < pages);
		p->charged_pages -= pages;
		cp_memcg_uncharge(p->memcg, c->owner, pages);
	}
	p->stock_bytes = (uint32_t)stock;
}

/* obj_cgroup_charge() of one object to part idx's memcg: from the stock
 * when it holds enough, else the object's size rounded up to pages is
 * charged (reclaiming from the memcg over its limit: this may free
 * objects of this cache) and the rest of the last page stocked. 0 or
 * -CP_ENOSPC. */
static int obj_cgroup_charge(struct cp_slab_cache *c, unsigned idx, struct cp_alloc_ctx *ctx)
{
	uint64_t pages = (c->obj_charge + CP_PAGE_BYTES - 1) / CP_PAGE_BYTES;
	struct cp_slab_part *p = &c->parts[idx];
	int rc;

	if (p->stock_bytes >= c->obj_charge) {
		p->stock_bytes -= c->obj_charge;
		return 0;
	}
	rc = cp_memcg_try_charge(c->mem, ctx->memcg, c->owner, pages, ctx);
	if (rc)
		return rc;
	p = &c->parts[idx]; /* reclaim may have freed into it (not moved) */
	p->charged_pages += pages;
	refill_obj_stock(c, p, (uint32_t)(pages * CP_PAGE_BYTES - c->obj_charge));
	return 0;
}

/* Objects slab s holds when full, and its order. */
static uint32_t slab_objects(const struct cp_slab_cache *c, const struct cp_slab *s)
{
	return s->min ? c->min_objects : c->objects_per_slab;
}

static unsigned slab_order(const struct cp_slab_cache *c, const struct cp_slab *s)
{
	return s->min ? c->min_order : c->order;
}

/*
 * allocate_slab() for a caller without __GFP_DIRECT_RECLAIM: the cache's
 * order with the caller's flags and __GFP_NORETRY (kswapd woken at that
 * order when no block of it is free), then the minimum order (woken at
 * that one). 0 with the block's first pfn and *min, or -CP_ENOSPC.
 */
static int allocate_slab_nodirect(struct cp_slab_cache *c, struct cp_alloc_ctx *ctx,
				  uint32_t *pfn, bool *min)
{
	struct cp_alloc_ctx try = *ctx;
	int rc;

	try.gfp |= CP_GFP_NORETRY;
	*min = false;
	rc = cp_mem_try_alloc_block(c->mem, c->owner, c->order, c->migratetype, &try, pfn);
	if (rc != -CP_ENOSPC || c->min_order == c->order)
		return rc;
	*min = true;
	return cp_mem_try_alloc_block(c->mem, c->owner, c->min_order, c->migratetype, ctx, pfn);
}

/* One object from slab i (which has room). */
static void take_object(struct cp_slab_cache *c, uint32_t i)
{
	struct cp_slab *s = &c->slabs[i];

	if (s->nr_inuse == 0) {
		CP_BUG_ON(c->parts[s->memcg_idx].nr_empty == 0);
		c->parts[s->memcg_idx].nr_empty--;
	}
	s->nr_inuse++;
	c->parts[s->memcg_idx].nr_objects++;
	c->nr_objects++;
	if (s->nr_inuse == slab_objects(c, s) && s->on_partial)
		partial_unlink(c, i);
}

int cp_slab_alloc(struct cp_slab_cache *c, struct cp_alloc_ctx *ctx, struct cp_slab_obj *obj)
{
	struct cp_alloc_ctx unaccounted;
	struct cp_alloc_ctx *actx = ctx;
	struct cp_memcg *memcg = NULL;
	uint32_t i, pfn, split_idx = 0, *split_pfns = NULL;
	bool split, obj_charged, min = false;
	int idx, rc;

	idx = part_index(c, ctx);
	if (idx)
		memcg = ctx->memcg;
	rc = ensure_part(c, (unsigned)idx, memcg);
	if (rc)
		return rc;
	obj_charged = idx && c->obj_charge;
	if (obj_charged) {
		/* host memory first, so that a failure after the charge
		 * cannot happen but for the page allocator */
		rc = reserve_slot(c);
		if (rc)
			return rc;
		rc = obj_cgroup_charge(c, (unsigned)idx, ctx);
		if (rc)
			return rc;
	}
	i = c->parts[idx].partial_head;
	if (i != CP_SLAB_NONE) {
		take_object(c, i);
		obj->slab = i;
		return 0;
	}
	rc = reserve_slot(c);
	if (rc)
		goto out_uncharge;
	if ((!c->accounted || obj_charged) && ctx && ctx->memcg) {
		/* not a SLAB_ACCOUNT cache: nothing is charged, so no memcg
		 * limit reclaim either; objects charged: not their pages */
		unaccounted = *ctx;
		unaccounted.memcg = NULL;
		actx = &unaccounted;
	}
	if (c->order > 0 && actx && !(actx->gfp & CP_GFP_DIRECT_RECLAIM)) {
		/* may wake kswapd, never reclaims: nothing freed meanwhile */
		rc = allocate_slab_nodirect(c, actx, &pfn, &min);
		if (rc)
			goto out_uncharge;
	} else {
		if (c->order > 0) {
			/* room to record a split slab, taken before memory so
			 * that a host failure changes nothing; given back if
			 * unused */
			split_pfns = cp_pool_alloc(&c->split_pfns, &split_idx);
			if (!split_pfns) {
				rc = -CP_ENOMEM;
				goto out_uncharge;
			}
		}
		/* May reclaim and free objects of this cache: no pointers
		 * held (the pool's objects do not move). Above the minimum
		 * order SLUB's first try carries no reclaim flags. */
		rc = c->order > c->min_order
			     ? cp_mem_alloc_slab_block(c->mem, c->owner, c->order, c->migratetype,
						       actx, split_pfns ? split_pfns : &pfn, &split)
			     : cp_mem_alloc_block(c->mem, c->owner, c->order, c->migratetype, actx,
						  split_pfns ? split_pfns : &pfn, &split);
		if (split_pfns && !rc && split) {
			pfn = CP_SLAB_PFN_SPLIT | split_idx;
		} else if (split_pfns) {
			pfn = split_pfns[0];
			cp_pool_free(&c->split_pfns, split_idx);
		}
		if (rc)
			goto out_uncharge;
	}
	i = take_slot(c);
	c->slabs[i] = (struct cp_slab){
		.nr_inuse = 0,
		.prev = CP_SLAB_NONE,
		.next = CP_SLAB_NONE,
		.pfn = pfn,
		.memcg_idx = (uint16_t)idx,
		.on_partial = 0,
		.in_use = 1,
		.min = min,
	};
	c->nr_slabs++;
	c->nr_pages += 1ull << slab_order(c, &c->slabs[i]);
	c->parts[idx].nr_slabs++;
	c->parts[idx].nr_empty++; /* empty until take_object() below */
	if (slab_objects(c, &c->slabs[i]) > 1)
		partial_push(c, i);
	take_object(c, i);
	obj->slab = i;
	return 0;

out_uncharge:
	if (obj_charged)
		refill_obj_stock(c, &c->parts[idx], c->obj_charge);
	return rc;
}

void cp_slab_free(struct cp_slab_cache *c, struct cp_slab_obj obj)
{
	uint32_t i = obj.slab;
	struct cp_memcg *page_memcg;
	struct cp_slab *s;
	struct cp_slab_part *p;

	CP_BUG_ON(i >= c->nr_slots || !c->slabs[i].in_use || c->slabs[i].nr_inuse == 0);
	s = &c->slabs[i];
	p = &c->parts[s->memcg_idx];
	s->nr_inuse--;
	p->nr_objects--;
	c->nr_objects--;
	if (c->obj_charge && p->memcg)
		refill_obj_stock(c, p, c->obj_charge); /* obj_cgroup_uncharge */
	if (s->on_partial)
		partial_unlink(c, i);
	if (s->nr_inuse > 0) {
		partial_push(c, i);
		return;
	}
	if (p->nr_empty < c->keep_cpu_slabs ||
	    p->nr_partial < (uint64_t)c->keep_cpu_slabs + c->min_partial) {
		/* kept on a per-CPU partial list, or on the node's: the
		 * first keep_cpu_slabs partial slabs count as the CPUs' */
		p->nr_empty++;
		partial_push(c, i);
		return;
	}
	/* discard_slab(): the last object is gone, the pages go back
	 * (uncharged when it was the pages that were charged) */
	page_memcg = c->obj_charge ? NULL : p->memcg;
	p->nr_slabs--;
	c->nr_slabs--;
	c->nr_pages -= 1ull << slab_order(c, s);
	s->in_use = 0;
	s->next = c->free_slot;
	c->free_slot = i;
	if (s->pfn & CP_SLAB_PFN_SPLIT) {
		uint32_t idx = s->pfn & ~CP_SLAB_PFN_SPLIT;

		cp_mem_free_pages(c->mem, c->owner, cp_pool_at(&c->split_pfns, idx),
				  1ull << c->order, page_memcg);
		cp_pool_free(&c->split_pfns, idx);
	} else {
		cp_mem_free_block(c->mem, c->owner, s->pfn, slab_order(c, s), page_memcg);
	}
}

uint32_t cp_slab_page_pfn(const struct cp_slab_cache *c, uint32_t slab, uint32_t i)
{
	const struct cp_slab *s = &c->slabs[slab];

	CP_BUG_ON(slab >= c->nr_slots || !s->in_use || i >= (1u << slab_order(c, s)));
	if (s->pfn & CP_SLAB_PFN_SPLIT)
		return ((const uint32_t *)cp_pool_at(&c->split_pfns,
						      s->pfn & ~CP_SLAB_PFN_SPLIT))[i];
	return s->pfn + i;
}

int cp_slab_obj_memcg_id(const struct cp_slab_cache *c, struct cp_slab_obj obj)
{
	CP_BUG_ON(obj.slab >= c->nr_slots || !c->slabs[obj.slab].in_use);
	return c->slabs[obj.slab].memcg_idx;
}

bool cp_slab_check(const struct cp_slab_cache *c)
{
	uint64_t objects = 0, slabs = 0, pages = 0, nr_free = 0;
	uint64_t partial_seen = 0;
	unsigned k;
	uint32_t i;

	for (i = 0; i < c->nr_slots; i++) {
		const struct cp_slab *s = &c->slabs[i];
		bool partial;

		if (!s->in_use) {
			nr_free++;
			continue;
		}
		if (s->nr_inuse > slab_objects(c, s) || s->memcg_idx >= c->nr_parts ||
		    (s->min && (s->pfn & CP_SLAB_PFN_SPLIT)))
			return false;
		if (!(s->pfn & CP_SLAB_PFN_SPLIT) &&
		    ((s->pfn & ((1u << slab_order(c, s)) - 1)) ||
		     (uint64_t)s->pfn + (1u << slab_order(c, s)) > c->mem->total_pages))
			return false;
		partial = s->nr_inuse < slab_objects(c, s);
		if (partial != (bool)s->on_partial)
			return false;
		objects += s->nr_inuse;
		slabs++;
		pages += 1ull << slab_order(c, s);
	}
	for (i = c->free_slot; i != CP_SLAB_NONE; i = c->slabs[i].next) {
		if (i >= c->nr_slots || c->slabs[i].in_use || nr_free == 0)
			return false;
		nr_free--;
	}
	if (nr_free != 0 || objects != c->nr_objects || slabs != c->nr_slabs ||
	    pages != c->nr_pages)
		return false;
	objects = slabs = 0;
	for (k = 0; k < c->nr_parts; k++) {
		const struct cp_slab_part *p = &c->parts[k];
		uint64_t n = 0, empty = 0;
		uint32_t prev = CP_SLAB_NONE;

		for (i = p->partial_head; i != CP_SLAB_NONE; i = c->slabs[i].next) {
			const struct cp_slab *s = &c->slabs[i];

			if (i >= c->nr_slots || !s->on_partial || s->memcg_idx != k ||
			    s->prev != prev || ++n > p->nr_slabs)
				return false;
			empty += s->nr_inuse == 0;
			prev = i;
		}
		if (n != p->nr_partial || empty != p->nr_empty)
			return false;
		if (p->memcg && c->obj_charge &&
		    p->charged_pages * CP_PAGE_BYTES !=
			    p->nr_objects * c->obj_charge + p->stock_bytes)
			return false;
		partial_seen += n;
		objects += p->nr_objects;
		slabs += p->nr_slabs;
	}
	for (i = 0, k = 0; i < c->nr_slots; i++)
		k += c->slabs[i].in_use && c->slabs[i].on_partial;
	if (k != partial_seen || objects != c->nr_objects || slabs != c->nr_slabs)
		return false;
	return c->mem->nr_owner[c->owner] == cp_slab_pages(c);
}
