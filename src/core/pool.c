/*
 * pool.c - fixed-size object pool with stable addresses and indices.
 *
 * Chunks of 1 << chunk_shift objects are allocated on demand and kept
 * until release. A freed object's first 4 bytes hold the index of the
 * next free object, so the free list costs no extra memory.
 */
#include "core/pool.h"

#include <string.h>

#include "core/alloc.h"

void cp_pool_init(struct cp_pool *p, size_t obj_size, unsigned chunk_shift)
{
	memset(p, 0, sizeof(*p));
	if (obj_size < sizeof(uint32_t))
		obj_size = sizeof(uint32_t);
	p->obj_size = (obj_size + 7) & ~(size_t)7;
	p->chunk_shift = chunk_shift;
	p->free_head = CP_POOL_NONE;
}

void cp_pool_release(struct cp_pool *p)
{
	uint32_t i;

	for (i = 0; i < p->nr_chunks; i++)
		cp_free(p->chunks[i]);
	cp_free(p->chunks);
	cp_pool_init(p, p->obj_size, p->chunk_shift);
}

static uint32_t read_next(const struct cp_pool *p, uint32_t index)
{
	uint32_t next;

	memcpy(&next, cp_pool_at(p, index), sizeof(next));
	return next;
}

/* Make sure slot nr_used_slots exists; 0 or -1 when the host says no. */
static int grow(struct cp_pool *p)
{
	uint32_t per_chunk = 1u << p->chunk_shift;
	unsigned char *chunk;

	if (p->nr_used_slots == CP_POOL_NONE)
		return -1;
	if (p->nr_used_slots < p->nr_chunks * per_chunk)
		return 0;
	if (p->nr_chunks == p->cap_chunks) {
		uint32_t cap = p->cap_chunks ? p->cap_chunks * 2 : 16;
		unsigned char **chunks = cp_realloc(p->chunks, cap * sizeof(*chunks));

		if (!chunks)
			return -1;
		p->chunks = chunks;
		p->cap_chunks = cap;
	}
	chunk = cp_malloc(per_chunk * p->obj_size);
	if (!chunk)
		return -1;
	p->chunks[p->nr_chunks++] = chunk;
	return 0;
}

void *cp_pool_alloc(struct cp_pool *p, uint32_t *index)
{
	uint32_t i;
	void *obj;

	if (p->free_head != CP_POOL_NONE) {
		i = p->free_head;
		p->free_head = read_next(p, i);
	} else {
		if (grow(p))
			return NULL;
		i = p->nr_used_slots++;
	}
	obj = cp_pool_at(p, i);
	memset(obj, 0, p->obj_size);
	p->nr_live++;
	*index = i;
	return obj;
}

void cp_pool_free(struct cp_pool *p, uint32_t index)
{
	memcpy(cp_pool_at(p, index), &p->free_head, sizeof(p->free_head));
	p->free_head = index;
	p->nr_live--;
}

bool cp_pool_check(const struct cp_pool *p)
{
	uint64_t nr_free = 0;
	uint32_t i;

	for (i = p->free_head; i != CP_POOL_NONE; i = read_next(p, i)) {
		if (i >= p->nr_used_slots || ++nr_free > p->nr_used_slots)
			return false;
	}
	return p->nr_live + nr_free == p->nr_used_slots;
}
