/*
 * test_signif.c - Mann-Whitney U, Welch's t, Student's t and the
 * regularized incomplete beta function (src/report/signif.c) against
 * values worked by hand, closed forms and published tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "report/signif.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Mann-Whitney U ----------------------------------------------------------- */

/* 5 vs 5, every b above every a: u_a = 0. Of the C(10, 5) = 252
 * interleavings exactly one has U = 0, so P(U <= 0) = 1/252 and the
 * two-sided p = 2/252 = 0.0079365. */
static void mwu_complete_separation_5_vs_5_exact_p_is_2_of_252(void **state)
{
	static const int64_t a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct cp_mwu r;

	(void)state;
	assert_int_equal(cp_mwu_test(a, 5, b, 5, &r), 0);
	assert_int_equal(r.method, CP_MWU_EXACT);
	assert_false(r.ties);
	assert_true(r.u_a == 0.0);
	assert_true(r.u_b == 25.0);
	assert_true(r.u == 0.0);
	assert_true(fabs(r.p - 2.0 / 252.0) < 1e-12);
	assert_string_equal(cp_mwu_method_name(r.method), "U exact");
}

/* Swapping the samples swaps u_a and u_b; the two-sided p is the same. */
static void mwu_is_symmetric_in_the_samples(void **state)
{
	static const int64_t a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct cp_mwu r;

	(void)state;
	assert_int_equal(cp_mwu_test(b, 5, a, 5, &r), 0);
	assert_true(r.u_a == 25.0);
	assert_true(r.u == 0.0);
	assert_true(fabs(r.p - 2.0 / 252.0) < 1e-12);
}

/* Published critical values of U (two-tailed, alpha 0.05): for n1 = n2 =
 * 5 the critical U is 2, so U = 2 is significant and U = 3 is not. By
 * hand: the number of interleavings with U = u is the number of
 * partitions of u into at most 5 parts each at most 5: u = 0..3 give
 * 1, 1, 2, 3. P(U <= 2) = 4/252, p = 8/252 = 0.031746; P(U <= 3) =
 * 7/252, p = 14/252 = 0.055556.
 * a = {1,2,3,5,6}, b = {4,7,8,9,10}: 5 > 4 and 6 > 4, u_a = 2.
 * a = {1,2,3,4,8}, b = {5,6,7,9,10}: 8 > 5, 6, 7, u_a = 3. */
static void mwu_5_vs_5_critical_value_2_from_the_table(void **state)
{
	static const int64_t a2[] = { 1, 2, 3, 5, 6 }, b2[] = { 4, 7, 8, 9, 10 };
	static const int64_t a3[] = { 1, 2, 3, 4, 8 }, b3[] = { 5, 6, 7, 9, 10 };
	struct cp_mwu r;

	(void)state;
	assert_int_equal(cp_mwu_test(a2, 5, b2, 5, &r), 0);
	assert_true(r.u == 2.0);
	assert_true(fabs(r.p - 8.0 / 252.0) < 1e-12);
	assert_true(r.p < 0.05);
	assert_int_equal(cp_mwu_test(a3, 5, b3, 5, &r), 0);
	assert_true(r.u == 3.0);
	assert_true(fabs(r.p - 14.0 / 252.0) < 1e-12);
	assert_true(r.p > 0.05);
}

/* 2 vs 3, no overlap: C(5, 2) = 10 interleavings, one with U = 0,
 * p = 2/10 = 0.2: with so few runs no result can be significant. */
static void mwu_2_vs_3_cannot_reach_significance(void **state)
{
	static const int64_t a[] = { 10, 20 }, b[] = { 30, 40, 50 };
	struct cp_mwu r;

	(void)state;
	assert_int_equal(cp_mwu_test(a, 2, b, 3, &r), 0);
	assert_true(fabs(r.p - 0.2) < 1e-12);
}

/* Interleaved samples: a = {1,3,5,7,9}, b = {2,4,6,8,10}: a_i beats
 * i - 1 of the b's: u_a = 0+1+2+3+4 = 10, u_b = 15, U = 10. Partitions
 * of u in a 5x5 box, u = 0..12: 1,1,2,3,5,7,9,11,14,16,18,19,20 (the
 * coefficients of the Gaussian binomial [10 choose 5]_q). P(U <= 10) =
 * 87/252, p = 174/252 = 0.690476. */
static void mwu_interleaved_samples_exact_p_by_counting(void **state)
{
	static const int64_t a[] = { 1, 3, 5, 7, 9 }, b[] = { 2, 4, 6, 8, 10 };
	struct cp_mwu r;

	(void)state;
	assert_int_equal(cp_mwu_test(a, 5, b, 5, &r), 0);
	assert_true(r.u_a == 10.0);
	assert_true(fabs(r.p - 174.0 / 252.0) < 1e-12);
}

/* Ties: normal approximation with tie and continuity correction.
 * a = {1,2,2,3}, b = {2,3,4,5}: 1 beats nothing; each 2 ties the b 2
 * (1/2 each, 1 in all); 3 beats 2 and ties 3 (1.5): u_a = 2.5, u_b =
 * 13.5. Mean 4*4/2 = 8. N = 8, ties: three 2s (27 - 3 = 24), two 3s
 * (8 - 2 = 6), sum 30. Variance 16/12 * (9 - 30/56) = 11.285714;
 * z = (|2.5 - 8| - 0.5) / sqrt(11.285714) = 5 / 3.359422 = 1.488351;
 * p = erfc(z / sqrt 2) = 0.136658 (normal table: Phi(1.49) = 0.9319,
 * 2 * (1 - 0.9319) = 0.136). */
static void mwu_ties_use_the_tie_corrected_normal_approximation(void **state)
{
	static const int64_t a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
	struct cp_mwu r;

	(void)state;
	assert_int_equal(cp_mwu_test(a, 4, b, 4, &r), 0);
	assert_int_equal(r.method, CP_MWU_NORMAL);
	assert_true(r.ties);
	assert_true(r.u_a == 2.5);
	assert_true(fabs(r.z - 1.488351) < 1e-6);
	assert_true(fabs(r.p - 0.136658) < 1e-6);
	assert_string_equal(cp_mwu_method_name(r.method), "U normal");
}

/* More than CP_MWU_EXACT_MAX values on one side: normal approximation
 * even without ties. a = 0..30 (31 values), b = 100..130: u_a = 0,
 * mean 31*31/2 = 480.5, variance 961/12 * 63 = 5045.25, sd 71.02992;
 * z = (480.5 - 0.5) / 71.02992 = 6.757716; p = erfc(z / sqrt 2)
 * ~ 1.4e-11. */
static void mwu_large_samples_use_the_normal_approximation(void **state)
{
	int64_t a[31], b[31];
	struct cp_mwu r;
	size_t i;

	(void)state;
	for (i = 0; i < 31; i++) {
		a[i] = (int64_t)i;
		b[i] = 100 + (int64_t)i;
	}
	assert_int_equal(cp_mwu_test(a, 31, b, 31, &r), 0);
	assert_int_equal(r.method, CP_MWU_NORMAL);
	assert_false(r.ties);
	assert_true(fabs(r.z - 480.0 / sqrt(5045.25)) < 1e-9);
	assert_true(r.p > 0 && r.p < 1e-10);
}

/* Bad input: fewer than two values on a side, or one value everywhere
 * (U has zero variance); *out is left alone and no NaN escapes. */
static void mwu_bad_input_is_einval_and_out_unchanged(void **state)
{
	static const int64_t one[] = { 7 }, two[] = { 1, 2 }, same[] = { 4, 4, 4 };
	struct cp_mwu r, before;

	(void)state;
	memset(&r, 0x5a, sizeof(r));
	before = r;
	assert_int_equal(cp_mwu_test(one, 1, two, 2, &r), -CP_EINVAL);
	assert_int_equal(cp_mwu_test(two, 2, one, 1, &r), -CP_EINVAL);
	assert_int_equal(cp_mwu_test(same, 3, same, 2, &r), -CP_EINVAL);
	assert_memory_equal(&r, &before, sizeof(r));
}

/* Every allocation failing gives -CP_ENOMEM, not a wrong p. */
static void mwu_out_of_memory_is_reported(void **state)
{
	static const int64_t a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct cp_mwu r;

	(void)state;
	cp_alloc_fail_after(0); /* the copy for the tie count */
	assert_int_equal(cp_mwu_test(a, 3, b, 3, &r), -CP_ENOMEM);
	cp_alloc_fail_after(1); /* the exact enumeration's tables */
	assert_int_equal(cp_mwu_test(a, 3, b, 3, &r), -CP_ENOMEM);
	cp_alloc_fail_after(-1);
	assert_int_equal(cp_mwu_test(a, 3, b, 3, &r), 0);
}

/* 2 / C(n1 + n2, n1): 5 and 5 -> 2/252; 4 and 5 -> 2/126; 2 and 3 ->
 * 2/10; 1 and 1 -> 2/2 = 1. */
static void mwu_smallest_exact_p_is_2_over_binomial(void **state)
{
	(void)state;
	assert_true(fabs(cp_mwu_exact_min_p(5, 5) - 2.0 / 252.0) < 1e-15);
	assert_true(fabs(cp_mwu_exact_min_p(4, 5) - 2.0 / 126.0) < 1e-15);
	assert_true(fabs(cp_mwu_exact_min_p(2, 3) - 0.2) < 1e-15);
	assert_true(cp_mwu_exact_min_p(1, 1) == 1.0);
	assert_true(cp_mwu_exact_min_p(0, 5) == 1.0);
}

/* ---- Student's t and I_x(a, b) ----------------------------------------------- */

/* Closed forms: I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1-x)^b;
 * I_1/2(a, a) = 1/2 by symmetry; the ends are 0 and 1. */
static void betainc_matches_closed_forms(void **state)
{
	double v;

	(void)state;
	assert_int_equal(cp_betainc_reg(1, 1, 0.3, &v), 0);
	assert_true(fabs(v - 0.3) < 1e-14);
	assert_int_equal(cp_betainc_reg(3, 1, 0.7, &v), 0);
	assert_true(fabs(v - 0.343) < 1e-14); /* 0.7^3 */
	assert_int_equal(cp_betainc_reg(1, 4, 0.2, &v), 0);
	assert_true(fabs(v - (1 - 0.4096)) < 1e-14); /* 1 - 0.8^4 */
	assert_int_equal(cp_betainc_reg(7.5, 7.5, 0.5, &v), 0);
	assert_true(fabs(v - 0.5) < 1e-14);
	assert_int_equal(cp_betainc_reg(2, 3, 0, &v), 0);
	assert_true(v == 0.0);
	assert_int_equal(cp_betainc_reg(2, 3, 1, &v), 0);
	assert_true(v == 1.0);
}

static void betainc_outside_the_domain_is_einval(void **state)
{
	double v = 42;

	(void)state;
	assert_int_equal(cp_betainc_reg(0, 1, 0.5, &v), -CP_EINVAL);
	assert_int_equal(cp_betainc_reg(1, -1, 0.5, &v), -CP_EINVAL);
	assert_int_equal(cp_betainc_reg(1, 1, 1.5, &v), -CP_EINVAL);
	assert_int_equal(cp_betainc_reg(1, 1, NAN, &v), -CP_EINVAL);
	assert_true(v == 42);
}

/* df = 1 is the Cauchy distribution: p = 1 - 2 atan|t| / pi; t = 1 gives
 * 1/2, t = 3 gives 0.2048328. df = 2: p = 1 - |t| / sqrt(2 + t^2);
 * t = 2 gives 1 - 2/sqrt 6 = 0.1835034. t = 0 gives 1. */
static void student_t_matches_the_cauchy_and_df2_closed_forms(void **state)
{
	double p;

	(void)state;
	assert_int_equal(cp_student_t_p2(1, 1, &p), 0);
	assert_true(fabs(p - 0.5) < 1e-12);
	assert_int_equal(cp_student_t_p2(-3, 1, &p), 0);
	assert_true(fabs(p - (1 - 2 * atan(3.0) / acos(-1.0))) < 1e-12);
	assert_int_equal(cp_student_t_p2(2, 2, &p), 0);
	assert_true(fabs(p - (1 - 2 / sqrt(6.0))) < 1e-12);
	assert_int_equal(cp_student_t_p2(0, 5, &p), 0);
	assert_true(p == 1.0);
}

/* Published t table: the two-sided 5% critical values are 2.228 for
 * df = 10, 2.086 for df = 20 and 12.706 for df = 1; the 1% value for
 * df = 10 is 3.169. */
static void student_t_critical_values_from_the_table(void **state)
{
	double p;

	(void)state;
	assert_int_equal(cp_student_t_p2(2.228, 10, &p), 0);
	assert_true(fabs(p - 0.05) < 2e-4);
	assert_int_equal(cp_student_t_p2(2.086, 20, &p), 0);
	assert_true(fabs(p - 0.05) < 2e-4);
	assert_int_equal(cp_student_t_p2(12.706, 1, &p), 0);
	assert_true(fabs(p - 0.05) < 2e-4);
	assert_int_equal(cp_student_t_p2(3.169, 10, &p), 0);
	assert_true(fabs(p - 0.01) < 1e-4);
}

static void student_t_bad_df_is_einval(void **state)
{
	double p = 42;

	(void)state;
	assert_int_equal(cp_student_t_p2(1, 0, &p), -CP_EINVAL);
	assert_int_equal(cp_student_t_p2(INFINITY, 3, &p), -CP_EINVAL);
	assert_int_equal(cp_student_t_p2(1, NAN, &p), -CP_EINVAL);
	assert_true(p == 42);
}

/* ---- Welch's t ------------------------------------------------------------------ */

/* a = {1,2,3,4,5}: mean 3, squared deviations 4+1+0+1+4 = 10, s^2 =
 * 10/4 = 2.5. b = {4,5,6,7,8}: mean 6, s^2 = 2.5. s^2/n = 0.5 each,
 * se = sqrt(1) = 1, t = (3 - 6) / 1 = -3. df = 1^2 / (0.25/4 + 0.25/4)
 * = 8. For even df, Abramowitz & Stegun 26.7.3 gives P(|T| < t) =
 * sin th (1 + cos^2 th / 2 + 1*3 cos^4 th / (2*4) + 1*3*5 cos^6 th /
 * (2*4*6)), tan th = t / sqrt df: cos^2 th = 8/17, sin th = 3/sqrt 17,
 * = 0.727607 * (1 + 0.235294 + 0.083045 + 0.032567) = 0.982928, so p =
 * 0.017072 (table: t = 2.896 and 3.355 are the 2% and 1% points). */
static void welch_equal_variances_t_minus_3_df_8(void **state)
{
	static const int64_t a[] = { 1, 2, 3, 4, 5 }, b[] = { 4, 5, 6, 7, 8 };
	struct cp_welch w;

	(void)state;
	assert_int_equal(cp_welch_test(a, 5, b, 5, &w), 0);
	assert_true(w.mean_a == 3.0 && w.mean_b == 6.0);
	assert_true(fabs(w.var_a - 2.5) < 1e-12 && fabs(w.var_b - 2.5) < 1e-12);
	assert_true(fabs(w.t + 3.0) < 1e-12);
	assert_true(fabs(w.df - 8.0) < 1e-12);
	assert_true(fabs(w.p - 0.0170717) < 1e-6);
}

/* Unequal variances: a = {1,2,3,4,5} (mean 3, s^2 2.5), b =
 * {3,5,7,9,11} (mean 7, deviations 16+4+0+4+16 = 40, s^2 = 10).
 * s^2/n: 0.5 and 2; se^2 = 2.5; t = -4 / sqrt 2.5 = -2.529822.
 * df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 = 5.882353 (not the
 * pooled 8). The t table puts the 5% point at 2.571 (df 5) and 2.447
 * (df 6), the 4% point at 2.757 and 2.612: so 0.04 < p < 0.05
 * (numerical integration of the density: 0.04546). */
static void welch_unequal_variances_satterthwaite_df(void **state)
{
	static const int64_t a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 5, 7, 9, 11 };
	struct cp_welch w;

	(void)state;
	assert_int_equal(cp_welch_test(a, 5, b, 5, &w), 0);
	assert_true(fabs(w.t + 4.0 / sqrt(2.5)) < 1e-12);
	assert_true(fabs(w.df - 6.25 / 1.0625) < 1e-12);
	assert_true(w.p > 0.04 && w.p < 0.05);
	assert_true(fabs(w.p - 0.045465) < 1e-5);
}

/* One sample without spread is fine (df = nb - 1 = 2): a = {5,5,5},
 * b = {1,2,3}: se^2 = 1/3, t = 3 / sqrt(1/3) = 5.196152, df =
 * (1/3)^2 / ((1/3)^2 / 2) = 2; p = 1 - t / sqrt(2 + t^2) = 1 -
 * 5.196152 / 5.385165 = 0.035098. */
static void welch_one_constant_sample_has_df_of_the_other(void **state)
{
	static const int64_t a[] = { 5, 5, 5 }, b[] = { 1, 2, 3 };
	struct cp_welch w;

	(void)state;
	assert_int_equal(cp_welch_test(a, 3, b, 3, &w), 0);
	assert_true(fabs(w.df - 2.0) < 1e-12);
	assert_true(fabs(w.t - sqrt(27.0)) < 1e-12);
	assert_true(fabs(w.p - (1 - sqrt(27.0) / sqrt(29.0))) < 1e-12);
}

/* Both variances zero (t = x/0), or n < 2: -CP_EINVAL, *out unchanged. */
static void welch_bad_input_is_einval_and_out_unchanged(void **state)
{
	static const int64_t five[] = { 5, 5 }, seven[] = { 7, 7 }, one[] = { 1 };
	struct cp_welch w, before;

	(void)state;
	memset(&w, 0x5a, sizeof(w));
	before = w;
	assert_int_equal(cp_welch_test(five, 2, seven, 2, &w), -CP_EINVAL);
	assert_int_equal(cp_welch_test(one, 1, seven, 2, &w), -CP_EINVAL);
	assert_int_equal(cp_welch_test(seven, 2, one, 1, &w), -CP_EINVAL);
	assert_memory_equal(&w, &before, sizeof(w));
}

/* Byte counts in the tens of GB (the seed's totals) keep their
 * precision: a = 27.26 GB +- 1000, b = 9.57 GB +- 1000 give an enormous
 * t and a p that is tiny but not NaN. */
static void welch_large_byte_counts_give_a_finite_p(void **state)
{
	static const int64_t a[] = { 27262988288LL, 27262989288LL, 27262987288LL };
	static const int64_t b[] = { 9565376512LL, 9565377512LL, 9565375512LL };
	struct cp_welch w;

	(void)state;
	assert_int_equal(cp_welch_test(a, 3, b, 3, &w), 0);
	assert_false(isnan(w.p));
	assert_true(w.p >= 0 && w.p < 1e-10);
	assert_true(fabs(w.df - 4.0) < 1e-9); /* equal variances (10^6), n 3 + 3 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mwu_complete_separation_5_vs_5_exact_p_is_2_of_252),
		cmocka_unit_test(mwu_is_symmetric_in_the_samples),
		cmocka_unit_test(mwu_5_vs_5_critical_value_2_from_the_table),
		cmocka_unit_test(mwu_2_vs_3_cannot_reach_significance),
		cmocka_unit_test(mwu_interleaved_samples_exact_p_by_counting),
		cmocka_unit_test(mwu_ties_use_the_tie_corrected_normal_approximation),
		cmocka_unit_test(mwu_large_samples_use_the_normal_approximation),
		cmocka_unit_test(mwu_bad_input_is_einval_and_out_unchanged),
		cmocka_unit_test(mwu_out_of_memory_is_reported),
		cmocka_unit_test(mwu_smallest_exact_p_is_2_over_binomial),
		cmocka_unit_test(betainc_matches_closed_forms),
		cmocka_unit_test(betainc_outside_the_domain_is_einval),
		cmocka_unit_test(student_t_matches_the_cauchy_and_df2_closed_forms),
		cmocka_unit_test(student_t_critical_values_from_the_table),
		cmocka_unit_test(student_t_bad_df_is_einval),
		cmocka_unit_test(welch_equal_variances_t_minus_3_df_8),
		cmocka_unit_test(welch_unequal_variances_satterthwaite_df),
		cmocka_unit_test(welch_one_constant_sample_has_df_of_the_other),
		cmocka_unit_test(welch_bad_input_is_einval_and_out_unchanged),
		cmocka_unit_test(welch_large_byte_counts_give_a_finite_p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
