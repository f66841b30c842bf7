/*
 * test_engine_pq.c - the engine's priority queue: (key, seq) order, so
 * equal keys leave in push order whatever the heap layout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "core/rng.h"
#include "engine/pq.h"

static void equal_keys_pop_in_push_order(void **state)
{
	static const uint64_t keys[] = { 5, 3, 5, 3, 1 };
	static const uint32_t want[] = { 4, 1, 3, 0, 2 }; /* ids = push index */
	struct cp_pq q;
	struct cp_pq_entry e;
	unsigned i;

	(void)state;
	cp_pq_init(&q);
	for (i = 0; i < 5; i++)
		assert_int_equal(cp_pq_push(&q, keys[i], i, 0), 0);
	for (i = 0; i < 5; i++) {
		assert_true(cp_pq_pop(&q, &e));
		assert_int_equal(e.id, want[i]);
	}
	assert_false(cp_pq_pop(&q, &e));
	assert_null(cp_pq_peek(&q));
	cp_pq_release(&q);
}

/* Against a reference that scans for the minimum (key, then push
 * order), over random pushes and pops with many equal keys. */
static void matches_linear_scan_reference(void **state)
{
	struct ref { uint64_t key, seq; uint32_t id; bool live; } ref[4000];
	struct cp_pq q;
	struct cp_pq_entry e;
	struct cp_rng rng;
	unsigned nref = 0, i, step;

	(void)state;
	cp_pq_init(&q);
	cp_rng_init(&rng, 42, 0);
	for (step = 0; step < 4000; step++) {
		if (cp_rng_below(&rng, 3) || q.nr == 0) {
			uint64_t key = cp_rng_below(&rng, 16);

			assert_int_equal(cp_pq_push(&q, key, step, 0), 0);
			ref[nref] = (struct ref){ key, nref, step, true };
			nref++;
		} else {
			int best = -1;

			for (i = 0; i < nref; i++)
				if (ref[i].live && (best < 0 || ref[i].key < ref[best].key))
					best = (int)i; /* first of equal keys = earliest push */
			assert_true(cp_pq_pop(&q, &e));
			assert_int_equal(e.id, ref[best].id);
			assert_int_equal(e.key, ref[best].key);
			ref[best].live = false;
		}
		assert_true(cp_pq_check(&q));
	}
	cp_pq_release(&q);
}

static void failed_push_leaves_queue_unchanged(void **state)
{
	struct cp_pq q;
	struct cp_pq_entry e;
	unsigned i;

	(void)state;
	cp_pq_init(&q);
	for (i = 0; i < 16; i++) /* fills the first allocation exactly */
		assert_int_equal(cp_pq_push(&q, 100 - i, i, 0), 0);
	cp_alloc_fail_after(0);
	assert_int_equal(cp_pq_push(&q, 0, 99, 0), -CP_ENOMEM);
	cp_alloc_fail_after(-1);
	assert_int_equal(q.nr, 16);
	assert_true(cp_pq_check(&q));
	assert_true(cp_pq_pop(&q, &e));
	assert_int_equal(e.id, 15); /* key 85, not the failed push */
	cp_pq_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(equal_keys_pop_in_push_order),
		cmocka_unit_test(matches_linear_scan_reference),
		cmocka_unit_test(failed_push_leaves_queue_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
