/*
 * abtable.c - two kernels side by side: the table of `cachepressure real
 * compare` and its JSON (see abtable.h).
 *
 * Each byte row holds, per kernel, the bytes the reader had to read
 * from the device again during its counted loops, over the runs of that
 * kernel that did not fail: mean, sample sd, min and max (stats.c), the
 * ratio of the means B/A, and two two-sided tests of "A and B re-read
 * the same": Mann-Whitney U, the one the table leads with, because with
 * five runs a side nothing says the values are normal, and Welch's t as
 * a second opinion on the means (signif.c). The layout follows mmtests'
 * compare-kernels: one group of columns per kernel, then the comparison.
 *
 * Counter rows use the names the real harness records
 * (harness/lib/sample.c): /proc/vmstat deltas over the run
 * (slabs_scanned, pgscan_kswapd, pgscan_direct, workingset_refault_file)
 * and nr_slab_reclaimable at the end, shown as /proc/meminfo's
 * SReclaimable in kB. In a memory cgroup the kernel leaves global
 * limit reclaim out of pgscan_kswapd/pgscan_direct (see validate.c), so
 * they can read 0 there. No kernel mechanism is modelled here.
 */
#include "report/abtable.h"
#include "report/jsonput.h"

#include <cachepressure/error.h>
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <string.h>

#include "core/alloc.h"
#include "report/json.h"

static const struct {
	const char *name, *source;
	int64_t scale; /* the counter times this is the value shown */
} counter_defs[CP_AB_NR_COUNTERS] = {
	{ "slabs_scanned", "slabs_scanned", 1 },
	{ "pgscan_kswapd", "pgscan_kswapd", 1 },
	{ "pgscan_direct", "pgscan_direct", 1 },
	{ "workingset_refault_file", "workingset_refault_file", 1 },
	/* pages -> kB */
	{ "SReclaimable end (kB)", "nr_slab_reclaimable_end", CP_AB_PAGE_BYTES / 1024 },
};

/* ---- the table -------------------------------------------------------------- */

static size_t nr_failed(const struct cp_ab_kernel *k)
{
	size_t i, n = 0;

	for (i = 0; i < k->nr_runs; i++)
		n += k->runs[i].failed != 0;
	return n;
}

static bool have_row(const struct cp_ab_table *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->nr_rows; i++)
		if (strcmp(t->rows[i].name, path) == 0)
			return true;
	return false;
}

/* Bytes re-read by reader path in r (0 when r has no such reader), or by
 * all readers when path is NULL. */
static int64_t reader_bytes(const struct cp_run_result *r, const char *path)
{
	int64_t v = 0;
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		if (!path || strcmp(r->readers[i].path, path) == 0)
			v += (int64_t)r->readers[i].total_read_bytes;
	return v;
}

/* The values of one kernel's runs that did not fail into v; their count. */
static size_t side_values(const struct cp_ab_kernel *k, const char *path, int64_t *v)
{
	size_t i, n = 0;

	for (i = 0; i < k->nr_runs; i++)
		if (!k->runs[i].failed)
			v[n++] = reader_bytes(&k->runs[i], path);
	return n;
}

static void compute_row(struct cp_ab_row *row, const struct cp_ab_kernel *a,
			const struct cp_ab_kernel *b, int64_t *va, int64_t *vb)
{
	const char *path = row->total ? NULL : row->name;
	size_t na = side_values(a, path, va), nb = side_values(b, path, vb);

	/* na, nb >= 1: the caller checked that each kernel has a good run */
	cp_stats_compute(va, na, &row->a);
	cp_stats_compute(vb, nb, &row->b);
	row->has_ratio = row->a.mean != 0.0;
	row->ratio = row->has_ratio ? row->b.mean / row->a.mean : 0.0;
	row->has_u = cp_mwu_test(va, na, vb, nb, &row->u) == 0;
	row->has_welch = cp_welch_test(va, na, vb, nb, &row->welch) == 0;
}

static int add_reader_rows(struct cp_ab_table *t, const struct cp_ab_kernel *k)
{
	size_t i, j;

	for (i = 0; i < k->nr_runs; i++) {
		if (k->runs[i].failed)
			continue;
		for (j = 0; j < k->runs[i].nr_readers; j++) {
			const char *path = k->runs[i].readers[j].path;
			struct cp_ab_row *row;

			if (have_row(t, path))
				continue;
			if (t->nr_rows >= CP_AB_MAX_ROWS - 1)
				return -CP_EINVAL;
			row = &t->rows[t->nr_rows++];
			snprintf(row->name, sizeof(row->name), "%s", path);
		}
	}
	return 0;
}

static void counter_side(const struct cp_ab_kernel *k, const char *source, int64_t scale,
			 int64_t *v, size_t *n, double *mean)
{
	struct cp_stats s;
	size_t i;

	*n = 0;
	for (i = 0; i < k->nr_runs; i++) {
		int64_t x;

		if (k->runs[i].failed)
			continue;
		x = cp_run_result_counter(&k->runs[i], source, INT64_MIN);
		if (x == INT64_MIN)
			continue;
		v[(*n)++] = x * scale;
	}
	*mean = *n && cp_stats_compute(v, *n, &s) == 0 ? s.mean : 0.0;
}

int cp_ab_table_build(const struct cp_ab_kernel *a, const struct cp_ab_kernel *b,
		      struct cp_ab_table *t, struct cp_diag *diag)
{
	int64_t *va = NULL, *vb = NULL;
	size_t i;
	int rc;

	memset(t, 0, sizeof(*t));
	t->name_a = a->name;
	t->name_b = b->name;
	t->nr_runs_a = a->nr_runs;
	t->nr_runs_b = b->nr_runs;
	t->nr_failed_a = nr_failed(a);
	t->nr_failed_b = nr_failed(b);
	if (t->nr_failed_a == a->nr_runs || t->nr_failed_b == b->nr_runs) {
		const struct cp_ab_kernel *k = t->nr_failed_a == a->nr_runs ? a : b;

		memset(t, 0, sizeof(*t));
		return cp_diag_set(diag, -CP_EINVAL, "kernel %s: %s", k->name,
				   k->nr_runs ? "every run failed; nothing to compare"
					      : "no runs; nothing to compare");
	}
	rc = add_reader_rows(t, a);
	if (!rc)
		rc = add_reader_rows(t, b);
	if (rc) {
		memset(t, 0, sizeof(*t));
		return cp_diag_set(diag, rc, "more than %d readers", CP_AB_MAX_ROWS - 1);
	}
	if (t->nr_rows > 1) {
		t->rows[t->nr_rows].total = true;
		snprintf(t->rows[t->nr_rows].name, CP_AB_ROW_NAME_MAX, "total");
		t->nr_rows++;
	}
	va = cp_calloc(a->nr_runs, sizeof(*va));
	vb = cp_calloc(b->nr_runs, sizeof(*vb));
	if (!va || !vb) {
		cp_free(va);
		cp_free(vb);
		memset(t, 0, sizeof(*t));
		return cp_diag_set(diag, -CP_ENOMEM, "A/B table: out of memory");
	}
	for (i = 0; i < t->nr_rows; i++)
		compute_row(&t->rows[i], a, b, va, vb);
	for (i = 0; i < CP_AB_NR_COUNTERS; i++) {
		struct cp_ab_counter *c = &t->counters[i];

		c->name = counter_defs[i].name;
		c->source = counter_defs[i].source;
		counter_side(a, c->source, counter_defs[i].scale, va, &c->n_a, &c->mean_a);
		counter_side(b, c->source, counter_defs[i].scale, vb, &c->n_b, &c->mean_b);
	}
	cp_free(va);
	cp_free(vb);
	return 0;
}

/* ---- text ------------------------------------------------------------------- */

void cp_ab_format_p(char *buf, size_t len, double p)
{
	if (p >= 0.0001 || p == 0.0)
		cp_stats_format(buf, len, p, 4);
	else
		snprintf(buf, len, "%.1e", p);
}

static void gb(char *buf, size_t len, double bytes)
{
	cp_stats_format(buf, len, bytes / 1e9, 2);
}

/* mean sd min max of one side, in GB */
static int print_side(FILE *out, const struct cp_stats *s)
{
	char mean[32], sd[32], min[32], max[32];

	gb(mean, sizeof(mean), s->mean);
	if (s->n > 1)
		gb(sd, sizeof(sd), s->sd);
	else
		snprintf(sd, sizeof(sd), "-");
	gb(min, sizeof(min), (double)s->min);
	gb(max, sizeof(max), (double)s->max);
	return fprintf(out, " %8s %7s %8s %8s", mean, sd, min, max) > 0;
}

/* "A: stock (5 runs)" over a side's 35 columns (4 + 8 + 7 + 8 + 8);
 * the last group is not padded. */
static int print_group(FILE *out, const char *ab, const char *name, size_t runs, size_t failed,
		       bool pad)
{
	char hdr[160];

	snprintf(hdr, sizeof(hdr), "%s: %s (%zu run%s)", ab, name, runs - failed,
		 runs - failed == 1 ? "" : "s");
	return fprintf(out, pad ? " %-35s" : " %s", hdr) > 0;
}

static void counter_cell(char *buf, size_t len, size_t n, double mean)
{
	if (n)
		cp_stats_format(buf, len, mean, 0);
	else
		snprintf(buf, len, "-");
}

int cp_ab_table_fprint(FILE *out, const struct cp_ab_table *t)
{
	char ratio[32], p[32], pw[32], a[32], b[32];
	bool any_exact = false, any_normal = false;
	size_t i;
	int ok = 1;

	ok &= fprintf(out, "# bytes re-read during the counted loops, GB (10^9 bytes), over the "
		      "runs that did not fail\n") > 0;
	ok &= fprintf(out, "%-28s", "") > 0;
	ok &= print_group(out, "A", t->name_a, t->nr_runs_a, t->nr_failed_a, true);
	ok &= print_group(out, "B", t->name_b, t->nr_runs_b, t->nr_failed_b, false);
	ok &= fprintf(out, "\n%-28s %8s %7s %8s %8s %8s %7s %8s %8s %7s %-8s %8s %8s\n", "reader",
		      "mean", "sd", "min", "max", "mean", "sd", "min", "max", "B/A", "test", "p",
		      "p(Welch)") > 0;
	for (i = 0; i < t->nr_rows; i++) {
		const struct cp_ab_row *r = &t->rows[i];

		ok &= fprintf(out, "%-28s", r->name) > 0;
		ok &= print_side(out, &r->a);
		ok &= print_side(out, &r->b);
		if (r->has_ratio)
			cp_stats_format(ratio, sizeof(ratio), r->ratio, 2);
		else
			snprintf(ratio, sizeof(ratio), "n/a");
		if (r->has_u) {
			cp_ab_format_p(p, sizeof(p), r->u.p);
			any_exact |= r->u.method == CP_MWU_EXACT;
			any_normal |= r->u.method == CP_MWU_NORMAL;
		} else {
			snprintf(p, sizeof(p), "-");
		}
		if (r->has_welch)
			cp_ab_format_p(pw, sizeof(pw), r->welch.p);
		else
			snprintf(pw, sizeof(pw), "-");
		ok &= fprintf(out, " %7s %-8s %8s %8s\n", ratio,
			      r->has_u ? cp_mwu_method_name(r->u.method) : "-", p, pw) > 0;
	}

	ok &= fprintf(out, "\n# reclaim counters, mean per run (vmstat deltas over the run; "
		      "SReclaimable at its end)\n") > 0;
	ok &= fprintf(out, "%-28s %16s %16s %7s\n", "counter", t->name_a, t->name_b, "B/A") > 0;
	for (i = 0; i < CP_AB_NR_COUNTERS; i++) {
		const struct cp_ab_counter *c = &t->counters[i];

		counter_cell(a, sizeof(a), c->n_a, c->mean_a);
		counter_cell(b, sizeof(b), c->n_b, c->mean_b);
		if (c->n_a && c->n_b && c->mean_a != 0.0)
			cp_stats_format(ratio, sizeof(ratio), c->mean_b / c->mean_a, 2);
		else
			snprintf(ratio, sizeof(ratio), "-");
		ok &= fprintf(out, "%-28s %16s %16s %7s\n", c->name, a, b, ratio) > 0;
	}

	ok &= fprintf(out, "\n# test: Mann-Whitney U, two-sided, on the runs of A against those "
		      "of B") > 0;
	if (any_exact)
		ok &= fprintf(out, "; U exact = exact distribution of U (no ties): with %zu and "
			      "%zu runs its smallest p, for no overlap at all, is %.4f",
			      t->nr_runs_a - t->nr_failed_a, t->nr_runs_b - t->nr_failed_b,
			      cp_mwu_exact_min_p(t->nr_runs_a - t->nr_failed_a,
						 t->nr_runs_b - t->nr_failed_b)) > 0;
	if (any_normal)
		ok &= fprintf(out, "; U normal = normal approximation with tie and continuity "
			      "correction") > 0;
	ok &= fprintf(out, "\n# p(Welch): Welch's t test, two-sided; '-' where a kernel has "
		      "fewer than 2 runs or the values have no spread\n") > 0;
	if (t->nr_failed_a)
		ok &= fprintf(out, "# %zu of %zu runs of %s failed and are not in the table\n",
			      t->nr_failed_a, t->nr_runs_a, t->name_a) > 0;
	if (t->nr_failed_b)
		ok &= fprintf(out, "# %zu of %zu runs of %s failed and are not in the table\n",
			      t->nr_failed_b, t->nr_runs_b, t->name_b) > 0;
	return ok ? 0 : -CP_EIO;
}

/* ---- JSON ------------------------------------------------------------------- */

static bool add_side(cJSON *row, const char *key, const struct cp_stats *s)
{
	cJSON *o = cJSON_AddObjectToObject(row, key);

	return o && cp_json_put_i64(o, "n", (int64_t)s->n) && cp_json_put_double(o, "mean", true, s->mean) &&
	       cp_json_put_double(o, "sd", s->n > 1, s->sd) && cp_json_put_i64(o, "min", s->min) &&
	       cp_json_put_i64(o, "max", s->max);
}

static bool add_tests(cJSON *row, const struct cp_ab_row *r)
{
	cJSON *o;

	if (!r->has_u) {
		if (!cJSON_AddNullToObject(row, "u"))
			return false;
	} else if (!(o = cJSON_AddObjectToObject(row, "u")) ||
		   !cJSON_AddStringToObject(o, "method",
					    r->u.method == CP_MWU_EXACT ? "exact" : "normal") ||
		   !cp_json_put_double(o, "u_a", true, r->u.u_a) || !cp_json_put_double(o, "u", true, r->u.u) ||
		   !cp_json_put_double(o, "z", r->u.method == CP_MWU_NORMAL, r->u.z) ||
		   !cp_json_put_double(o, "p", true, r->u.p)) {
		return false;
	}
	if (!r->has_welch)
		return cJSON_AddNullToObject(row, "welch") != NULL;
	return (o = cJSON_AddObjectToObject(row, "welch")) && cp_json_put_double(o, "t", true, r->welch.t) &&
	       cp_json_put_double(o, "df", true, r->welch.df) && cp_json_put_double(o, "p", true, r->welch.p);
}

static bool add_row(cJSON *rows, const struct cp_ab_row *r)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return false;
	if (!cJSON_AddItemToArray(rows, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddStringToObject(o, "name", r->name) &&
	       cJSON_AddStringToObject(o, "kind", r->total ? "total" : "reader") &&
	       add_side(o, "a", &r->a) && add_side(o, "b", &r->b) &&
	       cp_json_put_double(o, "ratio_b_a", r->has_ratio, r->ratio) && add_tests(o, r);
}

static bool add_counter(cJSON *arr, const struct cp_ab_counter *c)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return false;
	if (!cJSON_AddItemToArray(arr, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddStringToObject(o, "name", c->name) &&
	       cJSON_AddStringToObject(o, "source", c->source) &&
	       cp_json_put_i64(o, "n_a", (int64_t)c->n_a) && cp_json_put_i64(o, "n_b", (int64_t)c->n_b) &&
	       cp_json_put_double(o, "mean_a", c->n_a > 0, c->mean_a) &&
	       cp_json_put_double(o, "mean_b", c->n_b > 0, c->mean_b);
}

/* {"name", "image", "runs": [...], "runs_failed"}: the runs array is
 * taken from cp_report_json_tree()'s {"runs": [...]}. */
static bool add_kernel(cJSON *kernels, const struct cp_ab_kernel *k, size_t failed)
{
	const struct cp_run_result **p = cp_calloc(k->nr_runs ? k->nr_runs : 1, sizeof(*p));
	cJSON *tree, *runs, *o;
	size_t i;
	bool ok;

	if (!p)
		return false;
	for (i = 0; i < k->nr_runs; i++)
		p[i] = &k->runs[i];
	tree = cp_report_json_tree(p, k->nr_runs);
	cp_free(p);
	if (!tree)
		return false;
	runs = cJSON_DetachItemFromObjectCaseSensitive(tree, "runs");
	cJSON_Delete(tree);
	if (!runs)
		return false;
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(kernels, o)) {
		cJSON_Delete(o);
		cJSON_Delete(runs);
		return false;
	}
	ok = cJSON_AddStringToObject(o, "name", k->name) && cp_json_put_str(o, "image", k->image);
	if (!ok || !cJSON_AddItemToObject(o, "runs", runs)) {
		cJSON_Delete(runs);
		return false;
	}
	return cp_json_put_i64(o, "runs_failed", (int64_t)failed);
}

char *cp_ab_json_text(const struct cp_ab_kernel *a, const struct cp_ab_kernel *b,
		      const struct cp_ab_table *t)
{
	cJSON *root, *kernels, *test, *rows, *vm;
	char *text = NULL;
	size_t i;

	/* cp_report_json_tree() points cJSON at cp_malloc; the first call
	 * below is made only after it, so every node comes from there */
	root = cp_report_json_tree(NULL, 0);
	if (!root)
		return NULL;
	cJSON_DeleteItemFromObjectCaseSensitive(root, "runs");
	if (!(kernels = cJSON_AddArrayToObject(root, "kernels")) ||
	    !add_kernel(kernels, a, t->nr_failed_a) || !add_kernel(kernels, b, t->nr_failed_b) ||
	    !(test = cJSON_AddObjectToObject(root, "test")) ||
	    !cJSON_AddStringToObject(test, "name", "Mann-Whitney U, two-sided") ||
	    !cJSON_AddStringToObject(test, "secondary", "Welch's t, two-sided") ||
	    !(rows = cJSON_AddArrayToObject(test, "rows")))
		goto out;
	for (i = 0; i < t->nr_rows; i++)
		if (!add_row(rows, &t->rows[i]))
			goto out;
	if (!(vm = cJSON_AddArrayToObject(root, "vmstat")))
		goto out;
	for (i = 0; i < CP_AB_NR_COUNTERS; i++)
		if (!add_counter(vm, &t->counters[i]))
			goto out;
	text = cJSON_Print(root);
out:
	cJSON_Delete(root);
	return text;
}

int cp_ab_json_write(const char *path, const struct cp_ab_kernel *a,
		     const struct cp_ab_kernel *b, const struct cp_ab_table *t,
		     struct cp_diag *diag)
{
	return cp_json_write_text(path, cp_ab_json_text(a, b, t), diag);
}
