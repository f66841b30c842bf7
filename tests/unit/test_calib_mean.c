/*
 * test_calib_mean.c - `calibrate --mean` and `--median`: the mean (median)
 * of calibrated machine profiles (harness/lib/calib_profile.c
 * cp_calib_mean, cp_calib_median) and their options. Rates and latencies
 * are combined with their unit; settings must agree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "calib_profile.h"
#include "calibrate.h"
#include "opts.h"

/* A profile as calibrate writes it: header, measured keys with their
 * "measured: " comment, a copied key, the fs_mark paragraph. */
static const char profile_fmt[] =
	"; Machine profile of vm, written by `cachepressure calibrate -o %s` on\n"
	"; 2026-12-01T19:22:23Z, kernel 6.18.44-fc-v782.\n"
	"; Measured keys say how they were measured; the others are copied from\n"
	"; profiles/seed-box.ini with their comments.\n"
	"\n"
	"[machine]\n"
	"; given with --name\n"
	"name = calibrated\n"
	"; measured: sysconf(_SC_NPROCESSORS_ONLN)\n"
	"cpus = 2\n"
	"; measured: online memory blocks\n"
	"ram = %s\n"
	"\n"
	"[cpu]\n"
	"; measured: mean of 5 passes of 1 MiB read()s\n"
	"; range: %s\n"
	"copy_bandwidth = %s\n"
	"; copied from profiles/seed-box.ini (calibrate cannot measure it):\n"
	"; per folio\n"
	"page_cached_ns = 80\n"
	"\n"
	"[device]\n"
	"; measured: mean of 2000 pread()s of 4 KiB with O_DIRECT\n"
	"; range: 60us..100us (p5..p95)\n"
	"read_latency = %s\n"
	"\n"
	"; fs_mark create rate for empty files on xfs, one worker: %s files/s,\n"
	"; measured with `fs_mark -S 0 -n 100000 -s 0 -L 1 -d fsm` on a fresh xfs\n";

struct files {
	char path[3][64];
};

/* Writes profile i with these values into a temporary file. */
static void write_profile(struct files *f, int i, const char *ram, const char *range,
			  const char *copy, const char *latency, const char *rate)
{
	FILE *out;
	int fd;

	snprintf(f->path[i], sizeof(f->path[i]), "/tmp/cp-test-mean-%d-XXXXXX", i);
	fd = mkstemp(f->path[i]);
	assert_true(fd >= 0);
	out = fdopen(fd, "w");
	assert_non_null(out);
	fprintf(out, profile_fmt, f->path[i], ram, range, copy, latency, rate);
	fclose(out);
}

static void remove_files(struct files *f, int n)
{
	int i;

	for (i = 0; i < n; i++)
		unlink(f->path[i]);
}

static struct cp_calibration *mean_of(struct files *f, int expect_rc, struct cp_diag *d)
{
	const char *paths[2] = { f->path[0], f->path[1] };
	struct cp_calibration *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	cp_calibration_init(c, "avg");
	assert_int_equal(cp_calib_mean(c, paths, 2, d), expect_rc);
	return c;
}

/* The median of n profiles (cp_calib_median). */
static struct cp_calibration *median_of(struct files *f, int n)
{
	const char *paths[3] = { f->path[0], f->path[1], f->path[2] };
	struct cp_calibration *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	cp_calibration_init(c, "med");
	assert_int_equal(cp_calib_median(c, paths, (size_t)n, NULL), 0);
	return c;
}

/* Three calibrations, one of them taken while the machine was disturbed
 * (copy 9000M, latency 160us, as two of grid s24's were): the median is
 * the middle value, 18000M and 80us, where the mean would be 14333M and
 * 104us; fs_mark's rate the middle one too; the comment says median. */
static void median_of_three_is_the_middle_value(void **state)
{
	struct files f;
	struct cp_calibration *c;
	struct cp_calib_value *v;

	(void)state;
	write_profile(&f, 0, "24576M", "15000M..17000M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "8000M..10000M", "9000M", "160us", "20000");
	write_profile(&f, 2, "24576M", "17500M..19000M", "18000M", "80us", "50000");
	c = median_of(&f, 3);
	v = cp_calibration_get(c, "cpu", "copy_bandwidth");
	assert_true(v->measured);
	assert_string_equal(v->value, "16000M");
	assert_non_null(strstr(v->how, "the median of 3 calibrations"));
	assert_string_equal(v->range, "8000M..19000M");
	assert_string_equal(cp_calibration_get(c, "device", "read_latency")->value, "80us");
	assert_int_equal(c->fs_mark_files_per_sec, 40000);
	assert_non_null(strstr(c->fs_mark_how, "the median of"));
	free(c);
	remove_files(&f, 3);
}

/* Of an even number the median is the mean of the middle two: of 16000M
 * and 18000M, 17000M, as the mean. */
static void median_of_two_is_their_mean(void **state)
{
	struct files f;
	struct cp_calibration *c;

	(void)state;
	write_profile(&f, 0, "24576M", "15000M..17000M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "17500M..19000M", "18000M", "80us", "50000");
	c = median_of(&f, 2);
	assert_string_equal(cp_calibration_get(c, "cpu", "copy_bandwidth")->value, "17000M");
	assert_string_equal(cp_calibration_get(c, "device", "read_latency")->value, "77us");
	free(c);
	remove_files(&f, 2);
}

/* A rate measured 16000M and 18000M: the mean in the inputs' unit, both
 * values and the first input's method in its comment, the widest range. */
static void drifting_rate_is_averaged_with_its_unit(void **state)
{
	struct files f;
	struct cp_calibration *c;
	struct cp_calib_value *v;

	(void)state;
	write_profile(&f, 0, "24576M", "15000M..17000M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "17500M..19000M", "18000M", "80us", "50000");
	c = mean_of(&f, 0, NULL);
	v = cp_calibration_get(c, "cpu", "copy_bandwidth");
	assert_true(v->measured);
	assert_string_equal(v->value, "17000M");
	assert_string_equal(v->range, "15000M..19000M");
	assert_non_null(strstr(v->how, "the mean of 2 calibrations"));
	assert_non_null(strstr(v->how, "16000M"));
	assert_non_null(strstr(v->how, "18000M"));
	assert_non_null(strstr(v->how, "mean of 5 passes of 1 MiB read()s"));
	v = cp_calibration_get(c, "device", "read_latency");
	assert_string_equal(v->value, "77us");
	/* the same range in both: kept, with its note */
	assert_string_equal(v->range, "60us..100us (p5..p95)");
	free(c);
	remove_files(&f, 2);
}

/* A key measured the same in all keeps its value and method. */
static void equal_values_are_kept(void **state)
{
	struct files f;
	struct cp_calibration *c;
	struct cp_calib_value *v;

	(void)state;
	write_profile(&f, 0, "24576M", "1M..2M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "1M..2M", "18000M", "80us", "50000");
	c = mean_of(&f, 0, NULL);
	v = cp_calibration_get(c, "machine", "ram");
	assert_true(v->measured);
	assert_string_equal(v->value, "24576M");
	assert_non_null(strstr(v->how, "online memory blocks"));
	assert_string_equal(cp_calibration_get(c, "machine", "name")->value, "avg");
	/* copied, not measured: left for the writer to copy */
	assert_false(cp_calibration_get(c, "cpu", "page_cached_ns")->measured);
	assert_string_equal(c->host, "vm");
	assert_string_equal(c->kernel, "6.18.44-fc-v782");
	free(c);
	remove_files(&f, 2);
}

/* fs_mark's create rate: the mean of the inputs' closing paragraphs. */
static void fs_mark_rate_is_averaged(void **state)
{
	struct files f;
	struct cp_calibration *c;

	(void)state;
	write_profile(&f, 0, "24576M", "1M..2M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "1M..2M", "18000M", "80us", "50001");
	c = mean_of(&f, 0, NULL);
	assert_int_equal(c->fs_mark_files_per_sec, 45001); /* 45000.5 rounded up */
	assert_non_null(strstr(c->fs_mark_how, "`fs_mark -S 0 -n 100000 -s 0 -L 1 -d fsm`"));
	assert_non_null(strstr(c->fs_mark_how, "50001"));
	free(c);
	remove_files(&f, 2);
}

/* ram is a setting of the machine: two values mean two setups. */
static void differing_setting_is_refused_by_name(void **state)
{
	struct files f;
	struct cp_diag d = { "" };

	(void)state;
	write_profile(&f, 0, "24576M", "1M..2M", "16000M", "74us", "40000");
	write_profile(&f, 1, "16384M", "1M..2M", "18000M", "80us", "50000");
	free(mean_of(&f, -CP_EINVAL, &d));
	assert_non_null(strstr(d.msg, "ram"));
	assert_non_null(strstr(d.msg, "16384M"));
	remove_files(&f, 2);
}

static void differing_units_are_refused(void **state)
{
	struct files f;
	struct cp_diag d = { "" };

	(void)state;
	write_profile(&f, 0, "24576M", "1M..2M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "1M..2M", "18G", "80us", "50000");
	free(mean_of(&f, -CP_EINVAL, &d));
	assert_non_null(strstr(d.msg, "copy_bandwidth"));
	assert_non_null(strstr(d.msg, "not the same unit"));
	remove_files(&f, 2);
}

static void missing_file_is_named(void **state)
{
	const char *paths[2] = { "/nonexistent/a.ini", "/nonexistent/b.ini" };
	struct cp_calibration *c = calloc(1, sizeof(*c));
	struct cp_diag d = { "" };

	(void)state;
	assert_non_null(c);
	cp_calibration_init(c, "avg");
	assert_int_equal(cp_calib_mean(c, paths, 2, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "/nonexistent/a.ini"));
	free(c);
}

/* A hand-written profile (profiles/seed-box.ini) has no calibrate header. */
static void profile_not_from_calibrate_is_refused(void **state)
{
	struct files f;
	struct cp_diag d = { "" };
	FILE *out;

	(void)state;
	write_profile(&f, 0, "24576M", "1M..2M", "16000M", "74us", "40000");
	write_profile(&f, 1, "24576M", "1M..2M", "18000M", "80us", "50000");
	out = fopen(f.path[1], "w");
	assert_non_null(out);
	fputs("[machine]\nname = seed-box\ncpus = 2\n", out);
	fclose(out);
	free(mean_of(&f, -CP_EINVAL, &d));
	assert_non_null(strstr(d.msg, f.path[1]));
	assert_non_null(strstr(d.msg, "not a profile calibrate wrote"));
	remove_files(&f, 2);
}

static int parse(const char *const *args, int n, struct cp_calibrate_opts *o,
		 struct cp_diag *d)
{
	char *argv[16];
	int i;

	for (i = 0; i < n; i++)
		argv[i] = (char *)args[i];
	return cp_calibrate_opts_parse(n, argv, o, d);
}

static void mean_options(void **state)
{
	static const char *const ok[] = { "calibrate", "--mean", "a.ini", "--mean", "b.ini",
					  "-o", "m.ini" };
	static const char *const one[] = { "calibrate", "--mean", "a.ini" };
	static const char *const measuring[] = { "calibrate", "--mean", "a.ini", "--mean",
						 "b.ini", "--file-size", "256M" };
	struct cp_calibrate_opts o;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(parse(ok, 7, &o, &d), 0);
	assert_int_equal(o.nr_mean, 2);
	assert_string_equal(o.mean[1], "b.ini");
	assert_int_equal(parse(one, 3, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "two profiles"));
	assert_int_equal(parse(measuring, 7, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--file-size"));
}

/* --median FILE as --mean FILE, with o.median set; the two not mixed. */
static void median_options(void **state)
{
	static const char *const ok[] = { "calibrate", "--median", "a.ini", "--median=b.ini" };
	static const char *const mixed[] = { "calibrate", "--mean", "a.ini", "--median", "b.ini" };
	static const char *const one[] = { "calibrate", "--median", "a.ini" };
	struct cp_calibrate_opts o;
	struct cp_diag d = { "" };

	(void)state;
	assert_int_equal(parse(ok, 4, &o, &d), 0);
	assert_int_equal(o.nr_mean, 2);
	assert_true(o.median);
	assert_string_equal(o.mean[1], "b.ini");
	assert_int_equal(parse(mixed, 5, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "do not go together"));
	assert_int_equal(parse(one, 3, &o, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "--median needs two profiles"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(drifting_rate_is_averaged_with_its_unit),
		cmocka_unit_test(equal_values_are_kept),
		cmocka_unit_test(fs_mark_rate_is_averaged),
		cmocka_unit_test(differing_setting_is_refused_by_name),
		cmocka_unit_test(differing_units_are_refused),
		cmocka_unit_test(missing_file_is_named),
		cmocka_unit_test(profile_not_from_calibrate_is_refused),
		cmocka_unit_test(mean_options),
		cmocka_unit_test(median_of_three_is_the_middle_value),
		cmocka_unit_test(median_of_two_is_their_mean),
		cmocka_unit_test(median_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
