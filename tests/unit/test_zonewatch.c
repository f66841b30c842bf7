/*
 * test_zonewatch.c - the Normal zone against its boosted watermarks,
 * from samples: shares in per mille and the mean boost, by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "report/zonewatch.h"

static int64_t counter(const struct cp_run_result *r, const char *name)
{
	return cp_run_result_counter(r, name, -1);
}

/* Three samples (free, boost, min with the boost): (100, 0, 50) neither
 * boosted nor below; (40, 512, 562) boosted and below min_wmark_pages
 * (an allocation there reclaims directly); (2000, 1024, 1074) boosted,
 * above. Boosted 2 of 3 = 666 per mille (rounded down), mean boost
 * (0 + 512 + 1024) / 3 = 512, below 1 of 3 = 333 per mille. */
static void shares_and_mean_by_hand(void **state)
{
	struct cp_zonewatch zw = { 0 };
	struct cp_run_result r;

	(void)state;
	cp_run_result_init(&r);
	cp_zonewatch_add(&zw, 100, 0, 50);
	cp_zonewatch_add(&zw, 40, 512, 562);
	cp_zonewatch_add(&zw, 2000, 1024, 1074);
	assert_int_equal(cp_zonewatch_counters(&zw, &r), 0);
	assert_int_equal(counter(&r, "zonewatch_samples"), 3);
	assert_int_equal(counter(&r, "normal_boosted_pm"), 666);
	assert_int_equal(counter(&r, "normal_boost_mean_pages"), 512);
	assert_int_equal(counter(&r, "normal_below_min_pm"), 333);
	cp_run_result_release(&r);
}

/* Free pages equal to the boosted min count as below it:
 * __zone_watermark_ok() fails at free_pages <= min. No samples: only
 * zonewatch_samples 0, no shares (no division by zero). */
static void no_samples_no_shares(void **state)
{
	struct cp_zonewatch zw = { 0 };
	struct cp_run_result r;
	(void)state;
	cp_run_result_init(&r);
	assert_int_equal(cp_zonewatch_counters(&zw, &r), 0);
	assert_int_equal(counter(&r, "zonewatch_samples"), 0);
	assert_int_equal(counter(&r, "normal_boosted_pm"), -1);
	cp_zonewatch_add(&zw, 562, 512, 562);
	assert_int_equal(cp_zonewatch_counters(&zw, &r), 0);
	assert_int_equal(counter(&r, "normal_below_min_pm"), 1000);
	cp_run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shares_and_mean_by_hand),
		cmocka_unit_test(no_samples_no_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
