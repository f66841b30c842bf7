/*
 * abtable.h - the A/B table of `cachepressure real compare`: two kernels,
 * N runs each, in the layout of mmtests' compare-kernels: per reader and
 * in total the mean, sd, min and max of the bytes re-read for each
 * kernel, the ratio B/A of the means and a significance test
 * (signif.h); then the reclaim counters of both kernels side by side.
 *
 * Nothing here runs anything: the CLI runs both kernels and hands over
 * struct cp_run_result's (result.h). Failed runs are left out of every
 * row and counted.
 */
#ifndef CP_REPORT_ABTABLE_H
#define CP_REPORT_ABTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cachepressure/result.h>

#include "report/signif.h"
#include "report/stats.h"

struct cp_diag;

#define CP_AB_MAX_ROWS 17     /* readers, then the total */
#define CP_AB_ROW_NAME_MAX 128
#define CP_AB_NR_COUNTERS 5

/* SIMPLIFIED: the harness records the end value of nr_slab_reclaimable
 * in pages (/proc/vmstat); /proc/meminfo's SReclaimable is the same
 * count times the page size, which is 4 KiB on x86-64, the only guest
 * architecture of the kernel lab. */
#define CP_AB_PAGE_BYTES 4096

/* One kernel: a name ("stock"), its image (for the JSON; may be NULL)
 * and its runs. */
struct cp_ab_kernel {
	const char *name;
	const char *image;
	const struct cp_run_result *runs;
	size_t nr_runs;
};

struct cp_ab_row {
	char name[CP_AB_ROW_NAME_MAX]; /* reader path, or "total" */
	bool total;
	struct cp_stats a, b;  /* bytes re-read over the runs that did not fail */
	bool has_ratio;        /* a.mean != 0 */
	double ratio;          /* b.mean / a.mean */
	bool has_u;            /* cp_mwu_test() gave a result */
	struct cp_mwu u;
	bool has_welch;        /* cp_welch_test() gave a result */
	struct cp_welch welch;
};

struct cp_ab_counter {
	const char *name;   /* the label: a /proc/vmstat or /proc/meminfo name */
	const char *source; /* the counter of struct cp_run_result it comes from */
	size_t n_a, n_b;    /* runs (not failed) that recorded it */
	double mean_a, mean_b; /* valid when n_a, n_b > 0 */
};

struct cp_ab_table {
	const char *name_a, *name_b; /* point into the cp_ab_kernel given */
	size_t nr_runs_a, nr_failed_a, nr_runs_b, nr_failed_b;
	size_t nr_rows;
	struct cp_ab_row rows[CP_AB_MAX_ROWS];
	struct cp_ab_counter counters[CP_AB_NR_COUNTERS];
};

/* Builds the table of kernels a and b: one row per reader path (in the
 * order they first appear, a's runs first; a run without that reader
 * counts 0 bytes), a total row when there is more than one reader, and
 * the counters slabs_scanned, pgscan_kswapd, pgscan_direct,
 * workingset_refault_file (deltas over the run) and SReclaimable at the
 * end (kB). A row's test is missing (has_u/has_welch false) when a side
 * has fewer than 2 runs or the values have no spread. Returns 0, or
 * -CP_EINVAL when a kernel has no run that did not fail (diag names it),
 * or -CP_ENOMEM; on failure *t is zeroed. */
int cp_ab_table_build(const struct cp_ab_kernel *a, const struct cp_ab_kernel *b,
		      struct cp_ab_table *t, struct cp_diag *diag);

/* Prints the table: the byte rows in GB (10^9 bytes, 2 decimals), B/A,
 * the test ("U exact" / "U normal") and its p, Welch's p; then the
 * counters (mean per kernel, "-" when no run recorded one) and notes on
 * the tests and the failed runs. Returns 0 or -CP_EIO. */
int cp_ab_table_fprint(FILE *out, const struct cp_ab_table *t);

/* p-value text: 4 decimals, or 2 significant digits in e-notation below
 * 0.0001 ("3.2e-07"). */
void cp_ab_format_p(char *buf, size_t len, double p);

/* {"kernels": [{"name", "image", "runs": [...], "runs_failed"}, ...],
 * "test": {"name", "secondary", "rows": [{"name", "kind", "a": {"n",
 * "mean", "sd", "min", "max"}, "b": {...}, "ratio_b_a", "u": {"method",
 * "u_a", "u", "z", "p"}, "welch": {"t", "df", "p"}}, ...]}, "vmstat":
 * [{"name", "source", "n_a", "n_b", "mean_a", "mean_b"}, ...]}; the runs
 * in the layout of report/json.h (cp_report_json_tree), values that
 * cannot be computed null. cp_malloc'ed text: cp_free() it. NULL when out
 * of memory. */
char *cp_ab_json_text(const struct cp_ab_kernel *a, const struct cp_ab_kernel *b,
		      const struct cp_ab_table *t);

/* Same to path ("-": stdout). Returns 0, -CP_ENOMEM or -CP_EIO. */
int cp_ab_json_write(const char *path, const struct cp_ab_kernel *a,
		     const struct cp_ab_kernel *b, const struct cp_ab_table *t,
		     struct cp_diag *diag);

#endif /* CP_REPORT_ABTABLE_H */
