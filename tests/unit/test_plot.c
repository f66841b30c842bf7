/*
 * test_plot.c - what `cachepressure plot` draws: the page cache and slab
 * of a model series (pages, times 4096) and of a real one (bytes), the
 * legend labels, the output format, and the files it writes and removes.
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

#include "report/plot.h"

static void model_run(struct cp_run_result *r)
{
	static const char *const cols[] = { "t_ns", "pagecache_pages", "slab_dentry_pages",
					    "slab_name_pages", "slab_inode_pages",
					    "slab_ili_pages" };
	const int64_t row[] = { 100000000, 1000, 10, 2, 20, 3 };
	struct cp_reader_result *rd;

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->source, "model"), 0);
	assert_int_equal(cp_run_result_set_str(&r->policy, "patched"), 0);
	assert_int_equal(cp_run_result_set_str(&r->kernel, "linux-6.x"), 0);
	assert_int_equal(cp_series_set_columns(&r->series, cols, 6), 0);
	assert_int_equal(cp_series_add_row(&r->series, row), 0);
	assert_int_equal(cp_run_result_add_reader(r, "/mnt/reads/file1", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, 1048576, 1), 0);
}

static void real_v1_run(struct cp_run_result *r)
{
	static const char *const cols[] = { "t_ns", "usage_bytes", "kmem_bytes", "file_bytes" };
	const int64_t row[] = { 1000000000, 5, 7000, 9000 };

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->source, "real"), 0);
	assert_int_equal(cp_run_result_set_str(&r->kernel, "6.18.4'4"), 0);
	assert_int_equal(cp_series_set_columns(&r->series, cols, 4), 0);
	assert_int_equal(cp_series_add_row(&r->series, row), 0);
}

/* Model: 1000 pages of page cache = 4096000 bytes; slab 10 + 2 + 20 + 3
 * = 35 pages = 143360 bytes. */
static void model_series_is_pages_times_4096(void **state)
{
	struct cp_run_result r;
	int64_t v;

	(void)state;
	model_run(&r);
	assert_true(cp_plot_value(&r, CP_PLOT_PAGECACHE, 0, &v));
	assert_int_equal(v, 4096000);
	assert_true(cp_plot_value(&r, CP_PLOT_SLAB, 0, &v));
	assert_int_equal(v, 143360);
	assert_false(cp_plot_value(&r, CP_PLOT_SLAB, 1, &v)); /* no row 1 */
	cp_run_result_release(&r);
}

/* Real cgroup v1: file_bytes and, without slab_reclaimable_bytes,
 * kmem_bytes. */
static void real_v1_series_uses_file_and_kmem_bytes(void **state)
{
	struct cp_run_result r;
	int64_t v;

	(void)state;
	real_v1_run(&r);
	assert_true(cp_plot_value(&r, CP_PLOT_PAGECACHE, 0, &v));
	assert_int_equal(v, 9000);
	assert_true(cp_plot_value(&r, CP_PLOT_SLAB, 0, &v));
	assert_int_equal(v, 7000);
	cp_run_result_release(&r);
}

static void labels_and_formats(void **state)
{
	struct cp_run_result m, r;
	char buf[128];
	enum cp_plot_format f;

	(void)state;
	model_run(&m);
	real_v1_run(&r);
	cp_plot_label(buf, sizeof(buf), &m, 1);
	assert_string_equal(buf, "model (patched, linux-6.x)");
	cp_plot_label(buf, sizeof(buf), &r, 2);
	assert_string_equal(buf, "real 2 (6.18.44)"); /* the quote is dropped */
	assert_int_equal(cp_plot_format_of("a.SVG", &f), 0);
	assert_int_equal(f, CP_PLOT_SVG);
	assert_int_equal(cp_plot_format_of("dir/a.png", &f), 0);
	assert_int_equal(f, CP_PLOT_PNG);
	assert_int_equal(cp_plot_format_of("a.pdf", &f), -CP_EINVAL);
	assert_int_equal(cp_plot_format_of(".svg", &f), -CP_EINVAL);
	cp_run_result_release(&m);
	cp_run_result_release(&r);
}

/* The files: a series per run, a pass file per reader with passes, the
 * script naming the output and the three panels; all removed after. */
static void files_written_and_removed(void **state)
{
	struct cp_run_result runs[2];
	char dir[] = "/tmp/cp-test-plot-XXXXXX", path[256], line[512];
	struct cp_diag diag = { "" };
	FILE *fp;
	int panels = 0;

	(void)state;
	model_run(&runs[0]);
	real_v1_run(&runs[1]);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(cp_plot_write_files(dir, runs, 2, "/x/it's.svg", CP_PLOT_SVG, &diag),
			 -CP_EINVAL);
	assert_non_null(strstr(diag.msg, "it's.svg"));
	assert_int_equal(cp_plot_write_files(dir, runs, 2, "/x/out.svg", CP_PLOT_SVG, NULL), 0);
	snprintf(path, sizeof(path), "%s/run0.dat", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	/* t 0.1 s; 4096000 B = 3.906 MiB; 143360 B = 0.137 MiB */
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "0.100 3.906 0.137\n");
	fclose(fp);
	snprintf(path, sizeof(path), "%s/run0-reader0.dat", dir);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/plot.gp", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		panels += strncmp(line, "set title ", 10) == 0;
	fclose(fp);
	assert_int_equal(panels, 3);
	cp_plot_remove_files(dir, runs, 2);
	assert_int_equal(rmdir(dir), 0); /* empty: everything removed */
	cp_run_result_release(&runs[0]);
	cp_run_result_release(&runs[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_series_is_pages_times_4096),
		cmocka_unit_test(real_v1_series_uses_file_and_kmem_bytes),
		cmocka_unit_test(labels_and_formats),
		cmocka_unit_test(files_written_and_removed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
