/*
 * test_pool.c - host object pool: stable addresses, index round trip,
 * LIFO reuse, failure leaves the pool unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/alloc.h"
#include "core/pool.h"

struct obj {
	uint64_t a, b;
};

/* 4 objects per chunk (shift 2): 10 objects need 3 chunks; addresses
 * handed out earlier never move when later chunks are added. */
static void addresses_stay_stable_across_chunk_growth(void **state)
{
	struct cp_pool p;
	struct obj *o[10];
	uint32_t idx[10];
	int i;

	(void)state;
	cp_pool_init(&p, sizeof(struct obj), 2);
	for (i = 0; i < 10; i++) {
		o[i] = cp_pool_alloc(&p, &idx[i]);
		assert_non_null(o[i]);
		assert_int_equal(idx[i], i);
		o[i]->a = (uint64_t)i * 7;
	}
	assert_int_equal(p.nr_chunks, 3);
	for (i = 0; i < 10; i++) {
		assert_ptr_equal(cp_pool_at(&p, idx[i]), o[i]);
		assert_int_equal(o[i]->a, (uint64_t)i * 7);
	}
	assert_int_equal(p.nr_live, 10);
	assert_true(cp_pool_check(&p));
	cp_pool_release(&p);
}

/* Freed objects come back last-in first-out, zeroed. */
static void freed_objects_are_reused_lifo_and_zeroed(void **state)
{
	struct cp_pool p;
	struct obj *o;
	uint32_t idx, a, b;

	(void)state;
	cp_pool_init(&p, sizeof(struct obj), 3);
	o = cp_pool_alloc(&p, &a);
	o->a = 99;
	(void)cp_pool_alloc(&p, &b);
	cp_pool_free(&p, a);
	cp_pool_free(&p, b);
	assert_true(cp_pool_check(&p));
	o = cp_pool_alloc(&p, &idx);
	assert_int_equal(idx, b);
	o = cp_pool_alloc(&p, &idx);
	assert_int_equal(idx, a);
	assert_int_equal(o->a, 0);
	assert_int_equal(p.nr_used_slots, 2);
	assert_true(cp_pool_check(&p));
	cp_pool_release(&p);
}

/* A host allocation failure while growing returns NULL and changes
 * nothing: the next attempt succeeds with the same index. */
static void alloc_failure_leaves_pool_unchanged(void **state)
{
	struct cp_pool p;
	uint32_t idx;

	(void)state;
	cp_pool_init(&p, sizeof(struct obj), 1);
	assert_non_null(cp_pool_alloc(&p, &idx));
	assert_non_null(cp_pool_alloc(&p, &idx));
	cp_alloc_fail_after(0);
	assert_null(cp_pool_alloc(&p, &idx));
	cp_alloc_fail_after(-1);
	assert_int_equal(p.nr_live, 2);
	assert_true(cp_pool_check(&p));
	assert_non_null(cp_pool_alloc(&p, &idx));
	assert_int_equal(idx, 2);
	cp_pool_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(addresses_stay_stable_across_chunk_growth),
		cmocka_unit_test(freed_objects_are_reused_lifo_and_zeroed),
		cmocka_unit_test(alloc_failure_leaves_pool_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
