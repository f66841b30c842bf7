/*
 * test_alloc.c - cp_grow(): a growable array doubles from min_cap, keeps
 * its memory while it has room, and is left as it was when the
 * allocation fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/alloc.h"

/* Empty array, min_cap 16: room for 1 -> 16; for 17 -> 32; for 100 ->
 * 16, 32, 64, 128 (one resize to the first power-of-two multiple that
 * fits). */
static void grow_doubles_from_min_cap(void **state)
{
	size_t cap = 0;
	int *a = NULL;

	(void)state;
	a = cp_grow(a, &cap, 1, sizeof(*a), 16);
	assert_non_null(a);
	assert_int_equal(cap, 16);
	a = cp_grow(a, &cap, 17, sizeof(*a), 16);
	assert_int_equal(cap, 32);
	a[31] = 7;
	a = cp_grow(a, &cap, 100, sizeof(*a), 16);
	assert_int_equal(cap, 128);
	assert_int_equal(a[31], 7);
	cp_free(a);
}

/* With room already, no allocation is made and the pointer stays. */
static void grow_with_room_allocates_nothing(void **state)
{
	size_t cap = 0;
	int *a = cp_grow(NULL, &cap, 1, sizeof(*a), 8), *b;

	(void)state;
	cp_alloc_fail_after(0); /* any allocation now would fail */
	b = cp_grow(a, &cap, 8, sizeof(*a), 8);
	cp_alloc_fail_after(-1);
	assert_ptr_equal(a, b);
	assert_int_equal(cap, 8);
	cp_free(a);
}

/* A failed resize returns NULL and leaves the array and cap alone. */
static void grow_failure_changes_nothing(void **state)
{
	size_t cap = 0;
	int *a = cp_grow(NULL, &cap, 4, sizeof(*a), 4), *b;

	(void)state;
	a[3] = 42;
	cp_alloc_fail_after(0);
	b = cp_grow(a, &cap, 5, sizeof(*a), 4);
	cp_alloc_fail_after(-1);
	assert_null(b);
	assert_int_equal(cap, 4);
	assert_int_equal(a[3], 42);
	cp_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grow_doubles_from_min_cap),
		cmocka_unit_test(grow_with_room_allocates_nothing),
		cmocka_unit_test(grow_failure_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
