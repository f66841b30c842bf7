/*
 * test_scenario.c - scenario files: the built-ins carry the seed
 * scripts' values, every kind of bad input is reported with file, line,
 * section, key and value, --set overrides, --mem scales.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "scenario/scenario.h"

#define MiB (1024ULL * 1024)
#define GiB (1024ULL * MiB)
#define SEC 1000000000ULL

/* The source tree, from this file's path (CMake compiles it by its
 * absolute path): ".../tests/unit/test_scenario.c". */
static const char *src_path(const char *rel)
{
	static char buf[4096];
	const char *tail = strstr(__FILE__, "tests/unit/test_scenario.c");

	assert_non_null(tail);
	snprintf(buf, sizeof(buf), "%.*s%s", (int)(tail - __FILE__), __FILE__, rel);
	return buf;
}

static struct cp_scenario *load_ok(const char *rel)
{
	struct cp_scenario *sc = NULL;
	struct cp_diag d = { "" };
	int rc = cp_scenario_load(src_path(rel), &sc, &d);

	if (rc)
		fail_msg("%s: %s", rel, d.msg);
	assert_true(cp_scenario_check(sc));
	return sc;
}

/* Loads rel, expects failure rc and a message holding every needle. */
static void expect_load_error(const char *rel, int rc, const char *const *needles)
{
	struct cp_scenario *sc = (struct cp_scenario *)0x1;
	struct cp_diag d = { "" };

	assert_int_equal(cp_scenario_load(src_path(rel), &sc, &d), rc);
	assert_ptr_equal(sc, (struct cp_scenario *)0x1); /* untouched on failure */
	for (; *needles; needles++)
		if (!strstr(d.msg, *needles))
			fail_msg("message '%s' lacks '%s'", d.msg, *needles);
}

/* ---- the built-in scenarios ------------------------------------------------ */

/* cache-pressure.sh: dd bs=1M count=6500 -> 6500 * 2^20 = 6815744000
 * bytes per file, cached; read-file reads 1 MiB at a time; fs_mark
 * -D 5000 -S0 -n 100000 -s 0 -L 20 with two -d, started after sleep 5. */
static void seed_scenario_has_the_scripts_values(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	const struct cp_sc_creator *c;
	size_t i;

	(void)state;
	assert_string_equal(sc->name, "seed");
	assert_int_equal(sc->ram_bytes, 16 * GiB);
	assert_string_equal(sc->fs, "xfs");
	assert_string_equal(sc->mount, "/mnt/btrfs-test");
	assert_string_equal(sc->kernel, "linux-4.11");
	assert_int_equal(sc->nr_files, 2);
	assert_int_equal(sc->nr_readers, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(sc->files[i].size_bytes, 6815744000ULL);
		assert_true(sc->files[i].cached);
		assert_false(sc->files[i].sparse);
		assert_int_equal(sc->readers[i].read_size_bytes, 1048576);
		assert_int_equal(sc->readers[i].actor.start_ns, 0);
		assert_string_equal(sc->readers[i].actor.stop_with, "fs_mark");
		assert_int_equal(sc->readers[i].file_idx, i);
	}
	assert_string_equal(sc->files[0].path, "/mnt/btrfs-test/reads/file1");
	assert_string_equal(sc->files[1].path, "/mnt/btrfs-test/reads/file2");
	assert_int_equal(sc->nr_creators, 1);
	c = &sc->creators[0];
	assert_int_equal(c->dirs.n, 2);
	assert_string_equal(c->dirs.v[0], "/mnt/btrfs-test/0");
	assert_string_equal(c->dirs.v[1], "/mnt/btrfs-test/1");
	assert_int_equal(c->files_per_loop, 100000);
	assert_int_equal(c->loops, 20);
	assert_int_equal(c->file_size_bytes, 0);
	assert_int_equal(c->sync, 0);
	assert_int_equal(c->subdirs, 5000);
	assert_int_equal(c->files_per_subdir, 0);   /* time-hash policy */
	assert_int_equal(c->secs_per_dir_ns, 180 * SEC);
	assert_int_equal(c->name_len, 40);
	assert_int_equal(c->actor.start_ns, 5 * SEC);
	assert_null(c->actor.stop_with);
	cp_scenario_destroy(sc);
}

/* files-in-cache.sh: fs_mark -n 1000000 -L 1 -s0 (no -S: fsync per
 * file, no -D: no subdirectories) over three dirs; dd bs=1M seek=100000
 * count=1 -> (100000 + 1) * 2^20 = 104858648576 bytes; three read-dir
 * walkers and a cat, walkers signalled after the cat. */
static void files_in_cache_scenario_has_the_scripts_values(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/files-in-cache.ini");
	size_t i;

	(void)state;
	assert_int_equal(sc->nr_files, 1);
	assert_int_equal(sc->files[0].size_bytes, 104858648576ULL);
	assert_true(sc->files[0].sparse);
	assert_false(sc->files[0].cached);
	assert_int_equal(sc->creators[0].dirs.n, 3);
	assert_int_equal(sc->creators[0].files_per_loop, 1000000);
	assert_int_equal(sc->creators[0].loops, 1);
	assert_int_equal(sc->creators[0].sync, 1);
	assert_int_equal(sc->creators[0].subdirs, 0);
	assert_int_equal(sc->nr_walkers, 3);
	for (i = 0; i < 3; i++) {
		char root[32];

		snprintf(root, sizeof(root), "/mnt/btrfs-test/%zu", i);
		assert_string_equal(sc->walkers[i].root, root);
		assert_false(sc->walkers[i].recursive);
		assert_string_equal(sc->walkers[i].actor.start_after, "fs_mark");
		assert_string_equal(sc->walkers[i].actor.stop_with, "cat");
	}
	assert_int_equal(sc->nr_streamers, 1);
	assert_string_equal(sc->streamers[0].actor.start_after, "fs_mark");
	assert_int_equal(sc->streamers[0].read_size_bytes, 131072);
	assert_int_equal(sc->streamers[0].file_idx, 0);
	cp_scenario_destroy(sc);
}

/* ---- a good file: defaults, relative sizes, order, continuation ----------- */

static void good_file_resolves_defaults_and_relative_sizes(void **state)
{
	struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");

	(void)state;
	assert_int_equal(sc->ram_bytes, GiB);
	assert_int_equal(sc->seed, 42);
	assert_int_equal(sc->time_limit_ns, 0);   /* default */
	assert_null(sc->kernel);                  /* optional, absent */
	/* size = 25% of 1 GiB = 2^30 / 4 = 268435456 */
	assert_string_equal(sc->files[1].name, "data");
	assert_int_equal(sc->files[1].size_bytes, 268435456ULL);
	assert_int_equal(sc->files[0].size_bytes, 3 * GiB);
	assert_true(sc->files[0].sparse);
	/* defaults from the programs: read-file 1 MiB, cat 128 KiB, fs_mark -p 40 */
	assert_int_equal(sc->readers[1].read_size_bytes, 1048576);
	assert_int_equal(sc->streamers[0].read_size_bytes, 131072);
	assert_int_equal(sc->creators[0].name_len, 40);
	assert_int_equal(sc->readers[0].actor.start_ns, 1500000000ULL); /* 1.5s */
	assert_int_equal(sc->creators[0].files_per_loop, 4000);          /* 4k */
	assert_int_equal(sc->creators[0].actor.start_ns, 100000000ULL);  /* 100ms */
	cp_scenario_destroy(sc);
}

static void sections_are_sorted_by_name_and_files_resolved(void **state)
{
	struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");

	(void)state;
	/* the file declares zeta before alpha and data before big */
	assert_string_equal(sc->readers[0].actor.name, "alpha");
	assert_string_equal(sc->readers[1].actor.name, "zeta");
	assert_string_equal(sc->files[0].name, "big");
	assert_int_equal(sc->readers[0].file_idx, 1);
	assert_int_equal(sc->readers[1].file_idx, 1);
	assert_int_equal(sc->streamers[0].file_idx, 0);
	cp_scenario_destroy(sc);
}

static void indented_line_continues_a_path_list(void **state)
{
	struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");

	(void)state;
	assert_int_equal(sc->creators[0].dirs.n, 3);
	assert_string_equal(sc->creators[0].dirs.v[2], "/mnt/test/c");
	cp_scenario_destroy(sc);
}

/* good.ini: line 3 is "[reader zeta]", line 4 its "file = data". */
static void origin_records_section_and_key_lines(void **state)
{
	struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");
	const struct cp_sc_origin *o = &sc->readers[1].actor.origin;

	(void)state;
	assert_int_equal(o->line, 3);
	assert_int_equal(o->key_line[0], 4); /* "file" is key 0 of a reader */
	assert_int_equal(o->key_line[1], 0); /* read_size: the default */
	cp_scenario_destroy(sc);
}

static void find_actor_spans_all_types(void **state)
{
	struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");
	enum cp_sc_actor_type t;
	size_t idx;

	(void)state;
	assert_non_null(cp_scenario_find_actor(sc, "w", &t, &idx));
	assert_int_equal(t, CP_SC_WALKER);
	assert_int_equal(idx, 0);
	assert_non_null(cp_scenario_find_actor(sc, "stream", &t, &idx));
	assert_int_equal(t, CP_SC_STREAMER);
	assert_null(cp_scenario_find_actor(sc, "data", NULL, NULL)); /* a file, not an actor */
	assert_string_equal(cp_sc_actor_type_name(CP_SC_CREATOR), "creator");
	cp_scenario_destroy(sc);
}

/* ---- each error names file, line, section, key and value ------------------ */

static void unknown_key_is_an_error(void **state)
{
	static const char *const n[] = { "bad-unknown-key.ini:13:", "[reader r]", "colour = blue",
					 "unknown key", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-unknown-key.ini", -CP_EINVAL, n);
}

static void unknown_section_type_is_an_error(void **state)
{
	static const char *const n[] = { "bad-unknown-section.ini:8:", "[blender b]", "speed = 9",
					 "unknown section type 'blender'", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-unknown-section.ini", -CP_EINVAL, n);
}

static void bad_size_is_an_error(void **state)
{
	static const char *const n[] = { "bad-size.ini:10:", "[file f]", "size = 12Q",
					 "not a size", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-size.ini", -CP_EINVAL, n);
}

static void negative_count_is_an_error(void **state)
{
	static const char *const n[] = { "bad-negative-count.ini:9:", "[creator c]",
					 "files_per_loop = -5", "non-negative", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-negative-count.ini", -CP_EINVAL, n);
}

static void bad_bool_is_an_error(void **state)
{
	static const char *const n[] = { "bad-bool.ini:11:", "[file f]", "cached = maybe",
					 "not a boolean", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-bool.ini", -CP_EINVAL, n);
}

static void bad_duration_is_an_error(void **state)
{
	static const char *const n[] = { "bad-duration.ini:9:", "[creator c]", "start = soon",
					 "not a duration", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-duration.ini", -CP_EINVAL, n);
}

static void reader_of_a_missing_file_is_an_error(void **state)
{
	static const char *const n[] = { "bad-reader-file.ini:13:", "[reader r]",
					 "file = nosuchfile", "no [file nosuchfile]", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-reader-file.ini", -CP_EINVAL, n);
}

static void duplicate_section_is_an_error(void **state)
{
	static const char *const n[] = { "bad-duplicate-section.ini:15:", "[reader r]",
					 "given twice (first at line 12)", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-duplicate-section.ini", -CP_EINVAL, n);
}

static void duplicate_key_is_an_error(void **state)
{
	static const char *const n[] = { "bad-duplicate-key.ini:4:", "[scenario]", "ram = 2G",
					 "first at line 3", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-duplicate-key.ini", -CP_EINVAL, n);
}

static void duplicate_actor_name_across_types_is_an_error(void **state)
{
	static const char *const n[] = { "bad-duplicate-actor.ini:10:", "[walker same]",
					 "[creator same]", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-duplicate-actor.ini", -CP_EINVAL, n);
}

static void missing_required_key_is_an_error(void **state)
{
	static const char *const n[] = { "bad-missing-key.ini:8:", "[file f]",
					 "missing key 'size'", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-missing-key.ini", -CP_EINVAL, n);
}

static void missing_scenario_section_is_an_error(void **state)
{
	static const char *const n[] = { "bad-missing-scenario.ini", "missing [scenario]", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-missing-scenario.ini", -CP_EINVAL, n);
}

static void reader_that_never_stops_is_an_error(void **state)
{
	static const char *const n[] = { "bad-never-stops.ini:11:", "[reader r]", "never stops",
					 NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-never-stops.ini", -CP_EINVAL, n);
}

static void stop_with_cycle_is_an_error(void **state)
{
	static const char *const n[] = { "bad-cycle.ini:", "stop_with = ", "cycle", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-cycle.ini", -CP_EINVAL, n);
}

static void path_outside_mount_is_an_error(void **state)
{
	static const char *const n[] = { "bad-path-outside.ini:9:", "[file f]",
					 "path = /home/user/f", "not below scenario.mount", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-path-outside.ini", -CP_EINVAL, n);
}

static void section_without_keys_is_an_error(void **state)
{
	static const char *const n[] = { "bad-empty-section.ini:10:", "[walker w]",
					 "without keys", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-empty-section.ini", -CP_EINVAL, n);
}

static void syntax_error_names_the_line(void **state)
{
	static const char *const n[] = { "bad-syntax.ini:4:", "syntax error", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-syntax.ini", -CP_EINVAL, n);
}

static void unknown_kernel_profile_is_an_error(void **state)
{
	static const char *const n[] = { "bad-kernel.ini:6:", "kernel = linux-2.6",
					 "linux-4.11", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-kernel.ini", -CP_EINVAL, n);
}

static void line_longer_than_inih_buffer_is_an_error(void **state)
{
	static const char *const n[] = { "bad-long-line.ini:6:", "longer than", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/bad-long-line.ini", -CP_EINVAL, n);
}

static void missing_file_is_enoent_naming_the_path(void **state)
{
	static const char *const n[] = { "no-such-scenario.ini", "cannot open", NULL };
	(void)state;
	expect_load_error("tests/data/scenarios/no-such-scenario.ini", -CP_ENOENT, n);
}

static void relative_size_of_zero_is_an_error(void **state)
{
	static const char text[] = "[scenario]\nname = x\nram = 1M\nfs = xfs\nmount = /m\n"
				   "time_limit = 1s\n[file f]\npath = /m/f\nsize = 0.0001%\n"
				   "[reader r]\nfile = f\n";
	struct cp_scenario *sc = NULL;
	struct cp_diag d = { "" };

	(void)state;
	/* 1 MiB * 0.0001 / 100 = 1.048 bytes -> 1 byte is fine; 0.00001% is 0.1 byte */
	assert_int_equal(cp_scenario_load_string(text, "mem", &sc, &d), 0);
	assert_int_equal(sc->files[0].size_bytes, 1);
	cp_scenario_destroy(sc);
	{
		char t2[sizeof(text) + 1];
		char *p;

		strcpy(t2, text);
		p = strstr(t2, "0.0001%");
		memmove(p + 1, p, strlen(p) + 1);
		memcpy(p, "0.00001%", 8);
		assert_int_equal(cp_scenario_load_string(t2, "mem", &sc, &d), -CP_EINVAL);
		assert_non_null(strstr(d.msg, "mem:9:"));
		assert_non_null(strstr(d.msg, "must not be 0"));
	}
}

/* inih skips a UTF-8 byte order mark; line numbers still count from 1. */
static void byte_order_mark_is_skipped(void **state)
{
	static const char text[] = "\xEF\xBB\xBF[scenario]\nname = x\nram = 1G\nfs = xfs\n"
				   "mount = /m\n[creator c]\ndirs = /m/0\n";
	struct cp_scenario *sc = NULL;
	struct cp_diag d = { "" };

	(void)state;
	if (cp_scenario_load_string(text, "bom", &sc, &d))
		fail_msg("%s", d.msg);
	assert_int_equal(sc->origin.line, 1);
	assert_int_equal(sc->creators[0].actor.origin.line, 6);
	cp_scenario_destroy(sc);
}

/* ---- --set -------------------------------------------------------------------- */

static void set_overrides_one_key(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_scenario_set(sc, "reader.file1.read_size=2M", &d), 0);
	assert_int_equal(sc->readers[0].read_size_bytes, 2 * MiB);
	assert_int_equal(sc->readers[1].read_size_bytes, MiB);
	assert_int_equal(sc->readers[0].actor.origin.key_line[1], 0); /* no longer from the file */
	assert_int_equal(cp_scenario_set(sc, "creator fs_mark.loops=3", &d), 0);
	assert_int_equal(sc->creators[0].loops, 3);
	assert_int_equal(cp_scenario_set(sc, "scenario.seed=7", &d), 0);
	assert_int_equal(sc->seed, 7);
	cp_scenario_destroy(sc);
}

static void set_with_star_applies_to_every_section_of_a_type(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_scenario_set(sc, "reader.*.start=2s", &d), 0);
	assert_int_equal(sc->readers[0].actor.start_ns, 2 * SEC);
	assert_int_equal(sc->readers[1].actor.start_ns, 2 * SEC);
	cp_scenario_destroy(sc);
}

/* 50% of the seed's 16 GiB = 8 GiB */
static void set_relative_size_uses_current_ram(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_scenario_set(sc, "file.file2.size=50%", &d), 0);
	assert_int_equal(sc->files[1].size_bytes, 8 * GiB);
	cp_scenario_destroy(sc);
}

static void set_unknown_key_names_key_and_changes_nothing(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_scenario_set(sc, "reader.file1.colour=blue", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "reader.file1.colour=blue"));
	assert_non_null(strstr(d.msg, "unknown key 'colour'"));
	assert_int_equal(cp_scenario_set(sc, "nonsense", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "nonsense"));
	assert_int_equal(cp_scenario_set(sc, "reader.file9.start=1s", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "no [reader file9]"));
	assert_true(cp_scenario_check(sc));
	cp_scenario_destroy(sc);
}

static void set_bad_value_names_it_and_changes_nothing(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_scenario_set(sc, "creator.fs_mark.sync=9", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "[creator fs_mark] sync = 9"));
	assert_non_null(strstr(d.msg, "at most 6"));
	assert_int_equal(sc->creators[0].sync, 0);
	cp_scenario_destroy(sc);
}

static void set_failing_validation_rolls_back(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_scenario_set(sc, "reader.*.file=nosuch", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "file = nosuch"));
	assert_string_equal(sc->readers[0].file, "file1");
	assert_string_equal(sc->readers[1].file, "file2");
	assert_int_equal(sc->readers[1].file_idx, 1);
	/* a dangling stop_with would leave the readers running forever */
	assert_int_equal(cp_scenario_set(sc, "reader.file1.stop_with=", &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "never stops"));
	assert_string_equal(sc->readers[0].actor.stop_with, "fs_mark");
	/* moving the mount point moves no path with it */
	assert_int_equal(cp_scenario_set(sc, "scenario.mount=/srv", &d), -CP_EINVAL);
	assert_string_equal(sc->mount, "/mnt/btrfs-test");
	assert_true(cp_scenario_check(sc));
	cp_scenario_destroy(sc);
}

/* ---- --mem ---------------------------------------------------------------------- */

/* seed at --mem 1G: mem/ram = 1/16. Files 6815744000 / 16 = 425984000
 * bytes (406.25 MiB); fs_mark -n 100000 / 16 = 6250. Not scaled: the
 * 1 MiB read size, loops, delays. */
static void scale_seed_to_1g(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");

	(void)state;
	assert_int_equal(cp_scenario_scale(sc, GiB, NULL), 0);
	assert_int_equal(sc->ram_bytes, GiB);
	assert_int_equal(sc->files[0].size_bytes, 425984000ULL);
	assert_int_equal(sc->files[1].size_bytes, 425984000ULL);
	assert_int_equal(sc->creators[0].files_per_loop, 6250);
	assert_int_equal(sc->readers[0].read_size_bytes, MiB);
	assert_int_equal(sc->creators[0].loops, 20);
	assert_int_equal(sc->creators[0].actor.start_ns, 5 * SEC);
	cp_scenario_destroy(sc);
}

/* --mem 256M: 1/64. 6815744000 / 64 = 106496000; 100000 / 64 = 1562.5,
 * rounded down to 1562. */
static void scale_rounds_down(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");

	(void)state;
	assert_int_equal(cp_scenario_scale(sc, 256 * MiB, NULL), 0);
	assert_int_equal(sc->files[0].size_bytes, 106496000ULL);
	assert_int_equal(sc->creators[0].files_per_loop, 1562);
	cp_scenario_destroy(sc);
}

/* --mem 32G doubles: 13631488000 bytes, 200000 files. */
static void scale_up_multiplies(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");

	(void)state;
	assert_int_equal(cp_scenario_scale(sc, 32 * GiB, NULL), 0);
	assert_int_equal(sc->files[0].size_bytes, 13631488000ULL);
	assert_int_equal(sc->creators[0].files_per_loop, 200000);
	cp_scenario_destroy(sc);
}

/* good.ini at 4 KiB of RAM: data 2^28 * 2^12 / 2^30 = 1024 bytes,
 * files_per_loop 4000 * 4096 / 2^30 = 0.015 -> kept at 1. */
static void scale_never_turns_a_value_into_zero(void **state)
{
	struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");

	(void)state;
	assert_int_equal(cp_scenario_scale(sc, 4096, NULL), 0);
	assert_int_equal(sc->files[1].size_bytes, 1024);
	assert_int_equal(sc->creators[0].files_per_loop, 1);
	cp_scenario_destroy(sc);
}

static void scale_overflow_and_zero_change_nothing(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	struct cp_diag d = { "" };

	(void)state;
	/* file2 = 32G = 2 x ram: 2 * (2^64 - 1) does not fit; file1 (checked
	 * first, scalable) must not have changed either */
	assert_int_equal(cp_scenario_set(sc, "file.file2.size=32G", &d), 0);
	assert_int_equal(cp_scenario_scale(sc, UINT64_MAX, &d), -CP_ERANGE);
	assert_non_null(strstr(d.msg, "[file file2] size"));
	assert_int_equal(cp_scenario_scale(sc, 0, &d), -CP_EINVAL);
	assert_int_equal(sc->ram_bytes, 16 * GiB);
	assert_int_equal(sc->files[0].size_bytes, 6815744000ULL);
	assert_int_equal(sc->files[1].size_bytes, 32 * GiB);
	assert_int_equal(sc->creators[0].files_per_loop, 100000);
	cp_scenario_destroy(sc);
}

/* ---- print ------------------------------------------------------------------------- */

static char *print_to_string(const struct cp_scenario *sc)
{
	FILE *fp = tmpfile();
	long len;
	char *buf;

	assert_non_null(fp);
	assert_int_equal(cp_scenario_print(fp, sc), 0);
	len = ftell(fp);
	assert_true(len > 0);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	rewind(fp);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

static void print_then_load_gives_the_same_scenario(void **state)
{
	static const char *const files[] = { "scenarios/seed.ini", "scenarios/files-in-cache.ini",
					     "tests/data/scenarios/good.ini" };
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct cp_scenario *sc = load_ok(files[i]), *again = NULL;
		struct cp_diag d = { "" };
		char *one, *two;

		assert_int_equal(cp_scenario_scale(sc, 3 * GiB, NULL), 0);
		one = print_to_string(sc);
		if (cp_scenario_load_string(one, "printed", &again, &d))
			fail_msg("%s: %s\n%s", files[i], d.msg, one);
		two = print_to_string(again);
		assert_string_equal(one, two);
		free(one);
		free(two);
		cp_scenario_destroy(sc);
		cp_scenario_destroy(again);
	}
}

static void print_sorts_keys_and_uses_exact_units(void **state)
{
	struct cp_scenario *sc = load_ok("scenarios/seed.ini");
	char *s;

	(void)state;
	assert_int_equal(cp_scenario_scale(sc, GiB, NULL), 0);
	s = print_to_string(sc);
	/* 425984000 = 416000 * 1024, not a whole number of MiB */
	assert_non_null(strstr(s, "\nsize = 416000K\n"));
	assert_non_null(strstr(s, "\nfiles_per_loop = 6250\n"));
	assert_non_null(strstr(s, "\nsecs_per_dir = 180s\n"));
	assert_non_null(strstr(s, "\ndirs = /mnt/btrfs-test/0, /mnt/btrfs-test/1\n"));
	/* sorted keys: cached < path < size < sparse */
	assert_true(strstr(s, "cached = yes") < strstr(s, "path = /mnt/btrfs-test/reads/file1"));
	assert_true(strstr(s, "[file file1]") < strstr(s, "[reader file1]"));
	assert_true(strstr(s, "[reader file2]") < strstr(s, "[creator fs_mark]"));
	free(s);
	cp_scenario_destroy(sc);
}

/* ---- built-in lookup and allocation failures ------------------------------------ */

static void find_builtin_maps_a_name_to_a_file(void **state)
{
	char dir[4096], *path = NULL;
	struct cp_diag d = { "" };

	(void)state;
	snprintf(dir, sizeof(dir), "%s", src_path("scenarios"));
	assert_int_equal(cp_scenario_find_builtin("seed", dir, &path, &d), 0);
	assert_non_null(strstr(path, "scenarios/seed.ini"));
	cp_free(path);
	path = NULL;
	assert_int_equal(cp_scenario_find_builtin("nosuch", dir, &path, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "'nosuch'"));
	assert_int_equal(cp_scenario_find_builtin("../seed", dir, &path, &d), -CP_EINVAL);
	assert_null(path);
}

/* Every allocation of a load, and of a --set, fails in turn: the result
 * is -CP_ENOMEM, nothing leaks (ASan), nothing half-changed. */
static void every_allocation_failure_is_reported(void **state)
{
	const char *path = src_path("tests/data/scenarios/good.ini");
	char p[4096];
	long n;

	(void)state;
	snprintf(p, sizeof(p), "%s", path);
	for (n = 0;; n++) {
		struct cp_scenario *sc = NULL;
		int rc;

		cp_alloc_fail_after(n);
		rc = cp_scenario_load(p, &sc, NULL);
		cp_alloc_fail_after(-1);
		if (rc == 0) {
			cp_scenario_destroy(sc);
			break;
		}
		assert_int_equal(rc, -CP_ENOMEM);
		assert_null(sc);
	}
	assert_true(n > 10);
	for (n = 0;; n++) {
		struct cp_scenario *sc = load_ok("tests/data/scenarios/good.ini");
		int rc;

		cp_alloc_fail_after(n);
		rc = cp_scenario_set(sc, "creator.maker.dirs=/mnt/test/x /mnt/test/y", NULL);
		cp_alloc_fail_after(-1);
		if (rc == 0) {
			assert_int_equal(sc->creators[0].dirs.n, 2);
			cp_scenario_destroy(sc);
			break;
		}
		assert_int_equal(rc, -CP_ENOMEM);
		assert_int_equal(sc->creators[0].dirs.n, 3);
		cp_scenario_destroy(sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_scenario_has_the_scripts_values),
		cmocka_unit_test(files_in_cache_scenario_has_the_scripts_values),
		cmocka_unit_test(good_file_resolves_defaults_and_relative_sizes),
		cmocka_unit_test(sections_are_sorted_by_name_and_files_resolved),
		cmocka_unit_test(indented_line_continues_a_path_list),
		cmocka_unit_test(origin_records_section_and_key_lines),
		cmocka_unit_test(find_actor_spans_all_types),
		cmocka_unit_test(unknown_key_is_an_error),
		cmocka_unit_test(unknown_section_type_is_an_error),
		cmocka_unit_test(bad_size_is_an_error),
		cmocka_unit_test(negative_count_is_an_error),
		cmocka_unit_test(bad_bool_is_an_error),
		cmocka_unit_test(bad_duration_is_an_error),
		cmocka_unit_test(reader_of_a_missing_file_is_an_error),
		cmocka_unit_test(duplicate_section_is_an_error),
		cmocka_unit_test(duplicate_key_is_an_error),
		cmocka_unit_test(duplicate_actor_name_across_types_is_an_error),
		cmocka_unit_test(missing_required_key_is_an_error),
		cmocka_unit_test(missing_scenario_section_is_an_error),
		cmocka_unit_test(reader_that_never_stops_is_an_error),
		cmocka_unit_test(stop_with_cycle_is_an_error),
		cmocka_unit_test(path_outside_mount_is_an_error),
		cmocka_unit_test(section_without_keys_is_an_error),
		cmocka_unit_test(syntax_error_names_the_line),
		cmocka_unit_test(unknown_kernel_profile_is_an_error),
		cmocka_unit_test(line_longer_than_inih_buffer_is_an_error),
		cmocka_unit_test(missing_file_is_enoent_naming_the_path),
		cmocka_unit_test(relative_size_of_zero_is_an_error),
		cmocka_unit_test(byte_order_mark_is_skipped),
		cmocka_unit_test(set_overrides_one_key),
		cmocka_unit_test(set_with_star_applies_to_every_section_of_a_type),
		cmocka_unit_test(set_relative_size_uses_current_ram),
		cmocka_unit_test(set_unknown_key_names_key_and_changes_nothing),
		cmocka_unit_test(set_bad_value_names_it_and_changes_nothing),
		cmocka_unit_test(set_failing_validation_rolls_back),
		cmocka_unit_test(scale_seed_to_1g),
		cmocka_unit_test(scale_rounds_down),
		cmocka_unit_test(scale_up_multiplies),
		cmocka_unit_test(scale_never_turns_a_value_into_zero),
		cmocka_unit_test(scale_overflow_and_zero_change_nothing),
		cmocka_unit_test(print_then_load_gives_the_same_scenario),
		cmocka_unit_test(print_sorts_keys_and_uses_exact_units),
		cmocka_unit_test(find_builtin_maps_a_name_to_a_file),
		cmocka_unit_test(every_allocation_failure_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
