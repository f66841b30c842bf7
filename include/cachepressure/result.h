/*
 * result.h - what one run measured, from the model or from a real kernel.
 *
 * The model (cachepressure run/compare) and the real harness
 * (cachepressure real) both fill these structs, so one report module
 * prints the seed's lines, the tables, JSON and CSV for either. All
 * values are integers; ratios are formatted only when printing.
 */
#ifndef CP_RESULT_H
#define CP_RESULT_H

#include <stddef.h>
#include <stdint.h>

struct cp_diag;

/* One completed pass of a reader over its file (read-file's loop). */
struct cp_pass {
	uint32_t pass;        /* 1-based loop number */
	uint64_t read_bytes;  /* bytes read from the device during the pass */
	uint64_t end_ns;      /* time the pass ended (virtual or wall, from run start) */
};

struct cp_reader_result {
	char *path;                /* owned */
	uint64_t total_read_bytes; /* sum over completed passes */
	struct cp_pass *passes;    /* owned, nr_passes entries */
	size_t nr_passes, cap_passes;
};

/* A named integer counter (vmstat names; cp_* for the model's own). */
struct cp_counter {
	char *name;  /* owned */
	int64_t value;
};

/* A time series: named columns, one row per sample; column 0 is t_ns. */
struct cp_series {
	char **columns;   /* owned, nr_columns names */
	size_t nr_columns;
	int64_t *values;  /* owned, nr_rows * nr_columns, row-major */
	size_t nr_rows, cap_rows;
};

struct cp_run_result {
	char *source;    /* "model" or "real" */
	char *policy;    /* "legacy", "patched", or the real kernel's name */
	char *kernel;    /* kernel profile or `uname -r` */
	char *scenario;
	char *confine;   /* "global" or "memcg" */
	uint64_t mem_bytes;
	uint64_t seed;
	uint64_t duration_ns;
	int failed;      /* non-zero: the run did not complete (OOM, ...) */
	char *failure;   /* owned, why it failed, or NULL */
	struct cp_reader_result *readers;
	size_t nr_readers;
	struct cp_counter *counters; /* kept sorted by name */
	size_t nr_counters;
	struct cp_series series;
};

/* Zero r; pair with cp_run_result_release(). */
void cp_run_result_init(struct cp_run_result *r);
void cp_run_result_release(struct cp_run_result *r);

/* Set one of the string fields (source, policy, ...) to a copy of value.
 * Returns 0 or -CP_ENOMEM (field unchanged). */
int cp_run_result_set_str(char **field, const char *value);

/* Adds a reader; *out points at it until the next add. 0 or -CP_ENOMEM. */
int cp_run_result_add_reader(struct cp_run_result *r, const char *path,
			     struct cp_reader_result **out);

/* Appends a completed pass and adds its bytes to the total. */
int cp_reader_add_pass(struct cp_reader_result *rd, uint64_t read_bytes, uint64_t end_ns);

/* Sets (or overwrites) counter name. Keeps counters sorted by name. */
int cp_run_result_set_counter(struct cp_run_result *r, const char *name, int64_t value);

/* Returns the counter's value, or `dflt` when absent. */
int64_t cp_run_result_counter(const struct cp_run_result *r, const char *name, int64_t dflt);

/* Defines the series columns (first must be "t_ns"); only once. */
int cp_series_set_columns(struct cp_series *s, const char *const *names, size_t n);

/* Appends one row of nr_columns values. */
int cp_series_add_row(struct cp_series *s, const int64_t *row);

#endif /* CP_RESULT_H */
