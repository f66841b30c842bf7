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
#include <stdbool.h>
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
	cp_plot_label(buf, sizeof(buf), &m);
	assert_string_equal(buf, "model (patched, linux-6.x)");
	cp_plot_label(buf, sizeof(buf), &r);
	assert_string_equal(buf, "real (6.18.44)"); /* the quote is dropped */
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

/* Runs with the same label are one group, numbered in order of first
 * appearance: model patched, real, model patched, model legacy, real ->
 * 0, 1, 0, 2, 1. */
static void runs_grouped_by_label(void **state)
{
	struct cp_run_result runs[5];
	size_t group_of[5], i;

	(void)state;
	model_run(&runs[0]);
	real_v1_run(&runs[1]);
	model_run(&runs[2]);
	model_run(&runs[3]);
	assert_int_equal(cp_run_result_set_str(&runs[3].policy, "legacy"), 0);
	real_v1_run(&runs[4]);
	assert_int_equal(cp_plot_groups(runs, 5, group_of), 3);
	assert_int_equal(group_of[0], 0);
	assert_int_equal(group_of[1], 1);
	assert_int_equal(group_of[2], 0);
	assert_int_equal(group_of[3], 2);
	assert_int_equal(group_of[4], 1);
	for (i = 0; i < 5; i++)
		cp_run_result_release(&runs[i]);
}

/* Counts the legend titles (" title '") and the curves (" lc ") in the
 * script's page-cache panel. */
static void page_cache_panel(const char *script, int *titles, int *curves)
{
	FILE *fp = fopen(script, "r");
	char line[4096];
	bool in = false;

	assert_non_null(fp);
	*titles = *curves = 0;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "set title ", 10) == 0) {
			in = strstr(line, "Page cache over time") != NULL;
			continue;
		}
		if (!in)
			continue;
		*titles += strstr(line, " title '") != NULL;
		*curves += strstr(line, " lc ") != NULL;
	}
	fclose(fp);
}

/* Three model runs and two real ones: five curves, two legend entries,
 * each with its group's size. */
static void one_legend_entry_per_group(void **state)
{
	struct cp_run_result runs[5];
	char dir[] = "/tmp/cp-test-plot-XXXXXX", path[256], line[4096];
	int titles, curves, sized = 0;
	FILE *fp;
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		i < 3 ? model_run(&runs[i]) : real_v1_run(&runs[i]);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(cp_plot_write_files(dir, runs, 5, "/x/out.png", CP_PLOT_PNG, NULL), 0);
	snprintf(path, sizeof(path), "%s/plot.gp", dir);
	page_cache_panel(path, &titles, &curves);
	assert_int_equal(curves, 5);
	assert_int_equal(titles, 2);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		sized += strstr(line, "title 'model (patched, linux-6.x), 3 runs'") != NULL ||
			 strstr(line, "title 'real (6.18.44), 2 runs'") != NULL;
	fclose(fp);
	assert_int_equal(sized, 4); /* both panels over time */
	cp_plot_remove_files(dir, runs, 5);
	assert_int_equal(rmdir(dir), 0);
	for (i = 0; i < 5; i++)
		cp_run_result_release(&runs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_series_is_pages_times_4096),
		cmocka_unit_test(real_v1_series_uses_file_and_kmem_bytes),
		cmocka_unit_test(labels_and_formats),
		cmocka_unit_test(files_written_and_removed),
		cmocka_unit_test(runs_grouped_by_label),
		cmocka_unit_test(one_legend_entry_per_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
