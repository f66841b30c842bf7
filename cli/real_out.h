/*
 * real_out.h - text and JSON output of `cachepressure real`.
 *
 * Stand-in until src/report/ (report.h, json.h, stats.h) is on main: the
 * seed's lines, a short table per run, the spread over repetitions and
 * the shared JSON layout, all from struct cp_run_result, so the switch to
 * the report module touches only this file and its callers.
 */
#ifndef CP_CLI_REAL_OUT_H
#define CP_CLI_REAL_OUT_H

#include <stddef.h>
#include <stdio.h>

struct cp_run_result;
struct cp_diag;

/* The seed's lines for each reader ("PATH: loop N read bytes is X" for
 * passes that read, "PATH: total read during loops X"), then a short
 * table of fs_mark and the reclaim counters. */
void real_print_run(FILE *out, const struct cp_run_result *r, const char *fs, unsigned idx,
		    unsigned nr);

/* Per reader: each run's total, mean, min, max and sample standard
 * deviation over the runs that did not fail. */
void real_print_summary(FILE *out, const struct cp_run_result *runs, size_t nr);

/* Writes {"runs": [...]} to path ("-" = stdout). 0 or -CP_EIO/-CP_ENOMEM. */
int real_write_json(const char *path, const struct cp_run_result *runs, size_t nr,
		    const char *fs, struct cp_diag *diag);

#endif /* CP_CLI_REAL_OUT_H */
