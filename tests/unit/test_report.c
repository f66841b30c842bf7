/*
 * test_report.c - the seed's lines as read-file.c prints them, the run
 * table, and the compare table with hand-computed percentages.
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
#include <cachepressure/result.h>

#include "report/report.h"

#define F1 "/mnt/btrfs-test/reads/file1"
#define F2 "/mnt/btrfs-test/reads/file2"

static char *capture_begin(FILE **fp)
{
	*fp = tmpfile();
	assert_non_null(*fp);
	return NULL;
}

static char *capture_end(FILE *fp)
{
	long len = ftell(fp);
	char *buf = malloc((size_t)len + 1);

	assert_non_null(buf);
	rewind(fp);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

static void add_reader(struct cp_run_result *r, const char *path, const uint64_t *bytes,
		       const uint64_t *end_ns, size_t n)
{
	struct cp_reader_result *rd;
	size_t i;

	assert_int_equal(cp_run_result_add_reader(r, path, &rd), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(cp_reader_add_pass(rd, bytes[i], end_ns[i]), 0);
}

/* The commit message's totals, as one pass each. */
static void commit_run(struct cp_run_result *r, const char *policy, uint64_t b1, uint64_t b2)
{
	uint64_t t = 1000;

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->policy, policy), 0);
	assert_int_equal(cp_run_result_set_str(&r->kernel, "linux-4.11"), 0);
	assert_int_equal(cp_run_result_set_str(&r->scenario, "seed"), 0);
	add_reader(r, F1, &b1, &t, 1);
	add_reader(r, F2, &b2, &t, 1);
}

/* read-file.c: loops count from 0; a loop that read nothing prints
 * nothing; the lines of two readers appear in the order their loops
 * ended (ties: reader order). file1 ends passes at 10, 30, 50 with 0,
 * 100, 200 bytes; file2 at 20, 30 with 7, 8 bytes. */
static void seed_lines_follow_read_file(void **state)
{
	static const uint64_t b1[] = { 0, 100, 200 }, e1[] = { 10, 30, 50 };
	static const uint64_t b2[] = { 7, 8 }, e2[] = { 20, 30 };
	struct cp_run_result r;
	FILE *fp;
	char *out;

	(void)state;
	cp_run_result_init(&r);
	add_reader(&r, F1, b1, e1, 3);
	add_reader(&r, F2, b2, e2, 2);
	capture_begin(&fp);
	assert_int_equal(cp_report_seed_lines(fp, &r), 0);
	out = capture_end(fp);
	assert_string_equal(out,
			    F2 ": loop 0 read bytes is 7\n"
			    F1 ": loop 1 read bytes is 100\n"
			    F2 ": loop 1 read bytes is 8\n"
			    F1 ": loop 2 read bytes is 200\n"
			    F1 ": total read during loops 300\n"
			    F2 ": total read during loops 15\n");
	free(out);
	cp_run_result_release(&r);
}

/* The commit message: legacy 27262988288 / 27262976000, patched
 * 9565376512 / 18640457728.
 *   file1: (9565376512 - 27262988288) / 27262988288 = -64.914 % -> -64.91
 *   file2: (18640457728 - 27262976000) / 27262976000 = -31.627 % -> -31.63
 *   total: 54525964288 -> 28205834240: -26320130048 / 54525964288
 *          = -48.271 % -> -48.27
 * Columns: reader (27 wide: the path), "legacy bytes" (12), "patched
 * bytes" (13), "change %" (8), two spaces apart, numbers right-aligned. */
static void compare_table_of_the_commit_numbers(void **state)
{
	struct cp_run_result a, b;
	const struct cp_run_result *runs[2] = { &a, &b };
	FILE *fp;
	char *out;

	(void)state;
	commit_run(&a, "legacy", 27262988288ULL, 27262976000ULL);
	commit_run(&b, "patched", 9565376512ULL, 18640457728ULL);
	capture_begin(&fp);
	assert_int_equal(cp_report_compare_table(fp, runs, NULL, 2), 0);
	out = capture_end(fp);
	assert_string_equal(out,
		"reader                       legacy bytes  patched bytes  change %\n"
		"/mnt/btrfs-test/reads/file1   27262988288     9565376512    -64.91\n"
		"/mnt/btrfs-test/reads/file2   27262976000    18640457728    -31.63\n"
		"total                         54525964288    28205834240    -48.27\n");
	free(out);
	cp_run_result_release(&a);
	cp_run_result_release(&b);
}

static void change_pct_rounds_half_away_from_zero(void **state)
{
	char buf[32];

	(void)state;
	cp_report_change_pct(buf, sizeof(buf), 3, 1);      /* -66.666... */
	assert_string_equal(buf, "-66.67");
	cp_report_change_pct(buf, sizeof(buf), 8, 9);      /* +12.5 */
	assert_string_equal(buf, "+12.50");
	cp_report_change_pct(buf, sizeof(buf), 20000, 20001); /* +0.005 -> up */
	assert_string_equal(buf, "+0.01");
	cp_report_change_pct(buf, sizeof(buf), 20000, 19999); /* -0.005 -> down */
	assert_string_equal(buf, "-0.01");
	cp_report_change_pct(buf, sizeof(buf), 200000, 200001); /* +0.0005 */
	assert_string_equal(buf, "0.00");
	cp_report_change_pct(buf, sizeof(buf), 5, 5);
	assert_string_equal(buf, "0.00");
	cp_report_change_pct(buf, sizeof(buf), 1, 3);      /* +200 */
	assert_string_equal(buf, "+200.00");
	cp_report_change_pct(buf, sizeof(buf), 0, 3);
	assert_string_equal(buf, "n/a");
	/* no overflow near 2^64: (2^64 - 1) -> 0 is -100 % */
	cp_report_change_pct(buf, sizeof(buf), UINT64_MAX, 0);
	assert_string_equal(buf, "-100.00");
}

/* Three runs: one "change %" column per run after the first; a reader
 * only one run has shows "-" elsewhere. 10 -> 5 is -50 %, 10 -> 20
 * +100 %; totals 10 + 0, 5 + 4, 20 + 0. */
static void compare_table_generalises_to_n_runs(void **state)
{
	struct cp_run_result a, b, c;
	const struct cp_run_result *runs[3] = { &a, &b, &c };
	const char *labels[3] = { "base", "x", "y" };
	uint64_t t = 1, v;
	FILE *fp;
	char *out;

	(void)state;
	cp_run_result_init(&a);
	cp_run_result_init(&b);
	cp_run_result_init(&c);
	v = 10;
	add_reader(&a, "/r", &v, &t, 1);
	v = 5;
	add_reader(&b, "/r", &v, &t, 1);
	v = 4;
	add_reader(&b, "/only-b", &v, &t, 1);
	v = 20;
	add_reader(&c, "/r", &v, &t, 1);
	capture_begin(&fp);
	assert_int_equal(cp_report_compare_table(fp, runs, labels, 3), 0);
	out = capture_end(fp);
	assert_string_equal(out,
		"reader   base bytes  x bytes  y bytes  change % x  change % y\n"
		"/r               10        5       20      -50.00     +100.00\n"
		"/only-b           -        4        -           -           -\n"
		"total            10        9       20      -10.00     +100.00\n");
	free(out);
	cp_run_result_release(&a);
	cp_run_result_release(&b);
	cp_run_result_release(&c);
}

static void compare_prints_each_policy_then_the_table(void **state)
{
	struct cp_run_result a, b;
	const struct cp_run_result *runs[2] = { &a, &b };
	FILE *fp;
	char *out, *p1, *p2, *tab;

	(void)state;
	commit_run(&a, "legacy", 27262988288ULL, 27262976000ULL);
	commit_run(&b, "patched", 9565376512ULL, 18640457728ULL);
	capture_begin(&fp);
	assert_int_equal(cp_report_compare(fp, runs, NULL, 2), 0);
	out = capture_end(fp);
	p1 = strstr(out, "== legacy (kernel linux-4.11, scenario seed) ==\n" F1
			 ": loop 0 read bytes is 27262988288\n");
	p2 = strstr(out, "== patched (kernel linux-4.11, scenario seed) ==\n");
	tab = strstr(out, "\nreader ");
	assert_non_null(p1);
	assert_non_null(p2);
	assert_non_null(tab);
	assert_true(p1 < p2 && p2 < tab);
	assert_non_null(strstr(out, F2 ": total read during loops 18640457728\n"));
	free(out);
	cp_run_result_release(&a);
	cp_run_result_release(&b);
}

static void run_table_lists_readers_total_and_counters(void **state)
{
	static const uint64_t b1[] = { 0, 4096 }, e1[] = { 1, 2 };
	struct cp_run_result r;
	FILE *fp;
	char *out;

	(void)state;
	cp_run_result_init(&r);
	assert_int_equal(cp_run_result_set_str(&r.source, "model"), 0);
	assert_int_equal(cp_run_result_set_str(&r.policy, "patched"), 0);
	assert_int_equal(cp_run_result_set_str(&r.kernel, "linux-6.1"), 0);
	assert_int_equal(cp_run_result_set_str(&r.scenario, "seed"), 0);
	assert_int_equal(cp_run_result_set_str(&r.confine, "memcg"), 0);
	r.mem_bytes = 1ULL << 30;
	r.seed = 3;
	r.duration_ns = 61234567890ULL; /* 61.234 s, truncated */
	add_reader(&r, "/a", b1, e1, 2);
	assert_int_equal(cp_run_result_set_counter(&r, "slabs_scanned", 77), 0);
	assert_int_equal(cp_run_result_set_counter(&r, "pgscan_kswapd", 12), 0);
	assert_int_equal(cp_run_result_set_counter(&r, "not_shown", 1), 0);
	capture_begin(&fp);
	assert_int_equal(cp_report_run_table(fp, &r), 0);
	out = capture_end(fp);
	assert_string_equal(out,
		"model run: policy patched, kernel linux-6.1, scenario seed, confine memcg, "
		"mem 1G, seed 3, 61.234 s\n"
		"reader  passes  read bytes\n"
		"/a           2        4096\n"
		"total        2        4096\n"
		"pgscan_kswapd              12\n"
		"slabs_scanned              77\n");
	free(out);
	cp_run_result_release(&r);
}

static void failed_run_says_so(void **state)
{
	struct cp_run_result r;
	FILE *fp;
	char *out;

	(void)state;
	cp_run_result_init(&r);
	r.failed = 1;
	assert_int_equal(cp_run_result_set_str(&r.failure, "out of memory at 12 s"), 0);
	capture_begin(&fp);
	assert_int_equal(cp_report_run_table(fp, &r), 0);
	out = capture_end(fp);
	assert_non_null(strstr(out, "\nFAILED: out of memory at 12 s\n"));
	free(out);
	cp_run_result_release(&r);
}

static void sizes_and_seconds_format_exactly(void **state)
{
	char buf[32];

	(void)state;
	cp_report_format_size(buf, sizeof(buf), 16ULL << 30);
	assert_string_equal(buf, "16G");
	cp_report_format_size(buf, sizeof(buf), 425984000); /* 416000 KiB */
	assert_string_equal(buf, "416000K");
	cp_report_format_size(buf, sizeof(buf), 4097);
	assert_string_equal(buf, "4097");
	cp_report_format_size(buf, sizeof(buf), 0);
	assert_string_equal(buf, "0");
	cp_report_format_seconds(buf, sizeof(buf), 5000000000ULL);
	assert_string_equal(buf, "5.000");
	cp_report_format_seconds(buf, sizeof(buf), 999999);
	assert_string_equal(buf, "0.000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_lines_follow_read_file),
		cmocka_unit_test(compare_table_of_the_commit_numbers),
		cmocka_unit_test(change_pct_rounds_half_away_from_zero),
		cmocka_unit_test(compare_table_generalises_to_n_runs),
		cmocka_unit_test(compare_prints_each_policy_then_the_table),
		cmocka_unit_test(run_table_lists_readers_total_and_counters),
		cmocka_unit_test(failed_run_says_so),
		cmocka_unit_test(sizes_and_seconds_format_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
