/*
 * fsmark.h - the real fs_mark (Debian package fsmark, version 3.3): its
 * command line and its per-loop report.
 */
#ifndef CP_FSMARK_H
#define CP_FSMARK_H

#include <stddef.h>
#include <stdint.h>

#define CP_FS_MARK_MAX_DIRS 8
#define CP_FS_MARK_DIR_MAX 64

struct cp_diag;

/* The fs_mark options the scenarios use. */
struct cp_fs_mark_args {
	size_t nr_dirs;                                   /* -d, one worker each */
	char dirs[CP_FS_MARK_MAX_DIRS][CP_FS_MARK_DIR_MAX]; /* relative to the mount point */
	uint64_t files_per_loop;                          /* -n, per worker */
	uint64_t loops;                                   /* -L (0 = not given) */
	uint64_t subdirs;                                 /* -D (0 = not given) */
	uint64_t files_per_subdir;                        /* -N (0 = not given) */
	int sync_method;                                  /* -S (-1 = not given: fsync per file) */
	uint64_t file_size;                               /* -s */
	uint64_t name_len;                                /* -p (0 = not given: 40) */
};

/* Builds argv: prog [-D n] [-N n] [-S m] -n n -s s [-L l] [-p n] -d dir
 * ..., NULL-terminated, in the seed script's order. The directories stay
 * relative: fs_mark 3.3 refuses a -d path of 40 bytes or more, so it runs
 * with its working directory on the mount point. *out is freed with
 * cp_fs_mark_argv_free(). Returns 0, -CP_EINVAL (no dirs, -n 0, a dir
 * that is absolute, holds "..", or has 40 bytes or more) or -CP_ENOMEM. */
int cp_fs_mark_argv(const struct cp_fs_mark_args *a, const char *prog, char ***out,
		    struct cp_diag *diag);
void cp_fs_mark_argv_free(char **argv);

/* Files fs_mark will create: nr_dirs * files_per_loop * max(loops, 1). */
uint64_t cp_fs_mark_total_files(const struct cp_fs_mark_args *a);

/* What fs_mark printed: one table row per loop
 * ("FSUse% Count Size Files/sec App-Overhead"). */
struct cp_fs_mark_report {
	size_t nr_loops;            /* rows parsed */
	uint64_t files;             /* Count of the last row (cumulative) */
	uint64_t files_per_sec;     /* mean of the rows' Files/sec, rounded */
	uint64_t min_files_per_sec; /* slowest row, rounded */
};

/* Parses fs_mark's stdout. Lines starting with '#' and the header are
 * skipped. Returns 0, or -CP_EINVAL when there is no table row. */
int cp_fs_mark_parse(const char *out, struct cp_fs_mark_report *r);

#endif /* CP_FSMARK_H */
