/*
 * test_zone.c - per-zone watermarks, lowmem reserve and the zone split,
 * on the numbers /proc/zoneinfo shows on the measured 24 GiB machine
 * (6.18, x86-64): managed DMA 3840, DMA32 772915, Normal 5394266;
 * min_free_kbytes 67584, watermark_scale_factor 10.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/zone.h"

static const uint64_t measured[CP_NR_ZONE_TYPES] = { 3840, 772915, 5394266 };

/* __setup_per_zone_wmarks(): pages_min = 67584 / 4 = 16896, lowmem =
 * 3840 + 772915 + 5394266 = 6171021.
 * DMA32: min = 16896 * 772915 / 6171021 = 2116 (2116.2);
 *   tmp = max(2116 / 4 = 529, 772915 * 10 / 10000 = 772) = 772;
 *   low = 2888, high = 3660.
 * Normal: min = 16896 * 5394266 / 6171021 = 14769 (14769.3);
 *   tmp = max(3692, 5394) = 5394; low = 20163, high = 25557.
 * DMA: min = 16896 * 3840 / 6171021 = 10; tmp = max(2, 3) = 3: 10/13/16.
 * All as /proc/zoneinfo prints them. */
static void setup_per_zone_wmarks_splits_min_by_managed_share(void **state)
{
	struct cp_watermarks w[CP_NR_ZONE_TYPES];

	(void)state;
	cp_zone_watermarks_setup(measured, 67584, 10, w);
	assert_int_equal(w[CP_ZONE_DMA32].min, 2116);
	assert_int_equal(w[CP_ZONE_DMA32].low, 2888);
	assert_int_equal(w[CP_ZONE_DMA32].high, 3660);
	assert_int_equal(w[CP_ZONE_NORMAL].min, 14769);
	assert_int_equal(w[CP_ZONE_NORMAL].low, 20163);
	assert_int_equal(w[CP_ZONE_NORMAL].high, 25557);
	assert_int_equal(w[CP_ZONE_DMA].min, 10);
	assert_int_equal(w[CP_ZONE_DMA].high, 16);
}

/* A zone without managed pages gets no watermarks and no share: one
 * zone of 4194304 pages alone takes all of min (16896), tmp = max(4224,
 * 4194) = 4224, as cp_watermarks_compute() of the one-zone model. */
static void empty_zone_takes_no_share_of_min_free_kbytes(void **state)
{
	const uint64_t one[CP_NR_ZONE_TYPES] = { 0, 0, 4194304 };
	struct cp_watermarks w[CP_NR_ZONE_TYPES], single;

	(void)state;
	cp_zone_watermarks_setup(one, 67584, 10, w);
	single = cp_watermarks_compute(4194304, 67584, 10);
	assert_int_equal(w[CP_ZONE_DMA].high, 0);
	assert_int_equal(w[CP_ZONE_DMA32].high, 0);
	assert_int_equal(w[CP_ZONE_NORMAL].min, 16896);
	assert_int_equal(w[CP_ZONE_NORMAL].low, single.low);
	assert_int_equal(w[CP_ZONE_NORMAL].high, single.high);
}

/* setup_per_zone_lowmem_reserve(): DMA32's protection for Normal-index
 * allocations = 5394266 / 256 = 21071 (21071.35); DMA's = (772915 +
 * 5394266) / 256 = 24090 (> its 3840 managed pages); DMA's for
 * DMA32-index allocations = 772915 / 256 = 3019. */
static void lowmem_reserve_is_upper_managed_over_ratio(void **state)
{
	(void)state;
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA32, CP_ZONE_NORMAL,
						CP_LOWMEM_RESERVE_RATIO_DMA32),
			 21071);
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA, CP_ZONE_NORMAL,
						CP_LOWMEM_RESERVE_RATIO_DMA),
			 24090);
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA, CP_ZONE_DMA32,
						CP_LOWMEM_RESERVE_RATIO_DMA),
			 3019);
	/* a zone never protects itself; ratio 0 or an empty lower zone: none */
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_NORMAL, CP_ZONE_NORMAL, 32), 0);
	assert_int_equal(cp_zone_lowmem_reserve(measured, CP_ZONE_DMA32, CP_ZONE_NORMAL, 0), 0);
}

/* The global regime: 16 GiB = 4194304 pages with DMA32 772915 pages:
 * DMA32 772915, Normal 3421389; 2 GiB = 524288 pages fits in DMA32:
 * one zone, no Normal; dma32 unknown (0): one zone as before. */
static void zone_split_gives_dma32_first_then_normal(void **state)
{
	uint64_t d, n;

	(void)state;
	cp_zone_split(4194304, 772915, &d, &n);
	assert_int_equal(d, 772915);
	assert_int_equal(n, 4194304 - 772915);
	cp_zone_split(524288, 772915, &d, &n);
	assert_int_equal(d, 524288);
	assert_int_equal(n, 0);
	cp_zone_split(524288, 0, &d, &n);
	assert_int_equal(d, 0);
	assert_int_equal(n, 524288);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(setup_per_zone_wmarks_splits_min_by_managed_share),
		cmocka_unit_test(empty_zone_takes_no_share_of_min_free_kbytes),
		cmocka_unit_test(lowmem_reserve_is_upper_managed_over_ratio),
		cmocka_unit_test(zone_split_gives_dma32_first_then_normal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
