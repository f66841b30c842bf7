/*
 * test_super.c - super_cache_count scaling by vfs_cache_pressure and the
 * proportional split of super_cache_scan (fs/super.c, ref §5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "model/gfp.h"
#include "model/profile.h"
#include "model/super.h"

struct fake_fs {
	uint64_t dentries, inodes, cached;
	uint64_t asked_d, asked_i, asked_f;
	int order[3], nr_calls;
};

static uint64_t nr_d(void *fs, int m) { (void)m; return ((struct fake_fs *)fs)->dentries; }
static uint64_t nr_i(void *fs, int m) { (void)m; return ((struct fake_fs *)fs)->inodes; }
static uint64_t nr_c(void *fs, int m) { (void)m; return ((struct fake_fs *)fs)->cached; }

static uint64_t prune_d(void *fs, struct cp_shrink_control *sc)
{
	struct fake_fs *f = fs;

	f->asked_d = sc->nr_to_scan;
	f->order[f->nr_calls++] = 'd';
	return 3;
}

static uint64_t prune_i(void *fs, struct cp_shrink_control *sc)
{
	struct fake_fs *f = fs;

	f->asked_i = sc->nr_to_scan;
	f->order[f->nr_calls++] = 'i';
	return 2;
}

static uint64_t free_c(void *fs, struct cp_shrink_control *sc)
{
	struct fake_fs *f = fs;

	f->asked_f = sc->nr_to_scan;
	f->order[f->nr_calls++] = 'f';
	return 0; /* XFS reports nothing */
}

static const struct cp_super_ops ops = { nr_d, nr_i, nr_c, prune_d, prune_i, free_c };

static uint64_t count_with_pressure(unsigned pressure)
{
	struct fake_fs f = { .dentries = 3000, .inodes = 1000, .cached = 999 };
	struct cp_super sb;
	struct cp_shrink_control sc = { .gfp = CP_GFP_KERNEL };

	cp_super_init(&sb, &ops, &f, pressure, 100);
	return sb.shrinker.ops->count(sb.shrinker.priv, &sc);
}

/* vfs_pressure_ratio: 4999 objects x 50/100 = 2499 (mult_frac rounds
 * down), x 100/100 = 4999, x 200/100 = 9998. */
static void count_scales_with_vfs_cache_pressure(void **state)
{
	(void)state;
	assert_int_equal(count_with_pressure(50), 2499);
	assert_int_equal(count_with_pressure(100), 4999);
	assert_int_equal(count_with_pressure(200), 9998);
}

/* super_cache_scan split of 1024: total = 3000 + 1000 + 0 + 1 = 4001;
 * dentries 1024*3000/4001 = 767 (+1 = 768), inodes 1024*1000/4001 = 255
 * (+1 = 256); no fs objects -> free_cached_objects not called. The split
 * does not depend on vfs_cache_pressure (the scan recounts unscaled). */
static void scan_splits_in_proportion_dentries_first(void **state)
{
	unsigned pressures[] = { 50, 100, 200 };
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct fake_fs f = { .dentries = 3000, .inodes = 1000 };
		struct cp_super sb;
		struct cp_shrink_control sc = { .gfp = CP_GFP_KERNEL, .nr_to_scan = 1024 };
		uint64_t freed;

		cp_super_init(&sb, &ops, &f, pressures[i], 100);
		freed = sb.shrinker.ops->scan(sb.shrinker.priv, &sc);
		assert_int_equal(freed, 5);
		assert_int_equal(f.asked_d, 768);
		assert_int_equal(f.asked_i, 256);
		assert_int_equal(f.nr_calls, 2);
		assert_int_equal(f.order[0], 'd');
		assert_int_equal(f.order[1], 'i');
	}
}

/* With XFS reclaimable inodes: 2000 d, 1000 i, 1000 f: total 4001;
 * d = 1024*2000/4001 = 511 -> 512, i = f = 255 -> 256; order d, i, f. */
static void scan_includes_fs_objects_last(void **state)
{
	struct fake_fs f = { .dentries = 2000, .inodes = 1000, .cached = 1000 };
	struct cp_super sb;
	struct cp_shrink_control sc = { .gfp = CP_GFP_KERNEL, .nr_to_scan = 1024 };

	(void)state;
	cp_super_init(&sb, &ops, &f, 100, 100);
	sb.shrinker.ops->scan(sb.shrinker.priv, &sc);
	assert_int_equal(f.asked_d, 512);
	assert_int_equal(f.asked_i, 256);
	assert_int_equal(f.asked_f, 256);
	assert_int_equal(f.order[2], 'f');
}

/* super_cache_scan refuses a reclaimer without __GFP_FS. */
static void scan_without_gfp_fs_stops(void **state)
{
	struct fake_fs f = { .dentries = 3000, .inodes = 1000 };
	struct cp_super sb;
	struct cp_shrink_control sc = { .gfp = CP_GFP_NOFS, .nr_to_scan = 1024 };

	(void)state;
	cp_super_init(&sb, &ops, &f, 100, 100);
	assert_true(sb.shrinker.ops->scan(sb.shrinker.priv, &sc) == CP_SHRINK_STOP);
	assert_int_equal(f.nr_calls, 0);
	assert_int_equal(sb.nr_stop, 1);
}

/* 6.16+ denominator: pressure 1 / denom 10000 -> 4999 / 10000 = 0. */
static void denominator_allows_pressure_below_one_percent(void **state)
{
	struct fake_fs f = { .dentries = 3000000, .inodes = 1000000, .cached = 0 };
	struct cp_super sb;
	struct cp_shrink_control sc = { .gfp = CP_GFP_KERNEL };

	(void)state;
	cp_super_init(&sb, &ops, &f, 1, 10000);
	/* 4,000,000 * 1 / 10000 = 400 */
	assert_int_equal(sb.shrinker.ops->count(sb.shrinker.priv, &sc), 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(count_scales_with_vfs_cache_pressure),
		cmocka_unit_test(scan_splits_in_proportion_dentries_first),
		cmocka_unit_test(scan_includes_fs_objects_last),
		cmocka_unit_test(scan_without_gfp_fs_stops),
		cmocka_unit_test(denominator_allows_pressure_below_one_percent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
