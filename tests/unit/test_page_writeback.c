/*
 * test_page_writeback.c - the global dirty limits and balance_dirty_pages()
 * (mm/page-writeback.c), on numbers worked by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "model/page_writeback.h"

/* global_dirtyable_memory(): free 1000 less totalreserve 300, plus the
 * file LRU's 500, plus 1 = 1201; free below the reserve counts 0. */
static void dirtyable_memory_is_free_less_reserve_plus_file_lru(void **state)
{
	(void)state;
	assert_int_equal(cp_global_dirtyable_memory(1000, 300, 500), 1201);
	assert_int_equal(cp_global_dirtyable_memory(100, 300, 500), 501);
	assert_int_equal(cp_global_dirtyable_memory(0, 0, 0), 1);
}

/* domain_dirty_limits() at the defaults (20 %, 10 %) of 10 000 pages:
 * thresh 2 000, bg_thresh 1 000; freerun (2000 + 1000) / 2 = 1 500;
 * setpoint (1500 + 2000) / 2 = 1 750. */
static void limits_freerun_and_setpoint_at_the_default_ratios(void **state)
{
	struct cp_dirty_limits l;

	(void)state;
	cp_domain_dirty_limits(10000, 20, 10, &l);
	assert_int_equal(l.thresh, 2000);
	assert_int_equal(l.bg_thresh, 1000);
	assert_int_equal(cp_dirty_freerun_ceiling(&l), 1500);
	assert_int_equal(cp_dirty_setpoint(&l), 1750);
}

/* domain_dirty_limits(): "if (bg_thresh >= thresh) bg_thresh = thresh /
 * 2": background 30 % over a 20 % limit gives 1 000 of 10 000. */
static void background_not_below_the_limit_is_half_of_it(void **state)
{
	struct cp_dirty_limits l;

	(void)state;
	cp_domain_dirty_limits(10000, 20, 30, &l);
	assert_int_equal(l.thresh, 2000);
	assert_int_equal(l.bg_thresh, 1000);
}

/* Three writes of 256 pages completing at 100, 200 and 300 ns. */
static void three_writes(struct cp_wb_domain *d)
{
	cp_wb_domain_init(d);
	assert_int_equal(cp_wb_domain_add(d, 100, 256), 0);
	assert_int_equal(cp_wb_domain_add(d, 200, 256), 0);
	assert_int_equal(cp_wb_domain_add(d, 300, 256), 0);
}

/* The three writes: 768 pages in flight at 0, 512 at 150 (the first
 * done), none at 300. */
static void domain_counts_writes_until_they_complete(void **state)
{
	struct cp_wb_domain d;

	(void)state;
	three_writes(&d);
	assert_int_equal(cp_wb_domain_pages(&d, 0), 768);
	assert_int_equal(cp_wb_domain_pages(&d, 150), 512);
	assert_int_equal(cp_wb_domain_pages(&d, 300), 0);
	cp_wb_domain_release(&d);
}

/* The same three writes against a setpoint of 300 pages: at 0 the 768
 * pages are over it, and the write that completes at 200 leaves 256:
 * the dirtier waits until 200. At or below the setpoint it goes on (0). */
static void balance_waits_for_the_completion_that_reaches_the_setpoint(void **state)
{
	struct cp_wb_domain d;

	(void)state;
	three_writes(&d);
	assert_int_equal(cp_balance_dirty_pages(&d, 300, 0), 200);
	assert_int_equal(cp_balance_dirty_pages(&d, 768, 0), 0);
	assert_int_equal(cp_balance_dirty_pages(&d, 300, 200), 0);
	cp_wb_domain_release(&d);
}

/* Many writes, dropped as they complete, reuse the queue: 10 000 writes
 * of one page, each completing before the next is added, never hold
 * more than one. */
static void completed_writes_leave_the_queue(void **state)
{
	struct cp_wb_domain d;
	uint64_t i;

	(void)state;
	cp_wb_domain_init(&d);
	for (i = 0; i < 10000; i++) {
		assert_int_equal(cp_wb_domain_add(&d, i + 1, 1), 0);
		assert_int_equal(cp_wb_domain_pages(&d, i), 1);
		assert_int_equal(cp_wb_domain_pages(&d, i + 1), 0);
	}
	assert_true(d.cap <= 64);
	cp_wb_domain_release(&d);
}

/* An allocation failure leaves the domain as it was. */
static void add_fails_cleanly_without_memory(void **state)
{
	struct cp_wb_domain d;

	(void)state;
	cp_wb_domain_init(&d);
	cp_alloc_fail_after(0);
	assert_int_equal(cp_wb_domain_add(&d, 100, 256), -CP_ENOMEM);
	cp_alloc_fail_after(-1);
	assert_int_equal(cp_wb_domain_pages(&d, 0), 0);
	assert_int_equal(cp_wb_domain_add(&d, 100, 256), 0);
	assert_int_equal(cp_wb_domain_pages(&d, 0), 256);
	cp_wb_domain_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dirtyable_memory_is_free_less_reserve_plus_file_lru),
		cmocka_unit_test(limits_freerun_and_setpoint_at_the_default_ratios),
		cmocka_unit_test(background_not_below_the_limit_is_half_of_it),
		cmocka_unit_test(domain_counts_writes_until_they_complete),
		cmocka_unit_test(balance_waits_for_the_completion_that_reaches_the_setpoint),
		cmocka_unit_test(completed_writes_leave_the_queue),
		cmocka_unit_test(add_fails_cleanly_without_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
