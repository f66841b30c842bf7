/*
 * stats.c - mean, min, max, sample standard deviation.
 *
 * The sum is exact (128-bit) before the one division for the mean; the
 * deviation uses the two-pass formula sum((x - mean)^2) / (n - 1), which
 * does not lose precision the way sum(x^2) - n*mean^2 does for large,
 * close values (bytes re-read by repeated runs). Doubles are computed
 * in a fixed order, so results are reproducible. No kernel mechanism.
 */
#include "report/stats.h"

#include <cachepressure/error.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int cp_stats_compute(const int64_t *v, size_t n, struct cp_stats *out)
{
	struct cp_stats s;
	__int128 sum = 0;
	double acc = 0;
	size_t i;

	if (n == 0)
		return -CP_EINVAL;
	s.n = n;
	s.min = s.max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s.min)
			s.min = v[i];
		if (v[i] > s.max)
			s.max = v[i];
	}
	s.mean = (double)sum / (double)n;
	for (i = 0; i < n; i++) {
		double d = (double)v[i] - s.mean;

		acc += d * d;
	}
	s.sd = n > 1 ? sqrt(acc / (double)(n - 1)) : 0.0;
	*out = s;
	return 0;
}

int cp_stats_z(int64_t value, const struct cp_stats *s, double *z)
{
	if (s->n < 2 || s->sd == 0.0)
		return -CP_ERANGE;
	*z = ((double)value - s->mean) / s->sd;
	return 0;
}

int cp_stats_pct(int64_t value, const struct cp_stats *s, double *pct)
{
	if (s->mean == 0.0)
		return -CP_ERANGE;
	*pct = ((double)value - s->mean) / s->mean * 100.0;
	return 0;
}

void cp_stats_format(char *buf, size_t len, double v, int precision)
{
	if (isnan(v) || isinf(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	snprintf(buf, len, "%.*f", precision, v);
	/* "-0.00" -> "0.00": a value that rounds to zero has no sign */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}
