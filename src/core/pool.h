/*
 * pool.h - a host-memory pool of fixed-size objects with stable
 * addresses and 32-bit indices.
 *
 * The model keeps millions of small objects (dentries, inodes). Each
 * malloc() would cost a header and a call; a pool hands them out of
 * large chunks, never moves them (so intrusive list links stay valid),
 * and recycles freed objects LIFO through a free list threaded through
 * their own storage. Every object also has a dense index, so other
 * structures can refer to it deterministically (hash keys that do not
 * depend on pointer values).
 *
 * This is host bookkeeping, not a model of kernel memory: what the
 * modelled kernel pays for an object is accounted by model/slab.c.
 */
#ifndef CP_POOL_H
#define CP_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CP_POOL_NONE UINT32_MAX

struct cp_pool {
	size_t obj_size;         /* rounded up to 8 bytes, >= 8 */
	unsigned chunk_shift;    /* objects per chunk = 1 << chunk_shift */
	unsigned char **chunks;  /* nr_chunks chunks, never moved */
	uint32_t nr_chunks, cap_chunks;
	uint32_t nr_used_slots;  /* slots ever handed out (high-water mark) */
	uint32_t free_head;      /* free slot list (LIFO), CP_POOL_NONE = empty */
	uint64_t nr_live;        /* invariant: nr_used_slots - length(free list) */
};

/* Set up an empty pool of obj_size-byte objects, 1 << chunk_shift per
 * chunk (chunk_shift 1..24). Allocates nothing yet. */
void cp_pool_init(struct cp_pool *p, size_t obj_size, unsigned chunk_shift);

/* Free every chunk. Objects still live are dropped with it. */
void cp_pool_release(struct cp_pool *p);

/* A zeroed object and its index, or NULL (host allocation failed, pool
 * unchanged; or 2^32-1 objects in use). */
void *cp_pool_alloc(struct cp_pool *p, uint32_t *index);

/* Return object `index` to the pool. */
void cp_pool_free(struct cp_pool *p, uint32_t index);

/* The object with this index (must have been handed out). */
static inline void *cp_pool_at(const struct cp_pool *p, uint32_t index)
{
	return p->chunks[index >> p->chunk_shift] +
	       (size_t)(index & ((1u << p->chunk_shift) - 1)) * p->obj_size;
}

/* Invariant: the free list is acyclic, within bounds, and nr_live adds up.
 * O(free objects). */
bool cp_pool_check(const struct cp_pool *p);

#endif /* CP_POOL_H */
