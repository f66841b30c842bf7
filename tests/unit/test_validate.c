/*
 * test_validate.c - the table of `cachepressure validate`: real mean,
 * sample sd, the model's error in sd and in percent (hand-computed), the
 * rows built from model and real runs (readers, total, counters that
 * both sides have, derived object counts), and the merged JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "core/alloc.h"
#include "report/json.h"
#include "report/validate.h"

/* real 100, 200, 300: mean 200; deviations -100, 0, 100; sample variance
 * (10000 + 0 + 10000) / 2 = 10000, sd 100. Model 250: (250 - 200) / 100
 * = 0.5 sd; (250 - 200) / 200 = +25 %. */
static void error_in_sd_and_percent_by_hand(void **state)
{
	static const int64_t v[] = { 100, 200, 300 };
	struct cp_validate_row row;

	(void)state;
	memset(&row, 0, sizeof(row));
	assert_int_equal(cp_validate_row_compute(&row, v, 3, 250), 0);
	assert_int_equal(row.real.n, 3);
	assert_true(row.real.mean == 200.0);
	assert_true(fabs(row.real.sd - 100.0) < 1e-12);
	assert_int_equal(row.real.min, 100);
	assert_int_equal(row.real.max, 300);
	assert_true(row.has_z && fabs(row.z - 0.5) < 1e-12);
	assert_true(row.has_pct && fabs(row.pct - 25.0) < 1e-12);
}

/* real 10, 14: mean 12, deviations -2, +2, variance 8/1, sd 2.828427;
 * model 6: (6 - 12) / 2.828427 = -2.1213203 sd; -6 / 12 = -50 %. */
static void model_below_mean_gives_negative_errors(void **state)
{
	static const int64_t v[] = { 10, 14 };
	struct cp_validate_row row;

	(void)state;
	memset(&row, 0, sizeof(row));
	assert_int_equal(cp_validate_row_compute(&row, v, 2, 6), 0);
	assert_true(fabs(row.real.sd - sqrt(8.0)) < 1e-12);
	assert_true(fabs(row.z - (-6.0 / sqrt(8.0))) < 1e-12);
	assert_true(fabs(row.pct - (-50.0)) < 1e-12);
}

/* One real run has no sd: the error in sd is not computable; a zero mean
 * has no percent; no runs at all is refused. */
static void one_run_has_no_sd_and_zero_mean_no_percent(void **state)
{
	static const int64_t one[] = { 0 };
	struct cp_validate_row row;

	(void)state;
	memset(&row, 0, sizeof(row));
	assert_int_equal(cp_validate_row_compute(&row, one, 1, 5), 0);
	assert_false(row.has_z);
	assert_false(row.has_pct);
	assert_int_equal(row.model, 5);
	assert_int_equal(cp_validate_row_compute(&row, one, 0, 5), -CP_EINVAL);
}

/* ---- table from run results ----------------------------------------------- */

static void make_run(struct cp_run_result *r, const char *source, int64_t a_bytes,
		     int64_t b_bytes, int64_t pgscan, int64_t nr_dentry0, int64_t nr_dentry_end)
{
	static const char *const cols[] = { "t_ns", "nr_dentry" };
	struct cp_reader_result *rd;
	int64_t row[2] = { 0, nr_dentry0 };

	cp_run_result_init(r);
	assert_int_equal(cp_run_result_set_str(&r->source, source), 0);
	assert_int_equal(cp_run_result_add_reader(r, "/mnt/a", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, (uint64_t)a_bytes, 1), 0);
	assert_int_equal(cp_run_result_add_reader(r, "/mnt/b", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, (uint64_t)b_bytes, 2), 0);
	assert_int_equal(cp_run_result_set_counter(r, "pgscan_kswapd", pgscan), 0);
	if (strcmp(source, "real") == 0) {
		assert_int_equal(cp_series_set_columns(&r->series, cols, 2), 0);
		assert_int_equal(cp_series_add_row(&r->series, row), 0);
		assert_int_equal(cp_run_result_set_counter(r, "nr_dentry_end", nr_dentry_end), 0);
	}
}

struct fixture {
	struct cp_run_result model;
	struct cp_run_result real[3];
};

static int setup(void **state)
{
	struct fixture *f = cp_calloc(1, sizeof(*f));

	assert_non_null(f);
	/* model: a 50, b 70, pgscan_kswapd 900; dentries allocated 5000,
	 * freed 1000 -> 4000 added */
	make_run(&f->model, "model", 50, 70, 900, 0, 0);
	assert_int_equal(cp_run_result_set_counter(&f->model, "cp_dentries_allocated", 5000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->model, "cp_dentries_freed", 1000), 0);
	/* file pages scanned by any reclaim: 900 + 100 + 10 = 1010 */
	assert_int_equal(cp_run_result_set_counter(&f->model, "pgscan_direct", 100), 0);
	assert_int_equal(cp_run_result_set_counter(&f->model, "cp_pgscan_memcg", 10), 0);
	/* real: a 40 60 80 (mean 60, sd 20); b 100 100 100 (sd 0);
	 * pgscan 1000 1000 1300 (mean 1100, sd sqrt((10000*2+40000)/2)
	 * = sqrt(30000)); dentries end - first sample 3000 5000 4000
	 * (mean 4000, sd 1000); the third run failed and is left out */
	make_run(&f->real[0], "real", 40, 100, 1000, 10000, 13000);
	make_run(&f->real[1], "real", 80, 100, 1300, 10000, 15000);
	make_run(&f->real[2], "real", 999, 999, 99999, 0, 99999);
	f->real[2].failed = 1;
	/* real pgscan_file 1000, 1020: mean 1010 */
	assert_int_equal(cp_run_result_set_counter(&f->real[0], "pgscan_file", 1000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[1], "pgscan_file", 1020), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	size_t i;

	cp_run_result_release(&f->model);
	for (i = 0; i < 3; i++)
		cp_run_result_release(&f->real[i]);
	cp_free(f);
	return 0;
}

static const struct cp_validate_row *row_named(const struct cp_validate_table *t,
					       const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_rows; i++)
		if (strcmp(t->rows[i].name, name) == 0)
			return &t->rows[i];
	return NULL;
}

/* With real runs {40, 80} for /mnt/a (the failed 999 left out): mean 60,
 * sd sqrt(800) = 28.28; model 50 -> -10 / 28.28 = -0.3536 sd, -16.67 %.
 * Total: real 140, 180 (mean 160), model 120 -> -25 %. pgscan_kswapd
 * 1000, 1300: mean 1150; model 900 -> -21.74 %. Dentries added: real
 * 3000, 5000 (mean 4000), model 5000 - 1000 = 4000 -> 0 %. */
static void table_rows_from_model_and_real_runs(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const struct cp_validate_row *r;

	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	assert_int_equal(t.nr_real_failed, 1);
	/* a, b, total, pgscan_kswapd, pgscan file, dentries added (no
	 * real pgscan_direct and no inode counters: no rows) */
	assert_int_equal(t.nr_rows, 6);
	assert_string_equal(t.rows[0].name, "/mnt/a");
	assert_string_equal(t.rows[1].name, "/mnt/b");
	assert_int_equal(t.rows[2].kind, CP_VALIDATE_TOTAL);
	r = &t.rows[0];
	assert_int_equal(r->real.n, 2);
	assert_true(r->real.mean == 60.0);
	assert_true(fabs(r->z - (-10.0 / sqrt(800.0))) < 1e-9);
	assert_true(fabs(r->pct - (-100.0 / 6.0)) < 1e-9);
	r = &t.rows[1];
	assert_false(r->has_z); /* sd 0 */
	assert_true(fabs(r->pct - (-30.0)) < 1e-9);
	r = &t.rows[2];
	assert_int_equal(r->model, 120);
	assert_true(fabs(r->pct - (-25.0)) < 1e-9);
	r = row_named(&t, "pgscan_kswapd");
	assert_non_null(r);
	assert_true(fabs(r->pct - (-250.0 / 1150.0 * 100.0)) < 1e-9);
	r = row_named(&t, "dentries added");
	assert_non_null(r);
	assert_int_equal(r->model, 4000);
	assert_true(r->real.mean == 4000.0);
	assert_int_equal(r->real.min, 3000);
	assert_true(fabs(r->pct) < 1e-12);
	assert_null(row_named(&t, "pgscan_direct"));
	r = row_named(&t, "pgscan file (all reclaim)");
	assert_non_null(r);
	assert_int_equal(r->model, 1010);
	assert_true(fabs(r->pct) < 1e-12);
}

/* Bytes re-read per second of fs_mark: total bytes * 1e9 / fs_mark_ns.
 * Model 120 B in 2 s = 60 B/s; real 140 B in 1 s, 180 B in 4 s = 140
 * and 45 B/s (mean 92.5); the failed run left out. */
static void reread_rate_divides_total_by_fs_mark_time(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const struct cp_validate_row *r;

	assert_int_equal(cp_run_result_set_counter(&f->model, "fs_mark_ns", 2000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[0], "fs_mark_ns", 1000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[1], "fs_mark_ns", 4000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[2], "fs_mark_ns", 1), 0);
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	r = row_named(&t, "re-read B per fs_mark s");
	assert_non_null(r);
	assert_int_equal(r->model, 60);
	assert_int_equal(r->real.n, 2);
	assert_int_equal(r->real.min, 45);
	assert_int_equal(r->real.max, 140);
	assert_true(r->real.mean == 92.5);
	/* right after the total */
	assert_int_equal(t.rows[3].kind, CP_VALIDATE_COUNTER);
	assert_string_equal(t.rows[3].name, "re-read B per fs_mark s");
}

/* The CPUs fs_mark had: fs_mark_cpu_ns * 1000 / fs_mark_ns. Model 1.5 s
 * of CPU in 2 s = 750 per mille; real 0.8 s in 1 s = 800 and 3 s in 4 s
 * = 750 (mean 775); a run without fs_mark's time (0) is left out. */
static void fs_mark_cpus_are_its_cpu_time_over_its_run_time(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const struct cp_validate_row *r;

	assert_int_equal(cp_run_result_set_counter(&f->model, "fs_mark_ns", 2000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->model, "fs_mark_cpu_ns", 1500000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[0], "fs_mark_ns", 1000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[0], "fs_mark_cpu_ns", 800000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[1], "fs_mark_ns", 4000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[1], "fs_mark_cpu_ns", 3000000000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[2], "fs_mark_ns", 0), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[2], "fs_mark_cpu_ns", 5), 0);
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	r = row_named(&t, "fs_mark CPUs per mille");
	assert_non_null(r);
	assert_int_equal(r->model, 750);
	assert_int_equal(r->real.n, 2);
	assert_int_equal(r->real.min, 750);
	assert_int_equal(r->real.max, 800);
	assert_true(r->real.mean == 775.0);
}

/* Every counter either side's rows read (validate.c counter_rows[]). */
static const char *const every_counter[] = {
	"allocstall", "allocstall_movable", "allocstall_normal", "compact_daemon_migrate_scanned",
	"compact_daemon_wake", "compact_stall", "cp_dentries_allocated", "cp_dentries_freed",
	"cp_extfrag", "cp_inodes_evicted", "cp_inodes_init", "cp_kcompactd_cpu_ns",
	"cp_kswapd_cpu_ns", "cp_kswapd_run_delay_ns", "cp_memcg_reclaim_restarts",
	"cp_memcg_reclaimed_fs", "cp_memcg_reclaims", "cp_memcg_reclaims_deep",
	"cp_memcg_reclaims_fs", "cp_memcg_reclaims_fs_deep", "cp_memcg_reclaims_fs_prio12",
	"cp_memcg_reclaims_prio12", "cp_pgscan_memcg", "cp_pgsteal_memcg", "cp_sb_objects_freed",
	"cpu_busy_ns", "extfrag", "extfrag_claim", "extfrag_claim_movable", "fs_mark_cpu_ns",
	"fs_mark_ns", "kcompactd_cpu_ns", "kswapd_cpu_ns", "kswapd_high_wmark_hit_quickly",
	"kswapd_low_wmark_hit_quickly", "kswapd_run_delay_ns", "memcg_reclaim_restarts",
	"memcg_reclaimed", "memcg_reclaimed_fs", "memcg_reclaims", "memcg_reclaims_deep",
	"memcg_reclaims_fs", "memcg_reclaims_fs_deep", "memcg_reclaims_fs_prio12",
	"memcg_reclaims_prio12", "normal_below_min_pm", "normal_boost_mean_pages",
	"normal_boosted_pm", "nr_dentry_end", "nr_inodes_end", "pageoutrun", "pgalloc_dma32",
	"pgalloc_normal", "pgdeactivate", "pgmigrate_success", "pgscan_direct", "pgscan_file",
	"pgscan_kswapd", "ra_async_calls", "ra_pages_order_2to5", "ra_pages_order_6to9",
	"ra_sync_calls", "readers_cpu_ns", "sb_deep_calls", "sb_deep_fs_calls", "sb_deep_scan",
	"sb_shrinker_freed", "slabs_scanned", "workingset_refault_file",
};

/* With every counter on both sides each counter row has its place: the
 * table runs to its last rows (before session 44 it stopped at 40 rows
 * and left the last counters out without a word). */
static void every_counter_row_has_its_place(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	size_t i, k;

	for (k = 0; k < sizeof(every_counter) / sizeof(every_counter[0]); k++) {
		assert_int_equal(cp_run_result_set_counter(&f->model, every_counter[k], 1000), 0);
		for (i = 0; i < 2; i++)
			assert_int_equal(
				cp_run_result_set_counter(&f->real[i], every_counter[k], 1000), 0);
	}
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	assert_true(t.nr_rows > 40);
	assert_non_null(row_named(&t, "fs_mark CPUs per mille"));
	assert_non_null(row_named(&t, "readers CPU ns"));
	assert_non_null(row_named(&t, "CPUs busy ns"));
	assert_non_null(row_named(&t, "dentries added"));
}

/* A table has a row for each reader path up to
 * CP_VALIDATE_MAX_READER_ROWS (more are not shown) and still every
 * counter row after them: with 2 + 18 readers on both sides the reader
 * rows stop at 16, the total and pgscan_kswapd (model 900, real mean
 * 1150) come after them; the counter rows never run out of room. */
static void counter_rows_stay_after_many_readers(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const struct cp_validate_row *r;
	struct cp_reader_result *rd;
	char path[32];
	size_t i, k, readers = 0;

	for (k = 0; k < 18; k++) {
		snprintf(path, sizeof(path), "/mnt/extra%zu", k);
		assert_int_equal(cp_run_result_add_reader(&f->model, path, &rd), 0);
		for (i = 0; i < 2; i++)
			assert_int_equal(cp_run_result_add_reader(&f->real[i], path, &rd), 0);
	}
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	for (i = 0; i < t.nr_rows; i++)
		readers += t.rows[i].kind == CP_VALIDATE_READER;
	assert_int_equal(readers, CP_VALIDATE_MAX_READER_ROWS);
	assert_non_null(row_named(&t, "total"));
	r = row_named(&t, "pgscan_kswapd");
	assert_non_null(r);
	assert_int_equal(r->model, 900);
	assert_true(r->real.mean == 1150.0);
}

/* Without fs_mark's time on the model side there is no rate row. */
static void reread_rate_needs_fs_mark_time(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;

	assert_int_equal(cp_run_result_set_counter(&f->real[0], "fs_mark_ns", 1000000000), 0);
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	assert_null(row_named(&t, "re-read B per fs_mark s"));
}

/* The readahead rows pair the model's counters with the same names from
 * the real runs' trace instance: pages in folios of order 6-9, model
 * 3000, real 1000 and 3000 (mean 2000) -> +50 %; a real run without the
 * trace (an older JSON, a kernel without the events) gives no row. */
static void readahead_rows_pair_the_same_counters(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const struct cp_validate_row *r;

	assert_int_equal(cp_run_result_set_counter(&f->model, "ra_pages_order_6to9", 3000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->model, "ra_sync_calls", 10), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[0], "ra_pages_order_6to9", 1000), 0);
	assert_int_equal(cp_run_result_set_counter(&f->real[1], "ra_pages_order_6to9", 3000), 0);
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 3, &t, NULL), 0);
	r = row_named(&t, "ra pages order 6-9");
	assert_non_null(r);
	assert_int_equal(r->model, 3000);
	assert_true(r->real.mean == 2000.0);
	assert_true(fabs(r->pct - 50.0) < 1e-9);
	assert_null(row_named(&t, "readahead sync"));
}

static void every_real_run_failed_is_refused(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	struct cp_diag diag = { "" };

	assert_int_equal(cp_validate_table_build(&f->model, &f->real[2], 1, &t, &diag),
			 -CP_EINVAL);
	assert_non_null(strstr(diag.msg, "every real run failed"));
}

/* The merged JSON: the runs read back by cp_report_json_parse() (model
 * first, then the real runs in order), plus the table under "validate". */
static void json_merges_model_real_runs_and_table(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	struct cp_run_result *runs = NULL;
	size_t n = 0;
	char *text;
	cJSON *root;
	const cJSON *rows, *first, *z;

	assert_int_equal(cp_validate_table_build(&f->model, f->real, 2, &t, NULL), 0);
	text = cp_validate_json_text(&f->model, 1, f->real, 2, &t);
	assert_non_null(text);
	assert_int_equal(cp_report_json_parse(text, "test", &runs, &n, NULL), 0);
	assert_int_equal(n, 3);
	assert_string_equal(runs[0].source, "model");
	assert_string_equal(runs[1].source, "real");
	assert_int_equal(runs[2].readers[0].total_read_bytes, 80);
	cp_report_runs_free(runs, n);

	root = cJSON_Parse(text);
	assert_non_null(root);
	rows = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "validate"), "rows");
	assert_true(cJSON_IsArray(rows));
	assert_int_equal(cJSON_GetArraySize(rows), (int)t.nr_rows);
	first = cJSON_GetArrayItem(rows, 0);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(first, "name")->valuestring,
			    "/mnt/a");
	assert_true(cJSON_GetObjectItemCaseSensitive(first, "mean")->valuedouble == 60.0);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(first, "model")->valueint, 50);
	/* /mnt/b: sd 0, so no error in sd: null */
	z = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 1), "model_minus_mean_sd");
	assert_true(cJSON_IsNull(z));
	cJSON_Delete(root);
	cp_free(text);
}

/* The model's totals at other reader phases go under
 * "validate"."model_phases" with the first seed; none given, no key. */
static void json_carries_the_model_phases_when_given(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const cJSON *ph, *tot;
	cJSON *root;
	char *text;

	assert_int_equal(cp_validate_table_build(&f->model, f->real, 2, &t, NULL), 0);
	text = cp_validate_json_text(&f->model, 1, f->real, 2, &t);
	root = cJSON_Parse(text);
	assert_null(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "validate"), "model_phases"));
	cJSON_Delete(root);
	cp_free(text);

	t.nr_phases = 3;
	t.phase_seed = 7;
	t.phases_paired = true;
	t.phase_totals[0] = 70;
	t.phase_totals[1] = 90;
	t.phase_totals[2] = 40;
	t.phase_sb_freed[0] = 0;
	t.phase_sb_freed[1] = 5000;
	t.phase_sb_freed[2] = 12;
	text = cp_validate_json_text(&f->model, 1, f->real, 2, &t);
	root = cJSON_Parse(text);
	ph = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "validate"),
					      "model_phases");
	assert_non_null(ph);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(ph, "first_seed")->valueint, 7);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ph, "paired")));
	tot = cJSON_GetObjectItemCaseSensitive(ph, "totals");
	assert_int_equal(cJSON_GetArraySize(tot), 3);
	assert_int_equal(cJSON_GetArrayItem(tot, 1)->valueint, 90);
	assert_int_equal(cJSON_GetArrayItem(tot, 2)->valueint, 40);
	/* each phase's superblock shrinker frees, in the same order */
	tot = cJSON_GetObjectItemCaseSensitive(ph, "sb_freed");
	assert_int_equal(cJSON_GetArraySize(tot), 3);
	assert_int_equal(cJSON_GetArrayItem(tot, 0)->valueint, 0);
	assert_int_equal(cJSON_GetArrayItem(tot, 1)->valueint, 5000);
	assert_int_equal(cJSON_GetArrayItem(tot, 2)->valueint, 12);
	cJSON_Delete(root);
	cp_free(text);
}

/* validate --seeds: N model runs from each real run's start, at most
 * CP_VALIDATE_MAX_RUNS in all; N 0 is no count; a product past SIZE_MAX
 * is too many, not a wrapped small count. */
static void paired_runs_are_seeds_times_real_runs(void **state)
{
	size_t n = 12345;

	(void)state;
	assert_int_equal(cp_validate_paired_runs(2, 4, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(cp_validate_paired_runs(5, 1, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(cp_validate_paired_runs(0, 4, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(cp_validate_paired_runs(16, 4, &n), 0);
	assert_int_equal(n, CP_VALIDATE_MAX_RUNS);
	assert_int_equal(cp_validate_paired_runs(1, CP_VALIDATE_MAX_RUNS, &n), 0);
	assert_int_equal(n, CP_VALIDATE_MAX_RUNS);
	assert_int_equal(cp_validate_paired_runs(17, 4, &n), -CP_ERANGE);
	assert_int_equal(n, 68);
	assert_int_equal(cp_validate_paired_runs(CP_VALIDATE_MAX_RUNS + 1, 1, &n), -CP_ERANGE);
	assert_int_equal(cp_validate_paired_runs(SIZE_MAX / 2 + 1, 2, &n), -CP_ERANGE);
	assert_true(n == SIZE_MAX);
	n = 7;
	assert_int_equal(cp_validate_paired_runs(3, 0, &n), -CP_EINVAL);
	assert_int_equal(n, 7);
}

/* Paired model runs: "seeds_per_run" beside "paired", and every run's
 * total and superblock frees, past the 8 the phases once had room for;
 * without pairing no "seeds_per_run". */
static void json_carries_seeds_per_run_and_every_paired_total(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	const cJSON *ph, *tot, *sb;
	cJSON *root;
	char *text;
	size_t i;

	assert_int_equal(cp_validate_table_build(&f->model, f->real, 2, &t, NULL), 0);
	t.nr_phases = 12; /* 3 seeds from each of 4 real runs */
	t.phase_seed = 1;
	t.phases_paired = true;
	t.phase_seeds_per_run = 3;
	for (i = 0; i < t.nr_phases; i++) {
		t.phase_totals[i] = 1000 + (int64_t)i;
		t.phase_sb_freed[i] = 10 * (int64_t)i;
	}
	text = cp_validate_json_text(&f->model, 1, f->real, 2, &t);
	root = cJSON_Parse(text);
	ph = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "validate"),
					      "model_phases");
	assert_non_null(ph);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ph, "paired")));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(ph, "seeds_per_run")->valueint, 3);
	tot = cJSON_GetObjectItemCaseSensitive(ph, "totals");
	sb = cJSON_GetObjectItemCaseSensitive(ph, "sb_freed");
	assert_int_equal(cJSON_GetArraySize(tot), 12);
	assert_int_equal(cJSON_GetArraySize(sb), 12);
	for (i = 0; i < 12; i++) {
		assert_int_equal(cJSON_GetArrayItem(tot, (int)i)->valueint, 1000 + (int)i);
		assert_int_equal(cJSON_GetArrayItem(sb, (int)i)->valueint, 10 * (int)i);
	}
	cJSON_Delete(root);
	cp_free(text);

	t.phases_paired = false;
	t.phase_seeds_per_run = 0;
	t.nr_phases = 5;
	text = cp_validate_json_text(&f->model, 1, f->real, 2, &t);
	root = cJSON_Parse(text);
	ph = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "validate"),
					      "model_phases");
	assert_non_null(ph);
	assert_null(cJSON_GetObjectItemCaseSensitive(ph, "seeds_per_run"));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ph, "totals")), 5);
	cJSON_Delete(root);
	cp_free(text);
}

/* 6.18 has vfs_cache_pressure_denom (6.16+): linux-6.x; 6.1 to 6.15 and
 * 5.x: linux-6.1 (priority shrink_slab since 4.16); older: linux-4.11. */
/* The mean of model runs, by hand: readers a 50, 80, 81 -> 70.33 ->
 * 70; b 70, 0 and 0 (the third run lacks it) -> 23.33 -> 23; counters
 * pgscan_kswapd 900, 1000, 1001 -> 967; a counter only the second run
 * has (cp_x 7) keeps its value; durations 10, 20, 31 -> 20.33 -> 20;
 * no passes and no series (no run's); one failed run fails the mean. */
static void model_mean_averages_counters_readers_and_duration(void **state)
{
	struct cp_run_result runs[3], mean;
	struct cp_reader_result *rd;

	(void)state;
	make_run(&runs[0], "model", 50, 70, 900, 0, 0);
	make_run(&runs[1], "model", 80, 0, 1000, 0, 0);
	cp_run_result_init(&runs[2]);
	assert_int_equal(cp_run_result_set_str(&runs[2].source, "model"), 0);
	assert_int_equal(cp_run_result_add_reader(&runs[2], "/mnt/a", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, 81, 5), 0);
	assert_int_equal(cp_run_result_set_counter(&runs[2], "pgscan_kswapd", 1001), 0);
	assert_int_equal(cp_run_result_set_counter(&runs[1], "cp_x", 7), 0);
	runs[0].duration_ns = 10;
	runs[1].duration_ns = 20;
	runs[2].duration_ns = 31;
	runs[1].failed = 1;
	cp_run_result_init(&mean);
	assert_int_equal(cp_validate_model_mean(&mean, runs, 3), 0);
	assert_string_equal(mean.source, "model");
	assert_int_equal(mean.nr_readers, 2);
	assert_string_equal(mean.readers[0].path, "/mnt/a");
	assert_int_equal(mean.readers[0].total_read_bytes, 70);
	assert_int_equal(mean.readers[1].total_read_bytes, 23);
	assert_int_equal(mean.readers[0].nr_passes, 0);
	assert_int_equal(mean.series.nr_rows, 0);
	assert_int_equal(cp_run_result_counter(&mean, "pgscan_kswapd", -1), 967);
	assert_int_equal(cp_run_result_counter(&mean, "cp_x", -1), 7);
	assert_int_equal(mean.duration_ns, 20);
	assert_true(mean.failed);
	cp_run_result_release(&mean);
	cp_run_result_init(&mean);
	assert_int_equal(cp_validate_model_mean(&mean, runs, 0), -CP_EINVAL);
	cp_run_result_release(&mean);
	for (size_t i = 0; i < 3; i++)
		cp_run_result_release(&runs[i]);
}

/* Every model run goes into the JSON, before the real runs, and each
 * reads back whole (its passes add up to its total). */
static void json_carries_every_model_run(void **state)
{
	struct fixture *f = *state;
	struct cp_validate_table t;
	struct cp_run_result models[2], *runs = NULL;
	size_t n = 0;
	char *text;

	make_run(&models[0], "model", 50, 70, 900, 0, 0);
	make_run(&models[1], "model", 30, 10, 800, 0, 0);
	assert_int_equal(cp_validate_table_build(&f->model, f->real, 2, &t, NULL), 0);
	text = cp_validate_json_text(models, 2, f->real, 2, &t);
	assert_non_null(text);
	assert_int_equal(cp_report_json_parse(text, "test", &runs, &n, NULL), 0);
	assert_int_equal(n, 4);
	assert_string_equal(runs[0].source, "model");
	assert_string_equal(runs[1].source, "model");
	assert_int_equal(runs[1].readers[0].total_read_bytes, 30);
	assert_string_equal(runs[2].source, "real");
	cp_report_runs_free(runs, n);
	cp_free(text);
	cp_run_result_release(&models[0]);
	cp_run_result_release(&models[1]);
}

static void kernel_profile_follows_the_release(void **state)
{
	(void)state;
	assert_string_equal(cp_validate_kernel_profile_for("6.18.44-fc-v669"), "linux-6.x");
	assert_string_equal(cp_validate_kernel_profile_for("6.16.0"), "linux-6.x");
	assert_string_equal(cp_validate_kernel_profile_for("6.15.9"), "linux-6.1");
	assert_string_equal(cp_validate_kernel_profile_for("6.1.0-18-amd64"), "linux-6.1");
	assert_string_equal(cp_validate_kernel_profile_for("5.10.0"), "linux-6.1");
	assert_string_equal(cp_validate_kernel_profile_for("4.16.0"), "linux-6.1");
	assert_string_equal(cp_validate_kernel_profile_for("4.11.0"), "linux-4.11");
	assert_null(cp_validate_kernel_profile_for("linux"));
	assert_null(cp_validate_kernel_profile_for("6"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(error_in_sd_and_percent_by_hand),
		cmocka_unit_test(model_below_mean_gives_negative_errors),
		cmocka_unit_test(one_run_has_no_sd_and_zero_mean_no_percent),
		cmocka_unit_test_setup_teardown(table_rows_from_model_and_real_runs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(reread_rate_divides_total_by_fs_mark_time, setup,
						teardown),
		cmocka_unit_test_setup_teardown(fs_mark_cpus_are_its_cpu_time_over_its_run_time, setup,
						teardown),
		cmocka_unit_test_setup_teardown(reread_rate_needs_fs_mark_time, setup, teardown),
		cmocka_unit_test_setup_teardown(counter_rows_stay_after_many_readers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(every_counter_row_has_its_place, setup, teardown),
		cmocka_unit_test_setup_teardown(readahead_rows_pair_the_same_counters, setup,
						teardown),
		cmocka_unit_test_setup_teardown(every_real_run_failed_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(json_merges_model_real_runs_and_table, setup,
						teardown),
		cmocka_unit_test_setup_teardown(json_carries_the_model_phases_when_given, setup,
						teardown),
		cmocka_unit_test_setup_teardown(json_carries_every_model_run, setup, teardown),
		cmocka_unit_test_setup_teardown(json_carries_seeds_per_run_and_every_paired_total,
						setup, teardown),
		cmocka_unit_test(paired_runs_are_seeds_times_real_runs),
		cmocka_unit_test(model_mean_averages_counters_readers_and_duration),
		cmocka_unit_test(kernel_profile_follows_the_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
