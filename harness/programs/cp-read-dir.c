/*
 * cp-read-dir - the seed author's read-dir walker: readdir() + stat() over
 * a directory tree in a loop until SIGINT/SIGTERM, reporting the passes it
 * completed and the bytes it had to read from the block device in each
 * (inode and directory blocks of an icache/dcache miss; /proc/self/io
 * read_bytes, as cp-read-file).
 *
 * read-dir.c of josefbacik/debug-scripts (cache-pressure/) walks one
 * directory and stat()s its regular files; this one stat()s every entry
 * but . and .., and with --recursive also descends into subdirectories
 * (fs_mark -D puts files one level down). Output lines:
 *
 *   DIR: loop N read bytes is X          (passes with X != 0; N from 0)
 *   DIR: total read during loops X
 *   DIR: total loops N                    (the seed's line)
 *
 * --json FILE ("-" = stdout) writes {"kind": "walker", "path", 
 * "total_read_bytes", "passes": [{"pass", "read_bytes", "end_ns",
 * "entries"}]}; --passes N stops after N passes.
 *
 * Exit: 0 done, 1 I/O error, 2 usage.
 */
#include "progutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 64

/* Walks the directory open at dfd (consumed). Returns 0, 1 when stopped by
 * a signal, -1 on error (message printed). */
static int recursive;

static int walk(int dfd, const char *name, int depth, uint64_t *entries)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "cp-read-dir: %s: fdopendir: %s\n", name, strerror(errno));
		close(dfd);
		return -1;
	}
	for (;;) {
		struct stat st;

		if (cp_prog_stop) {
			rc = 1;
			break;
		}
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno == EINTR)
				continue;
			if (errno) {
				fprintf(stderr, "cp-read-dir: %s: readdir: %s\n", name, strerror(errno));
				rc = -1;
			}
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			fprintf(stderr, "cp-read-dir: %s/%s: stat: %s\n", name, de->d_name,
				strerror(errno));
			rc = -1;
			break;
		}
		(*entries)++;
		if (recursive && S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0) {
				fprintf(stderr, "cp-read-dir: %s/%s: open: %s\n", name, de->d_name,
					strerror(errno));
				rc = -1;
				break;
			}
			rc = walk(sub, de->d_name, depth + 1, entries);
			if (rc)
				break;
		}
	}
	closedir(d);
	return rc;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cp-read-dir [--json FILE|-] [--quiet] [--passes N] [--clock-base NS]\n"
		"                   [--recursive] DIR\n"
		"readdir() + stat() over DIR (--recursive: the tree) in a loop until SIGINT/SIGTERM\n"
		"(or N passes); reports passes completed and device bytes read per pass.\n");
}

static int option(int argc, char **argv, int *i)
{
	(void)argc;
	if (strcmp(argv[*i], "--recursive") != 0)
		return 0;
	recursive = 1;
	return 1;
}

static const struct cp_prog_desc desc = {
	.name = "cp-read-dir", .operand = "DIR", .usage = usage, .option = option,
	.json_kind = "walker", .json_entries = 1,
};

/* Walks path until a stop signal or --passes; returns the exit code. */
static int walk_passes(const struct cp_prog_opts *o, struct cp_prog_passes *ps, int iofd)
{
	while (!cp_prog_stop) {
		uint64_t entries = 0;
		int dfd = open(o->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int w;

		if (dfd < 0) {
			fprintf(stderr, "cp-read-dir: %s: %s\n", o->path, strerror(errno));
			return 1;
		}
		w = walk(dfd, o->path, 0, &entries);
		if (w == 1)
			break; /* stopped mid-pass: not counted */
		if (w < 0)
			return 1;
		w = cp_prog_pass_end(&desc, o, ps, iofd, entries);
		if (w)
			return w < 0;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cp_prog_passes ps = { 0 };
	struct cp_prog_opts o;
	int iofd, rc = cp_prog_start(&desc, argc, argv, &o);

	if (rc >= 0)
		return rc;
	iofd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (iofd < 0 || cp_prog_io_read_bytes(iofd, &ps.prev_read_bytes)) {
		fprintf(stderr, "cp-read-dir: no read_bytes in /proc/self/io\n");
		return 1;
	}
	rc = walk_passes(&o, &ps, iofd);
	if (!o.quiet) {
		printf("%s: total read during loops %" PRIu64 "\n", o.path, ps.total_read_bytes);
		printf("%s: total loops %zu\n", o.path, ps.nr);
	}
	if (cp_prog_write_json(&desc, &o, &ps))
		rc = 1;
	free(ps.v);
	close(iofd);
	return rc;
}
