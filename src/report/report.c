/*
 * report.c - the seed's lines, the run table and the compare table.
 *
 * The seed's lines reproduce what read-file.c (debug-scripts,
 * cache-pressure/) prints; see report.h for the exact rules. Tables are
 * laid out with column widths taken from their contents, so the output
 * depends only on the results. No kernel mechanism is modelled here.
 */
#include "report/report.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define CELL 48

/* A table of fixed-size cells, printed with padded columns. */
struct table {
	size_t nr_cols, nr_rows, cap_rows;
	char (*cells)[CELL]; /* nr_rows * nr_cols */
	const bool *right;   /* per column: right-aligned */
};

static char *table_row(struct table *t)
{
	if (t->nr_rows == t->cap_rows) {
		size_t cap = t->cap_rows ? 2 * t->cap_rows : 8;
		char (*c)[CELL] = cp_realloc(t->cells, cap * t->nr_cols * sizeof(*c));

		if (!c)
			return NULL;
		t->cells = c;
		t->cap_rows = cap;
	}
	memset(t->cells[t->nr_rows * t->nr_cols], 0, t->nr_cols * CELL);
	return t->cells[t->nr_rows++ * t->nr_cols];
}

static char *cell(struct table *t, size_t row, size_t col)
{
	return t->cells[row * t->nr_cols + col];
}

static int table_print(FILE *out, struct table *t)
{
	size_t w[16] = { 0 }, r, c;

	if (t->nr_cols > 16)
		return -CP_EINVAL;
	for (r = 0; r < t->nr_rows; r++)
		for (c = 0; c < t->nr_cols; c++) {
			size_t l = strlen(cell(t, r, c));

			if (l > w[c])
				w[c] = l;
		}
	for (r = 0; r < t->nr_rows; r++) {
		for (c = 0; c < t->nr_cols; c++) {
			const char *s = cell(t, r, c);
			bool last = c + 1 == t->nr_cols;

			if (t->right[c])
				fprintf(out, "%s%*s", c ? "  " : "", (int)w[c], s);
			else if (last)
				fprintf(out, "%s%s", c ? "  " : "", s);
			else
				fprintf(out, "%s%-*s", c ? "  " : "", (int)w[c], s);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -CP_EIO : 0;
}

void cp_report_format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "T", "G", "M", "K" };
	static const unsigned shifts[] = { 40, 30, 20, 10 };
	size_t i;

	if (bytes)
		for (i = 0; i < 4; i++)
			if (bytes % (1ULL << shifts[i]) == 0) {
				snprintf(buf, len, "%" PRIu64 "%s", bytes >> shifts[i], units[i]);
				return;
			}
	snprintf(buf, len, "%" PRIu64, bytes);
}

void cp_report_format_seconds(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ns / 1000000000u, ns / 1000000u % 1000u);
}

void cp_report_change_pct(char *buf, size_t len, uint64_t from, uint64_t to)
{
	__int128 diff = (__int128)to - (__int128)from, q;
	bool neg = diff < 0;
	uint64_t hundredths;

	if (from == 0) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (neg)
		diff = -diff;
	/* round(|diff| * 10000 / from), half away from zero */
	q = (diff * 10000 * 2 + (__int128)from) / ((__int128)from * 2);
	hundredths = (uint64_t)q;
	if (hundredths == 0)
		snprintf(buf, len, "0.00");
	else
		snprintf(buf, len, "%c%" PRIu64 ".%02" PRIu64, neg ? '-' : '+', hundredths / 100,
			 hundredths % 100);
}

/* One completed pass in the merged order of the seed lines. */
struct pass_ref {
	uint64_t end_ns;
	size_t reader, pass;
};

static int pass_cmp(const void *a, const void *b)
{
	const struct pass_ref *x = a, *y = b;

	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	if (x->reader != y->reader)
		return x->reader < y->reader ? -1 : 1;
	return x->pass < y->pass ? -1 : x->pass > y->pass;
}

int cp_report_seed_lines(FILE *out, const struct cp_run_result *r)
{
	struct pass_ref *refs;
	size_t n = 0, i, j;

	for (i = 0; i < r->nr_readers; i++)
		n += r->readers[i].nr_passes;
	refs = cp_calloc(n ? n : 1, sizeof(*refs));
	if (!refs)
		return -CP_ENOMEM;
	for (i = 0, n = 0; i < r->nr_readers; i++)
		for (j = 0; j < r->readers[i].nr_passes; j++)
			refs[n++] = (struct pass_ref){ r->readers[i].passes[j].end_ns, i, j };
	qsort(refs, n, sizeof(*refs), pass_cmp);
	for (i = 0; i < n; i++) {
		const struct cp_reader_result *rd = &r->readers[refs[i].reader];
		const struct cp_pass *p = &rd->passes[refs[i].pass];

		/* read-file.c prints a loop only when read_bytes moved */
		if (p->read_bytes)
			fprintf(out, "%s: loop %" PRIu32 " read bytes is %" PRIu64 "\n", rd->path,
				p->pass - 1, p->read_bytes);
	}
	cp_free(refs);
	for (i = 0; i < r->nr_readers; i++)
		fprintf(out, "%s: total read during loops %" PRIu64 "\n", r->readers[i].path,
			r->readers[i].total_read_bytes);
	return ferror(out) ? -CP_EIO : 0;
}

static const char *str_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* Counters worth a line in the short table, when the run has them. */
static const char *const key_counters[] = {
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"slabs_scanned", "workingset_refault_file", "workingset_refault",
	"workingset_activate_file", "kswapd_inodesteal", "pginodesteal",
};

int cp_report_run_table(FILE *out, const struct cp_run_result *r)
{
	static const bool right[] = { false, true, true };
	struct table t = { 3, 0, 0, NULL, right };
	char mem[32], dur[32];
	uint64_t total = 0, passes = 0;
	size_t i;
	char *row;
	int rc;

	cp_report_format_size(mem, sizeof(mem), r->mem_bytes);
	cp_report_format_seconds(dur, sizeof(dur), r->duration_ns);
	fprintf(out, "%s run: policy %s, kernel %s, scenario %s, confine %s, mem %s, seed %" PRIu64
		", %s s\n", str_or(r->source, "?"), str_or(r->policy, "?"), str_or(r->kernel, "?"),
		str_or(r->scenario, "?"), str_or(r->confine, "?"), mem, r->seed, dur);
	if (r->failed)
		fprintf(out, "FAILED: %s\n", str_or(r->failure, "(no reason recorded)"));
	if (!(row = table_row(&t)))
		goto nomem;
	snprintf(row, CELL, "reader");
	snprintf(row + CELL, CELL, "passes");
	snprintf(row + 2 * CELL, CELL, "read bytes");
	for (i = 0; i < r->nr_readers; i++) {
		const struct cp_reader_result *rd = &r->readers[i];

		if (!(row = table_row(&t)))
			goto nomem;
		snprintf(row, CELL, "%s", rd->path);
		snprintf(row + CELL, CELL, "%zu", rd->nr_passes);
		snprintf(row + 2 * CELL, CELL, "%" PRIu64, rd->total_read_bytes);
		total += rd->total_read_bytes;
		passes += rd->nr_passes;
	}
	if (!(row = table_row(&t)))
		goto nomem;
	snprintf(row, CELL, "total");
	snprintf(row + CELL, CELL, "%" PRIu64, passes);
	snprintf(row + 2 * CELL, CELL, "%" PRIu64, total);
	rc = table_print(out, &t);
	cp_free(t.cells);
	if (rc)
		return rc;
	for (i = 0; i < sizeof(key_counters) / sizeof(key_counters[0]); i++) {
		int64_t v = cp_run_result_counter(r, key_counters[i], INT64_MIN);

		if (v != INT64_MIN)
			fprintf(out, "%-26s %" PRId64 "\n", key_counters[i], v);
	}
	/* per-walker counters (read-dir passes, icache misses), sorted */
	for (i = 0; i < r->nr_counters; i++)
		if (strncmp(r->counters[i].name, "cp_walker_", 10) == 0)
			fprintf(out, "%-26s %" PRId64 "\n", r->counters[i].name,
				r->counters[i].value);
	return ferror(out) ? -CP_EIO : 0;
nomem:
	cp_free(t.cells);
	return -CP_ENOMEM;
}

static const struct cp_reader_result *find_reader(const struct cp_run_result *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		if (strcmp(r->readers[i].path, path) == 0)
			return &r->readers[i];
	return NULL;
}

static const char *label_of(const struct cp_run_result *const *runs, const char *const *labels,
			    size_t i)
{
	return labels ? labels[i] : str_or(runs[i]->policy, "?");
}

/* Fills one row: the name, each run's bytes (or "-"), each change. */
static void compare_row(char *row, size_t n, const char *name, const uint64_t *bytes,
			const bool *have)
{
	size_t k;

	snprintf(row, CELL, "%s", name);
	for (k = 0; k < n; k++) {
		if (have[k])
			snprintf(row + (1 + k) * CELL, CELL, "%" PRIu64, bytes[k]);
		else
			snprintf(row + (1 + k) * CELL, CELL, "-");
	}
	for (k = 1; k < n; k++) {
		if (have[0] && have[k])
			cp_report_change_pct(row + (n + k) * CELL, CELL, bytes[0], bytes[k]);
		else
			snprintf(row + (n + k) * CELL, CELL, "-");
	}
}

int cp_report_compare_table(FILE *out, const struct cp_run_result *const *runs,
			    const char *const *labels, size_t n)
{
	bool right[16], have[8];
	uint64_t bytes[8];
	struct table t;
	const char **paths = NULL;
	size_t nr_paths = 0, i, k;
	char *row;
	int rc = -CP_ENOMEM;

	if (n == 0 || n > 8)
		return -CP_EINVAL;
	t = (struct table){ 2 * n, 0, 0, NULL, right };
	for (k = 0; k < 2 * n; k++)
		right[k] = k > 0;
	/* reader paths in order of first appearance */
	for (k = 0; k < n; k++)
		for (i = 0; i < runs[k]->nr_readers; i++) {
			const char *p = runs[k]->readers[i].path;
			size_t j;
			const char **np;

			for (j = 0; j < nr_paths && strcmp(paths[j], p) != 0; j++)
				;
			if (j < nr_paths)
				continue;
			np = cp_realloc(paths, (nr_paths + 1) * sizeof(*np));
			if (!np)
				goto out;
			paths = np;
			paths[nr_paths++] = p;
		}
	if (!(row = table_row(&t)))
		goto out;
	snprintf(row, CELL, "reader");
	for (k = 0; k < n; k++)
		snprintf(row + (1 + k) * CELL, CELL, "%.*s bytes", CELL - 8, label_of(runs, labels, k));
	for (k = 1; k < n; k++) {
		if (n == 2)
			snprintf(row + (n + k) * CELL, CELL, "change %%");
		else
			snprintf(row + (n + k) * CELL, CELL, "change %% %.*s", CELL - 12,
				 label_of(runs, labels, k));
	}
	for (i = 0; i < nr_paths; i++) {
		for (k = 0; k < n; k++) {
			const struct cp_reader_result *rd = find_reader(runs[k], paths[i]);

			have[k] = rd != NULL;
			bytes[k] = rd ? rd->total_read_bytes : 0;
		}
		if (!(row = table_row(&t)))
			goto out;
		compare_row(row, n, paths[i], bytes, have);
	}
	for (k = 0; k < n; k++) {
		have[k] = true;
		bytes[k] = 0;
		for (i = 0; i < runs[k]->nr_readers; i++)
			bytes[k] += runs[k]->readers[i].total_read_bytes;
	}
	if (!(row = table_row(&t)))
		goto out;
	compare_row(row, n, "total", bytes, have);
	rc = table_print(out, &t);
	for (k = 0; k < n && !rc; k++)
		if (runs[k]->failed)
			fprintf(out, "note: %s did not complete: %s\n", label_of(runs, labels, k),
				str_or(runs[k]->failure, "(no reason recorded)"));
	if (!rc && ferror(out))
		rc = -CP_EIO;
out:
	cp_free(paths);
	cp_free(t.cells);
	return rc;
}

int cp_report_compare(FILE *out, const struct cp_run_result *const *runs,
		      const char *const *labels, size_t n)
{
	size_t k;
	int rc;

	if (n == 0)
		return -CP_EINVAL;
	for (k = 0; k < n; k++) {
		fprintf(out, "== %s (kernel %s, scenario %s) ==\n", label_of(runs, labels, k),
			str_or(runs[k]->kernel, "?"), str_or(runs[k]->scenario, "?"));
		rc = cp_report_seed_lines(out, runs[k]);
		if (rc)
			return rc;
	}
	fputc('\n', out);
	return cp_report_compare_table(out, runs, labels, n);
}
