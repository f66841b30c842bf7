/*
 * fsmark.c - fs_mark's command line and report.
 *
 * fs_mark 3.3 (fs_mark.c): one worker process per -d directory, each
 * creating -n files per loop for -L loops (with -L the files are kept),
 * -D subdirectories chosen by the time-hash policy, -S the sync method
 * (default 1: fsync before close), -s the file size. After each loop it
 * prints a row "FSUse% Count Size Files/sec App_Overhead" where Count is
 * cumulative over the workers.
 */
#include "fsmark.h"

#include <cachepressure/error.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define MAX_ARGS (2 * 8 + 2 * CP_FS_MARK_MAX_DIRS + 2)

void cp_fs_mark_argv_free(char **argv)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		cp_free(argv[i]);
	cp_free(argv);
}

static int push(char **argv, size_t *n, const char *s)
{
	char *copy = cp_strdup(s);

	if (!copy)
		return -CP_ENOMEM;
	argv[(*n)++] = copy;
	argv[*n] = NULL;
	return 0;
}

static int push_u64(char **argv, size_t *n, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return push(argv, n, buf);
}

static int push_opt(char **argv, size_t *n, const char *flag, uint64_t v)
{
	int rc = push(argv, n, flag);

	return rc ? rc : push_u64(argv, n, v);
}

int cp_fs_mark_argv(const struct cp_fs_mark_args *a, const char *prog, char ***out,
		    struct cp_diag *diag)
{
	char **argv;
	size_t n = 0, i;
	int rc = 0;

	if (a->nr_dirs == 0 || a->nr_dirs > CP_FS_MARK_MAX_DIRS)
		return cp_diag_set(diag, -CP_EINVAL, "fs_mark needs 1..%d directories, not %zu",
				   CP_FS_MARK_MAX_DIRS, a->nr_dirs);
	if (a->files_per_loop == 0)
		return cp_diag_set(diag, -CP_EINVAL, "fs_mark -n must be at least 1");
	for (i = 0; i < a->nr_dirs; i++) {
		if (!a->dirs[i][0] || a->dirs[i][0] == '/' || strstr(a->dirs[i], "..") ||
		    strcmp(a->dirs[i], ".") == 0)
			return cp_diag_set(diag, -CP_EINVAL,
					   "fs_mark directory '%s' must be relative, without '..'",
					   a->dirs[i]);
		if (strlen(a->dirs[i]) >= 40)
			return cp_diag_set(diag, -CP_EINVAL,
					   "fs_mark directory '%s': fs_mark takes less than 40 bytes",
					   a->dirs[i]);
	}
	argv = cp_calloc(MAX_ARGS + 1, sizeof(*argv));
	if (!argv)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	rc = push(argv, &n, prog);
	if (!rc && a->subdirs)
		rc = push_opt(argv, &n, "-D", a->subdirs);
	if (!rc && a->files_per_subdir)
		rc = push_opt(argv, &n, "-N", a->files_per_subdir);
	if (!rc && a->sync_method >= 0)
		rc = push_opt(argv, &n, "-S", (uint64_t)a->sync_method);
	if (!rc)
		rc = push_opt(argv, &n, "-n", a->files_per_loop);
	if (!rc)
		rc = push_opt(argv, &n, "-s", a->file_size);
	if (!rc && a->loops)
		rc = push_opt(argv, &n, "-L", a->loops);
	if (!rc && a->name_len)
		rc = push_opt(argv, &n, "-p", a->name_len);
	for (i = 0; !rc && i < a->nr_dirs; i++) {
		rc = push(argv, &n, "-d");
		if (!rc)
			rc = push(argv, &n, a->dirs[i]);
	}
	if (rc) {
		cp_fs_mark_argv_free(argv);
		return cp_diag_set(diag, rc, "out of memory");
	}
	*out = argv;
	return 0;
}

uint64_t cp_fs_mark_total_files(const struct cp_fs_mark_args *a)
{
	return (uint64_t)a->nr_dirs * a->files_per_loop * (a->loops ? a->loops : 1);
}

int cp_fs_mark_parse(const char *out, struct cp_fs_mark_report *r)
{
	struct cp_fs_mark_report tmp;
	const char *line = out;
	double sum = 0, min = 0;

	memset(&tmp, 0, sizeof(tmp));
	while (*line) {
		const char *eol = strchr(line, '\n');
		double v[5];
		char *end;
		const char *p = line;
		int i;

		if (!eol)
			eol = line + strlen(line);
		for (i = 0; i < 5; i++) {
			v[i] = strtod(p, &end);
			if (end == p || end > eol)
				break;
			p = end;
		}
		while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (i == 5 && p == eol && v[1] >= 0 && v[3] >= 0) {
			tmp.files = (uint64_t)v[1];
			sum += v[3];
			if (tmp.nr_loops == 0 || v[3] < min)
				min = v[3];
			tmp.nr_loops++;
		}
		line = *eol ? eol + 1 : eol;
	}
	if (tmp.nr_loops == 0)
		return -CP_EINVAL;
	tmp.files_per_sec = (uint64_t)llround(sum / (double)tmp.nr_loops);
	tmp.min_files_per_sec = (uint64_t)llround(min);
	*r = tmp;
	return 0;
}
