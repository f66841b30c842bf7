/*
 * pq.c - binary min-heap ordered by (key, seq).
 *
 * No kernel mechanism. Sift-up on push and sift-down on pop, O(log n)
 * each; the array doubles when full. Ties in key are broken by the push
 * sequence number, never by array position.
 */
#include "engine/pq.h"

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "core/bug.h"

static bool less(const struct cp_pq_entry *a, const struct cp_pq_entry *b)
{
	return a->key != b->key ? a->key < b->key : a->seq < b->seq;
}

void cp_pq_init(struct cp_pq *q)
{
	q->heap = NULL;
	q->nr = q->cap = 0;
	q->next_seq = 0;
}

void cp_pq_release(struct cp_pq *q)
{
	cp_free(q->heap);
	cp_pq_init(q);
}

int cp_pq_push(struct cp_pq *q, uint64_t key, uint32_t id, uint32_t gen)
{
	struct cp_pq_entry e = { .key = key, .seq = q->next_seq, .id = id, .gen = gen };
	size_t i;

	{
		struct cp_pq_entry *h = cp_grow(q->heap, &q->cap, q->nr + 1, sizeof(*h), 16);

		if (!h)
			return -CP_ENOMEM;
		q->heap = h;
	}
	q->next_seq++;
	for (i = q->nr++; i > 0; ) {
		size_t parent = (i - 1) / 2;

		if (!less(&e, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = e;
	CP_DEBUG_CHECK(cp_pq_check(q));
	return 0;
}

bool cp_pq_pop(struct cp_pq *q, struct cp_pq_entry *out)
{
	struct cp_pq_entry last;
	size_t i, child;

	if (!q->nr)
		return false;
	*out = q->heap[0];
	last = q->heap[--q->nr];
	for (i = 0; (child = 2 * i + 1) < q->nr; i = child) {
		if (child + 1 < q->nr && less(&q->heap[child + 1], &q->heap[child]))
			child++;
		if (!less(&q->heap[child], &last))
			break;
		q->heap[i] = q->heap[child];
	}
	if (q->nr)
		q->heap[i] = last;
	CP_DEBUG_CHECK(cp_pq_check(q));
	return true;
}

bool cp_pq_check(const struct cp_pq *q)
{
	size_t i;

	if (q->nr > q->cap)
		return false;
	for (i = 1; i < q->nr; i++)
		if (less(&q->heap[i], &q->heap[(i - 1) / 2]))
			return false;
	for (i = 0; i < q->nr; i++)
		if (q->heap[i].seq >= q->next_seq)
			return false;
	return true;
}
