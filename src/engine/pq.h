/*
 * pq.h - a binary min-heap of (key, seq) entries for the engine's event
 * queues.
 *
 * Entries with equal keys leave in the order they were pushed: each push
 * takes the next value of a sequence counter and the heap orders by
 * (key, seq), as git's prio_queue does. So the order of events never
 * depends on the heap's internal layout, and the same pushes always give
 * the same pops.
 */
#ifndef CP_PQ_H
#define CP_PQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_pq_entry {
	uint64_t key;  /* time or virtual service, ns */
	uint64_t seq;  /* push order: the tie-break */
	uint32_t id;   /* whose event (an actor id) */
	uint32_t gen;  /* the owner's generation when pushed (stale-entry check) */
};

struct cp_pq {
	struct cp_pq_entry *heap; /* heap[0] is the minimum; owned */
	size_t nr, cap;
	uint64_t next_seq;        /* sequence number of the next push */
};

/* An empty queue; needs no allocation. Pair with cp_pq_release(). */
void cp_pq_init(struct cp_pq *q);
void cp_pq_release(struct cp_pq *q);

/* Adds an entry. Returns 0 or -CP_ENOMEM (queue unchanged). */
int cp_pq_push(struct cp_pq *q, uint64_t key, uint32_t id, uint32_t gen);

/* The minimum entry, or NULL when empty. Valid until the next push/pop. */
static inline const struct cp_pq_entry *cp_pq_peek(const struct cp_pq *q)
{
	return q->nr ? &q->heap[0] : NULL;
}

/* Removes the minimum into *out. Returns false when empty. */
bool cp_pq_pop(struct cp_pq *q, struct cp_pq_entry *out);

/* Heap property holds at every node. */
bool cp_pq_check(const struct cp_pq *q);

#endif /* CP_PQ_H */
