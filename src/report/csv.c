/*
 * csv.c - time series as CSV; layout in csv.h. Integers only, written
 * in decimal; no kernel mechanism here.
 */
#include "report/csv.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"

static void field(FILE *out, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* Index of name among the first n of cols, or n. */
static size_t find(const char *const *cols, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n && strcmp(cols[i], name) != 0; i++)
		;
	return i;
}

int cp_report_csv_fprint(FILE *out, const struct cp_run_result *const *runs,
			 const char *const *labels, size_t n, struct cp_diag *diag)
{
	const char **cols = NULL;
	size_t *map = NULL, nr_cols = 0, cap = 0, k, i, r, c;
	bool multi = n > 1;
	int rc = 0;

	if (n == 0)
		return cp_diag_set(diag, -CP_EINVAL, "CSV output: no runs");
	for (k = 0; k < n; k++) {
		const struct cp_series *s = &runs[k]->series;

		for (i = 0; i < s->nr_columns; i++) {
			if (find(cols, nr_cols, s->columns[i]) < nr_cols)
				continue;
			if (nr_cols == cap) {
				const char **nc;

				cap = cap ? 2 * cap : 16;
				nc = cp_realloc(cols, cap * sizeof(*nc));
				if (!nc) {
					rc = cp_diag_set(diag, -CP_ENOMEM, "CSV output: out of memory");
					goto out;
				}
				cols = nc;
			}
			cols[nr_cols++] = s->columns[i];
		}
	}
	if (nr_cols == 0) {
		static const char *const t_only[] = { "t_ns" };

		cp_free(cols);
		cols = NULL;
		if (multi)
			fputs("run,", out);
		field(out, t_only[0]);
		fputc('\n', out);
		goto flush;
	}
	map = cp_calloc(nr_cols, sizeof(*map));
	if (!map) {
		rc = cp_diag_set(diag, -CP_ENOMEM, "CSV output: out of memory");
		goto out;
	}
	if (multi)
		fputs("run,", out);
	for (c = 0; c < nr_cols; c++) {
		if (c)
			fputc(',', out);
		field(out, cols[c]);
	}
	fputc('\n', out);
	for (k = 0; k < n; k++) {
		const struct cp_series *s = &runs[k]->series;

		/* map[c]: the run's column for output column c, or nr_columns */
		for (c = 0; c < nr_cols; c++)
			map[c] = find((const char *const *)s->columns, s->nr_columns, cols[c]);
		for (r = 0; r < s->nr_rows; r++) {
			if (multi) {
				field(out, labels ? labels[k] : runs[k]->policy ? runs[k]->policy : "");
				fputc(',', out);
			}
			for (c = 0; c < nr_cols; c++) {
				if (c)
					fputc(',', out);
				if (map[c] < s->nr_columns)
					fprintf(out, "%" PRId64, s->values[r * s->nr_columns + map[c]]);
			}
			fputc('\n', out);
		}
	}
flush:
	if (fflush(out) != 0 || ferror(out))
		rc = cp_diag_set(diag, -CP_EIO, "CSV output: write failed");
out:
	cp_free(cols);
	cp_free(map);
	return rc;
}

int cp_report_csv_write(const char *path, const struct cp_run_result *const *runs,
			const char *const *labels, size_t n, struct cp_diag *diag)
{
	FILE *fp = fopen(path, "w");
	int rc;

	if (!fp) {
		int e = errno;

		return cp_diag_set(diag, -CP_EIO, "%s: cannot create: %s", path, strerror(e));
	}
	rc = cp_report_csv_fprint(fp, runs, labels, n, diag);
	if (fclose(fp) != 0 && !rc)
		rc = -CP_EIO;
	if (rc == -CP_EIO)
		cp_diag_set(diag, rc, "%s: write failed", path);
	return rc;
}
