/*
 * test_intmath.c - the integer helpers of core/intmath.h against values
 * worked by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/intmath.h"

static void ilog2_is_the_highest_set_bit(void **state)
{
	(void)state;
	assert_int_equal(cp_ilog2(1), 0);
	assert_int_equal(cp_ilog2(255), 7);
	assert_int_equal(cp_ilog2(256), 8);
	assert_int_equal(cp_ilog2(640), 9);
	assert_int_equal(cp_ilog2(1ull << 40), 40);
}

static void ffs_is_the_lowest_set_bit(void **state)
{
	(void)state;
	assert_int_equal(cp_ffs(1), 0);
	assert_int_equal(cp_ffs(6), 1);
	assert_int_equal(cp_ffs(640), 7);   /* 640 = 5 x 128 */
	assert_int_equal(cp_ffs(1920), 7);  /* 1920 = 15 x 128 */
	assert_int_equal(cp_ffs(1024), 10);
}

/* zone_batchsize(): rounddown_pow_of_two(64 + 32) = 64 */
static void rounddown_pow_of_two_keeps_the_top_bit(void **state)
{
	(void)state;
	assert_int_equal(cp_rounddown_pow_of_two(96), 64);
	assert_int_equal(cp_rounddown_pow_of_two(48), 32);
	assert_int_equal(cp_rounddown_pow_of_two(64), 64);
	assert_int_equal(cp_rounddown_pow_of_two(1), 1);
}

static void int_sqrt_floors(void **state)
{
	(void)state;
	assert_int_equal(cp_int_sqrt(0), 0);
	assert_int_equal(cp_int_sqrt(15), 3);
	assert_int_equal(cp_int_sqrt(16), 4);
	assert_int_equal(cp_int_sqrt(160), 12); /* inactive ratio at 16 GiB */
}

/* DIV_ROUND_UP: 20800 bytes (100 fs_mark name entries) take 6 pages,
 * 4096 exactly 1, 0 none; near UINT64_MAX, where n + d - 1 would wrap,
 * (2^64 - 1) / 4096 rounds up to 2^52. */
static void div_round_up_rounds_up_without_overflow(void **state)
{
	(void)state;
	assert_int_equal(cp_div_round_up(20800, 4096), 6);
	assert_int_equal(cp_div_round_up(4096, 4096), 1);
	assert_int_equal(cp_div_round_up(0, 4096), 0);
	assert_int_equal(cp_div_round_up(UINT64_MAX, 4096), 1ULL << 52);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ilog2_is_the_highest_set_bit),
		cmocka_unit_test(ffs_is_the_lowest_set_bit),
		cmocka_unit_test(rounddown_pow_of_two_keeps_the_top_bit),
		cmocka_unit_test(int_sqrt_floors),
		cmocka_unit_test(div_round_up_rounds_up_without_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
