/*
 * test_real_plan.c - a scenario (src/scenario/, scaled by --mem) as the
 * real harness's steps (harness/lib/plan.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include <cachepressure/error.h>

#include "plan.h"
#include "scenario/scenario.h"

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)

/* The source tree, from this file's path (CMake compiles it by its
 * absolute path). */
static const char *src_path(const char *rel)
{
	static char buf[4096];
	const char *tail = strstr(__FILE__, "tests/unit/test_real_plan.c");

	assert_non_null(tail);
	snprintf(buf, sizeof(buf), "%.*s%s", (int)(tail - __FILE__), __FILE__, rel);
	return buf;
}

/* Loads a built-in scenario, scales it to mem (0 = unscaled), plans it. */
static void plan_of(const char *rel, uint64_t mem, struct cp_real_plan *p)
{
	struct cp_scenario *sc = NULL;
	struct cp_diag d = { "" };

	if (cp_scenario_load(src_path(rel), &sc, &d))
		fail_msg("%s: %s", rel, d.msg);
	if (mem && cp_scenario_scale(sc, mem, &d))
		fail_msg("scale: %s", d.msg);
	if (cp_real_plan_from_scenario(sc, p, &d))
		fail_msg("plan: %s", d.msg);
	cp_scenario_destroy(sc);
}

/* Plans a scenario given as text; returns the rc, diag filled. */
static int plan_text(const char *text, struct cp_real_plan *p, struct cp_diag *d)
{
	struct cp_scenario *sc = NULL;
	int rc;

	if (cp_scenario_load_string(text, "test.ini", &sc, d))
		fail_msg("load: %s", d->msg);
	rc = cp_real_plan_from_scenario(sc, p, d);
	cp_scenario_destroy(sc);
	return rc;
}

/* cache-pressure.sh at 16 GiB: mkdir 0 1 reads; dd bs=1M count=6500
 * twice; two readers; after 5 s fs_mark -D 5000 -S0 -n 100000 -s 0 -L 20
 * -d 0 -d 1; readers stop with it. */
static void seed_is_the_script(void **state)
{
	struct cp_real_plan p;

	(void)state;
	plan_of("scenarios/seed.ini", 0, &p);
	assert_string_equal(p.scenario, "seed");
	assert_int_equal(p.mem_bytes, 16 * GIB);
	assert_int_equal(p.fs, CP_FS_XFS);
	assert_int_equal(p.nr_setup, 0);
	assert_int_equal(p.nr_files, 2);
	assert_string_equal(p.files[0].name, "reads/file1");
	assert_int_equal(p.files[0].size_bytes, 6815744000ULL); /* 6500 MiB */
	assert_true(p.files[0].cached);
	assert_false(p.files[0].sparse);
	assert_int_equal(p.nr_loopers, 2);
	assert_int_equal(p.loopers[1].kind, CP_REAL_READER);
	assert_string_equal(p.loopers[1].path, "reads/file2");
	assert_string_equal(p.loopers[1].label, "/mnt/btrfs-test/reads/file2");
	assert_int_equal(p.loopers[1].read_size_bytes, MIB);
	assert_int_equal(p.driver, CP_REAL_DRIVE_FS_MARK);
	assert_string_equal(p.driver_name, "fs_mark");
	assert_int_equal(p.driver_delay_ns, 5000000000ULL);
	assert_int_equal(p.fsm.nr_dirs, 2);
	assert_string_equal(p.fsm.dirs[1], "1");
	assert_int_equal(p.fsm.files_per_loop, 100000);
	assert_int_equal(p.fsm.loops, 20);
	assert_int_equal(p.fsm.subdirs, 5000);
	assert_int_equal(p.fsm.sync_method, 0);
	assert_int_equal(p.fsm.name_len, 0); /* 40: fs_mark's default, not passed */
	/* directories: the readers' files' parent and fs_mark's two */
	assert_int_equal(p.nr_mkdirs, 3);
	assert_string_equal(p.mkdirs[0], "reads");
	assert_string_equal(p.mkdirs[1], "0");
	assert_string_equal(p.mkdirs[2], "1");
	/* 2 workers x 20 loops x 100000 files */
	assert_int_equal(cp_real_plan_nr_files(&p), 4000000);
}

/* --mem 1G = 16G/16 (cp_scenario_scale: floor): 6500 MiB / 16 = 406.25 MiB
 * = 425984000 B; -n 100000 / 16 = 6250. -L, -D and the delay stay. */
static void seed_scaled_to_1g(void **state)
{
	struct cp_real_plan p;

	(void)state;
	plan_of("scenarios/seed.ini", 1 * GIB, &p);
	assert_int_equal(p.mem_bytes, 1 * GIB);
	assert_int_equal(p.files[0].size_bytes, 425984000ULL);
	assert_int_equal(p.fsm.files_per_loop, 6250);
	assert_int_equal(p.fsm.loops, 20);
	assert_int_equal(p.driver_delay_ns, 5000000000ULL);
	assert_int_equal(cp_real_plan_nr_files(&p), 250000);
	assert_int_equal(cp_real_plan_data_bytes(&p), 2 * 425984000ULL);
}

/* --mem 256M = 16G/64: 6500 MiB / 64 = 106496000 B; 100000 / 64 = 1562.5
 * -> floor 1562. */
static void seed_scaled_to_256m_floors_files_per_loop(void **state)
{
	struct cp_real_plan p;

	(void)state;
	plan_of("scenarios/seed.ini", 256 * MIB, &p);
	assert_int_equal(p.files[0].size_bytes, 106496000ULL);
	assert_int_equal(p.fsm.files_per_loop, 1562);
	assert_int_equal(cp_real_plan_nr_files(&p), 2 * 20 * 1562);
}

/* files-in-cache.sh: fs_mark -n 1000000 -L 1 -s0 -d 0 -d 1 -d 2 first
 * (fsync per file), then a sparse 100001 MiB file, three read-dir
 * walkers and a cat that they stop with. At 1G: 62500 files per dir; the
 * file 100001 MiB / 16 = 6250.0625 MiB = 6553665536 B. */
static void files_in_cache_has_setup_walkers_and_a_stream(void **state)
{
	struct cp_real_plan p;

	(void)state;
	plan_of("scenarios/files-in-cache.ini", 1 * GIB, &p);
	assert_int_equal(p.nr_setup, 1);
	assert_int_equal(p.setup[0].nr_dirs, 3);
	assert_int_equal(p.setup[0].files_per_loop, 62500);
	assert_int_equal(p.setup[0].loops, 1);
	assert_int_equal(p.setup[0].sync_method, 1);
	assert_int_equal(p.setup[0].subdirs, 0);
	assert_int_equal(p.nr_files, 1);
	assert_true(p.files[0].sparse);
	assert_false(p.files[0].cached);
	assert_int_equal(p.files[0].size_bytes, 6553665536ULL);
	assert_int_equal(cp_real_plan_data_bytes(&p), MIB); /* only dd's one MiB */
	assert_int_equal(p.nr_loopers, 3);
	assert_int_equal(p.loopers[2].kind, CP_REAL_WALKER);
	assert_string_equal(p.loopers[2].path, "2");
	assert_false(p.loopers[2].recursive);
	assert_int_equal(p.driver, CP_REAL_DRIVE_STREAM);
	assert_int_equal(p.driver_delay_ns, 0);
	assert_int_equal(p.stream.kind, CP_REAL_STREAMER);
	assert_string_equal(p.stream.path, "reads/file1");
	assert_int_equal(p.stream.read_size_bytes, 128 * 1024);
	assert_int_equal(cp_real_plan_nr_files(&p), 187500);
}

#define HEAD                                                                   \
	"[scenario]\nname = t\nram = 1G\nfs = xfs\nmount = /mnt/t\n"             \
	"[file f]\npath = /mnt/t/d/f\nsize = 10M\ncached = yes\nsparse = no\n"

#define CREATOR                                                                \
	"[creator fsm]\ndirs = /mnt/t/0\nfiles_per_loop = 10\nloops = 1\n"       \
	"file_size = 0\nsync = 0\nsubdirs = 0\nfiles_per_subdir = 0\n"           \
	"secs_per_dir = 180s\nname_len = 40\nstart = 1s\n"

static void loopers_must_share_their_driver(void **state)
{
	struct cp_real_plan p;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(plan_text(HEAD "[reader a]\nfile = f\nstop_with = fsm\n"
					"[reader b]\nfile = f\nstop_with = s\n"
					"[streamer s]\nfile = f\n" CREATOR,
				   &p, &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "[reader b] stop_with"));
}

static void loopers_start_together(void **state)
{
	struct cp_real_plan p;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(plan_text(HEAD "[reader a]\nfile = f\nstop_with = fsm\nstart = 2s\n" CREATOR,
				   &p, &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "[reader a] start"));
}

/* fs_mark 3.3 has no option for secs_per_dir (DEFAULT_SECS_PER_DIR = 180). */
static void secs_per_dir_other_than_180_is_refused(void **state)
{
	struct cp_real_plan p;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(plan_text(HEAD "[reader a]\nfile = f\nstop_with = fsm\n"
					"[creator fsm]\ndirs = /mnt/t/0\nfiles_per_loop = 10\n"
					"subdirs = 5\nsecs_per_dir = 60s\nstart = 1s\n",
				   &p, &d),
			 -CP_EINVAL);
	assert_non_null(strstr(d.msg, "secs_per_dir"));
}

/* A minimal valid shape: nested directories come parents first. */
static void nested_directories_parents_first(void **state)
{
	struct cp_real_plan p;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(plan_text("[scenario]\nname = t\nram = 1G\nfs = ext4\nmount = /mnt/t\n"
				   "[file f]\npath = /mnt/t/a/b/f\nsize = 10M\n"
				   "[reader a]\nfile = f\nstop_with = fsm\n" CREATOR,
				   &p, &d),
			 0);
	assert_int_equal(p.fs, CP_FS_EXT4);
	assert_string_equal(p.files[0].name, "a/b/f");
	assert_int_equal(p.nr_mkdirs, 3);
	assert_string_equal(p.mkdirs[0], "a");
	assert_string_equal(p.mkdirs[1], "a/b");
	assert_string_equal(p.mkdirs[2], "0");
	assert_int_equal(p.driver_delay_ns, 1000000000ULL);
}

/* Image: 2 x (data + 2 KiB per file + 1 GiB), rounded up to GiB, >= 4 GiB.
 * seed at 1G: 851968000 + 250000*2048 = 1363968000, + 1 GiB = 2437709824;
 * x2 = 4875419648 -> 5 GiB. At 256M: under 4 GiB -> 4 GiB. */
static void image_size_leaves_room_for_inodes(void **state)
{
	struct cp_real_plan p;

	(void)state;
	plan_of("scenarios/seed.ini", 1 * GIB, &p);
	assert_int_equal(cp_real_plan_image_bytes(&p), 5 * GIB);
	plan_of("scenarios/seed.ini", 256 * MIB, &p);
	assert_int_equal(cp_real_plan_image_bytes(&p), 4 * GIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_is_the_script),
		cmocka_unit_test(seed_scaled_to_1g),
		cmocka_unit_test(seed_scaled_to_256m_floors_files_per_loop),
		cmocka_unit_test(files_in_cache_has_setup_walkers_and_a_stream),
		cmocka_unit_test(loopers_must_share_their_driver),
		cmocka_unit_test(loopers_start_together),
		cmocka_unit_test(secs_per_dir_other_than_180_is_refused),
		cmocka_unit_test(nested_directories_parents_first),
		cmocka_unit_test(image_size_leaves_room_for_inodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
