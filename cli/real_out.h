/*
 * real_out.h - text and JSON output of `cachepressure real`, through the
 * report module (src/report/): the seed's lines and the run table per
 * run, a few harness-only counters, the spread over repetitions, and the
 * shared JSON layout.
 */
#ifndef CP_CLI_REAL_OUT_H
#define CP_CLI_REAL_OUT_H

#include <stddef.h>
#include <stdio.h>

struct cp_run_result;
struct cp_diag;

/* "# run I/N ..." then cp_report_seed_lines() and cp_report_run_table(),
 * then fs_mark's rate, the balloon and the memcg/XFS counters. */
void real_print_run(FILE *out, const struct cp_run_result *r, const char *fs, unsigned idx,
		    unsigned nr);

/* Per reader and in total: each run's bytes re-read, then mean, min,
 * max, sample standard deviation and sd/mean over the runs that did not
 * fail (cp_stats_compute). */
void real_print_summary(FILE *out, const struct cp_run_result *runs, size_t nr);

/* {"runs": [...]} (report/json.h) to path, "-" = stdout. */
int real_write_json(const char *path, const struct cp_run_result *runs, size_t nr,
		    struct cp_diag *diag);

#endif /* CP_CLI_REAL_OUT_H */
