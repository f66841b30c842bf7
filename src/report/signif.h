/*
 * signif.h - two-sample significance tests for A/B runs (`cachepressure
 * real compare`): is kernel B's bytes re-read different from kernel A's,
 * or is the difference inside the run-to-run noise?
 *
 * Mann-Whitney U (rank-sum) needs no normality assumption, which a
 * handful of runs cannot justify; Welch's t compares the means without
 * assuming equal variances. Both are two-sided. Inputs are integer
 * measurements (bytes), as in stats.h.
 */
#ifndef CP_REPORT_SIGNIF_H
#define CP_REPORT_SIGNIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exact U distribution is enumerated when neither sample has more
 * values than this and there are no ties; otherwise the normal
 * approximation is used. C(60, 30) < 2^63, so the counts fit. */
#define CP_MWU_EXACT_MAX 30

enum cp_mwu_method {
	CP_MWU_EXACT,  /* exact distribution of U under H0 (no ties) */
	CP_MWU_NORMAL, /* normal approximation, tie and continuity corrected */
};

struct cp_mwu {
	size_t na, nb;
	double u_a;   /* pairs (a_i, b_j) with a_i > b_j, a tie counting 1/2 */
	double u_b;   /* na * nb - u_a */
	double u;     /* min(u_a, u_b): the statistic tables list */
	bool ties;    /* some value occurs more than once in a and b together */
	enum cp_mwu_method method;
	double z;     /* CP_MWU_NORMAL: continuity-corrected z (>= 0); else 0 */
	double p;     /* two-sided p-value, in (0, 1] */
};

/* Mann-Whitney U of a[0..na) against b[0..nb). Returns 0, -CP_EINVAL
 * when na < 2 or nb < 2, or when every value of both samples is the same
 * (U has no spread; there is nothing to test), or -CP_ENOMEM (the exact
 * enumeration allocates). On failure *out is unchanged. */
int cp_mwu_test(const int64_t *a, size_t na, const int64_t *b, size_t nb, struct cp_mwu *out);

/* The smallest two-sided p the exact test can give for na and nb values:
 * 2 / C(na + nb, na), when the samples do not overlap at all (2/252 =
 * 0.0079 for 5 and 5). 1 when na or nb is 0. */
double cp_mwu_exact_min_p(size_t na, size_t nb);

/* Name of the method, for tables and JSON: "U exact", "U normal". */
const char *cp_mwu_method_name(enum cp_mwu_method m);

struct cp_welch {
	size_t na, nb;
	double mean_a, mean_b;
	double var_a, var_b; /* sample variances (n - 1) */
	double t;            /* (mean_a - mean_b) / sqrt(var_a/na + var_b/nb) */
	double df;           /* Welch-Satterthwaite degrees of freedom */
	double p;            /* two-sided p-value from Student's t with df */
};

/* Welch's unequal-variance t test of a against b. Returns 0 or
 * -CP_EINVAL when na < 2 or nb < 2, or when both samples have zero
 * variance (t is undefined). On failure *out is unchanged. */
int cp_welch_test(const int64_t *a, size_t na, const int64_t *b, size_t nb,
		  struct cp_welch *out);

/* P(|T| >= |t|) for Student's t with df > 0 degrees of freedom: the
 * two-sided p-value. Returns 0 or -CP_EINVAL (df <= 0, or t or df not
 * finite); *p unchanged on failure. */
int cp_student_t_p2(double t, double df, double *p);

/* The regularized incomplete beta function I_x(a, b) for a, b > 0 and
 * 0 <= x <= 1. Returns 0, -CP_EINVAL (arguments outside that domain) or
 * -CP_ERANGE (the continued fraction did not converge); *out unchanged
 * on failure. */
int cp_betainc_reg(double a, double b, double x, double *out);

#endif /* CP_REPORT_SIGNIF_H */
