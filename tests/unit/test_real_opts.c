/*
 * test_real_opts.c - the options of `cachepressure real` and `calibrate`:
 * sizes through cp_parse_size(), bad input named in the message
 * (harness/lib/opts.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include <cachepressure/error.h>

#include "opts.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void defaults_and_binary_sizes(void **state)
{
	char *argv[] = { "real", "seed", "--mem", "256M" };
	struct cp_real_opts o;

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_string_equal(o.scenario, "seed");
	assert_int_equal(o.mem_bytes, 268435456ULL); /* 256 * 2^20 */
	assert_int_equal(o.confine, CP_CONFINE_GLOBAL);
	assert_int_equal(o.fs, CP_FS_XFS);
	assert_string_equal(o.workdir, "/var/tmp/cachepressure");
	assert_int_equal(o.repeat, 1);
	assert_null(o.json);
	assert_false(o.keep);
}

static void every_option_with_equals_or_space(void **state)
{
	char *argv[] = { "real",     "--mem=1.5G",	 "--confine", "memcg", "--fs=ext4",
			 "--workdir", "/srv/cp-work", "--repeat",  "3",	"--json",
			 "out.json",  "--keep",	 "files-in-cache" };
	struct cp_real_opts o;

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_int_equal(o.mem_bytes, 1610612736ULL); /* 1.5 * 2^30 */
	assert_int_equal(o.confine, CP_CONFINE_MEMCG);
	assert_int_equal(o.fs, CP_FS_EXT4);
	assert_string_equal(o.workdir, "/srv/cp-work");
	assert_int_equal(o.repeat, 3);
	assert_string_equal(o.json, "out.json");
	assert_true(o.keep);
	assert_string_equal(o.scenario, "files-in-cache");
}

/* Each bad value gives -CP_EINVAL and a message naming the input. */
static void bad_values_are_named(void **state)
{
	static const char *const cases[][3] = {
		{ "--mem", "12Q", "'12Q'" },	     { "--mem", "0", "'0'" },
		{ "--mem", "-1G", "'-1G'" },	     { "--confine", "cgroup", "'cgroup'" },
		{ "--fs", "btrfs", "'btrfs'" },      { "--repeat", "0", "'0'" },
		{ "--repeat", "101", "'101'" },      { "--workdir", "rel/dir", "'rel/dir'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "real", "seed", "--mem", "1G", (char *)cases[i][0],
				 (char *)cases[i][1] };
		struct cp_real_opts o;
		struct cp_diag d = { "" };

		assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, &d), -CP_EINVAL);
		if (!strstr(d.msg, cases[i][2]))
			fail_msg("%s %s: message '%s' does not name the value", cases[i][0],
				 cases[i][1], d.msg);
	}
}

static void missing_pieces_are_reported(void **state)
{
	char *no_mem[] = { "real", "seed" };
	char *no_scn[] = { "real", "--mem", "1G" };
	char *no_val[] = { "real", "seed", "--mem" };
	char *two[] = { "real", "seed", "files-in-cache", "--mem", "1G" };
	char *unknown[] = { "real", "seed", "--mem", "1G", "--frobnicate" };
	struct cp_real_opts o;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(no_mem), no_mem, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--mem"));
	assert_int_equal(cp_real_opts_parse(ARGC(no_scn), no_scn, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "SCENARIO"));
	assert_int_equal(cp_real_opts_parse(ARGC(no_val), no_val, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "needs a value"));
	assert_int_equal(cp_real_opts_parse(ARGC(two), two, &o, &d), -CP_EINVAL);
	assert_int_equal(cp_real_opts_parse(ARGC(unknown), unknown, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--frobnicate"));
}

static void help_wins_over_everything(void **state)
{
	char *argv[] = { "real", "--mem", "junk", "-h" };
	struct cp_real_opts o;

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, NULL), 1);
}

static void calibrate_options(void **state)
{
	char *argv[] = { "calibrate", "--workdir=/srv/x", "-o", "me.ini", "--from",
			 "profiles/seed-box.ini", "--name", "vm-2cpu" };
	char *bad[] = { "calibrate", "--name", "two words" };
	char *rel[] = { "calibrate", "--workdir", "x" };
	struct cp_calibrate_opts o;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(cp_calibrate_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_string_equal(o.workdir, "/srv/x");
	assert_string_equal(o.output, "me.ini");
	assert_string_equal(o.from, "profiles/seed-box.ini");
	assert_string_equal(o.name, "vm-2cpu");
	assert_int_equal(cp_calibrate_opts_parse(ARGC(bad), bad, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "two words"));
	assert_int_equal(cp_calibrate_opts_parse(ARGC(rel), rel, &o, &d), -CP_EINVAL);
	assert_int_equal(cp_calibrate_opts_parse(1, argv, &o, NULL), 0);
	assert_string_equal(o.workdir, "/var/tmp/cachepressure");
	assert_null(o.output);
}

/* --kernel: vm-mem defaults to mem + 256 MiB, 2 CPUs, timeout from the
 * plan (0 here), accelerator auto. */
static void lab_defaults_follow_mem(void **state)
{
	char *argv[] = { "real", "seed", "--mem", "1G", "--kernel", "/k/bzImage" };
	struct cp_real_opts o;

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_string_equal(o.lab.kernel, "/k/bzImage");
	assert_int_equal(o.lab.vm_mem_bytes, 1342177280ULL); /* (1024 + 256) * 2^20 */
	assert_int_equal(o.lab.vm_cpus, 2);
	assert_int_equal(o.lab.timeout_ns, 0);
	assert_int_equal(o.lab.accel, CP_LAB_ACCEL_AUTO);
	assert_null(o.guest_disk);
}

static void lab_options_parse(void **state)
{
	char *argv[] = { "real",     "seed",	  "--mem",   "256M", "--kernel=/k/bz", "--vm-mem",
			 "1.25G",    "--vm-cpus", "4",	      "--timeout", "15m",	   "--accel",
			 "tcg" };
	struct cp_real_opts o;

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, NULL), 0);
	assert_int_equal(o.lab.vm_mem_bytes, 1342177280ULL); /* 1.25 * 2^30 */
	assert_int_equal(o.lab.vm_cpus, 4);
	assert_int_equal(o.lab.timeout_ns, 900000000000ULL); /* 15 * 60 s */
	assert_int_equal(o.lab.accel, CP_LAB_ACCEL_TCG);
}

/* vm-mem below mem + 192 MiB is refused naming both sizes; 1G + 192M
 * exactly is accepted. Lab-only options without --kernel are refused. */
static void lab_bad_input_is_named(void **state)
{
	char *small[] = { "real", "seed", "--mem", "1G", "--kernel", "/k", "--vm-mem", "1100M" };
	char *edge[] = { "real", "seed", "--mem", "1G", "--kernel", "/k", "--vm-mem", "1216M" };
	char *nok[] = { "real", "seed", "--mem", "1G", "--vm-cpus", "2" };
	char *bad[][2] = { { "--vm-mem", "lots" }, { "--vm-cpus", "0" }, { "--timeout", "soon" },
			   { "--accel", "xen" } };
	struct cp_real_opts o;
	struct cp_diag d = { "" };
	size_t i;

	(void)state;
	assert_int_equal(cp_real_opts_parse(ARGC(small), small, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--vm-mem 1100 MiB is too small for --mem 1024 MiB"));
	assert_int_equal(cp_real_opts_parse(ARGC(edge), edge, &o, &d), 0);
	assert_int_equal(cp_real_opts_parse(ARGC(nok), nok, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--vm-cpus needs --kernel"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "real", "seed", "--mem", "1G", "--kernel", "/k", bad[i][0],
				 bad[i][1] };
		char want[32];

		assert_int_equal(cp_real_opts_parse(ARGC(argv), argv, &o, &d), -CP_EINVAL);
		snprintf(want, sizeof(want), "'%s'", bad[i][1]);
		if (!strstr(d.msg, want) || !strstr(d.msg, bad[i][0]))
			fail_msg("%s %s: message '%s'", bad[i][0], bad[i][1], d.msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_and_binary_sizes),
		cmocka_unit_test(every_option_with_equals_or_space),
		cmocka_unit_test(bad_values_are_named),
		cmocka_unit_test(missing_pieces_are_reported),
		cmocka_unit_test(help_wins_over_everything),
		cmocka_unit_test(calibrate_options),
		cmocka_unit_test(lab_defaults_follow_mem),
		cmocka_unit_test(lab_options_parse),
		cmocka_unit_test(lab_bad_input_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
