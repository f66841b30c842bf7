/*
 * test_real_plan.c - the seed's scripts as harness steps, scaled by
 * --mem / the scenario's 16 GiB (harness/lib/plan.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "plan.h"

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)

/* cache-pressure.sh at 16 GiB: dd bs=1M count=6500 twice, fs_mark -n
 * 100000 -L 20 -D 5000 -S0 -s 0 on two dirs, started 5 s later. */
static void seed_at_16g_is_the_script_unscaled(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_plan_build("seed", 16 * GIB, &p, NULL), 0);
	assert_int_equal(p.nr_files, 2);
	assert_int_equal(p.files[0].size_bytes, 6815744000ULL); /* 6500 MiB */
	assert_int_equal(p.files[1].size_bytes, 6815744000ULL);
	assert_string_equal(p.files[0].name, "reads/file1");
	assert_int_equal(p.nr_loopers, 2);
	assert_int_equal(p.loopers[1].kind, CP_REAL_READER);
	assert_string_equal(p.loopers[1].path, "reads/file2");
	assert_int_equal(p.driver, CP_REAL_DRIVE_FS_MARK);
	assert_int_equal(p.driver_delay_ns, 5000000000ULL);
	assert_int_equal(p.fsm.files_per_loop, 100000);
	assert_int_equal(p.fsm.loops, 20);
	assert_int_equal(p.fsm.subdirs, 5000);
	assert_int_equal(p.fsm.sync_method, 0);
	/* 2 workers x 20 loops x 100000 files = 4M files */
	assert_int_equal(cp_real_plan_nr_files(&p), 4000000);
}

/* --mem 1G: f = 1/16. 6500 MiB / 16 = 406.25 MiB = 425984000 B (a 4 KiB
 * multiple: 104000 pages); -n 100000 / 16 = 6250; -L, -D, -S and the
 * delay do not scale. */
static void seed_scales_file_size_and_files_per_loop(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_plan_build("seed", 1 * GIB, &p, NULL), 0);
	assert_int_equal(p.mem_bytes, 1 * GIB);
	assert_int_equal(p.files[0].size_bytes, 425984000ULL);
	assert_int_equal(p.fsm.files_per_loop, 6250);
	assert_int_equal(p.fsm.loops, 20);
	assert_int_equal(p.fsm.subdirs, 5000);
	assert_int_equal(p.driver_delay_ns, 5000000000ULL);
	assert_int_equal(cp_real_plan_nr_files(&p), 250000);
	assert_int_equal(cp_real_plan_data_bytes(&p), 2 * 425984000ULL);
}

/* --mem 256M: f = 1/64. 6500 MiB / 64 = 101.5625 MiB = 106496000 B,
 * already a 4 KiB multiple (26000 pages); -n 100000 / 64 = 1562.5 rounds
 * to 1563. */
static void seed_at_256m_rounds_files_per_loop_to_nearest(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_plan_build("seed", 256 * MIB, &p, NULL), 0);
	assert_int_equal(p.files[0].size_bytes, 106496000ULL);
	assert_int_equal(p.fsm.files_per_loop, 1563);
}

/* A size that is not a page multiple after scaling is rounded down:
 * --mem 1001M: 6815744000 * 1001 / 16384 = 416416000 B = 101664.06
 * pages -> 101664 pages = 416415744 B. */
static void scaled_sizes_round_down_to_pages(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_plan_build("seed", 1001 * MIB, &p, NULL), 0);
	assert_int_equal(p.files[0].size_bytes, 416415744ULL);
	assert_int_equal(p.files[0].size_bytes % 4096, 0);
}

/* files-in-cache.sh: dd seek=100000 count=1 -> a 100000 MiB hole and one
 * written MiB; at 1G the hole is 6250 MiB, the written MiB stays. fs_mark
 * -n 1000000 -L 1 (no -S, no -D) on three dirs -> 62500 per dir. */
static void files_in_cache_scales_the_hole_not_the_written_mib(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_plan_build("files-in-cache", 1 * GIB, &p, NULL), 0);
	assert_int_equal(p.nr_files, 1);
	assert_true(p.files[0].sparse);
	assert_int_equal(p.files[0].size_bytes, 6250 * MIB + MIB);
	assert_int_equal(cp_real_plan_data_bytes(&p), MIB);
	assert_true(p.setup_fs_mark);
	assert_int_equal(p.setup_fsm.files_per_loop, 62500);
	assert_int_equal(p.setup_fsm.sync_method, -1);
	assert_int_equal(p.setup_fsm.subdirs, 0);
	assert_int_equal(p.nr_loopers, 3);
	assert_int_equal(p.loopers[2].kind, CP_REAL_WALKER);
	assert_string_equal(p.loopers[2].path, "2");
	assert_int_equal(p.driver, CP_REAL_DRIVE_STREAM);
	assert_string_equal(p.stream_path, "reads/file1");
	assert_int_equal(cp_real_plan_nr_files(&p), 187500);
}

static void unknown_scenario_is_named(void **state)
{
	struct cp_real_plan p;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_real_plan_build("sead", 1 * GIB, &p, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "'sead'"));
	assert_non_null(strstr(d.msg, "seed"));
}

static void tiny_memory_is_refused(void **state)
{
	struct cp_real_plan p;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_real_plan_build("seed", 1 * MIB, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "too small"));
}

/* A tiny scale never gives fs_mark -n 0: 100000 * 64M / 16G = 390.6 ->
 * 391; and cp_real_scale rounds half away from zero. */
static void scale_rounds_and_never_reaches_zero_files(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_scale(3, 1, 2), 2);  /* 1.5 -> 2 */
	assert_int_equal(cp_real_scale(5, 1, 4), 1);  /* 1.25 -> 1 */
	assert_int_equal(cp_real_scale(6815744000ULL, 1ULL << 40, 1ULL << 34),
			 6815744000ULL * 64); /* no overflow at 2^72 */
	assert_int_equal(cp_real_plan_build("seed", 64 * MIB, &p, NULL), 0);
	assert_int_equal(p.fsm.files_per_loop, 391);
}

/* Image: 2 x (data + 2 KiB per file + 1 GiB), rounded up to GiB, >= 4 GiB.
 * seed at 1G: 851968000 + 250000*2048 = 1363968000 + 1 GiB = 2437709824;
 * x2 = 4875419648 -> 5 GiB. At 256M: well under 4 GiB -> 4 GiB. */
static void image_size_leaves_room_for_inodes(void **state)
{
	struct cp_real_plan p;

	(void)state;
	assert_int_equal(cp_real_plan_build("seed", 1 * GIB, &p, NULL), 0);
	assert_int_equal(cp_real_plan_image_bytes(&p), 5 * GIB);
	assert_int_equal(cp_real_plan_build("seed", 256 * MIB, &p, NULL), 0);
	assert_int_equal(cp_real_plan_image_bytes(&p), 4 * GIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_at_16g_is_the_script_unscaled),
		cmocka_unit_test(seed_scales_file_size_and_files_per_loop),
		cmocka_unit_test(seed_at_256m_rounds_files_per_loop_to_nearest),
		cmocka_unit_test(scaled_sizes_round_down_to_pages),
		cmocka_unit_test(files_in_cache_scales_the_hole_not_the_written_mib),
		cmocka_unit_test(unknown_scenario_is_named),
		cmocka_unit_test(tiny_memory_is_refused),
		cmocka_unit_test(scale_rounds_and_never_reaches_zero_files),
		cmocka_unit_test(image_size_leaves_room_for_inodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
