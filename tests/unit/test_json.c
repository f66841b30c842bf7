/*
 * test_json.c - run results to JSON and back: the layout, exact
 * integers, a lossless round trip, and errors that name the place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "core/alloc.h"
#include "report/json.h"

static void build_run(struct cp_run_result *r, const char *policy, uint64_t seed)
{
	static const char *const cols[] = { "t_ns", "nr_free_pages", "nr_active_file" };
	int64_t row[3];
	struct cp_reader_result *rd;
	int i;

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->source, "model"), 0);
	assert_int_equal(cp_run_result_set_str(&r->policy, policy), 0);
	assert_int_equal(cp_run_result_set_str(&r->kernel, "linux-4.11"), 0);
	assert_int_equal(cp_run_result_set_str(&r->scenario, "seed"), 0);
	assert_int_equal(cp_run_result_set_str(&r->confine, "global"), 0);
	r->mem_bytes = 17179869184ULL;
	r->seed = seed;
	r->duration_ns = 3600000000000ULL;
	assert_int_equal(cp_run_result_add_reader(r, "/mnt/btrfs-test/reads/file1", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, 0, 2000000000ULL), 0);
	assert_int_equal(cp_reader_add_pass(rd, 27262988288ULL, 900000000000ULL), 0);
	assert_int_equal(cp_run_result_add_reader(r, "/mnt/btrfs-test/reads/file2", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, 6815744000ULL, 5000000000ULL), 0);
	assert_int_equal(cp_run_result_set_counter(r, "workingset_refault", 6655), 0);
	assert_int_equal(cp_run_result_set_counter(r, "pgscan_kswapd", 123456789), 0);
	assert_int_equal(cp_run_result_set_counter(r, "cp_deferred", -5), 0);
	assert_int_equal(cp_series_set_columns(&r->series, cols, 3), 0);
	for (i = 0; i < 3; i++) {
		row[0] = i * 100000000LL;
		row[1] = 4000000 - i;
		row[2] = -i;
		assert_int_equal(cp_series_add_row(&r->series, row), 0);
	}
}

static void assert_runs_equal(const struct cp_run_result *a, const struct cp_run_result *b)
{
	size_t i, j;

#define STR_EQ(f) do { if (a->f || b->f) assert_string_equal(a->f, b->f); } while (0)
	STR_EQ(source);
	STR_EQ(policy);
	STR_EQ(kernel);
	STR_EQ(scenario);
	STR_EQ(confine);
	STR_EQ(failure);
#undef STR_EQ
	assert_int_equal(a->mem_bytes, b->mem_bytes);
	assert_int_equal(a->seed, b->seed);
	assert_int_equal(a->duration_ns, b->duration_ns);
	assert_int_equal(a->failed, b->failed);
	assert_int_equal(a->nr_readers, b->nr_readers);
	for (i = 0; i < a->nr_readers; i++) {
		assert_string_equal(a->readers[i].path, b->readers[i].path);
		assert_int_equal(a->readers[i].total_read_bytes, b->readers[i].total_read_bytes);
		assert_int_equal(a->readers[i].nr_passes, b->readers[i].nr_passes);
		for (j = 0; j < a->readers[i].nr_passes; j++) {
			assert_int_equal(a->readers[i].passes[j].pass, b->readers[i].passes[j].pass);
			assert_int_equal(a->readers[i].passes[j].read_bytes,
					 b->readers[i].passes[j].read_bytes);
			assert_int_equal(a->readers[i].passes[j].end_ns, b->readers[i].passes[j].end_ns);
		}
	}
	assert_int_equal(a->nr_counters, b->nr_counters);
	for (i = 0; i < a->nr_counters; i++) {
		assert_string_equal(a->counters[i].name, b->counters[i].name);
		assert_int_equal(a->counters[i].value, b->counters[i].value);
	}
	assert_int_equal(a->series.nr_columns, b->series.nr_columns);
	assert_int_equal(a->series.nr_rows, b->series.nr_rows);
	for (i = 0; i < a->series.nr_columns; i++)
		assert_string_equal(a->series.columns[i], b->series.columns[i]);
	assert_memory_equal(a->series.values, b->series.values,
			    a->series.nr_rows * a->series.nr_columns * sizeof(int64_t));
}

static char *tmp_path(void)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/cp-test-json-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	return path;
}

static char *to_string(const struct cp_run_result *const *runs, size_t n)
{
	FILE *fp = tmpfile();
	long len;
	char *buf;

	assert_non_null(fp);
	assert_int_equal(cp_report_json_fprint(fp, runs, n, NULL), 0);
	len = ftell(fp);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	rewind(fp);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

static void write_then_read_gives_equal_runs(void **state)
{
	struct cp_run_result a, b, *back = NULL;
	const struct cp_run_result *runs[2] = { &a, &b };
	struct cp_diag d = { "" };
	size_t n = 0;
	char *path = tmp_path();

	(void)state;
	build_run(&a, "legacy", 1);
	build_run(&b, "patched", 1);
	b.failed = 1;
	assert_int_equal(cp_run_result_set_str(&b.failure, "stopped: \"time_limit\"\n"), 0);
	assert_int_equal(cp_report_json_write(path, runs, 2, &d), 0);
	if (cp_report_json_read(path, &back, &n, &d))
		fail_msg("%s", d.msg);
	assert_int_equal(n, 2);
	assert_runs_equal(&a, &back[0]);
	assert_runs_equal(&b, &back[1]);
	cp_report_runs_free(back, n);
	cp_run_result_release(&a);
	cp_run_result_release(&b);
	unlink(path);
}

/* The layout: {"runs": [{"policy", "kernel", "scenario",
 * "readers": [{"path", "total_read_bytes", "passes": [{"pass",
 * "read_bytes", "end_ns"}]}], "counters": {...}, "series": ...}]}. */
static void layout_has_the_documented_keys_in_order(void **state)
{
	struct cp_run_result a;
	const struct cp_run_result *runs[1] = { &a };
	char *s;
	const char *keys[] = { "\"runs\":", "\"source\":", "\"policy\":", "\"kernel\":",
			       "\"scenario\":", "\"confine\":", "\"mem_bytes\":", "\"seed\":",
			       "\"duration_ns\":", "\"failed\":", "\"failure\":", "\"readers\":",
			       "\"path\":", "\"total_read_bytes\":", "\"passes\":", "\"pass\":",
			       "\"read_bytes\":", "\"end_ns\":", "\"counters\":", "\"series\":",
			       "\"columns\":", "\"rows\":" };
	const char *prev;
	size_t i;

	(void)state;
	build_run(&a, "legacy", 1);
	s = to_string(runs, 1);
	prev = s;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = strstr(prev, keys[i]);

		if (!p)
			fail_msg("'%s' missing or out of order in:\n%s", keys[i], s);
		prev = p;
	}
	/* exact integers, no exponent: 27262988288 and 3600 s in ns */
	assert_non_null(strstr(s, "27262988288"));
	assert_non_null(strstr(s, "3600000000000"));
	assert_null(strstr(s, "e+"));
	/* counters sorted by name, negative values kept */
	assert_true(strstr(s, "\"cp_deferred\":\t-5") < strstr(s, "\"pgscan_kswapd\""));
	assert_true(strstr(s, "\"pgscan_kswapd\"") < strstr(s, "\"workingset_refault\""));
	assert_non_null(strstr(s, "\"failure\":\tnull"));
	assert_non_null(strstr(s, "\"failed\":\tfalse"));
	assert_non_null(strstr(s, "[200000000, 3999998, -2]"));
	free(s);
	cp_run_result_release(&a);
}

/* A seed above 2^53 cannot be a JSON number read back exactly: it is
 * written as a string and read from one. */
static void seed_beyond_2_pow_53_round_trips(void **state)
{
	struct cp_run_result a, *back = NULL;
	const struct cp_run_result *runs[1] = { &a };
	size_t n = 0;
	char *s;

	(void)state;
	build_run(&a, "legacy", 0x9E3779B97F4A7C15ULL);
	s = to_string(runs, 1);
	assert_non_null(strstr(s, "\"seed\":\t\"11400714819323198485\""));
	assert_int_equal(cp_report_json_parse(s, "mem", &back, &n, NULL), 0);
	assert_int_equal(back[0].seed, 0x9E3779B97F4A7C15ULL);
	cp_report_runs_free(back, n);
	free(s);
	cp_run_result_release(&a);
}

/* parse text, expect -CP_EINVAL and every needle in the message */
static void expect_parse_error(const char *text, const char *n1, const char *n2)
{
	struct cp_run_result *back = (struct cp_run_result *)0x1;
	struct cp_diag d = { "" };
	size_t n = 77;

	assert_int_equal(cp_report_json_parse(text, "t.json", &back, &n, &d), -CP_EINVAL);
	assert_ptr_equal(back, (struct cp_run_result *)0x1);
	assert_int_equal(n, 77);
	if (!strstr(d.msg, n1) || (n2 && !strstr(d.msg, n2)))
		fail_msg("message '%s' lacks '%s' / '%s'", d.msg, n1, n2 ? n2 : "");
}

#define RUN_HEAD "{\"runs\": [{\"policy\": \"legacy\", \"kernel\": \"k\", \"scenario\": \"s\", "

static void bad_json_is_an_error_naming_the_place(void **state)
{
	(void)state;
	expect_parse_error("{\"runs\": [\n{\"policy\": }", "t.json:2:", "not valid JSON");
	expect_parse_error("[1, 2]", "top level", "runs");
	expect_parse_error("{\"runs\": [{\"kernel\": \"k\"}]}", "runs[0]", "missing key 'policy'");
	expect_parse_error(RUN_HEAD "\"readers\": [{\"path\": \"/a\", \"total_read_bytes\": 5, "
			   "\"passes\": [{\"pass\": 1, \"read_bytes\": 5, \"end_ns\": 1}, "
			   "{\"pass\": 3, \"read_bytes\": 0, \"end_ns\": 2}]}], \"counters\": {}}]}",
			   "runs[0].readers[0].passes[1]", "'pass' = 3");
	expect_parse_error(RUN_HEAD "\"readers\": [{\"path\": \"/a\", \"total_read_bytes\": 6, "
			   "\"passes\": [{\"pass\": 1, \"read_bytes\": 5, \"end_ns\": 1}]}], "
			   "\"counters\": {}}]}",
			   "runs[0].readers[0]", "add up to 5");
	expect_parse_error(RUN_HEAD "\"readers\": [], \"counters\": {\"x\": 1.5}}]}",
			   "runs[0].counters", "'x'");
	expect_parse_error(RUN_HEAD "\"readers\": [], \"counters\": {}, \"mem_bytes\": -1}]}",
			   "runs[0]", "'mem_bytes'");
	expect_parse_error(RUN_HEAD "\"readers\": [], \"counters\": {}, "
			   "\"mem_bytes\": 18014398509481984}]}", "runs[0]", "2^53");
	expect_parse_error(RUN_HEAD "\"readers\": [], \"counters\": {}, \"series\": "
			   "{\"columns\": [\"t_ns\", \"a\"], \"rows\": [[1]]}}]}",
			   "runs[0].series.rows[0]", "2 numbers");
	expect_parse_error(RUN_HEAD "\"readers\": [], \"counters\": {}, \"series\": "
			   "{\"columns\": [\"time\"], \"rows\": []}}]}", "runs[0].series", "t_ns");
}

static void minimal_document_reads(void **state)
{
	struct cp_run_result *back = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(cp_report_json_parse(RUN_HEAD "\"readers\": [], \"counters\": {}}]}",
					      "t.json", &back, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_string_equal(back[0].policy, "legacy");
	assert_null(back[0].source);
	assert_int_equal(back[0].series.nr_rows, 0);
	cp_report_runs_free(back, n);
	assert_int_equal(cp_report_json_parse("{\"runs\": []}", "t.json", &back, &n, NULL), 0);
	assert_int_equal(n, 0);
	cp_report_runs_free(back, n);
}

static void missing_file_is_enoent(void **state)
{
	struct cp_run_result *back = NULL;
	struct cp_diag d = { "" };
	size_t n = 0;

	(void)state;
	assert_int_equal(cp_report_json_read("/nonexistent/r.json", &back, &n, &d), -CP_ENOENT);
	assert_non_null(strstr(d.msg, "/nonexistent/r.json"));
	assert_int_equal(cp_report_json_write("/nonexistent/r.json", NULL, 0, &d), -CP_EIO);
	assert_non_null(strstr(d.msg, "/nonexistent/r.json"));
}

/* Each allocation of writing, and of parsing, fails in turn. */
static void every_allocation_failure_is_reported(void **state)
{
	struct cp_run_result a;
	const struct cp_run_result *runs[1] = { &a };
	char *text;
	long k;

	(void)state;
	build_run(&a, "legacy", 1);
	text = to_string(runs, 1);
	for (k = 0;; k++) {
		FILE *fp = tmpfile();
		int rc;

		assert_non_null(fp);
		cp_alloc_fail_after(k);
		rc = cp_report_json_fprint(fp, runs, 1, NULL);
		cp_alloc_fail_after(-1);
		fclose(fp);
		if (!rc)
			break;
		assert_int_equal(rc, -CP_ENOMEM);
	}
	for (k = 0;; k++) {
		struct cp_run_result *back = NULL;
		size_t n = 0;
		int rc;

		cp_alloc_fail_after(k);
		rc = cp_report_json_parse(text, "t", &back, &n, NULL);
		cp_alloc_fail_after(-1);
		if (!rc) {
			cp_report_runs_free(back, n);
			break;
		}
		assert_int_equal(rc, -CP_ENOMEM);
		assert_null(back);
	}
	assert_true(k > 20);
	free(text);
	cp_run_result_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_then_read_gives_equal_runs),
		cmocka_unit_test(layout_has_the_documented_keys_in_order),
		cmocka_unit_test(seed_beyond_2_pow_53_round_trips),
		cmocka_unit_test(bad_json_is_an_error_naming_the_place),
		cmocka_unit_test(minimal_document_reads),
		cmocka_unit_test(missing_file_is_enoent),
		cmocka_unit_test(every_allocation_failure_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
