/*
 * test_csv.c - time series as CSV: one run, several runs (a run column
 * and the union of columns), quoting.
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

#include "report/csv.h"

static void series(struct cp_run_result *r, const char *policy, const char *const *cols,
		   size_t nc, const int64_t *vals, size_t nr)
{
	size_t i;

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->policy, policy), 0);
	if (nc)
		assert_int_equal(cp_series_set_columns(&r->series, cols, nc), 0);
	for (i = 0; i < nr; i++)
		assert_int_equal(cp_series_add_row(&r->series, vals + i * nc), 0);
}

static char *csv(const struct cp_run_result *const *runs, const char *const *labels, size_t n)
{
	FILE *fp = tmpfile();
	long len;
	char *buf;

	assert_non_null(fp);
	assert_int_equal(cp_report_csv_fprint(fp, runs, labels, n, NULL), 0);
	len = ftell(fp);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	rewind(fp);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

static void one_run_is_header_then_rows(void **state)
{
	static const char *const cols[] = { "t_ns", "nr_free_pages", "nr_slab_reclaimable" };
	static const int64_t v[] = { 0, 4000, 10, 100000000, 3990, -1 };
	struct cp_run_result r;
	const struct cp_run_result *runs[1] = { &r };
	char *s;

	(void)state;
	series(&r, "legacy", cols, 3, v, 2);
	s = csv(runs, NULL, 1);
	assert_string_equal(s, "t_ns,nr_free_pages,nr_slab_reclaimable\n"
			       "0,4000,10\n"
			       "100000000,3990,-1\n");
	free(s);
	cp_run_result_release(&r);
}

/* Run a has t_ns,x; run b has t_ns,y,x: columns t_ns,x,y; a's rows
 * leave y empty. */
static void several_runs_get_a_run_column_and_the_union_of_columns(void **state)
{
	static const char *const ca[] = { "t_ns", "x" }, *const cb[] = { "t_ns", "y", "x" };
	static const int64_t va[] = { 0, 1 }, vb[] = { 0, 7, 2, 100, 8, 3 };
	struct cp_run_result a, b;
	const struct cp_run_result *runs[2] = { &a, &b };
	char *s;

	(void)state;
	series(&a, "legacy", ca, 2, va, 1);
	series(&b, "patched", cb, 3, vb, 2);
	s = csv(runs, NULL, 2);
	assert_string_equal(s, "run,t_ns,x,y\n"
			       "legacy,0,1,\n"
			       "patched,0,2,7\n"
			       "patched,100,3,8\n");
	free(s);
	cp_run_result_release(&a);
	cp_run_result_release(&b);
}

static void fields_with_commas_or_quotes_are_quoted(void **state)
{
	static const char *const cols[] = { "t_ns", "slab,\"dentry\"" };
	static const int64_t v[] = { 5, 6 };
	static const char *const labels[] = { "model, 4.11", "real" };
	struct cp_run_result a, b;
	const struct cp_run_result *runs[2] = { &a, &b };
	char *s;

	(void)state;
	series(&a, "legacy", cols, 2, v, 1);
	series(&b, "patched", NULL, 0, NULL, 0);
	s = csv(runs, labels, 2);
	assert_string_equal(s, "run,t_ns,\"slab,\"\"dentry\"\"\"\n"
			       "\"model, 4.11\",5,6\n");
	free(s);
	cp_run_result_release(&a);
	cp_run_result_release(&b);
}

static void no_series_gives_just_the_header(void **state)
{
	struct cp_run_result a;
	const struct cp_run_result *runs[1] = { &a };
	char *s;

	(void)state;
	series(&a, "legacy", NULL, 0, NULL, 0);
	s = csv(runs, NULL, 1);
	assert_string_equal(s, "t_ns\n");
	free(s);
	assert_int_equal(cp_report_csv_fprint(stdout, runs, NULL, 0, NULL), -CP_EINVAL);
	assert_int_equal(cp_report_csv_write("/nonexistent/x.csv", runs, NULL, 1, NULL), -CP_EIO);
	cp_run_result_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_run_is_header_then_rows),
		cmocka_unit_test(several_runs_get_a_run_column_and_the_union_of_columns),
		cmocka_unit_test(fields_with_commas_or_quotes_are_quoted),
		cmocka_unit_test(no_series_gives_just_the_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
