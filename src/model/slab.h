/*
 * slab.h - SLUB caches at slab granularity: objects are counted, memory
 * is taken and returned a whole slab (1 << order pages) at a time.
 */
#ifndef CP_SLAB_H
#define CP_SLAB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/pool.h"
#include "model/memory.h"

#define CP_SLAB_NONE UINT32_MAX
#define CP_SLAB_NAME_LEN 24

/* What a model object keeps to free its slab object later: the index of
 * the slab it came from (slot positions inside a slab are not modelled). */
struct cp_slab_obj {
	uint32_t slab; /* CP_SLAB_NONE: no object */
};

/* cp_slab.pfn with this bit: the slab's pages are 1 << order order-0
 * blocks (cp_highorder_nofit), listed in cache->split_pfns at the index
 * in the low bits. */
#define CP_SLAB_PFN_SPLIT (1u << 31)

/* One slab: 1 << order pages holding objects_per_slab objects, or (min
 * set) 1 << min_order pages holding min_objects: SLUB's fallback to the
 * cache's minimum order (allocate_slab). */
struct cp_slab {
	uint32_t nr_inuse;   /* objects allocated; 0: a free slot, or an emptied
			      * slab kept on the partial list */
	uint32_t prev, next; /* partial list of its memcg part (most recently
			      * freed into first); next also links free slots */
	uint32_t pfn;        /* first pfn of its block, or CP_SLAB_PFN_SPLIT | index */
	uint16_t memcg_idx;  /* index into cache->parts */
	uint8_t on_partial;  /* on the partial list: nr_inuse < per slab */
	uint8_t in_use;      /* slot holds a live slab */
	uint8_t min;         /* a slab of the cache's minimum order */
};

/* The per-memcg part of a cache (4.11 creates a child kmem_cache per
 * memcg for SLAB_ACCOUNT caches), indexed by memcg id: 0 is the root
 * (ctx->memcg NULL), so real memcgs must have ids >= 1. */
struct cp_slab_part {
	struct cp_memcg *memcg; /* charged memcg; NULL for the root */
	bool used;              /* memcg recorded */
	uint32_t partial_head;  /* CP_SLAB_NONE: no partial slab */
	uint64_t nr_partial;
	uint64_t nr_slabs;
	uint64_t nr_objects;
	/* per-object charging (cache->obj_charge > 0): pages charged to
	 * memcg for this part, and the bytes of them no object uses (the
	 * obj stock); charged_pages * PAGE_SIZE = nr_objects * obj_charge
	 * + stock_bytes */
	uint64_t charged_pages;
	uint32_t stock_bytes;
	uint64_t nr_empty;      /* emptied slabs kept on the partial list */
};

struct cp_slab_cache {
	char name[CP_SLAB_NAME_LEN];
	uint32_t object_size;      /* bytes (for reports) */
	uint32_t objects_per_slab; /* >= 1 */
	unsigned order;            /* pages per slab = 1 << order */
	/* s->min (calculate_sizes): the smallest order a slot fits in,
	 * get_order(slot size), and how many slots that holds */
	unsigned min_order;
	uint32_t min_objects;
	bool accounted;            /* SLAB_ACCOUNT: charged to ctx->memcg */
	/* 0: the slab pages are charged (4.11); > 0: each object is charged
	 * this many bytes and the pages are not (5.9+ obj_cgroup) */
	uint32_t obj_charge;
	enum cp_migratetype migratetype; /* of its slab pages */
	unsigned owner;            /* memory owner id (cp_mem_register_owner) */
	struct cp_mem *mem;

	struct cp_slab *slabs;     /* slot array; may move on growth */
	uint32_t nr_slots, cap_slots;
	uint32_t free_slot;        /* unused slot list, CP_SLAB_NONE = none */

	struct cp_slab_part *parts; /* indexed by memcg id; may move on growth */
	unsigned nr_parts;
	/* pfn arrays (1 << order each) of split slabs; order > 0 only */
	struct cp_pool split_pfns;

	uint64_t nr_objects;       /* invariant: sum of slab nr_inuse */
	uint64_t nr_slabs;         /* invariant: live slabs */
	uint64_t nr_pages;         /* invariant: their pages */

	/* Emptied slabs a part keeps (cp_slub_keep): while fewer than
	 * keep_cpu_slabs are kept, or its partial list is shorter than
	 * keep_cpu_slabs + min_partial. 0 and 0: none. */
	uint32_t keep_cpu_slabs;
	uint32_t min_partial;
};

/* Geometry of a cache as a filesystem profile states it. migratetype
 * comes from the cache's flags in the kernel (SLAB_RECLAIM_ACCOUNT ->
 * __GFP_RECLAIMABLE in s->allocflags, mm/slub.c calculate_sizes); the
 * one who creates the cache sets it (namei.c cp_fs_init, per kernel
 * profile), profiles leave it 0 (UNMOVABLE). */
struct cp_slab_geometry {
	const char *name;
	uint32_t object_size;
	uint32_t objects_per_slab;
	unsigned order;
	bool accounted;
	enum cp_migratetype migratetype;
};

/* The emptied slabs SLUB keeps for a cache of slots of size bytes,
 * objects_per_slab to a slab, with nr_cpus per-CPU partial lists of
 * the given kind (mm/slub.c): *min_partial = ilog2(size) / 2 within
 * [5, 10] (set_min_partial: the node keeps an emptied slab while its
 * partial list is shorter), and *cpu_slabs the per-CPU lists' room, in
 * slabs, over all CPUs (set_cpu_partial: 5.16+ 6/24/52/120 objects for
 * slots of >= 4096/1024/256 bytes and smaller, slub_set_cpu_partial:
 * twice that in slabs; 4.11 2/6/13/30 free objects). Zero for NONE. */
void cp_slub_keep(enum cp_slub_partial kind, unsigned nr_cpus, uint32_t size,
		  uint32_t objects_per_slab, uint32_t *min_partial, uint32_t *cpu_slabs);

/* Create the cache and register its memory owner. Returns 0, -CP_EINVAL
 * (objects_per_slab 0, order > 10), or -CP_ENOSPC (no owner id left).
 * On failure the cache needs no release. Its emptied slabs are kept as
 * mem's SLUB partial lists say (cp_mem_set_slub, cp_slub_keep), its slot
 * size being the larger of object_size and the slab's bytes over its
 * objects. */
int cp_slab_cache_init(struct cp_slab_cache *c, struct cp_mem *mem,
		       const struct cp_slab_geometry *g);

/* Charge each object of an accounted cache its slot size plus extra
 * bytes instead of charging slab pages (5.9+ obj_cgroup accounting,
 * profile.h slab_obj_charge_extra). Before the first allocation; a cache
 * that is not SLAB_ACCOUNT stays uncharged. */
void cp_slab_cache_charge_objects(struct cp_slab_cache *c, uint32_t extra);

/* Free the host memory of the cache. Pages still held stay counted in
 * mem (the model is being torn down). */
void cp_slab_cache_release(struct cp_slab_cache *c);

/*
 * kmem_cache_alloc(): one object. Uses the most recently freed-into
 * partial slab of the caller's memcg part; otherwise allocates a new slab
 * with cp_mem_alloc(), which may reclaim and so re-enter this cache
 * (frees only). Returns 0 and *obj, -CP_ENOMEM (host memory), or
 * -CP_ENOSPC (the model's memory could not be had). On failure *obj is
 * unchanged and no object was allocated (reclaim may have run).
 */
int cp_slab_alloc(struct cp_slab_cache *c, struct cp_alloc_ctx *ctx, struct cp_slab_obj *obj);

/* kmem_cache_free(): give the object back. A slab whose last object it
 * was is kept on the partial list while the cache's SLUB partial lists
 * have room for it (cp_slub_keep; __slab_free, put_cpu_partial); else
 * its pages return to memory and are uncharged (discard_slab). */
void cp_slab_free(struct cp_slab_cache *c, struct cp_slab_obj obj);

/* Pages held by the cache. */
static inline uint64_t cp_slab_pages(const struct cp_slab_cache *c)
{
	return c->nr_pages;
}

/* memcg id a slab object was charged to (0: root/unaccounted). */
int cp_slab_obj_memcg_id(const struct cp_slab_cache *c, struct cp_slab_obj obj);

/* The pfn of page i (< 1 << order) of a live slab. */
uint32_t cp_slab_page_pfn(const struct cp_slab_cache *c, uint32_t slab, uint32_t i);

/* Invariants: per-slab counts within bounds, partial lists hold exactly
 * the partially used slabs, counters add up, memory owner count equals
 * slab pages, every live slab has a pfn in the zone. O(slabs). */
bool cp_slab_check(const struct cp_slab_cache *c);

#endif /* CP_SLAB_H */
