/*
 * test_stats.c - mean, min, max and sample standard deviation over
 * repetitions, with hand-computed values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include <cachepressure/error.h>

#include "report/stats.h"

/* 2,4,4,4,5,5,7,9: sum 40, mean 5; squared deviations 9+1+1+1+0+0+4+16
 * = 32; sample variance 32/7; sd = sqrt(32/7) = 2.1380899... */
static void mean_and_sample_sd_by_hand(void **state)
{
	static const int64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct cp_stats s;

	(void)state;
	assert_int_equal(cp_stats_compute(v, 8, &s), 0);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.min, 2);
	assert_int_equal(s.max, 9);
	assert_true(s.mean == 5.0);
	assert_true(fabs(s.sd - sqrt(32.0 / 7.0)) < 1e-12);
}

/* The commit's three per-reader totals: sum 64091340800, mean
 * 21363780266.67; deviations 5899208021.33, 5899195733.33,
 * -11798403754.67; sum of squares / 2 -> sd 10217717375.65. */
static void large_byte_counts_keep_precision(void **state)
{
	static const int64_t v[] = { 27262988288LL, 27262976000LL, 9565376512LL };
	struct cp_stats s;

	(void)state;
	assert_int_equal(cp_stats_compute(v, 3, &s), 0);
	assert_true(fabs(s.mean - 64091340800.0 / 3.0) < 1e-3);
	assert_true(fabs(s.sd - 10217717375.648884) < 1e-3);
	assert_int_equal(s.min, 9565376512LL);
}

/* The sum of two INT64_MAX overflows 64 bits; the mean is still exact. */
static void sum_does_not_overflow(void **state)
{
	static const int64_t v[] = { INT64_MAX, INT64_MAX, INT64_MIN };
	struct cp_stats s;

	(void)state;
	assert_int_equal(cp_stats_compute(v, 2, &s), 0);
	assert_true(s.mean == (double)INT64_MAX);
	assert_true(s.sd == 0.0);
	assert_int_equal(cp_stats_compute(v, 3, &s), 0);
	assert_int_equal(s.min, INT64_MIN);
}

static void one_value_has_no_spread(void **state)
{
	static const int64_t v[] = { 42 };
	struct cp_stats s, untouched = { 99, 1, 2, 3.0, 4.0 };
	double z = 123;

	(void)state;
	assert_int_equal(cp_stats_compute(v, 1, &s), 0);
	assert_true(s.sd == 0.0);
	assert_int_equal(cp_stats_z(50, &s, &z), -CP_ERANGE);
	assert_true(z == 123);
	assert_int_equal(cp_stats_compute(v, 0, &untouched), -CP_EINVAL);
	assert_int_equal(untouched.n, 99);
}

/* mean 5, sd sqrt(32/7): the value 9 lies 4 / 2.13809 = 1.87083 sd and
 * 80 % above the mean. */
static void distance_in_sd_and_percent(void **state)
{
	static const int64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct cp_stats s;
	double z, pct;

	(void)state;
	assert_int_equal(cp_stats_compute(v, 8, &s), 0);
	assert_int_equal(cp_stats_z(9, &s, &z), 0);
	assert_true(fabs(z - 4.0 / sqrt(32.0 / 7.0)) < 1e-12);
	assert_int_equal(cp_stats_pct(9, &s, &pct), 0);
	assert_true(fabs(pct - 80.0) < 1e-12);
	s.mean = 0;
	assert_int_equal(cp_stats_pct(9, &s, &pct), -CP_ERANGE);
}

static void format_uses_fixed_precision_without_negative_zero(void **state)
{
	char buf[32];

	(void)state;
	cp_stats_format(buf, sizeof(buf), 3.14159, 2);
	assert_string_equal(buf, "3.14");
	cp_stats_format(buf, sizeof(buf), -0.004, 2);
	assert_string_equal(buf, "0.00");
	cp_stats_format(buf, sizeof(buf), -1.5, 2);
	assert_string_equal(buf, "-1.50");
	cp_stats_format(buf, sizeof(buf), 21363780266.666668, 0);
	assert_string_equal(buf, "21363780267");
	cp_stats_format(buf, sizeof(buf), NAN, 2);
	assert_string_equal(buf, "n/a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mean_and_sample_sd_by_hand),
		cmocka_unit_test(large_byte_counts_keep_precision),
		cmocka_unit_test(sum_does_not_overflow),
		cmocka_unit_test(one_value_has_no_spread),
		cmocka_unit_test(distance_in_sd_and_percent),
		cmocka_unit_test(format_uses_fixed_precision_without_negative_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
