/*
 * test_real_fsmark.c - fs_mark's command line and its report table
 * (harness/lib/fsmark.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "fsmark.h"

static size_t argc_of(char **argv)
{
	size_t n = 0;

	while (argv[n])
		n++;
	return n;
}

/* cache-pressure.sh: fs_mark -D 5000 -S0 -n 100000 -s 0 -L 20 -d 0 -d 1,
 * here with -n scaled to 1G (6250) and relative directories. */
static void seed_command_line_follows_the_script(void **state)
{
	static const char *const want[] = { "fs_mark", "-D", "5000", "-S", "0", "-n", "6250",
					    "-s",      "0",  "-L",   "20", "-d", "0",  "-d",
					    "1" };
	struct cp_fs_mark_args a = { .nr_dirs = 2, .dirs = { "0", "1" }, .files_per_loop = 6250,
				     .loops = 20, .subdirs = 5000, .sync_method = 0 };
	char **argv;
	size_t i;

	(void)state;
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, NULL), 0);
	assert_int_equal(argc_of(argv), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(argv[i], want[i]);
	cp_fs_mark_argv_free(argv);
}

/* files-in-cache.sh: fs_mark -n 1000000 -L 1 -s0 -d 0 -d 1 -d 2 (the
 * scenario spells fs_mark's default fsync-per-file as sync = 1); -N and
 * -p appear only when set. */
static void optional_flags_appear_only_when_set(void **state)
{
	static const char *const want[] = { "fs_mark", "-N", "100", "-S", "1", "-n", "1000000",
					    "-s",      "0",  "-L",  "1",  "-p", "32", "-d", "0",
					    "-d",      "1",  "-d",  "sub/2" };
	struct cp_fs_mark_args a = { .nr_dirs = 3, .dirs = { "0", "1", "sub/2" },
				     .files_per_loop = 1000000, .loops = 1, .files_per_subdir = 100,
				     .sync_method = 1, .name_len = 32 };
	char **argv;
	size_t i;

	(void)state;
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, NULL), 0);
	assert_int_equal(argc_of(argv), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(argv[i], want[i]);
	cp_fs_mark_argv_free(argv);
	a.sync_method = -1; /* not given: no -S at all */
	a.files_per_subdir = 0;
	a.name_len = 0;
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, NULL), 0);
	assert_int_equal(argc_of(argv), 13);
	for (i = 0; argv[i]; i++)
		assert_true(strcmp(argv[i], "-S") && strcmp(argv[i], "-N") && strcmp(argv[i], "-p"));
	cp_fs_mark_argv_free(argv);
}

static void directories_must_be_relative_and_short(void **state)
{
	struct cp_fs_mark_args a = { .nr_dirs = 1, .dirs = { "../etc" }, .files_per_loop = 1,
				     .sync_method = -1 };
	struct cp_diag d = { "" };
	char **argv = NULL;

	(void)state;
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "../etc"));
	assert_null(argv);
	strcpy(a.dirs[0], "/abs");
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, &d), -CP_EINVAL);
	/* fs_mark 3.3: "directory pathname too long (must be less than 40 bytes)" */
	strcpy(a.dirs[0], "0123456789012345678901234567890123456789");
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "40 bytes"));
	a.dirs[0][39] = '\0'; /* 39 bytes: accepted */
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, &d), 0);
	cp_fs_mark_argv_free(argv);
	a.nr_dirs = 0;
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, &d), -CP_EINVAL);
	a.nr_dirs = 1;
	strcpy(a.dirs[0], "0");
	a.files_per_loop = 0;
	assert_int_equal(cp_fs_mark_argv(&a, "fs_mark", &argv, &d), -CP_EINVAL);
}

/* Rows of fs_mark 3.3's table; Count is cumulative. Mean of 17066.8 and
 * 16606.9 = 16836.85 -> 16837; the slowest row 16606.9 -> 16607. */
static void report_rows_give_files_and_mean_rate(void **state)
{
	const char *out =
		"\n#  fs_mark  -n  1000  -L  2  -s  0  -S0  -d  0  -d  1 \n"
		"#\tVersion 3.3, 2 thread(s) starting at Mon Nov 30 05:54:24 2026\n"
		"#\tApp overhead is time in microseconds spent in the test.\n"
		"\n"
		"FSUse%        Count         Size    Files/sec     App Overhead\n"
		"    68         2000            0      17066.8             6036\n"
		"    68         4000            0      16606.9             9734\n";
	struct cp_fs_mark_report r;

	(void)state;
	assert_int_equal(cp_fs_mark_parse(out, &r), 0);
	assert_int_equal(r.nr_loops, 2);
	assert_int_equal(r.files, 4000);
	assert_int_equal(r.files_per_sec, 16837);
	assert_int_equal(r.min_files_per_sec, 16607);
}

static void report_without_rows_is_an_error(void **state)
{
	struct cp_fs_mark_report r = { 7, 7, 7, 7 };

	(void)state;
	assert_int_equal(cp_fs_mark_parse("fs_mark: 0 directory pathname too long\n"
					  "Usage: fs_mark\n\t-h <print usage and exit>\n",
					  &r),
			 -CP_EINVAL);
	assert_int_equal(r.files, 7); /* untouched */
	assert_int_equal(cp_fs_mark_parse("", &r), -CP_EINVAL);
}

/* 2 dirs x 6250 files x 20 loops; -L 0 (not given) counts as one loop. */
static void total_files_is_dirs_times_files_times_loops(void **state)
{
	struct cp_fs_mark_args a = { .nr_dirs = 2, .files_per_loop = 6250, .loops = 20 };

	(void)state;
	assert_int_equal(cp_fs_mark_total_files(&a), 250000);
	a.loops = 0;
	assert_int_equal(cp_fs_mark_total_files(&a), 12500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_command_line_follows_the_script),
		cmocka_unit_test(optional_flags_appear_only_when_set),
		cmocka_unit_test(directories_must_be_relative_and_short),
		cmocka_unit_test(report_rows_give_files_and_mean_rate),
		cmocka_unit_test(report_without_rows_is_an_error),
		cmocka_unit_test(total_files_is_dirs_times_files_times_loops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
