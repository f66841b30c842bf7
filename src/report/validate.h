/*
 * validate.h - the model against the real kernel (`cachepressure
 * validate`): the model (one run, or the mean of several from each real
 * run's own start) next to N real runs of the same scaled scenario, as
 * a table of rows (per reader bytes re-read, their total, and the
 * reclaim counters both sides report), each with the real mean, min,
 * max and sample sd, the model's value, and the model's error in real
 * standard deviations and in percent of the mean.
 *
 * Nothing here runs anything: the CLI runs both sides and hands over
 * struct cp_run_result's (result.h).
 */
#ifndef CP_REPORT_VALIDATE_H
#define CP_REPORT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cachepressure/result.h>

#include "report/stats.h"

struct cp_diag;

/* A table's rows: a row per reader path (at most
 * CP_VALIDATE_MAX_READER_ROWS: SIMPLIFIED, more readers are not shown),
 * the total and the re-read rate, and every counter row (validate.c
 * asserts they fit in CP_VALIDATE_MAX_COUNTER_ROWS). */
#define CP_VALIDATE_MAX_READER_ROWS 16
#define CP_VALIDATE_MAX_COUNTER_ROWS 64
#define CP_VALIDATE_MAX_ROWS (CP_VALIDATE_MAX_READER_ROWS + 2 + CP_VALIDATE_MAX_COUNTER_ROWS)
#define CP_VALIDATE_NAME_MAX 128

enum cp_validate_kind {
	CP_VALIDATE_READER,  /* bytes read from the device by one reader */
	CP_VALIDATE_TOTAL,   /* sum over the readers */
	CP_VALIDATE_COUNTER, /* a counter both sides report */
};

struct cp_validate_row {
	enum cp_validate_kind kind;
	char name[CP_VALIDATE_NAME_MAX]; /* reader path or counter label */
	const char *model_src; /* where the model value comes from (counters) */
	const char *real_src;  /* where the real values come from (counters) */
	struct cp_stats real;  /* over the real runs that have the value */
	int64_t model;
	bool has_z;            /* real.n >= 2 and real.sd > 0 */
	double z;              /* (model - mean) / sd */
	bool has_pct;          /* real mean != 0 */
	double pct;            /* (model - mean) / mean * 100 */
};

/* The most model runs validate makes for one table: the reader phases of
 * a single run, or --seeds runs from each real run's own start. */
#define CP_VALIDATE_MAX_RUNS 64

struct cp_validate_table {
	size_t nr_rows;
	struct cp_validate_row rows[CP_VALIDATE_MAX_ROWS];
	size_t nr_real;        /* real runs given */
	size_t nr_real_failed; /* of them failed: left out of every row */
	bool model_failed;
	/* the caller's: the model's total bytes re-read at reader phase
	 * seeds phase_seed, phase_seed + 1, ... (the first is the table's
	 * model run); 0 phases: none given */
	size_t nr_phases;
	uint64_t phase_seed;
	/* the phases are the model runs from each real run's own start,
	 * phase_seeds_per_run of them from each, in the real runs' order
	 * (real runs that failed left out; seeds phase_seed, ...), and the
	 * table's model is their mean */
	bool phases_paired;
	unsigned phase_seeds_per_run;
	int64_t phase_totals[CP_VALIDATE_MAX_RUNS];
	/* and the objects its superblock shrinker freed at each
	 * (cp_sb_objects_freed): whether it frees at all can turn on the
	 * phase, as the kernel's does from run to run */
	int64_t phase_sb_freed[CP_VALIDATE_MAX_RUNS];
};

/*
 * The model runs of a paired validate: seeds_per_run of them from each of
 * nr_real real runs' starts (the CLI runs run m, from 0, from real run
 * m / seeds_per_run at its first seed + m). Returns 0 with *nr_runs = nr_real * seeds_per_run,
 * -CP_EINVAL (seeds_per_run 0; *nr_runs unchanged) or -CP_ERANGE (more
 * than CP_VALIDATE_MAX_RUNS; *nr_runs the product, or SIZE_MAX if it
 * overflows).
 */
int cp_validate_paired_runs(size_t nr_real, unsigned seeds_per_run, size_t *nr_runs);

/* The bytes every reader of r read from the device: the total row's value. */
int64_t cp_validate_total_bytes(const struct cp_run_result *r);

/*
 * The mean of n model runs as one result, for the table's model column
 * when the model runs once from each real run's own start: each counter
 * the mean over the runs that report it, each reader's total_read_bytes
 * the mean over the runs (matched by path; a run without the reader
 * counts 0) and duration_ns the mean, all rounded to the nearest; the
 * names and seed are runs[0]'s, failed if any run failed. No passes and
 * no series (a mean of passes is no run's): it is for the table only,
 * and the JSON carries the runs themselves.
 * out must be initialised and empty. Returns 0, -CP_EINVAL (n is 0) or
 * -CP_ENOMEM (out partly filled: release it).
 */
int cp_validate_model_mean(struct cp_run_result *out, const struct cp_run_result *runs, size_t n);

/* Fills row->real from real[0..n) and the model's errors against it.
 * Returns 0 or -CP_EINVAL when n is 0 (row unchanged). */
int cp_validate_row_compute(struct cp_validate_row *row, const int64_t *real, size_t n,
			    int64_t model);

/* Builds the table: one row per reader path (the model's order, then
 * paths only the real runs have), a total row when there is more than
 * one reader, then the counter rows whose value both the model and at
 * least one real run report. Failed real runs are left out. Returns 0,
 * -CP_EINVAL (no real run, or every real run failed: diag says so) or
 * -CP_ENOMEM. */
int cp_validate_table_build(const struct cp_run_result *model, const struct cp_run_result *real,
			    size_t nr_real, struct cp_validate_table *t, struct cp_diag *diag);

/* Prints the table: a header line, one line per row, then where each
 * counter row's values come from on both sides. Returns 0 or -CP_EIO. */
int cp_validate_table_fprint(FILE *out, const struct cp_validate_table *t);

/* The merged JSON text: {"runs": [models..., real...] (the model's runs:
 * one, or seeds_per_run from each real run's start, whose mean the
 * table's model column is), "validate": {"rows":
 * [{"name", "kind", "model_source", "real_source", "n", "mean", "min",
 * "max", "sd", "model", "model_minus_mean_sd", "model_minus_mean_pct"},
 * ...], "real_runs", "real_runs_failed", and with t->nr_phases
 * "model_phases": {"first_seed", "paired", with paired "seeds_per_run", "totals":
 * [...], "sb_freed": [...]}}};
 * errors that cannot be computed are null. cp_report_json_parse() reads the runs back. The
 * text is cp_malloc'ed: cp_free() it. NULL when out of memory. */
char *cp_validate_json_text(const struct cp_run_result *models, size_t nr_models,
			    const struct cp_run_result *real, size_t nr_real,
			    const struct cp_validate_table *t);

/* Same to path ("-": stdout). Returns 0, -CP_ENOMEM or -CP_EIO. */
int cp_validate_json_write(const char *path, const struct cp_run_result *models,
			   size_t nr_models, const struct cp_run_result *real, size_t nr_real,
			   const struct cp_validate_table *t, struct cp_diag *diag);

/* The kernel profile for a kernel release (`uname -r`): before 4.16
 * "linux-4.11", 4.16 to 6.15 "linux-6.1", 6.16 and later "linux-6.x".
 * NULL when release does not start with MAJOR.MINOR. */
const char *cp_validate_kernel_profile_for(const char *release);

#endif /* CP_REPORT_VALIDATE_H */
