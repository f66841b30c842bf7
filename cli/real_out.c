/*
 * real_out.c - the seed's lines, tables and JSON for `cachepressure real`.
 */
#include "real_out.h"

#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double mib(double bytes)
{
	return bytes / 1048576.0;
}

void real_print_run(FILE *out, const struct cp_run_result *r, const char *fs, unsigned idx,
		    unsigned nr)
{
	static const char *const keys[] = { "pgscan_kswapd",	      "pgscan_direct",
					    "pgsteal_kswapd",	      "pgsteal_direct",
					    "slabs_scanned",	      "kswapd_inodesteal",
					    "workingset_refault_file", "workingset_activate_file",
					    "nr_slab_reclaimable",    "xfs_ig_missed",
					    "memcg_failcnt",	      "memcg_oom_kill" };
	size_t i, j;
	int64_t v;

	fprintf(out, "# run %u/%u: real %s, confine %s, mem %" PRIu64 " MiB, %s, kernel %s\n",
		idx + 1, nr, r->scenario, r->confine, r->mem_bytes >> 20, fs, r->kernel);
	for (i = 0; i < r->nr_readers; i++) {
		const struct cp_reader_result *rd = &r->readers[i];

		/* The seed's read-file prints a loop only when it read, and
		 * counts loops from 0. */
		for (j = 0; j < rd->nr_passes; j++)
			if (rd->passes[j].read_bytes)
				fprintf(out, "%s: loop %" PRIu32 " read bytes is %" PRIu64 "\n",
					rd->path, rd->passes[j].pass - 1, rd->passes[j].read_bytes);
	}
	for (i = 0; i < r->nr_readers; i++)
		fprintf(out, "%s: total read during loops %" PRIu64 "\n", r->readers[i].path,
			r->readers[i].total_read_bytes);
	if (r->failed)
		fprintf(out, "# run %u FAILED: %s\n", idx + 1, r->failure ? r->failure : "?");

	fprintf(out, "#\n#   %-26s %14s\n", "reader", "passes");
	for (i = 0; i < r->nr_readers; i++)
		fprintf(out, "#   %-26s %14zu\n", r->readers[i].path, r->readers[i].nr_passes);
	if ((v = cp_run_result_counter(r, "fs_mark_files", -1)) >= 0)
		fprintf(out, "#   %-26s %14" PRId64 " files, %" PRId64 " files/s, %.1f s\n",
			"fs_mark", v, cp_run_result_counter(r, "fs_mark_files_per_sec", 0),
			(double)cp_run_result_counter(r, "fs_mark_ns", 0) / 1e9);
	if ((v = cp_run_result_counter(r, "setup_fs_mark_files", -1)) >= 0)
		fprintf(out, "#   %-26s %14" PRId64 " files, %" PRId64 " files/s\n",
			"fs_mark (setup)", v,
			cp_run_result_counter(r, "setup_fs_mark_files_per_sec", 0));
	fprintf(out, "#   %-26s %14.1f s\n", "measured phase", (double)r->duration_ns / 1e9);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if ((v = cp_run_result_counter(r, keys[i], INT64_MIN)) == INT64_MIN)
			continue;
		fprintf(out, "#   %-26s %14" PRId64 "\n", keys[i], v);
	}
	fprintf(out, "\n");
}

/* Index of path in the list, adding it if new. */
static size_t path_index(const char **paths, size_t *nr, const char *path, size_t cap)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (strcmp(paths[i], path) == 0)
			return i;
	if (*nr == cap)
		return cap;
	paths[*nr] = path;
	return (*nr)++;
}

static void print_stats(FILE *out, const char *label, const double *v, size_t n)
{
	double sum = 0, min = 0, max = 0, var = 0, mean;
	size_t i;

	if (n == 0) {
		fprintf(out, "%-14s (no completed run)\n", label);
		return;
	}
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (i == 0 || v[i] < min)
			min = v[i];
		if (i == 0 || v[i] > max)
			max = v[i];
	}
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	fprintf(out, "%-14s", label);
	for (i = 0; i < n; i++)
		fprintf(out, " %10.1f", mib(v[i]));
	fprintf(out, " | %10.1f %10.1f %10.1f", mib(mean), mib(min), mib(max));
	if (n > 1)
		fprintf(out, " %10.1f %6.1f%%\n", mib(sqrt(var / (double)(n - 1))),
			mean > 0 ? 100.0 * sqrt(var / (double)(n - 1)) / mean : 0.0);
	else
		fprintf(out, " %10s %7s\n", "-", "-");
}

#define MAX_PATHS 16
#define MAX_RUNS 128

void real_print_summary(FILE *out, const struct cp_run_result *runs, size_t nr)
{
	const char *paths[MAX_PATHS];
	double v[MAX_RUNS], tot[MAX_RUNS];
	size_t nr_paths = 0, i, k, n;

	for (i = 0; i < nr && i < MAX_RUNS; i++)
		for (k = 0; k < runs[i].nr_readers; k++)
			path_index(paths, &nr_paths, runs[i].readers[k].path, MAX_PATHS);
	fprintf(out, "# bytes re-read from the device during the counted loops, MiB\n");
	fprintf(out, "%-14s", "reader");
	for (i = 0, n = 0; i < nr && i < MAX_RUNS; i++)
		if (!runs[i].failed)
			fprintf(out, " %9s%zu", "run", ++n);
	fprintf(out, " | %10s %10s %10s %10s %7s\n", "mean", "min", "max", "sd", "sd/mean");
	for (k = 0; k < nr_paths; k++) {
		for (i = 0, n = 0; i < nr && i < MAX_RUNS; i++) {
			size_t j;

			if (runs[i].failed)
				continue;
			v[n] = 0;
			for (j = 0; j < runs[i].nr_readers; j++)
				if (strcmp(runs[i].readers[j].path, paths[k]) == 0)
					v[n] = (double)runs[i].readers[j].total_read_bytes;
			n++;
		}
		print_stats(out, paths[k], v, n);
	}
	for (i = 0, n = 0; i < nr && i < MAX_RUNS; i++) {
		if (runs[i].failed)
			continue;
		tot[n] = 0;
		for (k = 0; k < runs[i].nr_readers; k++)
			tot[n] += (double)runs[i].readers[k].total_read_bytes;
		n++;
	}
	if (nr_paths > 1)
		print_stats(out, "total", tot, n);
	for (i = 0, n = 0; i < nr; i++)
		n += runs[i].failed ? 1 : 0;
	if (n)
		fprintf(out, "# %zu of %zu runs failed and are not in the statistics\n", n, nr);
}

static cJSON *run_json(const struct cp_run_result *r, const char *fs)
{
	cJSON *o = cJSON_CreateObject(), *readers, *counters, *series, *cols, *rows;
	size_t i, j;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "source", r->source ? r->source : "real");
	cJSON_AddStringToObject(o, "policy", r->policy ? r->policy : "");
	cJSON_AddStringToObject(o, "kernel", r->kernel ? r->kernel : "");
	cJSON_AddStringToObject(o, "scenario", r->scenario ? r->scenario : "");
	cJSON_AddStringToObject(o, "confine", r->confine ? r->confine : "");
	cJSON_AddStringToObject(o, "fs", fs);
	cJSON_AddNumberToObject(o, "mem_bytes", (double)r->mem_bytes);
	cJSON_AddNumberToObject(o, "duration_ns", (double)r->duration_ns);
	cJSON_AddBoolToObject(o, "failed", r->failed != 0);
	if (r->failure)
		cJSON_AddStringToObject(o, "failure", r->failure);
	readers = cJSON_AddArrayToObject(o, "readers");
	for (i = 0; readers && i < r->nr_readers; i++) {
		const struct cp_reader_result *rd = &r->readers[i];
		cJSON *jr = cJSON_CreateObject(), *passes;

		if (!jr)
			goto fail;
		cJSON_AddItemToArray(readers, jr);
		cJSON_AddStringToObject(jr, "path", rd->path);
		cJSON_AddNumberToObject(jr, "total_read_bytes", (double)rd->total_read_bytes);
		passes = cJSON_AddArrayToObject(jr, "passes");
		for (j = 0; passes && j < rd->nr_passes; j++) {
			cJSON *p = cJSON_CreateObject();

			if (!p)
				goto fail;
			cJSON_AddItemToArray(passes, p);
			cJSON_AddNumberToObject(p, "pass", rd->passes[j].pass);
			cJSON_AddNumberToObject(p, "read_bytes", (double)rd->passes[j].read_bytes);
			cJSON_AddNumberToObject(p, "end_ns", (double)rd->passes[j].end_ns);
		}
	}
	counters = cJSON_AddObjectToObject(o, "counters");
	for (i = 0; counters && i < r->nr_counters; i++)
		cJSON_AddNumberToObject(counters, r->counters[i].name,
					(double)r->counters[i].value);
	series = cJSON_AddObjectToObject(o, "series");
	cols = series ? cJSON_AddArrayToObject(series, "columns") : NULL;
	rows = series ? cJSON_AddArrayToObject(series, "rows") : NULL;
	if (!readers || !counters || !cols || !rows)
		goto fail;
	for (i = 0; i < r->series.nr_columns; i++)
		cJSON_AddItemToArray(cols, cJSON_CreateString(r->series.columns[i]));
	for (i = 0; i < r->series.nr_rows; i++) {
		cJSON *row = cJSON_CreateArray();

		if (!row)
			goto fail;
		cJSON_AddItemToArray(rows, row);
		for (j = 0; j < r->series.nr_columns; j++)
			cJSON_AddItemToArray(row, cJSON_CreateNumber((double)
					r->series.values[i * r->series.nr_columns + j]));
	}
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

int real_write_json(const char *path, const struct cp_run_result *runs, size_t nr,
		    const char *fs, struct cp_diag *diag)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char *text = NULL;
	FILE *f;
	size_t i;
	int rc = 0;

	arr = root ? cJSON_AddArrayToObject(root, "runs") : NULL;
	for (i = 0; arr && i < nr; i++) {
		cJSON *run = run_json(&runs[i], fs);

		if (!run) {
			arr = NULL;
			break;
		}
		cJSON_AddItemToArray(arr, run);
	}
	if (arr)
		text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory building the JSON");
	f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (!f) {
		free(text);
		return cp_diag_set(diag, -CP_EIO, "%s: cannot write", path);
	}
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		rc = -CP_EIO;
	if ((f == stdout ? fflush(f) : fclose(f)) != 0)
		rc = -CP_EIO;
	free(text);
	if (rc)
		return cp_diag_set(diag, rc, "%s: write failed", path);
	return 0;
}
