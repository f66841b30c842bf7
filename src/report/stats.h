/*
 * stats.h - summary statistics over repetitions (real --repeat N,
 * validate): mean, min, max and the sample standard deviation of
 * integer measurements, and the model's distance from them.
 */
#ifndef CP_REPORT_STATS_H
#define CP_REPORT_STATS_H

#include <stddef.h>
#include <stdint.h>

struct cp_stats {
	size_t n;       /* number of values */
	int64_t min, max;
	double mean;    /* exact sum (128-bit) divided by n */
	double sd;      /* sample standard deviation (n - 1); 0 when n < 2 */
};

/* Summarises v[0..n). Returns 0, or -CP_EINVAL when n is 0 (out unchanged). */
int cp_stats_compute(const int64_t *v, size_t n, struct cp_stats *out);

/* (value - mean) / sd: how many standard deviations value lies from the
 * mean. -CP_ERANGE when n < 2 or sd is 0 (*z unchanged). */
int cp_stats_z(int64_t value, const struct cp_stats *s, double *z);

/* (value - mean) / mean * 100. -CP_ERANGE when the mean is 0. */
int cp_stats_pct(int64_t value, const struct cp_stats *s, double *pct);

/* printf("%.*f", precision, v), except that a value that rounds to zero
 * prints without a minus sign ("0.00", never "-0.00"), and NaN/infinity
 * print as "n/a". Truncates to len. */
void cp_stats_format(char *buf, size_t len, double v, int precision);

#endif /* CP_REPORT_STATS_H */
