/*
 * csv.h - the time series of one or more runs as CSV (--csv FILE).
 *
 * One header line, then one line per sample. With one run the columns
 * are the series' own (t_ns first). With several, a first column "run"
 * holds the run's label, and the columns are the union of the runs'
 * columns in order of first appearance; a run without a column leaves
 * that cell empty. Fields holding ',', '"' or a line break are quoted
 * (RFC 4180).
 */
#ifndef CP_REPORT_CSV_H
#define CP_REPORT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include <cachepressure/result.h>

struct cp_diag;

/* labels: n run names, or NULL for each run's policy. Returns 0,
 * -CP_EINVAL (n == 0), -CP_ENOMEM or -CP_EIO. */
int cp_report_csv_fprint(FILE *out, const struct cp_run_result *const *runs,
			 const char *const *labels, size_t n, struct cp_diag *diag);

/* Same into the file at path (created or truncated). */
int cp_report_csv_write(const char *path, const struct cp_run_result *const *runs,
			const char *const *labels, size_t n, struct cp_diag *diag);

#endif /* CP_REPORT_CSV_H */
