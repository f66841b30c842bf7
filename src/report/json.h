/*
 * json.h - run results as JSON (--json FILE), and back (plot, validate).
 *
 * Layout, one object per run, keys in this order:
 *
 *   {"runs": [{"source": "model", "policy": "legacy", "kernel": "linux-4.11",
 *              "scenario": "seed", "confine": "global", "mem_bytes": N,
 *              "seed": N, "duration_ns": N, "failed": false, "failure": null,
 *              "readers": [{"path": P, "total_read_bytes": N,
 *                           "passes": [{"pass": 1, "read_bytes": N, "end_ns": N}, ...]}],
 *              "counters": {"pgscan_kswapd": N, ...},        (sorted by name)
 *              "series": {"columns": ["t_ns", ...], "rows": [[N, ...], ...]}}]}
 *
 * Absent strings are null. Integers are written exactly as decimal
 * integers. JSON readers (cJSON included) hold numbers as doubles, so a
 * value is read back exactly only up to 2^53 (9 PB, or 104 days in ns);
 * the reader rejects larger ones, except "seed", which is written as a
 * string when it exceeds 2^53 and read from either form.
 */
#ifndef CP_REPORT_JSON_H
#define CP_REPORT_JSON_H

#include <stddef.h>
#include <stdio.h>

#include <cachepressure/result.h>

struct cp_diag;

/* Writes {"runs": [...]} for n runs to out, followed by a newline.
 * Returns 0, -CP_ENOMEM or -CP_EIO. */
int cp_report_json_fprint(FILE *out, const struct cp_run_result *const *runs, size_t n,
			  struct cp_diag *diag);

/* The {"runs": [...]} object as a cJSON tree (for callers that add keys
 * of their own, as validate does); cJSON allocates through cp_malloc.
 * cJSON_Delete() it. NULL when out of memory. */
struct cJSON;
struct cJSON *cp_report_json_tree(const struct cp_run_result *const *runs, size_t n);

/* Same into the file at path (created or truncated). Returns 0,
 * -CP_ENOMEM or -CP_EIO (diag names the path). */
int cp_report_json_write(const char *path, const struct cp_run_result *const *runs, size_t n,
			 struct cp_diag *diag);

/* Parses text (source names it in messages) into a new array of *n
 * results. Returns 0, -CP_EINVAL (not JSON, or not this layout: diag
 * names the place, e.g. "runs[0].readers[1].passes[2].read_bytes") or
 * -CP_ENOMEM; on failure *runs and *n are unchanged. Free the result
 * with cp_report_runs_free(). */
int cp_report_json_parse(const char *text, const char *source, struct cp_run_result **runs,
			 size_t *n, struct cp_diag *diag);

/* Reads and parses the file at path; also -CP_ENOENT / -CP_EIO. */
int cp_report_json_read(const char *path, struct cp_run_result **runs, size_t *n,
			struct cp_diag *diag);

/* Releases each result and the array; (NULL, 0) does nothing. */
void cp_report_runs_free(struct cp_run_result *runs, size_t n);

#endif /* CP_REPORT_JSON_H */
