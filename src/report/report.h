/*
 * report.h - text output of run results: the seed's own lines, a short
 * table per run, and the comparison of several runs (`compare`).
 *
 * Everything printed comes from struct cp_run_result (result.h), which
 * the model and the real harness both fill; nothing here computes model
 * state. Numbers are integers; the only fraction is the percent change,
 * computed in integers and printed with two decimals.
 */
#ifndef CP_REPORT_H
#define CP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cachepressure/result.h>

/* The seed's read-file output for every reader of r:
 *
 *   PATH: loop N read bytes is X          (one per completed pass)
 *   PATH: total read during loops X       (one per reader, at the end)
 *
 * as read-file.c prints them: N counts passes from 0 (its `loops`
 * variable; pass p of cp_pass is loop p - 1), a pass that read nothing
 * from the device prints no line, and only completed passes count. The
 * loop lines of all readers are merged in the order the passes ended
 * (end_ns; ties by reader order, then pass), as two read-file processes
 * sharing a terminal print them. Returns 0 or -CP_EIO. */
int cp_report_seed_lines(FILE *out, const struct cp_run_result *r);

/* A short table: one header line (source, policy, kernel, scenario,
 * confine, mem, seed, duration), a failure line if the run failed, one
 * row per reader (path, passes, bytes read) and a total row, then the
 * main reclaim counters that r holds. Returns 0 or -CP_EIO. */
int cp_report_run_table(FILE *out, const struct cp_run_result *r);

/* The comparison table of 1 <= n <= 8 runs: one row per reader path (in the
 * order they first appear), one "LABEL bytes" column per run, and for
 * each run after the first a "change %" column relative to the first
 * run; then a total row. labels (n entries) name the runs; NULL uses each
 * run's policy. A reader missing from a run shows "-". Returns 0,
 * -CP_EINVAL (n is 0 or more than 8), -CP_ENOMEM or -CP_EIO. */
int cp_report_compare_table(FILE *out, const struct cp_run_result *const *runs,
			    const char *const *labels, size_t n);

/* What `cachepressure compare` prints: for each run a heading line
 * "== LABEL (kernel K, scenario S) ==" and its seed lines, then a blank
 * line and the comparison table. Same returns as above. */
int cp_report_compare(FILE *out, const struct cp_run_result *const *runs,
		      const char *const *labels, size_t n);

/* (to - from) / from in percent, rounded half away from zero to two
 * decimals, as "+12.34", "-48.27" or "0.00"; "n/a" when from is 0. */
void cp_report_change_pct(char *buf, size_t len, uint64_t from, uint64_t to);

/* Bytes in the largest binary unit that represents them exactly:
 * "16G", "416000K", "4097". */
void cp_report_format_size(char *buf, size_t len, uint64_t bytes);

/* Nanoseconds as seconds with three decimals, truncated: "1234.567". */
void cp_report_format_seconds(char *buf, size_t len, uint64_t ns);

#endif /* CP_REPORT_H */
