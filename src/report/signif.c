/*
 * signif.c - Mann-Whitney U and Welch's t, two-sided (see signif.h).
 *
 * Mann-Whitney U. u_a counts the pairs (a_i, b_j) in which a_i is the
 * larger value, a tie counting one half; u_b = na * nb - u_a. Under the
 * null hypothesis (both samples from one distribution) every way of
 * interleaving the na + nb sorted values is equally likely. Without
 * ties the exact distribution of U follows from counting interleavings:
 * with c(i, j, u) the number of interleavings of i a's and j b's whose
 * U is u, the largest of the i + j values is either an a (it beats all
 * j b's) or a b (it beats nothing), so
 *
 *     c(i, j, u) = c(i - 1, j, u - j) + c(i, j - 1, u),
 *     c(0, j, u) = c(i, 0, u) = [u == 0],
 *
 * and the two-sided p-value is 2 * P(U <= min(u_a, u_b)), capped at 1
 * (the distribution is symmetric about na * nb / 2). With ties, or more
 * than CP_MWU_EXACT_MAX values on a side, U is taken as normal with mean
 * na * nb / 2 and variance
 *
 *     na * nb / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))),  N = na + nb,
 *
 * t running over the sizes of the groups of tied values (the tie
 * correction), and z = (|u_a - mean| - 1/2) / sd (the continuity
 * correction; never below 0). Source: Lehmann, Nonparametrics (1975),
 * ch. 1 sec. 3-4; the same formulas are in NIST/SEMATECH e-Handbook of
 * Statistical Methods (Mann-Whitney) and in most texts.
 *
 * Welch's t. t = (mean_a - mean_b) / sqrt(s_a^2/na + s_b^2/nb) with the
 * sample variances s^2 (divisor n - 1), degrees of freedom by
 * Welch-Satterthwaite
 *
 *     df = (s_a^2/na + s_b^2/nb)^2 /
 *          ((s_a^2/na)^2 / (na - 1) + (s_b^2/nb)^2 / (nb - 1)),
 *
 * (NIST/SEMATECH e-Handbook 1.3.5.3, "Two-Sample t-Test for Equal
 * Means", unequal variances), and the two-sided p-value from Student's
 * t distribution: P(|T| >= |t|) = I_x(df/2, 1/2) with x = df / (df +
 * t^2) (DLMF 8.17.2 with Abramowitz & Stegun 26.7.1), I the regularized
 * incomplete beta function.
 *
 * I_x(a, b) is evaluated from its continued fraction, DLMF 8.17.22:
 *
 *     I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 *     d(2m)   =  m (b - m) x / ((a + 2m - 1) (a + 2m))
 *     d(2m+1) = -(a + m) (a + b + m) x / ((a + 2m) (a + 2m + 1))
 *
 * which converges quickly for x < (a + 1) / (a + b + 2); above that we
 * use I_x(a, b) = 1 - I_{1-x}(b, a) (DLMF 8.17.4). The fraction is
 * summed front to back with the modified Lentz method (Lentz 1976;
 * Thompson and Barnett, J. Comput. Phys. 64 (1986) 490): two running
 * ratios C and D replace the numerators and denominators of successive
 * convergents, a zero denominator is nudged to a tiny value, and the
 * loop ends when a step changes the value by less than a relative
 * 1e-15. ln B(a, b) comes from libm's lgamma().
 *
 * All arithmetic is in a fixed order on doubles, so results are
 * reproducible. No kernel mechanism.
 */
#include "report/signif.h"

#include <cachepressure/error.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "report/stats.h"

/* ---- Mann-Whitney U --------------------------------------------------------- */

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* sum(t^3 - t) over the groups of equal values in v[0..n), which is
 * sorted in place. 0 when there are no ties. */
static double tie_sum(int64_t *v, size_t n)
{
	double sum = 0;
	size_t i = 0, j;

	qsort(v, n, sizeof(*v), cmp_i64);
	while (i < n) {
		for (j = i + 1; j < n && v[j] == v[i]; j++)
			;
		if (j - i > 1) {
			double t = (double)(j - i);

			sum += t * t * t - t;
		}
		i = j;
	}
	return sum;
}

/* P(U_a <= k) under H0 for na = m, nb = n, no ties, by the recurrence in
 * the header comment. Rows for i - 1 (prev) and i (cur), each holding
 * c(i, j, u) at [j * w + u]. Returns 0 or -CP_ENOMEM. */
static int exact_cdf(size_t m, size_t n, size_t k, double *cdf)
{
	size_t w = m * n + 1, i, j, u;
	uint64_t *prev = cp_calloc((n + 1) * w, sizeof(*prev));
	uint64_t *cur = cp_calloc((n + 1) * w, sizeof(*cur));
	uint64_t below = 0, total = 0;

	if (!prev || !cur) {
		cp_free(prev);
		cp_free(cur);
		return -CP_ENOMEM;
	}
	for (j = 0; j <= n; j++)
		prev[j * w] = 1; /* no a's: U is 0 */
	for (i = 1; i <= m; i++) {
		uint64_t *t;

		memset(cur, 0, (n + 1) * w * sizeof(*cur));
		cur[0] = 1; /* no b's: U is 0 */
		for (j = 1; j <= n; j++)
			for (u = 0; u <= i * j; u++)
				cur[j * w + u] = (u >= j ? prev[j * w + u - j] : 0) +
						 cur[(j - 1) * w + u];
		t = prev;
		prev = cur;
		cur = t;
	}
	for (u = 0; u < w; u++) {
		total += prev[n * w + u];
		if (u <= k)
			below += prev[n * w + u];
	}
	*cdf = (double)below / (double)total;
	cp_free(prev);
	cp_free(cur);
	return 0;
}

int cp_mwu_test(const int64_t *a, size_t na, const int64_t *b, size_t nb, struct cp_mwu *out)
{
	struct cp_mwu r;
	int64_t *all;
	double ties, nn, mean, var;
	size_t i, j;
	int rc;

	if (na < 2 || nb < 2)
		return -CP_EINVAL;
	memset(&r, 0, sizeof(r));
	r.na = na;
	r.nb = nb;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			r.u_a += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	r.u_b = (double)na * (double)nb - r.u_a;
	r.u = r.u_a < r.u_b ? r.u_a : r.u_b;

	all = cp_malloc((na + nb) * sizeof(*all));
	if (!all)
		return -CP_ENOMEM;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	ties = tie_sum(all, na + nb);
	if (all[0] == all[na + nb - 1]) {
		cp_free(all);
		return -CP_EINVAL; /* one value everywhere: U has no spread */
	}
	cp_free(all);
	r.ties = ties > 0;

	if (!r.ties && na <= CP_MWU_EXACT_MAX && nb <= CP_MWU_EXACT_MAX) {
		double cdf;

		rc = exact_cdf(na, nb, (size_t)r.u, &cdf);
		if (rc)
			return rc;
		r.method = CP_MWU_EXACT;
		r.p = 2.0 * cdf;
	} else {
		double d;

		nn = (double)(na + nb);
		mean = (double)na * (double)nb / 2.0;
		var = (double)na * (double)nb / 12.0 * ((nn + 1.0) - ties / (nn * (nn - 1.0)));
		if (!(var > 0))
			return -CP_EINVAL;
		d = fabs(r.u_a - mean) - 0.5;
		r.method = CP_MWU_NORMAL;
		r.z = d > 0 ? d / sqrt(var) : 0.0;
		r.p = erfc(r.z / sqrt(2.0)); /* 2 * (1 - Phi(z)) */
	}
	if (r.p > 1.0)
		r.p = 1.0;
	*out = r;
	return 0;
}

double cp_mwu_exact_min_p(size_t na, size_t nb)
{
	double c = 1.0;
	size_t i;

	/* C(na + nb, na) = prod_{i=1..na} (nb + i) / i, exact in doubles for
	 * the sizes of CP_MWU_EXACT_MAX */
	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return na && nb ? (2.0 / c < 1.0 ? 2.0 / c : 1.0) : 1.0;
}

const char *cp_mwu_method_name(enum cp_mwu_method m)
{
	return m == CP_MWU_EXACT ? "U exact" : "U normal";
}

/* ---- Welch's t ---------------------------------------------------------------- */

int cp_welch_test(const int64_t *a, size_t na, const int64_t *b, size_t nb,
		  struct cp_welch *out)
{
	struct cp_stats sa, sb;
	struct cp_welch r;
	double qa, qb, se2;
	int rc;

	if (na < 2 || nb < 2 || cp_stats_compute(a, na, &sa) || cp_stats_compute(b, nb, &sb))
		return -CP_EINVAL;
	memset(&r, 0, sizeof(r));
	r.na = na;
	r.nb = nb;
	r.mean_a = sa.mean;
	r.mean_b = sb.mean;
	r.var_a = sa.sd * sa.sd;
	r.var_b = sb.sd * sb.sd;
	qa = r.var_a / (double)na;
	qb = r.var_b / (double)nb;
	se2 = qa + qb;
	if (!(se2 > 0))
		return -CP_EINVAL; /* both variances zero: t undefined */
	r.t = (r.mean_a - r.mean_b) / sqrt(se2);
	r.df = se2 * se2 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	rc = cp_student_t_p2(r.t, r.df, &r.p);
	if (rc)
		return rc;
	*out = r;
	return 0;
}

/* ---- Student's t and the incomplete beta function ------------------------------ */

int cp_student_t_p2(double t, double df, double *p)
{
	if (!isfinite(t) || !isfinite(df) || !(df > 0))
		return -CP_EINVAL;
	return cp_betainc_reg(df / 2.0, 0.5, df / (df + t * t), p);
}

#define CF_MAX_TERMS 2000
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* 1 / (1 + d1 / (1 + d2 / (1 + ...))) for I_x(a, b), modified Lentz.
 * Returns 0 or -CP_ERANGE when it has not converged after CF_MAX_TERMS. */
static int beta_cf(double a, double b, double x, double *out)
{
	double f = 1.0, c = 1.0, d = 0.0;
	unsigned k;

	for (k = 1; k <= CF_MAX_TERMS; k++) {
		double m = (double)(k / 2), dk, delta;

		if (k % 2 == 0)
			dk = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
		else
			dk = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
		d = 1.0 + dk * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1.0 + dk / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < CF_EPS) {
			*out = 1.0 / f;
			return 0;
		}
	}
	return -CP_ERANGE;
}

int cp_betainc_reg(double a, double b, double x, double *out)
{
	double lnfront, cf;
	bool flip;
	int rc;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1) || !isfinite(a) || !isfinite(b))
		return -CP_EINVAL;
	if (x == 0 || x == 1) {
		*out = x;
		return 0;
	}
	/* ln(x^a (1-x)^b / B(a, b)), the same for I_x(a, b) and I_{1-x}(b, a) */
	lnfront = a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b));
	flip = x > (a + 1.0) / (a + b + 2.0);
	rc = flip ? beta_cf(b, a, 1.0 - x, &cf) : beta_cf(a, b, x, &cf);
	if (rc)
		return rc;
	*out = flip ? 1.0 - exp(lnfront) * cf / b : exp(lnfront) * cf / a;
	if (*out < 0)
		*out = 0; /* rounding in 1 - (a value within an ulp of 1) */
	return 0;
}
