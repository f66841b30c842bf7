/*
 * test_parse.c - sizes, durations, counts, booleans: good and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "core/parse.h"

static void sizes_use_binary_units(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(cp_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cp_parse_size("6500M", &v), 0);
	assert_int_equal(v, 6815744000ULL); /* dd bs=1M count=6500 */
	assert_int_equal(cp_parse_size("16G", &v), 0);
	assert_int_equal(v, 17179869184ULL);
	assert_int_equal(cp_parse_size("16GiB", &v), 0);
	assert_int_equal(v, 17179869184ULL);
	assert_int_equal(cp_parse_size("1.5G", &v), 0);
	assert_int_equal(v, 1610612736ULL);
	assert_int_equal(cp_parse_size("256m", &v), 0);
	assert_int_equal(v, 268435456ULL);
}

static void sizes_reject_garbage(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(cp_parse_size("", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_size("-1G", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_size("12Q", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_size("G", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_size("1 G", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_size("99999999999999999999", &v), -CP_ERANGE);
	assert_int_equal(cp_parse_size("20000000T", &v), -CP_ERANGE);
	assert_int_equal(v, 7); /* unchanged on failure */
}

static void durations_in_nanoseconds(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(cp_parse_duration("5s", &v), 0);
	assert_int_equal(v, 5000000000ULL);
	assert_int_equal(cp_parse_duration("5", &v), 0);
	assert_int_equal(v, 5000000000ULL);
	assert_int_equal(cp_parse_duration("100ms", &v), 0);
	assert_int_equal(v, 100000000ULL);
	assert_int_equal(cp_parse_duration("1.5s", &v), 0);
	assert_int_equal(v, 1500000000ULL);
	assert_int_equal(cp_parse_duration("2m", &v), 0);
	assert_int_equal(v, 120000000000ULL);
	assert_int_equal(cp_parse_duration("3 s", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_duration("-3s", &v), -CP_EINVAL);
}

static void counts_are_whole_and_non_negative(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(cp_parse_count("100000", &v), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(cp_parse_count("4M", &v), 0);
	assert_int_equal(v, 4000000);
	assert_int_equal(cp_parse_count("2k", &v), 0);
	assert_int_equal(v, 2000);
	assert_int_equal(cp_parse_count("-5", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_count("1.5", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_count("4m", &v), -CP_EINVAL);
	assert_int_equal(cp_parse_count("abc", &v), -CP_EINVAL);
}

static void booleans(void **state)
{
	bool b;

	(void)state;
	assert_int_equal(cp_parse_bool("yes", &b), 0);
	assert_true(b);
	assert_int_equal(cp_parse_bool("off", &b), 0);
	assert_false(b);
	assert_int_equal(cp_parse_bool("maybe", &b), -CP_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_use_binary_units),
		cmocka_unit_test(sizes_reject_garbage),
		cmocka_unit_test(durations_in_nanoseconds),
		cmocka_unit_test(counts_are_whole_and_non_negative),
		cmocka_unit_test(booleans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
