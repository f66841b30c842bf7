/*
 * plot.c - gnuplot data files and script for `cachepressure plot` (see
 * plot.h). No kernel mechanism here: the series and passes come from
 * struct cp_run_result, model or real.
 *
 * Time axis: seconds from the run's start, virtual time for the model,
 * wall time for a real run (the series' t_ns, as each side recorded it).
 * SIMPLIFIED: the model's slab is its four filesystem caches (dentry,
 * external names, inode, XFS inode log item); the real side is the
 * kernel's whole reclaimable slab (or a cgroup v1's kmem usage), which
 * also holds caches the model does not have.
 */
#include "report/plot.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The model's page (sim/world.h CP_PAGE_SIZE). */
#define MODEL_PAGE_BYTES 4096
#define MIB (1024.0 * 1024.0)

static bool column(const struct cp_series *s, const char *name, size_t *c)
{
	size_t i;

	for (i = 0; i < s->nr_columns; i++)
		if (strcmp(s->columns[i], name) == 0) {
			*c = i;
			return true;
		}
	return false;
}

static bool is_model(const struct cp_run_result *r)
{
	return r->source && strcmp(r->source, "model") == 0;
}

bool cp_plot_value(const struct cp_run_result *r, enum cp_plot_quantity q, size_t row,
		   int64_t *bytes)
{
	static const char *const model_slab[] = { "slab_dentry_pages", "slab_name_pages",
						  "slab_inode_pages", "slab_ili_pages" };
	const struct cp_series *s = &r->series;
	const int64_t *v;
	size_t c, i;
	int64_t sum = 0;

	if (row >= s->nr_rows)
		return false;
	v = &s->values[row * s->nr_columns];
	if (is_model(r)) {
		if (q == CP_PLOT_PAGECACHE) {
			if (!column(s, "pagecache_pages", &c))
				return false;
			*bytes = v[c] * MODEL_PAGE_BYTES;
			return true;
		}
		for (i = 0; i < sizeof(model_slab) / sizeof(model_slab[0]); i++) {
			if (!column(s, model_slab[i], &c))
				return false;
			sum += v[c];
		}
		*bytes = sum * MODEL_PAGE_BYTES;
		return true;
	}
	if (q == CP_PLOT_PAGECACHE) {
		if (!column(s, "file_bytes", &c))
			return false;
	} else if (!column(s, "slab_reclaimable_bytes", &c) && !column(s, "kmem_bytes", &c)) {
		return false;
	}
	*bytes = v[c];
	return true;
}

/* Single quotes would end a gnuplot string: drop them (labels only). */
static void unquote(char *s)
{
	char *w = s;

	for (; *s; s++)
		if (*s != '\'' && *s != '\n')
			*w++ = *s;
	*w = '\0';
}

void cp_plot_label(char *buf, size_t len, const struct cp_run_result *r)
{
	if (is_model(r))
		snprintf(buf, len, "model (%s, %s)", r->policy ? r->policy : "?",
			 r->kernel ? r->kernel : "?");
	else
		snprintf(buf, len, "%s (%s)", r->source ? r->source : "run",
			 r->kernel ? r->kernel : "?");
	unquote(buf);
}

size_t cp_plot_groups(const struct cp_run_result *runs, size_t n, size_t *group_of)
{
	char a[256], b[256];
	size_t i, j, nr = 0;

	for (i = 0; i < n; i++) {
		cp_plot_label(a, sizeof(a), &runs[i]);
		group_of[i] = nr;
		for (j = 0; j < i; j++) {
			cp_plot_label(b, sizeof(b), &runs[j]);
			if (strcmp(a, b) == 0) {
				group_of[i] = group_of[j];
				break;
			}
		}
		if (group_of[i] == nr)
			nr++;
	}
	return nr;
}

int cp_plot_format_of(const char *path, enum cp_plot_format *fmt)
{
	size_t n = strlen(path);

	if (n > 4 && strcasecmp(path + n - 4, ".svg") == 0)
		*fmt = CP_PLOT_SVG;
	else if (n > 4 && strcasecmp(path + n - 4, ".png") == 0)
		*fmt = CP_PLOT_PNG;
	else
		return -CP_EINVAL;
	return 0;
}

/* ---- files ---------------------------------------------------------------- */

static void series_path(char *buf, size_t len, const char *dir, size_t i)
{
	snprintf(buf, len, "%s/run%zu.dat", dir, i);
}

static void passes_path(char *buf, size_t len, const char *dir, size_t i, size_t k)
{
	snprintf(buf, len, "%s/run%zu-reader%zu.dat", dir, i, k);
}

static void script_path(char *buf, size_t len, const char *dir)
{
	snprintf(buf, len, "%s/plot.gp", dir);
}

static int write_series(const char *path, const struct cp_run_result *r, struct cp_diag *diag)
{
	FILE *fp = fopen(path, "w");
	size_t row;
	int ok = 1;

	if (!fp)
		return cp_diag_set(diag, -CP_EIO, "%s: cannot create: %s", path, strerror(errno));
	for (row = 0; row < r->series.nr_rows; row++) {
		int64_t pc, slab;
		bool has_pc = cp_plot_value(r, CP_PLOT_PAGECACHE, row, &pc);
		bool has_slab = cp_plot_value(r, CP_PLOT_SLAB, row, &slab);
		char a[32] = "?", b[32] = "?";

		if (has_pc)
			snprintf(a, sizeof(a), "%.3f", (double)pc / MIB);
		if (has_slab)
			snprintf(b, sizeof(b), "%.3f", (double)slab / MIB);
		ok &= fprintf(fp, "%.3f %s %s\n",
			      (double)r->series.values[row * r->series.nr_columns] / 1e9, a, b) > 0;
	}
	if (fclose(fp) != 0)
		ok = 0;
	return ok ? 0 : cp_diag_set(diag, -CP_EIO, "%s: write failed", path);
}

static int write_passes(const char *path, const struct cp_reader_result *rd,
			struct cp_diag *diag)
{
	FILE *fp = fopen(path, "w");
	size_t k;
	int ok = 1;

	if (!fp)
		return cp_diag_set(diag, -CP_EIO, "%s: cannot create: %s", path, strerror(errno));
	for (k = 0; k < rd->nr_passes; k++)
		ok &= fprintf(fp, "%" PRIu32 " %.3f\n", rd->passes[k].pass,
			      (double)rd->passes[k].read_bytes / MIB) > 0;
	if (fclose(fp) != 0)
		ok = 0;
	return ok ? 0 : cp_diag_set(diag, -CP_EIO, "%s: write failed", path);
}

static bool has_series(const struct cp_run_result *r)
{
	int64_t v;

	return cp_plot_value(r, CP_PLOT_PAGECACHE, 0, &v) || cp_plot_value(r, CP_PLOT_SLAB, 0, &v);
}

/* The legend entries: one per group of runs with the same label (the
 * model's policy and kernel, the real runs' kernel), drawn in one colour,
 * titled on the group's first run with the group's size: a validate grid
 * row holds 40 model runs and 10 real ones, which a key of their own each
 * would crowd out of the page. */
struct legend {
	size_t *group_of;   /* runs' group */
	size_t *group_size; /* runs in each group */
	bool *titled;       /* the group's title written in this panel */
};

static int legend_init(struct legend *lg, const struct cp_run_result *runs, size_t n)
{
	size_t i;

	lg->group_of = calloc(n, sizeof(*lg->group_of));
	lg->group_size = calloc(n, sizeof(*lg->group_size));
	lg->titled = calloc(n, sizeof(*lg->titled));
	if (!lg->group_of || !lg->group_size || !lg->titled) {
		free(lg->group_of);
		free(lg->group_size);
		free(lg->titled);
		return -CP_ENOMEM;
	}
	cp_plot_groups(runs, n, lg->group_of);
	for (i = 0; i < n; i++)
		lg->group_size[lg->group_of[i]]++;
	return 0;
}

static void legend_release(struct legend *lg)
{
	free(lg->group_of);
	free(lg->group_size);
	free(lg->titled);
}

/* The style and title of run i's next curve: its group's colour, a wider
 * line for the model; the group's title on its first curve with this
 * suffix (a reader's name), "notitle" on the others. */
static int curve_style(FILE *fp, struct legend *lg, const struct cp_run_result *runs, size_t i,
		       const char *suffix)
{
	size_t g = lg->group_of[i];
	char label[256];
	int ok;

	ok = fprintf(fp, " lc %zu lw %d", g + 1, is_model(&runs[i]) ? 2 : 1) > 0;
	if (lg->titled[g])
		return ok & (fprintf(fp, " notitle") > 0);
	lg->titled[g] = true;
	cp_plot_label(label, sizeof(label), &runs[i]);
	if (lg->group_size[g] > 1)
		return ok & (fprintf(fp, " title '%s, %zu runs%s'", label, lg->group_size[g],
				     suffix) > 0);
	return ok & (fprintf(fp, " title '%s%s'", label, suffix) > 0);
}

/* Runs in drawing order: the model's first, so the (fewer, thinner) real
 * runs are drawn over them. */
static size_t draw_order(const struct cp_run_result *runs, size_t n, size_t k)
{
	size_t i, seen = 0;

	for (i = 0; i < n; i++)
		if (is_model(&runs[i]) && seen++ == k)
			return i;
	for (i = 0; i < n; i++)
		if (!is_model(&runs[i]) && seen++ == k)
			return i;
	return n;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* One plot command over the runs' series (column col: 2 page cache, 3
 * slab), or an empty plot when no run has a series. */
static int plot_series(FILE *fp, const char *dir, const struct cp_run_result *runs, size_t n,
		       int col, const char *title, struct legend *lg)
{
	char path[4096];
	size_t k, nr = 0;
	int ok = 1;

	memset(lg->titled, 0, n * sizeof(*lg->titled));
	ok &= fprintf(fp, "set title '%s'\n"
		      "set xlabel 'seconds from the start (model: virtual, real: wall clock)'\n"
		      "set ylabel 'MiB'\nplot ", title) > 0;
	for (k = 0; k < n; k++) {
		size_t i = draw_order(runs, n, k);

		if (!has_series(&runs[i]))
			continue;
		series_path(path, sizeof(path), dir, i);
		ok &= fprintf(fp, "%s'%s' using 1:%d with lines", nr ? ", \\\n     " : "", path,
			      col) > 0;
		ok &= curve_style(fp, lg, runs, i, "");
		nr++;
	}
	if (!nr)
		ok &= fprintf(fp, "NaN title 'no series'") > 0;
	ok &= fprintf(fp, "\n") > 0;
	return ok;
}

/* The passes panel: a dash type per reader, and a legend entry per group
 * and reader. */
static int plot_passes(FILE *fp, const char *dir, const struct cp_run_result *runs, size_t n,
		       struct legend *lg)
{
	char path[4096], name[256], suffix[300];
	size_t i, k, r, nr = 0, max_readers = 0;
	int ok = 1;

	for (i = 0; i < n; i++)
		if (runs[i].nr_readers > max_readers)
			max_readers = runs[i].nr_readers;
	ok &= fprintf(fp, "set title 'Bytes re-read per pass'\nset xlabel 'pass'\n"
		      "set ylabel 'MiB read from the device'\nplot ") > 0;
	for (r = 0; r < max_readers; r++) {
		memset(lg->titled, 0, n * sizeof(*lg->titled));
		for (k = 0; k < n; k++) {
			i = draw_order(runs, n, k);
			if (r >= runs[i].nr_readers || !runs[i].readers[r].nr_passes)
				continue;
			passes_path(path, sizeof(path), dir, i, r);
			snprintf(name, sizeof(name), "%s", base_name(runs[i].readers[r].path));
			unquote(name);
			snprintf(suffix, sizeof(suffix), ": %s", name);
			ok &= fprintf(fp, "%s'%s' using 1:2 with linespoints pt %zu dt %zu",
				      nr ? ", \\\n     " : "", path, r % 13 + 1, r % 5 + 1) > 0;
			ok &= curve_style(fp, lg, runs, i, suffix);
			nr++;
		}
	}
	if (!nr)
		ok &= fprintf(fp, "NaN title 'no completed pass'") > 0;
	ok &= fprintf(fp, "\n") > 0;
	return ok;
}

static int write_script(const char *path, const char *dir, const struct cp_run_result *runs,
			size_t n, const char *output, enum cp_plot_format fmt,
			struct cp_diag *diag)
{
	struct legend lg;
	FILE *fp;
	char title[256];
	int ok = 1;

	if (legend_init(&lg, runs, n))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	fp = fopen(path, "w");
	if (!fp) {
		legend_release(&lg);
		return cp_diag_set(diag, -CP_EIO, "%s: cannot create: %s", path, strerror(errno));
	}
	snprintf(title, sizeof(title), "%s: confine %s, mem %" PRIu64 " MiB",
		 runs[0].scenario ? runs[0].scenario : "?", runs[0].confine ? runs[0].confine : "?",
		 runs[0].mem_bytes >> 20);
	unquote(title);
	ok &= fprintf(fp, "set terminal %s\n",
		      fmt == CP_PLOT_SVG
			      ? "svg size 1000,1300 dynamic background rgb 'white' font 'sans,11'"
			      : "pngcairo size 1000,1300 background rgb 'white' font 'sans,10'") > 0;
	ok &= fprintf(fp, "set termoption noenhanced\nset output '%s'\n"
		      "set datafile missing '?'\nset grid\nset key outside right top\n"
		      "set multiplot layout 3,1 title '%s'\n", output, title) > 0;
	ok &= plot_series(fp, dir, runs, n, 2, "Page cache over time", &lg);
	ok &= plot_series(fp, dir, runs, n, 3, "Reclaimable slab over time", &lg);
	ok &= plot_passes(fp, dir, runs, n, &lg);
	ok &= fprintf(fp, "unset multiplot\nset output\n") > 0;
	legend_release(&lg);
	if (fclose(fp) != 0)
		ok = 0;
	return ok ? 0 : cp_diag_set(diag, -CP_EIO, "%s: write failed", path);
}

int cp_plot_write_files(const char *dir, const struct cp_run_result *runs, size_t n,
			const char *output, enum cp_plot_format fmt, struct cp_diag *diag)
{
	char path[4096];
	size_t i, k;
	bool any = false;
	int rc;

	if (strpbrk(output, "'\n") || strpbrk(dir, "'\n"))
		return cp_diag_set(diag, -CP_EINVAL, "%s: a quote or newline in the path cannot "
				   "be passed to gnuplot", strpbrk(output, "'\n") ? output : dir);
	for (i = 0; i < n; i++) {
		any |= has_series(&runs[i]);
		for (k = 0; k < runs[i].nr_readers; k++)
			any |= runs[i].readers[k].nr_passes > 0;
	}
	if (!any)
		return cp_diag_set(diag, -CP_EINVAL, "no run with a time series or a completed "
				   "pass: nothing to plot");
	for (i = 0; i < n; i++) {
		if (has_series(&runs[i])) {
			series_path(path, sizeof(path), dir, i);
			rc = write_series(path, &runs[i], diag);
			if (rc)
				return rc;
		}
		for (k = 0; k < runs[i].nr_readers; k++) {
			if (!runs[i].readers[k].nr_passes)
				continue;
			passes_path(path, sizeof(path), dir, i, k);
			rc = write_passes(path, &runs[i].readers[k], diag);
			if (rc)
				return rc;
		}
	}
	script_path(path, sizeof(path), dir);
	return write_script(path, dir, runs, n, output, fmt, diag);
}

void cp_plot_remove_files(const char *dir, const struct cp_run_result *runs, size_t n)
{
	char path[4096];
	size_t i, k;

	for (i = 0; i < n; i++) {
		series_path(path, sizeof(path), dir, i);
		remove(path);
		for (k = 0; k < runs[i].nr_readers; k++) {
			passes_path(path, sizeof(path), dir, i, k);
			remove(path);
		}
	}
	script_path(path, sizeof(path), dir);
	remove(path);
}
