/*
 * test_abtable.c - the A/B table of `cachepressure real compare`
 * (src/report/abtable.c): per-reader and total statistics of each
 * kernel, the ratio B/A and the test, failed runs left out and counted,
 * the reclaim counters side by side, the text and the JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "core/alloc.h"
#include "report/abtable.h"

#define F1 "/mnt/test/reads/file1"
#define F2 "/mnt/test/reads/file2"
#define MAX_RUNS 6

struct fixture {
	struct cp_run_result a[MAX_RUNS], b[MAX_RUNS];
	struct cp_ab_kernel ka, kb;
};

/* A run whose readers re-read x1 and x2 bytes (one pass each), with
 * slabs_scanned = x1 / 1000 and nr_slab_reclaimable_end = 100 pages. */
static void make_run(struct cp_run_result *r, int64_t x1, int64_t x2, int failed)
{
	struct cp_reader_result *rd;

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->source, "real"), 0);
	assert_int_equal(cp_run_result_add_reader(r, F1, &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, (uint64_t)x1, 1000), 0);
	assert_int_equal(cp_run_result_add_reader(r, F2, &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, (uint64_t)x2, 2000), 0);
	assert_int_equal(cp_run_result_set_counter(r, "slabs_scanned", x1 / 1000), 0);
	assert_int_equal(cp_run_result_set_counter(r, "nr_slab_reclaimable_end", 100), 0);
	r->failed = failed;
}

/* A (stock): file1 1, 2, 3, 4, 5 GB; file2 1 GB each.
 * B (legacy): file1 6, 7, 8, 9, 10 GB; file2 2 GB each. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int i;

	if (!f)
		return -1;
	for (i = 0; i < 5; i++) {
		make_run(&f->a[i], (int64_t)(i + 1) * 1000000000, 1000000000, 0);
		make_run(&f->b[i], (int64_t)(i + 6) * 1000000000, 2000000000, 0);
	}
	f->ka = (struct cp_ab_kernel){ "stock", "/k/stock/bzImage", f->a, 5 };
	f->kb = (struct cp_ab_kernel){ "legacy", "/k/legacy/bzImage", f->b, 5 };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int i;

	for (i = 0; i < MAX_RUNS; i++) {
		cp_run_result_release(&f->a[i]);
		cp_run_result_release(&f->b[i]);
	}
	free(f);
	return 0;
}

/* file1: A mean 3 GB, sd sqrt(10/4) = 1.581139 GB, min 1, max 5; B
 * mean 8 GB, same sd; ratio 8/3 = 2.666667. No overlap: U = 0, exact,
 * p = 2/252. total: A 2..6 GB (mean 4), B 8..12 GB (mean 10), ratio
 * 2.5, again p = 2/252. */
static void rows_per_reader_and_total_by_hand(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;
	const struct cp_ab_row *r;

	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	assert_int_equal(t.nr_rows, 3);
	r = &t.rows[0];
	assert_string_equal(r->name, F1);
	assert_false(r->total);
	assert_int_equal(r->a.n, 5);
	assert_true(r->a.mean == 3e9);
	assert_true(fabs(r->a.sd - sqrt(2.5) * 1e9) < 1e-3);
	assert_int_equal(r->a.min, 1000000000);
	assert_int_equal(r->a.max, 5000000000);
	assert_true(r->b.mean == 8e9);
	assert_true(r->has_ratio && fabs(r->ratio - 8.0 / 3.0) < 1e-12);
	assert_true(r->has_u);
	assert_int_equal(r->u.method, CP_MWU_EXACT);
	assert_true(fabs(r->u.p - 2.0 / 252.0) < 1e-12);
	assert_true(r->has_welch && r->welch.p < 0.01);
	r = &t.rows[2];
	assert_true(r->total);
	assert_string_equal(r->name, "total");
	assert_true(r->a.mean == 4e9 && r->b.mean == 10e9);
	assert_true(fabs(r->ratio - 2.5) < 1e-12);
	assert_true(fabs(r->u.p - 2.0 / 252.0) < 1e-12);
}

/* file2 is 1 GB in every A run and 2 GB in every B run: U still has
 * spread (the samples differ), ties give the normal approximation;
 * Welch has zero variance on both sides and no result. U: u_a = 0,
 * mean 12.5, ties 5 and 5: sum 2 * (125 - 5) = 240; variance 25/12 *
 * (11 - 240/90) = 17.361111, z = 12 / 4.166667 = 2.88, p = erfc(2.88 /
 * sqrt 2) = 0.003976. */
static void constant_readers_use_normal_u_and_no_welch(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;
	const struct cp_ab_row *r;

	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	r = &t.rows[1];
	assert_string_equal(r->name, F2);
	assert_true(r->has_u);
	assert_int_equal(r->u.method, CP_MWU_NORMAL);
	assert_true(fabs(r->u.z - 2.88) < 1e-9);
	assert_true(fabs(r->u.p - 0.003976) < 1e-6);
	assert_false(r->has_welch);
	assert_true(r->a.sd == 0.0);
}

/* A failed run is in neither the statistics nor the test, and is
 * counted: B's run 3 (9 GB) failed: B file1 = 6, 7, 8, 10, mean 7.75. */
static void failed_runs_are_left_out_and_counted(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;

	f->b[3].failed = 1;
	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	assert_int_equal(t.nr_failed_b, 1);
	assert_int_equal(t.nr_failed_a, 0);
	assert_int_equal(t.rows[0].b.n, 4);
	assert_true(t.rows[0].b.mean == 7.75e9);
	assert_int_equal(t.rows[0].u.nb, 4);
}

/* Every run of a kernel failed: nothing to compare, the message names
 * the kernel, the table is zeroed. */
static void a_kernel_without_good_runs_is_einval(void **state)
{
	struct fixture *f = *state;
	struct cp_diag diag = { "" };
	struct cp_ab_table t;
	int i;

	for (i = 0; i < 5; i++)
		f->a[i].failed = 1;
	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, &diag), -CP_EINVAL);
	assert_non_null(strstr(diag.msg, "stock"));
	assert_non_null(strstr(diag.msg, "every run failed"));
	assert_int_equal(t.nr_rows, 0);
}

/* One run on a side: mean/min/max but no sd and no test. */
static void one_run_a_side_has_no_test(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;

	f->ka.nr_runs = 1;
	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	assert_false(t.rows[0].has_u);
	assert_false(t.rows[0].has_welch);
	assert_true(t.rows[0].a.mean == 1e9);
}

/* slabs_scanned: A 1e6..5e6 (mean 3e6), B 6e6..10e6 (mean 8e6).
 * SReclaimable: 100 pages * 4 kB = 400 kB. pgscan_kswapd was never
 * recorded: n 0. */
static void counters_side_by_side_and_absent_ones(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;
	size_t i;

	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	for (i = 0; i < CP_AB_NR_COUNTERS; i++) {
		const struct cp_ab_counter *c = &t.counters[i];

		if (strcmp(c->name, "slabs_scanned") == 0) {
			assert_int_equal(c->n_a, 5);
			assert_true(c->mean_a == 3e6 && c->mean_b == 8e6);
		} else if (strcmp(c->source, "nr_slab_reclaimable_end") == 0) {
			assert_true(c->mean_a == 400.0 && c->mean_b == 400.0);
		} else {
			assert_int_equal(c->n_a, 0);
			assert_int_equal(c->n_b, 0);
		}
	}
}

static char *print_to_string(const struct cp_ab_table *t)
{
	static char buf[8192];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(fp);
	assert_int_equal(cp_ab_table_fprint(fp, t), 0);
	fclose(fp);
	return buf;
}

/* The text: GB with two decimals (sd sqrt 2.5 = 1.58), the ratio 2.67,
 * "U exact" and p 0.0079, "-" for a counter nobody recorded and for
 * Welch without spread, the note on the failed run. */
static void text_table_has_gb_ratio_test_and_dashes(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;
	char *s;

	f->b[4].failed = 1;
	f->ka.nr_runs = 5;
	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	s = print_to_string(&t);
	assert_non_null(strstr(s, "A: stock (5 runs)"));
	assert_non_null(strstr(s, "B: legacy (4 runs)"));
	/* file1: 3.00 1.58 1.00 5.00 | 7.50 1.29 6.00 9.00 | 2.50; B sd of
	 * 6,7,8,9 = sqrt(5/3) = 1.29; 4 vs 5 separated: p = 2/126 = 0.0159.
	 * The path (21 characters) is padded to 28, each value right-aligned
	 * in 8 (sd 7) after a space. */
	assert_non_null(strstr(s, F1 "            3.00    1.58     1.00     5.00     7.50"
				  "    1.29     6.00     9.00    2.50 U exact    0.0159"));
	assert_non_null(strstr(s, "U normal"));
	assert_non_null(strstr(s, "pgscan_kswapd                               -                -"));
	assert_non_null(strstr(s, "slabs_scanned                         3000000          7500000"
				  "    2.50"));
	assert_non_null(strstr(s, "1 of 5 runs of legacy failed"));
	assert_non_null(strstr(s, "Mann-Whitney U, two-sided"));
}

static void p_values_small_and_large(void **state)
{
	char buf[32];

	(void)state;
	cp_ab_format_p(buf, sizeof(buf), 2.0 / 252.0);
	assert_string_equal(buf, "0.0079");
	cp_ab_format_p(buf, sizeof(buf), 3.2e-7);
	assert_string_equal(buf, "3.2e-07");
	cp_ab_format_p(buf, sizeof(buf), 1.0);
	assert_string_equal(buf, "1.0000");
}

static const cJSON *get(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	assert_non_null(v);
	return v;
}

/* The JSON: both kernels with name, image and their runs (the shared
 * run layout), the test rows and the counters, null where a value is
 * missing. */
static void json_has_kernels_runs_tests_and_counters(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;
	const cJSON *k, *row, *vm;
	cJSON *root;
	char *text;

	f->a[2].failed = 1;
	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	text = cp_ab_json_text(&f->ka, &f->kb, &t);
	assert_non_null(text);
	root = cJSON_Parse(text);
	cp_free(text);
	assert_non_null(root);
	k = get(root, "kernels");
	assert_int_equal(cJSON_GetArraySize(k), 2);
	assert_string_equal(get(cJSON_GetArrayItem(k, 0), "name")->valuestring, "stock");
	assert_string_equal(get(cJSON_GetArrayItem(k, 1), "image")->valuestring,
			    "/k/legacy/bzImage");
	assert_int_equal(cJSON_GetArraySize(get(cJSON_GetArrayItem(k, 0), "runs")), 5);
	assert_int_equal(get(cJSON_GetArrayItem(k, 0), "runs_failed")->valueint, 1);
	assert_true(cJSON_IsTrue(get(cJSON_GetArrayItem(get(cJSON_GetArrayItem(k, 0), "runs"), 2),
				     "failed")));
	row = cJSON_GetArrayItem(get(get(root, "test"), "rows"), 0);
	assert_string_equal(get(row, "name")->valuestring, F1);
	assert_int_equal(get(get(row, "a"), "n")->valueint, 4);
	assert_string_equal(get(get(row, "u"), "method")->valuestring, "exact");
	/* 4 vs 5 separated: p = 2/126 */
	assert_true(fabs(get(get(row, "u"), "p")->valuedouble - 2.0 / 126.0) < 1e-12);
	assert_true(cJSON_IsNull(get(get(row, "u"), "z")));
	row = cJSON_GetArrayItem(get(get(root, "test"), "rows"), 1);
	assert_true(cJSON_IsNull(get(row, "welch")));
	vm = cJSON_GetArrayItem(get(root, "vmstat"), 1);
	assert_string_equal(get(vm, "name")->valuestring, "pgscan_kswapd");
	assert_true(cJSON_IsNull(get(vm, "mean_a")));
	cJSON_Delete(root);
}

/* --json FILE: the same text in the file; a path that cannot be
 * created is -CP_EIO with the path in the message. */
static void json_write_to_a_file_and_a_bad_path(void **state)
{
	struct fixture *f = *state;
	struct cp_diag diag = { "" };
	struct cp_ab_table t;
	char path[] = "/tmp/cp-abtable-XXXXXX", buf[256];
	FILE *fp;
	int fd;

	assert_int_equal(cp_ab_table_build(&f->ka, &f->kb, &t, NULL), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cp_ab_json_write(path, &f->ka, &f->kb, &t, &diag), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));
	assert_string_equal(buf, "{\n");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	assert_non_null(strstr(buf, "\"kernels\""));
	fclose(fp);
	unlink(path);
	assert_int_equal(cp_ab_json_write("/nonexistent-dir/ab.json", &f->ka, &f->kb, &t, &diag),
			 -CP_EIO);
	assert_non_null(strstr(diag.msg, "/nonexistent-dir/ab.json"));
}

/* Each allocation failing in turn: build gives -CP_ENOMEM, the JSON
 * NULL; never a crash or a leak (the sanitizer build checks). */
static void out_of_memory_at_every_allocation(void **state)
{
	struct fixture *f = *state;
	struct cp_ab_table t;
	char *text;
	long n;
	int rc;

	for (n = 0;; n++) {
		cp_alloc_fail_after(n);
		rc = cp_ab_table_build(&f->ka, &f->kb, &t, NULL);
		cp_alloc_fail_after(-1);
		if (rc == 0)
			break;
		assert_int_equal(rc, -CP_ENOMEM);
	}
	for (n = 0;; n++) {
		cp_alloc_fail_after(n);
		text = cp_ab_json_text(&f->ka, &f->kb, &t);
		cp_alloc_fail_after(-1);
		if (text)
			break;
	}
	assert_true(n > 10);
	cp_free(text);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(rows_per_reader_and_total_by_hand),
		T(constant_readers_use_normal_u_and_no_welch),
		T(failed_runs_are_left_out_and_counted),
		T(a_kernel_without_good_runs_is_einval),
		T(one_run_a_side_has_no_test),
		T(counters_side_by_side_and_absent_ones),
		T(text_table_has_gb_ratio_test_and_dashes),
		cmocka_unit_test(p_values_small_and_large),
		T(json_has_kernels_runs_tests_and_counters),
		T(json_write_to_a_file_and_a_bad_path),
		T(out_of_memory_at_every_allocation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
