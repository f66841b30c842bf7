/*
 * real_out.c - `cachepressure real` output through src/report/.
 */
#include "real_out.h"

#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "report/report.h"
#include "report/stats.h"

/* Counters only the real harness records (report.c prints the reclaim
 * ones). */
static const char *const extra_counters[] = {
	"fs_mark_files",       "fs_mark_files_per_sec", "fs_mark_ns",
	"setup_fs_mark_files", "setup_fs_mark_files_per_sec",
	"cp_balloon_bytes",    "nr_slab_reclaimable",   "nr_dentry_end",
	"nr_inodes_end",       "xfs_ig_missed",		"memcg_failcnt",
	"memcg_max_usage_bytes", "memcg_oom_kill",	"cp_time_limit_hit",
};

void real_print_run(FILE *out, const struct cp_run_result *r, const char *fs, unsigned idx,
		    unsigned nr)
{
	size_t i;

	fprintf(out, "# run %u/%u: real %s, confine %s, mem %" PRIu64 " MiB, %s, kernel %s\n",
		idx + 1, nr, r->scenario, r->confine, r->mem_bytes >> 20, fs, r->kernel);
	cp_report_seed_lines(out, r);
	cp_report_run_table(out, r);
	for (i = 0; i < sizeof(extra_counters) / sizeof(extra_counters[0]); i++) {
		int64_t v = cp_run_result_counter(r, extra_counters[i], INT64_MIN);

		if (v != INT64_MIN)
			fprintf(out, "%-26s %" PRId64 "\n", extra_counters[i], v);
	}
	/* The icache misses of the files-in-cache scenario: XFS counts the
	 * xfs_iget() lookups that had to allocate an inode; ext4 exposes no
	 * such count. */
	if (cp_run_result_counter(r, "xfs_ig_missed", INT64_MIN) != INT64_MIN)
		fprintf(out, "icache misses              %" PRId64
			     " (XFS xfs_iget misses, /sys/fs/xfs/DEV/stats)\n",
			cp_run_result_counter(r, "xfs_ig_missed", 0));
	else
		fprintf(out, "icache misses              not exposed by this filesystem; see "
			     "nr_inodes_end and nr_slab_reclaimable\n");
	fprintf(out, "\n");
}

static void print_row(FILE *out, const char *label, const int64_t *v, size_t n)
{
	struct cp_stats s;
	char mean[32], sd[32], rel[32];
	size_t i;

	fprintf(out, "%-28s", label);
	for (i = 0; i < n; i++)
		fprintf(out, " %13" PRId64, v[i]);
	if (cp_stats_compute(v, n, &s)) {
		fprintf(out, "\n");
		return;
	}
	cp_stats_format(mean, sizeof(mean), s.mean, 0);
	cp_stats_format(sd, sizeof(sd), s.sd, 0);
	if (n > 1 && s.mean > 0)
		cp_stats_format(rel, sizeof(rel), 100.0 * s.sd / s.mean, 1);
	else
		snprintf(rel, sizeof(rel), "-");
	fprintf(out, " | %13s %13" PRId64 " %13" PRId64 " %13s %7s%s\n", mean, s.min, s.max,
		n > 1 ? sd : "-", rel, n > 1 && s.mean > 0 ? "%" : "");
}

void real_print_summary(FILE *out, const struct cp_run_result *runs, size_t nr)
{
	const char **paths = calloc(64, sizeof(*paths));
	int64_t *v = calloc(nr ? nr : 1, sizeof(*v)), *tot = calloc(nr ? nr : 1, sizeof(*tot));
	size_t nr_paths = 0, i, k, n, failed = 0;
	char hdr[32];

	if (!paths || !v || !tot)
		goto out;
	for (i = 0; i < nr; i++)
		for (k = 0; k < runs[i].nr_readers; k++) {
			size_t j;

			for (j = 0; j < nr_paths; j++)
				if (strcmp(paths[j], runs[i].readers[k].path) == 0)
					break;
			if (j == nr_paths && nr_paths < 64)
				paths[nr_paths++] = runs[i].readers[k].path;
		}
	fprintf(out, "# bytes read from the device during the counted loops, per run\n");
	fprintf(out, "%-28s", "reader");
	for (i = 0, n = 0; i < nr; i++)
		if (!runs[i].failed) {
			snprintf(hdr, sizeof(hdr), "run %zu", i + 1);
			fprintf(out, " %13s", hdr);
		}
	fprintf(out, " | %13s %13s %13s %13s %8s\n", "mean", "min", "max", "sd", "sd/mean");
	for (k = 0; k < nr_paths; k++) {
		for (i = 0, n = 0; i < nr; i++) {
			size_t j;

			if (runs[i].failed)
				continue;
			v[n] = 0;
			for (j = 0; j < runs[i].nr_readers; j++)
				if (strcmp(runs[i].readers[j].path, paths[k]) == 0)
					v[n] = (int64_t)runs[i].readers[j].total_read_bytes;
			n++;
		}
		print_row(out, paths[k], v, n);
	}
	for (i = 0, n = 0; i < nr; i++) {
		if (runs[i].failed) {
			failed++;
			continue;
		}
		tot[n] = 0;
		for (k = 0; k < runs[i].nr_readers; k++)
			tot[n] += (int64_t)runs[i].readers[k].total_read_bytes;
		n++;
	}
	if (nr_paths > 1)
		print_row(out, "total", tot, n);
	if (failed)
		fprintf(out, "# %zu of %zu runs failed and are not in the statistics\n", failed, nr);
out:
	free(paths);
	free(v);
	free(tot);
}

int real_write_json(const char *path, const struct cp_run_result *runs, size_t nr,
		    struct cp_diag *diag)
{
	const struct cp_run_result **p = calloc(nr ? nr : 1, sizeof(*p));
	size_t i;
	int rc;

	if (!p)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	for (i = 0; i < nr; i++)
		p[i] = &runs[i];
	if (strcmp(path, "-") == 0)
		rc = cp_report_json_fprint(stdout, p, nr, diag);
	else
		rc = cp_report_json_write(path, p, nr, diag);
	free(p);
	return rc;
}
